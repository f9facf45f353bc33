"""A trail or a slice composed as an OKF v0.2 concept page (issue 13, save).

Pure: the same `SavedGraph` and the same `at` give the same bytes. The page:

- frontmatter `type: Trail` or `type: Slice`, `title`, `description`, and
  `generated: {by, at, idempotency_key, roots, depth, direction, rels}` — the
  walk's parameters live under `generated` (how the page was generated), so the
  page has no key OKF does not define and passes `validate --strict`;
- a body listing every page of the graph as a `/`-absolute Markdown link
  (`[Title](/tables/orders.md)`, OKF's recommended path form, SPEC §3 rule 1;
  characters outside a safe set are percent-encoded), missing pages as plain
  text, then every edge in order, as the link points.

The idempotency key (`idempotency_key`) is `sha256:` + the SHA-256 of a
canonical JSON of (kind, roots, depth, direction, rels, pages, edges) — never
the time — so one slice always has one key, and a writer that finds its key on
the page already there keeps that page's bytes (`unchanged`): `generated.at` is
only new when the content is.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote

from okf_explorer.core.graph.traverse import Edge, clamp_depth
from okf_explorer.core.text_safety import json_text, printable

Kind = Literal["Trail", "Slice"]
_PATH_SAFE = "/-_.~!$&'*+,;=:@"
_KEY_LINE = re.compile(r'^[ \t]*idempotency_key:\s*"?(sha256:[0-9a-f]{64})"?\s*$', re.MULTILINE)


@dataclass(frozen=True, slots=True)
class SavedGraph:
    """What a saved page holds: a slice (roots, depth, direction, rels) or a trail.

    `pages` are the nodes in order of first appearance (roots first; a trail's in
    visit order); `edges` in traversal (or visit) order. A trail has no depth,
    direction or rels.
    """

    kind: Kind
    roots: tuple[str, ...]
    pages: tuple[str, ...]
    edges: tuple[Edge, ...]
    depth: int | None = None
    direction: str | None = None
    rels: tuple[str, ...] | None = None


def slice_graph(
    roots: Sequence[str],
    edges: Sequence[Edge],
    depth: int,
    direction: str,
    rels: Sequence[str] | None = None,
) -> SavedGraph:
    """A (multi-root) slice: the nodes are the roots, then every edge's ends in order."""
    nodes = dict.fromkeys(roots)
    for edge in edges:
        nodes.setdefault(edge.frm)
        nodes.setdefault(edge.to)
    return SavedGraph(
        "Slice",
        tuple(roots),
        tuple(nodes),
        tuple(edges),
        clamp_depth(depth),
        direction,
        None if rels is None else tuple(rels),
    )


def trail_graph(pages: Sequence[str], edges: Sequence[Edge]) -> SavedGraph:
    """A trail: the pages in visit order (each once), its moves as edges."""
    unique = tuple(dict.fromkeys(pages))
    return SavedGraph("Trail", unique[:1], unique, tuple(edges))


