"""Exports of a traversal slice (SPEC §5): OKF edge records as JSON (the
default), JSON Lines, Graphviz DOT, GraphML and Mermaid, and a safe writer.

Every format is deterministic: the same slice renders to the same bytes, so a
repeated export can be diffed or checked into git. Nodes appear in order of
first appearance in the edges (the root first), edges in traversal order.

Every format is valid whatever the slugs and titles hold (see
`core.text_safety`): JSON keeps names exact, with control, bidi and separator
characters as `\\uNNNN` escapes; DOT, GraphML and Mermaid show them as visible
escapes (`\\x1b`), node ids through `reversible` so distinct slugs stay
distinct nodes (XML 1.0 cannot hold most C0 characters even as references).

Exports stream: each format is rendered a record at a time (`render_pieces`),
written in blocks, and read back and parsed in blocks (`core.export.check`), so
exporting a slice costs little beyond its edges whatever its size (a 1,000,000-edge
slice used to take 2.1 GB as JSON, 5.4 GB as GraphML).

GraphML is written a line at a time, the bytes networkx wrote (`graphml_pieces`).
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

import contextlib
import hashlib
import os
import re
import stat
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from okf_explorer.core.atomic import atomic_write, remove_stale_temps
from okf_explorer.core.errors import ExportFailed
from okf_explorer.core.export.check import MalformedExport, check_export_stream
from okf_explorer.core.graph.traverse import LINKS, Edge, clamp_depth
from okf_explorer.core.text_safety import json_string, json_text, printable, reversible

FORMATS: tuple[str, ...] = ("json", "jsonl", "dot", "graphml", "mermaid")
EXTENSIONS: dict[str, str] = {
    "json": "json",
    "jsonl": "jsonl",
    "dot": "dot",
    "graphml": "graphml",
    "mermaid": "mmd",
}


def render(
    edges: Sequence[Edge],
    fmt: str = "json",
    *,
    root: str,
    depth: int,
    direction: str,
    titles: Mapping[str, str] | None = None,
) -> str:
    """The slice as text in `fmt` (one of `FORMATS`), ending with a newline: the
    pieces of `render_pieces` joined (for small slices and tests)."""
    pieces = render_pieces(edges, fmt, root=root, depth=depth, direction=direction, titles=titles)
    return "".join(pieces)


def render_pieces(
    edges: Sequence[Edge],
    fmt: str = "json",
    *,
    root: str,
    depth: int,
    direction: str,
    titles: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """The slice in `fmt` (one of `FORMATS`) as a stream of text pieces, a record or
    a node at a time, so an export holds no more than the walk's edges and the node
    list (DOT, GraphML and Mermaid name every node before the edges).

    `root`, `depth` and `direction` name the slice in the formats that carry a
    title (DOT, GraphML, Mermaid); `titles` (slug → title) labels nodes there.
    JSON and JSON Lines are the bare SPEC §5 records. `depth` is shown clamped,
    as the walk used it. DOT, GraphML and Mermaid draw one arrow per record, the
    way the link points (for an `in` record, from the linking page to the page
    walked from), labelled with its hop. Every format carries the relation:
    GraphML as the `rel` attribute of every edge; DOT (`rel` and `label`
    attributes) and Mermaid (the arrow's label) name it on edges whose relation
    is not `links`, so a plain bundle renders exactly as before typed edges. An
    implied edge (only in a walk that asked for them, `core.graph.implied`) is marked
    in every format: `"implied": true` last in its JSON record, `(implied)` after its
    relation and a dashed line in DOT and Mermaid, an `implied` attribute in GraphML
    (declared only when the slice holds one).
    The bytes are those of `json_text` (JSON, with `indent=2`), and of networkx's
    GraphML writer (`graphml_pieces`), which exports used to call.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if fmt == "json":
        return _json_pieces(edges)
    if fmt == "jsonl":
        return (_jsonl_record(edge) for edge in edges)
    caption = f"{root} · depth {clamp_depth(depth)} · {direction}"
    nodes = _nodes(root, edges)
    labels = titles or {}
    if fmt == "dot":
        return _dot(caption, nodes, edges, labels)
    if fmt == "graphml":
        return graphml_pieces(caption, nodes, edges, labels)
    return _mermaid(caption, nodes, edges, labels)


_JSON_RECORD = (
    '  {{\n    "type": "edge",\n    "hemisphere": "knowledge",\n    "from": {},\n'
    '    "to": {},\n    "rel": {},\n    "direction": {},\n    "hop": {}\n  }}'
)
_JSONL_RECORD = (
    '{{"type": "edge", "hemisphere": "knowledge", "from": {}, "to": {}, "rel": {}, '
    '"direction": {}, "hop": {}}}\n'
)


_IMPLIED = ',\n    "implied": true\n  }'


def _json_record(edge: Edge) -> str:
    record = _JSON_RECORD.format(*_record_values(edge))
    return record[:-4] + _IMPLIED if edge.implied else record


def _jsonl_record(edge: Edge) -> str:
    record = _JSONL_RECORD.format(*_record_values(edge))
    return record[:-2] + ', "implied": true}\n' if edge.implied else record


def _record_values(edge: Edge) -> tuple[str, str, str, str, str]:
    """The JSON texts of an edge record's values (`edge_records`' keys, in order)."""
    hop = edge.hop
    number = str(hop) if type(hop) is int else json_text(hop)
    return (
        json_string(edge.frm),
        json_string(edge.to),
        json_string(edge.rel),
        json_string(edge.direction),
        number,
    )


def _json_pieces(edges: Sequence[Edge]) -> Iterator[str]:
    """`json_text(edge_records(edges), indent=2)` and a newline, a record at a time."""
    if not edges:
        yield "[]\n"
        return
    yield "[\n"
    last = len(edges) - 1
    for index, edge in enumerate(edges):
        yield _json_record(edge) + (",\n" if index < last else "\n")
    yield "]\n"


def _nodes(root: str, edges: Iterable[Edge]) -> dict[str, int]:
    """Every node of the slice with its rank, in order of first appearance, the root
    first."""
    ranks = {root: 0}
    for edge in edges:
        if edge.frm not in ranks:
            ranks[edge.frm] = len(ranks)
        if edge.to not in ranks:
            ranks[edge.to] = len(ranks)
    return ranks


def _dot_quote(text: str) -> str:
    """A DOT quoted string, control characters shown as escapes (`printable`)."""
    escaped = printable(text).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _dot_id(slug: str) -> str:
    """A node id: through `reversible`, so distinct slugs stay distinct nodes."""
    return _dot_quote(reversible(slug))


def _dot(
    caption: str, nodes: Iterable[str], edges: Sequence[Edge], labels: Mapping[str, str]
) -> Iterator[str]:
    yield f"digraph okf {{\n  label={_dot_quote(caption)};\n  labelloc=t;\n  node [shape=box];\n"
    for node in nodes:
        label = labels.get(node, node)
        yield f"  {_dot_id(node)} [label={_dot_quote(label)}];\n"
    for edge in edges:
        frm, to, hop, direction = edge
        a, b = (frm, to) if direction == "out" else (to, frm)
        attributes = f"hop={hop}, direction={_dot_quote(direction)}"
        if edge.implied:
            label = _dot_quote(f"{edge.rel} (implied)")
            attributes += f", rel={_dot_quote(edge.rel)}, label={label}, style=dashed"
        elif edge.rel != LINKS:
            attributes += f", rel={_dot_quote(edge.rel)}, label={_dot_quote(edge.rel)}"
        yield f"  {_dot_id(a)} -> {_dot_id(b)} [{attributes}];\n"
    yield "}\n"


def _mermaid(
    caption: str, nodes: Mapping[str, int], edges: Sequence[Edge], labels: Mapping[str, str]
) -> Iterator[str]:
    """A Mermaid flowchart; node ids are `n0, n1, …` (the node's rank) so any slug is
    safe, labels quoted."""
    title = _mermaid_text(caption).replace("\\", "\\\\")  # YAML: `\\` is one backslash
    yield f'---\ntitle: "{title}"\n---\nflowchart LR\n'
    for node, rank in nodes.items():
        yield f'  n{rank}["{_mermaid_text(labels.get(node, node))}"]\n'
    for edge in edges:
        frm, to, hop, direction = edge
        a, b = (frm, to) if direction == "out" else (to, frm)
        if edge.implied:
            label = f'"{hop} {_mermaid_text(edge.rel)} (implied)"'
            yield f"  n{nodes[a]} -.->|{label}| n{nodes[b]}\n"
            continue
        label = hop if edge.rel == LINKS else f'"{hop} {_mermaid_text(edge.rel)}"'
        yield f"  n{nodes[a]} -->|{label}| n{nodes[b]}\n"


def _mermaid_text(text: str) -> str:
    """Mermaid has no escape for `"` inside labels but accepts HTML entities."""
    return (
        printable(text)
        .replace("&", "&amp;")
        .replace('"', "&quot;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
    )


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
_IMPLIED_KEY = '  <key id="d5" for="edge" attr.name="implied" attr.type="boolean" />\n'
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
    implied = any(edge.implied for edge in edges)
    if implied:
        yield _IMPLIED_KEY
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
            + (_data("d5", "true", "      ") if implied and edge.implied else "")
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


_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def default_export_name(root: str, depth: int, direction: str, fmt: str = "json") -> str:
    """A predictable file name: `okf-tables_orders-d2-both.json`.

    `/` becomes `_`, any other character outside `A-Za-z0-9._-` becomes `-`, and
    leading dots are dropped, so the name is safe on every file system; the
    depth is clamped as the walk clamps it.
    """
    stem = _UNSAFE_NAME.sub("-", root.replace("/", "_")).strip(".-") or "page"
    extension = EXTENSIONS.get(fmt, fmt)
    way = _UNSAFE_NAME.sub("-", str(direction))
    return f"okf-{stem[:120]}-d{clamp_depth(depth)}-{way}.{extension}"


WRITE_BLOCK = 1 << 16
"""Characters of rendered text encoded and written at a time."""
READ_BLOCK = 1 << 20
"""Bytes read back at a time by the check."""


def write_export(
    path: Path | str,
    text: str | Iterable[str],
    *,
    forbidden_root: Path | str | None = None,
    fmt: str = "json",
) -> Path:
    """Write `text` (a `fmt` export, whole or as `render_pieces`) atomically to
    `path`, verify it, return the path.

    Atomic (see `core.atomic`): readers never see half a file. A symbolic link
    is written through (its target is replaced, the link stays); an existing
    path that is not a regular file (a device, a pipe, a folder) is refused,
    never replaced. A new file gets the usual permissions (`0o666` less the
    umask); an existing one keeps its own. Before it replaces the target, the
    written file is read back, compared with what was written (a SHA-256 of the
    bytes, both ways) and parsed as `fmt` (`core.export.check`), in blocks: an
    export that would not load is never left in place of a good one. Any failure
    raises `ExportFailed` (one sentence) and leaves no partial or temporary file
    behind. A path inside `forbidden_root` (the bundle being explored) is refused.
    Temporary files that killed exports left in the folder are removed
    (`core.atomic`).
    """
    shown = Path(path).expanduser().absolute()
    target = Path(os.path.realpath(shown))
    if forbidden_root is not None and _is_inside(target, Path(forbidden_root)):
        raise ExportFailed(f"refusing to write {shown} inside the bundle {forbidden_root}")
    if not target.parent.is_dir():
        raise ExportFailed(f"cannot write {shown}: folder {target.parent} does not exist")
    with contextlib.suppress(FileNotFoundError):
        if not stat.S_ISREG(target.stat().st_mode):
            raise ExportFailed(
                f"cannot write {shown}: it exists and is not a regular file "
                "(leave out -o to write to standard output)"
            )
    written = hashlib.sha256()

    def blocks() -> Iterator[bytes]:
        for block in text_blocks([text] if isinstance(text, str) else text):
            try:
                data = block.encode("utf-8")
            except UnicodeEncodeError:
                raise ExportFailed(
                    f"cannot write {shown}: the {fmt} text is not valid Unicode"
                ) from None
            written.update(data)
            yield data

    def verify(temp: Path) -> None:
        read = hashlib.sha256()

        def read_blocks() -> Iterator[bytes]:
            for block in read_back(temp):
                read.update(block)
                yield block

        problem = None
        source = read_blocks()
        try:
            check_export_stream(fmt, source)
        except MalformedExport as error:
            problem = str(error)
            for _ in source:  # the rest, to tell a changed file from a bad one
                pass
        if read.digest() != written.digest():
            raise ExportFailed(f"export to {shown} did not verify: the file differs when read back")
        if problem is not None:
            raise ExportFailed(f"export to {shown} did not verify: {problem}")

    remove_stale_temps(target)
    try:
        atomic_write(target, blocks(), verify=verify)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise ExportFailed(f"cannot write {shown}: {reason}") from None
    return shown


def text_blocks(pieces: Iterable[str], size: int = WRITE_BLOCK) -> Iterator[str]:
    """`pieces` joined into blocks of about `size` characters (one write each)."""
    batch: list[str] = []
    held = 0
    for piece in pieces:
        batch.append(piece)
        held += len(piece)
        if held >= size:
            yield "".join(batch)
            batch, held = [], 0
    if batch:
        yield "".join(batch)


def read_back(path: Path) -> Iterator[bytes]:
    """The bytes of a written export, in blocks of `READ_BLOCK`."""
    with path.open("rb") as handle:
        while block := handle.read(READ_BLOCK):
            yield block


def _is_inside(target: Path, root: Path) -> bool:
    """True when `target` (resolved through symlinks) lies in `root` (resolved)."""
    real_root = Path(os.path.realpath(root))
    real_target = Path(os.path.realpath(target))
    return real_target == real_root or real_root in real_target.parents
