"""A page opened is painted once, with its body: never the new page's header over the
old page's body (`tui.paint_hold`); and the screen it ends on is the same, held or not."""

from __future__ import annotations

import ast
import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.screen import Screen

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui import paint_hold
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import VaultBody
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SIZE, brain_for, settle, write_bundle
from .test_one_look import cells

PAGES = {
    "home.md": "# Home\n\nThe [[second]] page, and more.\n\n" + "Home text.\n\n" * 12,
    "second.md": "---\ntitle: Second\n---\nSecond body, " + "words of the second page " * 40,
}


def header_and_body(pane: PagePane) -> tuple[str, str]:
    """The first word of the header and of the body on screen."""
    header = str(pane.query_one("#page-header").content).split()[0]
    lines = [line for _, drawing in pane.query_one(VaultBody).drawings() for line in drawing.lines]
    words = " ".join(lines).split()
    return header, words[0] if words else ""


async def test_the_new_header_is_never_painted_over_the_old_body(tmp_path: Path) -> None:
    root = write_bundle(tmp_path / "b", PAGES)
    app = make_app(brain_for(BundleSource(root)), start="home")
    seen: list[tuple[str, str]] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        app.screen.screen_layout_refresh_signal.subscribe(
            app.screen, lambda _: seen.append(header_and_body(pane))
        )
        await pilot.press("n", "enter")
        await settle(pilot)
    assert ("Second", "Second") in seen  # the page was painted, header and body
    assert ("Second", "Home") not in seen  # and never half of it


async def test_the_screen_after_an_open_is_the_same_held_or_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_bundle(tmp_path / "b", PAGES)
    screens = []
    for hold in (paint_hold.PAINT_HOLD, 0.0):
        monkeypatch.setattr(paint_hold, "PAINT_HOLD", hold)
        app = make_app(brain_for(BundleSource(root)), start="home", source_label="b")
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("n", "enter")
            await settle(pilot)
            screens.append(app.export_screenshot())
    assert screens[0] == screens[1]


async def test_the_new_body_is_never_painted_beside_the_old_pages_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The link tree holds the paint too, until the new page's links are in: one paint
    with the body, the links and their suggestions (a hold long enough that only the
    order of the work decides)."""
    monkeypatch.setattr(paint_hold, "PAINT_HOLD", 5.0)
    root = write_bundle(tmp_path / "b", PAGES)
    app = make_app(brain_for(BundleSource(root)), start="home")
    seen: list[tuple[str, str | None]] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane, tree = app.screen.query_one(PagePane), app.screen.query_one(LinkTree)
        app.screen.screen_layout_refresh_signal.subscribe(
            app.screen, lambda _: seen.append((header_and_body(pane)[1], tree.slug))
        )
        await pilot.press("n", "enter")
        await settle(pilot)
    assert ("Second", "second") in seen
    assert ("Second", "home") not in seen


@contextlib.contextmanager
def whole_repaints(screen: Screen) -> Iterator[list[bool]]:
    """While inside: for each `refresh` of a widget of `screen`'s class, whether it asked
    for the whole screen (the screen itself, no region)."""
    repaints: list[bool] = []
    repaint = type(screen).refresh

    def refresh(self, *regions, **options):  # type: ignore[no-untyped-def]
        repaints.append(self is screen and not regions)
        return repaint(self, *regions, **options)

    type(screen).refresh = refresh  # type: ignore[method-assign]
    try:
        yield repaints
    finally:
        type(screen).refresh = repaint  # type: ignore[method-assign]


async def test_the_title_bar_names_each_page_opened_without_repainting_the_screen(
    tmp_path: Path,
) -> None:
    """The title bar says the page's slug. Textual's screen sub-title repainted the whole
    screen at each page opened (every pane drawn again, changed or not: 9.5 % of the
    function calls of `enter` and `backspace` on the sample brain); now only the bar."""
    root = write_bundle(tmp_path / "b", PAGES)
    app = make_app(brain_for(BundleSource(root)), start="home")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        with whole_repaints(app.screen) as repaints:
            app.screen.open_page("second")
            await settle(pilot)
        assert "okf-explorer — second" in screen_row(app.export_screenshot(), 0)
        assert not any(repaints)


async def test_tab_moves_the_focus_border_without_repainting_the_screen(tmp_path: Path) -> None:
    """`tab` moves the focus: the pane left and the pane reached restyle themselves (their
    border's colour). Textual's screen repainted every pane at each focus change as well
    (13 % of the function calls of `tab` / `shift+tab` on the sample brain)."""
    root = write_bundle(tmp_path / "b", PAGES)
    app = make_app(brain_for(BundleSource(root)), start="home")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = cells(app.export_screenshot())
        focused = app.focused
        with whole_repaints(app.screen) as repaints:
            await pilot.press("tab")
            await settle(pilot)
            assert app.focused is not focused
            moved = cells(app.export_screenshot())
            await pilot.press("shift+tab")
            await settle(pilot)
        assert app.focused is focused
        assert moved != before and cells(app.export_screenshot()) == before
        assert not any(repaints)


CELL = re.compile(r"""(\d+) (\d+) ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")


def screen_row(svg: str, row: int) -> str:
    """The text of one row of an SVG screenshot (`test_one_look.cells`)."""
    found = {}
    for line in cells(svg):
        cell = CELL.match(line)
        if cell is not None and int(cell[1]) == row:
            found[int(cell[2])] = ast.literal_eval(cell[3])
    return "".join(found.get(column, " ") for column in range(max(found, default=-1) + 1))
