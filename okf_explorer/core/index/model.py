"""The link index's records: `ResolvedLink`, `LinkIndex` and what a build may reuse.

Building (`core.index.build`) and caching (`core.index.store`) both import this module
and it imports neither. Each stored record owns its row: `ResolvedLink.to_row()` /
`from_row()` (as `RawLink` and `PageInfo` do), and only they know the positions.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, NamedTuple

from okf_explorer.core.links import LinkKind, ResolveRule, SlugResolver
from okf_explorer.core.links.grammar import RawTuple
from okf_explorer.core.links.typed import LINKS
from okf_explorer.core.pages import PageInfo

ResolvedRow = tuple[str, str, LinkKind, ResolveRule, int, bool, tuple[str, ...], str, bool]
"""A `ResolvedLink` as plain values (`ResolvedLink.to_row`)."""

WRITTEN: dict[str, str] = {"wiki": "[[{}]]", "embed": "![[{}]]", "markdown": "({})"}
"""How a link of each kind is written: `[[t]]` wiki, `![[t]]` embed, `(t)` Markdown
(`ResolvedLink.written`: the WRITTEN field of `links --explain`, a path hop's detail,
the explorer's link subtitles)."""


@dataclass(frozen=True, slots=True)
class ResolvedLink:
    """One forward link of a page after resolution.

    `to` is the target slug, or the dangling node id when `rule == "dangling"`.
    `rule` records why the two pages are linked (shown by the UI); when several
    pages matched at that rule, `ambiguous` is True and `candidates` lists them
    all, `to` first (SPEC §3). `rel` is the relation (`links` for a body link);
    `incoming` marks a relation stated from the target's side, so the edge runs
    `to` → this page (see `RawLink`).

    `to_row` / `from_row` give every field as one plain tuple, in field order:
    the shape the index builds and the disk cache stores.
    """

    target: str
    to: str
    kind: LinkKind
    rule: ResolveRule
    count: int = 1
    ambiguous: bool = False
    candidates: tuple[str, ...] = ()
    rel: str = LINKS
    incoming: bool = False

    @property
    def exists(self) -> bool:
        return self.rule != "dangling"

    @property
    def written(self) -> str:
        """The target as written, in its kind's syntax (`WRITTEN`)."""
        return WRITTEN.get(self.kind, "{}").format(self.target)

    def to_row(self) -> ResolvedRow:
        """Every field as a plain tuple, in field order (see `from_row`)."""
        return _row_of(self)

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> ResolvedLink:
        """The inverse of `to_row`; a row of another length raises `ValueError`."""
        if len(row) != RESOLVED_LINK_ROW_LENGTH:
            _wrong_length(row)
        return cls(*row)

    @staticmethod
    def to_rows(links: Iterable[ResolvedLink]) -> tuple[ResolvedRow, ...]:
        """`to_row` of each link (one call for a page's links)."""
        return tuple(map(_row_of, links))

    @classmethod
    def from_rows(cls, rows: Iterable[Sequence[Any]]) -> tuple[ResolvedLink, ...]:
        """`from_row` of each row (one call for a page's links)."""
        size = RESOLVED_LINK_ROW_LENGTH
        return tuple([cls(*row) for row in rows if len(row) == size or _wrong_length(row)])


RESOLVED_LINK_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(ResolvedLink))
"""The field names of `ResolvedLink`, in row order."""
RESOLVED_LINK_ROW_LENGTH = len(RESOLVED_LINK_FIELDS)
RESOLVED_COUNT_AT = RESOLVED_LINK_FIELDS.index("count")
"""Where `count` sits in a row (the build sums it over targets that meet at one node)."""
_row_of = attrgetter(*RESOLVED_LINK_FIELDS)


def _wrong_length(row: Sequence[Any]) -> bool:
    raise ValueError(f"a ResolvedLink row has {RESOLVED_LINK_ROW_LENGTH} fields, not {len(row)}")


