"""The index cache written by a forked child (`core/index/cache_writer.py`).

Forking depends on the process (single-threaded, POSIX, fast paths on), so each case
runs in a fresh interpreter, as the command line does; the threshold is lowered there
so a small bundle of our own is "large".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX only")


def make_bundle(root: Path) -> Path:
    root.mkdir()
    (root / "a.md").write_text("---\ntype: note\n---\n# A\n\nSee [[b]] and [[c]].\n")
    (root / "b.md").write_text("# B\n\nBack to [[a]].\n")
    (root / "c.md").write_text("# C\n")
    return root


def run(code: str, tmp_path: Path, **env: str) -> dict:
    """`code` in a fresh interpreter (its last line printed is JSON), with the fast paths
    on unless `env` turns them off: these tests are about the forking path itself."""
    base = {name: value for name, value in os.environ.items() if name != "OKF_EXPLORER_PLAIN"}
    prelude = textwrap.dedent(
        """
        import json, os, sys, threading, time
        import okf_explorer.core.index.build as index_module
        from okf_explorer.core.index import cache_writer
        from okf_explorer.core.index.store import IndexCache
        from okf_explorer.core.index.build import build_index
        from okf_explorer.sources.folder.bundle import BundleSource
        index_module.BACKGROUND_WRITE_FROM = 1
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**base, **env},
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def build_and_report(tmp_path: Path, bundle: Path) -> str:
    """Code that builds `bundle` with a cache and prints whether a writer is pending and
    whether the cache file is there when the build returns (indented as the tests' code,
    which `run` dedents)."""
    return f"""
        cache = IndexCache({str(tmp_path / "cache")!r})
        source = BundleSource({str(bundle)!r})
        build_index(source, cache=cache)
        written = cache.path_for(source.cache_key).exists()
        print(json.dumps({{"pending": len(cache_writer._pending), "written": written}}))
        """


def test_a_single_threaded_build_returns_before_its_child_writes_and_a_load_waits(
    tmp_path: Path,
) -> None:
    bundle = make_bundle(tmp_path / "brain")
    found = run(
        f"""
        cache = IndexCache({str(tmp_path / "cache")!r})
        source = BundleSource({str(bundle)!r})
        index = build_index(source, cache=cache)
        pending = dict(cache_writer._pending)
        loaded = cache.load(source.cache_key)  # waits for the writer
        print(json.dumps({{
            "pending": list(pending) == [str(cache.path_for(source.cache_key))],
            "child": bool(pending) and list(pending.values())[0] != os.getpid(),
            "loaded": loaded is not None and loaded.signature == index.signature,
            "left": len(cache_writer._pending),
        }}))
        """,
        tmp_path,
    )
    assert found == {"pending": True, "child": True, "loaded": True, "left": 0}


def test_the_process_waits_for_its_writer_at_exit(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path / "brain")
    cache_dir = tmp_path / "cache"
    found = run(
        f"""
        source = BundleSource({str(bundle)!r})
        build_index(source, cache=IndexCache({str(cache_dir)!r}))
        print(json.dumps({{"pending": len(cache_writer._pending)}}))
        """,
        tmp_path,
    )
    assert found == {"pending": 1}
    from okf_explorer.core.index.store import IndexCache
    from okf_explorer.sources.folder.bundle import BundleSource

    assert IndexCache(cache_dir).load(BundleSource(bundle).cache_key) is not None


@pytest.mark.parametrize("why", ["thread", "plain", "small"])
def test_no_child_with_another_thread_without_fast_paths_or_for_a_small_cache(
    tmp_path: Path, why: str
) -> None:
    bundle = make_bundle(tmp_path / "brain")
    found = run(
        f"""
        why = {why!r}
        if why == "thread":
            stop = threading.Event()
            threading.Thread(target=stop.wait, daemon=True).start()
        if why == "small":
            index_module.BACKGROUND_WRITE_FROM = 4  # the bundle has 3 pages
        """
        + build_and_report(tmp_path, bundle),
        tmp_path,
        **({"OKF_EXPLORER_PLAIN": "1"} if why == "plain" else {}),
    )
    assert found == {"pending": 0, "written": True}


def test_a_later_write_of_the_same_file_lands_after_the_earlier_one(tmp_path: Path) -> None:
    target = tmp_path / "file"
    found = run(
        f"""
        target = {str(target)!r}

        def writer(text, pause):
            def write():
                time.sleep(pause)
                with open(target, "a") as handle:
                    handle.write(text)
                return True
            return write

        first = cache_writer.write_soon(target, writer("old,", 0.3))
        second = cache_writer.write_soon(target, writer("new", 0.0))
        cache_writer.wait_all()
        print(json.dumps([first, second, open(target).read()]))
        """,
        tmp_path,
    )
    assert found == [None, None, "old,new"]


def test_a_writer_that_fails_leaves_no_cache_and_the_next_build_rebuilds(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path / "brain")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    found = run(
        f"""
        cache = IndexCache({str(blocker / "cache")!r})
        source = BundleSource({str(bundle)!r})
        first = build_index(source, cache=cache)
        target = str(cache.path_for(source.cache_key))
        forked = target in cache_writer._pending
        waited = cache_writer.wait_for(target)  # False: the child failed
        again = build_index(source, cache=cache)
        print(json.dumps([forked and not waited, cache.load(source.cache_key) is None,
                          sorted(first.pages) == sorted(again.pages)]))
        """,
        tmp_path,
    )
    assert found == [True, True, True]


def test_a_fork_that_fails_writes_in_place(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path / "brain")
    found = run(
        """
        def no_fork():
            raise BlockingIOError(11, "Resource temporarily unavailable")
        os.fork = no_fork
        """
        + build_and_report(tmp_path, bundle),
        tmp_path,
    )
    assert found == {"pending": 0, "written": True}
