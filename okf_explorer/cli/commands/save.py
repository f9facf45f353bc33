"""`okf-explorer save SLUG… --as NEW_SLUG`: a slice or a trail saved as a page.

Without `--trail` the SLUGs are the roots of one slice (each walked at
`--depth`/`--direction`/`--rel`, the edges in root order, a repeated edge kept
once); with `--trail` they are the pages of a trail in order, each step the link
followed between two neighbours (`out`, or `in` when only the later page links to
the earlier one), or `jump` when neither links to the other.

Output: `OUTCOME<TAB>SLUG<TAB>WHERE` on stdout for `written`/`unchanged` (exit 0);
any other outcome exits 1 with `okf-explorer: OUTCOME: DETAIL` on stderr. `--json`
prints `{"outcome", "slug", "where", "detail", "attempts", "idempotency_key"}` in
every case (stdout). `--dry-run` prints the page that would be written (with
`--json`: outcome `dry-run` and the `text`), constructs no writer and sends the
brain no request beyond the reads the slice needs.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from okf_explorer import __version__
from okf_explorer.cli.common import emit, resolve_name
from okf_explorer.cli.usage import UsageError
from okf_explorer.core.errors import OkfError
from okf_explorer.core.export.saved_page import (
    SavedGraph,
    compose_page,
    earlier_at,
    idempotency_key,
    slice_graph,
    trail_graph,
)
from okf_explorer.core.graph.trail import TrailMove, generator, iso_now, resolve_steps, trail_edges
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.port import SaveResult
from okf_explorer.core.text_safety import json_text, printable

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain

EXIT_FAILURE = 1


def run_save(brain: Brain, args: argparse.Namespace) -> int:
    """Compose the page, then write it (unless `--dry-run`) and say what happened."""
    from okf_explorer.sources.factory import check_target

    try:
        new_slug = check_target(brain.source, args.new_slug)
    except ValueError as error:
        raise UsageError(args.command_parser, f"--as: {error}") from None
    names = [resolve_name(brain, name) for name in args.slug]
    graph = _trail(brain, names) if args.trail else _slice(brain, names, args)
    index = brain.ensure_index()
    titles = {slug: info.title for slug, info in index.pages.items()}
    key = idempotency_key(graph)
    at = None if args.dry_run else _earlier_at(brain, new_slug, key)
    text = compose_page(
        graph,
        by=generator(__version__),
        at=at or iso_now(),
        titles=titles,
        exists=index.pages.__contains__,
    )
    if args.dry_run:
        if args.json:
            record = {
                "outcome": "dry-run",
                "slug": new_slug,
                "where": None,
                "detail": "",
                "attempts": 0,
                "idempotency_key": key,
                "text": text,
            }
            emit(json_text(record) + "\n")
        else:
            emit(text)
        return 0
    from okf_explorer.sources.factory import writer_for

    result = writer_for(brain.source).write_page(new_slug, text, idempotency_key=key)
    return _report(result, key, as_json=args.json)


def _earlier_at(brain: Brain, slug: str, key: str) -> str | None:
    """The `generated.at` of this very slice saved before at `slug` (one read), else None."""
    try:
        page = brain.source.get_page(slug)
    except OkfError:
        return None
    return earlier_at(page.frontmatter, key)


def _report(result: SaveResult, key: str, *, as_json: bool) -> int:
    if as_json:
        record = {
            "outcome": str(result.outcome),
            "slug": result.slug,
            "where": result.where,
            "detail": result.detail,
            "attempts": result.attempts,
            "idempotency_key": key,
        }
        emit(json_text(record) + "\n")
    elif result.outcome.saved:
        emit(f"{result.outcome}\t{printable(result.slug)}\t{printable(result.where)}\n")
    if result.outcome.saved:
        return 0
    import sys

    sys.stdout.flush()
    sys.stderr.write(f"okf-explorer: {result.outcome}: {printable(result.detail)}\n")
    return EXIT_FAILURE


def _slice(brain: Brain, roots: Sequence[str], args: argparse.Namespace) -> SavedGraph:
    """Every root's walk, in root order, each distinct edge once."""
    seen: set[tuple[str, str, str, str]] = set()
    edges: list[Edge] = []
    for root in roots:
        for edge in brain.traverse(root, args.depth, args.direction, args.rel):
            identity = (edge.frm, edge.to, edge.direction, edge.rel)
            if identity not in seen:
                seen.add(identity)
                edges.append(edge)
    return slice_graph(roots, edges, args.depth, args.direction, args.rel)


def _trail(brain: Brain, pages: Sequence[str]) -> SavedGraph:
    """The pages as a trail: each step the link between neighbours, else a `jump`."""
    moves = [TrailMove(None, pages[0], "start")]
    moves += [TrailMove(frm, to) for frm, to in itertools.pairwise(pages)]
    brain.ensure_index()
    return trail_graph(pages, trail_edges(resolve_steps(moves, brain.link_between)))
