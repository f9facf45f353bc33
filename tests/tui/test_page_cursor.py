"""Issue 24 item 2: folds, embeds and links by keyboard.

With the page pane focused `enter` did nothing: a folded callout (`> [!tip]- …`) or an
embed opened only on a click, and a body link was followed only through `l`. `n` / `N`
(from any pane) now move a cursor over them in reading order, from the top of what is
visible, scrolling as needed; `enter` follows the link (into history) or folds and
unfolds the callout or embed."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widget import Widget

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import (
    DrawnRows,
    EmbedBlock,
    PreparedBody,
    VaultBody,
    WideFence,
)
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.page import pane as pane_module
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_pages

from .conftest import brain_for, press_at_once, settle

HOME = """# Home

Read [[alpha]] first.

> [!tip]- Folded tip
> Inside it: [[beta]].

![[gamma]]

Then [an outside page](https://example.com/x) and [[delta|the Delta page]].
"""

PAGES = {
    "home": HOME,
    "alpha": "# Alpha\n",
    "beta": "# Beta\n",
    "gamma": "# Gamma\n\nGamma's first line.\n\nAnd a second one.\n",
    "delta": "# Delta\n",
}


def vault(tmp_path: Path, pages: dict[str, str]) -> BundleSource:
    root = write_pages(tmp_path / "v", pages)
    (root / ".obsidian").mkdir()
    return BundleSource(root)


def where(pane: PagePane) -> tuple[str, str]:
    target = pane.cursor.current
    assert target is not None
    return target.kind, target.href


def marked_text(pane: PagePane) -> list[str]:
    """The text drawn in the cursor's style, per row (what the reader sees highlighted)."""
    found = []
    for widget in pane.query_one(VaultBody).readable():
        if isinstance(widget, EmbedBlock):
            continue
        for y in range(widget.size.height):
            text = "".join(
                segment.text
                for segment in widget.render_line(y)
                if segment.style is not None and segment.style.reverse
            )
            if text:
                found.append(text)
    return found


async def test_n_walks_links_callouts_and_embeds_in_reading_order(tmp_path: Path) -> None:
    app = make_app(brain_for(vault(tmp_path, PAGES)), start="home")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None and bool(pane.query(EmbedBlock)))
        app.screen.query_one(LinkTree).focus()
        await pilot.press("n")  # from another pane: the page pane takes the focus
        assert app.focused is pane
        assert where(pane) == ("link", "okf:alpha")
        assert marked_text(pane) == ["alpha"]
        await pilot.press("n")
        assert where(pane)[0] == "callout"  # folded: the link inside it is hidden
        assert marked_text(pane) == ["▸ ★ Folded tip"]
        await pilot.press("n")
        assert where(pane) == ("embed", "okf:gamma")
        embed = pane.query_one(EmbedBlock)
        assert embed.has_class("-cursor") and marked_text(pane) == []
        await pilot.press("n", "n")
        assert where(pane) == ("link", "okf:delta")
        assert marked_text(pane) == ["the Delta page"]
        assert not embed.has_class("-cursor")
        await pilot.press("N")
        assert where(pane) == ("link", "https://example.com/x")
        await pilot.press("n", "n")  # nothing after the last: the cursor stays
        assert where(pane) == ("link", "okf:delta")


@pytest.mark.parametrize(
    ("body", "title"),
    [
        ('??? example "Worked example"\n    Score it with [[alpha]].\n', "Worked example"),
        ('<Accordion title="Send reply">\n    - Then see [[alpha]].\n</Accordion>\n', "Send reply"),
    ],
    ids=["mkdocs", "mdx-accordion"],
)
async def test_a_folded_docs_admonition_opens_by_keyboard(
    tmp_path: Path, body: str, title: str
) -> None:
    """An LLM-kept wiki of framework docs keeps MkDocs' `??? example` folds and
    Mintlify's `<Accordion title="…">`, each with its body indented under it: each is a
    folded callout, which `n` stops on and `enter` opens, its link then next."""
    pages = {"metric": f"# Metric\n\n{body}", "alpha": "# Alpha\n"}
    app = make_app(brain_for(vault(tmp_path, pages)), start="metric")
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        (example,) = pane.query_one(VaultBody).callouts()
        assert example.folded
        await pilot.press("n")
        assert where(pane)[0] == "callout" and title in marked_text(pane)[0]
        await pilot.press("enter", "n")
        assert not example.folded and where(pane) == ("link", "okf:alpha")


