"""Huge pages render a part at a time without freezing; body links work by keyboard."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.links import LinksDialog
from okf_explorer.tui.markdown import VaultBody, prepare_body
from okf_explorer.tui.widgets.footer import PinnedFooter
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page import pane as page_pane
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SIZE, SMALL_BUNDLE, brain_for, press_at_once, settle, write_bundle


def huge_page(paragraphs: int) -> str:
    """About 110 characters a paragraph, each with a wiki-link."""
    return "# Huge\n\n" + "".join(
        f"Paragraph {n} links [[alpha]] and says something long enough to matter here.\n\n"
        for n in range(paragraphs)
    )


PART = 20_000
"""Characters drawn per part in these tests: a tenth of `RENDER_CHARS`, so a page of
ten parts is 200 KB, not 2 MB (same code paths, a tenth of the time)."""


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(page_pane, "RENDER_CHARS", PART)
    return PART


async def test_a_huge_page_shows_its_first_part_and_keys_keep_working(
    tmp_path: Path, small_parts: int
) -> None:
    pages = dict(SMALL_BUNDLE, **{"huge.md": huge_page(2_700)})  # ~11 parts
    bundle = write_bundle(tmp_path / "brain", pages)
    total = len((bundle / "huge.md").read_text(encoding="utf-8"))
    app = make_app(brain_for(BundleSource(bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        screen.open_page("huge")
        pane = screen.query_one(PagePane)
        await settle(pilot, until=lambda: screen.history.current.slug == "huge")
        await pilot.press("plus")  # handled while the huge body is prepared
        assert str(screen.query_one(TraversalPanel).border_title) == "huge · depth 2 · out"
        await settle(pilot, until=lambda: pane.shown is not None and pane.shown.slug == "huge")
        await settle(pilot)
        assert pane.drawn and pane.truncated and small_parts // 2 < pane.end <= small_parts
        more = str(pane.query_one("#page-more", Static).content)
        assert (
            more
            == f"⚠ showing the first 20 KB of {round(total / 1000)} KB · m shows the next 20 KB"
        )
        chunks = len(pane.query_one(VaultBody).children)
        assert screen.check_action("more_of_page", ())
        await pilot.press("m")
        await settle(pilot)
        assert small_parts < pane.end <= 2 * small_parts < total
        assert len(pane.query_one(VaultBody).children) > chunks
        assert "showing the first 40 KB" in str(pane.query_one("#page-more", Static).content)
        await pilot.press("minus")  # keys still work after it grew
        assert str(screen.query_one(TraversalPanel).border_title) == "huge · depth 1 · out"
        await pilot.press("backspace")
        await settle(pilot)
        assert pane.shown.slug == "index" and not pane.truncated and pane.drawn


async def test_m_presses_made_while_a_part_is_drawn_are_not_dropped(
    tmp_path: Path, small_parts: int
) -> None:
    pages = dict(SMALL_BUNDLE, **{"huge.md": huge_page(1_200)})  # ~5 parts
    bundle = write_bundle(tmp_path / "brain", pages)
    app = make_app(brain_for(BundleSource(bundle)), start="huge")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        pane = screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None and pane.shown.slug == "huge")
        await settle(pilot)
        await press_at_once(pilot, "m", "m", 3)  # three presses before any part is drawn
        await settle(pilot, until=lambda: pane.end > 3 * small_parts)
        await settle(pilot)
        assert pane.more_wanted == 0
        assert 3 * small_parts < pane.end <= 4 * small_parts
        assert "showing the first 80 KB" in str(pane.query_one("#page-more", Static).content)


def test_each_part_of_a_huge_body_ends_at_a_paragraph_break() -> None:
    text = huge_page(5_000)
    first = prepare_body(text, 0, 50_000)
    second = prepare_body(text, first.end, 50_000)
    assert text[first.end - 2 : first.end] == "\n\n" and first.truncated
    assert first.pieces and second.pieces and second.pieces[0].drawing is not None
    assert second.pieces[0].drawing.rows[0].content.plain.startswith("Paragraph ")
    assert len(first.links) + len(second.links) == text[: second.end].count("[[alpha]]")


async def test_l_lists_the_body_links_and_enter_follows_one(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, LinksDialog)
        rows = [str(dialog.query_one(OptionList).get_option_at_index(i).prompt) for i in range(2)]
        assert rows == ["beta → beta", "ghost → ✗ missing"]
        await pilot.press("down", "enter")  # the dangling one: says so, stays
        await settle(pilot)
        assert app.screen.history.current.slug == "alpha"
        assert any("no such page: ghost" in n.message for n in app._notifications)
        await pilot.press("l")
        await settle(pilot)
        await pilot.press("b", "e", "t")  # type to filter
        assert app.screen.query_one(Input).value == "bet"
        assert app.screen.query_one(OptionList).option_count == 1
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.history.current.slug == "beta"
        assert app.screen.query_one(PagePane).page.slug == "beta"
        await pilot.press("l")
        await settle(pilot)
        rows = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert rows == ["the alpha  alpha → alpha"]
        await pilot.press("escape")
        assert app.screen.history.current.slug == "beta"


async def test_l_on_a_page_with_a_markdown_link(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        rows = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert rows == ["alpha → alpha", "Beta  beta.md → beta"]
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.screen.query_one(PagePane).page.slug == "beta"


async def test_a_wiki_link_with_spaces_is_followed_by_keyboard(tmp_path: Path) -> None:
    pages = {
        "index.md": "See [[Order Value]].\n",
        "order-value.md": "---\ntitle: Order Value\n---\nx\n",
    }
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", pages))))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        rows = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert rows == ["Order Value → order-value"]
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.query_one(PagePane).page.slug == "order-value"


@pytest.fixture
def filled_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long page (over 10 KB) shows its first 5 KB, then the rest of its first part
    (20 KB) a second later: the real sizes, scaled down, and a delay a test can see."""
    monkeypatch.setattr(page_pane, "LONG_CHARS", 10_000)
    monkeypatch.setattr(page_pane, "FIRST_SCREEN_CHARS", 5_000)
    monkeypatch.setattr(page_pane, "RENDER_CHARS", 20_000)
    monkeypatch.setattr(page_pane, "FILL_DELAY", 1.0)


@pytest.mark.parametrize(("paragraphs", "whole"), [(200, True), (400, False)])
async def test_m_is_offered_only_for_a_page_longer_than_its_first_part(
    tmp_path: Path, filled_parts: None, paragraphs: int, whole: bool
) -> None:
    """While the rest of a long page's first part is on its way, `m` is not offered
    (it would show nothing more); once that part is drawn, `m` is offered only if the
    page goes on (a ~15 KB page is whole then, a ~31 KB page is not)."""
    pages = dict(SMALL_BUNDLE, **{"long.md": huge_page(paragraphs)})
    bundle = write_bundle(tmp_path / "brain", pages)
    app = make_app(brain_for(BundleSource(bundle)), start="index", watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        app.screen.open_page("long")
        await settle(pilot, until=lambda: pane.shown is not None and pane.shown.slug == "long")
        assert pane.filling  # the first screen only
        assert not app.screen.check_action("more_of_page", ())
        await settle(pilot)  # the first part filled in
        assert pane.truncated is not whole
        assert app.screen.check_action("more_of_page", ()) is not whole
        footer = {key.key for key in app.screen.query_one(PinnedFooter).keys}  # or left out
        assert ("m" in footer) is not whole
