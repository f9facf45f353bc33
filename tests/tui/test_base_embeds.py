"""An Obsidian base embedded in a page (`![[Books.base]]`) is drawn as its view's table
of pages (`core.bases`), and its rows are links the `n` cursor and a click follow.

Seen on a widely copied public Obsidian vault, whose category notes are each one such
embed: the page showed `▭ Books.base` and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import EmbedBlock, EmbedView
from okf_explorer.tui.markdown.body import WideFence
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_pages
from tests.test_bases import BOOKS_BASE, PAGES

from .conftest import brain_for, settle


def vault(tmp_path: Path, base: str = BOOKS_BASE) -> BundleSource:
    root = write_pages(tmp_path / "v", PAGES)
    (root / ".obsidian").mkdir()
    (root / "Books.base").write_text(base, encoding="utf-8")
    return BundleSource(root)


def embeds_of(pane: PagePane) -> list[EmbedBlock]:
    """The embeds the page shows, whichever engine draws it (`EmbedView`: the drawn body's
    `EmbedBlock`, the `Markdown` widget's `MarkdownEmbed` with the fast paths off)."""
    return [widget for widget in pane.query("*") if isinstance(widget, EmbedView)]


def embed_text(embed: EmbedBlock) -> list[str]:
    return [row.content.plain.rstrip() for row in embed.shown_rows()]


async def filled(pilot: Pilot[None], pane: PagePane) -> list[EmbedBlock]:
    await settle(pilot, lambda: pane.shown is not None and bool(embeds_of(pane)))
    embeds = embeds_of(pane)
    await settle(
        pilot, lambda: all(embed.text is not None or "✗" in embed.note for embed in embeds)
    )
    await settle(pilot)
    return embeds


async def test_a_base_is_drawn_as_its_table_and_its_rows_open_by_keyboard(
    tmp_path: Path,
) -> None:
    app = make_app(brain_for(vault(tmp_path)), start="Categories/Books")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        (embed,) = await filled(pilot, pane)
        rows = embed_text(embed)
        assert rows[0] == "↳ Books.base"
        table = "\n".join(rows)
        assert "Title" in rows[2] and "Author" in rows[2]
        # every row, none folded away, newest first as the view sorts
        assert table.index("Slow Light") < table.index("Out of Reach") < table.index("Tide Tables")
        assert "Template" not in table and "Harbour" not in table
        assert not any("unfold" in row for row in rows)
        assert not [href for _, href in pane.links if ".base" in href]  # `l`: no page to open
        await pilot.press("n", "n")  # the page's tag (its header), the embed, its rows' links
        assert pane.cursor.current is not None and pane.cursor.current.kind == "embed"
        await pilot.press("n")
        target = pane.cursor.current
        assert target is not None and target.kind == "link" and target.widget is embed
        assert target.href == "okf:Books/Slow%20Light"
        assert not embed.has_class("-cursor") and embed.marks == target.marks
        await pilot.press("n", "enter")  # the author of the first row
        await settle(pilot, lambda: pane.slug == "People/Ada Lin")
        assert pane.slug == "People/Ada Lin"
        # a view named in the embed, run for the page it is shown on
        (embed,) = await filled(pilot, pane)
        table = "\n".join(embed_text(embed))
        assert "Out of Reach" in table and "Slow Light" in table and "Tide Tables" not in table


@pytest.mark.plain  # the Markdown widget's embed draws it too
async def test_a_click_on_a_row_s_link_opens_its_page(tmp_path: Path) -> None:
    app = make_app(brain_for(vault(tmp_path)), start="Categories/Books")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        (embed,) = await filled(pilot, pane)
        rows = embed_text(embed)
        row = next(n for n, text in enumerate(rows) if "Tide Tables" in text)
        column = rows[row].index("Tide Tables")
        await pilot.click(embed, offset=(column + 2, row))  # the bar and padding first
        await settle(pilot, lambda: pane.slug == "Books/Tide Tables")
        assert pane.slug == "Books/Tide Tables"


async def test_a_base_it_cannot_read_says_why_in_place(tmp_path: Path) -> None:
    base = "filters: 'file.name.matches(\"x\")'\n"
    app = make_app(brain_for(vault(tmp_path, base)), start="Categories/Books")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        (embed,) = await filled(pilot, pane)
        assert embed.text is None
        assert embed.note == "✗ filters: okf-explorer does not read .matches() yet"


async def test_a_base_written_in_the_page_is_drawn_as_its_table(tmp_path: Path) -> None:
    """Obsidian also reads a base from a ```` ```base ```` block in the note itself."""
    written = "```base\nfilters: 'year < 2000 && file.inFolder(\"Books\")'\n```\n"
    pages = {**PAGES, "Old books": f"# Old books\n\n{written}\nAfter it.\n"}
    root = write_pages(tmp_path / "v", pages)
    (root / ".obsidian").mkdir()
    app = make_app(brain_for(BundleSource(root)), start="Old books")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        (embed,) = await filled(pilot, pane)
        assert embed.written is not None
        table = "\n".join(embed_text(embed))
        assert "Out of Reach" in table and "Tide Tables" in table
        assert "Slow Light" not in table and "filters" not in table
        await pilot.press("n", "n", "enter")
        await settle(pilot, lambda: pane.slug == "Books/Out of Reach")
        assert pane.slug == "Books/Out of Reach"


async def test_names_and_values_read_as_written_in_the_table(tmp_path: Path) -> None:
    """A page's name or a property holding Markdown's marks (`_`, `*`, `#`, `|`) reads as
    written, as Obsidian's table shows it: not emphasis, a tag, a column or a backslash."""
    odd = "---\ncategories: ['[[Books]]']\nnote: '*em* #t a|b $x$'\nyear: 1\n---\n"
    pages = {**PAGES, "Books/snake_case #1": odd}
    base = "filters: 'year == 1'\nviews:\n  - order: [file.name, note]\n"
    root = write_pages(tmp_path / "v", pages)
    (root / ".obsidian").mkdir()
    (root / "Books.base").write_text(base, encoding="utf-8")
    app = make_app(brain_for(BundleSource(root)), start="Categories/Books")
    async with app.run_test(size=(150, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        (embed,) = await filled(pilot, pane)
        (row,) = [text for text in embed_text(embed) if "snake" in text]
        assert "snake_case #1" in row and "*em* #t a|b $x$" in row
        assert "\\" not in row


async def test_a_dataview_query_is_drawn_as_its_list_and_its_pages_open_by_keyboard(
    tmp_path: Path,
) -> None:
    """A ```` ```dataview ```` block (`core.bases.dataview_query`) is drawn whole, as Dataview
    shows it; a query read only in part stays code, as written."""
    from tests.test_dataview_lists import PAGES as BOOKS

    index = "# Books\n\n```dataview\nLIST author\nFROM #type/book\nSORT rating DESC\n```\n"
    index += "\n- [ ] Lend [[dune]]\n- [x] Shelve them\n\n```dataview\nTASK WHERE !completed\n```\n"
    grouped = "```dataview\nTABLE author FROM #type/book FLATTEN genres\n```\n"
    root = write_pages(tmp_path / "v", {**BOOKS, "index": index + "\n" + grouped})
    (root / ".obsidian").mkdir()
    app = make_app(brain_for(BundleSource(root)), start="index")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        embed, tasks = await filled(pilot, pane)
        assert embed_text(tasks) == ["↳ dataview", "Books", "", "• ☐ Lend dune"]  # TASK
        assert embed_text(embed) == [
            "↳ dataview",
            "• Dune: Frank Herbert",
            "• The Hobbit: J. R. R. Tolkien",
            "• Emma: Jane Austen",
        ]
        assert not [href for _, href in pane.links if "dataview" in href]  # `l`: no page
        fence = "\n".join(row.content.plain for row in pane.query_one(WideFence).drawing.rows)
        assert "FLATTEN genres" in fence  # the other: code, as written
        await pilot.press("n", "n")  # the embed, then its first page
        target = pane.cursor.current
        assert target is not None and target.kind == "link" and target.widget is embed
        await pilot.press("enter")
        await settle(pilot, lambda: pane.slug == "books/dune")
