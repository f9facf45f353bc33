"""Issue 11 point 3: `b` lists the page's direct backlinks, each with the sentence
around its link, grouped by linking page; `b` again restores; `d` reaches the
undirected neighbourhood. At 80×24 and 150×45."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.state.page_links import LINK_STYLE, read_backlinks, start_backlinks
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from tests.bundles import write_pages

from .conftest import brain_for, settle

SIZES = [(80, 24), (150, 45)]
ROOT = "tables/orders"
PAGES = {
    ROOT: "---\ntitle: Orders\n---\nThe orders table links [[notes/a]].\n",
    "notes/a": "---\ntitle: Alpha note\n---\n"
    "Intro. The [[tables/orders|orders table]] is big. Other things.\n",
    "notes/b": "# B\n\n- see [Orders](../tables/orders.md) here\n\n"
    "Later we read [[tables/orders]] again.\n`[[tables/orders]]` is code.\n",
}


def rows(panel: TraversalPanel) -> list[tuple[str, ...]]:
    table = panel.table
    return [tuple(str(cell) for cell in table.row(i).cells) for i in range(table.row_count)]


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "150x45"])
async def test_b_shows_backlinks_with_their_sentence_and_b_again_restores(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", PAGES))), start=ROOT)
    async with app.run_test(size=size) as pilot:
        panel = app.screen.query_one(TraversalPanel)
        await settle(pilot, lambda: app.screen.loader.ready and panel.filled)
        await pilot.press("plus", "d")
        await settle(pilot, lambda: panel.filled and panel.view.direction == "in")
        await pilot.press("b")
        await settle(pilot, lambda: panel.filled and panel.view.backlinks)
        assert str(panel.border_title) == f"{ROOT} · backlinks"
        shown = rows(panel)
        if size[0] >= 150:  # two columns: linked from, the sentence
            assert [page.split("  ")[0] for page, _ in shown] == ["notes/a", "notes/b", ""]
            sentences = [line for _, line in shown]
        else:  # 80 columns: each page on its own row, its sentences whole under it
            assert [line for (line,) in shown if not line.startswith(" ")] == [
                "notes/a  Alpha note",
                "notes/b",
            ]
            sentences = [line.strip() for (line,) in shown if line.startswith("  ")]
            assert sentences[0] == "The orders table is big."
        assert len(sentences) == 3
        assert "orders table is big." in sentences[0]
        assert "see Orders here" in sentences[1] and "read tables/orders again." in sentences[2]
        first = 0 if size[0] >= 150 else 1
        sentence = panel.table.row(first).cells[-1]
        (mark,) = [span for span in sentence.spans if span.style == LINK_STYLE]
        assert sentence.plain[mark.start : mark.end] == "orders table"
        info = str(panel.query_one("#traversal-info").content)
        assert "2 pages link here" in info and "The orders table is big." in info
        panel.table.focus()
        await pilot.press(*["down"] * (2 * first + 2))
        assert panel.selected_slug == "notes/b"  # a sentence row opens its page
        assert "Later we read tables/orders again." in str(
            panel.query_one("#traversal-info").content
        )
        await pilot.press("b")
        await settle(pilot, lambda: panel.filled and not panel.view.backlinks)
        assert str(panel.border_title) == f"{ROOT} · depth 2 · in"


async def test_neighbourhood_is_offered_by_d_and_walks_either_way(tmp_path: Path) -> None:
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", PAGES))), start="notes/a")
    async with app.run_test(size=(150, 45)) as pilot:
        panel = app.screen.query_one(TraversalPanel)
        await settle(pilot, lambda: app.screen.loader.ready and panel.filled)
        await pilot.press("d", "d", "d", "plus")
        await settle(pilot, lambda: panel.filled and panel.view.depth == 2)
        assert str(panel.border_title) == "notes/a · depth 2 · neighbourhood"
        reached = {edge.to for edge in panel.edges}
        assert "notes/b" in reached  # b links to orders, which links to a: two hops, either way


def test_a_server_context_is_used_as_told(tmp_path: Path) -> None:
    """Over MCP gbrain keeps a `context` per link: it is shown without reading the page."""
    brain = Brain(BundleSource(write_pages(tmp_path / "b", PAGES)), cache_dir=False)
    told = Edge("tables/orders", "notes/a", 1, "in")
    told.context = "As told by the server: [[tables/orders]] rocks."
    (found,) = read_backlinks(brain, "tables/orders", ["notes/a"], {"notes/a": [told]})
    assert [c.text for c in found.contexts] == ["As told by the server: tables/orders rocks."]
    assert found.contexts[0].link == "tables/orders"
    brain.ensure_index()
    plain = {"notes/a": [Edge(*told)]}  # no context told: the page is read
    (read,) = read_backlinks(brain, "tables/orders", ["notes/a"], plain)
    assert read.contexts[0].text == "The orders table is big."


def test_over_mcp_the_server_s_context_is_shown(tmp_path: Path) -> None:
    """Against our own `serve` on loopback: gbrain's `get_backlinks` rows carry a
    `context`, which `b` shows as the server told it, without reading the page."""
    from okf_explorer.sources.gbrain.source import McpSource
    from tests.mcp_server_fixture import serve_bundle

    root = write_pages(tmp_path / "b", PAGES)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OKF_EXPLORER_CACHE", str(tmp_path / "server-cache"))
        with serve_bundle(root) as handle:
            source = McpSource(handle.url, token=None, token_source="no token")
            brain = Brain(source, cache_dir=False)
            try:
                assert brain.answered_by == "server"
                start = start_backlinks(brain, ROOT, None, 10)
                told = {page.page: page.contexts[0].text for page in start.first}
            finally:
                brain.close()
    assert set(told) == {"notes/a", "notes/b"}
    assert "The orders table is big." in told["notes/a"]  # the server's cut, links as text


def test_reference_style_and_defined_wiki_links_have_their_sentence(tmp_path: Path) -> None:
    """`[text][ref]` with `[ref]: ../tables/orders.md`, and Foam's `[[name]]` whose
    name is a defined label, each get their sentence (they used to get a note)."""
    pages = {
        **PAGES,
        "notes/c": "Intro.\n\nWe load [the orders][o] daily. Then [[the-table]] again.\n\n"
        "[o]: ../tables/orders.md\n[the-table]: ../tables/orders.md\n",
    }
    brain = Brain(BundleSource(write_pages(tmp_path / "b", pages)), cache_dir=False)
    brain.ensure_index()
    (found,) = read_backlinks(brain, ROOT, ["notes/c"], {})
    assert found.note is None
    assert [(c.text, c.link) for c in found.contexts] == [
        ("We load the orders daily.", "the orders"),
        ("Then the-table again.", "the-table"),
    ]


async def test_a_backlink_in_a_comment_is_marked_and_reads_as_text(tmp_path: Path) -> None:
    """Issue 24 item 5: a link inside `%% … %%` counts (as in Obsidian) and `b` says it is
    in a comment, its sentence without the comment's marks; one inside an HTML comment
    is no backlink at all."""
    pages = {
        ROOT: "# Orders\n",
        "notes/a": "# A\n\n%% Mention [[tables/orders]] and any other note here. %%\n",
        "notes/b": "# B\n\n<!-- - [[tables/orders]]: placeholder -->\nNothing else.\n",
        "notes/c": "# C\n\nThe [[tables/orders]] table %% a note %% is done.\n",
    }
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", pages))), start=ROOT)
    async with app.run_test(size=(150, 45)) as pilot:
        panel = app.screen.query_one(TraversalPanel)
        await settle(pilot, lambda: app.screen.loader.ready and panel.filled)
        await pilot.press("b")
        await settle(pilot, lambda: panel.filled and panel.view.backlinks)
        shown = rows(panel)
        assert [page.split("  ")[0] for page, _ in shown] == ["notes/a", "notes/c"]
        assert shown[0][1].startswith("in a comment · Mention tables/orders and any other")
        assert shown[1][1] == "The tables/orders table is done."
        info = str(panel.query_one("#traversal-info").content)
        assert "in a comment · Mention tables/orders and any other note here." in info
