"""Saving a slice or a trail as a page of the brain (issue 13): the page composed, and
the one orchestration every face calls (the CLI's `save`, the explorer's `S`), so they
cannot drift apart.

A face builds the graph (`slice_of`: roots walked; `trail_of`: pages in order; or
`slice_graph` / `trail_graph` from what it already shows), drafts it (`draft_page`: the
text a dry run prints and a preview shows), and hands the draft to `save_draft` with
the brain's `PageWriter` (`sources.factory.writer_for`). The name is checked first
(`check_new_slug`; a writer adds its own rules), then the page at the name is read
once: when it carries this very slice (its idempotency key), its `generated.at` is
reused, so the bytes sent are the earlier page's; otherwise the draft's own bytes are.
The writer's `SaveResult` is the answer: a failure of the brain is an outcome, never an
exception. `save_draft` blocks (a read, then the writer's requests): the explorer runs
it in a worker thread.

The page is an OKF v0.2 concept page, composed purely (`compose_page`: the same
`SavedGraph` and the same `at` give the same bytes):

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
import itertools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Literal
from urllib.parse import quote

from okf_explorer import __version__
from okf_explorer.core.errors import OkfError
from okf_explorer.core.graph.trail import (
    TrailMove,
    generator,
    iso_now,
    resolve_steps,
    trail_edges,
)
from okf_explorer.core.graph.traverse import Direction, Edge, clamp_depth
from okf_explorer.core.pages import RESERVED_NAMES
from okf_explorer.core.text_safety import json_text, printable

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.port import PageWriter, SaveResult


# -- the page -------------------------------------------------------------------

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


# -- saving it ------------------------------------------------------------------


@dataclass(frozen=True)
class PageDraft:
    """A graph composed as a page at time `at`, before it is written.

    `titles` label the links and `exists` tells missing pages apart (both from the
    index the brain had when drafted; None: slugs, every node a page).
    """

    graph: SavedGraph
    at: str
    titles: Mapping[str, str] | None = None
    exists: Callable[[str], bool] | None = None
    by: str = generator(__version__)

    @cached_property
    def key(self) -> str:
        """The idempotency key: the same slice always has the same one."""
        return idempotency_key(self.graph)

    @cached_property
    def text(self) -> str:
        """The page, exactly as it would be written."""
        return compose_page(
            self.graph, by=self.by, at=self.at, titles=self.titles, exists=self.exists
        )

    def dated(self, at: str) -> PageDraft:
        """The same page composed at another time (an earlier save's)."""
        return self if at == self.at else replace(self, at=at)


def draft_page(brain: Brain, graph: SavedGraph, *, at: str | None = None) -> PageDraft:
    """`graph` as a page at `at` (now), its pages named by the titles of the index the
    brain holds (never waits for one: `slice_of` and `trail_of` build it)."""
    index = brain.index
    titles = None if index is None else {slug: info.title for slug, info in index.pages.items()}
    exists = None if index is None else index.pages.__contains__
    return PageDraft(graph, at or iso_now(), titles, exists)


def save_draft(brain: Brain, draft: PageDraft, slug: str, writer: PageWriter) -> SaveResult:
    """Write `draft` as the page `slug` through `writer`; what happened (module doc).

    `ValueError` for a name no brain can take, before anything is read or written.
    """
    name = check_new_slug(slug)
    earlier = _earlier_at(brain, name, draft.key)
    page = draft.dated(earlier) if earlier else draft
    return writer.write_page(name, page.text, idempotency_key=draft.key)


def _earlier_at(brain: Brain, slug: str, key: str) -> str | None:
    """The `generated.at` of this very slice saved before at `slug` (one read), else None."""
    try:
        page = brain.page(slug)
    except OkfError:
        return None
    return earlier_at(page.frontmatter, key)


def slice_of(
    brain: Brain,
    roots: Sequence[str],
    depth: int,
    direction: Direction,
    rels: Sequence[str] | None = None,
) -> SavedGraph:
    """Every root's walk, in root order, each distinct edge once (builds the index, so
    the page can name its pages by title)."""
    seen: set[tuple[str, str, str, str]] = set()
    edges: list[Edge] = []
    for root in roots:
        for edge in brain.traverse(root, depth, direction, rels):
            identity = (edge.frm, edge.to, edge.direction, edge.rel)
            if identity not in seen:
                seen.add(identity)
                edges.append(edge)
    brain.ensure_index()
    return slice_graph(roots, edges, depth, direction, rels)


def trail_of(brain: Brain, pages: Sequence[str]) -> SavedGraph:
    """The pages as a trail: each step the link between neighbours (either way), else a
    `jump` (builds the index, which knows the links)."""
    moves = [TrailMove(None, pages[0], "start")]
    moves += [TrailMove(frm, to) for frm, to in itertools.pairwise(pages)]
    brain.ensure_index()
    return trail_graph(pages, trail_edges(resolve_steps(moves, brain.link_between)))