@dataclass(slots=True)
class LinkIndex:
    """The parsed corpus.

    - `pages`: slug → PageInfo, in slug order (every page, readable or not).
    - `forward`: slug → resolved links in order of first appearance,
      de-duplicated after resolution (unreadable pages map to `()`).
    - `reverse`: node (slug or dangling id) → slugs of pages linking to it,
      in slug order, once per relation (once for a plain bundle).
    - `ambiguous`: how many forward links (after de-duplication) resolved by an
      ambiguous basename.
    - `raw_links`: slug → the page's raw links as parsed, `RawLink.to_row()`
      tuples (cheap to hold and to cache), kept so a refresh can re-resolve
      without re-reading files when pages come or go.
    - `targets`: slug → the nodes each of the page's edges leads to (what walks
      follow): its own outgoing links, then the pages that state an incoming
      relation to it; a node repeats when reached by several relations.
    - `out_rels` / `in_rels`: the relation of each entry of `targets[slug]` /
      `reverse[node]`, aligned; only for entries that hold a relation other
      than `links` (a plain bundle has none: absent means all `links`).
    - `signature`: identifies the slug/title set the links were resolved
      against; equal signatures mean stored resolutions are still valid.
    - `wiki_folders`: a wiki name matching no page may name a folder (its index
      page), as the source says (`core.port.NamesFolders`: a Foam workspace).

    The helpers below are what the graph engine walks: `out_slugs`, `in_slugs`,
    `exists`, `dangling_ids`. An index is never mutated after `build_index`
    returns it; a refresh builds a new one. On a warm start with nothing
    changed, `forward` and `raw_links` are read-only mappings built on first
    use (`core.index.store.LazyMapping`): walks need only `targets` and `reverse`.
    """

    pages: dict[str, PageInfo] = field(default_factory=dict)
    forward: Mapping[str, tuple[ResolvedLink, ...]] = field(default_factory=dict)
    reverse: dict[str, tuple[str, ...]] = field(default_factory=dict)
    ambiguous: int = 0
    raw_links: Mapping[str, tuple[RawTuple, ...]] = field(default_factory=dict)
    targets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    signature: str = ""
    out_rels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    in_rels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    wiki_folders: bool = False

    def out_edges(self, slug: str) -> list[tuple[str, str]]:
        """`(node, rel)` of each edge leaving `slug` (what an `out` walk follows)."""
        nodes = self.out_slugs(slug)
        rels = self.out_rels.get(slug)
        return list(zip(nodes, rels or (LINKS,) * len(nodes), strict=True))

    def in_edges(self, node: str) -> list[tuple[str, str]]:
        """`(slug, rel)` of each edge into `node` (what an `in` walk follows), slug order."""
        froms = self.in_slugs(node)
        rels = self.in_rels.get(node)
        return list(zip(froms, rels or (LINKS,) * len(froms), strict=True))

    def relations(self) -> list[str]:
        """Every relation of the graph, `links` first if present, then by name."""
        found = {rel for rels in self.out_rels.values() for rel in rels}
        if any(nodes and slug not in self.out_rels for slug, nodes in self.targets.items()):
            found.add(LINKS)
        return sorted(found, key=lambda rel: (rel != LINKS, rel))

    def out_slugs(self, slug: str) -> tuple[str, ...]:
        """Targets of `slug`'s forward links (slugs or dangling ids), first appearance first."""
        found = self.targets.get(slug)
        if found is None:
            found = tuple(link.to for link in self.forward.get(slug, ()))
        return found

    def in_slugs(self, node: str) -> tuple[str, ...]:
        """Pages linking to `node` (a slug or a dangling id), slug order, once per relation."""
        return self.reverse.get(node, ())

    def exists(self, node: str) -> bool:
        """True for a page of the corpus, False for a dangling id or anything unknown."""
        return node in self.pages

    def dangling_ids(self) -> list[str]:
        """Every dangling node id (a link target matching no page), sorted."""
        return sorted(node for node in self.reverse if node not in self.pages)

    def titles(self) -> dict[str, str]:
        """slug → title of every page (for display)."""
        return {slug: info.title for slug, info in self.pages.items()}

    def resolver(self) -> SlugResolver:
        """The one resolver of this corpus (slugs, stated titles, aliases)."""
        return SlugResolver.for_pages(self.pages.values(), wiki_folders=self.wiki_folders)

    def without(self, unseen: Collection[str]) -> LinkIndex:
        """This index as a reader who may not see the pages `unseen` finds it: they are
        no page, and no edge leaves or reaches them (not even as a missing target: a
        link to one is gone, as gbrain answers a private page's links). The walk tables
        are made again (milliseconds for 10k pages); `forward` and `raw_links` are read
        through, changed only for the pages that link to one of `unseen`."""
        hidden = frozenset(unseen) & self.pages.keys()
        if not hidden:
            return self
        # a page states a link to a hidden one when it links to it, or states an edge
        # from it (an incoming relation: in the hidden page's own walk row)
        linking = {
            other
            for slug in hidden
            for other in (*self.reverse.get(slug, ()), *self.targets.get(slug, ()))
        } - hidden
        forward = {
            slug: tuple(link for link in self.forward.get(slug, ()) if link.to not in hidden)
            for slug in linking
        }
        gone = sum(
            link.ambiguous
            for slug in hidden | linking
            for link in self.forward.get(slug, ())
            if slug in hidden or link.to in hidden
        )
        targets, out_rels = _kept_edges(self.targets, self.out_rels, hidden)
        reverse, in_rels = _kept_edges(self.reverse, self.in_rels, hidden, drop_empty=True)
        return LinkIndex(
            pages={slug: info for slug, info in self.pages.items() if slug not in hidden},
            forward=_Overlay(self.forward, forward, hidden),
            reverse=reverse,
            ambiguous=self.ambiguous - gone,
            raw_links=_Overlay(self.raw_links, {}, hidden),
            targets=targets,
            signature=self.signature,
            out_rels=out_rels,
            in_rels=in_rels,
            wiki_folders=self.wiki_folders,
        )


