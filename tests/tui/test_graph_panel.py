"""The local graph panel (`g`): the slice drawn one page a line, arrows exactly the
edge records, root highlighted, dangling marked, `enter` opens, follows depth."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.graph.graph_panel import (
    MISSING_MARK,
    NODE_CAP,
    GraphPanel,
    back_sources,
    draw_slice,
    fit_line,
    line_label,
)
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_bundle

from .conftest import SIZE, brain_for, settle

PAGES = {
    "hub.md": "# Hub\n\n[[a]] [[b]] [[ghost]] [[hub]]\n",
    "a.md": "# A\n\n[[b]] [[c]]\n",
    "b.md": "# B\n\n[[hub]] [[a]]\n",
    "c.md": "# C\n\n[[d]]\n",
    "d.md": "# D\n\n[[c]]\n",
}


def drawn_edges(lines: list[str]) -> set[tuple[str, str]]:
    """Read the edges back off the drawing: tree edges by indentation, the others from
    each line's `╾` list."""
    edges: set[tuple[str, str]] = set()
    stack: list[str] = []
    for text in lines:
        label = line_label(text)
        depth = (len(text) - len(text.lstrip("│ ╎"))) // 4
        if label is None:
            continue
        slug = label.removeprefix(MISSING_MARK)
        del stack[depth:]
        if stack:
            edges.add((stack[-1], slug))
        stack.append(slug)
        edges.update((src.removeprefix(MISSING_MARK), slug) for src in back_sources(text))
    return edges


def test_drawn_edges_are_exactly_the_edge_records() -> None:
    edges = [
        Edge("r", "a", 1, "out"), Edge("r", "b", 1, "out"), Edge("a", "b", 2, "out"),
        Edge("b", "r", 2, "out"), Edge("a", "a", 2, "out"), Edge("b", "x", 2, "out"),
        Edge("r", "a", 1, "in"),
    ]  # fmt: skip
    drawing = draw_slice("r", edges, lambda slug: slug != "x")
    lines = [line.text for line in drawing.lines]
    assert drawn_edges(lines) == {(e.frm, e.to) for e in edges} == drawing.edges
    [root] = [line for line in drawing.lines if line.root]
    assert root.slug == "r"
    [missing] = [line for line in drawing.lines if not line.exists]
    assert missing.slug == "x" and MISSING_MARK + "x" in missing.text


def test_at_most_forty_pages_then_more() -> None:
    edges = [Edge("hub", f"p{i:02d}", 1, "out") for i in range(60)]
    drawing = draw_slice("hub", edges, lambda slug: True)
    pages = [line.slug for line in drawing.lines if line.slug]
    assert len(pages) == NODE_CAP and pages[0] == "hub"
    assert drawing.more_pages == 60 - (NODE_CAP - 1)
    assert drawing.more_edges == 60 - (NODE_CAP - 1)


def shown_lines(app) -> list[str]:  # type: ignore[no-untyped-def]
    options = app.screen.query_one("#graph-lines", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_g_draws_the_slice_follows_depth_and_opens_pages(tmp_path: Path) -> None:
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", PAGES))), start="hub")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(GraphPanel)
        assert not panel.display
        await pilot.press("g")
        await settle(pilot, until=lambda: panel.drawing is not None)
        assert panel.display
        edges = app.screen.query_one(TraversalPanel).edges
        assert drawn_edges(shown_lines(app)) == {(e.frm, e.to) for e in edges}
        assert any("✗ ghost" in line for line in shown_lines(app))
        assert str(panel.border_title) == "graph · hub · depth 1 · out"
        await pilot.press("plus")
        await settle(pilot, until=lambda: str(panel.border_title).endswith("depth 2 · out"))
        edges = app.screen.query_one(TraversalPanel).edges
        assert drawn_edges(shown_lines(app)) == {(e.frm, e.to) for e in edges}
        assert ("a", "c") in drawn_edges(shown_lines(app))
        options = app.screen.query_one("#graph-lines", OptionList)
        options.focus()
        target = next(i for i, line in enumerate(panel.drawing.lines) if line.slug == "c")
        options.highlighted = target
        await pilot.press("enter")
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.slug == "c")
        await pilot.press("g")
        assert not panel.display


def test_fit_line_keeps_the_file_name() -> None:
    line = "    ├─╼ Getting started/Create a vault ╾ hub, a"
    assert fit_line(line, 60) == line
    assert fit_line(line, 39) == "    ├─╼ Getting started/Create a vault…"
    assert fit_line(line, 30) == "    ├─╼ …/Create a vault…"
    assert fit_line("    └─╼ ✗ Getting started/Ghost page", 26) == "    └─╼ ✗ …/Ghost page"
    assert fit_line("╙── index", 5) == "╙── index"  # no room for a name: the list cuts it


async def test_graph_lines_keep_file_names_at_80_columns(tmp_path: Path) -> None:
    folder = "Getting started with the garden"
    pages = {
        "home.md": f"# Home\n\n[[{folder}/Create a vault]] [[{folder}/Link notes]]\n",
        f"{folder}/Create a vault.md": "# Create\n",
        f"{folder}/Link notes.md": "# Link\n",
    }
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="home")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, until=lambda: app.screen.query_one(TraversalPanel).filled)
        await pilot.press("g")
        panel = app.screen.query_one(GraphPanel)
        await settle(pilot, until=lambda: panel.drawing is not None)
        await settle(pilot)
        options = panel.query_one(OptionList)
        shown = [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]
        assert any(line.endswith("…/Create a vault") for line in shown), shown
        assert any(line.endswith("…/Link notes") for line in shown), shown
