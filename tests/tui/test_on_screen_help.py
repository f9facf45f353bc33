"""Issue 11 points 6 and 8: what the marks mean (pane subtitles, the `?` legend), keys
that do nothing say why, and the small things (two quick tabs, the footer keeping
`l` after a page opens, the status line naming the folder). At 80×24 and 150×45."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Label, Static

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.help import HelpDialog
from okf_explorer.tui.dialogs.links import LinksDialog
from okf_explorer.tui.marks import LINKS_LEGEND, RESERVED_LEGEND, SLICE_LEGEND
from okf_explorer.tui.widgets.footer import PinnedFooter
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_pages

from .conftest import brain_for, press_at_once, settle

SIZES = [(80, 24), (150, 45)]
IDS = ["80x24", "150x45"]
PAGES = {
    "index": "---\nokf_version: '0.2'\ntitle: Home\n---\nSee [[alpha]] and [the web](https://example.com/x).\n",
    "alpha": "---\ntitle: Alpha\n---\nBack to [[index]], on to [[beta]].\n",
    "beta": "Beta links [[alpha]].\n",
}


def notes(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [notification.message for notification in app._notifications]


def footer_line(app) -> str:  # type: ignore[no-untyped-def]
    return app.screen._compositor.render_strips()[-1].text


async def started(pilot, app) -> TraversalPanel:  # type: ignore[no-untyped-def]
    panel = app.screen.query_one(TraversalPanel)
    await settle(pilot, lambda: app.screen.loader.ready and panel.filled)
    await settle(pilot)
    return panel


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_each_pane_says_what_its_marks_mean(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", PAGES))))
    async with app.run_test(size=size) as pilot:
        panel = await started(pilot, app)
        assert panel.border_subtitle == SLICE_LEGEND
        assert app.screen.query_one(LinkTree).border_subtitle == LINKS_LEGEND
        assert app.screen.query_one(PagePane).border_subtitle == RESERVED_LEGEND  # `index`
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpDialog)
        legend = str(app.screen.query_one("#help-legend", Static).content)
        marks = [line.split("  ")[0] for line in legend.splitlines()]
        assert {"→10 ←8", "(reserved)", "in", "neighbourhood", "backlinks"} <= set(marks)
        box = app.screen.query_one("#help-box")
        if size == (80, 24):  # it does not fit: down scrolls it
            await pilot.press("down", "down", "down")
            assert box.scroll_y > 0


async def test_a_vaults_index_page_is_not_reserved(tmp_path: Path) -> None:
    """A Foam/Obsidian `index.md` is a page its author wrote, not an OKF listing."""
    vault = {"index": "# What is a garden?\n\nStart at [[alpha]].\n", "alpha": "# Alpha\n"}
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "v", vault))))
    async with app.run_test(size=SIZES[1]) as pilot:
        await started(pilot, app)
        header = str(app.screen.query_one("#page-header").content)
        assert "What is a garden?" in header and "(reserved)" not in header
        assert app.screen.query_one(PagePane).border_subtitle == ""


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_keys_that_do_nothing_say_why(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", PAGES))))
    async with app.run_test(size=size) as pilot:
        await started(pilot, app)
        await pilot.press("minus", "m")
        assert "already at depth 1" in notes(app) and "the whole page is shown" in notes(app)
        await pilot.press("r")
        await settle(pilot, lambda: "nothing changed since the last index" in notes(app))
        await pilot.press("l")
        await settle(pilot, lambda: isinstance(app.screen, LinksDialog))
        await pilot.press(*"web", "enter")
        await settle(pilot)
        assert any("https://example.com/x is not a page" in note for note in notes(app))


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_two_quick_tabs_move_two_panes(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", PAGES))))
    async with app.run_test(size=size) as pilot:
        await started(pilot, app)
        app.screen.query_one(PagePane).focus()
        await pilot.pause()
        await press_at_once(pilot, "tab", "\t", 2)
        assert app.screen.focused is not None and app.screen.focused.id == "traversal-table"


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_footer_keeps_l_after_a_page_opens_from_the_link_tree(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", PAGES))))
    async with app.run_test(size=size) as pilot:
        await started(pilot, app)
        assert "l Links" in footer_line(app)
        await pilot.press("plus")  # `- Depth-` applies now
        app.screen.query_one(LinkTree).focus()
        await pilot.press("down", "enter")  # alpha: now `Back` applies too
        await settle(pilot, lambda: app.screen.query_one(PagePane).slug == "alpha")
        await started(pilot, app)
        await pilot.press("down")  # a page node under the cursor: `enter` applies
        await settle(pilot)
        assert "Back" in footer_line(app) and "l Links" in footer_line(app)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_a_click_on_a_footer_key_presses_it(tmp_path: Path, size: tuple[int, int]) -> None:
    """The footer is one line of text, not a widget per key: a click on `l Links`
    (wherever it is drawn at this width) opens the links, a click between the keys
    and the pinned ones does nothing, a click on `? Help` opens the help."""
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", PAGES))))
    async with app.run_test(size=size) as pilot:
        await started(pilot, app)
        footer = app.screen.query_one(PinnedFooter)
        line = footer_line(app)
        links = line.index("l Links")
        gap = line.rstrip().rindex("?") - 2
        assert line[gap] == " " and footer.key_at(gap) is None
        await pilot.click(PinnedFooter, offset=(gap, 0))
        await settle(pilot)
        assert app.screen.query_one(PinnedFooter) is footer  # nothing opened
        await pilot.hover(PinnedFooter, offset=(links + 3, 0))
        await settle(pilot)
        assert footer.hovered is not None and footer.hovered.key == "l"  # lit
        lit = [
            seg.style for seg in app.screen._compositor.render_strips()[-1] if "Links" in seg.text
        ]
        assert lit and lit[0] is not None and lit[0].bgcolor != footer.rich_style.bgcolor
        await pilot.click(PinnedFooter, offset=(links + 3, 0))
        await settle(pilot)
        assert isinstance(app.screen, LinksDialog)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.click(PinnedFooter, offset=(line.rindex("Help"), 0))
        await settle(pilot)
        assert isinstance(app.screen, HelpDialog)


async def test_the_status_line_names_the_folder_not_the_path_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundle = write_pages(tmp_path / "my-brain", {**PAGES, "sub/page": "x"})
    monkeypatch.chdir(bundle / "sub")
    app = make_app(brain_for(BundleSource("..")))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        source = app.screen.query_one("#status-source", Label)
        assert str(source.content) == "my-brain"
        assert str(source.tooltip) == str(bundle.resolve())


async def test_the_help_is_as_wide_as_its_lines_where_the_screen_allows(tmp_path: Path) -> None:
    """At 150 columns no key, action or mark line of `?` is cut (it was 70 columns)."""
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", PAGES))))
    async with app.run_test(size=(150, 45)) as pilot:
        await started(pilot, app)
        await pilot.press("question_mark")
        await settle(pilot)
        for static in app.screen.query("#help-box Static"):
            longest = max(len(line) for line in str(static.content).splitlines())
            assert longest <= static.content_size.width
        assert app.screen.query_one("#help-box").outer_size.width < 150  # still a dialog


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_a_long_from_leaves_the_status_line_its_end(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """`M` on a page with a long slug: the status line still says the index state."""
    long = "references/" + "manage-model-lifecycle-using-the-workspace-model-registry-" * 2
    pages = dict(PAGES, **{long: "Back to [[index]].\n"})
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", pages))), start=long)
    async with app.run_test(size=size) as pilot:
        await started(pilot, app)
        await pilot.press("M")
        await settle(pilot)
        status = app.screen.query_one("#status")
        line = app.screen._compositor.render_strips()[status.region.y].text
        assert "from: " in line
        assert "indexed" in line


async def test_the_help_wraps_an_action_under_itself_at_80_columns(tmp_path: Path) -> None:
    """At 80×24 a long action or mark wraps, its rows under the action's column; before,
    the help's tables cut them (`(enter follows or folds` lost its end)."""
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", PAGES))))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        await pilot.press("question_mark")
        await settle(pilot)
        keys = app.screen.query_one("#help-keys", Static)
        box = app.screen.query_one("#help-box")
        assert keys.region.right <= box.region.right  # the keys fit in the box
        drawn = [strip.text.rstrip() for strip in keys.render_lines(keys.region.reset_offset)]
        follows = next(at for at, line in enumerate(drawn) if "Next link, callout" in line)
        column = drawn[follows].index("Next link")
        tail = drawn[follows + 1]  # the rest of the action, in the action's column
        assert tail.strip() and len(tail) - len(tail.lstrip()) == column
        assert "folds)" in " ".join(drawn[follows : follows + 3])
