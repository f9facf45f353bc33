"""The index cache under hostile conditions (issue 7, items 9, 11, 12): an edit
that puts the old mtime back, a cache whose checksum holds but whose inner
links blob is corrupt, and the permissions of cache files."""

from __future__ import annotations

import json
import marshal
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.index.build import build_index
from okf_explorer.core.index.store import IndexCache, encode_cache
from okf_explorer.server.tools import call_tool
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_pages
from tests.mcp_server_fixture import stdio_session

pytestmark = pytest.mark.plain


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
    return write_pages(root, {"page": "See [[aaaa]].\n", "aaaa": "# aaaa\n", "bbbb": "# bbbb\n"})


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


def corrupt_links_blob(cache: IndexCache, root: Path) -> None:
    """Cut the nested links blob of the stored cache in half, keeping the file's
    header and checksum valid (so only the lazy decoding of the links fails)."""
    key = BundleSource(root).cache_key
    stored = cache.load(key)
    assert stored is not None
    data = list(stored.data)
    at = _blob_position(data)
    blob = data[at]
    assert len(blob) > 4
    data[at] = blob[: len(blob) // 2]
    cache.path_for(key).write_bytes(encode_cache(key, stored.signature, tuple(data)))
    assert cache.load(key) is not None  # the checksum still holds


def _blob_position(data: list | tuple) -> int:
    """Where the payload (`index_store.cache_payload`) keeps its one marshal blob."""
    (at,) = [i for i, part in enumerate(data) if isinstance(part, bytes)]
    return at


def links_blob_loads(cache: IndexCache, root: Path) -> bool:
    stored = cache.load(BundleSource(root).cache_key)
    if stored is None:
        return False
    try:
        marshal.loads(stored.data[_blob_position(stored.data)])
    except (ValueError, EOFError, TypeError):
        return False
    return True


def tool_json(brain: Brain, name: str, **arguments: object) -> object:
    reply = call_tool(brain, name, arguments)
    assert not reply.is_error, (name, reply.value)
    return reply.value


def test_corrupt_links_blob_is_rebuilt_for_the_server_tools(tmp_path: Path) -> None:
    root, cache = bundle(tmp_path / "b"), IndexCache(tmp_path / "cache")
    build_index(BundleSource(root), cache=cache)
    corrupt_links_blob(cache, root)
    brain = Brain(BundleSource(root), cache_dir=tmp_path / "cache")
    try:
        links = tool_json(brain, "get_links", slug="page")
        assert [row["to_slug"] for row in links] == ["aaaa"]  # type: ignore[union-attr]
        edges = tool_json(brain, "traverse_graph", slug="page", depth=1, direction="out")
        assert "aaaa" in json.dumps(edges)
        tool_json(brain, "get_page", slug="page")
        tool_json(brain, "get_backlinks", slug="aaaa")
        assert [link.to for link in brain.forward_links("page")] == ["aaaa"]  # the TUI's call
    finally:
        brain.close()
    assert links_blob_loads(cache, root)  # healed on disk


def test_corrupt_links_blob_with_a_page_changed_rescans(tmp_path: Path) -> None:
    root, cache = bundle(tmp_path / "b"), IndexCache(tmp_path / "cache")
    build_index(BundleSource(root), cache=cache)
    corrupt_links_blob(cache, root)
    (root / "page.md").write_text("See [[bbbb]] now.\n", encoding="utf-8")
    index = build_index(BundleSource(root), cache=cache)
    assert [link.to for link in index.forward["page"]] == ["bbbb"]
    assert dict(index.raw_links)["aaaa"] == ()
    assert links_blob_loads(cache, root)


def test_corrupt_links_blob_cli_and_serve(tmp_path: Path) -> None:
    root, cache = bundle(tmp_path / "b"), IndexCache(tmp_path / "cache")
    build_index(BundleSource(root), cache=cache)
    corrupt_links_blob(cache, root)
    env = {**os.environ, "OKF_EXPLORER_CACHE": str(tmp_path / "cache")}
    cli = [sys.executable, "-m", "okf_explorer", "--source", str(root)]
    for args in (["links", "page"], ["links", "aaaa", "--direction", "in"]):
        done = subprocess.run([*cli, *args], env=env, capture_output=True, text=True, timeout=120)
        assert (done.returncode, done.stderr) == (0, "")
    session = stdio_session({"name": "get_links", "arguments": {"slug": "page"}})
    done = subprocess.run(
        [*cli[:3], "serve", str(root), "--stdio"],
        input=session,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    replies = {reply["id"]: reply for reply in map(json.loads, done.stdout.splitlines())}
    result = replies[1]["result"]
    assert not result.get("isError"), result
    assert "aaaa" in result["content"][0]["text"] and "Traceback" not in done.stderr
    assert links_blob_loads(cache, root)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_cache_files_are_private_whatever_the_umask(tmp_path: Path) -> None:
    root = bundle(tmp_path / "b")
    folder = tmp_path / "deep" / "cache"
    old = os.umask(0)
    try:
        build_index(BundleSource(root), cache=IndexCache(folder))
    finally:
        os.umask(old)
    files = list(folder.iterdir())
    assert files and all(mode_of(path) == 0o600 for path in files)
    assert mode_of(folder) == 0o700


def test_cache_files_of_older_versions_are_made_private(tmp_path: Path) -> None:
    root, folder = bundle(tmp_path / "b"), tmp_path / "cache"
    cache = IndexCache(folder)
    build_index(BundleSource(root), cache=cache)
    (cached,) = folder.iterdir()
    cached.chmod(0o644)  # as okf-explorer wrote them before
    build_index(BundleSource(root), cache=cache)  # nothing changed: loaded, not rewritten
    assert mode_of(cached) == 0o600
    (root / "page.md").write_text("See [[bbbb]], changed.\n", encoding="utf-8")
    cached.chmod(0o644)
    build_index(BundleSource(root), cache=cache)  # rewritten
    assert mode_of(cached) == 0o600


def test_the_default_cache_folder_is_made_private(tmp_path: Path, monkeypatch) -> None:
    default = tmp_path / "user-cache" / "okf-explorer"
    default.mkdir(parents=True, mode=0o755)
    default.chmod(0o755)  # as okf-explorer left it before
    monkeypatch.delenv("OKF_EXPLORER_CACHE")
    monkeypatch.setattr(
        "platformdirs.user_cache_dir", lambda name: str(tmp_path / "user-cache" / name)
    )
    build_index(BundleSource(bundle(tmp_path / "b")), cache=None)
    assert mode_of(default) == 0o700
    assert [mode_of(path) for path in default.iterdir()] == [0o600]


def test_a_folder_the_user_named_keeps_its_mode_but_files_are_private(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    build_index(BundleSource(bundle(tmp_path / "b")), cache=IndexCache(shared))
    assert mode_of(shared) == 0o755
    assert [mode_of(path) for path in shared.iterdir()] == [0o600]
