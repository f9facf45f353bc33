"""The index cache under hostile conditions (issue 7, items 9, 11, 12): an edit
that puts the old mtime back, a cache whose checksum holds but whose inner
links blob is corrupt, and the permissions of cache files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from okf_explorer.core.cache import IndexCache
from okf_explorer.core.index import build_index
from okf_explorer.sources.bundle import BundleSource


def same_size_edit_with_old_mtime(path: Path, text: str) -> None:
    """Rewrite `path` with `text` (same length) and put its old times back, as
    `touch -d` would: size and mtime are then exactly what the cache saw."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)


def bundle(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "page.md").write_text("See [[aaaa]].\n", encoding="utf-8")
    for name in ("aaaa", "bbbb"):
        (root / f"{name}.md").write_text(f"# {name}\n", encoding="utf-8")
    return root


def test_same_size_edit_with_the_old_mtime_put_back_is_rescanned(tmp_path: Path) -> None:
    root, cache = bundle(tmp_path / "b"), IndexCache(tmp_path / "cache")
    first = build_index(BundleSource(root), cache=cache)
    assert [link.to for link in first.forward["page"]] == ["aaaa"]
    same_size_edit_with_old_mtime(root / "page.md", "See [[bbbb]].\n")
    from_disk = build_index(BundleSource(root), cache=cache)
    assert [link.to for link in from_disk.forward["page"]] == ["bbbb"]
    same_size_edit_with_old_mtime(root / "page.md", "See [[aaaa]].\n")
    in_memory = build_index(BundleSource(root), previous=from_disk, cache=False)
    assert [link.to for link in in_memory.forward["page"]] == ["aaaa"]


def test_same_size_edit_seen_by_the_cli(tmp_path: Path) -> None:
    root = bundle(tmp_path / "b")
    env = {**os.environ, "OKF_EXPLORER_CACHE": str(tmp_path / "cache")}
    argv = [sys.executable, "-m", "okf_explorer", "--source", str(root), "links", "page"]

    def links() -> str:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert links() == "aaaa"
    same_size_edit_with_old_mtime(root / "page.md", "See [[bbbb]].\n")
    assert links() == "bbbb"
