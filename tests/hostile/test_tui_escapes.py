"""Issue 7, item 6 in the TUI: a page name or title holding ESC, newlines, C1 or bidi
controls shows as visible escapes in every label (link tree, traversal panel,
status bar, page header, title bar, finder, links dialog, notifications)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import Label, OptionList, Static

from okf_explorer.core.brain import Brain
from okf_explorer.core.text_safety import printable
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.links import LinksDialog
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_pages

SIZE = (140, 40)
SLUG = "esc\x1b]0;pwned\x07\nline\u202egnp"
TITLE = "Title \x1b[2J\x9bcleared\u2066"
FOLDER = "brain\x1b[2J"
RAW = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _percent(name: str) -> str:
    return "".join(c if c.isalnum() else "".join(f"%{b:02X}" for b in c.encode()) for c in name)


def _bundle(tmp_path: Path) -> Path:
    home = f"---\ntitle: Home\n---\nSee [the odd page]({_percent(SLUG)}.md).\n"
    front = '---\ntitle: "Title \\e[2J\\x9bcleared\\u2066"\ndescription: "one\\ntwo\\e"\n---\n'
    return write_pages(tmp_path / FOLDER, {"index": home, SLUG: front + "Back to [[index]].\n"})


def screen_text(pilot: Pilot[None]) -> str:
    """Every character the screen would draw, lines joined by a space."""
    strips = pilot.app.screen._compositor.render_strips()
    return " ".join(strip.text for strip in strips)


async def until(pilot: Pilot[None], condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, "the app did not get there"
        await asyncio.sleep(0.01)
    await pilot.pause()


@pytest.mark.slow
async def test_every_label_shows_a_hostile_name_escaped(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    assert TITLE == "Title \x1b[2J\x9bcleared\u2066"  # what the frontmatter decodes to
    app = make_app(Brain(BundleSource(bundle), cache_dir=False), start="index")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        tree = screen.query_one(LinkTree)
        panel = screen.query_one(TraversalPanel)
        await until(pilot, lambda: screen.loader.ready and panel.filled and panel.edges != [])
        await until(pilot, lambda: len(tree.root.children) == 2)
        outgoing = tree.root.children[0].children
        await until(pilot, lambda: len(outgoing) == 1)
        label = outgoing[0].label.plain
        assert label == f"{printable(SLUG)} →1  {printable(TITLE)}"
        cell = str(panel.table.row(0).cells[3])  # slug cut from the left, then the title
        assert printable(SLUG).endswith(cell.split("  ")[0].lstrip("…"))
        assert "\x1b" not in cell and "\x9b" not in cell
        status = str(screen.query_one("#status-source", Label).content)
        assert status == printable(bundle.name) and "\\x1b[2J" in status
        tooltip = str(screen.query_one("#status-source", Label).tooltip)
        assert tooltip == printable(str(bundle.resolve())) and "\x1b" not in tooltip
        drawn = screen_text(pilot)
        assert printable(SLUG) in drawn and not RAW.search(drawn)

        tree.focus()
        tree.move_cursor(outgoing[0])
        await pilot.pause()
        assert tree.link_info == f"index → ({printable(SLUG)}.md) · rule path"

        await pilot.press("l")  # the links dialog of the index page
        await until(pilot, lambda: isinstance(app.screen, LinksDialog))
        dialog = app.screen
        row = str(dialog.query_one(OptionList).get_option_at_index(0).prompt)
        assert row.endswith(f"→ {printable(SLUG)}") and not RAW.search(row)
        assert not RAW.search(screen_text(pilot))
        await pilot.press("escape")

        screen.open_page(SLUG)
        pane = screen.query_one(PagePane)
        await until(pilot, lambda: pane.shown is not None and pane.shown.slug == SLUG)
        await until(pilot, lambda: panel.filled and panel.view.slug == SLUG)
        header = str(pane.query_one("#page-header", Static).content)
        assert header.startswith(f"{printable(TITLE)}  {printable(SLUG)}")
        assert "one\ntwo\\x1b" in header  # a description keeps its line breaks
        assert screen.sub_title == printable(SLUG)
        assert str(panel.border_title) == f"{printable(SLUG)} · depth 1 · out"
        assert "\\x1b]0;pwned\\x07" in str(panel.query_one("#traversal-info", Static).content)
        drawn = screen_text(pilot)
        assert printable(TITLE) in drawn and not RAW.search(drawn)

        screen.notify(f"no such page: {SLUG}")
        await pilot.pause()
        assert list(app._notifications)[-1].message == f"no such page: {printable(SLUG)}"
        assert not RAW.search(screen_text(pilot))

        await pilot.press("slash")  # the finder, searching by part of the title
        await until(pilot, lambda: CommandPalette.is_open(app))
        await pilot.press(*"cleared")
        hits = app.screen.query(CommandList)
        await until(pilot, lambda: bool(hits) and hits.first().option_count > 0)
        prompt = str(hits.first().get_option_at_index(0).prompt)
        assert printable(TITLE) in prompt and printable(SLUG) in prompt
        assert not RAW.search(screen_text(pilot))
