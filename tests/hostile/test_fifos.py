"""A FIFO where a file should be never hangs us.

Before: a vault whose `index.md` was a FIFO hung every command (`stats`: the check
whether the folder is an OKF bundle opened it and waited for a writer); a FIFO as
`.obsidian/app.json` hung `search` and the explorer, as `.vscode/settings.json` or a
`.base` would have; `save --as x` hung when `x.md` was a FIFO. Each is now read by
`sources.folder.regular_files.read_head`, non-blocking, and refused unless it is a
regular file. Run in a child process with a deadline, so a regression fails instead of
hanging the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.mcp_server_fixture import subprocess_env

READ_ALL = """
import sys
from okf_explorer.core.bases import BaseError
from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.base_files import read_base_file
from okf_explorer.sources.folder.bundle import BundleSource

root = sys.argv[1]
source = BundleSource(root)
brain = Brain(source, cache_dir=False)
hits = [hit.slug for hit in brain.text_search().search("words")]
print(source.okf_reserved(), source.line_breaks().hard, hits)
try:
    read_base_file(root + "/views.base")
except BaseError as error:
    print(error)
"""


def read_all(tmp_path: Path, root: Path) -> list[str]:
    """`READ_ALL`'s lines over the vault at `root`, in a child with a deadline."""
    done = subprocess.run(
        [sys.executable, "-c", READ_ALL, str(root)],
        env=subprocess_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize(
    "fifo", ["index.md", ".obsidian/app.json", ".vscode/settings.json", "views.base"]
)
def test_a_fifo_as_a_side_file_is_not_read(tmp_path: Path, fifo: str) -> None:
    root = tmp_path / "vault"
    (root / ".obsidian").mkdir(parents=True)
    (root / ".vscode").mkdir()
    (root / "note.md").write_text("# Note\n\nSome words.\n")
    os.mkfifo(root / fifo)
    first, last = read_all(tmp_path, root)
    assert first == "False True ['note']"
    reason = "is not a regular file" if fifo == "views.base" else "no such file"
    assert reason in last.casefold()


@pytest.mark.skipif(not os.path.exists("/proc/kmsg"), reason="no /proc/kmsg here")
def test_a_link_to_a_file_that_would_block_is_not_read(tmp_path: Path) -> None:
    """`/proc/kmsg` is a regular file that blocks until the kernel logs something: a page
    linked to it made the OKF-bundle check wait forever (a plain open), then, opened
    non-blocking, read nothing at all (`None`) and failed with an internal error. It is
    now a file that cannot be read, and the rest of the vault reads. (Not root: the open
    itself is refused, which reads alike.)"""
    root = tmp_path / "vault"
    root.mkdir()
    (root / "note.md").write_text("# Note\n\nSome words.\n")
    (root / "kmsg.md").symlink_to("/proc/kmsg")
    assert read_all(tmp_path, root)[0] == "False True ['note']"


def test_a_save_over_a_fifo_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "a.md").write_text("# A\n\n[[b]]\n")
    (root / "b.md").write_text("# B\n")
    os.mkfifo(root / "slice.md")
    done = subprocess.run(
        [sys.executable, "-m", "okf_explorer", "--source", str(root), "save", "a", "--as", "slice"],
        env=subprocess_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"okf-explorer: refused: page exists; choose another --as ({root}/slice.md is not a"
        " regular file)\n"
    )
    assert (root / "slice.md").is_fifo()
