"""Widgets removed let go of what they drew first (`tui/drawn_lines.py`): Textual keeps
the styles caches of removed widgets (textual#6665), so a long session of pages shown
and dialogs closed would keep every line they drew."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.strip import Strip

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SIZE, brain_for, settle


def strips_alive() -> int:
    gc.collect()
    return sum(1 for thing in gc.get_objects() if type(thing) is Strip)


async def open_and_close_the_finder(pilot: Pilot[None]) -> None:
    await pilot.press("slash")
    await settle(pilot)
    await pilot.press("escape")
    await settle(pilot)


async def test_a_closed_finder_lets_go_of_what_it_drew(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(2):  # what a first opening keeps for good (the finder's list)
            await open_and_close_the_finder(pilot)
        before = strips_alive()
        for _ in range(6):
            await open_and_close_the_finder(pilot)
        after = strips_alive()
    # Without `let_go_of_lines`: 53 lines more an opening here (318); with it, 0-12.
    assert after - before < 60


@pytest.mark.slow  # 2-3 s: ten pages drawn
async def test_pages_shown_one_after_another_let_go_of_what_they_drew(
    small_bundle: Path,
) -> None:
    paragraphs = "\n\n".join(f"Paragraph {n} of a long page, see [[alpha]]." for n in range(30))
    (small_bundle / "long.md").write_text(f"# Long\n\n{paragraphs}\n", encoding="utf-8")
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)

        async def show(slug: str) -> None:
            app.screen.open_page(slug)  # type: ignore[attr-defined]
            await settle(pilot, lambda: pane.shown is not None and pane.shown.slug == slug)
            await settle(pilot)

        for slug in ("long", "beta"):
            await show(slug)
        before = strips_alive()
        for slug in ("long", "beta") * 10:
            await show(slug)
        after = strips_alive()
    # Without `let_go_of_lines` and the hiding before it: about 100 lines more each time
    # the long page is shown (1,074 for ten); with them, 10-280 (what is drawn then).
    assert after - before < 600
