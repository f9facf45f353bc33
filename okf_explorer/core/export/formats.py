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
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from okf_explorer.core.atomic import atomic_write, remove_stale_temps
from okf_explorer.core.errors import ExportFailed
from okf_explorer.core.export.check import MalformedExport, check_export_stream
from okf_explorer.core.export.graphml import graphml_pieces
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


def edge_records(edges: Iterable[Edge]) -> list[dict[str, Any]]:
    """SPEC §5 records, in traversal order, with exactly these keys in this order."""
    return [
        {
            "type": "edge",
            "hemisphere": "knowledge",
            "from": edge.frm,
            "to": edge.to,
            "rel": edge.rel,
            "direction": edge.direction,
            "hop": edge.hop,
        }
        for edge in edges
    ]


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
    is not `links`, so a plain bundle renders exactly as before typed edges.
    The bytes are those of `json_text` (JSON, with `indent=2`), and of networkx's
    GraphML writer (`core.export.graphml`), which exports used to call.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if fmt == "json":
        return _json_pieces(edges)
    if fmt == "jsonl":
        return (_JSONL_RECORD.format(*_record_values(edge)) for edge in edges)
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
        yield _JSON_RECORD.format(*_record_values(edge)) + (",\n" if index < last else "\n")
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
        if edge.rel != LINKS:
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
