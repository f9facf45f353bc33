"""The traversal panel's walk mode (`w`): best paths by link weight from several roots,
the threshold and depth keys, roots added by `a`, `enter` opening a row, `escape`
leaving. Pressing real keys on a real bundle (`test_cli_walk.FILES`, weights by hand)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from okf_explorer.core.graph.best_paths import WalkHop, WalkRow
from okf_explorer.core.graph.traverse import LINKS
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.walk_roots import WalkRootsDialog, root_specs
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.graph.walk_view import WalkView, short_path
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_bundle
from tests.test_cli_walk import FILES

from .conftest import brain_for, settle


def table_rows(view: WalkView) -> list[tuple[str, ...]]:
    table = view.table
    return [tuple(str(cell) for cell in table.row(i).cells) for i in range(table.row_count)]


def make(tmp_path: Path, start: str = "hub"):  # type: ignore[no-untyped-def]
    return make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", FILES))), start=start)


async def test_w_walks_from_the_page_and_keys_change_depth_weight_and_roots(
    tmp_path: Path,
) -> None:
    app = make(tmp_path)
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        panel, view = screen.query_one(TraversalPanel), screen.query_one(WalkView)
        await settle(pilot, lambda: screen.loader.ready and panel.filled)
        assert not view.display
        await pilot.press("w")
        await settle(pilot, lambda: view.loaded)
        assert view.display and not panel.display and view.table.has_focus
        assert str(view.border_title) == "walk · hub · depth 1 · out · weight ≥ 0.00"
        assert table_rows(view) == [
            ("1.000", "0", "hub", "(root)"),  # one root: each path without it
            ("0.750", "1", "a", "→(0.750) a"),
            ("0.250", "1", "b", "→(0.250) b"),
        ]
        await pilot.press("plus", "plus")
        await settle(pilot, lambda: view.loaded and view.settings.depth == 3)
        assert [row[2] for row in table_rows(view)] == ["hub", "a", "d", "c", "e", "b"]
        assert table_rows(view)[2][3] == "→(0.750) a →(derived_from 1.000) d"
        for _ in range(6):
            await pilot.press("right_square_bracket")
        await settle(pilot, lambda: view.loaded and view.settings.min_weight == 0.6)
        assert str(view.border_title) == "walk · hub · depth 3 · out · weight ≥ 0.60"
        assert [row[2] for row in table_rows(view)] == ["hub", "a", "d"]
        await pilot.press("left_square_bracket")
        await settle(pilot, lambda: view.loaded and view.settings.min_weight == 0.5)
        assert [row[2] for row in table_rows(view)] == ["hub", "a", "d", "c", "e"]

        await pilot.press("a")
        await settle(pilot, lambda: isinstance(app.screen, WalkRootsDialog))
        await pilot.press(*"tag:t", "enter")
        await settle(pilot, lambda: view.loaded and len(view.settings.roots) == 2)
        assert str(view.border_title) == "walk · 2 roots · depth 3 · out · weight ≥ 0.50"
        rows = {row[2]: row for row in table_rows(view)}
        assert rows["d"][:2] == ("1.000", "0")  # a root keeps weight 1 though a reaches it
        assert rows["e"][3] == "d →(0.500) e"  # several roots: which one it starts from
        assert rows["d"][3] == "(root)"

        assert [row[2] for row in table_rows(view)][:2] == ["d", "hub"]
        await pilot.press("enter")
        await settle(
            pilot, lambda: screen.nav.current is not None and screen.nav.current.slug == "d"
        )
        assert view.display  # the mode stays while pages open
        view.table.focus()
        await pilot.press("escape")
        await settle(pilot)
        assert panel.display and not view.display and panel.table.has_focus


async def test_a_root_that_matches_nothing_keeps_the_walk(tmp_path: Path) -> None:
    app = make(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        view = screen.query_one(WalkView)
        await settle(pilot, lambda: screen.loader.ready)
        await pilot.press("w")
        await settle(pilot, lambda: view.loaded)
        before = table_rows(view)
        await pilot.press("a", *"type:nothing", "enter")
        await settle(pilot, lambda: view.loaded and not isinstance(app.screen, WalkRootsDialog))
        assert table_rows(view) == before and view.settings.roots == ("hub",)
        assert any("no page has type 'nothing'" in n.message for n in app._notifications)
        await pilot.press("d")
        await settle(pilot, lambda: view.loaded and view.settings.direction == "in")
        assert [row[2] for row in table_rows(view)] == ["hub", "d"]
        await pilot.press("w")
        await settle(pilot)
        assert not view.display


def test_root_specs_split_on_commas() -> None:
    assert root_specs(" a , tag:x,,type:y ") == ["a", "tag:x", "type:y"]
    assert root_specs(" , ") == []


async def test_walk_and_paths_never_show_together(tmp_path: Path) -> None:
    """`P` during a walk leaves the walk; `w` with paths shown hides the paths."""
    from okf_explorer.tui.widgets.graph.path_view import PathView

    app = make(tmp_path)
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        panel, walk, paths = (
            screen.query_one(TraversalPanel),
            screen.query_one(WalkView),
            screen.query_one(PathView),
        )
        await settle(pilot, lambda: screen.loader.ready and panel.filled)
        await pilot.press("M", "w")
        await settle(pilot, lambda: walk.loaded)
        screen.open_page("d")
        await settle(
            pilot, lambda: screen.nav.current is not None and screen.nav.current.slug == "d"
        )
        await pilot.press("P")
        await settle(pilot, lambda: bool(paths.display))
        assert not walk.display and not panel.display
        await pilot.press("w")
        await settle(pilot, lambda: bool(walk.display))
        assert not paths.display and not panel.display


async def test_tab_goes_round_the_panes_with_the_walk_in_the_slices_place(
    tmp_path: Path,
) -> None:
    from okf_explorer.tui.widgets.graph.link_tree import LinkTree
    from okf_explorer.tui.widgets.page.pane import PagePane

    app = make(tmp_path)
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        panel, view = screen.query_one(TraversalPanel), screen.query_one(WalkView)
        await settle(pilot, lambda: screen.loader.ready and panel.filled)
        await pilot.press("w")
        await settle(pilot, lambda: view.loaded)
        page, tree = screen.query_one(PagePane), screen.query_one(LinkTree)
        seen = []
        for key in ("tab", "tab", "tab", "shift+tab", "shift+tab", "shift+tab"):
            await pilot.press(key)
            seen.append(screen.focused)
        assert seen == [page, tree, view.table, tree, page, view.table]


async def test_z_zooms_the_walk_view(tmp_path: Path) -> None:
    app = make(tmp_path)
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        panel, view = screen.query_one(TraversalPanel), screen.query_one(WalkView)
        await settle(pilot, lambda: screen.loader.ready and panel.filled)
        await pilot.press("w")
        await settle(pilot, lambda: view.loaded)
        await pilot.press("z")
        await settle(pilot)
        assert screen.zoomed is view
        await pilot.press("z")
        await settle(pilot)
        assert screen.zoomed is None


async def test_a_walk_begun_in_a_zoom_stays_when_the_zoom_ends(tmp_path: Path) -> None:
    """The zoom hides and shows back only the panes beside the zoomed one: a view put in
    the slice's place meanwhile stays there; `escape` ends the zoom first, then the walk."""
    app = make(tmp_path)
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        panel, view = screen.query_one(TraversalPanel), screen.query_one(WalkView)
        page, links = screen.query_one(PagePane), screen.query_one(LinkTree)
        await settle(pilot, lambda: screen.loader.ready and panel.filled)
        links.focus()
        await pilot.press("z")
        await settle(pilot)
        assert screen.zoomed is links and links.region.width == 150
        assert page.region.width == 0 and panel.region.height == 0
        await pilot.press("w")  # the walk view takes the focus, and the zoom
        await settle(pilot, lambda: view.loaded)
        assert screen.zoomed is view and view.region.width == 150 and links.region.width == 0
        await pilot.press("escape")
        await settle(pilot)
        assert screen.zoomed is None
        assert view.display and not panel.display  # still walking
        assert page.region.width > 0 and links.region.width > 0 and view.region.width > 0
        await pilot.press("escape")  # now the walk view's own escape
        await settle(pilot)
        assert not view.display and panel.display


