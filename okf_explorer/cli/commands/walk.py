"""`okf-explorer walk --root … [--depth N] [--min-weight W] [--direction D] [--json]`.

Text: one page a line, by weight (highest first), then hops, then slug:

    WEIGHT <TAB> HOPS <TAB> SLUG <TAB> via PATH

PATH is the best path, root first, each hop written `→(W)` (a link followed) or
`←(W)` (walked against a link: the next page links to the previous one) with
the hop's weight, and its relation before the weight when it is a stated one:
`via a →(0.250) b ←(related_to 1.000) c`. Roots are rows too (weight 1, 0 hops).

`--json`: an array of `{slug, weight, hops, root, path, edges, weights}` per row:
`path` the slugs root first, `edges` the hops as SPEC §5 edge records (`hop`
numbered from the root), `weights[i]` the weight of `edges[i]`.

Roots: slugs or names (resolved like a wiki link), `tag:T`, `type:T`,
repeatable. A root matching nothing exits 1 (`no page`); a minimum weight
outside 0..1 exits 2. See `core.graph.best_paths` and `core.index.weights` for the rules.
"""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING

from okf_explorer.cli.arguments import whole_number
from okf_explorer.cli.common import emit
from okf_explorer.core.graph.best_paths import (
    WALK_DIRECTIONS,
    WalkRow,
    path_text,
    weight_text,
)
from okf_explorer.core.text_safety import json_text, printable

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain

HELP = "best paths from several roots along weighted links, one row per page reached"


def minimum_weight(text: str) -> float:
    """`--min-weight W`: a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, not {text!r}")
    return value


def add_walk_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `walk` (the shared source options come from `cli`)."""
    parser.add_argument(
        "--root",
        action="append",
        required=True,
        metavar="ROOT",
        help="a page (slug or name), tag:T (every page with tag T) or type:T; repeatable",
    )
    parser.add_argument(
        "--depth", type=whole_number, default=3, metavar="N", help="hops, 1-10 (default 3)"
    )
    parser.add_argument(
        "--min-weight",
        type=minimum_weight,
        default=0.0,
        metavar="W",
        help="follow only links weighing at least W, 0-1 (default 0: every link)",
    )
    parser.add_argument("--direction", choices=WALK_DIRECTIONS, default="out", help="default out")
    parser.add_argument("--json", action="store_true", help="a JSON array, one object per row")
    parser.epilog = (
        "A link's weight: 1 for a stated relation (frontmatter, sources); for a body link, "
        "its share of the linking page's link mentions. A path weighs the product of its "
        "links. Text: 'WEIGHT<TAB>HOPS<TAB>SLUG<TAB>via PATH' by weight; --json: "
        "[{slug, weight, hops, root, path, edges, weights}]."
    )


def run_walk(brain: Brain, args: argparse.Namespace) -> int:
    roots = brain.resolve_roots(args.root)
    rows = brain.walk(roots, args.depth, args.min_weight, args.direction)
    if args.json:
        emit(json_text([row.to_json() for row in rows], indent=2) + "\n")
    else:
        emit("".join(row_line(row) for row in rows))
    return 0


def row_line(row: WalkRow) -> str:
    fields = (weight_text(row.weight), str(row.hop_count), row.slug, f"via {path_text(row)}")
    return "\t".join(printable(field) for field in fields) + "\n"
