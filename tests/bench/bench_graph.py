"""Benchmark: the local graph's layout (`tui/widgets/graph/graph_layout.py`) against a
Sugiyama layout library (grandalf 0.8, `pip install grandalf`; not a dependency).

Run: `python tests/bench/bench_graph.py [FOLDER ROOT DEPTH DIRECTION]…` (default: the
sample brain's `metrics/revenue` at depth 2 both). Not collected by pytest. For each
slice: our layout of the whole slice for a 90 × 20 panel (best and median of 20), and
grandalf's `SugiyamaLayout` (init, layering, ordering, coordinates; best and median of
5) on the same pages and links our drawing keeps (at most 40 pages), which is only
the part before drawing: grandalf gives float positions that still need placing on
cells and routing. Also, for clarity: how many layers grandalf makes, which layer the
root is in (ours: the middle column, pages by hop beside it), and how many of the kept
links span more than one layer (each drawn through dummy nodes).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO))

from okf_explorer.core.brain import Brain  # noqa: E402
from okf_explorer.sources.folder.bundle import BundleSource  # noqa: E402
from okf_explorer.tui.widgets.graph.graph_layout import lay_out  # noqa: E402

SAMPLE = REPO / "okf_explorer" / "sample_brain"


def timed(run, times: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        spent.append((time.perf_counter() - start) * 1000)
    return min(spent), statistics.median(spent)


def grandalf_layout(slugs: list[str], links: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    from grandalf.graphs import Edge as GEdge
    from grandalf.graphs import Graph, Vertex
    from grandalf.layouts import SugiyamaLayout

    class View:
        w, h = 20, 1

    vertices = {slug: Vertex(slug) for slug in slugs}
    for vertex in vertices.values():
        vertex.view = View()
    graph = Graph(list(vertices.values()), [GEdge(vertices[a], vertices[b]) for a, b in links])
    layouts = []
    for component in graph.C:
        layout = SugiyamaLayout(component)
        layout.init_all()
        layout.draw()
        layouts.append(layout)
    return layouts


def bench(folder: Path, root: str, depth: int, direction: str) -> None:
    brain = Brain(BundleSource(folder))
    index = brain.ensure_index()
    edges = brain.traverse(root, depth, direction)  # type: ignore[arg-type]
    exists = index.exists

    def title(slug: str) -> str | None:
        info = index.pages.get(slug)
        return info.title if info is not None else None

    def ours():  # type: ignore[no-untyped-def]
        return lay_out(root, edges, exists, width=90, height=20, title=title)

    layout = ours()
    best, median = timed(ours, 20)
    kept = [node.slug for node in layout.nodes]
    kept_set = set(kept)
    links = sorted(
        {(a, b) for a, b in (_link(e) for e in edges) if a in kept_set and b in kept_set and a != b}
    )
    print(
        f"{folder.name} {root} depth {depth} {direction}: {len(edges)} edges, "
        f"{len(kept)} pages kept, {len(links)} links among them"
    )
    print(
        f"  ours:     best {best:.2f} ms, median {median:.2f} ms "
        f"(columns {min(n.column for n in layout.nodes)}..{max(n.column for n in layout.nodes)}, "
        f"root in column 0; {len(layout.links)} links drawn, {layout.undrawn_links} not)"
    )
    try:
        drawn = grandalf_layout(kept, links)
    except ImportError:
        print("  grandalf: not installed (pip install grandalf)")
        return
    g_best, g_median = timed(lambda: grandalf_layout(kept, links), 5)
    main = next(layout for layout in drawn if any(v.data == root for v in layout.g.sV))
    layers = len(main.layers)
    root_layer = next(
        i
        for i, layer in enumerate(main.layers)
        if any(getattr(v, "data", None) == root for v in layer)
    )
    long = sum(1 for e in main.g.sE if abs(main.grx[e.v[0]].rank - main.grx[e.v[1]].rank) > 1)
    print(
        f"  grandalf: best {g_best:.2f} ms, median {g_median:.2f} ms "
        f"({len(drawn)} components; {layers} layers, root in layer {root_layer}; "
        f"{long} links span layers)"
    )


def _link(edge):  # type: ignore[no-untyped-def]
    return (edge.frm, edge.to) if edge.direction != "in" else (edge.to, edge.frm)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "slices",
        nargs="*",
        metavar="FOLDER ROOT DEPTH DIRECTION",
        help="in fours (default: the sample brain's metrics/revenue, 2, both)",
    )
    args = parser.parse_args().slices or [str(SAMPLE), "metrics/revenue", "2", "both"]
    if len(args) % 4 or not all(depth.isdigit() for depth in args[2::4]):
        parser.error("give FOLDER ROOT DEPTH DIRECTION, in fours, DEPTH a whole number")
    for at in range(0, len(args), 4):
        folder, root, depth, direction = args[at : at + 4]
        bench(Path(folder), root, int(depth), direction)
