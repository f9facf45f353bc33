"""How scan workers read files and send rows back (`sources.folder.scan`): one read for a
file as big as its `fstat` says, every byte of one that grew or shrank meanwhile; a
chunk's rows as one `marshal` string that reads back as the rows themselves, pickled as
they are when marshal cannot write them or under `OKF_EXPLORER_PLAIN=1`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from okf_explorer.core import fast_paths
from okf_explorer.core.index.page_pass import LinkPass
from okf_explorer.sources.folder import scan as parallel
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_file

pytestmark = pytest.mark.plain

PAGES = {
    "index.md": "---\ntitle: Home\naliases: [Start]\ntags: [a]\n---\n[[x]] [[Guide]] [b](b/x.md)",
    "b/x.md": "---\ntitle: Guide\nrelated: [Home, Nobody]\nupdated: 2024-01-02\n---\n[[x]] ![[x]]",
    "x.md": "# X\n[[index]] [[ghost]] [[index]]\n",
    "bad.md": b"\xff\xfe",
    "empty.md": "",
}


def _items(root: Path) -> tuple[str, list[tuple[str, str]]]:
    for rel, text in PAGES.items():
        write_file(root, rel, text)
    source = BundleSource(root)
    return source.cache_key, [(stub.slug, stub.fingerprint) for stub in source.enumerate()]


@pytest.fixture
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fast_paths.PLAIN_ENV, "0")


def test_a_chunk_travels_as_one_marshal_string(tmp_path: Path, fast: None) -> None:
    root, items = _items(tmp_path)
    link_pass = LinkPass([slug for slug, _ in items])
    expected = parallel.scan_chunk(root, items, link_pass)
    parallel._start_worker(link_pass)
    try:
        sent = parallel._worker_chunk(root, items)
    finally:
        parallel._start_worker(None)
    assert isinstance(sent, bytes)
    assert parallel._rows_back(sent) == expected
    assert any(resolved is not None for _, resolved in expected)


def test_rows_marshal_cannot_write_travel_as_they_are(tmp_path: Path, fast: None) -> None:
    root, items = _items(tmp_path)
    parallel._start_worker(lambda slug, links: object())
    try:
        sent = parallel._worker_chunk(root, items)
    finally:
        parallel._start_worker(None)
    assert isinstance(sent, list) and parallel._rows_back(sent) is sent


def test_the_plain_switch_sends_rows_as_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, items = _items(tmp_path)
    monkeypatch.setenv(fast_paths.PLAIN_ENV, "1")
    sent = parallel._worker_chunk(root, items)
    assert isinstance(sent, list) and sent == parallel.scan_chunk(root, items, None)


def read_regular(path: Path) -> tuple[int, bytes, str] | None:
    fd = os.open(path, os.O_RDONLY)
    try:
        return parallel._read_regular(fd)
    finally:
        os.close(fd)


@pytest.mark.parametrize("size", [0, 1, 4095, 65536, 65537, 300_000])
def test_a_file_is_read_whole(tmp_path: Path, size: int) -> None:
    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    (tmp_path / "f.md").write_bytes(data)
    found = read_regular(tmp_path / "f.md")
    assert found is not None and found[1] == data


@pytest.mark.parametrize("stated", [0, 10, 99, 101, 5000])
def test_a_file_that_changed_size_since_its_stat_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stated: int
) -> None:
    """`fstat` said `stated` bytes, the file holds 100 (it grew or shrank meanwhile)."""
    data = b"y" * 100
    (tmp_path / "f.md").write_bytes(data)
    real_fstat = os.fstat

    class Stat:
        def __init__(self, fd: int) -> None:
            self._real = real_fstat(fd)
            self.st_size = stated

        def __getattr__(self, name: str) -> object:
            return getattr(self._real, name)

    monkeypatch.setattr(parallel.os, "fstat", Stat)
    found = read_regular(tmp_path / "f.md")
    assert found is not None and found[1] == data
