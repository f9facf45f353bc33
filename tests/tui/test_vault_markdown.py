"""Vault Markdown in the page pane, as Obsidian shows it, on a vault of our own
(`vault_fixture`): callouts, footnotes (OKF sources too), embeds, block ids, tags,
highlights, tasks; headings as anchors (`[[Page#Heading]]`, `[[Page#^block]]`,
`[[#Heading]]`) and the `o` outline."""

from __future__ import annotations

from pathlib import Path

from textual.style import Style
from textual.widgets import OptionList

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import ExplorerApp, make_app
from okf_explorer.tui.dialogs.outline import OutlineDialog
from okf_explorer.tui.markdown import TAG_SCHEME, EmbedBlock, VaultBody, section_of
from okf_explorer.tui.markdown.draw import Row
from okf_explorer.tui.markdown.inline import MARK_STYLE, TAG_STYLE
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import brain_for, settle
from .vault_fixture import write_vault

SIZE = (120, 50)
NOTES = "Reading Notes"
DEMO = "Mother of All Demos"


def vault_app(root: Path, start: str = NOTES) -> ExplorerApp:
    return make_app(brain_for(BundleSource(root)), start=start, source_label="test vault")


def rows(pane: PagePane) -> list[Row]:
    """Every row the body draws, in order."""
    drawings = pane.query_one(VaultBody).drawings()
    return [row for _, drawing in drawings for row in drawing.rows]


def body_text(pane: PagePane) -> str:
    """The body's text, a line per line of text (not per wrapped row), and its rows."""
    drawings = pane.query_one(VaultBody).drawings()
    lines = "\n".join(line for _, drawing in drawings for line in drawing.lines)
    return lines + "\n" + "\n".join(row.content.plain.strip() for row in rows(pane))


def styled(pane: PagePane, style: str) -> list[str]:
    """The texts drawn in `style` anywhere in the body."""
    found = []
    for row in rows(pane):
        content = row.content
        found += [content.plain[s.start : s.end] for s in content.spans if s.style == style]
    return found


def tags_drawn(pane: PagePane) -> list[str]:
    """The texts drawn as tags in the body: in the tag style, each a link to its pages."""
    found = []
    for row in rows(pane):
        content = row.content
        for span in content.spans:
            style = span.style
            click = str(style.meta.get("@click", "")) if isinstance(style, Style) else ""
            if click.startswith(f"link('{TAG_SCHEME}"):
                assert style.foreground == Style.parse(TAG_STYLE).foreground and style.bold
                found.append(content.plain[span.start : span.end])
    return found


def is_shown(pane: PagePane, text: str) -> bool:
    """Whether a row of the body starting with `text` is inside the pane's viewport."""
    for widget, drawing in pane.query_one(VaultBody).drawings():
        for y, row in enumerate(drawing.rows):
            if row.content.plain.strip().startswith(text):
                top = widget.region.y + y
                return pane.region.y <= top < pane.region.bottom
    return False


