"""Wrapped lines keep their shape: a page's quotes and list items
(seen in tmux on the Obsidian help vault and the Foam docs: a callout's second line lost
its bar, a list item's second line started under the bullet) and the page header's
sources (seen on the OKF reference bundles at 80×24: a source's resource wrapped to the
margin)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import HangingContent, VaultBody, prepare_body
from okf_explorer.tui.markdown import body as body_module
from okf_explorer.tui.markdown.body import DrawnRows
from okf_explorer.tui.markdown.draw import Drawing, blocks_of, draw
from okf_explorer.tui.markdown.parser import parse
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SMALL_BUNDLE, brain_for, settle, write_bundle

WORDS = "every word of this sentence wraps around the edge of a narrow pane " * 2
SHAPES = f"""> [!tip]- A tip
> {WORDS}

- {WORDS}
  1. {WORDS}

{WORDS}
"""


def wrapped_lines(markdown: str, width: int) -> list[str]:
    """The rows of `markdown` drawn `width` wide, its callouts open."""
    drawing = draw(blocks_of(parse(markdown)), width, folded=())
    return [row.content.plain.rstrip() for row in drawing.rows]


def test_wrapped_quote_and_list_lines_hang_under_their_text() -> None:
    lines = wrapped_lines(SHAPES, 40)[1:]  # under the quote's margin
    quote = lines[: lines.index("")]
    assert len(quote) > 2 and all(line.startswith("▌ ") for line in quote)
    item = lines.index(next(line for line in lines if line.startswith("• ")))
    assert lines[item + 1].startswith("  ") and lines[item + 1][2] != " "
    nested = lines.index(next(line for line in lines if line.startswith("   1. ")))
    assert lines[nested + 1].startswith("      ") and lines[nested + 1][6] != " "
    prose = lines[lines.index(next(line for line in lines if line.startswith("every"))) + 1]
    assert not prose.startswith(" ")  # a plain paragraph wraps to the margin
    assert all(len(line) <= 40 for line in lines)


def test_a_long_third_level_heading_wraps_instead_of_being_cut() -> None:
    """Textual draws an H3 as wide as its text, so one longer than the pane was cut at
    its edge (`{ #create-a-dependency-or-dependa`, in a wiki of framework docs at 80
    columns; 130 pages of a 32k-page LLM wiki hold such an H3). Every heading wraps."""
    heading = "Case 3: `_project_level_up_ui_from_game_state` vs `project_level_up_ui`"
    lines = wrapped_lines(f"### {heading}\n\nText.\n", 40)
    rows = lines[1 : lines.index("", 1)]  # under the heading's margin
    assert len(rows) > 1 and all(len(line) <= 40 for line in rows)
    assert " ".join(rows).split() == heading.replace("`", "").split()


def test_a_word_longer_than_its_table_column_folds_instead_of_being_cut() -> None:
    """Textual cuts such a word with an ellipsis (`LANGCHAIN_TRACI…`; its whole text was
    only a mouse's tooltip): a fifth of the pages of a wiki of framework docs, and 20 of
    Obsidian's 173 help pages, hold a table too wide for their longest words at 80
    columns. The word goes on in the next row of its cell, as a terminal wraps it."""
    table = (
        "| variable | meaning |\n|---|---|\n"
        "| LANGCHAIN_TRACING_V2_ENDPOINT | where_the_traces_of_every_run_are_sent |\n"
    )
    lines = wrapped_lines(table, 40)
    assert all(len(line) <= 40 for line in lines) and not any("…" in line for line in lines)
    body = [line for line in lines[3:] if line.startswith("│")]  # under the header's keyline
    cells = ["".join(line.split("│")[n].strip() for line in body) for n in (1, 2)]
    assert cells == ["LANGCHAIN_TRACING_V2_ENDPOINT", "where_the_traces_of_every_run_are_sent"]


def test_a_table_too_narrow_for_its_words_folds_the_longest_first() -> None:
    """A table of an LLM wiki at 72 columns: its URL column needed more than the pane,
    and Textual shrinks every column in proportion, so `Entries` read `Ent`, `rie`, `s`
    and each count lost its last digit to the next row. The widest columns give up room
    first; the others keep their words whole."""
    url = "https://games.example.com/session/a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8"
    head = "| Entries | Campaign | Play URL |\n|---|---|---|\n"
    lines = wrapped_lines(f"{head}| 2414 | Harbor night v2 | {url} |\n", 60)
    assert all(len(line) <= 60 for line in lines)
    assert "│ Entries │ Campaign" in lines[1] and "│ 2414    │ Harbor" in lines[3]
    body = [line for line in lines[3:] if line.startswith("│")]
    assert "".join(line.split("│")[3].strip() for line in body) == url


def test_a_heading_is_drawn_and_outlined_without_its_attribute_block() -> None:
    """`## First steps { #first-steps }` (MkDocs, Pandoc, Hugo): the braces were drawn, and
    listed in the outline, as the heading's text."""
    body = prepare_body(
        "# Guide {#guide}\n\n## First steps { #first-steps .tab }\n\nText.\n", width=60
    )
    rows = [row.content.plain.strip() for p in body.pieces if p.drawing for row in p.drawing.rows]
    assert "Guide" in rows and "First steps" in rows and not any("{" in row for row in rows)
    assert [title for _, title in body.headings] == ["Guide", "First steps"]


def test_the_text_of_a_wrapped_line_is_kept_whole() -> None:
    """Wrapping only adds the bars and bullets: the words read the same, in order."""
    marks = {"▌", "•", "1.", "▾", "★"}
    words = " ".join(wrapped_lines(SHAPES, 30)).split()
    assert [word for word in words if word not in marks] == ["A", "tip", *WORDS.split() * 4]


async def test_a_long_pages_callout_keeps_its_bar_on_every_line(tmp_path: Path) -> None:
    filler = "".join(f"Paragraph {n} is filler text for a long page.\n\n" for n in range(1500))
    pages = dict(SMALL_BUNDLE, **{"long.md": "# Long\n\n" + SHAPES + "\n" + filler})
    app: App[None] = make_app(
        brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="long"
    )
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None and pane.drawn)
        pane.query_one(VaultBody).callouts()[0].toggle()  # it starts folded
        await settle(pilot)
        screen = [strip.text for strip in app.screen._compositor.render_strips()]
        quote = [line for line in screen if "narrow" in line or "every word" in line]
        assert quote and all("▌ " in line for line in quote[:2])


