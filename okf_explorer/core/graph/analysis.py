"""Whole-graph questions over a `LinkIndex` (SPEC §4): the networkx store,
shortest paths, orphans, dead ends, dangling targets, hubs, the stats of them all, and
the page to start from.

The analyses read the index's plain dicts directly rather than the networkx
graph: they answer the same questions over the same data, in milliseconds for
100k pages, without paying for building a `MultiDiGraph` first.

What counts as a link here: a link between two *different, existing* pages.
A self-link neither rescues a page from being an orphan nor stops it being a
dead end, and a link to a missing page leads nowhere (those are reported by
`dangling`). OKF reserved pages (`index`, `log`) are left out of `orphans` and
`dead_ends` by default: nothing is expected to link to a folder's `index`, and
a `log` rarely links anywhere, so flagging them would bury the real findings.

`wanted_targets` lists the dangling targets as gbrain's `wanted_pages` does: the
pages that want each, most-referenced first.

`brain_stats` sums it all up (`okf-explorer stats`, the TUI's `s` dialog) as a
`BrainStats`: the lists above (the same rules) and these counts:

- `pages`: every page listed, readable or not; `reserved`: OKF `index`/`log` pages;
- `links`: resolved forward links, one per page and target (a target written
  twice is one link), self-links and links to missing pages included;
- `dangling_targets`: distinct link targets matching no page;
- `ambiguous_links`: the index's count of links resolved by an ambiguous basename.

`choose_start` answers the question a person asks of a brain first: which page to open.
Rules, first match wins (file names compared without case):

1. a root home page: `index`, then `Home`, then a "Start here" page (`00 - Start here`,
   `start-here`: numbering, marks and separators aside), then `README`, then `_index`.
   A vault's "Start here" is written for its readers and links into it; its `README`
   is often written for GitHub and links nowhere inside (obsidian-hub's; a Korean ML
   vault's is a title and a dot, and its plugin-made `Spaces/Home/Home` holds only
   settings): a home page linking to no page of the brain is none once the index
   knows its links (chosen before, then replaced if so), when a page has at least
   `HUB_BACKLINKS` backlinks to start from instead, or a map (rule 3) leads in;
2. a nested home page: `docs/index` first, then a top folder's `index`, `Home`,
   "Start here", `README` or `_index` (in that name order, then slug order). A deeper
   one documents its own folder (a TTRPG vault's `Pathfinder/2E/action-icons/readme`),
   not the brain;
3. a map: the page linking to most pages of the brain, when it links to at least
   `MAP_LINKS` and to more than any page has backlinks (an Italian university vault has
   no home, a note per course listing its 17 to 45 lectures, and lectures linked from 5
   at most: the explorer opened on a lecture, `19 - il meccanismo di lock`), once the
   index knows the links; ties: most backlinks, then slug order;
4. the page with most backlinks (distinct linking pages; ties: the one linking to more
   pages, an overview before a leaf, then slug order), once the index knows them;
5. else the first page in slug order.

It is given the slugs (and the backlink counts when known), never an index, so it
answers from a listing before any index is built. A source whose own settings name its
first page (a Logseq graph's home, `Brain.stated_start`) is opened there instead.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.graph.traverse import LINKS, Direction, check_direction
from okf_explorer.core.index.model import LinkIndex
from okf_explorer.core.port import WantedTarget

if TYPE_CHECKING:
    import networkx as nx

HUB_MEASURES = ("in", "out", "total")


def build_graph(index: LinkIndex) -> nx.MultiDiGraph:
    """The index as a networkx `MultiDiGraph`.

    Nodes: every page in slug order with `title`, `type`, `tags` (tuple),
    `exists` True, `readable`, `reserved`; then every dangling target (sorted)
    with `exists` False, `readable` False and its id as `title`. Edges: one per
    resolved forward link, in page then link order, keyed by the link kind (a
    typed edge by its relation), with `kind` (wiki | embed | markdown), `count`,
    `rule`, `target` (as written) and `rel` (SPEC §5: `links` for a body link).
    An incoming relation (gbrain's `key_people`) points from the page it names
    to the page stating it; one stated from both ends is one edge.
    """
    import networkx as nx  # lazy: networkx costs ~0.5 s of every CLI start

    graph = nx.MultiDiGraph()
    for slug, info in index.pages.items():
        graph.add_node(
            slug,
            title=info.title,
            type=info.type,
            tags=tuple(info.tags),
            exists=True,
            readable=info.readable,
            reserved=info.reserved,
        )
    for node in index.dangling_ids():
        graph.add_node(
            node, title=node, type=None, tags=(), exists=False, readable=False, reserved=False
        )
    for slug, links in index.forward.items():
        for link in links:
            frm, to = (link.to, slug) if link.incoming else (slug, link.to)
            graph.add_edge(
                frm,
                to,
                key=link.kind if link.rel == LINKS else link.rel,
                kind=link.kind,
                count=link.count,
                rule=link.rule,
                target=link.target,
                rel=link.rel,
            )
    return graph


def _out_pages(index: LinkIndex, slug: str) -> list[str]:
    """Distinct existing pages `slug` links to, itself excluded."""
    pages = index.pages
    return [link.to for link in index.forward.get(slug, ()) if link.to != slug and link.to in pages]


def _in_pages(index: LinkIndex, slug: str) -> list[str]:
    """Distinct pages linking to `slug`, itself excluded, slug order."""
    return [frm for frm in index.reverse.get(slug, ()) if frm != slug]


def orphans(index: LinkIndex, include_reserved: bool = False) -> list[str]:
    """Existing pages no other page links to, slug order (reserved pages only on request)."""
    return [
        slug
        for slug, info in index.pages.items()
        if (include_reserved or not info.reserved) and not _in_pages(index, slug)
    ]


def dead_ends(index: LinkIndex, include_reserved: bool = False) -> list[str]:
    """Readable pages with no link to another existing page, slug order.

    Unreadable pages are left out: their links are unknown, not absent.
    """
    return [
        slug
        for slug, info in index.pages.items()
        if info.readable and (include_reserved or not info.reserved) and not _out_pages(index, slug)
    ]


def dangling(index: LinkIndex) -> dict[str, list[str]]:
    """Dangling node id → pages linking to it (slug order); ids sorted."""
    return {node: list(index.reverse.get(node, ())) for node in index.dangling_ids()}


def wanted_targets(index: LinkIndex) -> list[WantedTarget]:
    """Every dangling target with the pages that want it (`dangling`), most-referenced
    first, then by name; each with the relations its links state."""
    found = []
    for node in index.dangling_ids():
        origins = tuple(dict.fromkeys(index.reverse.get(node, ())))
        rels = {
            link.rel
            for origin in origins
            for link in index.forward.get(origin, ())
            if link.to == node
        }
        found.append(WantedTarget(node, len(origins), origins, tuple(sorted(rels))))
    found.sort(key=lambda wanted: (-wanted.referenced_by, wanted.target))
    return found


def hubs(index: LinkIndex, n: int = 10, by: str = "in") -> list[tuple[str, int]]:
    """The `n` best-connected pages as `(slug, degree)`, most first, ties in slug order.

    `by`: `in` (distinct pages linking here), `out` (distinct pages linked to) or
    `total` (their sum). Pages with degree 0 are not hubs and never listed.
    """
    if by not in HUB_MEASURES:
        raise ValueError(f"hubs are measured by in, out or total, not {by!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        return []
    ranked: list[tuple[str, int]] = []
    for slug in index.pages:
        degree = 0
        if by in ("in", "total"):
            degree += len(_in_pages(index, slug))
        if by in ("out", "total"):
            degree += len(_out_pages(index, slug))
        if degree:
            ranked.append((slug, degree))
    ranked.sort(key=lambda item: (-item[1], item[0]))
    return ranked[:n]


def shortest_path(
    index: LinkIndex, frm: str, to: str, direction: Direction = "out"
) -> list[str] | None:
    """The fewest-hop path `[frm, …, to]`, or None when there is none.

    `out` follows links, `in` follows them backwards (who links to whom,
    towards `frm`), `both` ignores their direction. Dangling targets may end a
    path (`to` may be one) but are never passed through, as in `traverse`.
    Among equally short paths the first found wins: neighbours are tried in link
    order (out) and slug order (in), so the answer is reproducible. Raises
    `PageNotFound` when `frm` is not a page or `to` is neither a page nor a
    dangling target.
    """
    direction = check_direction(direction)
    if frm not in index.pages:
        raise PageNotFound(frm)
    if to not in index.pages and to not in index.reverse:
        raise PageNotFound(to)
    if frm == to:
        return [frm]
    step = _stepper(index, direction)
    parent: dict[str, str] = {frm: frm}
    queue = deque([frm])
    while queue:
        node = queue.popleft()
        for other in step(node):
            if other in parent:
                continue
            parent[other] = node
            if other == to:
                return _unwind(parent, to)
            if other in index.pages:
                queue.append(other)
    return None


def _stepper(index: LinkIndex, direction: Direction) -> Callable[[str], list[str]]:
    forward, reverse = index.forward, index.reverse

    def out(node: str) -> list[str]:
        return [link.to for link in forward.get(node, ())]

    def back(node: str) -> list[str]:
        return list(reverse.get(node, ()))

    if direction == "out":
        return out
    if direction == "in":
        return back
    return lambda node: out(node) + back(node)


def _unwind(parent: dict[str, str], end: str) -> list[str]:
    path = [end]
    while parent[path[-1]] != path[-1]:
        path.append(parent[path[-1]])
    path.reverse()
    return path


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
class LookAlike:
    """A missing target that names `page` but for look-alike characters: what it
    `writes` instead of the plain ones (`core.links.look_alikes.differences`)."""

    target: str
    page: str
    writes: tuple[str, ...]


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
    look_alikes: tuple[LookAlike, ...] = ()
    """The missing targets that name a page once their look-alike characters are written
    plainly (`core.links.look_alikes`), in the order of `dangling`; set by `Brain.stats`
    (it needs the resolver)."""

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
            "look_alikes": {
                like.target: {"page": like.page, "writes": list(like.writes)}
                for like in self.look_alikes
            },
        }


def brain_stats(index: LinkIndex, top: int = TOP_HUBS) -> BrainStats:
    """Everything `BrainStats` holds, computed from `index` (milliseconds for 100k pages)."""
    infos = index.pages.values()
    readable = sum(1 for info in infos if info.readable)
    missing = dangling(index)
    return BrainStats(
        pages=len(index.pages),
        readable=readable,
        unreadable=len(index.pages) - readable,
        reserved=sum(1 for info in infos if info.reserved),
        links=sum(len(index.out_slugs(slug)) for slug in index.pages),
        dangling_targets=len(missing),
        ambiguous_links=index.ambiguous,
        hubs_in=tuple(hubs(index, top, "in")),
        hubs_out=tuple(hubs(index, top, "out")),
        orphans=tuple(orphans(index)),
        dead_ends=tuple(dead_ends(index)),
        dangling=tuple((target, tuple(froms)) for target, froms in missing.items()),
    )


# -- the start page ---------------------------------------------------------------

START_HERE = "start here"
HOME_NAMES = ("index", "home", START_HERE, "readme", "_index")
"""Home-page file names (lower case), in order of preference (`START_HERE` matched by
`_bare_name`)."""
DOCS_INDEX = "docs/index"
HUB_BACKLINKS = 5
"""Backlinks that make the page most linked to a better start than a home page linking
nowhere inside (a TTRPG share's README, an awesome list of outside links, stays before
a spell page linked from 3)."""
MAP_LINKS = 20
"""Pages a page links to that make it a map of the brain (rule 3)."""


@dataclass(frozen=True, slots=True)
class StartChoice:
    """The chosen start page and a few words on why (shown in the status line)."""

    slug: str
    rule: str
    provisional: bool = False
    """A home page chosen before the index knew whether it links into the brain."""

    @property
    def final(self) -> bool:
        """False for the stand-in first page, or a home page chosen before the index: the
        index (backlink counts, the home page's links) may still choose another."""
        return self.rule != FIRST_PAGE and not self.provisional


FIRST_PAGE = "first page"


def choose_start(
    slugs: Iterable[str],
    backlinks: Callable[[str], int] | None = None,
    links_out: Callable[[str], int] | None = None,
) -> StartChoice | None:
    """The start page among `slugs` (see the module doc); None for an empty brain.

    `backlinks(slug)` counts the pages linking to `slug`, `links_out(slug)` the pages
    `slug` links to; without them (no index yet) rule 3 is skipped and rule 4 answers,
    its choice not `final`, and a home page is chosen but not `final` either.
    """
    ordered = sorted(slugs)
    if not ordered:
        return None
    hub = _most_backlinks(ordered, backlinks, links_out) if backlinks is not None else None
    brain_map = None
    if hub is not None and backlinks is not None and links_out is not None:
        brain_map = _map(ordered, hub[0], backlinks, links_out)
    homes = [slug for slug in ordered if _home_rank(slug) is not None]
    if links_out is not None and hub is not None and (hub[0] >= HUB_BACKLINKS or brain_map):
        homes = [slug for slug in homes if links_out(slug) > 0]  # no way in: the hub is
    unknown = links_out is None
    root = _best_home(slug for slug in homes if "/" not in slug)
    if root is not None:
        return StartChoice(root, f"root {root}", unknown)
    nested = _nested_home(homes)
    if nested is not None:
        rule = DOCS_INDEX if nested.lower() == DOCS_INDEX else f"nested {_file_name(nested)}"
        return StartChoice(nested, rule, unknown)
    if brain_map is not None:
        return StartChoice(brain_map[1], f"map ({brain_map[0]} links)")
    if hub is not None and hub[0] > 0:
        return StartChoice(hub[1], f"most backlinks ({hub[0]})")
    return StartChoice(ordered[0], FIRST_PAGE)


def _most_backlinks(
    ordered: list[str],
    backlinks: Callable[[str], int],
    links_out: Callable[[str], int] | None = None,
) -> tuple[int, str]:
    """(count, slug) of the page most pages link to; ties: the one linking to more pages
    (when `links_out` is known), then slug order."""
    counts = [(backlinks(slug), slug) for slug in ordered]
    most = max(count for count, _ in counts)
    tied = [slug for count, slug in counts if count == most]
    if links_out is not None and len(tied) > 1:
        return most, min(tied, key=lambda slug: -links_out(slug))  # stable: slug order
    return most, tied[0]


def _map(
    ordered: list[str],
    most_backlinks: int,
    backlinks: Callable[[str], int],
    links_out: Callable[[str], int],
) -> tuple[int, str] | None:
    """(links, slug) of the page linking to most pages, when that makes it a map (rule
    3: at least `MAP_LINKS`, more than `most_backlinks`); ties: most backlinks, slug."""
    best: tuple[int, int, str] | None = None
    for slug in ordered:  # slug order: the first of equals stays
        links = links_out(slug)
        if links >= MAP_LINKS and (best is None or (links, backlinks(slug)) > best[:2]):
            best = (links, backlinks(slug), slug)
    if best is None or best[0] <= most_backlinks:
        return None
    return best[0], best[2]


def _file_name(slug: str) -> str:
    return slug.rsplit("/", 1)[-1]


def _home_rank(slug: str) -> int | None:
    name = _file_name(slug).lower()
    if name in HOME_NAMES:
        return HOME_NAMES.index(name)
    return HOME_NAMES.index(START_HERE) if _bare_name(name) == START_HERE else None


def _bare_name(name: str) -> str:
    """`00 - Start here` → `start here`: leading numbering and marks dropped, `-`/`_` as
    spaces, runs of spaces as one."""
    words = re.sub(r"[-_\s]+", " ", name).strip()
    return re.sub(r"^[\W\d_]+", "", words).strip()


def _best_home(slugs: Iterable[str]) -> str | None:
    """The home page of highest preference; an exact-case `index` beats `Index`."""
    ranked = [
        (rank, slug != "index", slug) for slug in slugs if (rank := _home_rank(slug)) is not None
    ]
    return min(ranked)[2] if ranked else None


def _nested_home(slugs: list[str]) -> str | None:
    docs = [slug for slug in slugs if slug.lower() == DOCS_INDEX]
    if docs:
        return min(docs, key=lambda slug: (slug != DOCS_INDEX, slug))
    ranked = [
        (rank, slug)
        for slug in slugs
        if slug.count("/") == 1 and (rank := _home_rank(slug)) is not None
    ]
    return min(ranked)[1] if ranked else None
