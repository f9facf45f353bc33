"""A long page drawn a visible row at a time (`VaultBody`'s pieces): a selection reads
its text as written, its links stay live at the end of the page, anchors land in
the middle, the outline scrolls there, and a resize redraws it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import OptionList

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.links import LinksDialog
from okf_explorer.tui.dialogs.outline import OutlineDialog
from okf_explorer.tui.markdown import PreparedBodies, PreparedBody, VaultBody, prepare_body
from okf_explorer.tui.markdown.prepare import KEPT_BODIES, KEPT_CHARS
from okf_explorer.tui.widgets.page import pane as page_pane
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SMALL_BUNDLE, brain_for, settle, write_bundle

SIZE = (120, 40)
PARAGRAPHS = 700


def long_page() -> str:
    """~80 KB: a heading every 50 paragraphs, each paragraph long enough to wrap in a
    narrow pane, the last one linking [[beta]]."""
    parts = []
    for n in range(PARAGRAPHS):
        if n % 50 == 0:
            parts.append(f"## Part {n // 50}\n\n")
        parts.append(f"Paragraph {n} links [[alpha]] and says something long enough.\n\n")
    return "# Long\n\n" + "".join(parts) + "The very end links [[beta]].\n"


def screen_lines(app: App[None]) -> list[str]:
    """The text on screen, row by row (what the compositor draws)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


class BodyApp(App[None]):
    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield VaultBody()


async def test_a_selection_reads_the_text_as_written_and_shows_on_the_rows() -> None:
    text = "A paragraph " + "that wraps over several rows of a narrow pane " * 3 + "ends."
    app = BodyApp()
    async with app.run_test(size=(40, 20)) as pilot:
        body = app.query_one(VaultBody)
        await pilot.pause()
        markdown = f"# Title\n\n{text}\n"
        await body.show(prepare_body(markdown, width=body.content_region.width).pieces)
        await pilot.pause()
        ((piece, drawing),) = body.drawings()
        line = drawing.lines.index(text)
        rows = [row for row in drawing.rows if row.line == line]
        assert len(rows) >= 4  # wrapped
        assert piece.size.height == len(drawing.rows)  # as high as its rows: nothing measured
        first = drawing.rows.index(rows[0])
        await pilot.mouse_down(piece, offset=(0, first))
        await pilot.hover(piece, offset=(6, first + 2))
        await pilot.mouse_up(piece, offset=(6, first + 2))
        await pilot.pause()
        # the cell under the pointer is in (as in any widget); no break where rows wrap
        assert app.screen.get_selected_text() == text[: rows[2].x + 7]
        shown = piece.render_line(first + 1)  # a row inside the selection: drawn selected
        assert {str(segment.style.bgcolor) for segment in shown if segment.text.strip()} != {
            str(segment.style.bgcolor) for segment in piece.render_line(0) if segment.text.strip()
        }


@pytest.fixture
def long_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> App[None]:
    # A small first screen, the rest of the part filled in the background.
    monkeypatch.setattr(page_pane, "FIRST_SCREEN_CHARS", 8_000)
    pages = dict(SMALL_BUNDLE, **{"long.md": long_page()})
    bundle = write_bundle(tmp_path / "brain", pages)
    return make_app(brain_for(BundleSource(bundle)), start="long")


async def test_the_end_of_a_long_page_is_drawn_and_its_link_opens(long_app: App[None]) -> None:
    app = long_app
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None and not pane.truncated)
        await settle(pilot)
        assert pane.drawn and len(pane.headings) == PARAGRAPHS // 50 + 1
        pane.scroll_end(animate=False)

        def the_end_is_on_screen() -> bool:
            return any("The very end links beta." in line for line in screen_lines(app))

        await settle(pilot, the_end_is_on_screen)
        assert the_end_is_on_screen()
        last, drawing = pane.query_one(VaultBody).drawings()[-1]
        row = next(n for n, line in enumerate(drawing.rows) if "The very end" in line.content.plain)
        await pilot.click(last, offset=(len("The very end links "), row))
        await settle(pilot)
        assert app.screen.history.current.slug == "beta"


async def test_l_follows_the_last_link_of_a_long_page(long_app: App[None]) -> None:
    app = long_app
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None and not pane.truncated)
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LinksDialog)
        options = app.screen.query_one(OptionList)
        assert options.option_count == 2  # alpha (700 times) and beta, once each
        await pilot.press("b", "e", "t", "enter")
        await settle(pilot)
        assert app.screen.history.current.slug == "beta"


async def test_anchors_and_the_outline_land_in_the_middle_and_after_a_resize(
    long_app: App[None],
) -> None:
    app = long_app
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None and not pane.truncated)
        await settle(pilot)

        def at_top(text: str) -> bool:
            """Whether `text` is the pane's top line of text."""
            box = pane.content_region
            return screen_lines(app)[box.y][box.x : box.right].strip() == text

        assert pane.scroll_to_anchor("Part 7")
        await settle(pilot, until=lambda: at_top("Part 7"))
        middle = pane.scroll_y
        assert 0 < middle < pane.max_scroll_y
        await pilot.resize_terminal(80, 40)  # narrower: paragraphs wrap to two lines
        body = pane.query_one(VaultBody)

        def redrawn() -> bool:
            width = body.content_region.width
            return all(piece.width == width for piece in body.pieces if piece.drawing)

        await settle(pilot, until=redrawn)
        await settle(pilot)
        widths = [row.content.cell_length for _, d in body.drawings() for row in d.rows]
        assert max(widths) <= body.content_region.width  # wrapped, never cut
        assert pane.max_scroll_y > middle  # longer now
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, OutlineDialog)
        await pilot.press("down", "down", "down", "enter")  # Long, Part 0, Part 1, Part 2
        await settle(pilot)
        await settle(pilot, until=lambda: at_top("Part 2"))
        assert pane.scroll_to_anchor("Part 13")
        await settle(pilot, until=lambda: at_top("Part 13"))


def test_the_bodies_kept_to_show_again_are_bounded_in_number_and_in_text() -> None:
    """`PreparedBodies` holds at most `KEPT_BODIES` bodies and `KEPT_CHARS` of text (a
    drawn 200 KB part is ~8 MB): the oldest go first, a body bigger than all is not kept."""
    kept = PreparedBodies()

    def body(chars: int) -> PreparedBody:
        return PreparedBody("x" * chars, chars, chars, pieces=())

    for n in range(KEPT_BODIES + 2):
        kept.keep(n, body(10))
    assert [n for n in range(KEPT_BODIES + 2) if kept.get(n) is not None] == list(
        range(2, KEPT_BODIES + 2)
    )
    kept.get(2)  # used: the next to go is 3
    kept.keep("big", body(KEPT_CHARS - 15))
    assert kept.get("big") is not None and kept.get(2) is not None and kept.get(3) is None
    kept.keep("too big", body(KEPT_CHARS + 1))
    assert kept.get("too big") is None and kept.get("big") is not None
