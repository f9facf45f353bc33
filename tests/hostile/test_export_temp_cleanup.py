"""Issue 7, item 10: temporary files a killed export left behind are cleaned up by
the next export into that folder, and nothing else is touched."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from okf_explorer.core.export.formats import write_export

MINUTES = 60.0
HOURS = 3600.0


def _dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _leftover(folder: Path, name: str, age: float) -> Path:
    path = folder / name
    path.write_bytes(b"half an export")
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_an_export_killed_before_its_rename_is_cleaned_up_by_the_next(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import os, signal, sys
        from pathlib import Path
        from okf_explorer.core.export.formats import write_export
        os.replace = lambda *args: os.kill(os.getpid(), signal.SIGKILL)  # die mid-export
        write_export(Path(sys.argv[1]), "[]\\n")
        """
    )
    killed = subprocess.run([sys.executable, "-c", script, str(tmp_path / "slice.json")])
    assert killed.returncode == -9
    (temp,) = tmp_path.iterdir()  # the killed writer's temporary file
    assert temp.name.startswith(".slice.json.") and temp.name.endswith(".tmp")
    write_export(tmp_path / "other.json", "[]\n")
    assert temp.exists()  # just written: its writer could still be alive elsewhere
    then = time.time() - 2 * MINUTES
    os.utime(temp, (then, then))
    write_export(tmp_path / "other.json", "[]\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.json"]


def test_only_our_stale_temporary_files_are_removed(tmp_path: Path) -> None:
    dead, alive = _dead_pid(), os.getpid()
    removed = [
        _leftover(tmp_path, f".a.json.okf{dead}.abcd1234.tmp", 2 * MINUTES),  # writer gone
        _leftover(tmp_path, f".b.dot.okf{alive}.abcd1234.tmp", 2 * HOURS),  # abandoned
        _leftover(tmp_path, ".x.json.abcd_123.tmp", 2 * HOURS),  # old naming, same target
    ]
    kept = [
        _leftover(tmp_path, f".c.json.okf{dead}.abcd1234.tmp", 10.0),  # too fresh to judge
        _leftover(tmp_path, f".d.json.okf{alive}.abcd1234.tmp", 2 * MINUTES),  # writing now
        _leftover(tmp_path, ".y.json.abcd_123.tmp", 2 * HOURS),  # old naming, other target
        _leftover(tmp_path, f".e.json.okf{dead}.tmp", 2 * HOURS),  # not our pattern
        _leftover(tmp_path, f"f.json.okf{dead}.abcd1234.tmp", 2 * HOURS),  # not hidden
        _leftover(tmp_path, ".notes.tmp", 2 * HOURS),
        _leftover(tmp_path, "draft.tmp", 2 * HOURS),
    ]
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    kept.append(_leftover(outside, f".g.json.okf{dead}.abcd1234.tmp", 2 * HOURS))
    link = tmp_path / f".h.json.okf{dead}.abcd1234.tmp"
    link.symlink_to(kept[-1])
    then = time.time() - 2 * HOURS
    os.utime(link, (then, then), follow_symlinks=False)
    write_export(tmp_path / "x.json", "[]\n")
    assert not any(path.exists() for path in removed)
    assert all(path.exists() for path in kept)
    assert link.is_symlink()
