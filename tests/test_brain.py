"""The `Brain` facade over real tmp bundles, and its fast path over a server graph."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from okf_explorer.core import brain as brain_module
from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import PageNotFound, PageUnreadable, SourceUnavailable
from okf_explorer.core.graph import analysis
from okf_explorer.core.index.model import LinkIndex, ResolvedLink
from okf_explorer.core.pages import Page, PageInfo
from okf_explorer.core.port import (
    CancelCheck,
    PageStub,
    ProgressCallback,
    ScannedPage,
)
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import scan_sequentially, write_bundle

pytestmark = pytest.mark.plain

FILES = {
    "index.md": "# Home\n[[tables/orders]] and [[customers]]\n",
    "log.md": "# Log\nnothing links from here\n",
    "tables/orders.md": (
        "---\ntitle: Orders\ntype: table\ntags: [core]\n---\n"
        "Orders of [[customers]], see [[ghost]] and [items](/tables/items.md). [[customers]]\n"
    ),
    "tables/items.md": "---\ntype: table\n---\nBelongs to [[tables/orders]].\n",
    "customers.md": "---\ntype: entity\ntags: [core]\n---\nThey place [[Orders]].\n",
    "lonely.md": "No links at all.\n",
    "notes/only-ghost.md": "Points at [[ghost]] and [[nowhere]].\n",
}


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    return write_bundle(tmp_path / "brain", FILES)


@pytest.fixture
def brain(bundle: Path) -> Iterator[Brain]:
    engine = Brain(BundleSource(bundle), cache_dir=False)
    yield engine
    engine.close()


def test_forward_links_resolved_in_order_of_first_appearance(brain: Brain) -> None:
    links = brain.forward_links("tables/orders")
    assert [(link.to, link.rule) for link in links] == [
        ("customers", "exact"),
        ("ghost", "dangling"),
        ("tables/items", "path"),
    ]
    assert [link.exists for link in links] == [True, False, True]
    assert links[0].count == 2


def test_backlinks_are_one_hop_deduplicated_in_slug_order(brain: Brain) -> None:
    assert brain.backlinks("tables/orders") == ["customers", "index", "tables/items"]
    assert brain.backlinks("customers") == ["index", "tables/orders"]
    assert brain.backlinks("lonely") == []


def test_traverse_over_the_index(brain: Brain) -> None:
    edges = brain.traverse("customers", 2, "both")
    assert [tuple(e) for e in edges] == [
        ("customers", "tables/orders", 1, "out"),
        ("tables/orders", "customers", 2, "out"),
        ("tables/orders", "ghost", 2, "out"),
        ("tables/orders", "tables/items", 2, "out"),
        ("customers", "index", 1, "in"),
        ("customers", "tables/orders", 1, "in"),
        ("tables/orders", "customers", 2, "in"),
        ("tables/orders", "index", 2, "in"),
        ("tables/orders", "tables/items", 2, "in"),
    ]
    assert brain.answered_by == "index"


def test_traverse_depth_one_out_is_the_forward_links(brain: Brain) -> None:
    edges = brain.traverse("tables/orders")
    assert [e.to for e in edges] == [link.to for link in brain.forward_links("tables/orders")]


@pytest.mark.parametrize("root", ["no/such/page", "ghost"])
def test_unknown_root_raises(brain: Brain, root: str) -> None:
    with pytest.raises(PageNotFound):
        brain.traverse(root, 2, "both")
    with pytest.raises(PageNotFound):
        brain.backlinks(root)
    with pytest.raises(PageNotFound):
        brain.forward_links(root)


def test_unknown_root_on_a_vanished_bundle_is_unreachable(brain: Brain, bundle: Path) -> None:
    brain.ensure_index()
    for path in sorted(bundle.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    bundle.rmdir()
    with pytest.raises(SourceUnavailable, match="unreachable"):
        brain.traverse("no-such-page")


def test_unreadable_root(bundle: Path) -> None:
    (bundle / "broken.md").write_bytes(b"caf\xe9 [[customers]]\n")
    brain = Brain(BundleSource(bundle), cache_dir=False)
    with pytest.raises(PageUnreadable):
        brain.traverse("broken")
    with pytest.raises(PageUnreadable):
        brain.forward_links("broken")
    assert brain.backlinks("broken") == []
    assert "broken" not in brain.backlinks("customers")  # its links are not followed


def test_page_created_after_indexing_is_found(brain: Brain, bundle: Path) -> None:
    brain.ensure_index()
    (bundle / "fresh.md").write_text("New page to [[lonely]].\n", encoding="utf-8")
    assert [e.to for e in brain.traverse("fresh")] == ["lonely"]
    assert brain.backlinks("lonely") == ["fresh"]


def test_refresh_after_a_file_edit(brain: Brain, bundle: Path) -> None:
    first = brain.ensure_index()
    assert brain.ensure_index() is first
    assert "lonely" in brain.orphans()
    (bundle / "customers.md").write_text("Now they like [[lonely]] too, and [[Orders]].\n")
    assert brain.backlinks("lonely") == []  # not refreshed yet: the index is kept
    second = brain.refresh()
    assert second is not first and brain.index is second
    assert brain.backlinks("lonely") == ["customers"]
    assert "lonely" not in brain.orphans()
    assert [link.to for link in brain.forward_links("customers")] == ["lonely", "tables/orders"]


def test_a_refresh_that_finds_nothing_changed_keeps_the_index_and_what_it_derived(
    brain: Brain, bundle: Path
) -> None:
    """`r` with nothing changed rebuilt the index's resolver, finder list and graph caches
    (100 ms of the key on a 6.5k-page vault); the same index now stands, with them."""
    first = brain.ensure_index()
    communities = brain.communities()
    assert brain.refresh() is first
    assert brain.communities() is communities
    (bundle / "customers.md").write_text("Now they like [[lonely]].\n")
    second = brain.refresh()
    assert second is not first and brain.communities() is not communities
    assert brain.backlinks("lonely") == ["customers"]


def test_shortest_path(brain: Brain) -> None:
    assert brain.shortest_path("index", "tables/items") == [
        "index",
        "tables/orders",
        "tables/items",
    ]
    assert brain.shortest_path("tables/items", "index", "in") == [
        "tables/items",
        "tables/orders",
        "index",
    ]
    assert brain.shortest_path("tables/items", "index") is None
    assert brain.shortest_path("lonely", "customers", "both") is None
    assert brain.shortest_path("customers", "ghost") == ["customers", "tables/orders", "ghost"]
    assert brain.shortest_path("customers", "customers") == ["customers"]
    # a dangling node is never passed through, even undirected
    assert brain.shortest_path("notes/only-ghost", "customers", "both") is None
    with pytest.raises(PageNotFound):
        brain.shortest_path("nope", "customers")


def test_orphans_leave_out_reserved_pages_unless_asked(brain: Brain) -> None:
    assert brain.orphans() == ["lonely", "notes/only-ghost"]
    assert brain.orphans(include_reserved=True) == ["index", "log", "lonely", "notes/only-ghost"]


def test_dead_ends_count_only_links_to_existing_pages(brain: Brain) -> None:
    assert brain.dead_ends() == ["lonely", "notes/only-ghost"]
    assert brain.dead_ends(include_reserved=True) == ["log", "lonely", "notes/only-ghost"]


def test_dangling_targets_and_who_links_to_them(brain: Brain) -> None:
    assert brain.dangling() == {
        "ghost": ["notes/only-ghost", "tables/orders"],
        "nowhere": ["notes/only-ghost"],
    }


def test_hubs(brain: Brain) -> None:
    assert brain.hubs(2) == [("tables/orders", 3), ("customers", 2)]
    assert brain.hubs(1, by="out") == [("index", 2)]  # ties in slug order
    assert dict(brain.hubs(10, by="out")) == {
        "index": 2,
        "tables/orders": 2,
        "tables/items": 1,
        "customers": 1,
    }
    assert brain.hubs(1, by="total") == [("tables/orders", 5)]
    assert brain.hubs(0) == []
    with pytest.raises(ValueError):
        brain.hubs(3, by="sideways")


def test_graph_nodes_and_edges(brain: Brain, bundle: Path) -> None:
    graph = brain.graph()
    assert graph is brain.graph()  # cached
    assert graph.nodes["tables/orders"] == {
        "title": "Orders",
        "type": "table",
        "tags": ("core",),
        "exists": True,
        "readable": True,
        "reserved": False,
    }
    assert graph.nodes["ghost"]["exists"] is False
    assert graph.nodes["index"]["reserved"] is True
    data = graph.get_edge_data("tables/orders", "customers")
    assert [(d["kind"], d["count"], d["rule"]) for d in data.values()] == [("wiki", 2, "exact")]
    (markdown,) = graph.get_edge_data("tables/orders", "tables/items").values()
    assert (markdown["kind"], markdown["rule"]) == ("markdown", "path")
    assert graph.number_of_edges() == sum(len(v) for v in brain.index.forward.values())
    brain.refresh()
    assert brain.graph() is graph  # nothing changed
    (bundle / "customers.md").write_text("Now they like [[lonely]].\n")
    brain.refresh()
    assert brain.graph() is not graph


def test_pages_filtered_in_slug_order(brain: Brain) -> None:
    assert [p.slug for p in brain.pages()] == sorted(name.removesuffix(".md") for name in FILES)
    assert [p.slug for p in brain.pages(type="table")] == ["tables/items", "tables/orders"]
    assert [p.slug for p in brain.pages(tag="core")] == ["customers", "tables/orders"]
    assert [p.slug for p in brain.pages(type="table", tag="core")] == ["tables/orders"]


def test_resolve_slug(brain: Brain) -> None:
    assert brain.resolve_slug("tables/orders") == "tables/orders"
    assert brain.resolve_slug("  customers ") == "customers"
    assert brain.resolve_slug("Orders") == "tables/orders"  # by title
    assert brain.resolve_slug("items") == "tables/items"  # by final segment
    assert brain.resolve_slug("/tables/items.md") == "tables/items"
    assert brain.resolve_slug("nothing-like-it") is None
    assert brain.resolve_slug("") is None


def test_page_comes_fresh_from_the_source(brain: Brain, bundle: Path) -> None:
    brain.ensure_index()
    (bundle / "lonely.md").write_text("Changed.\n")
    assert brain.page("lonely").content.strip() == "Changed."


def test_cache_dir_choices(bundle: Path, tmp_path: Path) -> None:
    folder = tmp_path / "my-cache"
    Brain(BundleSource(bundle), cache_dir=folder).ensure_index()
    assert any(folder.iterdir())
    Brain(BundleSource(bundle), cache_dir=False).ensure_index()
    assert len(list(folder.iterdir())) == 1
    default = Path(__import__("os").environ["OKF_EXPLORER_CACHE"])
    Brain(BundleSource(bundle)).ensure_index()
    assert any(default.iterdir())


def test_index_is_built_once_under_concurrent_callers(
    brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[int] = []
    real_build = brain_module.build_index

    def counting_build(*args, **kwargs):
        builds.append(1)
        return real_build(*args, **kwargs)

    monkeypatch.setattr(brain_module, "build_index", counting_build)
    results: list[object] = []
    threads = [
        threading.Thread(target=lambda: results.append(brain.ensure_index())) for _ in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1
    assert all(result is results[0] for result in results)


# -- the fast path: a source with its own stored graph ---------------------------------


class FakeGraph:
    """A server graph that counts calls and can go down."""

    def __init__(self, out: dict[str, list[str]]) -> None:
        self.out = out
        self.calls: list[tuple[str, str]] = []
        self.down = False

    def links_out(self, slug: str) -> list[str]:
        self._call("out", slug)
        return list(self.out.get(slug, []))

    def links_in(self, slug: str) -> list[str]:
        self._call("in", slug)
        return [frm for frm, targets in self.out.items() if slug in targets]

    def _call(self, kind: str, slug: str) -> None:
        if self.down:
            raise SourceUnavailable("server is unreachable")
        self.calls.append((kind, slug))


class ServerSource:
    """An in-memory source whose server graph differs from its bodies on purpose,
    so a test can tell which of the two answered."""

    def __init__(self, graph: FakeGraph | None) -> None:
        self.graph = graph
        self.bodies = {"a": "[[b]]", "b": "[[c]]", "c": "[[a]]", "z": "[[a]]"}
        self.get_calls: list[str] = []
        self.scanned = 0

    label = "fake server"
    cache_key = "fake://server"

    def enumerate(self) -> list[PageStub]:
        return [PageStub(s, "1", PageInfo(slug=s, title=s.upper(), type="t")) for s in self.bodies]

    def get_page(self, slug: str) -> Page:
        self.get_calls.append(slug)
        if slug not in self.bodies:
            raise PageNotFound(slug)
        return Page(
            slug=slug, title=slug.upper(), content=self.bodies[slug], type="t", fingerprint="1"
        )

    def scan(
        self,
        stubs: Sequence[PageStub],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[ScannedPage]:
        self.scanned += len(stubs)
        return scan_sequentially(self, stubs, progress, cancel)

    def server_graph(self) -> FakeGraph | None:
        return self.graph

    def close(self) -> None:
        pass


def test_fast_path_uses_the_server_graph_without_scanning() -> None:
    graph = FakeGraph({"a": ["b", "b", "x"], "b": ["a"], "x": []})
    source = ServerSource(graph)
    brain = Brain(source, cache_dir=False)
    assert brain.answered_by == "server"
    edges = brain.traverse("a", 3, "out")
    assert [tuple(e) for e in edges] == [
        ("a", "b", 1, "out"),  # the duplicate mention collapses
        ("a", "x", 1, "out"),
        ("b", "a", 2, "out"),
    ]
    assert source.scanned == 0 and brain.index is None
    assert source.get_calls == ["a"]  # the root is checked once
    calls = len(graph.calls)
    brain.traverse("a", 3, "out")
    assert len(graph.calls) == calls  # memoised
    assert brain.backlinks("a") == ["b"]
    assert [p.slug for p in brain.pages(type="t")] == ["a", "b", "c", "z"]
    assert brain.resolve_slug("B") == "b"
    assert source.scanned == 0 and brain.index is None


def test_fast_path_unknown_root_raises_not_found() -> None:
    brain = Brain(ServerSource(FakeGraph({})), cache_dir=False)
    with pytest.raises(PageNotFound):
        brain.traverse("nobody", 2, "both")
    with pytest.raises(PageNotFound):
        brain.backlinks("nobody")


def test_fast_path_server_failure_mid_walk_raises() -> None:
    graph = FakeGraph({"a": ["b"], "b": ["c"]})
    brain = Brain(ServerSource(graph), cache_dir=False)
    assert brain.traverse("a", 1, "out")  # the root's answer is now memoised
    graph.down = True
    with pytest.raises(SourceUnavailable):
        brain.traverse("a", 3, "out")  # b fails below the root: not a smaller graph
    with pytest.raises(SourceUnavailable):
        brain.traverse("a", 3, "both")
    graph.down = False
    assert [tuple(e) for e in brain.traverse("a", 3, "out")] == [
        ("a", "b", 1, "out"),
        ("b", "c", 2, "out"),
    ]  # the failure is not remembered once the server is back


def test_fast_path_fails_fast_once_the_server_is_down() -> None:
    graph = FakeGraph({"a": ["b", "c", "d"], "b": ["x"], "c": ["y"], "d": ["z"]})
    brain = Brain(ServerSource(graph), cache_dir=False)
    brain.traverse("a", 1, "out")
    attempts: list[str] = []
    real_call = graph._call

    def counting_call(kind: str, slug: str) -> None:
        attempts.append(slug)
        real_call(kind, slug)

    graph._call = counting_call  # type: ignore[method-assign]
    graph.down = True
    with pytest.raises(SourceUnavailable):
        brain.traverse("a", 2, "out")
    assert attempts == ["b"]  # c and d were not tried: no timeout per page


def test_refresh_forgets_server_answers() -> None:
    graph = FakeGraph({"a": ["b"]})
    brain = Brain(ServerSource(graph), cache_dir=False)
    assert [e.to for e in brain.traverse("a")] == ["b"]
    graph.out["a"] = ["c"]
    assert [e.to for e in brain.traverse("a")] == ["b"]
    brain.refresh()
    assert [e.to for e in brain.traverse("a")] == ["c"]


def test_scan_forces_the_index_over_a_server_graph() -> None:
    graph = FakeGraph({"a": ["z"]})
    source = ServerSource(graph)
    brain = Brain(source, scan=True, cache_dir=False)
    assert brain.answered_by == "index"
    assert [e.to for e in brain.traverse("a", 1, "out")] == ["b"]  # from the body
    assert graph.calls == [] and source.scanned == 4


def test_source_without_server_graph_uses_the_index() -> None:
    source = ServerSource(None)
    brain = Brain(source, cache_dir=False)
    assert brain.answered_by == "index"
    assert brain.backlinks("a") == ["c", "z"]


# -- the analyses over a hand-built index ----------------------------------------------


def hand_built_index() -> LinkIndex:
    """self → self only; a → b, ghost; b → a. Nobody links to `self` but itself."""
    pages = {slug: PageInfo(slug=slug, title=slug.upper()) for slug in ("a", "b", "self")}

    def link(to: str, rule: str = "exact") -> ResolvedLink:
        return ResolvedLink(target=to, to=to, kind="wiki", rule=rule)  # type: ignore[arg-type]

    forward = {
        "a": (link("b"), link("ghost", "dangling")),
        "b": (link("a"),),
        "self": (link("self"),),
    }
    reverse = {"a": ("b",), "b": ("a",), "ghost": ("a",), "self": ("self",)}
    return LinkIndex(pages=pages, forward=forward, reverse=reverse)


def test_self_links_neither_rescue_orphans_nor_dead_ends() -> None:
    index = hand_built_index()
    assert analysis.orphans(index) == ["self"]
    assert analysis.dead_ends(index) == ["self"]
    assert analysis.hubs(index, 5, "total") == [("a", 2), ("b", 2)]
    assert analysis.dangling(index) == {"ghost": ["a"]}
    assert analysis.shortest_path(index, "b", "ghost") == ["b", "a", "ghost"]
    graph = analysis.build_graph(index)
    assert graph.has_edge("self", "self") and graph.nodes["ghost"]["exists"] is False


class TaglessServerSource(ServerSource):
    """A server whose listing rows carry no tags (gbrain's shape); `tagged` says whether it
    offers the server-side `tag` filter."""

    def __init__(self, tagged: bool) -> None:
        super().__init__(FakeGraph({}))
        self.bodies = {"a": "---\ntags: [x, y]\n---\n", "b": "---\ntags: [y]\n---\n", "c": ""}
        self.tag_calls: list[str] = []
        if tagged:
            self.slugs_with_tag = self._slugs_with_tag

    def enumerate(self) -> list[PageStub]:
        info = {"title": "T", "type": "t", "tags_known": False}
        return [PageStub(s, "1", PageInfo(slug=s, **info)) for s in self.bodies]  # type: ignore[arg-type]

    def get_page(self, slug: str) -> Page:
        from okf_explorer.sources.frontmatter import page_from_text

        self.get_calls.append(slug)
        return page_from_text(slug, self.bodies[slug], 0, "1")

    def _slugs_with_tag(self, tag: str) -> list[str]:
        self.tag_calls.append(tag)
        return [slug for slug in sorted(self.bodies) if tag in self.get_page(slug).tags]


def test_tag_filter_over_a_tagless_listing_asks_the_server() -> None:
    source = TaglessServerSource(tagged=True)
    brain = Brain(source, cache_dir=False)
    assert [p.slug for p in brain.pages(tag="y")] == ["a", "b"]
    assert [p.slug for p in brain.pages(tag="x", type="t")] == ["a"]
    assert brain.pages(tag="x", type="other") == []
    assert [p.slug for p in brain.pages(tag="y")] == ["a", "b"]
    assert source.tag_calls == ["y", "x"]  # kept until refresh
    assert source.scanned == 0 and brain.index is None
    assert not any(p.tags_known for p in brain.pages())  # unknown, never "no tags"


def test_tag_filter_without_a_server_filter_uses_the_index() -> None:
    source = TaglessServerSource(tagged=False)
    brain = Brain(source, cache_dir=False)
    assert [p.slug for p in brain.pages(tag="y")] == ["a", "b"]
    assert source.scanned == 3 and brain.index is not None
    assert [(p.slug, p.tags, p.tags_known) for p in brain.pages()] == [
        ("a", ("x", "y"), True),
        ("b", ("y",), True),
        ("c", (), True),
    ]


def test_resolve_name_reports_ambiguous_basenames(tmp_path: Path) -> None:
    root = write_bundle(tmp_path, {"g/orders.md": "# G\n", "t/orders.md": "# T\n", "x.md": "# X\n"})
    brain = Brain(BundleSource(root), cache_dir=False)
    try:
        found = brain.resolve_name("orders")
        assert found is not None and (found.slug, found.ambiguous) == ("g/orders", True)
        assert brain.resolve_slug("orders") == "g/orders"
        found = brain.resolve_name("t/orders")
        assert found is not None and (found.slug, found.ambiguous) == ("t/orders", False)
        assert brain.resolve_name("nothing") is None and brain.resolve_name("  ") is None
    finally:
        brain.close()
