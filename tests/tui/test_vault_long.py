"""Long pages are drawn as short ones are: code highlighted, a table's columns fitted to
the pane as Textual's table fits them; a code block wider than the pane scrolls
sideways instead of being cut (as Textual's fence does); headings and block ids are
anchors there too."""

from __future__ import annotations

from pathlib import Path

from textual.containers import ScrollableContainer

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import VaultBody, prepare_body
from okf_explorer.tui.widgets.page import pane as page_pane
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import brain_for, settle
from .vault_fixture import handbook, write_vault

SIZE = (120, 40)


def parts_shown(monkeypatch) -> list[tuple[int, bool]]:  # type: ignore[no-untyped-def]
    """Each part of a body the page pane takes note of, as (its end, final), from now on."""
    parts: list[tuple[int, bool]] = []
    shown_part = PagePane._shown_part

    def logged(self: PagePane, body, final: bool = True) -> None:  # type: ignore[no-untyped-def]
        parts.append((body.end, final))
        shown_part(self, body, final)

    monkeypatch.setattr(PagePane, "_shown_part", logged)
    return parts


def explorer_on(tmp_path: Path, name: str, text: str, start: str | None = None):  # type: ignore[no-untyped-def]
    """The explorer on the handbook vault with page `name` holding `text`, at `start`
    (`name` if None)."""
    root = write_vault(tmp_path / "v")
    (root / f"{name}.md").write_text(text, encoding="utf-8")
    return make_app(brain_for(BundleSource(root)), start=start or name)


def test_a_long_page_fits_tables_and_highlights_code() -> None:
    body = prepare_body(handbook(), width=60)
    assert body.pieces is not None
    (wide,) = [piece for piece in body.pieces if piece.wide]  # the code: wider than 60
    (fence,) = wide.blocks
    code = [line.plain for line in fence.lines]  # type: ignore[union-attr]
    assert "x" * 150 in code[0]  # not cut
    styles = {span.style for line in fence.lines for span in line.spans}  # type: ignore[union-attr]
    assert len(styles) >= 3  # highlighted: several styles
    rows = [row.content.plain for p in body.pieces if p.drawing for row in p.drawing.rows]
    frame = [row for row in rows if row.startswith(("┌", "│", "├", "└"))]
    assert frame and all(len(row) == 60 for row in frame)  # the table fits the body
    assert frame[0].count("┬") == 5  # six columns, a word too long for one folded
    assert "│ descri │" in frame[5] and "│ ption  │" in frame[6]
    text = "\n".join(rows)
    assert "★ Start here" in text and "Read the checklist first.[1]" in text
    assert "1. Because order matters." in text and "^anchor-line" not in text
    assert [title for _, title in body.headings] == ["Handbook", "Checklist", "Wide things", "Last"]


async def test_a_long_page_scrolls_wide_blocks_sideways_and_to_anchors(tmp_path: Path) -> None:
    app = make_app(brain_for(BundleSource(write_vault(tmp_path / "v"))), start="Handbook")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        assert pane.drawn and pane.headings[-1] == (2, "Last")
        body = pane.query_one(VaultBody)
        (box,) = [child for child in body.children if isinstance(child, ScrollableContainer)]
        assert box.max_scroll_x > 0 and box.size.width <= pane.size.width  # scrolls, not cut
        assert pane.scroll_to_anchor("Wide things")
        # The pane re-aims the scroll for SCROLL_SETTLE while blocks reach their height.
        await settle(pilot, lambda: box.region.y - pane.region.y < 20)
        top = pane.scroll_y
        assert top > 100 and box.region.y - pane.region.y < 20  # the table and code in view
        assert pane.scroll_to_anchor("^anchor-line")
        await settle(pilot)
        assert pane.scroll_y > top
        assert not pane.scroll_to_anchor("^missing")


async def test_a_huge_page_draws_a_first_screen_then_the_rest_of_its_part(
    tmp_path: Path, monkeypatch
) -> None:
    parts = parts_shown(monkeypatch)
    text = "".join(f"## Part {n}\n\nParagraph {n} of a very long page.\n\n" for n in range(9000))
    app = explorer_on(tmp_path, "Huge", text)
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: len(parts) >= 2)
        await settle(pilot)
        (first, first_final), (second, second_final) = parts
        assert first <= page_pane.FIRST_SCREEN_CHARS and not first_final  # no "more" line yet
        assert page_pane.RENDER_CHARS // 2 < second <= page_pane.RENDER_CHARS and second_final
        assert pane.end == second and pane.has_class("truncated")
        assert len(pane.headings) == text[:second].count("## Part")
        assert pane.scroll_to_anchor("Part 3000")


