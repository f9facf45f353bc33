"""Any terminal size (80×24 and 150×45): stacked panes, `z` zooms a pane, the header
folds in a short pane, help scrolls, `?` and `q` stay in the footer."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import ProgressBar

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.help import HelpDialog
from okf_explorer.tui.widgets.footer import PinnedFooter
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import PagePane
from okf_explorer.tui.widgets.status_bar import StatusBar

from .conftest import brain_for, settle


def app_for(sample_brain: Path, start: str = "tables/orders"):  # type: ignore[no-untyped-def]
    return make_app(brain_for(BundleSource(sample_brain)), start=start, watch_files=False)


def visible_footer_keys(app) -> set[str]:  # type: ignore[no-untyped-def]
    """Footer keys drawn inside the screen (read off the screen's last line)."""
    footer = app.screen.query_one(PinnedFooter)
    line = footer_line(app)
    return {
        key.key
        for start, key in footer.placed()
        if start >= 0 and line[start:].strip().startswith(key.display)
    }


def footer_line(app) -> str:  # type: ignore[no-untyped-def]
    return app.screen._compositor.render_strips()[-1].text


async def test_80x24_stacks_the_panes_and_the_page_gets_the_width(sample_brain: Path) -> None:
    app = app_for(sample_brain)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        page = app.screen.query_one(PagePane)
        links = app.screen.query_one(LinkTree)
        assert app.screen.has_class("-narrow")
        assert page.region.width == 80  # was ~28 columns beside the graph column
        assert links.region.y >= page.region.bottom  # the links and slice sit below
        header_lines = str(page.query_one("#page-header").render()).count("\n") + 1
        assert header_lines <= 3  # title, badges, "… N more properties · p shows them"
        assert page.header_folded
        await pilot.press("p")
        await settle(pilot)
        assert str(page.query_one("#page-header").render()).count("\n") + 1 > 3


def properties(count: int) -> str:
    return "".join(f"p{n}: value {n}\n" for n in range(count))


def note_app(folder: Path, front: str, body: str):  # type: ignore[no-untyped-def]
    """The explorer on a page `note` of the properties `front` and `body`."""
    (folder / "note.md").write_text(f"---\ntitle: Note\n{front}---\n{body}")
    return make_app(brain_for(BundleSource(folder)), start="note", watch_files=False)


def header_of(page: PagePane) -> str:
    return str(page.query_one("#page-header").render())


def keys_shown(header: str, keys: int) -> list[bool]:
    """Whether each of the `keys` properties (`properties`) is in `header`."""
    return [f"p{n} value {n}" in header for n in range(keys)]


@pytest.mark.parametrize(
    ("keys", "body", "shown", "folded"),
    [
        (9, "", 9, 0),  # a page of properties only: all of them, as at 150×45
        (5, "One line.\n", 5, 0),  # and a short body under them
        (12, "", 8, 4),  # more than the pane holds: as many as fit, then a count
        (12, "x\n" * 20, 1, 11),  # a body longer than the pane: the header takes 3 lines
    ],
)
async def test_a_short_pane_gives_the_header_the_rows_the_body_does_not_need(
    tmp_path: Path, keys: int, body: str, shown: int, folded: int
) -> None:
    """At 80×24 the header folded to its title and one line, `… 12 more properties`,
    whatever the page: a page of properties and no body (as Obsidian vaults kept with
    properties have many) left the pane empty under it."""
    app = note_app(tmp_path, properties(keys), body)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        page = app.screen.query_one(PagePane)
        header = header_of(page)
        assert keys_shown(header, keys) == [n < shown for n in range(keys)]
        assert (f"… {folded} more propert" in header) is bool(folded)
        assert page.header_folded is bool(folded)
        if not body.count("\n") > 10:
            assert page.max_scroll_y == 0  # the whole page is on screen
        await pilot.press("p")  # every key, as before
        await settle(pilot)
        assert all(keys_shown(header_of(page), keys))


@pytest.mark.parametrize(
    ("above", "keys", "body", "shown"),
    [
        ("", 40, "x\n" * 60, 17),  # a vault note: half the pane, with a count of the rest
        ("", 30, "One line.\n", 30),  # a short body: the rows it does not need
        ("status: draft\n", 40, "x\n" * 60, 40),  # an OKF concept: whole
    ],
    ids=["note", "short-body", "okf-concept"],
)
async def test_a_tall_pane_gives_a_note_s_properties_half_its_rows(
    tmp_path: Path, above: str, keys: int, body: str, shown: int
) -> None:
    """A vault's notes of 30 properties (a template's `confidence`, `purpose`, `uid`, …)
    filled a 45-row pane to its foot, their text out of sight below it. A note's header
    gets half a tall pane, or the rows its body does not need; an OKF concept's, whose
    provenance and trust are read before its text, every key."""
    app = note_app(tmp_path, above + properties(keys), body)
    async with app.run_test(size=(150, 45)) as pilot:
        await settle(pilot)
        page = app.screen.query_one(PagePane)
        header = header_of(page)
        assert keys_shown(header, keys) == [n < shown for n in range(keys)]
        assert page.header_folded is (shown < keys)
        if shown < keys:
            assert f"… {keys - shown} more properties · p shows them" in header
            assert header.count("\n") + 1 <= (page.size.height - 1) // 2
            await pilot.press("p")
            await settle(pilot)
            assert all(keys_shown(header_of(page), keys))


async def test_150x45_keeps_the_panes_side_by_side(sample_brain: Path) -> None:
    app = app_for(sample_brain)
    async with app.run_test(size=(150, 45)) as pilot:
        await settle(pilot)
        page = app.screen.query_one(PagePane)
        links = app.screen.query_one(LinkTree)
        assert app.screen.has_class("-wide") and not app.screen.has_class("-narrow")
        assert links.region.x >= page.region.right
        assert "owner" in str(page.query_one("#page-header").render())  # not folded


@pytest.mark.parametrize("size", [(80, 24), (150, 45)])
async def test_z_zooms_the_focused_pane_and_tab_zooms_the_next(
    sample_brain: Path, size: tuple[int, int]
) -> None:
    app = app_for(sample_brain)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        page = screen.query_one(PagePane)
        await pilot.press("z")
        await settle(pilot)
        assert screen.zoomed is page
        assert page.region.width == size[0]
        await pilot.press("tab")  # on to the link tree, still zoomed
        await settle(pilot)
        assert screen.zoomed is screen.query_one(LinkTree)
        await pilot.press("tab")  # the traversal table: its whole panel is zoomed
        await settle(pilot)
        assert screen.zoomed is screen.query_one(TraversalPanel)
        await pilot.press("z")
        await settle(pilot)
        assert screen.zoomed is None


@pytest.mark.parametrize("size", [(80, 24), (150, 45), (50, 20)])
async def test_help_and_quit_stay_in_the_footer(sample_brain: Path, size: tuple[int, int]) -> None:
    app = app_for(sample_brain)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        shown = visible_footer_keys(app)
        assert {"question_mark", "q"} <= shown
        assert "ctrl+p" not in shown  # no "palette": `/ Find` is the finder


async def test_help_scrolls_down_to_the_last_key_at_80x24(sample_brain: Path) -> None:
    app = app_for(sample_brain)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpDialog)
        box = app.screen.query_one("#help-box")
        assert box.max_scroll_y > 0  # the keys do not fit: the box scrolls
        await pilot.press("end")
        await pilot.wait_for_scheduled_animations()
        await settle(pilot, lambda: box.scroll_y == box.max_scroll_y)  # the animation ended
        assert box.scroll_y == box.max_scroll_y
        hint = app.screen.query_one("#help-hint")
        assert hint.region.bottom <= box.region.bottom  # the last lines are on screen


