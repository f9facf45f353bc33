"""Saving a slice or a trail as a page of the brain: the one orchestration every face
calls (the CLI's `save`, the explorer's `S`), so they cannot drift apart.

A face builds the graph (`slice_of`: roots walked; `trail_of`: pages in order; or
`saved_page.slice_graph` / `trail_graph` from what it already shows), drafts it
(`draft_page`: the text a dry run prints and a preview shows), and hands the draft to
`save_draft` with the brain's `PageWriter` (`sources.writers.writer_for`). The name
is checked first (`check_new_slug`; a writer adds its own rules), then the page at
the name is read once: when it carries this very slice (its idempotency key), its
`generated.at` is reused, so the bytes sent are the earlier page's; otherwise the
draft's own bytes are. The writer's `SaveResult` is the answer: a failure of the
brain is an outcome, never an exception.

`save_draft` blocks (a read, then the writer's requests): the explorer runs it in a
worker thread.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

from okf_explorer import __version__
from okf_explorer.core.errors import OkfError
from okf_explorer.core.export.saved_page import (
    SavedGraph,
    check_new_slug,
    compose_page,
    earlier_at,
    idempotency_key,
    slice_graph,
    trail_graph,
)
from okf_explorer.core.graph.trail import (
    TrailMove,
    generator,
    iso_now,
    resolve_steps,
    trail_edges,
)
from okf_explorer.core.graph.traverse import Direction, Edge

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.port import PageWriter, SaveResult


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
