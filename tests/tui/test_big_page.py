"""A long page drawn a visible line at a time (`LightBody`'s `_Lines`): it shows what a
`Static` shows, its links stay live at the end of the page, anchors land in the
middle, the outline scrolls there, and a resize re-wraps it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Offset
from textual.selection import Selection
from textual.strip import Strip
from textual.widgets import OptionList, Static

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.links import LinksDialog
from okf_explorer.tui.dialogs.outline import OutlineDialog
from okf_explorer.tui.markdown.fast_body import prepare_body
from okf_explorer.tui.markdown.light_body import LightBody, _Lines
from okf_explorer.tui.widgets.page import pane as page_pane
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SMALL_BUNDLE, brain_for, settle, write_bundle
from .vault_fixture import handbook

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


def clicks(strip: Strip) -> list[str]:
    return [
        style.meta["@click"]
        for _, style, _ in strip
        if style is not None and style._meta and "@click" in style.meta
    ]


class SideBySide(App[None]):
    """The same prose piece as a `Static` and as a `_Lines`, the same width."""

    def __init__(self, body: str, width: int) -> None:
        super().__init__()
        prepared = prepare_body(body, width=width)
        self.pieces = [
            (piece.content, wrapped)
            for piece, wrapped in zip(prepared.chunks, prepared.wrapped, strict=True)
            if wrapped is not None
        ]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            for content, wrapped in self.pieces:
                yield Static(content, classes="static")
                yield _Lines(content, wrapped)


@pytest.mark.parametrize("body", [handbook(), long_page()[:20_000] + "\n"], ids=["vault", "long"])
async def test_lines_draw_what_a_static_draws(body: str) -> None:
    width = 70
    app = SideBySide(body, width)
    async with app.run_test(size=(width, 40)) as pilot:
        await pilot.pause()
        statics, lines = list(app.query(".static").results(Static)), list(app.query(_Lines))
        assert lines and len(statics) == len(lines)
        for static, light in zip(statics, lines, strict=True):
            assert static.size == light.size  # same wrapped height: nothing measured
            for y in range(light.size.height):
                drawn, expected = light.render_line(y), static.render_line(y)
                assert drawn.text.rstrip() == expected.text.rstrip(), y
                assert clicks(drawn) == clicks(expected), y
        selected: list[tuple[str | None, list[list[str]]]] = []
        for widget in (statics[0], lines[0]):  # a mouse selection reads and shows the same
            app.screen.selections = {widget: Selection(Offset(3, 2), Offset(8, 5))}
            await pilot.pause()
            styles = [[str(seg.style) for seg in widget.render_line(y)] for y in range(7)]
            selected.append((app.screen.get_selected_text(), styles))
        assert selected[0] == selected[1] and selected[0][0]


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
        assert pane.light and len(pane.headings) == PARAGRAPHS // 50 + 1
        pane.scroll_end(animate=False)

        def the_end_is_on_screen() -> bool:
            return any("The very end links beta." in line for line in screen_lines(app))

        await settle(pilot, the_end_is_on_screen)
        assert the_end_is_on_screen()
        last = list(pane.query_one(LightBody).query_children(_Lines))[-1]
        row = next(
            n for n, line in enumerate(last.wrapped.lines) if "The very end" in line.content.plain
        )
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
            """Whether `text` is the pane's top line of text (under the body's padding)."""
            box = pane.content_region
            return screen_lines(app)[box.y + 1][box.x : box.right].strip() == text

        assert pane.scroll_to_anchor("Part 7")
        await settle(pilot, until=lambda: at_top("Part 7"))
        middle = pane.scroll_y
        assert 0 < middle < pane.max_scroll_y
        await pilot.resize_terminal(80, 40)  # narrower: paragraphs wrap to two lines
        light = pane.query_one(LightBody)
        pieces = list(light.query_children(_Lines))
        await settle(pilot, until=lambda: all(p.wrapped.width == light.size.width for p in pieces))
        await settle(pilot)
        widths = [line.content.cell_length for p in pieces for line in p.wrapped.lines]
        assert max(widths) <= light.size.width  # wrapped, never cut
        assert pane.max_scroll_y > middle  # longer now
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, OutlineDialog)
        await pilot.press("down", "down", "down", "enter")  # Long, Part 0, Part 1, Part 2
        await settle(pilot)
        await settle(pilot, until=lambda: at_top("Part 2"))
        assert pane.scroll_to_anchor("Part 13")
        await settle(pilot, until=lambda: at_top("Part 13"))
