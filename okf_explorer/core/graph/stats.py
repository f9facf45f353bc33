"""The whole-graph summary of a brain (`okf-explorer stats`, the TUI's `s` dialog):
counts, hubs, orphans, dead ends and dangling targets of one `LinkIndex`.

The lists are those of `analysis` (same rules: reserved `index`/`log` pages are
left out of orphans and dead ends; self-links and links to missing pages do not
count towards hubs). The counts:

- `pages`: every page listed, readable or not; `reserved`: OKF `index`/`log` pages;
- `links`: resolved forward links, one per page and target (a target written
  twice is one link), self-links and links to missing pages included;
- `dangling_targets`: distinct link targets matching no page;
- `ambiguous_links`: the index's count of links resolved by an ambiguous basename.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from okf_explorer.core.graph import analysis
from okf_explorer.core.index.model import LinkIndex

TOP_HUBS = 10
"""How many hubs each ranking lists."""

COUNT_LABELS = (
    ("pages", "pages"),
    ("readable", "readable"),
    ("unreadable", "unreadable"),
    ("reserved", "reserved"),
    ("links", "links"),
    ("dangling_targets", "dangling targets"),
    ("ambiguous_links", "ambiguous links"),
)
"""(field, label) of each count, in the order every view shows them."""


@dataclass(frozen=True, slots=True)
class BrainStats:
    """Counts and lists of one index; lists in a fixed order (see the fields)."""

    pages: int
    readable: int
    unreadable: int
    reserved: int
    links: int
    dangling_targets: int
    ambiguous_links: int
    hubs_in: tuple[tuple[str, int], ...]
    """(slug, distinct other pages linking to it), most first, ties in slug order."""
    hubs_out: tuple[tuple[str, int], ...]
    """(slug, distinct other existing pages it links to), most first, ties in slug order."""
    orphans: tuple[str, ...]
    """Pages no other page links to, slug order."""
    dead_ends: tuple[str, ...]
    """Readable pages linking to no other existing page, slug order."""
    dangling: tuple[tuple[str, tuple[str, ...]], ...]
    """(missing target, pages linking to it in slug order), targets sorted."""

    def counts(self) -> list[tuple[str, int]]:
        """(label, value) of every count, in `COUNT_LABELS` order."""
        return [(label, getattr(self, name)) for name, label in COUNT_LABELS]

    def to_json(self) -> dict[str, Any]:
        """The `stats --json` object (keys documented in `cli_stats`)."""
        return {
            "counts": {name: getattr(self, name) for name, _ in COUNT_LABELS},
            "hubs": {
                "in": [{"slug": slug, "degree": degree} for slug, degree in self.hubs_in],
                "out": [{"slug": slug, "degree": degree} for slug, degree in self.hubs_out],
            },
            "orphans": list(self.orphans),
            "dead_ends": list(self.dead_ends),
            "dangling": {target: list(froms) for target, froms in self.dangling},
        }


def brain_stats(index: LinkIndex, top: int = TOP_HUBS) -> BrainStats:
    """Everything `BrainStats` holds, computed from `index` (milliseconds for 100k pages)."""
    infos = index.pages.values()
    readable = sum(1 for info in infos if info.readable)
    dangling = analysis.dangling(index)
    return BrainStats(
        pages=len(index.pages),
        readable=readable,
        unreadable=len(index.pages) - readable,
        reserved=sum(1 for info in infos if info.reserved),
        links=sum(len(index.out_slugs(slug)) for slug in index.pages),
        dangling_targets=len(dangling),
        ambiguous_links=index.ambiguous,
        hubs_in=tuple(analysis.hubs(index, top, "in")),
        hubs_out=tuple(analysis.hubs(index, top, "out")),
        orphans=tuple(analysis.orphans(index)),
        dead_ends=tuple(analysis.dead_ends(index)),
        dangling=tuple((target, tuple(froms)) for target, froms in dangling.items()),
    )
