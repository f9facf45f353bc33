"""Typed edges over MCP, against our own `serve` on loopback: the server reports each
edge's relation as gbrain's `link_type` (a body link as `mentions`) and honours
`traverse_graph`'s `link_type` filter; the client turns `link_type` back into `rel`
and keeps `link_source` and `context` on what its server graph answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.port import ServerLink
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.gbrain.source import McpServerGraph, McpSource, relation_of_type
from tests.bundles import write_bundle
from tests.mcp_server_fixture import ServerHandle, serve_bundle
from tests.typed_bundle import make_typed_bundle

pytestmark = pytest.mark.plain


@pytest.fixture(scope="module")
def typed_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_typed_bundle(tmp_path_factory.mktemp("typed"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, typed_root: Path) -> Iterator[ServerHandle]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OKF_EXPLORER_CACHE", str(tmp_path_factory.mktemp("server-cache")))
        with serve_bundle(typed_root) as handle:
            yield handle


def mcp(url: str) -> McpSource:
    return McpSource(url, token=None, token_source="no token")


def rows(server: ServerHandle, tool: str, **arguments: object) -> list[dict[str, object]]:
    source = mcp(server.url)
    try:
        found = source.call_tool(tool, dict(arguments))
    finally:
        source.close()
    assert isinstance(found, list)
    return found


def test_get_links_reports_each_relation_as_link_type(server: ServerHandle) -> None:
    found = rows(server, "get_links", slug="people/bob")
    assert [(r["to_slug"], r["link_type"], r["link_source"]) for r in found] == [
        ("people/carol", "mentions", "markdown"),  # a body link, as gbrain reports one
        ("companies/acme", "works_at", "frontmatter"),
        ("people/carol", "related_to", "frontmatter"),
        ("metrics/revenue", "related_to", "frontmatter"),
    ]
    assert found[0]["context"] == "Works with [[people/carol]]."  # its sentence, as written
    # a frontmatter's edge, as gbrain words it: the key that states it, and its page
    assert found[2]["context"] == "frontmatter.related: people/carol"
    assert (found[2]["origin_slug"], found[2]["origin_field"]) == ("people/bob", "related")
    assert found[1]["context"] == "frontmatter.company: Acme"
    assert found[0]["origin_slug"] is None  # a body link has no origin


def test_get_backlinks_reports_incoming_relations(server: ServerHandle) -> None:
    found = rows(server, "get_backlinks", slug="companies/acme")
    assert [(r["from_slug"], r["to_slug"], r["link_type"]) for r in found] == [
        ("people/bob", "companies/acme", "works_at"),
        ("people/carol", "companies/acme", "works_at"),
        ("source/podcast-12", "companies/acme", "discussed_in"),
    ]
    assert found[2]["context"] == "frontmatter.sources: Podcast 12"
    # stated from the target's side: its origin is the page whose frontmatter states it
    assert (found[2]["origin_slug"], found[2]["origin_field"]) == ("companies/acme", "sources")


def test_traverse_graph_link_type_filters_the_walk(server: ServerHandle) -> None:
    derived = rows(
        server, "traverse_graph", slug="metrics/revenue", link_type="derived_from", direction="out"
    )
    assert [(r["from_slug"], r["to_slug"], r["link_type"], r["depth"]) for r in derived] == [
        ("metrics/revenue", "tables/orders", "derived_from", 1),
        ("metrics/revenue", "tables/raw_orders", "derived_from", 1),
    ]
    plain = rows(
        server,
        "traverse_graph",
        slug="metrics/revenue",
        link_type="mentions",
        depth=3,
        direction="out",
    )
    assert [(r["from_slug"], r["to_slug"], r["depth"]) for r in plain] == [
        ("metrics/revenue", "tables/orders", 1),
        ("tables/orders", "tables/raw_orders", 2),
    ]
    assert rows(server, "traverse_graph", slug="metrics/revenue", link_type="cites") == []
    works = rows(
        server, "traverse_graph", slug="companies/acme", link_type="works_at", direction="in"
    )
    assert [(r["from_slug"], r["to_slug"]) for r in works] == [
        ("people/bob", "companies/acme"),
        ("people/carol", "companies/acme"),
    ]


def test_traverse_graph_edges_name_link_types(server: ServerHandle) -> None:
    """Without `direction` (current gbrain's remote default: both ways) the edge rows name
    each link's type, the typed edge stated from either side."""
    edges = rows(server, "traverse_graph", slug="source/podcast-12", depth=1)
    assert ("source/podcast-12", "companies/acme", "discussed_in") in {
        (e["from_slug"], e["to_slug"], e["link_type"]) for e in edges
    }


def test_the_client_keeps_link_type_source_and_context(server: ServerHandle) -> None:
    source = mcp(server.url)
    try:
        graph = source.server_graph()
        assert isinstance(graph, McpServerGraph)
        out = graph.links_out("people/bob")
        assert out == ["people/carol", "companies/acme", "people/carol", "metrics/revenue"]
        assert all(isinstance(link, ServerLink) for link in out)
        assert [link.rel for link in out] == ["links", "works_at", "related_to", "related_to"]
        assert [link.link_source for link in out][:2] == ["markdown", "frontmatter"]
        assert out[3].context == "frontmatter.see_also: metrics/revenue"
    finally:
        source.close()


def test_server_graph_walks_carry_the_servers_relations(
    server: ServerHandle, typed_root: Path
) -> None:
    folder = Brain(BundleSource(typed_root), cache_dir=False)
    remote = Brain(mcp(server.url), cache_dir=False)
    assert remote.answered_by == "server"
    edges = remote.traverse("people/bob", 1, "out")
    assert [(e.to, e.rel) for e in edges] == folder.out_edges("people/bob")
    assert [e.link_source for e in edges] == ["markdown", *["frontmatter"] * 3]
    assert edges[2].context == "frontmatter.related: people/carol"
    assert edges[0].context is not None and "Works with" in edges[0].context
    filtered = remote.traverse("companies/acme", 2, "in", rels=["works_at"])
    assert [(e.frm, e.to, e.hop, e.rel) for e in filtered] == [
        ("companies/acme", "people/bob", 1, "works_at"),
        ("companies/acme", "people/carol", 1, "works_at"),
    ]
    assert filtered[0].context == "frontmatter.company: Acme"
    remote.close()


def test_scanned_walks_equal_the_folder_with_relations(
    server: ServerHandle, typed_root: Path
) -> None:
    folder = Brain(BundleSource(typed_root), cache_dir=False)
    remote = Brain(mcp(server.url), scan=True, cache_dir=False)
    for slug in ("people/bob", "companies/acme", "metrics/revenue"):
        mine = [(e, e.rel) for e in folder.traverse(slug, 2, "both")]
        assert [(e, e.rel) for e in remote.traverse(slug, 2, "both")] == mine, slug
    remote.close()


@pytest.mark.parametrize(
    ("link_type", "rel"),
    [("mentions", "links"), (None, "links"), ("", "links"), ("founded", "founded"), (3, "links")],
)
def test_link_type_to_relation(link_type: object, rel: str) -> None:
    assert relation_of_type(link_type) == rel


BODY_TYPED = {
    "notes/dataview.md": "# Dataview note\n\nThe parser.\nuses:: [[tools/lexer]]\n",
    "notes/memory.md": (
        "---\ntitle: Memory note\npermalink: notes/memory\n---\n# Memory note\n\n"
        "## Relations\n- part_of [[tools/lexer]] (the first pass)\n"
    ),
    "tools/lexer.md": '---\nrelated: "[[notes/dataview]]"\n---\n# Lexer\n',
}


def test_an_edge_typed_in_the_body_is_reported_as_markdown_with_its_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Dataview inline field and a Basic Memory relation line type a link in the body:
    gbrain's `link_source` `markdown` and the line around it, no origin; a frontmatter's
    edge beside them keeps `frontmatter`, its key and its page."""
    root = write_bundle(tmp_path / "typed-body", BODY_TYPED)
    monkeypatch.setenv("OKF_EXPLORER_CACHE", str(tmp_path / "cache"))
    with serve_bundle(root) as handle:
        found = rows(handle, "get_backlinks", slug="tools/lexer")
        back = rows(handle, "get_backlinks", slug="notes/dataview")
    said = {
        (r["from_slug"], r["link_type"]): (r["link_source"], r["context"], r["origin_slug"])
        for r in found
    }
    assert said == {
        ("notes/dataview", "uses"): ("markdown", "uses:: [[tools/lexer]]", None),
        ("notes/memory", "part_of"): (
            "markdown",
            "part_of [[tools/lexer]] (the first pass)",  # the item, without its bullet
            None,
        ),
    }
    assert [
        (r["from_slug"], r["link_source"], r["origin_slug"], r["origin_field"]) for r in back
    ] == [("tools/lexer", "frontmatter", "tools/lexer", "related")]