@pytest.mark.parametrize("size", [(80, 24), (120, 30), (150, 45)])
async def test_the_footer_drops_whole_keys_never_cuts_one(
    sample_brain: Path, size: tuple[int, int]
) -> None:
    """A key that does not fit before `? Help  q Quit` is left out whole (it was drawn
    cut: `o O`, `^x Cancel ind`); the keys that show are the first ones."""
    app = app_for(sample_brain, start="index")  # a long page: `m` and `o` apply too
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(PinnedFooter)
        await settle(pilot)
        line = footer_line(app)
        keys = [key for key in footer.keys if not key.pinned]
        placed = footer.placed()
        shown = [key for _, key in placed if not key.pinned]
        assert shown, "some keys show"
        pinned_at = min(x for x, key in placed if key.pinned)
        for x, key in placed:  # each drawn whole where the footer says
            shown_key, description, _ = key.parts(footer.compact)
            assert line[x:].startswith(shown_key + description), key.key
            assert key.pinned or x + key.width(footer.compact) <= pinned_at, key.key
        assert "Help" in line[pinned_at:] and "Quit" in line[pinned_at:]
        drawn_to = max(x + key.width(footer.compact) for x, key in placed if not key.pinned)
        assert line[drawn_to:pinned_at].strip() == ""  # nothing of a key left out shows
        assert shown == keys[: len(shown)]  # the first ones, none skipped


@pytest.mark.parametrize("size", [(80, 24), (64, 20)])
async def test_every_dialog_fits_a_narrow_terminal(
    sample_brain: Path, size: tuple[int, int]
) -> None:
    """At 80 columns the links dialog (`l`, 90 wide) ran off the right edge: its border
    and the end of every line were cut."""
    app = app_for(sample_brain)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        main = app.screen
        for key in ("l", "s", "o", "T", "F", "question_mark"):
            await pilot.press(key)
            await settle(pilot, until=lambda: app.screen is not main)
            box = app.screen.children[0]
            assert box.region.x >= 0 and box.region.right <= size[0], (key, box.region)
            await pilot.press("escape")
            await settle(pilot, until=lambda: app.screen is main)


@pytest.mark.parametrize("size", [(80, 24), (150, 45)])
async def test_the_index_state_stays_on_the_status_line_beside_a_long_source_name(
    sample_brain: Path, size: tuple[int, int]
) -> None:
    """At 80 columns a long source name (`russiankendricklamar+LLM-Wiki`) and the start
    rule pushed the index state off the status line, and while indexing the 30-column bar
    left `indexi…` of the count: the name is cut first, and under 100 columns the count
    shows without the bar."""
    long_name = "russiankendricklamar+LLM-Wiki-of-many-words"
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False, source_label=long_name)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        status = app.screen.query_one(StatusBar)
        state = status.query_one("#status-index")
        assert state.region.right <= size[0] and state.region.width >= len(status.index_state)
        status.set_indexing(3000, 35187)
        await settle(pilot)
        bar = status.query_one(ProgressBar)
        assert bar.display == (size[0] >= 100)
        shown = bar.region.right if bar.display else state.region.right
        assert shown <= size[0] and state.region.width >= len("indexing 3000/35187")
