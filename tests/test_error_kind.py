"""A page's failure is a typed `error_kind`, not a message prefix: it decides what a
refresh retries, and it survives the disk cache."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from okf_explorer.core.index import store as cache_module
from okf_explorer.core.index.build import build_index
from okf_explorer.core.index.store import IndexCache
from okf_explorer.core.pages import PAGE_INFO_ROW_LENGTH, Page, PageInfo
from okf_explorer.core.port import PageStub, ScannedPage
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import CountingSource, open_refusing, write_bundle


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    files = {"a.md": "# A\n[[b]]", "b.md": "---\ntitle: [unclosed\n---\n[[a]]"}
    return write_bundle(tmp_path / "brain", {**files, "bad.md": b"[[a]] \xff"})


def kinds(infos: dict[str, PageInfo]) -> dict[str, tuple[bool, str | None]]:
    return {slug: (info.readable, info.error_kind) for slug, info in infos.items()}


EXPECTED = {"a": (True, None), "b": (True, "malformed"), "bad": (False, "undecodable")}


def test_page_info_rows_round_trip() -> None:
    info = PageInfo(
        slug="s", title="T", tags=("x",), readable=False, error="e", error_kind="unreadable"
    )
    assert len(info.to_row()) == PAGE_INFO_ROW_LENGTH
    assert PageInfo.from_row(info.to_row()) == info
    with pytest.raises(ValueError):
        PageInfo.from_row(info.to_row()[:10])  # the layout of cache format 3


def test_error_kinds_survive_the_disk_cache(bundle: Path, tmp_path: Path) -> None:
    cache = IndexCache(tmp_path / "cache")
    first = build_index(CountingSource(bundle), cache=cache)
    assert kinds(first.pages) == EXPECTED
    restarted = CountingSource(bundle)
    second = build_index(restarted, cache=IndexCache(tmp_path / "cache"))
    assert restarted.scans == [[]]  # bad.md is not retried: its bytes decide
    assert kinds(second.pages) == EXPECTED
    assert second.pages == first.pages


def test_an_io_failure_is_retried_after_a_restart(bundle: Path, tmp_path: Path, monkeypatch):
    refusing_open = open_refusing("a.md")
    cache = IndexCache(tmp_path / "cache")
    with monkeypatch.context() as patch:
        patch.setattr(os, "open", refusing_open)
        first = build_index(BundleSource(bundle), cache=cache)
    assert kinds(first.pages)["a"] == (False, "unreadable")
    restarted = CountingSource(bundle)
    second = build_index(restarted, cache=cache)
    assert restarted.scans == [["a"]]
    assert kinds(second.pages) == EXPECTED


def test_a_cache_of_the_old_row_layout_is_rebuilt(bundle: Path, tmp_path: Path) -> None:
    cache = IndexCache(tmp_path / "cache")
    fresh = build_index(BundleSource(bundle), cache=cache)
    stored = cache.load(BundleSource(bundle).cache_key)
    assert stored is not None
    complete, infos, *rest = stored.data
    old_rows = [row[:10] for row in infos]  # format 3: no `tags_known`, no `error_kind`
    cache.save(BundleSource(bundle).cache_key, stored.signature, (complete, old_rows, *rest))
    restarted = CountingSource(bundle)
    index = build_index(restarted, cache=cache)
    assert restarted.scans == [["a", "b", "bad"]]
    assert index.pages == fresh.pages


def test_a_cache_file_of_format_3_is_not_loaded(bundle: Path, tmp_path: Path, monkeypatch):
    cache = IndexCache(tmp_path / "cache")
    with monkeypatch.context() as patch:
        patch.setattr(cache_module, "FORMAT_VERSION", 3)
        build_index(BundleSource(bundle), cache=cache)
    assert cache.load(BundleSource(bundle).cache_key) is None
    restarted = CountingSource(bundle)
    assert kinds(build_index(restarted, cache=cache).pages) == EXPECTED
    assert restarted.scans == [["a", "b", "bad"]]


class ReportingSource:
    """A source (pure logic) whose scan reports fixed failures: only the kind counts."""

    label = cache_key = "fake://reporting"

    def __init__(self, failures: dict[str, tuple[str, str]]) -> None:
        self.failures = failures
        self.scans: list[list[str]] = []

    def enumerate(self) -> list[PageStub]:
        return [PageStub(slug, "1") for slug in sorted(self.failures)]

    def get_page(self, slug: str) -> Page:
        raise AssertionError("not called")

    def scan(self, stubs, progress=None, cancel=None) -> Iterator[ScannedPage]:
        self.scans.append([stub.slug for stub in stubs])
        for stub in stubs:
            error, kind = self.failures[stub.slug]
            info = PageInfo(
                slug=stub.slug,
                title=stub.slug,
                readable=False,
                error=error,
                fingerprint="1",
                error_kind=kind,  # type: ignore[arg-type]
            )
            yield ScannedPage(info, ())

    def server_graph(self) -> None:
        return None

    def close(self) -> None:
        pass


def test_what_a_refresh_retries_is_decided_by_the_kind_not_the_message() -> None:
    source = ReportingSource(
        {
            "looks-bad": ("not valid UTF-8, says the server", "unreadable"),
            "is-bad": ("byte soup", "undecodable"),
        }
    )
    first = build_index(source, cache=False)
    assert kinds(first.pages) == {
        "is-bad": (False, "undecodable"),
        "looks-bad": (False, "unreadable"),
    }
    build_index(source, previous=first, cache=False)
    assert source.scans[-1] == ["looks-bad"]