def test_a_wide_code_block_is_parted_from_the_prose_before_it() -> None:
    """A blank line before a box that scrolls sideways, as after it (seen on the
    Obsidian help vault's Callouts page: the code sat right under the paragraph)."""
    wide = "x" * 80
    markdown = f"Before the code.\n\n```\n{wide}\n```\n\nAfter the code.\n"
    pieces = prepare_body(markdown, width=40).pieces or ()
    assert [piece.wide for piece in pieces] == [False, True, False]
    assert [piece.margin for piece in pieces] == [(0, 1), (1, 1), (0, 1)]  # a row between


SOURCED = """---
type: Metric
sources:
  - id: margin-standard
    title: Cost Allocation and Margin Standard for the fiscal year
    resource: /policies/margin-standard.md
---
# Gross margin
"""


def test_hanging_content_wraps_under_the_bullets_text() -> None:
    text = "sources\n  • Cost Allocation Standard — → policies/margin-standard.md  [m]"
    lines = [row.content.plain for row in HangingContent(text).rows(36)]
    assert lines == [
        "sources",
        "  • Cost Allocation Standard — →",
        "    policies/margin-standard.md  [m]",
    ]
    assert HangingContent(text).get_height({}, 36) == 3


def test_a_word_longer_than_a_row_starts_beside_its_bullet() -> None:
    """Not alone on a row of its own under a bare `• →` (seen at 80×24 on an LLM-written
    wiki's sources, `kb:install-planning-for-a-minrole-server-deployment-in-…`): it fills
    the bullet's row, then goes on under its text. A word that fits a row still wraps
    whole."""
    token = "kb:install-planning-for-a-minrole-server-deployment"
    text = f"sources\n  • → {token}\n  • → kb:short-one and more words here"
    lines = [row.content.plain for row in HangingContent(text).rows(30)]
    assert lines == [
        "sources",
        "  • → kb:install-planning-for-",
        "    a-minrole-server-deploymen",
        "    t",
        "  • → kb:short-one and more",
        "    words here",
    ]
    rows = HangingContent(text).rows(30)
    assert [(row.line, row.x) for row in rows[1:4]] == [(1, 0), (1, 26), (1, 52)]
    assert HangingContent(text).get_height({}, 30) == 6
    labelled = "  • Export spec — https://developer.example/docs/export/v3/and/on"
    assert HangingContent(labelled).rows(30)[0].content.plain == "  • Export spec —"