async def test_enter_folds_callouts_and_embeds_and_follows_links(tmp_path: Path) -> None:
    app = make_app(brain_for(vault(tmp_path, PAGES)), start="home")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None and bool(pane.query(EmbedBlock)))
        (tip,) = pane.query_one(VaultBody).callouts()
        assert tip.folded
        await pilot.press("n", "n", "enter")
        assert not tip.folded and where(pane)[0] == "callout"  # unfolded, still on it
        assert "Folded tip" in marked_text(pane)[0]
        await pilot.press("n")
        assert where(pane) == ("link", "okf:beta")  # inside the callout, now shown
        await pilot.press("N", "enter")
        assert tip.folded
        embed = pane.query_one(EmbedBlock)
        await settle(pilot, lambda: embed.text is not None)
        await pilot.press("n", "enter")
        assert where(pane)[0] == "embed" and embed.open
        await pilot.press("enter")
        assert not embed.open
        await pilot.press("N", "N", "enter")  # back on the first link: follow it
        await settle(pilot, lambda: pane.slug == "alpha")
        assert pane.slug == "alpha" and pane.cursor.current is None
        await pilot.press("backspace")  # it went into the history
        await settle(pilot, lambda: pane.slug == "home" and pane.shown is not None)
        assert pane.slug == "home"


def fifty_links() -> dict[str, str]:
    """`home`, a paragraph a link to each of fifty pages: longer than the pane."""
    paragraphs = "".join(f"Paragraph {n} links [[page {n}]].\n\n" for n in range(50))
    return {"home": f"# Home\n\n{paragraphs}"} | {f"page {n}": "# P\n" for n in range(50)}


@pytest.mark.slow  # ~50 keys, each a frame: ~4 s on a loaded 2-core machine
async def test_n_starts_from_what_is_visible_and_scrolls_to_what_it_reaches(
    tmp_path: Path,
) -> None:
    app = make_app(brain_for(vault(tmp_path, fifty_links())), start="home")
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        await settle(pilot)
        app.screen.query_one(LinkTree).focus()
        await pilot.pause()
        pane.scroll_to(y=40, animate=False)
        await settle(pilot, lambda: round(pane.scroll_y) == 40)
        await pilot.press("n")
        assert app.focused is pane
        target = pane.cursor.current
        assert target is not None and target.kind == "link"
        body_y = pane.query_one(VaultBody).virtual_region.y
        first_visible = target.y + body_y
        assert 40 <= first_visible < 40 + 3  # the first link from the top of the view
        assert round(pane.scroll_y) == 40  # visible already: no scroll
        for _ in range(35):  # on past the bottom (the view follows), then no further
            await pilot.press("n")
        target = pane.cursor.current
        assert target is not None and target.href == "okf:page%2049"
        y = target.y + body_y
        height = pane.scrollable_content_region.height
        assert round(pane.scroll_y) <= y < round(pane.scroll_y) + height
        pane.scroll_to(y=40, animate=False)  # the cursor is off screen now
        await settle(pilot, lambda: round(pane.scroll_y) == 40)
        await pilot.press("N")  # from the bottom of what is visible
        target = pane.cursor.current
        assert target is not None
        visible = [t for t in pane.cursor.targets() if 40 <= t.y + body_y < 40 + height]
        assert target is visible[-1] and round(pane.scroll_y) == 40


async def test_quick_ns_each_move_on_when_the_view_must_follow(tmp_path: Path) -> None:
    """`n` pressed faster than the screen refreshes: each moves one link on, also when the
    last one took the cursor past the bottom (its scroll waited for the next refresh, so
    the next `n` found the cursor off screen and began again from the top of the view:
    a slow-tier run ended three links short)."""
    app = make_app(brain_for(vault(tmp_path, fifty_links())), start="home")
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        await settle(pilot)
        pane.focus()
        await press_at_once(pilot, "n", "n", 30)
        await settle(pilot)
        target = pane.cursor.current
        assert target is not None and target.href == "okf:page%2029"


