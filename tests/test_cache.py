"""IndexCache: location, atomic writes, and refusing anything it cannot trust."""

from __future__ import annotations

import hashlib
import marshal
import os
import threading
from pathlib import Path

import platformdirs
import pytest

import okf_explorer
from okf_explorer.core.index import store as cache_module
from okf_explorer.core.index.store import IndexCache, decode_cache, encode_cache

DATA = ([("a", "A", None, ("t",), "2024", False, True, None, "1:2", None)], {"x": ("a",)}, 3)


def test_round_trip_and_file_name(tmp_path: Path) -> None:
    cache = IndexCache(tmp_path / "c")
    assert cache.save("/some/bundle", "sig", DATA)
    expected = tmp_path / "c" / (hashlib.sha256(b"/some/bundle").hexdigest() + ".idx")
    assert cache.path_for("/some/bundle") == expected and expected.exists()
    loaded = cache.load("/some/bundle")
    assert loaded is not None and (loaded.signature, loaded.data) == ("sig", DATA)
    assert os.listdir(tmp_path / "c") == [expected.name]  # no temp file left behind


def test_missing_file_loads_as_none(tmp_path: Path) -> None:
    assert IndexCache(tmp_path).load("nothing") is None


def test_sources_do_not_share_files(tmp_path: Path) -> None:
    cache = IndexCache(tmp_path)
    cache.save("one", "s1", [1])
    cache.save("two", "s2", [2])
    assert cache.load("one").data == [1] and cache.load("two").data == [2]
    cache.clear("one")
    assert cache.load("one") is None and cache.load("two") is not None


def test_a_file_stored_under_another_key_is_refused(tmp_path: Path) -> None:
    cache = IndexCache(tmp_path)
    cache.save("one", "s", [1])
    cache.path_for("one").replace(cache.path_for("two"))
    assert cache.load("two") is None


@pytest.mark.parametrize("cut", [0, 5, 23, 24, 30, -1])
def test_truncated_files_are_refused(cut: int) -> None:
    blob = encode_cache("k", "s", DATA)
    assert decode_cache(blob, "k") is not None
    assert decode_cache(blob[:cut], "k") is None


def test_flipped_bits_wrong_magic_and_wrong_version_are_refused() -> None:
    blob = bytearray(encode_cache("k", "s", DATA))
    flipped = bytearray(blob)
    flipped[-3] ^= 0x40
    assert decode_cache(bytes(flipped), "k") is None
    assert decode_cache(b"NOTOKFX\n" + bytes(blob[8:]), "k") is None
    version = cache_module.FORMAT_VERSION + 1
    assert (
        decode_cache(bytes(blob[:8]) + version.to_bytes(4, "little") + bytes(blob[12:]), "k")
        is None
    )
    assert decode_cache(bytes(blob) + b"extra", "k") is None


def test_unwritable_folder_is_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = IndexCache(blocker / "sub")
    assert cache.save("k", "s", DATA) is False
    assert cache.load("k") is None


def test_unmarshallable_data_is_not_saved(tmp_path: Path) -> None:
    assert IndexCache(tmp_path).save("k", "s", object()) is False
    assert os.listdir(tmp_path) == []


def test_failed_write_leaves_no_temp_file(tmp_path: Path, monkeypatch) -> None:
    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache_module.os, "replace", broken_replace)
    cache = IndexCache(tmp_path)
    assert cache.save("k", "s", DATA) is False
    assert os.listdir(tmp_path) == []


def test_replacing_keeps_the_old_file_until_the_new_one_is_complete(tmp_path: Path) -> None:
    cache = IndexCache(tmp_path)
    cache.save("k", "old", DATA)
    cache.save("k", "new", DATA)
    assert cache.load("k").signature == "new"


def test_cache_of_another_package_version_is_refused(monkeypatch) -> None:
    blob = encode_cache("k", "s", DATA)
    monkeypatch.setattr(okf_explorer, "__version__", "0.0.0-other")
    assert decode_cache(blob, "k") is None


def test_stale_temp_files_are_swept(tmp_path: Path) -> None:
    cache = IndexCache(tmp_path)
    old = tmp_path / (cache.path_for("k").name + "abc.tmp")
    fresh = tmp_path / (cache.path_for("k").name + "def.tmp")  # maybe a save running now
    for path in (old, fresh):
        path.write_bytes(b"half")
    os.utime(old, (0, 0))
    assert cache.save("k", "s", DATA)
    assert not old.exists() and fresh.exists()


def test_stale_atomic_temp_files_are_swept(tmp_path: Path) -> None:
    cache = IndexCache(tmp_path)
    old = tmp_path / f".{cache.path_for('k').name}.abc.tmp"
    old.write_bytes(b"half")
    os.utime(old, (0, 0))
    assert cache.save("k", "s", DATA)
    assert not old.exists()


def test_directory_from_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("OKF_EXPLORER_CACHE", str(tmp_path / "env"))
    assert IndexCache().directory == tmp_path / "env"
    assert IndexCache.from_environment().directory == tmp_path / "env"
    monkeypatch.setenv("OKF_EXPLORER_CACHE", "OFF")
    assert IndexCache.from_environment() is None
    monkeypatch.delenv("OKF_EXPLORER_CACHE")
    assert IndexCache().directory == Path(platformdirs.user_cache_dir("okf-explorer"))


def test_the_cache_is_written_without_fsync_and_exports_still_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CRC rejects a torn cache file, so saving it skips fsync; an export does not."""
    from okf_explorer.core import atomic

    synced: list[int] = []
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: synced.append(fd))
    assert IndexCache(tmp_path / "cache").save("key", "sig", {"a": 1})
    assert synced == [] and IndexCache(tmp_path / "cache").load("key") is not None
    atomic.atomic_write(tmp_path / "export.json", b"[]")
    assert len(synced) == 2  # the file, then its folder


def test_links_asked_while_another_thread_decodes_them_wait_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cached index's links are decoded on first use. A second thread asking while the
    first decoded got the still-empty columns, took them for a broken cache and built the
    whole index again (on obsidian-hub: every explorer start, ~1 s of work and full
    collections inside the first keys)."""
    blob = marshal.dumps(([(), ()], [(), ()]))
    decoding, release = threading.Event(), threading.Event()
    real = marshal.loads

    def slow(data: bytes) -> object:
        decoding.set()
        release.wait(5)
        return real(data)

    monkeypatch.setattr(cache_module.marshal, "loads", slow)
    links = cache_module._Links(blob, ["a", "b"])
    first = threading.Thread(target=links.load)
    first.start()
    assert decoding.wait(5)
    answers: list[object] = []
    second = threading.Thread(target=lambda: answers.append(links.raw_links()))
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waiting for the decode
    release.set()
    first.join(5)
    second.join(5)
    assert answers == [{"a": (), "b": ()}]
