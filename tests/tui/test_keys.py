"""Every SPEC §8 key, pressed for real on a small bundle, asserting on widget state."""

from __future__ import annotations

import time
from pathlib import Path

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.help import HelpDialog
from okf_explorer.tui.screens.main import MainScreen
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import PagePane
from okf_explorer.tui.widgets.row_table import RowTable
from okf_explorer.tui.widgets.status_bar import StatusBar

from .conftest import SIZE, brain_for, press_at_once, settle, write_bundle


def explorer(app) -> MainScreen:  # type: ignore[no-untyped-def]
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


def title(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one(TraversalPanel).border_title)


def notes(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [notification.message for notification in app._notifications]


async def test_start_shows_index_with_links_and_status(small_bundle: Path) -> None:
    brain = brain_for(BundleSource(small_bundle))
    app = make_app(brain, source_label="small")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = explorer(app)
        assert screen.history.current is not None and screen.history.current.slug == "index"
        assert screen.query_one(PagePane).page.title == "Home"
        assert title(app) == "index · depth 1 · out"
        tree = screen.query_one(LinkTree)
        assert [str(node.label) for node in tree.root.children] == ["Outgoing (2)", "Incoming (1)"]
        panel = screen.query_one(TraversalPanel)
        assert [(edge.frm, edge.to) for edge in panel.edges] == [
            ("index", "alpha"),
            ("index", "beta"),
        ]
        assert screen.query_one(StatusBar).index_state == "indexed · answered by index"


async def test_plus_and_minus_change_depth_within_1_to_10(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.screen.check_action("shallower", ())
        await pilot.press("minus")
        assert title(app) == "alpha · depth 1 · out"
        await pilot.press("plus", "plus")
        await settle(pilot)
        assert title(app) == "alpha · depth 3 · out"
        edges = app.screen.query_one(TraversalPanel).edges
        assert edges == app.brain.traverse("alpha", 3, "out")
        await press_at_once(pilot, "plus", "+", 6)  # 3 → 9
        await pilot.press("plus", "plus")
        assert title(app) == "alpha · depth 10 · out"
        assert not app.screen.check_action("deeper", ())
        await pilot.press("minus")
        assert title(app) == "alpha · depth 9 · out"


async def test_d_cycles_direction_and_b_jumps_to_backlinks(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seen = []
        for _ in range(4):
            await pilot.press("d")
            seen.append(title(app))
        assert seen == [
            "alpha · depth 1 · in",
            "alpha · depth 1 · both",
            "alpha · depth 1 · neighbourhood",
            "alpha · depth 1 · out",
        ]
        await pilot.press("plus", "b")
        await settle(pilot)
        assert title(app) == "alpha · backlinks"
        panel = app.screen.query_one(TraversalPanel)
        assert (
            [edge.to for edge in panel.edges] == app.brain.backlinks("alpha") == ["beta", "index"]
        )
        assert {edge.direction for edge in panel.edges} == {"in"}
        await pilot.press("b")  # again: back to where `b` was pressed
        await settle(pilot)
        assert title(app) == "alpha · depth 2 · out"


async def test_enter_on_a_traversal_row_opens_its_page(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#traversal-table", RowTable)
        table.focus()
        await pilot.press("down", "enter")
        await settle(pilot)
        assert explorer(app).history.current.slug == "beta"
        assert title(app) == "beta · depth 1 · out"


async def test_enter_opens_the_chosen_row_even_if_the_slice_changes_before_it_is_handled(
    small_bundle: Path,
) -> None:
    """`Down Enter d` typed in one burst: the selection is handled after `d` replaced
    the slice, and must still open the row the user chose."""
    app = make_app(brain_for(BundleSource(small_bundle)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = explorer(app)
        table = screen.query_one("#traversal-table", RowTable)
        row_key = table.row(1).key
        chosen = row_key.split("\t", 1)[1]  # the `to` cell also holds glyphs
        panel = screen.query_one(TraversalPanel)
        current = screen.history.current
        panel.show_pending(current.with_direction("in"), "walking…")  # `d` got there first
        table.post_message(RowTable.RowSelected(table, 1, row_key))
        await settle(pilot)
        assert screen.history.current.slug == chosen == "beta"


async def test_enter_on_tree_opens_page_and_missing_target_notifies(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(LinkTree)
        tree.focus()
        labels = [str(node.label) for node in tree.root.children[0].children]
        assert labels[0].startswith("⊘○ beta →1")  # deprecated, unverified (tui.marks)
        assert labels[1] == "✗ missing ghost"
        await pilot.press("down", "down", "enter")  # Outgoing → beta → ghost
        await settle(pilot)
        assert "no such page: ghost" in notes(app)
        assert explorer(app).history.current.slug == "alpha"
        await pilot.press("up", "enter")
        await settle(pilot)
        assert explorer(app).history.current.slug == "beta"


async def test_tree_node_expands_one_hop_lazily(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(LinkTree)
        alpha = tree.root.children[0].children[0]
        assert alpha.data.slug == "alpha" and not alpha.children
        alpha.expand()
        await settle(pilot)
        assert [child.data.slug for child in alpha.children] == ["beta", "ghost"]
        assert [child.data.exists for child in alpha.children] == [True, False]


async def test_history_back_back_forward_restores_pages_and_settings(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = explorer(app)
        assert not screen.check_action("back", ())
        await pilot.press("plus")  # index at depth 2
        screen.open_page("alpha")
        await settle(pilot)
        await pilot.press("d")  # alpha at depth 2, in
        screen.open_page("beta")
        await settle(pilot)
        assert title(app) == "beta · depth 2 · in"
        await pilot.press("backspace")
        await settle(pilot)
        assert title(app) == "alpha · depth 2 · in"
        await pilot.press("alt+left")
        await settle(pilot)
        assert title(app) == "index · depth 2 · out"
        assert screen.query_one(PagePane).page.slug == "index"
        assert not screen.check_action("back", ())
        await pilot.press("alt+right")
        await settle(pilot)
        assert title(app) == "alpha · depth 2 · in"
        assert screen.query_one(PagePane).page.slug == "alpha"
        assert screen.check_action("forward", ())


async def test_a_burst_of_back_presses_walks_back_that_many_pages(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = explorer(app)
        for slug in ("alpha", "beta", "notes/gamma"):
            screen.open_page(slug)
            await settle(pilot)
        page = app.brain.page

        def slow_page(slug: str):  # type: ignore[no-untyped-def]
            time.sleep(0.2)  # a slow source: the presses come in while a page loads
            return page(slug)

        app.brain.page = slow_page  # type: ignore[method-assign]
        await pilot.press("backspace", "backspace", "backspace")  # no pause between them
        await settle(pilot)
        assert screen.history.current is not None and screen.history.current.slug == "index"
        assert screen.query_one(PagePane).page.slug == "index"
        assert title(app) == "index · depth 1 · out"
        await pilot.press("alt+right", "alt+right")
        await settle(pilot)
        assert screen.query_one(PagePane).page.slug == "beta"


async def test_tab_and_shift_tab_cycle_the_panes_and_q_quits(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one(PagePane).focus()
        order = []
        for _ in range(3):
            await pilot.press("tab")
            order.append(app.focused.id)
        assert order == ["link-tree", "traversal-table", "page-pane"]
        await pilot.press("shift+tab")
        assert app.focused.id == "traversal-table"
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_question_mark_lists_every_key(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpDialog)
        keys = {key for row, _ in app.screen.rows for key in row.split(", ")}
        expected = (
            "enter backspace alt+← alt+→ + - d b t i e l n N m o p L / ctrl+p ctrl+f g w f F z E "
            "M P s r ctrl+x tab shift+tab T S ? q escape"
        )
        assert keys == set(expected.split())
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_r_reloads_changed_pages(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="notes/gamma")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert [edge.to for edge in app.screen.query_one(TraversalPanel).edges] == ["index"]
        page = small_bundle / "notes" / "gamma.md"
        page.write_text("# Gamma\n\nNow [[index]] and [[beta]], a longer body.\n", encoding="utf-8")
        await pilot.press("r")
        await settle(pilot)
        assert [edge.to for edge in app.screen.query_one(TraversalPanel).edges] == ["index", "beta"]
        assert "beta" in app.screen.query_one(PagePane).page.content
        assert app.screen.query_one(StatusBar).index_state.startswith("indexed")


async def test_r_with_nothing_changed_leaves_the_page_and_graph_as_they_are(
    small_bundle: Path,
) -> None:
    """It read the page again and walked the graph again for the same answer (half of
    the key's 200 ms on a 6.5k-page vault); it says nothing changed instead."""
    app = make_app(brain_for(BundleSource(small_bundle)), start="notes/gamma")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane, panel = app.screen.query_one(PagePane), app.screen.query_one(TraversalPanel)
        page, edges = pane.page, panel.edges
        await pilot.press("r")
        said = lambda: any("nothing changed" in n.message for n in app._notifications)  # noqa: E731
        await settle(pilot, said)
        assert pane.page is page and panel.edges is edges


async def test_body_links_open_pages_and_dangling_ones_notify(small_bundle: Path) -> None:
    from okf_explorer.tui.markdown import VaultBody

    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        body = app.screen.query_one(PagePane).query_one(VaultBody)
        block = body.children[-1]
        await block.action_link("beta.md")  # a plain Markdown link
        await settle(pilot)
        assert explorer(app).history.current.slug == "beta"
        explorer(app).open_page("alpha")
        await settle(pilot)
        block = app.screen.query_one(PagePane).query_one(VaultBody).children[-1]
        await block.action_link("okf:ghost")
        await settle(pilot)
        assert "no such page: ghost" in notes(app)
        await block.action_link("okf:beta")
        await settle(pilot)
        assert explorer(app).history.current.slug == "beta"


async def test_deprecated_page_is_marked_and_unreadable_page_says_why(tmp_path: Path) -> None:
    root = write_bundle(
        tmp_path / "b",
        {"index.md": "[[old]] [[broken]]\n", "old.md": "---\nstatus: deprecated\n---\nold\n"},
    )
    (root / "broken.md").write_bytes(b"\xff\xfe not utf-8")
    app = make_app(brain_for(BundleSource(root)), start="old")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = app.screen.query_one("#page-header")
        assert header.has_class("deprecated")
        assert "DEPRECATED" in str(header.content)
        explorer(app).open_page("broken")
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        assert pane.has_class("failed") and pane.error
        assert "UTF-8" in pane.error or "utf-8" in pane.error.lower()


async def test_dialogs_hide_the_main_screen_instead_of_drawing_it_again_tinted(
    sample_brain: Path,
) -> None:
    """Under a see-through dialog Textual draws the whole main screen again, tinted, as
    it opens (`o` 56 -> 31 ms): every dialog the keys open draws on a plain background.
    The filter (`F`, an OKF bundle's) is the one left see-through: its panes change behind
    it as it is typed in."""
    app = make_app(brain_for(BundleSource(sample_brain)), start="tables/orders")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for key in ("o", "T", "l", "question_mark", "s", "slash", "ctrl+f", "F"):
            await pilot.press(key)
            await settle(pilot)
            dialog = app.screen
            assert not isinstance(dialog, MainScreen), key
            see_through = dialog.styles.background.a < 1
            assert see_through == (key == "F"), (key, type(dialog).__name__)
            await pilot.press("escape")
            await settle(pilot, lambda: isinstance(app.screen, MainScreen))
