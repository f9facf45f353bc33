"""The port's optional capabilities: declared in `core/port.py`, implemented by the
adapters, asked with `isinstance` (import hygiene forbids `getattr` side doors)."""

from __future__ import annotations

from pathlib import Path

from okf_explorer.core.brain import Brain
from okf_explorer.core.pages import Page, PageInfo
from okf_explorer.core.port import (
    Folder,
    PageSource,
    PageStub,
    TagListing,
)
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.gbrain.source import McpSource
from tests.bundles import scan_sequentially


class NoLinks:
    """A server graph without links."""

    def links_out(self, slug: str) -> list[str]:
        return []

    def links_in(self, slug: str) -> list[str]:
        return []


class ListedSource:
    """A server-like source (a stored graph, a titled listing without tags) with none of
    the optional capabilities (pure logic)."""

    label = cache_key = "fake://listed"

    def __init__(self, tags: dict[str, tuple[str, ...]]) -> None:
        self.tags = tags

    def enumerate(self) -> list[PageStub]:
        return [
            PageStub(slug, "1", PageInfo(slug=slug, title=slug, tags_known=False))
            for slug in sorted(self.tags)
        ]

    def get_page(self, slug: str) -> Page:
        return Page(slug=slug, title=slug, content="", tags=self.tags[slug], fingerprint="1")

    def scan(self, stubs, progress=None, cancel=None):
        return scan_sequentially(self, stubs, progress, cancel)

    def server_graph(self) -> NoLinks:
        return NoLinks()

    def close(self) -> None:
        pass


class TaggedSource(ListedSource):
    """The same, with the server-side tag filter declared by `TagListing`."""

    def __init__(self, tags: dict[str, tuple[str, ...]]) -> None:
        super().__init__(tags)
        self.asked: list[str] = []

    def slugs_with_tag(self, tag: str) -> list[str]:
        self.asked.append(tag)
        return [slug for slug in sorted(self.tags) if tag in self.tags[slug]]


def test_bundle_declares_the_folder_capability(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "real", target_is_directory=True)
    source = BundleSource(tmp_path / "alias")
    assert isinstance(source, PageSource) and isinstance(source, Folder)
    assert not isinstance(source, TagListing)
    assert source.local_root == (tmp_path / "real").resolve()


def test_mcp_source_declares_the_tag_filter_only() -> None:
    source = McpSource("http://127.0.0.1:9/mcp", token=None, token_source="none")
    try:
        assert isinstance(source, PageSource) and isinstance(source, TagListing)
        assert not isinstance(source, Folder)
    finally:
        source.close()


def test_brain_names_the_local_folder_of_a_folder_source_only(tmp_path: Path) -> None:
    assert Brain(BundleSource(tmp_path), cache_dir=False).local_root == tmp_path.resolve()
    assert Brain(ListedSource({}), cache_dir=False).local_root is None


def test_tag_filter_asks_a_tag_listing_and_falls_back_to_the_index_otherwise() -> None:
    tags = {"a": ("x",), "b": ("y",), "c": ("x", "y")}
    tagged = TaggedSource(tags)
    brain = Brain(tagged, cache_dir=False)
    assert [info.slug for info in brain.pages(tag="x")] == ["a", "c"]
    assert tagged.asked == ["x"] and brain.index is None  # no scan was needed
    plain = Brain(ListedSource(tags), cache_dir=False)
    assert [info.slug for info in plain.pages(tag="x")] == ["a", "c"]
    assert plain.index is not None  # without the capability, the index answered
