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
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from okf_explorer.core.atomic import atomic_write
from okf_explorer.core.errors import ExportFailed
from okf_explorer.core.export.check import MalformedExport, check_export
from okf_explorer.core.graph.traverse import LINKS, Edge, clamp_depth
from okf_explorer.core.stale_temps import remove_stale_temps
from okf_explorer.core.text_safety import json_text, printable, reversible

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
    """The slice as text in `fmt` (one of `FORMATS`), ending with a newline.

    `root`, `depth` and `direction` name the slice in the formats that carry a
    title (DOT, GraphML, Mermaid); `titles` (slug → title) labels nodes there.
    JSON and JSON Lines are the bare SPEC §5 records. `depth` is shown clamped,
    as the walk used it. DOT, GraphML and Mermaid draw one arrow per record, the
    way the link points (for an `in` record, from the linking page to the page
    walked from), labelled with its hop. Every format carries the relation:
    GraphML as the `rel` attribute of every edge; DOT (`rel` and `label`
    attributes) and Mermaid (the arrow's label) name it on edges whose relation
    is not `links`, so a plain bundle renders exactly as before typed edges.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if fmt == "json":
        return json_text(edge_records(edges), indent=2) + "\n"
    if fmt == "jsonl":
        lines = (json_text(r) for r in edge_records(edges))
        return "".join(line + "\n" for line in lines)
    caption = f"{root} · depth {clamp_depth(depth)} · {direction}"
    nodes = _nodes(root, edges)
    labels = titles or {}
    if fmt == "dot":
        return _dot(caption, nodes, edges, labels)
    if fmt == "graphml":
        return _graphml(caption, nodes, edges, labels)
    return _mermaid(caption, nodes, edges, labels)


def _nodes(root: str, edges: Iterable[Edge]) -> list[str]:
    """Every node of the slice, in order of first appearance, the root first."""
    seen = dict.fromkeys([root])
    for edge in edges:
        seen.setdefault(edge.frm)
        seen.setdefault(edge.to)
    return list(seen)


def _dot_quote(text: str) -> str:
    """A DOT quoted string, control characters shown as escapes (`printable`)."""
    escaped = printable(text).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _dot_id(slug: str) -> str:
    """A node id: through `reversible`, so distinct slugs stay distinct nodes."""
    return _dot_quote(reversible(slug))


def _dot(caption: str, nodes: list[str], edges: Sequence[Edge], labels: Mapping[str, str]) -> str:
    lines = [
        "digraph okf {",
        f"  label={_dot_quote(caption)};",
        "  labelloc=t;",
        "  node [shape=box];",
    ]
    for node in nodes:
        label = labels.get(node, node)
        lines.append(f"  {_dot_id(node)} [label={_dot_quote(label)}];")
    for edge in edges:
        frm, to, hop, direction = edge
        a, b = (frm, to) if direction == "out" else (to, frm)
        attributes = f"hop={hop}, direction={_dot_quote(direction)}"
        if edge.rel != LINKS:
            attributes += f", rel={_dot_quote(edge.rel)}, label={_dot_quote(edge.rel)}"
        lines.append(f"  {_dot_id(a)} -> {_dot_id(b)} [{attributes}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _graphml(
    caption: str, nodes: list[str], edges: Sequence[Edge], labels: Mapping[str, str]
) -> str:
    """GraphML where each edge points the way the link does (an `in` edge is reversed)."""
    import networkx as nx  # lazy: only GraphML needs it

    graph = nx.MultiDiGraph(name=caption)
    for node in nodes:
        graph.add_node(node, label=labels.get(node, node))
    for index, edge in enumerate(edges):
        frm, to, hop, direction = edge
        a, b = (frm, to) if direction == "out" else (to, frm)
        graph.add_edge(a, b, key=f"e{index}", hop=hop, direction=direction, rel=edge.rel)
    graph = _xml_safe(graph)
    body = "\n".join(nx.generate_graphml(graph, encoding="utf-8", prettyprint=True))
    return '<?xml version="1.0" encoding="utf-8"?>\n' + body + "\n"


def _xml_safe(graph: Any) -> Any:
    """`graph` with node ids through `reversible` and every text attribute through
    `printable`: XML 1.0 cannot hold most control characters, even as references.
    Only the nodes that need it are renamed (a copy, in the same order)."""
    import networkx as nx

    renamed = {node: safe for node in graph if (safe := reversible(node)) != node}
    if renamed:
        graph = nx.relabel_nodes(graph, renamed, copy=True)
    for attributes in (
        graph.graph,
        *(data for _, data in graph.nodes(data=True)),
        *(data for _, _, data in graph.edges(data=True)),
    ):
        for key, value in attributes.items():
            if isinstance(value, str):
                attributes[key] = printable(value)
    return graph


def _mermaid(
    caption: str, nodes: list[str], edges: Sequence[Edge], labels: Mapping[str, str]
) -> str:
    """A Mermaid flowchart; node ids are `n0, n1, …` so any slug is safe, labels quoted."""
    ids = {node: f"n{i}" for i, node in enumerate(nodes)}
    title = _mermaid_text(caption).replace("\\", "\\\\")  # YAML: `\\` is one backslash
    lines = ["---", f'title: "{title}"', "---", "flowchart LR"]
    for node in nodes:
        lines.append(f'  {ids[node]}["{_mermaid_text(labels.get(node, node))}"]')
    for edge in edges:
        frm, to, hop, direction = edge
        a, b = (frm, to) if direction == "out" else (to, frm)
        label = hop if edge.rel == LINKS else f'"{hop} {_mermaid_text(edge.rel)}"'
        lines.append(f"  {ids[a]} -->|{label}| {ids[b]}")
    return "\n".join(lines) + "\n"


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


def write_export(
    path: Path | str,
    text: str,
    *,
    forbidden_root: Path | str | None = None,
    fmt: str = "json",
) -> Path:
    """Write `text` (a `fmt` export) atomically to `path`, verify it, return the path.

    Atomic (see `core.atomic`): readers never see half a file. A symbolic link
    is written through (its target is replaced, the link stays); an existing
    path that is not a regular file (a device, a pipe, a folder) is refused,
    never replaced. A new file gets the usual permissions (`0o666` less the
    umask); an existing one keeps its own. Before it replaces the target, the
    written file is read back, compared byte for byte and parsed as `fmt`
    (`core.export.check`): an export that would not load is never left in
    place of a good one. Any failure raises `ExportFailed` (one sentence)
    and leaves no partial or temporary file behind. A path inside
    `forbidden_root` (the bundle being explored) is refused. Temporary files
    that killed exports left in the folder are removed (`core.stale_temps`).
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
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        raise ExportFailed(f"cannot write {shown}: the {fmt} text is not valid Unicode") from None

    def verify(written: Path) -> None:
        read_back = written.read_bytes()
        if read_back != data:
            raise ExportFailed(f"export to {shown} did not verify: the file differs when read back")
        try:
            check_export(fmt, read_back)
        except MalformedExport as error:
            raise ExportFailed(f"export to {shown} did not verify: {error}") from None

    remove_stale_temps(target)
    try:
        atomic_write(target, data, verify=verify)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise ExportFailed(f"cannot write {shown}: {reason}") from None
    return shown


def _is_inside(target: Path, root: Path) -> bool:
    """True when `target` (resolved through symlinks) lies in `root` (resolved)."""
    real_root = Path(os.path.realpath(root))
    real_target = Path(os.path.realpath(target))
    return real_target == real_root or real_root in real_target.parents