async def test_vault_constructs_read_as_obsidian_shows_them(tmp_path: Path) -> None:
    app = vault_app(write_vault(tmp_path / "vault"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        text = body_text(pane)
        assert "▾ ✎ Why this matters" not in text and "✎ Why this matters" in text
        assert "[!note]" not in text and "[!tip]" not in text
        assert "▭ Engelbart.jpg" in text and "100" not in text  # a placeholder, not `100`
        assert "^claim" not in text and "^todo" not in text  # block ids are hidden
        assert "☒ watch the recording" in text and "☐ read the paper" in text
        assert "The mouse was new then.[1]" in text
        assert "The team called it a bug at first." in text  # the notes section
        assert styled(pane, MARK_STYLE) == ["the 1968 demo"]
        assert tags_drawn(pane) == ["#history", "#computing/hci"]  # not `#1968`
        callouts = pane.query_one(VaultBody).callouts()
        assert [(c.kind, c.fold, c.folded) for c in callouts] == [
            ("note", "", False),
            ("tip", "-", True),
            ("warning", "+", False),
        ]
        assert "▌ A plain quote stays a quote." in text  # the plain quote stays a quote
        tip = callouts[1]
        assert tip.text.startswith("▸ ★ A folded tip")
        assert "Hidden until opened" not in tip.text
        first, _ = tip.lines.drawing.spans[tip.index]
        await pilot.click(tip.lines, offset=(4, first))
        await settle(pilot)
        assert not tip.folded and "Hidden until opened" in tip.text
        assert tip.text.startswith("▾ ★ A folded tip")


async def test_an_embed_previews_its_section_and_unfolds_on_a_click(tmp_path: Path) -> None:
    app = vault_app(write_vault(tmp_path / "vault"))
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: bool(pane.query(EmbedBlock)))
        embed = pane.query_one(EmbedBlock)
        await settle(pilot, until=lambda: embed.text is not None)
        shown = embed.render().plain  # type: ignore[union-attr]
        assert shown.startswith("↳ Mother of All Demos > The demo\nThe demo\nNinety minutes")
        assert "^mouse" not in shown and "▸ enter or click to unfold" in shown
        assert "Legacy" not in (embed.text or "")  # only the section, up to the next heading
        await pilot.click(embed, offset=(2, 2))
        await settle(pilot)
        assert embed.open and "Paragraph 1 about" in embed.render().plain  # type: ignore[union-attr]
        await pilot.click(embed, offset=(4, 0))  # the name line follows the link
        await settle(pilot)
        assert app.screen.history.current.slug == DEMO


async def test_okf_footnotes_are_numbered_and_name_their_sources(tmp_path: Path) -> None:
    app = vault_app(write_vault(tmp_path / "vault"), start="metrics/churn")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        text = body_text(pane)
        assert "Churn fell in spring[1], and leavers named price first[2]." in text
        assert "An unknown citation[^nowhere] stays as written." in text
        assert "Billing export, monthly — /tables/billing" in text
        assert "Exit survey 2026 — https://example.com/survey" in text
        assert ("/tables/billing", "okf:/tables/billing") in pane.links
        pane.follow("okf:/tables/billing")  # a concept resource is a live link
        await settle(pilot)
        assert app.screen.history.current.slug == "tables/billing"


async def test_heading_and_block_links_open_the_page_scrolled_there(tmp_path: Path) -> None:
    app = vault_app(write_vault(tmp_path / "vault"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        legacy = ("Mother of All Demos > Legacy", "okf:Mother%20of%20All%20Demos#Legacy")
        assert legacy in pane.links
        pane.follow("okf:Mother%20of%20All%20Demos#Legacy")  # as a click or `l` + enter
        await settle(pilot, until=lambda: pane.shown is not None and pane.shown.slug == DEMO)
        await settle(pilot, until=lambda: is_shown(pane, "Legacy"))
        assert pane.scroll_y > 10
        await pilot.press("backspace")
        await settle(pilot, until=lambda: pane.shown is not None and pane.shown.slug == NOTES)
        pane.follow("okf:Mother%20of%20All%20Demos#%5Emouse")
        await settle(pilot, until=lambda: pane.shown is not None and pane.shown.slug == DEMO)
        await settle(pilot, until=lambda: is_shown(pane, "Ninety minutes"))
        assert pane.scroll_y > 0
        assert pane.scroll_to_anchor("legacy") and not pane.scroll_to_anchor("Nowhere")


async def test_same_page_heading_link_scrolls_and_o_lists_the_headings(tmp_path: Path) -> None:
    app = vault_app(write_vault(tmp_path / "vault"), start=DEMO)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        assert pane.headings == [(1, DEMO), (2, "The demo"), (2, "Legacy")]
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, OutlineDialog)
        options = app.screen.query_one(OptionList)
        assert [str(options.get_option_at_index(n).prompt) for n in range(3)] == [
            DEMO,
            "  The demo",
            "  Legacy",
        ]
        await pilot.press("down", "down", "enter")
        await settle(pilot)
        assert not isinstance(app.screen, OutlineDialog)
        await settle(pilot, until=lambda: is_shown(pane, "Legacy"))
        assert pane.scroll_y > 10
        await pilot.press("o", "o")  # the key toggles the outline
        assert not isinstance(app.screen, OutlineDialog)
        pane.scroll_home(animate=False)
        app.screen.open_page(NOTES)
        await settle(pilot, until=lambda: pane.shown is not None and pane.shown.slug == NOTES)
        pane.follow("okf:#Sources")
        await settle(pilot)
        await settle(pilot, until=lambda: is_shown(pane, "Sources"))


async def test_a_link_tree_choice_opens_the_page_where_the_body_links_into(
    tmp_path: Path,
) -> None:
    app = vault_app(write_vault(tmp_path / "vault"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        tree = app.screen.query_one(LinkTree)
        tree.focus()
        await pilot.press("down")  # Outgoing → Mother of All Demos
        await settle(pilot)
        assert tree.selected_slug == DEMO
        await pilot.press("enter")
        await settle(pilot, until=lambda: pane.shown is not None and pane.shown.slug == DEMO)
        # the body first points into `#The demo` (its embed): the page opens there
        await settle(pilot, until=lambda: is_shown(pane, "The demo") and pane.scroll_y > 0)


FILLER = "".join(f"Line {n} of the steps.\n\n" for n in range(30))


async def scrolled_to(tmp_path: Path, page: str, anchor: str, shown: str, unknown: str) -> None:
    """`Install`, holding `page`, scrolls to `anchor` until `shown` is in view; `unknown`
    names nothing there, and nothing moves."""
    (tmp_path / "vault").mkdir()
    (tmp_path / "vault" / "Install.md").write_text(page, encoding="utf-8")
    app = vault_app(tmp_path / "vault", start="Install")
    async with app.run_test(size=(120, 30)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None)
        assert pane.scroll_to_anchor(anchor)
        await settle(pilot, until=lambda: is_shown(pane, shown))
        assert not pane.scroll_to_anchor(unknown)


async def test_a_link_to_a_heading_under_a_heading_scrolls_to_that_one(tmp_path: Path) -> None:
    """`[[#Mac#Setup]]` (the Tasks plugin's sample vault writes `[[#heading#sub-heading]]`)
    is the `Setup` under `Mac`, as Obsidian reads it: the anchor read as one heading's
    text named none, and nothing moved."""
    page = f"# Linux\n\n## Setup\n\n{FILLER}# Mac\n\n## Setup\n\nOpen the Mac terminal.\n\n{FILLER}"
    await scrolled_to(tmp_path, page, "Mac#Setup", "Open the Mac terminal.", "Windows#Setup")


async def test_a_link_to_a_heading_s_own_id_scrolls_to_it(tmp_path: Path) -> None:
    """Docs copied from MkDocs or Hugo sites link to a heading's own id
    (`[open it](#in-a-browser)` to `### Open it in your browser {#in-a-browser}`): 878
    such links in a framework-docs wiki named no heading, and nothing moved. An embed of
    the section (`![[Install#in-a-browser]]`) is found the same way."""
    page = (
        f"# Install\n\n[open it](#in-a-browser)\n\n{FILLER}"
        "### Open it in your browser {#in-a-browser .tab}\n\nGo to the start page.\n\n"
        f"{FILLER}"
    )
    await scrolled_to(tmp_path, page, "in-a-browser", "Go to the start page.", "not-an-id")
    assert section_of(page, "in-a-browser") == (
        "### Open it in your browser {#in-a-browser .tab}\n\nGo to the start page.\n\n"
        + FILLER.rstrip()
    )
