"""How scan workers read files (`sources.folder.scan`): one read for a file as big as its
`fstat` says, every byte of one that grew or shrank meanwhile."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from okf_explorer.sources.folder import scan as parallel


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
