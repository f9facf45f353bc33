"""`okf-explorer path A B`: the k shortest simple paths between two pages (`core.graph.paths`).

Text output, one block per path, shortest first, a blank line between blocks:

    path 1 · 2 hops · via hub tables/orders
      metrics/revenue ─links→ tables/orders  (exact)  "Revenue is … tables/orders …"
      tables/orders ←links─ teams/ops  (exact)  "Orders from tables/orders …"

`─rel→` is a link from the left page to the right one; `←rel─` a hop walked
against the link (the right page links to the left one). In parentheses the
SPEC §3 rule that resolved the link (`, ambiguous` when several pages matched;
`-` when no page states it), then the sentence around it when there is one.

`--json`: a list of `{"path": N, "via_hub": [slugs], "edges": [SPEC §5 edge
records, hop = position along the path], "hops": [{"written_on", "written",
"rule", "ambiguous", "context"}]}`, `hops[i]` explaining `edges[i]`.

No path → exit 1, `no path from A to B (within …the limits…)`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from okf_explorer.cli.arguments import relation_name, whole_number
from okf_explorer.cli.common import emit, note, resolve_name
from okf_explorer.core.graph.paths import (
    DEFAULT_K,
    DEFAULT_MAX_HOPS,
    K_CAP,
    MAX_HOPS_CAP,
    PATH_DIRECTIONS,
    FoundPath,
    PathQuery,
    avoid_of,
)
from okf_explorer.core.text_safety import json_text, printable

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.graph.paths import HopDetail

PATH_HELP = (
    "the k shortest simple paths between two pages, each hop with its relation, "
    "resolution rule and sentence"
)
PATH_EPILOG = (
    "Text: 'path N · H hops[ · via hub SLUG…]', then one line a hop: "
    "'FROM ─rel→ TO  (RULE)  \"sentence\"' ('←rel─': walked against the link). "
    "--json: [{path, via_hub, edges: [OKF edge records, hop = position], hops: "
    "[{written_on, written, rule, ambiguous, context}]}]. Hubs: the top 1 % of pages "
    "by pages linking in (at least 10), and every index page. No path: exit 1."
)


def add_path_parser(parser: argparse.ArgumentParser, slug_help: str) -> None:
    """The arguments of `path` (on the subparser `cli_parser.build_parser` made)."""
    parser.add_argument("frm", metavar="A", help=slug_help)
    parser.add_argument("to", metavar="B", help=slug_help)
    parser.add_argument(
        "--k", type=whole_number, default=DEFAULT_K, metavar="N",
        help=f"how many paths, 1-{K_CAP} (default {DEFAULT_K})",
    )  # fmt: skip
    parser.add_argument(
        "--direction", choices=PATH_DIRECTIONS, default="out",
        help="out: follow links (default); in: follow backlinks; any: either way",
    )  # fmt: skip
    parser.add_argument(
        "--avoid", action="append", default=[], metavar="hubs|reserved|SLUG",
        help="never pass through hubs, OKF reserved pages (index, log) or this page "
        "(repeatable; A and B are kept)",
    )  # fmt: skip
    parser.add_argument(
        "--rel", action="append", type=relation_name, metavar="R",
        help="follow only edges of relation R (repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--max-hops", type=whole_number, default=DEFAULT_MAX_HOPS, metavar="N",
        help=f"list no path longer than N hops, 1-{MAX_HOPS_CAP} (default {DEFAULT_MAX_HOPS})",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="a JSON list of paths")
    parser.epilog = PATH_EPILOG


def run_path(brain: Brain, args: argparse.Namespace) -> int:
    from okf_explorer.core.graph.paths import path_record

    frm, to = resolve_name(brain, args.frm), resolve_name(brain, args.to)
    query = PathQuery(
        frm,
        to,
        k=_clamped("k", args.k, K_CAP),
        direction=args.direction,
        rels=frozenset(args.rel) if args.rel else None,
        avoid=avoid_of(args.avoid, lambda name: resolve_name(brain, name)),
        max_hops=_clamped("max-hops", args.max_hops, MAX_HOPS_CAP),
    )
    if query.rels is not None and (missing := sorted(query.rels - set(brain.relations()))):
        known = ", ".join(brain.relations())
        note(f"no edge has relation {', '.join(missing)} (relations here: {known})")
    paths = brain.explained_paths(query)
    if args.json:
        emit(json_text([path_record(path, details) for path, details in paths], indent=2) + "\n")
    else:
        emit("\n".join(path_block(path, details) for path, details in paths))
    return 0


def _clamped(name: str, value: int, cap: int) -> int:
    clamped = max(1, min(cap, value))
    if clamped != value:
        note(f"--{name} {value} clamped to {clamped} (1 to {cap})")
    return clamped


def path_block(path: FoundPath, details: tuple[HopDetail, ...]) -> str:
    """One path as text (module docstring), ending with a newline."""
    hops = len(path.steps)
    head = f"path {path.number} · {hops} hop{'' if hops == 1 else 's'}"
    if path.via_hub:
        head += " · via hub " + ", ".join(map(printable, path.via_hub))
    lines = [head]
    for step, detail in zip(path.steps, details, strict=True):
        rel = printable(step.rel)
        arrow = f" ─{rel}→ " if step.direction == "out" else f" ←{rel}─ "
        rule = detail.rule or "-"
        if detail.ambiguous:
            rule += ", ambiguous"
        line = f"  {printable(step.frm)}{arrow}{printable(step.to)}  ({rule})"
        if detail.context:
            line += f'  "{printable(detail.context)}"'
        lines.append(line)
    return "\n".join(lines) + "\n"