async def test_at_80_columns_the_walk_view_takes_the_traversal_panels_width(
    tmp_path: Path,
) -> None:
    """Stacked panes: the view in the traversal panel's place gets its 3 of 5 columns."""
    from okf_explorer.tui.widgets.graph.link_tree import LinkTree

    app = make(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        panel, view = screen.query_one(TraversalPanel), screen.query_one(WalkView)
        await settle(pilot, lambda: screen.loader.ready and panel.filled)
        width = panel.size.width
        await pilot.press("w")
        await settle(pilot, lambda: view.loaded)
        assert view.size.width == width > screen.query_one(LinkTree).size.width


async def test_a_long_page_name_keeps_its_file_name_read_from_its_start(
    tmp_path: Path,
) -> None:
    deep = "a-rather-long-folder/and-another-long-folder/the-target-page"
    files = {"hub.md": f"[[{deep}]]\n", f"{deep}.md": "# Target\n"}
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", files))), start="hub")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        panel, view = screen.query_one(TraversalPanel), screen.query_one(WalkView)
        await settle(pilot, lambda: screen.loader.ready and panel.filled)
        await pilot.press("w")
        await settle(pilot, lambda: view.loaded)
        cell = table_rows(view)[1][2]
        # the file name, whole or read from its start (not `a-rather-lon…`, nor
        # `…target-page`): the column's width differs from one machine to another
        whole = cell.startswith("…") and cell.endswith("the-target-page")
        assert whole or (cell.startswith("the-target-") and cell.endswith("…")), cell


async def test_the_walk_is_laid_out_again_for_a_new_terminal_width(tmp_path: Path) -> None:
    """A narrower terminal: the walk's columns are laid out again to fit it, beside the
    table's scroll bar (they stayed as wide as before, and were cut at the edge)."""
    app = make(tmp_path)
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        panel, view = screen.query_one(TraversalPanel), screen.query_one(WalkView)
        await settle(pilot, lambda: screen.loader.ready and panel.filled)
        await pilot.press("w", "plus", "plus")
        await settle(pilot, lambda: view.loaded and view.settings.depth == 3)
        table = view.table
        wide = sum(column.width + 2 for column in table.columns)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        narrow = sum(column.width + 2 for column in table.columns)
        assert narrow < wide and narrow <= table.scrollable_size.width
        assert table.size.width - table.scrollable_size.width in (0, 2)  # a bar, if any
        assert [row[2] for row in table_rows(view)] == ["hub", "a", "d", "c", "e", "b"]


async def test_a_path_too_long_for_its_column_names_its_pages_by_file_name(
    tmp_path: Path,
) -> None:
    """80×24 on an agent's Kueue wiki: every path cell read `→(0.017) wi…` (the hop's
    weight, then `wiki/…` cut). A path too long for its column shows each page's file
    name and way alone; the whole path stays in the info line."""
    hub = "wiki/kueue-overview-and-the-index-of-everything"
    via = "wiki/topology-aware-scheduling"
    files = {
        f"{hub}.md": f"[[{via}]]\n",
        f"{via}.md": "[[raw/github/kubernetes-sigs__kueue/issue-3663]]\n",
        "raw/github/kubernetes-sigs__kueue/issue-3663.md": "# Issue 3663\n",
    }
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", files))), start=hub)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        panel, view = screen.query_one(TraversalPanel), screen.query_one(WalkView)
        await settle(pilot, lambda: screen.loader.ready and panel.filled)
        await pilot.press("w", "plus")
        await settle(pilot, lambda: view.loaded and view.settings.depth == 2)
        paths = [row[3] for row in table_rows(view)]
        assert paths[1] == "→ topology-aware-scheduling", paths
        assert paths[2] == "→ topology-aware-scheduling → issue-3663", paths
        await pilot.press("down", "down")
        await settle(pilot)
        info = view.query_one(f"#{view.PREFIX}-info", Static)
        assert f"{via} →(" in str(info.render())  # the whole path below the table


def test_a_short_path_keeps_each_hop_s_way_and_stated_relation() -> None:
    hops = (
        WalkHop("tables/orders", "pipelines/orders_daily", "derived_from", "out", 1.0),
        WalkHop("pipelines/orders_daily", "teams/data-platform", LINKS, "in", 0.5),
    )
    row = WalkRow(
        "teams/data-platform",
        0.5,
        ("tables/orders", "pipelines/orders_daily", "teams/data-platform"),
        hops,
    )
    assert short_path(row, with_root=False) == "→(derived_from) orders_daily ← data-platform"
    assert short_path(row, with_root=True) == (
        "orders →(derived_from) orders_daily ← data-platform"
    )
    to_folder = WalkHop("index", "tables/index", LINKS, "out", 0.1)
    folder_row = WalkRow("tables/index", 0.1, ("index", "tables/index"), (to_folder,))
    assert short_path(folder_row, with_root=False) == "→ tables/index"  # not `→ index`
