"""Issue 13 §1: the k shortest simple paths between two pages (`core.graph.paths`), with each
hop's relation, rule and sentence (`core.graph.paths`), over a small real bundle."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.graph.paths import Avoid, NoPath, PathQuery, avoid_of
from okf_explorer.sources.folder.bundle import BundleSource
from tests.path_bundle import make_path_bundle

pytestmark = pytest.mark.plain


@pytest.fixture
def brain(tmp_path: Path) -> Brain:
    return Brain(BundleSource(make_path_bundle(tmp_path / "b")), cache_dir=False)


def pages_of(brain: Brain, query: PathQuery) -> list[list[str]]:
    return [path.pages for path in brain.path_graphs().find(query)]


def test_k_paths_come_shortest_first(brain: Brain) -> None:
    found = pages_of(brain, PathQuery("a", "d", k=5))
    assert found[0] == ["a", "hub", "d"]
    three = [["a", "b", "e", "d"], ["a", "b", "m", "d"], ["a", "c", "e", "d"]]
    assert sorted(found[1:4]) == three  # b → e is a frontmatter relation
    assert found[4] == ["a", "x", "y", "z", "d"]
    assert pages_of(brain, PathQuery("a", "d", k=1)) == [["a", "hub", "d"]]


def test_a_path_through_a_hub_is_flagged(brain: Brain) -> None:
    graphs = brain.path_graphs()
    assert graphs.hubs() == {"hub", "index"}  # by degree; every index page
    first, second = graphs.find(PathQuery("a", "d", k=2))
    assert first.via_hub == ("hub",) and second.via_hub == ()
    (through_index,) = graphs.find(PathQuery("w", "a", k=3))
    assert through_index.pages == ["w", "index", "a"] and through_index.via_hub == ("index",)
    assert graphs.find(PathQuery("hub", "d"))[0].via_hub == ()  # the ends never count


def test_avoid_hubs_reserved_and_named_pages(brain: Brain) -> None:
    no_hubs = pages_of(brain, PathQuery("a", "d", k=5, avoid=Avoid(hubs=True)))
    assert len(no_hubs) == 4 and ["a", "hub", "d"] not in no_hubs
    assert no_hubs[3:] == [["a", "x", "y", "z", "d"]]
    assert pages_of(brain, PathQuery("q", "a", avoid=Avoid(reserved=True))) == []
    assert pages_of(brain, PathQuery("q", "a")) == [["q", "log", "a"]]
    named = Avoid(hubs=True, pages=frozenset({"b", "x"}))
    assert pages_of(brain, PathQuery("a", "d", k=5, avoid=named)) == [["a", "c", "e", "d"]]
    # A and B themselves are never removed, even when they are what is avoided
    assert pages_of(brain, PathQuery("hub", "d", avoid=Avoid(hubs=True))) == [["hub", "d"]]


def test_avoid_words(brain: Brain) -> None:
    avoid = avoid_of(["hubs", "B", "reserved"], lambda name: name.lower())
    assert avoid == Avoid(hubs=True, reserved=True, pages=frozenset({"b"}))
    assert avoid.describe() == "hubs, reserved, b"


def test_direction_in_walks_backlinks_and_any_ignores_direction(brain: Brain) -> None:
    (path,) = brain.path_graphs().find(PathQuery("d", "a", k=1, direction="in"))
    assert path.pages == ["d", "hub", "a"]
    assert [(e.frm, e.to, e.hop, e.direction) for e in path.edges()] == [
        ("d", "hub", 1, "in"),
        ("hub", "a", 2, "in"),
    ]
    assert pages_of(brain, PathQuery("d", "a")) == []  # d links nowhere
    (either,) = brain.path_graphs().find(PathQuery("m", "c", k=1, direction="any"))
    assert [(e.frm, e.to, e.direction) for e in either.edges()] == [
        ("m", "b", "in"),
        ("b", "a", "in"),
        ("a", "c", "out"),
    ]


def test_rel_keeps_paths_to_those_relations(brain: Brain) -> None:
    (typed,) = brain.path_graphs().find(PathQuery("b", "e", k=3))
    assert [(e.frm, e.to, e.rel, e.hop) for e in typed.edges()] == [("b", "e", "derived_from", 1)]
    links_only = PathQuery("b", "e", rels=frozenset({"links"}))
    assert pages_of(brain, links_only) == []
    assert pages_of(brain, PathQuery("b", "e", rels=frozenset({"derived_from"}))) == [["b", "e"]]


def test_any_with_rel_names_the_way_the_kept_link_runs(brain: Brain) -> None:
    query = PathQuery("r1", "r2", direction="any", rels=frozenset({"derived_from"}))
    (path,) = brain.path_graphs().find(query)
    assert [(e.frm, e.to, e.rel, e.direction) for e in path.edges()] == [
        ("r1", "r2", "derived_from", "in")  # r2 states it; r1's body link is not kept
    ]
    (plain,) = brain.path_graphs().find(PathQuery("r1", "r2", direction="any"))
    assert [(e.rel, e.direction) for e in plain.edges()] == [("links", "out")]


def test_each_hop_has_its_rule_and_sentence(brain: Brain) -> None:
    paths = brain.explained_paths(PathQuery("a", "d", k=4, avoid=Avoid(hubs=True)))
    by_pages = {tuple(path.pages): details for path, details in paths}
    first, second, third = by_pages["a", "c", "e", "d"]
    assert (first.written_on, first.written, first.rule) == ("a", "(c.md)", "path")
    assert first.context == "Also the c page and x."
    assert (second.rule, second.context) == ("exact", "C then e.")
    assert third.context == "E ends at d."
    step = by_pages["a", "b", "m", "d"][0]
    assert step.context == "Then b is next."


def test_a_frontmatter_relation_has_a_rule_and_no_sentence(brain: Brain) -> None:
    ((_, (detail,)),) = brain.explained_paths(PathQuery("b", "e"))
    assert (detail.written_on, detail.rule, detail.context) == ("b", "path", None)


def test_an_in_hop_is_explained_from_the_page_that_links(brain: Brain) -> None:
    ((_, details),) = brain.explained_paths(PathQuery("d", "a", k=1, direction="in"))
    assert [d.written_on for d in details] == ["hub", "a"]
    assert details[1].context == "First see hub."


def test_no_path_and_unknown_pages(brain: Brain) -> None:
    with pytest.raises(NoPath, match=r"^no path from d to a \(within direction out · ≤ 10 hops\)$"):
        brain.explained_paths(PathQuery("d", "a"))
    with pytest.raises(NoPath, match="avoid hubs"):
        brain.explained_paths(PathQuery("w", "a", avoid=Avoid(hubs=True)))
    with pytest.raises(NoPath, match="itself"):
        brain.explained_paths(PathQuery("a", "a"))
    with pytest.raises(PageNotFound):
        brain.path_graphs().find(PathQuery("a", "nope"))


def test_max_hops_stops_the_listing(brain: Brain) -> None:
    assert pages_of(brain, PathQuery("a", "d", k=5, max_hops=2)) == [["a", "hub", "d"]]
    assert pages_of(brain, PathQuery("x", "d", max_hops=2)) == []


def test_the_graph_is_built_once_per_index(brain: Brain, tmp_path: Path) -> None:
    graphs = brain.path_graphs()
    base = graphs.base()
    graphs.find(PathQuery("a", "d"))
    assert brain.path_graphs() is graphs and graphs.base() is base
    assert graphs.for_query("in", None) is graphs.for_query("in", None)
    (tmp_path / "b" / "d.md").write_text("D now links to [[a]].\n", encoding="utf-8")
    brain.refresh()
    assert brain.path_graphs() is not graphs
    assert pages_of(brain, PathQuery("d", "a")) == [["d", "a"]]