async def test_the_cursor_stays_shown_when_its_piece_is_redrawn(tmp_path: Path) -> None:
    """Seen at 80×24 on the community vault: the first `n` scrolled, the scrollbar came,
    the body was redrawn narrower, and the highlight was gone (the cursor still there)."""
    app = make_app(brain_for(vault(tmp_path, PAGES)), start="home")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None and bool(pane.query(EmbedBlock)))
        await pilot.press("n", "n", "n", "n", "n")
        assert where(pane) == ("link", "okf:delta")
        await pilot.resize_terminal(70, 40)  # the panes stack: the body is drawn wider
        await settle(pilot, lambda: pane.query_one(VaultBody).readable()[0].size.width > 60)
        await settle(pilot)
        assert marked_text(pane) == ["the Delta page"]


BOOK = """---
categories:
  - "[[Books]]"
author: "[[Kevin Kelly]]"
loc:
  - "[[Kyoto]]"
  - "[[Japan]]"
year: 1992
---
Lent to [[alpha]].
"""


def header_marked(pane: PagePane) -> str:
    """The header's text drawn in the cursor's style."""
    header = pane.query_one("#page-header")
    return "".join(
        segment.text
        for y in range(header.size.height)
        for segment in header.render_line(y)
        if segment.style is not None and segment.style.reverse
    )


