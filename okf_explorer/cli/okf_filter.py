"""`--status S` / `--min-trust T` on `list`, `links` and `export` (semantics in
`core.okf.filter`): the options, their check, and the filtering of a listing or a walk.

A filter needs each page's frontmatter: over a server (whose listing carries none) the
pages are read once, through the index.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from okf_explorer.cli.usage import UsageError
from okf_explorer.core.okf.filter import (
    FilterError,
    OkfFilter,
    filter_pages,
    filter_walk,
    parse_statuses,
    parse_trust,
)

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.graph.traverse import Edge
    from okf_explorer.core.pages import PageInfo


def add_okf_filter_options(parser: argparse.ArgumentParser, kept: str) -> None:
    """`--status S` (repeatable, or a comma list) and `--min-trust T`."""
    parser.add_argument(
        "--status",
        action="append",
        metavar="S",
        help=f"{kept} of OKF status S (draft, stable, deprecated; absent means stable); "
        "repeatable or a comma list",
    )
    parser.add_argument(
        "--min-trust",
        metavar="T",
        help=f"{kept} of at least trust tier T: unverified < machine-confirmed < human-reviewed",
    )


def okf_filter_of(args: argparse.Namespace) -> OkfFilter:
    """The filter the options ask for; an unknown status or tier is a usage error (exit 2)."""
    try:
        return OkfFilter(parse_statuses(args.status), parse_trust(args.min_trust))
    except FilterError as error:
        raise UsageError(getattr(args, "command_parser", None), str(error)) from None


def filtered_pages(brain: Brain, pages: Sequence[PageInfo], keep: OkfFilter) -> list[PageInfo]:
    """`pages` that pass `keep`, each judged by its indexed frontmatter."""
    if not keep.active:
        return list(pages)
    known = brain.ensure_index().pages
    return filter_pages([known.get(info.slug, info) for info in pages], keep)


def filtered_walk(
    brain: Brain, edges: list[Edge], root: str, depth: int, keep: OkfFilter
) -> list[Edge]:
    """The walk's edges between pages that pass, reached from `root` through them."""
    if not keep.active:
        return edges
    return filter_walk(edges, root, depth, keep, brain.ensure_index().pages)