def _kept_edges(
    nodes: Mapping[str, tuple[str, ...]],
    rels: Mapping[str, tuple[str, ...]],
    hidden: frozenset[str],
    *,
    drop_empty: bool = False,
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """A walk table (node → the nodes of its edges) and its relations (parallel, absent
    when all `links`) without the edges from or to `hidden`; a node left with none is
    dropped when `drop_empty` (`reverse`: a missing target only hidden pages link to is
    no longer one)."""
    kept_nodes: dict[str, tuple[str, ...]] = {}
    kept_rels: dict[str, tuple[str, ...]] = {}
    for node, others in nodes.items():
        if node in hidden:
            continue
        node_rels = rels.get(node)
        if hidden.isdisjoint(others):
            kept_nodes[node] = others
            if node_rels is not None:
                kept_rels[node] = node_rels
            continue
        kept = [i for i, other in enumerate(others) if other not in hidden]
        if not kept and drop_empty:
            continue
        kept_nodes[node] = tuple(others[i] for i in kept)
        if node_rels is not None:
            kept_rels[node] = tuple(node_rels[i] for i in kept)
    return kept_nodes, kept_rels


class _Overlay(Mapping[str, Any]):
    """`base` read through: `changed` answers for its keys, and `hidden` keys are absent
    (a stored index's tables stay lazy)."""

    __slots__ = ("_base", "_changed", "_hidden")

    def __init__(self, base: Mapping[str, Any], changed: Mapping[str, Any], hidden: frozenset[str]):
        self._base, self._changed, self._hidden = base, changed, hidden

    def __getitem__(self, key: str) -> Any:
        if key in self._hidden:
            raise KeyError(key)
        if key in self._changed:
            return self._changed[key]
        return self._base[key]

    def __iter__(self) -> Iterator[str]:
        return (key for key in self._base if key not in self._hidden)

    def __len__(self) -> int:
        return len(self._base) - sum(1 for key in self._hidden if key in self._base)


class Reusable(NamedTuple):
    """What a build can reuse of one unchanged page (kept in memory, never stored)."""

    info: PageInfo
    raw_links: tuple[RawTuple, ...]
    links: tuple[ResolvedLink, ...]