@pytest.mark.parametrize("size", [(80, 24), (150, 45)])
async def test_n_visits_the_links_of_the_properties_before_the_body(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Seen on a vault kept with properties (a book's `categories`, `author`, `loc`): most
    of a page's links are in its header, and `n` went only through the body's (on a page
    of properties alone: "no link, foldable callout or page embed in the body · l lists the
    header's 4")."""
    pages = {"book": BOOK, "Books": "# Books\n", "Kevin Kelly": "# KK\n", "Kyoto": "# K\n"}
    app = make_app(brain_for(vault(tmp_path, pages | {"alpha": "# Alpha\n"})), start="book")
    async with app.run_test(size=size) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        app.screen.query_one(LinkTree).focus()
        seen = []
        for _ in range(6):
            await pilot.press("n")
            seen.append((where(pane)[1], header_marked(pane), marked_text(pane)))
        assert app.focused is pane
        assert seen == [  # as the header shows them: `author` first, then as written
            ("okf:Kevin Kelly", "Kevin Kelly", []),
            ("okf:Books", "Books", []),
            ("okf:Kyoto", "Kyoto", []),
            ("okf:Japan", "Japan", []),  # no such page: still a link, as a click has it
            ("okf:alpha", "", ["alpha"]),
            ("okf:alpha", "", ["alpha"]),  # the last: the cursor stays
        ]
        await pilot.press("N", "N", "N", "N")
        assert where(pane) == ("link", "okf:Kevin Kelly")
        await pilot.press("enter")  # followed into the history, as a click on it
        await settle(pilot, lambda: pane.slug == "Kevin Kelly" and pane.shown is not None)
        assert header_marked(pane) == "" and pane.cursor.current is None
        await pilot.press("backspace")
        await settle(pilot, lambda: pane.slug == "book" and pane.shown is not None)
        await pilot.press("n")
        assert where(pane)[1] == "okf:Kevin Kelly"


async def test_the_header_cursor_stays_on_its_link_when_p_shows_every_property(
    tmp_path: Path,
) -> None:
    """`p` shows the header again (every key): the highlight must come back on the same
    link, not vanish while `enter` still follows it."""
    long_body = "".join(f"Line {n}.\n\n" for n in range(20))
    pages = {"book": BOOK.replace("Lent to [[alpha]].\n", long_body), "Books": "# B\n"}
    app = make_app(brain_for(vault(tmp_path, pages)), start="book")
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        pane.focus()
        await pilot.press("n")
        assert where(pane)[1] == "okf:Kevin Kelly" and header_marked(pane) == "Kevin Kelly"
        await pilot.press("p")
        await settle(pilot)
        assert "Kyoto" in str(pane.query_one("#page-header").render())  # every key now
        assert header_marked(pane) == "Kevin Kelly"


@pytest.mark.parametrize("size", [(80, 24), (150, 45)])
async def test_a_tag_of_the_header_lists_the_pages_so_tagged(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """A vault note's `#tags` are its tags (the header names them): `n` reaches each as it
    reaches a link, and `enter` lists the notes so tagged (`tag:x` in the text finder),
    as a click on a tag in Obsidian does."""
    from textual.command import CommandList, CommandPalette
    from textual.widgets import Input

    pages = {
        "seeds": "---\ntags: [garden]\n---\n# Seeds\n\nSow them. #todo/spring\n",
        "beds": "# Beds\n\nDig the beds. #todo\n",
        "tools": "# Tools\n\nNo tag here.\n",
    }
    app = make_app(brain_for(vault(tmp_path, pages)), start="seeds")
    async with app.run_test(size=size) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        await pilot.press("n", "n")
        assert where(pane) == ("link", "okf-tag:todo/spring")
        assert header_marked(pane) == "todo/spring"
        await pilot.press("N")
        assert header_marked(pane) == "garden"
        await pilot.press("n", "enter")
        await settle(pilot, lambda: CommandPalette.is_open(app))
        assert app.screen.query_one(Input).value == "tag:todo/spring"
        options = app.screen.query_one(CommandList)
        await settle(pilot, lambda: options.option_count > 0)
        assert [
            str(options.get_option_at_index(i).prompt).split()[0]
            for i in range(options.option_count)
        ] == ["seeds"]
        await pilot.press("escape")
        await pilot.press("n")  # back on the page: the cursor goes on


async def test_a_tag_in_the_body_is_drawn_as_the_page_counts_it_and_lists_its_pages(
    tmp_path: Path,
) -> None:
    """The body drew `#tags` by a grammar of its own (`(#why)` looked like a tag the page
    did not have; `#953-` did not look like one it had), and a tag could not be followed.
    Now the body draws as a tag what the page's tags count, each a link: `n` reaches it,
    `enter` lists the pages so tagged."""
    from textual.command import CommandPalette
    from textual.widgets import Input

    pages = {
        "seeds": "# Seeds\n\nSow them #todo/spring, not (#why) nor #1984.\n",
        "beds": "# Beds\n\nDig. #todo\n",
    }
    app = make_app(brain_for(vault(tmp_path, pages)), start="seeds")
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        assert pane.brain.ensure_index().pages["seeds"].tags == ("todo/spring",)
        await pilot.press("n", "n")  # the header's tag, then the body's
        assert where(pane) == ("link", "okf-tag:todo/spring")
        await settle(pilot)  # the rows drawn again (CI, loaded: read before they were)
        assert marked_text(pane) == ["#todo/spring"]
        await pilot.press("n")  # nothing else is a tag: the cursor stays
        assert where(pane) == ("link", "okf-tag:todo/spring")
        await pilot.press("enter")
        await settle(pilot, lambda: CommandPalette.is_open(app))
        assert app.screen.query_one(Input).value == "tag:todo/spring"


async def test_n_on_a_page_without_targets_says_which_callouts_and_embeds_count(
    tmp_path: Path,
) -> None:
    """Seen on an Italian student vault: a page of callouts that do not fold and an image
    said "no link, callout or embed on this page", beside its callouts and its image."""
    page = "> [!info] definizione\n> una dipendenza\n\n![[schema.png|center|450]]\n"
    app = make_app(brain_for(vault(tmp_path, {"dip": page})), start="dip")
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        await pilot.press("n")
        messages = [n.message for n in app._notifications]
        assert messages == ["no link, foldable callout, page embed or wide code block on this page"]
        assert pane.cursor.current is None


async def test_a_page_shown_again_is_drawn_as_first_prepared_and_not_prepared_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Back to a page shows the body kept from its first showing (`PreparedBodies`): the
    same rows, its callouts folded as they start, and no parse and draw again; a page
    changed on disk is prepared again."""
    prepared: list[str] = []
    prepare = pane_module.prepare_body

    def counted(text: str, *args: object, **kwargs: object) -> PreparedBody:
        prepared.append(text.split("\n", 1)[0])
        return prepare(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pane_module, "prepare_body", counted)
    source = vault(tmp_path, PAGES)
    app = make_app(brain_for(source), start="home")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None and bool(pane.query(EmbedBlock)))
        first_rows = body_text(pane)
        assert prepared == ["# Home"]
        await pilot.press("n", "n", "enter")  # the tip unfolded
        (tip,) = pane.query_one(VaultBody).callouts()
        assert not tip.folded and "Inside it" in body_text(pane)
        await pilot.press("N", "enter")  # follow `alpha`
        await settle(pilot, lambda: pane.slug == "alpha" and pane.shown is not None)
        await pilot.press("backspace")
        await settle(pilot, lambda: pane.slug == "home" and pane.shown is not None)
        assert prepared == ["# Home", "# Alpha"]  # home was not prepared again
        (tip,) = pane.query_one(VaultBody).callouts()
        assert tip.folded and body_text(pane) == first_rows
        (tmp_path / "v" / "home.md").write_text(HOME.replace("Read", "Now read"), encoding="utf-8")
        await pilot.press("r")
        await settle(pilot, lambda: "Now read" in body_text(pane))
        assert prepared == ["# Home", "# Alpha", "# Home"]


def body_text(pane: PagePane) -> str:
    """The text of the body's drawn rows, as shown."""
    return "\n".join(rows.drawing.text().plain for rows in pane.query(DrawnRows))


async def test_space_pages_the_page_down_and_shift_space_up(tmp_path: Path) -> None:
    """As in a pager or a browser: `space` on the page pane scrolls a page down."""
    app = make_app(brain_for(vault(tmp_path, fifty_links())), start="home")
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None and pane.max_scroll_y > 0)
        pane.focus()
        page = pane.scrollable_content_region.height
        await pilot.press("space")
        await settle(pilot, lambda: pane.scroll_y >= page - 2)
        assert pane.scroll_y >= page - 2  # a page, not a line
        await pilot.press("shift+space")
        await settle(pilot, lambda: pane.scroll_y == 0)
        assert pane.scroll_y == 0


WIDE_CODE = (
    "# Fix\n\nMark the reviewed line:\n\n```python\nif not _IS_WINDOWS:\n"
    "    roaster.stop_batch(batch_id, reason=StopReason.OVERHEAT)  # checked: fine, gated above\n"
    "```\n\nThen [[alpha]].\n"
)


def code_box(pane: PagePane) -> WideFence:
    (fence,) = pane.query(WideFence)
    return fence


async def scrolled_sideways(pilot: Pilot[None]) -> tuple[PagePane, Widget]:
    """The page pane once its one wide fence is shown, and that fence's box, which
    scrolls sideways."""
    pane = pilot.app.screen.query_one(PagePane)
    await settle(pilot, lambda: pane.shown is not None and bool(pane.query(WideFence)))
    box = code_box(pane).parent
    assert isinstance(box, Widget) and box.horizontal_scrollbar.display and box.max_scroll_x > 0
    return pane, box


async def test_a_code_block_wider_than_the_pane_is_read_by_keyboard(tmp_path: Path) -> None:
    """Seen on an LLM-written wiki of code fixes: a code line wider than the page pane
    was cut at its edge, with nothing to say so, and only a mouse could scroll it (a
    quarter of the pages of technical vaults hold such a line). It shows a scrollbar;
    `n` stops on it, `right` / `left` scroll it sideways, `enter` wraps its lines."""
    pages = {"fix": WIDE_CODE, "alpha": "# Alpha\n"}
    app = make_app(brain_for(vault(tmp_path, pages)), start="fix")
    async with app.run_test(size=(80, 30)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None and bool(pane.query(WideFence)))
        fence = code_box(pane)
        box = fence.parent
        assert box.horizontal_scrollbar.display and box.scrollbar_size_horizontal == 1
        await pilot.press("n")
        assert where(pane) == ("code", "")
        assert marked_text(pane) == ["if not _IS_WINDOWS:"]
        await pilot.press("right")
        await settle(pilot)
        assert box.scroll_x > 0
        await pilot.press("left")
        await settle(pilot)
        assert box.scroll_x == 0
        await pilot.press("enter")
        await settle(pilot)
        fence = code_box(pane)
        assert fence.wrapped and box.max_scroll_x == 0
        text = "\n".join(row.content.plain.rstrip() for row in fence.drawing.rows)
        assert "gated above" in text and all(
            row.content.cell_length <= box.content_region.width for row in fence.drawing.rows
        )
        assert where(pane) == ("code", "") and marked_text(pane) == ["if not _IS_WINDOWS:"]
        await pilot.resize_terminal(60, 30)  # wrapped again for the narrower box
        await settle(pilot)
        assert code_box(pane).piece.width == box.content_region.width < 70
        assert all(
            row.content.cell_length <= box.content_region.width
            for row in code_box(pane).drawing.rows
        )
        await pilot.resize_terminal(80, 30)
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert not code_box(pane).wrapped and box.max_scroll_x > 0
        await pilot.press("n")
        assert where(pane) == ("link", "okf:alpha")
        await pilot.press("right")  # not on the code: the key is not the box's
        assert box.scroll_x == 0


MATRIX = (
    "\\left[\\begin{array}{cc}\\cos\\theta & -\\sin\\theta \\\\ "
    "\\sin\\theta & \\cos\\theta\\end{array}\\right]"
)


async def test_a_flowchart_wider_than_the_pane_scrolls_and_wraps_between_its_boxes(
    tmp_path: Path,
) -> None:
    """Seen on LLM-kept wikis: a Mermaid flowchart showed as its source. It is drawn; one
    wider than the pane scrolls sideways as a wide code block does (`n` stops on it, `→`
    scrolls it), and `enter` wraps it, cut between its boxes, never through one."""
    chain = " --> ".join(f"S{n}[Step number {n}]" for n in range(6))
    pages = {"flow": f"# Flow\n\n```mermaid\ngraph LR\n  {chain}\n```\n\nThen [[alpha]].\n"}
    app = make_app(brain_for(vault(tmp_path, {**pages, "alpha": "# Alpha\n"})), start="flow")
    async with app.run_test(size=(80, 30)) as pilot:
        pane, box = await scrolled_sideways(pilot)
        middle = code_box(pane).drawing.rows[2].content.plain.strip()
        assert middle.startswith("│ Step number 0 ├─►│ Step number 1 ├─►")
        await pilot.press("n", "right", "right")
        await settle(pilot)
        assert box.scroll_x > 0
        await pilot.press("enter")
        await settle(pilot)
        fence = code_box(pane)
        assert fence.wrapped and box.max_scroll_x == 0
        lines = [row.content.plain.strip() for row in fence.drawing.rows]
        boxes = [line for line in lines if "Step number" in line]
        assert len(boxes) >= 2  # parts, one under another
        sides = [sum(line.count(side) for side in "│├┤") for line in boxes]
        assert sides == [2 * line.count("Step number") for line in boxes]  # no box cut


async def test_a_matrix_wider_than_the_pane_scrolls_and_wraps_as_a_grid(tmp_path: Path) -> None:
    """Seen on a math digital garden: a displayed product of matrices wider than the pane
    was wrapped a line at a time, the end of its top row under its first two rows. It
    scrolls sideways as a wide code block does; `enter` wraps it, its rows cut together
    after a matrix, so each part reads as the grid it is."""
    pages = {"rotation": f"# Rotation\n\n$$\n{MATRIX * 5} = I\n$$\n\nThen [[alpha]].\n"}
    app = make_app(brain_for(vault(tmp_path, {**pages, "alpha": "# Alpha\n"})), start="rotation")
    async with app.run_test(size=(80, 30)) as pilot:
        pane, box = await scrolled_sideways(pilot)
        top, bottom = (row.content.plain.strip() for row in code_box(pane).drawing.rows[1:3])
        assert top.count("⎤") == bottom.count("⎦") == 5 and top.endswith("= I")
        await pilot.press("n", "enter")
        await settle(pilot)
        fence = code_box(pane)
        assert fence.wrapped and box.max_scroll_x == 0
        rows = [row.content.plain.strip() for row in fence.drawing.rows]
        lines = [row for row in rows if row]
        assert [line[0] for line in lines] == ["⎡", "⎣"] * (len(lines) // 2)
        assert all(line[-1] in "⎤⎦I" for line in lines) and len(lines) >= 4
