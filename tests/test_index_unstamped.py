"""A cold build lists a folder without a `stat` per page (`Folder.enumerate_unstamped`); its scan
stamps each page with the fingerprint of the file it read, so the index, and the cache
a warm start compares against, are the same as through the stamped listing."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.core.index.build import build_index
from okf_explorer.core.index.store import IndexCache
from okf_explorer.sources.folder import scan as parallel
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import CountingSource
from tests.bundles import write_file as write

pytestmark = pytest.mark.plain


class StampedOnly(BundleSource):
    """A folder source whose cold listing stats each page, as every listing did before."""

    def enumerate_unstamped(self) -> list:
        return self.enumerate()


def brain(root: Path, pages: int) -> Path:
    for n in range(pages):
        write(root, f"f{n % 7}/p{n}.md", f"# P{n}\n[[p{(n * 3) % pages}]] [x](../f0/p0.md)")
    write(root, "bad.md", b"[[p1]] \xff")
    write(root, "fm.md", "---\ntitle: [unclosed\n---\n[[p2]]")
    return root


@pytest.mark.parametrize(
    "pages", [30, pytest.param(parallel.PARALLEL_THRESHOLD + 10, marks=pytest.mark.slow)]
)
def test_a_cold_build_stamps_every_page_as_the_stamped_listing_does(
    tmp_path: Path, pages: int
) -> None:
    root = brain(tmp_path / "brain", pages)
    source = BundleSource(root)
    unstamped = build_index(source, cache=False)
    stamped = build_index(StampedOnly(root), cache=False)
    assert {stub.fingerprint for stub in source.enumerate_unstamped()} == {""}
    assert unstamped.pages == stamped.pages  # fingerprints included
    assert {stub.slug: stub.fingerprint for stub in source.enumerate()} == {
        slug: info.fingerprint for slug, info in unstamped.pages.items()
    }
    assert unstamped.forward == stamped.forward and unstamped.reverse == stamped.reverse


def test_only_a_build_with_nothing_to_compare_skips_the_stats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = brain(tmp_path / "brain", 20)
    listings: list[str] = []
    monkeypatch.setattr(BundleSource, "enumerate", lambda self: listings.append("stamped") or [])
    source = CountingSource(root)
    cache = IndexCache(tmp_path / "cache")
    unstamped = BundleSource.enumerate_unstamped
    monkeypatch.setattr(
        BundleSource,
        "enumerate_unstamped",
        lambda self: listings.append("unstamped") or unstamped(self),
    )
    first = build_index(source, cache=cache)
    assert listings == ["unstamped"] and len(first.pages) == 22
    monkeypatch.undo()
    # warm: the cache is there, so the stamped listing decides what to rescan: nothing
    again = build_index(source, cache=cache)
    assert source.scans[-1] == [] and again.pages == first.pages
    touch = root / "f1" / "p1.md"
    touch.write_text("# P1 changed\n[[p3]]", encoding="utf-8")
    changed = build_index(source, cache=cache)
    assert source.scans[-1] == ["f1/p1"] and changed.pages["f1/p1"].title == "P1 changed"
    # a refresh from the previous index lists with stamps too
    assert build_index(source, previous=changed, cache=False).pages == changed.pages
