"""The link tree's Mentions section: pages naming the page without linking it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_bundle
from tests.shape_vault import make_shape_vault

from .conftest import SIZE, brain_for, settle

PAGES = {
    "kafka.md": "---\ntitle: Kafka\n---\nA log.\n",
    "ops.md": "# Ops\n\nWe page the team when Kafka lags.\n",
    "linked.md": "# Linked\n\nSee [[kafka]]; Kafka again.\n",
    "code.md": "# Code\n\nRun `kafka` here.\n",
}


def mention_section(tree: LinkTree):  # type: ignore[no-untyped-def]
    return next((n for n in tree.root.children if str(n.label).startswith("Mentions")), None)


async def test_mentions_section_lists_unlinked_mentions_and_opens_them(tmp_path: Path) -> None:
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", PAGES))), start="kafka")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(LinkTree)
        await settle(pilot, until=lambda: mention_section(tree) is not None)
        section = mention_section(tree)
        assert str(section.label) == "Mentions (1)"
        [node] = section.children
        assert node.data.slug == "ops"
        assert "We page the team when Kafka lags." in str(node.label)
        tree.focus()
        tree.move_cursor(node)
        await pilot.pause()
        assert "«Kafka»" in tree.link_info
        await pilot.press("enter")
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.slug == "ops")


async def test_mentions_come_before_the_suggestions_and_go_when_none_is_left(
    tmp_path: Path,
) -> None:
    """The suggestions are read with the links, the mentions after (slower on a large
    vault): they still come third, and a reload that leaves none takes them away."""
    vault = make_shape_vault(tmp_path / "vault")
    (vault / "notes.md").write_text("# Notes\n\nThe oven is hot.\n", encoding="utf-8")
    app = make_app(brain_for(BundleSource(vault)), start="kitchen/oven", watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        tree = app.screen.query_one(LinkTree)
        await settle(pilot, until=lambda: mention_section(tree) is not None)
        await settle(pilot)
        sections = [str(node.label).split(" (")[0] for node in tree.root.children]
        assert sections == ["Outgoing", "Incoming", "Mentions", "Suggested"]
        (vault / "notes.md").write_text("# Notes\n\nThe stove is hot.\n", encoding="utf-8")
        await pilot.press("r")
        await settle(pilot, until=lambda: mention_section(tree) is None)
        await settle(pilot)
        sections = [str(node.label).split(" (")[0] for node in tree.root.children]
        assert sections == ["Outgoing", "Incoming", "Suggested"]


async def test_a_mention_row_too_long_for_the_pane_still_names_its_page(tmp_path: Path) -> None:
    """A 13k-page vault at 150×45: a mention from a page with a 69-letter file name
    showed only its sentence (`Use this script to set the background…`), read as the
    page's title in its place; the row keeps the page's name, cut at its end (a name is
    read from its start)."""
    name = "Scripts/Set background color of unclosed line object by adding a shadow clone"
    pages = {
        "background.md": "# Background\n\nA colour.\n",
        f"{name}.md": "Use this script to set the background color of unclosed lines.\n",
    }
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="background")
    async with app.run_test(size=(80, 24)) as pilot:
        tree = app.screen.query_one(LinkTree)
        await settle(pilot, until=lambda: mention_section(tree) is not None)
        await settle(pilot)
        rows = [tree.render_line(y).text for y in range(tree.size.height)]
        [row] = [row for row in rows if "Use this script" in row or "Set background" in row]
        assert "Set background color" in row and "…" in row and "Use this" not in row, row


async def test_the_section_says_how_many_pages_were_read_when_not_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import okf_explorer.core.search.mentions as mentions_module

    monkeypatch.setattr(mentions_module, "MAX_CANDIDATES", 2)
    pages = {**PAGES, "more.md": "# More\n\nKafka once more.\n", "last.md": "# Last\n\nKafka.\n"}
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="kafka")
    async with app.run_test(size=SIZE) as pilot:
        tree = app.screen.query_one(LinkTree)
        await settle(pilot, until=lambda: mention_section(tree) is not None)
        label = str(mention_section(tree).label)
        assert re.fullmatch(r"Mentions \([12]\) · 2 of 4 pages read", label), label