async def test_the_page_headers_sources_wrap_under_their_bullet(tmp_path: Path) -> None:
    pages = {"index.md": "[[metric]]\n", "metric.md": SOURCED, "policies/margin-standard.md": ""}
    app: App[None] = make_app(
        brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="metric"
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("p", "z")  # every property, the page pane alone
        await settle(pilot)
        header = app.screen.query_one("#page-header")
        rows = [header.render_line(y).text.rstrip() for y in range(header.size.height)]
        resource = next(n for n, row in enumerate(rows) if "margin-standard.md" in row)
        assert rows[resource - 1].lstrip(" █").startswith("• Cost Allocation")
        assert rows[resource].lstrip(" █").startswith("/policies/margin-standard.md")
        assert rows[resource].startswith(rows[resource - 1][: rows[resource - 1].index("•")] + "  ")


async def test_a_callout_opened_while_the_page_rewraps_stays_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fold made while a resize's redraw is on its way from its thread is kept (that
    redraw, drawn from the folds as they were, put the callout back as it was, its rows
    folded while it counted as open: a flaky CI run). The fold is made just as the
    thread's rows are done, so the two always cross."""
    app: App[None] | None = None
    folds: list[bool] = []

    def draw_then_fold(*args: Any, **kwargs: Any) -> Drawing:
        drawing = draw(*args, **kwargs)
        if app and not folds and threading.current_thread() is not threading.main_thread():
            folds.append(True)  # once: the reader's one press
            app.call_from_thread(app.screen.query_one(VaultBody).callouts()[0].toggle)
        return drawing

    pages = dict(SMALL_BUNDLE, **{"tip.md": "# Tip\n\n" + SHAPES})
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="tip")
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None and pane.drawn)
        await settle(pilot)
        body = pane.query_one(VaultBody)
        assert body.callouts()[0].folded  # it starts folded
        monkeypatch.setattr(body_module, "draw", draw_then_fold)
        await pilot.resize_terminal(80, 30)  # a redraw for the new width is due
        await settle(pilot)
        monkeypatch.undo()
        callout = body.callouts()[0]
        assert folds and not callout.folded and "every word" in callout.text
        widths = {lines.piece.width for lines, _ in body.drawings() if isinstance(lines, DrawnRows)}
        assert widths == {body.content_region.width}  # drawn for the new width all the same


