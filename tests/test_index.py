"""build_index: resolution, reverse index, incremental refresh, disk cache."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from okf_explorer.core.errors import Cancelled, PageNotFound
from okf_explorer.core.index.build import build_index
from okf_explorer.core.index.model import LinkIndex, ResolvedLink
from okf_explorer.core.index.store import IndexCache
from okf_explorer.core.pages import Page, PageInfo
from okf_explorer.core.port import (
    Folder,
    PageSource,
    PageStub,
)
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import CountingSource, WrappedSource, open_refusing, scan_sequentially
from tests.bundles import write_file as write

pytestmark = pytest.mark.plain


def touch_later(path: Path, seconds: int = 5) -> None:
    """Move the mtime forward so the fingerprint surely changes."""
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + seconds * 1_000_000_000))


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    root = tmp_path / "brain"
    write(
        root, "a.md", "# A\n[[b]] then [[b|again]] and [[B]] and [c](sub/c.md) [[missing]] [[dup]]"
    )
    write(root, "b.md", "---\ntitle: Bee\n---\n[[a]] ![[a]] [[nowhere]]")
    write(root, "sub/c.md", "[up](../a.md) [[Bee]] [folder](/sub/)")
    write(root, "sub/index.md", "# Sub\n[[missing]]")
    write(root, "p/dup.md", "x")
    write(root, "q/r/dup.md", "x")
    write(root, "bad.md", b"[[a]] \xff")
    return root


def link_view(index: LinkIndex, slug: str) -> list[tuple]:
    return [
        (link.target, link.to, link.kind, link.rule, link.count) for link in index.forward[slug]
    ]


def test_forward_links_resolved_deduplicated_in_first_appearance_order(bundle: Path) -> None:
    index = build_index(BundleSource(bundle), cache=False)
    assert list(index.pages) == ["a", "b", "bad", "p/dup", "q/r/dup", "sub/c", "sub/index"]
    assert link_view(index, "a") == [
        ("b", "b", "wiki", "exact", 3),  # [[b]], [[b|again]], [[B]] → one link, counts summed
        ("sub/c.md", "sub/c", "markdown", "path", 1),
        ("missing", "missing", "wiki", "dangling", 1),
        ("dup", "p/dup", "wiki", "basename", 1),
    ]
    assert link_view(index, "b") == [
        ("a", "a", "wiki", "exact", 2),
        ("nowhere", "nowhere", "wiki", "dangling", 1),
    ]
    assert link_view(index, "sub/c") == [
        ("../a.md", "a", "markdown", "path", 1),
        ("Bee", "b", "wiki", "title", 1),
        ("/sub/", "sub/index", "markdown", "folder-index", 1),
    ]
    assert index.out_slugs("a") == ("b", "sub/c", "missing", "p/dup")


def test_reverse_index_dangling_and_ambiguity(bundle: Path) -> None:
    index = build_index(BundleSource(bundle), cache=False)
    assert index.reverse["a"] == ("b", "sub/c")  # bad.md is unreadable: its links not followed
    assert index.in_slugs("missing") == ("a", "sub/index")
    assert index.in_slugs("b") == ("a", "sub/c")
    assert index.in_slugs("q/r/dup") == ()
    assert index.dangling_ids() == ["missing", "nowhere"]
    assert not index.exists("missing") and index.exists("sub/c")
    dup = index.forward["a"][3]
    assert dup.ambiguous and index.ambiguous == 1
    assert index.forward["bad"] == () and not index.pages["bad"].readable
    assert "not valid UTF-8" in (index.pages["bad"].error or "")
    for node, froms in index.reverse.items():
        assert list(froms) == sorted(set(froms))
        assert all(node in index.out_slugs(frm) for frm in froms)


def test_plain_scan_protocol_gives_the_same_index(bundle: Path) -> None:
    plain = WrappedSource(bundle)
    assert isinstance(plain, PageSource) and not isinstance(plain, Folder)
    assert isinstance(CountingSource(bundle), Folder)
    index = build_index(plain, cache=False)
    assert len(plain.scans[0]) == 7
    assert_same_index(index, build_index(BundleSource(bundle), cache=False))


def test_walk_helpers_work_on_a_hand_built_index() -> None:
    link = ResolvedLink(target="B", to="b", kind="wiki", rule="case")
    gone = ResolvedLink(target="zz", to="zz", kind="wiki", rule="dangling")
    index = LinkIndex(
        pages={"a": PageInfo("a", "A"), "b": PageInfo("b", "B")},
        forward={"a": (link, gone), "b": ()},
        reverse={"b": ("a",), "zz": ("a",)},
    )
    assert index.out_slugs("a") == ("b", "zz") and index.out_slugs("nope") == ()
    assert index.in_slugs("zz") == ("a",) and index.in_slugs("a") == ()
    assert index.dangling_ids() == ["zz"] and not gone.exists and link.exists
    assert index.titles() == {"a": "A", "b": "B"}


def test_titles_from_frontmatter_feed_the_resolver(bundle: Path) -> None:
    index = build_index(BundleSource(bundle), cache=False)
    assert index.pages["b"].title == "Bee" and index.titles()["b"] == "Bee"


def test_incremental_refresh_rescans_only_changed_files(bundle: Path) -> None:
    source = CountingSource(bundle)
    first = build_index(source, cache=False)
    assert len(source.scans[0]) == 7

    second = build_index(source, previous=first, cache=False)
    assert source.scans[-1] == []
    assert second.forward == first.forward and second.reverse == first.reverse

    edited = write(bundle, "b.md", "---\ntitle: Bee\n---\n[[sub/c]]")
    touch_later(edited)
    third = build_index(source, previous=second, cache=False)
    assert source.scans[-1] == ["b"]
    assert third.out_slugs("b") == ("sub/c",)
    assert third.in_slugs("a") == ("sub/c",)

    write(bundle, "nowhere.md", "# Now here")
    fourth = build_index(source, previous=third, cache=False)
    assert source.scans[-1] == ["nowhere"]
    write(bundle, "b.md", "---\ntitle: Bee\n---\n[[nowhere]]")
    touch_later(bundle / "b.md", 10)
    fifth = build_index(source, previous=fourth, cache=False)
    assert source.scans[-1] == ["b"]
    assert fifth.forward["b"][0].rule == "exact"

    (bundle / "sub" / "c.md").unlink()
    sixth = build_index(source, previous=fifth, cache=False)
    assert source.scans[-1] == []
    assert "sub/c" not in sixth.pages
    assert ("sub/c.md", "sub/c", "markdown", "dangling", 1) in [
        (link.target, link.to, link.kind, link.rule, link.count) for link in sixth.forward["a"]
    ]
    assert sixth.dangling_ids() == ["missing", "sub/c"]


def test_pages_unreadable_for_io_reasons_are_retried(bundle: Path, monkeypatch) -> None:
    refusing_open = open_refusing("a.md")
    source = CountingSource(bundle)
    with monkeypatch.context() as patch:
        patch.setattr(os, "open", refusing_open)
        first = build_index(source, cache=False)
    assert first.pages["a"].error == "permission denied" and first.forward["a"] == ()
    second = build_index(source, previous=first, cache=False)  # the file itself is unchanged
    assert source.scans[-1] == ["a"]  # bad.md (not UTF-8) is not retried: its bytes decide
    assert second.pages["a"].readable and second.out_slugs("a")[0] == "b"
    assert build_index(source, previous=second, cache=False) and source.scans[-1] == []


def test_a_new_page_resolves_links_of_unchanged_pages(bundle: Path) -> None:
    source = CountingSource(bundle)
    first = build_index(source, cache=False)
    assert "nowhere" in first.dangling_ids()
    write(bundle, "deep/nowhere.md", "x")
    second = build_index(source, previous=first, cache=False)
    assert source.scans[-1] == ["deep/nowhere"]
    assert second.out_slugs("b") == ("a", "deep/nowhere")
    assert second.in_slugs("deep/nowhere") == ("b",)


def test_cache_survives_a_restart(bundle: Path, tmp_path: Path) -> None:
    cache = IndexCache(tmp_path / "cache")
    first = build_index(CountingSource(bundle), cache=cache)
    restarted = CountingSource(bundle)
    second = build_index(restarted, cache=IndexCache(tmp_path / "cache"))
    assert restarted.scans == [[]]
    assert_same_index(second, first)


def test_cache_from_the_environment(bundle: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OKF_EXPLORER_CACHE", str(tmp_path / "envcache"))
    build_index(BundleSource(bundle))
    assert len(list((tmp_path / "envcache").glob("*.idx"))) == 1
    restarted = CountingSource(bundle)
    build_index(restarted)
    assert restarted.scans == [[]]


def test_cache_off(bundle: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OKF_EXPLORER_CACHE", "off")
    assert IndexCache.from_environment() is None
    build_index(BundleSource(bundle))
    again = CountingSource(bundle)
    build_index(again)
    assert len(again.scans[0]) == 7


def test_changed_file_never_yields_stale_links_from_the_cache(bundle: Path, tmp_path: Path) -> None:
    cache = IndexCache(tmp_path / "cache")
    build_index(BundleSource(bundle), cache=cache)
    path = write(bundle, "b.md", "---\ntitle: Bee\n---\n[[sub/c]] ![[sub/c]] [[x]]")  # same size
    touch_later(path)
    source = CountingSource(bundle)
    index = build_index(source, cache=cache)
    assert source.scans == [["b"]]
    assert index.out_slugs("b") == ("sub/c", "x")
    assert index.in_slugs("a") == ("sub/c",)
    assert_same_index(index, build_index(BundleSource(bundle), cache=False))


def test_pages_added_and_removed_while_closed_are_seen_from_the_cache(
    bundle: Path, tmp_path: Path
) -> None:
    cache = IndexCache(tmp_path / "cache")
    build_index(BundleSource(bundle), cache=cache)
    (bundle / "p" / "dup.md").unlink()
    write(bundle, "missing.md", "# Found")
    source = CountingSource(bundle)
    index = build_index(source, cache=cache)
    assert source.scans == [["missing"]]
    assert index.forward["a"][2].rule == "exact" and index.out_slugs("a")[3] == "q/r/dup"
    assert index.ambiguous == 0
    assert_same_index(index, build_index(BundleSource(bundle), cache=False))


def test_warm_start_with_nothing_changed_reuses_the_whole_index(
    bundle: Path, tmp_path: Path
) -> None:
    first = build_index(BundleSource(bundle), cache=IndexCache(tmp_path / "cache"))
    warm = build_index(BundleSource(bundle), cache=IndexCache(tmp_path / "cache"))
    assert warm.out_slugs("a") == first.out_slugs("a") and warm.in_slugs("a") == ("b", "sub/c")
    assert_same_index(warm, first)
    write(bundle, "a.md", "# A\n[[sub/c]]")  # a warm-loaded index refreshes like any other
    source = CountingSource(bundle)
    refreshed = build_index(source, previous=warm, cache=False)
    assert source.scans == [["a"]]
    assert_same_index(refreshed, build_index(BundleSource(bundle), cache=False))


def test_warm_start_still_retries_pages_that_failed_for_a_passing_reason(
    bundle: Path, tmp_path: Path, monkeypatch
) -> None:
    refusing_open = open_refusing("a.md")
    cache = IndexCache(tmp_path / "cache")
    with monkeypatch.context() as patch:
        patch.setattr(os, "open", refusing_open)
        assert not build_index(BundleSource(bundle), cache=cache).pages["a"].readable
    source = CountingSource(bundle)
    assert build_index(source, cache=cache).pages["a"].readable
    assert source.scans == [["a"]]  # bad.md (not UTF-8) is not retried: its bytes decide


def _cache_file(tmp_path: Path) -> Path:
    (path,) = (tmp_path / "cache").glob("*.idx")
    return path


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: data[:10],  # half a header
        lambda data: b"",
        lambda data: os.urandom(len(data)),  # garbage
        lambda data: data[:8] + (999).to_bytes(4, "little") + data[12:],  # wrong version
        lambda data: data[:-5] + b"XXXXX",  # checksum mismatch
    ],
    ids=["truncated", "half-header", "empty", "garbage", "wrong-version", "bad-checksum"],
)
def test_corrupt_cache_is_ignored_and_rebuilt(bundle: Path, tmp_path: Path, damage) -> None:
    cache = IndexCache(tmp_path / "cache")
    first = build_index(BundleSource(bundle), cache=cache)
    path = _cache_file(tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    source = CountingSource(bundle)
    second = build_index(source, cache=cache)
    assert len(source.scans[0]) == 7
    assert_same_index(second, first)
    third_source = CountingSource(bundle)
    build_index(third_source, cache=cache)  # the rebuilt cache is good again
    assert third_source.scans == [[]]


def test_well_formed_cache_of_the_wrong_shape_is_ignored(bundle: Path, tmp_path: Path) -> None:
    cache = IndexCache(tmp_path / "cache")
    first = build_index(BundleSource(bundle), cache=cache)
    key = BundleSource(bundle).cache_key
    for data in [(1, 2, 3), ([("a",)], [], [], [], [], {}, 0), "nonsense", None]:
        cache.save(key, first.signature, data)
        source = CountingSource(bundle)
        assert_same_index(build_index(source, cache=cache), first)
        assert len(source.scans[0]) == 7


def test_unwritable_cache_is_skipped(bundle: Path, tmp_path: Path) -> None:
    blocker = write(tmp_path, "not-a-dir", "x")
    index = build_index(BundleSource(bundle), cache=IndexCache(blocker / "cache"))
    assert len(index.pages) == 7


def test_cancelled_build_raises_and_saves_nothing(bundle: Path, tmp_path: Path) -> None:
    cache = IndexCache(tmp_path / "cache")
    with pytest.raises(Cancelled):
        build_index(BundleSource(bundle), cache=cache, cancel=lambda: True)
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").glob("*.idx"))


def test_empty_bundle(tmp_path: Path) -> None:
    index = build_index(BundleSource(tmp_path), cache=IndexCache(tmp_path / "c"))
    assert (index.pages, index.forward, index.reverse, index.dangling_ids()) == ({}, {}, {}, [])


def test_progress_is_reported(bundle: Path) -> None:
    calls: list[tuple[int, int]] = []
    build_index(BundleSource(bundle), cache=False, progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1] == (7, 7)


class ListedSource:
    """An in-memory source shaped like an MCP one: listings carry titles,
    fingerprints are `updated_at`, pages are fetched one by one."""

    label = cache_key = "memory://brain"

    def __init__(self, pages: dict[str, tuple[str, str]], broken: set[str] = frozenset()) -> None:
        self.pages, self.broken = pages, broken

    def enumerate(self) -> list[PageStub]:
        return [
            PageStub(
                slug, "2024-01-01", PageInfo(slug=slug, title=title, type="note", title_stated=True)
            )
            for slug, (title, _) in sorted(self.pages.items())
        ]

    def get_page(self, slug: str) -> Page:
        if slug in self.broken or slug not in self.pages:
            raise PageNotFound(slug)
        title, body = self.pages[slug]
        return Page(slug=slug, title=title, content=body, fingerprint="other", title_stated=True)

    def scan(self, stubs: Sequence[PageStub], progress=None, cancel=None):
        return scan_sequentially(self, stubs, progress, cancel)

    def server_graph(self) -> None:
        return None

    def close(self) -> None:
        pass


def test_listing_titles_resolve_links_for_server_sources() -> None:
    source = ListedSource(
        {"people/alice": ("Alice Liddell", "[[Rabbit Hole]]"), "places/hole": ("Rabbit Hole", "")},
        broken={"places/hole"},
    )
    index = build_index(source, cache=False)
    assert link_view(index, "people/alice") == [("Rabbit Hole", "places/hole", "wiki", "title", 1)]
    hole = index.pages["places/hole"]
    assert (hole.title, hole.readable, hole.fingerprint) == ("Rabbit Hole", False, "2024-01-01")
    assert index.pages["people/alice"].fingerprint == "2024-01-01"


def assert_same_index(left: LinkIndex, right: LinkIndex) -> None:
    assert left.pages == right.pages
    assert left.forward == right.forward
    assert left.reverse == right.reverse
    assert left.targets == right.targets
    assert left.raw_links == right.raw_links
    assert (left.ambiguous, left.signature) == (right.ambiguous, right.signature)
    assert all(isinstance(link, ResolvedLink) for links in left.forward.values() for link in links)
