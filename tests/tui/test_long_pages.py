"""Pages are drawn by the engine, not as a widget per block, and keep live links; the link
tree says how pages link."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Markdown

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import PreparedBody, VaultBody, prepare_body
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SIZE, brain_for, settle, write_bundle

ITEMS = 250


def long_index(count: int = ITEMS) -> str:
    items = "".join(f"- [[p{number:03d}]] item *{number}*\n" for number in range(count))
    return f"# Index\n\n{items}\n1. first\n2. second\n\n```\n[[not-a-link]]\n```\n"


def drawn(body: PreparedBody) -> list[str]:
    """The rows `body` is drawn as (its pieces of rows, in order), without their edges."""
    assert body.pieces is not None
    rows = [row for piece in body.pieces if piece.drawing for row in piece.drawing.rows]
    return [row.content.plain.strip() for row in rows]


def test_a_body_is_drawn_as_rows_with_click_actions() -> None:
    long = prepare_body(long_index())
    assert long.pieces is not None and len(long.pieces) == 1  # one piece of rows
    lines = drawn(long)
    assert lines[0] == "Index" and lines[2] == "• p000 item 0"
    assert "1. first" in lines and "[[not-a-link]]" in lines  # code: in its box
    (drawing,) = [piece.drawing for piece in long.pieces if piece.drawing]
    spans = [span for row in drawing.rows for span in row.content.spans]
    metas = [span.style.meta for span in spans if not isinstance(span.style, str)]
    actions = [meta["@click"] for meta in metas if "@click" in meta]
    assert actions[:2] == ["link('okf:p000')", "link('okf:p001')"] and len(actions) == ITEMS
    short = prepare_body("# Home\n\nSee [[alpha]].\n")
    assert drawn(short) == ["Home", "", "See alpha."] and "(<okf:alpha>)" in short.markdown


async def test_a_page_skips_the_markdown_widget_and_its_links_open_pages(tmp_path: Path) -> None:
    pages = {"index.md": long_index(), "p001.md": "# One\n\nBack to [[index]].\n"}
    bundle = write_bundle(tmp_path / "brain", pages)
    app = make_app(brain_for(BundleSource(bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(PagePane)
        assert pane.drawn and pane.shown is not None and pane.shown.slug == "index"
        assert not list(pane.query(Markdown))  # no widget per block, nor the widget itself
        body = pane.query_one(VaultBody)
        assert len(body.children) == 1  # one piece of rows
        panel = app.screen.query_one(TraversalPanel)
        await settle(pilot, until=lambda: panel.filled)
        assert panel.table.row_count == ITEMS
        (piece,) = body.children
        await pilot.click(piece, offset=(3, 3))  # "Index", blank, p000, p001
        await settle(pilot)
        assert app.screen.history.current.slug == "p001"
        assert pane.drawn and not list(pane.query(Markdown))


async def test_highlighting_a_tree_node_shows_the_link_and_its_rule(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(LinkTree)
        tree.focus()
        await pilot.press("down")  # Outgoing → beta
        await settle(pilot)
        assert tree.link_info == "alpha → [[beta]] · rule exact"
        await pilot.press("down")
        await settle(pilot)
        assert tree.link_info == "alpha → [[ghost]] · rule dangling"
        await pilot.press("down", "down")  # Incoming → beta (beta links to alpha)
        await settle(pilot)
        assert tree.link_info == "beta → [[alpha]] · rule exact"


async def test_footer_refreshes_only_when_what_applies_changes(
    small_bundle: Path, tmp_path: Path
) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha", export_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        published: list[object] = []
        screen.bindings_updated_signal.subscribe(screen, published.append)
        await pilot.press("plus")  # depth 2: `-` now applies
        await settle(pilot)
        assert len(published) == 1
        await pilot.press("plus", "d", "e")  # depth 3, direction in: nothing new applies
        await settle(pilot)
        assert len(published) == 1
        assert screen.check_action("shallower", ()) and screen.history.current.depth == 3
        # `e` pressed while the slice was walked saved that slice once it was shown
        assert [path.name for path in tmp_path.glob("okf-*")] == ["okf-alpha-d3-in.json"]


async def test_a_fill_makes_only_the_rows_drawn(tmp_path: Path) -> None:
    """`+` on a big slice: every row is in the table at once, but a row's cells are made
    only when it is drawn (or asked for), so a long slice costs the rows in sight."""
    bundle = write_bundle(tmp_path / "brain", {"index.md": long_index()})
    app = make_app(brain_for(BundleSource(bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(TraversalPanel)
        await settle(pilot, until=lambda: panel.filled)
        made: list[int] = []

        def row(number: int, item: int) -> tuple[str, tuple[str, ...]]:
            made.append(number)
            return f"p{item:03d}", (str(item),) * 4

        panel.table.clear()
        panel.fill(list(range(ITEMS)), row)
        assert panel.filled and panel.table.row_count == ITEMS and made == []
        await settle(pilot)
        in_sight = panel.table.size.height - 1  # under the header
        assert sorted(set(made)) == list(range(in_sight)) and 0 < in_sight < ITEMS
        panel.table.focus()
        await pilot.press("end")
        await settle(pilot)
        assert panel.table.cursor_row == ITEMS - 1 and ITEMS - 1 in made
        assert len(set(made)) == 2 * in_sight  # the first screen and the last
        assert panel.selected_slug == f"p{ITEMS - 1:03d}"
