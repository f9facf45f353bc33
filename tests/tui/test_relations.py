"""Typed edges in the TUI: `t` cycles the relation filter (shown in the traversal
title), and the link tree groups a page's links by relation."""

from __future__ import annotations

from pathlib import Path

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from tests.typed_bundle import make_typed_bundle

from .conftest import SIZE, brain_for, settle


def labels(node) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(child.label) for child in node.children]


async def test_t_cycles_the_relation_filter(tmp_path: Path) -> None:
    root = make_typed_bundle(tmp_path / "brain")
    app = make_app(brain_for(BundleSource(root)), start="people/bob")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(TraversalPanel)
        assert str(panel.border_title) == "people/bob · depth 1 · out"
        assert len(panel.edges) == 4
        seen = []
        for _ in range(9):  # every relation of the graph, then back to all of them
            await pilot.press("t")
            await settle(pilot)
            seen.append(str(panel.border_title).partition(" · out")[2])
        assert seen == [
            " · rel links",
            " · rel computation",
            " · rel derived_from",
            " · rel discussed_in",
            " · rel executor.resource",
            " · rel related_to",
            " · rel resource",
            " · rel works_at",
            "",
        ]
        for _ in range(6):
            await pilot.press("t")
        await settle(pilot)
        assert str(panel.border_title) == "people/bob · depth 1 · out · rel related_to"
        assert [(e.to, e.rel) for e in panel.edges] == [
            ("people/carol", "related_to"),
            ("metrics/revenue", "related_to"),
        ]
        await pilot.press("d")  # the filter stays with the other settings
        await settle(pilot)
        assert str(panel.border_title) == "people/bob · depth 1 · in · rel related_to"


async def test_t_does_nothing_on_a_brain_of_body_links(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.screen.check_action("cycle_relation", ())
        await pilot.press("t")
        await settle(pilot)
        assert str(app.screen.query_one(TraversalPanel).border_title) == "index · depth 1 · out"


async def test_the_link_tree_groups_links_by_relation(tmp_path: Path) -> None:
    root = make_typed_bundle(tmp_path / "brain")
    app = make_app(brain_for(BundleSource(root)), start="people/bob")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(LinkTree)
        outgoing, incoming = tree.root.children
        assert str(outgoing.label) == "Outgoing (4)"
        assert labels(outgoing) == ["links (1)", "works_at (1)", "related_to (2)"]
        related = outgoing.children[2]
        assert [child.data.slug for child in related.children] == [
            "people/carol",
            "metrics/revenue",
        ]
        assert str(incoming.label) == "Incoming (0)"
        tree.focus()
        tree.move_cursor(related)
        await pilot.pause()
        assert tree.selected_slug is None  # a heading is not a page
        tree.move_cursor(related.children[0])
        await pilot.pause()
        assert tree.selected_slug == "people/carol"
        assert tree.link_info == "people/bob → [[people/carol]] · rel related_to · rule exact"
        # expanding a page fetches its own one-hop links, grouped the same way
        revenue = related.children[1]
        revenue.expand()
        await settle(pilot, lambda: len(revenue.children) == 5)
        assert labels(revenue) == [
            "links (1)",
            "resource (1)",
            "computation (1)",
            "executor.resource (1)",
            "derived_from (3)",
        ]


async def test_incoming_links_group_and_a_lone_relation_is_named_on_its_line(
    tmp_path: Path,
) -> None:
    root = make_typed_bundle(tmp_path / "brain")
    app = make_app(brain_for(BundleSource(root)), start="companies/acme")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(LinkTree)
        outgoing, incoming = tree.root.children
        assert str(outgoing.label) == "Outgoing (0)"
        assert labels(incoming) == ["works_at (2)", "discussed_in (1)"]
        works, discussed = incoming.children
        assert [child.data.slug for child in works.children] == ["people/bob", "people/carol"]
        podcast = discussed.children[0]
        assert podcast.data.slug == "source/podcast-12"
    app = make_app(brain_for(BundleSource(root)), start="source/podcast-12")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        outgoing, _ = app.screen.query_one(LinkTree).root.children
        (line,) = labels(outgoing)  # one relation: no heading, named on the line
        assert line.startswith("companies/acme") and line.endswith("discussed_in")
