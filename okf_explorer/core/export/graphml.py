"""GraphML exports written a line at a time, the bytes networkx wrote.

The slice used to become a networkx `MultiDiGraph` and then an ElementTree, both held
whole: a slice of 1,000,000 edges took 5.4 GB and 41 s. These lines are the same
document (tests/hostile/test_export_streaming.py holds them to networkx's own
output), and cost an index per edge (8 bytes) beside the node list:

- the attribute keys newest first, as networkx inserts them: `d4` rel, `d3`
  direction, `d2` hop (edge keys only when there are edges), `d1` label, `d0` the
  graph's name;
- nodes in order of first appearance, then edges in networkx's adjacency order:
  grouped by source node in node order, within a source by target (the target
  first linked first), then in traversal order; the graph's name last;
- every text through `printable` (node ids through `reversible`), escaped as
  ElementTree escapes it, and every character beyond ASCII as a decimal character
  reference (networkx serialises to ASCII).

Not a `fast_*` path: streaming is the memory bound itself (docs/limits.md), so
`OKF_EXPLORER_PLAIN=1` does not switch it off; the property test is the proof that
it answers as networkx does. Measured on a 200,000-edge slice, the whole export
(`okf-explorer export -o`, check included): 14.2 s and 1,145 MB peak before, 2.5 s
and 123 MB after (the walk alone: 116 MB).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping, Sequence

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.text_safety import printable, reversible

_HEADER = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
    'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n'
)
_EDGE_KEYS = (
    '  <key id="d4" for="edge" attr.name="rel" attr.type="string" />\n'
    '  <key id="d3" for="edge" attr.name="direction" attr.type="string" />\n'
    '  <key id="d2" for="edge" attr.name="hop" attr.type="long" />\n'
)
_GRAPH_KEYS = (
    '  <key id="d1" for="node" attr.name="label" attr.type="string" />\n'
    '  <key id="d0" for="graph" attr.name="name" attr.type="string" />\n'
    '  <graph edgedefault="directed">\n'
)
_FOOTER = "  </graph>\n</graphml>\n"


def graphml_pieces(
    caption: str, nodes: Mapping[str, int], edges: Sequence[Edge], labels: Mapping[str, str]
) -> Iterator[str]:
    """The document in pieces of a line or a few. `nodes` maps each node to its rank
    (order of first appearance); an `in` edge points the way the link does."""
    yield _HEADER
    if edges:
        yield _EDGE_KEYS
    yield _GRAPH_KEYS
    for node in nodes:
        label = _data("d1", printable(labels.get(node, node)), "      ")
        yield f'    <node id="{_attribute(reversible(node))}">\n{label}    </node>\n'
    for index in adjacency_order(nodes, edges):
        edge = edges[index]
        source, target = _ends(edge)
        yield (
            f'    <edge source="{_attribute(reversible(source))}" '
            f'target="{_attribute(reversible(target))}" id="e{index}">\n'
            + _data("d2", str(edge.hop), "      ")
            + _data("d3", printable(edge.direction), "      ")
            + _data("d4", printable(edge.rel), "      ")
            + "    </edge>\n"
        )
    yield _data("d0", printable(caption), "    ")
    yield _FOOTER


def _ends(edge: Edge) -> tuple[str, str]:
    """(source, target) the way the link points: an `in` record walks it backwards."""
    return (edge.frm, edge.to) if edge.direction == "out" else (edge.to, edge.frm)


def adjacency_order(nodes: Mapping[str, int], edges: Sequence[Edge]) -> Iterator[int]:
    """Edge indices in a networkx `MultiDiGraph`'s order (see the module docstring).

    A counting sort by source rank into one array of indices; a source whose edges
    reach some target twice is regrouped by target (one dict for that source only).
    """
    source_ranks = array("q", (nodes[_ends(edge)[0]] for edge in edges))
    starts = array("q", bytes(8 * (len(nodes) + 1)))
    for rank in source_ranks:
        starts[rank + 1] += 1
    for rank in range(len(nodes)):
        starts[rank + 1] += starts[rank]
    order = array("q", bytes(8 * len(edges)))
    filled = array("q", starts)
    for index, rank in enumerate(source_ranks):
        order[filled[rank]] = index
        filled[rank] += 1
    del filled, source_ranks
    for rank in range(len(nodes)):
        yield from _by_target(order[starts[rank] : starts[rank + 1]], edges)


def _by_target(run: array[int], edges: Sequence[Edge]) -> Iterator[int]:
    """One source's edges (traversal order) grouped by target, first target first."""
    seen: set[str] = set()
    for index in run:
        target = _ends(edges[index])[1]
        if target in seen:
            break
        seen.add(target)
    else:
        yield from run
        return
    seen.clear()
    groups: dict[str, list[int]] = {}
    for index in run:
        groups.setdefault(_ends(edges[index])[1], []).append(index)
    for indices in groups.values():
        yield from indices


def _data(key: str, text: str, indent: str) -> str:
    """A `<data>` element on its own line; empty text makes an empty element, as
    ElementTree writes one."""
    if not text:
        return f'{indent}<data key="{key}" />\n'
    return f'{indent}<data key="{key}">{_ascii(_escape_text(text))}</data>\n'


def _escape_text(text: str) -> str:
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


def _attribute(text: str) -> str:
    text = _escape_text(text)
    if '"' in text:
        text = text.replace('"', "&quot;")
    for char, reference in (("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;")):
        if char in text:
            text = text.replace(char, reference)
    return _ascii(text)


def _ascii(text: str) -> str:
    if text.isascii():
        return text
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")