async def test_z_redraws_the_page_for_its_new_width_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A terminal being dragged waits for its width to hold before the page is redrawn;
    `z` is one step, so the zoomed page is drawn for its width without that wait (here a
    wait longer than `settle` lasts: the page would stay drawn for the old width)."""
    monkeypatch.setattr(body_module, "REWRAP_DELAY", 60.0)
    pages = dict(SMALL_BUNDLE, **{"tip.md": "# Tip\n\n" + SHAPES})
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="tip")
    async with app.run_test(size=(150, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None and pane.drawn)
        body = pane.query_one(VaultBody)

        def drawn_for(width: int) -> bool:
            return {lines.piece.width for lines, _ in body.drawings()} == {width}

        await settle(pilot, until=lambda: drawn_for(body.content_region.width))
        before = body.content_region.width
        pane.focus()
        await pilot.press("z")
        await settle(pilot, until=lambda: body.content_region.width != before)
        await settle(pilot, until=lambda: drawn_for(body.content_region.width))
        await pilot.press("z")
        await settle(pilot, until=lambda: body.content_region.width == before)
        await settle(pilot, until=lambda: drawn_for(before))


def tip_app(tmp_path: Path) -> App:
    pages = dict(SMALL_BUNDLE, **{"tip.md": "# Tip\n\n" + SHAPES})
    return make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="tip")


def widths(body: VaultBody) -> set[int]:
    """The widths the body's pieces are drawn for."""
    return {lines.piece.width for lines, _ in body.drawings()}


async def drawn_tip(pilot: Any) -> tuple[VaultBody, int]:
    """`tip_app`'s page drawn for its width, its pane focused: the body, and that width."""
    pane = pilot.app.screen.query_one(PagePane)
    await settle(pilot, until=lambda: pane.shown is not None and pane.drawn)
    body = pane.query_one(VaultBody)
    width = body.content_region.width
    await settle(pilot, until=lambda: widths(body) == {width})
    pane.focus()
    return body, width


async def test_a_zoom_undone_shows_the_rows_drawn_before_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`z` and `z` again: the page is back at its width, shown with the rows it had
    there (no redraw in a thread, no frame of rows cut to the width), folds as they are.

    The rows are drawn again in the layout that gives the page its width back: before,
    that layout's frame drew the wide rows cut to the width, and the kept rows came a
    layout (and a frame) later."""
    cut: list[tuple[int, int]] = []
    render_line = DrawnRows.render_line

    def watched(rows: DrawnRows, y: int) -> Any:
        if rows.piece.width != rows.content_region.width:
            cut.append((rows.piece.width, rows.content_region.width))
        return render_line(rows, y)

    async with tip_app(tmp_path).run_test(size=(150, 40)) as pilot:
        body, width = await drawn_tip(pilot)
        drawn = [drawing for _, drawing in body.drawings()]
        await pilot.press("z")
        await settle(pilot, until=lambda: width not in widths(body))
        monkeypatch.setattr(DrawnRows, "render_line", watched)
        await pilot.press("z")
        await pilot.pause()
        assert cut == []
        assert body.content_region.width == width
        shown = [drawing for _, drawing in body.drawings()]
        assert len(shown) == len(drawn)
        assert all(now is then for now, then in zip(shown, drawn, strict=True))


async def test_a_callout_opened_while_zoomed_stays_open_when_the_zoom_is_undone(
    tmp_path: Path,
) -> None:
    """The rows kept from before the zoom are the callout folded: not shown again once it
    is opened meanwhile."""
    async with tip_app(tmp_path).run_test(size=(150, 40)) as pilot:
        body, width = await drawn_tip(pilot)
        folded = len(body.drawings()[0][1].rows)
        await pilot.press("z")
        await settle(pilot, until=lambda: body.drawings()[0][0].piece.width != width)
        await pilot.press("n", "enter")  # the folded tip, opened
        await settle(pilot, until=lambda: not body.drawings()[0][0].piece.folded)
        await pilot.press("z")
        await settle(pilot, until=lambda: body.drawings()[0][0].piece.width == width)
        lines, drawing = body.drawings()[0]
        assert len(drawing.rows) > folded
        assert drawing == draw(lines.piece.blocks, width, set(), outer=False)
