"""`okf-explorer stats | path | walk`: the shape of the graph, the paths between two
pages, and the best paths from several roots. Each prints what one core entry point
answers (`Brain.stats`, `core.graph.path_hops.explained_paths`,
`core.graph.best_paths.walk`), the same the explorer shows.

## stats

`okf-explorer stats [--json]`: counts, hubs, orphans, dead ends and dangling targets.

Computed from the link index (`core.graph.stats`): for a folder, its scan; for an MCP
source, a scan of the server's page bodies whether or not the server has a
stored graph (the analyses need dangling targets and link kinds, which a server
graph does not keep). The counts and lists are defined in `core.graph.stats`.

The text output, exactly: a header of counts, one `label: N` a line

    pages: 57
    readable: 57
    unreadable: 0
    reserved: 11
    links: 388
    dangling targets: 4
    ambiguous links: 1

then six sections, each after one empty line and headed `name (N):` where N
is the number of entries listed:

- `hubs by links in (N):` and `hubs by links out (N):` — the top 10 by distinct
  pages linking in / linked to, one `  DEGREE SLUG` a line (the degree
  right-aligned to the widest of the section), most first, ties in slug order;
- `orphans (N):` and `dead ends (N):` — one `  SLUG` a line, slug order;
- `dangling targets (N):` — each missing target as `  TARGET` (sorted), then
  the pages linking to it as `    SLUG` (slug order);
- `dangling targets that look like pages (N):` — each missing target that names a
  page once its look-alike characters are written plainly (`core.links.look_alikes`),
  as `  TARGET → SLUG  (U+2011 NON-BREAKING HYPHEN for "-")`, in the order above.

An empty section is its heading alone. `--json` prints one object:

    {"counts": {"pages", "readable", "unreadable", "reserved", "links",
                "dangling_targets", "ambiguous_links"},      (integers)
     "hubs": {"in": [{"slug", "degree"}, ...], "out": [...]},
     "orphans": [slug, ...], "dead_ends": [slug, ...],
     "dangling": {target: [linking slug, ...], ...},
     "look_alikes": {target: {"page": slug, "writes": [difference, ...]}, ...}}

## path

`okf-explorer path A B`: the k shortest simple paths between two pages (`core.graph.paths`).

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

## walk

`okf-explorer walk --root … [--depth N] [--min-weight W] [--direction D] [--rel R]…
[--json]`. `--rel R` (repeatable) follows only edges of those relations (a note on
stderr names one no edge has).

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
outside 0..1 exits 2. See `core.graph.best_paths` for the rules.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from okf_explorer.cli.commands import note_unknown_relations, resolve_name
from okf_explorer.cli.reporting import emit, note
from okf_explorer.core.graph.best_paths import WalkRow, path_text, weight_text
from okf_explorer.core.graph.paths import K_CAP, MAX_HOPS_CAP, FoundPath, PathQuery, avoid_of
from okf_explorer.core.graph.shape import splits_text
from okf_explorer.core.text_safety import json_text, printable

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.graph.analysis import BrainStats
    from okf_explorer.core.graph.paths import HopDetail
    from okf_explorer.core.graph.shape import GraphShape


# --- stats -------------------------------------------------------------------------


def run_stats(brain: Brain, args: argparse.Namespace) -> int:
    """Print the brain's stats as text, or as JSON with `--json`."""
    stats = brain.stats()
    emit(stats_json(stats) if args.json else stats_text(stats))
    return 0


def stats_json(stats: BrainStats) -> str:
    """The `--json` output: one object, then a newline."""
    return json_text(stats.to_json(), indent=2) + "\n"


def stats_text(stats: BrainStats) -> str:
    """The text output described above (every line ends in a newline)."""
    lines = [f"{label}: {value}" for label, value in stats.counts()]
    rankings = (("hubs by links in", stats.hubs_in), ("hubs by links out", stats.hubs_out))
    for heading, hubs in rankings:
        width = max((len(str(degree)) for _, degree in hubs), default=0)
        lines += ["", f"{heading} ({len(hubs)}):"]
        lines += [f"  {degree:>{width}} {printable(slug)}" for slug, degree in hubs]
    for heading, slugs in (("orphans", stats.orphans), ("dead ends", stats.dead_ends)):
        lines += ["", f"{heading} ({len(slugs)}):"]
        lines += [f"  {printable(slug)}" for slug in slugs]
    lines += ["", f"dangling targets ({len(stats.dangling)}):"]
    for target, froms in stats.dangling:
        lines.append(f"  {printable(target)}")
        lines += [f"    {printable(slug)}" for slug in froms]
    lines += ["", f"dangling targets that look like pages ({len(stats.look_alikes)}):"]
    for like in stats.look_alikes:
        writes = ", ".join(like.writes)
        lines.append(f"  {printable(like.target)} → {printable(like.page)}  ({writes})")
    return "".join(line + "\n" for line in lines)


# --- analyze -----------------------------------------------------------------------


def run_analyze(brain: Brain, args: argparse.Namespace) -> int:
    """Print the graph's shape as text, or as JSON with `--json`."""
    shape = brain.analyze(args.top)
    emit(json_text(shape.to_json(), indent=2) + "\n" if args.json else analyze_text(shape))
    return 0


def analyze_text(shape: GraphShape) -> str:
    """The text output described above (every line ends in a newline)."""
    lines = [f"communities ({len(shape.communities)}):"]
    id_width = max((len(str(c.id)) for c in shape.communities), default=0)
    size_width = max((len(str(c.size)) for c in shape.communities), default=0)
    lines += [
        f"  {c.id:>{id_width}} {c.size:>{size_width}} pages  {printable(c.label)}"
        for c in shape.communities
    ]
    lines += ["", f"central pages ({len(shape.central)}):"]
    degree_width = max((len(str(c.in_degree)) for c in shape.central), default=0)
    lines += [
        f"  {c.pagerank:.4f} {c.in_degree:>{degree_width}} {printable(c.slug)}"
        for c in shape.central
    ]
    lines += ["", f"bridges ({len(shape.bridges)}):"]
    lines += [f"  {printable(b.slug)}  splits {splits_text(b.splits)}" for b in shape.bridges]
    lines += ["", f"bridge edges ({len(shape.bridge_edges)}):"]
    lines += [f"  {printable(e.frm)} → {printable(e.to)}" for e in shape.bridge_edges]
    lines += ["", f"suggested links ({len(shape.suggested)}):"]
    lines += [
        f"  {s.score:.3f} {printable(s.frm)} → {printable(s.to)}  ({printable(s.reason)})"
        for s in shape.suggested
    ]
    return "".join(line + "\n" for line in lines)


# --- path --------------------------------------------------------------------------


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
    if query.rels is not None:
        note_unknown_relations(brain, sorted(query.rels))
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
    """One path as text (described above), ending with a newline."""
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


# --- walk --------------------------------------------------------------------------


def run_walk(brain: Brain, args: argparse.Namespace) -> int:
    roots = brain.resolve_roots(args.root)
    rels = args.rel or None
    if rels is not None:
        note_unknown_relations(brain, rels)
    rows = brain.walk(roots, args.depth, args.min_weight, args.direction, rels, args.implied)
    if args.json:
        emit(json_text([row.to_json() for row in rows], indent=2) + "\n")
    else:
        emit("".join(row_line(row) for row in rows))
    return 0


def row_line(row: WalkRow) -> str:
    fields = (weight_text(row.weight), str(row.hop_count), row.slug, f"via {path_text(row)}")
    return "\t".join(printable(field) for field in fields) + "\n"
