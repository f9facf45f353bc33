"""`okf-explorer stats [--json]`: counts, hubs, orphans, dead ends and dangling targets.

Computed from the link index (`core.graph.analysis`): for a folder, its scan; for an MCP
source, a scan of the server's page bodies whether or not the server has a
stored graph (the analyses need dangling targets and link kinds, which a server
graph does not keep). The counts and lists are defined in `core.graph.analysis`.

The text output, exactly: a header of counts, one `label: N` a line

    pages: 57
    readable: 57
    unreadable: 0
    reserved: 11
    links: 388
    dangling targets: 4
    ambiguous links: 1

then five sections, each after one empty line and headed `name (N):` where N
is the number of entries listed:

- `hubs by links in (N):` and `hubs by links out (N):` — the top 10 by distinct
  pages linking in / linked to, one `  DEGREE SLUG` a line (the degree
  right-aligned to the widest of the section), most first, ties in slug order;
- `orphans (N):` and `dead ends (N):` — one `  SLUG` a line, slug order;
- `dangling targets (N):` — each missing target as `  TARGET` (sorted), then
  the pages linking to it as `    SLUG` (slug order).

An empty section is its heading alone. `--json` prints one object:

    {"counts": {"pages", "readable", "unreadable", "reserved", "links",
                "dangling_targets", "ambiguous_links"},      (integers)
     "hubs": {"in": [{"slug", "degree"}, ...], "out": [...]},
     "orphans": [slug, ...], "dead_ends": [slug, ...],
     "dangling": {target: [linking slug, ...], ...}}
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from okf_explorer.core.text_safety import json_text, printable

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.graph.analysis import BrainStats


def run_stats(brain: Brain, args: argparse.Namespace) -> int:
    """Print the brain's stats as text, or as JSON with `--json`."""
    stats = brain.stats()
    text = stats_json(stats) if args.json else stats_text(stats)
    sys.stdout.write(text)  # one write, so a broken pipe stops it cleanly
    return 0


def stats_json(stats: BrainStats) -> str:
    """The `--json` output: one object, then a newline."""
    return json_text(stats.to_json(), indent=2) + "\n"


def stats_text(stats: BrainStats) -> str:
    """The text output described in the module docstring (every line ends in a newline)."""
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
    return "".join(line + "\n" for line in lines)
