"""The shape of the graph in the explorer (issue 27): walks by relation (`w`, then `t`),
implied inverse edges (`i`), communities and bridges in the `s` dialog, and suggested
links beside the mentions in the link tree. Real keys on the shape vault."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.stats import StatsDialog
from okf_explorer.tui.screens.main import MainScreen
from okf_explorer.tui.state.slice import IMPLIED_MARK
from okf_explorer.tui.widgets.graph.graph_panel import GraphPanel
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.graph.walk_view import WalkView
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.shape_vault import make_shape_vault

from .conftest import brain_for, settle


def table_rows(view: WalkView) -> list[tuple[str, ...]]:
    table = view.table
    return [tuple(str(cell) for cell in table.row(i).cells) for i in range(table.row_count)]


async def test_w_then_t_walks_one_relation_at_a_time(tmp_path: Path) -> None:
    vault = make_shape_vault(tmp_path / "vault")
    app = make_app(brain_for(BundleSource(vault)), start="garden/tulip")
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        view = screen.query_one(WalkView)
        await settle(pilot, lambda: screen.loader.ready)
        await pilot.press("w")
        await settle(pilot, lambda: view.loaded)
        assert ("1.000", "1", "garden/rose", "→(next 1.000) garden/rose") in (table_rows(view))
        await pilot.press("t")  # the graph's first relation: body links
        await settle(pilot, lambda: view.loaded and view.settings.rel == "links")
        assert str(view.border_title).endswith(" · rel links")
        assert ("0.333", "1", "garden/rose", "→(0.333) garden/rose") in (table_rows(view))
        assert "garden/water" not in [row[2] for row in table_rows(view)]


async def test_i_shows_implied_edges_dimmed_and_marked(tmp_path: Path) -> None:
    vault = make_shape_vault(tmp_path / "vault")
    app = make_app(brain_for(BundleSource(vault)), start="companies/acme")
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        panel, tree = screen.query_one(TraversalPanel), screen.query_one(LinkTree)
        await settle(pilot, lambda: screen.loader.ready and panel.loaded)
        assert panel.edges == []
        assert [str(node.label) for node in tree.root.children] == ["Outgoing (0)", "Incoming (2)"]
        await pilot.press("i")
        await settle(pilot, lambda: panel.loaded and len(panel.edges) == 2)
        assert str(panel.border_title) == "companies/acme · depth 1 · out · implied"
        assert [(e.to, e.rel, e.implied) for e in panel.edges] == [
            ("people/ann", "employs", True),
            ("people/bob", "employs", True),
        ]
        to_cell = panel.table.row(0).cells[3]
        assert str(to_cell).startswith(IMPLIED_MARK) and "dim" in str(to_cell.spans[0].style)
        await settle(pilot, lambda: str(tree.root.children[0].label) != "Outgoing (0)")
        out_root = tree.root.children[0]
        assert str(out_root.label) == "Outgoing (0 + 2 implied)"
        labels = [str(node.label) for node in out_root.children]
        assert labels[0].startswith(IMPLIED_MARK + "people/ann") and labels[0].endswith("implied")
        assert [str(n.label) for n in tree.root.children][1] == "Incoming (2)"
        await pilot.press("i")
        await settle(pilot, lambda: panel.loaded and panel.edges == [])
        assert str(panel.border_title) == "companies/acme · depth 1 · out"


async def test_s_lists_communities_and_bridges_and_enter_opens_one(tmp_path: Path) -> None:
    vault = make_shape_vault(tmp_path / "vault")
    app = make_app(brain_for(BundleSource(vault)), start="garden/tulip")
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        await settle(pilot, lambda: screen.loader.ready)
        await pilot.press("s")
        await settle(pilot, lambda: isinstance(app.screen, StatsDialog) and app.screen.shape)
        dialog = app.screen
        assert isinstance(dialog, StatsDialog)
        options = dialog.query_one(OptionList)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        start = shown.index("communities (3)")
        assert shown[start:] == [
            "communities (3)",
            "   1  6  garden/rose",
            "   2  6  kitchen/bread",
            "   3  3  companies/acme",
            "bridges (5)",
            "  garden/compost  splits 8 + 6",
            "  seasons  splits 9 + 5",
            "  garden/rose  splits 10 + 3 + 1",
            "  kitchen/bread  splits 10 + 4",
            "  people/ann  splits 12 + 2",
        ]
        options.highlighted = start + 6  # seasons
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, MainScreen))
        assert app.screen.query_one(PagePane).slug == "seasons"


async def test_the_link_tree_suggests_pages_sharing_neighbours(tmp_path: Path) -> None:
    vault = make_shape_vault(tmp_path / "vault")
    app = make_app(brain_for(BundleSource(vault)), start="kitchen/oven")
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        tree = screen.query_one(LinkTree)
        await settle(pilot, lambda: screen.loader.ready)
        await settle(pilot, lambda: any("Suggested" in str(n.label) for n in tree.root.children))
        (section,) = [n for n in tree.root.children if str(n.label).startswith("Suggested")]
        assert str(section.label) == "Suggested (1)"
        (leaf,) = section.children
        assert str(leaf.label) == "kitchen/salt  3 shared neighbours, score 2.064"
        assert tree.link_summary(leaf) == (
            "kitchen/salt: 3 shared neighbours, score 2.064 · not linked"
        )


async def test_g_colours_pages_by_community(tmp_path: Path) -> None:
    """The local graph gives each large community its colour (the one `analyze` finds),
    and the subtitle names the selected page's group."""
    vault = make_shape_vault(tmp_path / "vault")
    app = make_app(brain_for(BundleSource(vault)), start="garden/rose")
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        await settle(pilot, lambda: screen.loader.ready)
        await pilot.press("d", "d")  # both ways: the garden and its bridge to the kitchen
        await pilot.press("g")
        panel = screen.query_one(GraphPanel)
        await settle(pilot, lambda: panel.colours is not None and panel.drawing is not None)
        await settle(pilot, lambda: any(node.colour for node in panel.drawing.nodes))
        colour = {node.slug: node.colour for node in panel.drawing.nodes}
        communities = {c.label: set(c.pages) for c in app.brain.communities()}
        drawn_groups = {
            label: {colour[slug] for slug in pages if slug in colour}
            for label, pages in communities.items()
            if len(pages) >= 3
        }
        drawn_groups = {label: found for label, found in drawn_groups.items() if found}
        assert len(drawn_groups) >= 2, colour
        assert all(len(found) == 1 and None not in found for found in drawn_groups.values())
        assert len({next(iter(found)) for found in drawn_groups.values()}) == len(drawn_groups)
        said = str(panel.describe())
        label = panel.colours.label_of(panel.canvas.cursor.slug)  # type: ignore[union-attr]
        title = app.brain.index.pages[label].title  # type: ignore[union-attr]
        assert label and title and title != label  # the fixture's pages have titles
        assert f"group of {title}" in said  # the community by its title, not its slug


def test_colouring_never_builds_the_index(tmp_path: Path) -> None:
    """Communities are worked out only over a built index: before it (or after `ctrl+x`
    cancelled it) the graph stays uncoloured rather than start a build nobody can stop."""
    from okf_explorer.tui.state.communities import community_colours

    brain = brain_for(BundleSource(make_shape_vault(tmp_path / "vault")))
    assert community_colours(brain) is None
    assert brain.index is None
    brain.ensure_index()
    colours = community_colours(brain)
    assert colours is not None and colours.colour_of("garden/rose") is not None