async def test_a_link_to_a_heading_past_a_long_page_s_first_screen_lands_on_it(
    tmp_path: Path, monkeypatch
) -> None:
    """`[[Long#The End]]` into a page longer than `LONG_CHARS`: its first screen was
    drawn alone, the heading was not among its headings yet, and the page opened at its
    top. A heading asked for draws the whole first part at once."""
    monkeypatch.setattr(page_pane, "LONG_CHARS", 2_000)
    monkeypatch.setattr(page_pane, "FIRST_SCREEN_CHARS", 1_000)
    filler = "".join(f"Paragraph {n} says nothing in particular.\n\n" for n in range(150))
    root = write_vault(tmp_path / "v")
    (root / "Long.md").write_text(f"# Long\n\n{filler}## The End\n\nLast words.\n", "utf-8")
    (root / "Links here.md").write_text("# Links here\n\nGo to [[Long#The End]].\n", "utf-8")
    app = make_app(brain_for(BundleSource(root)), start="Links here")
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None)
        await pilot.press("n", "enter")
        await settle(pilot, until=lambda: pane.slug == "Long" and pane.scroll_y > 0)
        assert pane.headings[-1] == (2, "The End") and pane.scroll_y == pane.max_scroll_y


async def test_a_page_of_20_kb_shows_a_first_screen_drawn_for_the_pane_then_the_rest(
    tmp_path: Path, monkeypatch
) -> None:
    """Over `LONG_CHARS` (16 KB), a page's first screen is drawn from about what the pane
    shows (`first_screen_chars`), not all of it (a 33 KB page took 240-300 ms to show)."""
    parts = parts_shown(monkeypatch)
    text = "".join(f"## Part {n}\n\nParagraph {n} of a page.\n\n" for n in range(450))
    assert 16_000 < len(text) < 50_000
    app = explorer_on(tmp_path, "Twenty", text)
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: len(parts) >= 2)
        (first, _), (second, final) = parts
        assert first <= page_pane.first_screen_chars(pane.size.width, pane.size.height) < len(text)
        assert second == len(text) and final and pane.end == len(text)
        assert pane.scroll_to_anchor("Part 399")


def test_a_first_screen_is_drawn_from_three_characters_a_cell_within_bounds() -> None:
    assert page_pane.first_screen_chars(70, 40) == 70 * 40 * 3
    assert page_pane.first_screen_chars(20, 10) == page_pane.FIRST_SCREEN_LEAST
    assert page_pane.first_screen_chars(300, 90) == page_pane.FIRST_SCREEN_CHARS
    assert page_pane.first_screen_chars(0, 0) == page_pane.FIRST_SCREEN_CHARS  # not laid out


async def test_end_pressed_on_a_first_screen_goes_on_to_the_end_once_filled(
    tmp_path: Path,
) -> None:
    """`end` at once after a long page opens took the view to its first screen's end,
    and the rest came below it; it now goes on to the page's end, unless moved since."""
    text = "".join(f"## Part {n}\n\nParagraph {n} of a page.\n\n" for n in range(450))
    root = write_vault(tmp_path / "v")
    (root / "Twenty.md").write_text(text, encoding="utf-8")
    (root / "Start.md").write_text("# Start\n\nA short page.\n", encoding="utf-8")
    app = make_app(brain_for(BundleSource(root)), start="Start")
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None)
        app.screen.open_page("Twenty")  # type: ignore[attr-defined]
        await settle(pilot, until=lambda: pane.slug == "Twenty" and pane.shown is not None)
        assert pane.filling
        pane.focus()
        await pilot.press("end")
        await settle(pilot, until=lambda: not pane.filling and pane.end == len(text))
        await settle(pilot, until=lambda: pane.scroll_y == pane.max_scroll_y)
        assert pane.scroll_y == pane.max_scroll_y > 0