def idempotency_key(graph: SavedGraph) -> str:
    """`sha256:<hex>` of the canonical JSON of what the page says (never the time)."""
    canonical = {
        "kind": graph.kind,
        "roots": list(graph.roots),
        "depth": graph.depth,
        "direction": graph.direction,
        "rels": None if graph.rels is None else list(graph.rels),
        "pages": list(graph.pages),
        "edges": [[e.frm, e.to, e.rel, e.direction, e.hop] for e in graph.edges],
    }
    data = json.dumps(canonical, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(data.encode("ascii")).hexdigest()


def saved_key(text: str) -> str | None:
    """The idempotency key a page we saved carries in its frontmatter, else None."""
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---", 3)
    if end < 0:
        return None
    match = _KEY_LINE.search(text[: end + 1])
    return match.group(1) if match else None


def page_title(graph: SavedGraph) -> str:
    """`Slice of ROOT, … (depth N, DIRECTION)` or `Trail from A to B (N pages)`."""
    if graph.kind == "Trail":
        first, last = graph.pages[0], graph.pages[-1]
        count = len(graph.pages)
        return f"Trail from {first} to {last} ({count} page{'s' if count != 1 else ''})"
    rels = f", rel {', '.join(graph.rels)}" if graph.rels else ""
    return f"Slice of {', '.join(graph.roots)} (depth {graph.depth}, {graph.direction}{rels})"


def compose_page(
    graph: SavedGraph,
    *,
    by: str,
    at: str,
    titles: Mapping[str, str] | None = None,
    exists: Callable[[str], bool] | None = None,
) -> str:
    """The page text: frontmatter, then the pages and the edges (see the module doc).

    `titles` (slug → title) label the links; `exists` tells missing pages apart
    (None: every node is a page).
    """
    labels = titles or {}
    present = exists or (lambda _slug: True)
    title = page_title(graph)
    lines = [
        "---",
        f"type: {graph.kind}",
        f"title: {_scalar(title)}",
        f"description: {_scalar(_description(graph))}",
        "generated:",
        f"  by: {_scalar(by)}",
        f"  at: {_scalar(at)}",
        f"  idempotency_key: {_scalar(idempotency_key(graph))}",
        f"  roots: {json_text(list(graph.roots))}",
    ]
    if graph.kind == "Slice":
        lines.append(f"  depth: {graph.depth}")
        lines.append(f"  direction: {_scalar(graph.direction or 'out')}")
        if graph.rels is not None:
            lines.append(f"  rels: {json_text(list(graph.rels))}")
    lines += ["---", "", f"# {_inline(title)}", "", "## Pages", ""]

    def node(slug: str) -> str:
        if present(slug):
            return page_link(slug, labels.get(slug) or slug)
        return f"{_inline(slug)} (missing)"

    lines += [f"- {node(slug)}" for slug in graph.pages]
    lines += ["", "## Edges", ""]
    if not graph.edges:
        lines.append("(none)")
    for edge in graph.edges:
        a, b = (edge.frm, edge.to) if edge.direction == "out" else (edge.to, edge.frm)
        step = "step" if graph.kind == "Trail" else "hop"
        lines.append(f"- {step} {edge.hop}: {node(a)} → {node(b)} · {_inline(edge.rel)}")
    return "\n".join(lines) + "\n"


def page_link(slug: str, label: str) -> str:
    """`[label](/slug.md)`: the `/`-absolute path link OKF recommends."""
    return f"[{_inline(label)}](/{quote(slug, safe=_PATH_SAFE)}.md)"


def _description(graph: SavedGraph) -> str:
    pages, edges = len(graph.pages), len(graph.edges)
    what = "visited in order" if graph.kind == "Trail" else "walked"
    return (
        f"{pages} page{'s' if pages != 1 else ''} and {edges} edge{'s' if edges != 1 else ''} "
        f"{what}, saved by okf-explorer."
    )


def _scalar(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is valid YAML)."""
    return json_text(text)


def _inline(text: str) -> str:
    """Text safe inside a Markdown line and link label: controls escaped, brackets
    and the characters that start links or code backslash-escaped."""
    shown = printable(text)
    return re.sub(r"([\\\[\]`*_<>|#!])", r"\\\1", shown)


RESERVED_NAMES = frozenset({"index", "log"})
MAX_NAME_BYTES = 252
"""The longest path segment a page name may have (UTF-8): `NAME.md` fits 255 bytes."""


def check_new_slug(slug: str) -> str:
    """`slug` as a page to create (a trailing `.md` cut), or `ValueError` saying why not.

    A relative POSIX path of non-empty, non-hidden segments, no `.`/`..`, no
    backslash or control character, each segment at most `MAX_NAME_BYTES` bytes,
    not an OKF reserved file (`index`, `log`).
    """
    name = slug.strip()
    name = name[:-3] if name.endswith(".md") else name
    segments = name.split("/")
    if not name or name.startswith("/") or any(not part for part in segments):
        raise ValueError(f"bad page name {printable(slug)!r}: use a relative path like trails/x")
    if any(part.startswith(".") for part in segments):
        raise ValueError(f"bad page name {printable(slug)!r}: no hidden or ./.. segments")
    if "\\" in name or printable(name) != name:
        raise ValueError(f"bad page name {printable(slug)!r}: no backslash or control character")
    if any(len(part.encode("utf-8")) > MAX_NAME_BYTES for part in segments):
        raise ValueError(
            f"bad page name: a part of it is longer than {MAX_NAME_BYTES} bytes (a file name)"
        )
    if segments[-1].lower() in RESERVED_NAMES:
        raise ValueError(f"bad page name {printable(slug)!r}: index and log are reserved by OKF")
    return name


def earlier_at(frontmatter: Mapping[str, object], key: str) -> str | None:
    """The `generated.at` of a page saved earlier with idempotency key `key`, else None.

    Composing again with that `at` gives the earlier bytes: a writer that compares
    content (a server's `put_page`) then finds the page unchanged. The key is read
    from `generated` or the top level (where a server writer may put it).
    """
    generated = frontmatter.get("generated")
    if not isinstance(generated, Mapping):
        return None
    stated = frontmatter.get("idempotency_key", generated.get("idempotency_key"))
    at = generated.get("at")
    return at if stated == key and isinstance(at, str) else None
