"""The link index: every page's summary, its resolved forward links, and the
reverse index, built by one scan of a source and cached on disk.

`build_index` is incremental: given the previous index (in memory) or the disk
cache, it rescans only pages whose fingerprint changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

import okf_explorer
from okf_explorer.core.cache import FORMAT_VERSION, IndexCache
from okf_explorer.core.fast_gc import gc_paused
from okf_explorer.core.index_store import Known, cache_payload, lasting_failure
from okf_explorer.core.links import LinkKind, RawLink, Resolution, ResolveRule, SlugResolver
from okf_explorer.core.pages import ErrorKind, PageInfo, is_reserved
from okf_explorer.core.port import (
    CancelCheck,
    PageSource,
    PageStub,
    ProgressCallback,
    RowScanner,
)
from okf_explorer.core.typed_links import LINKS, resolve_named
from okf_explorer.core.walk_tables import plain_tables, typed_tables

RawTuple = tuple
"""A raw link as `(target, kind, count)` for a body link, or `(target, kind, count,
rel, incoming)` for a typed frontmatter link (the fields of `RawLink`)."""


@dataclass(frozen=True, slots=True)
class ResolvedLink:
    """One forward link of a page after resolution.

    `to` is the target slug, or the dangling node id when `rule == "dangling"`.
    `rule` records why the two pages are linked (shown by the UI). `rel` is the
    relation (`links` for a body link); `incoming` marks a relation stated from
    the target's side, so the edge runs `to` → this page (see `RawLink`).
    """

    target: str
    to: str
    kind: LinkKind
    rule: ResolveRule
    count: int = 1
    ambiguous: bool = False
    rel: str = LINKS
    incoming: bool = False

    @property
    def exists(self) -> bool:
        return self.rule != "dangling"


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
    - `raw_links`: slug → the page's raw links as parsed, plain
      `(target, kind, count)` tuples (cheap to hold and to cache), kept so a
      refresh can re-resolve without re-reading files when pages come or go.
    - `targets`: slug → the nodes each of the page's edges leads to (what walks
      follow): its own outgoing links, then the pages that state an incoming
      relation to it; a node repeats when reached by several relations.
    - `out_rels` / `in_rels`: the relation of each entry of `targets[slug]` /
      `reverse[node]`, aligned; only for entries that hold a relation other
      than `links` (a plain bundle has none: absent means all `links`).
    - `signature`: identifies the slug/title set the links were resolved
      against; equal signatures mean stored resolutions are still valid.

    The helpers below are what the graph engine walks: `out_slugs`, `in_slugs`,
    `exists`, `dangling_ids`. An index is never mutated after `build_index`
    returns it; a refresh builds a new one. On a warm start with nothing
    changed, `forward` and `raw_links` are read-only mappings built on first
    use (`index_store.LazyMapping`): walks need only `targets` and `reverse`.
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
        """slug → title of every page (what the resolver's title rule uses)."""
        return {slug: info.title for slug, info in self.pages.items()}


Reusable = tuple[PageInfo, tuple[RawTuple, ...], tuple[ResolvedLink, ...]]
"""What a build can reuse of one unchanged page: info, raw links, resolved links."""


def build_index(
    source: PageSource,
    *,
    previous: LinkIndex | None = None,
    cache: IndexCache | Literal[False] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> LinkIndex:
    """List `source`, rescan only what changed, resolve, and save the disk cache.

    Unchanged pages (same fingerprint) are taken from `previous` when given,
    else from the disk cache; pages that were unreadable for any reason but
    their bytes (I/O, permissions, a server error) are retried every time.
    `cache=None` uses `IndexCache.from_environment()`, `False` disables the
    disk cache. Resolutions are reused only while the
    corpus signature (slugs and titles) is unchanged; when a page appears,
    disappears or is renamed, every page's raw links are re-resolved (cheap:
    no file is re-read). Raises `SourceUnavailable`, or `Cancelled` (then
    nothing is saved).
    """
    store = IndexCache.from_environment() if cache is None else (cache or None)
    with gc_paused():  # the build makes ~10 objects per link, none cyclic (see fast_gc)
        return _build(source, previous, store, progress, cancel)


def _build(
    source: PageSource,
    previous: LinkIndex | None,
    store: IndexCache | None,
    progress: ProgressCallback | None,
    cancel: CancelCheck | None,
) -> LinkIndex:
    stubs = source.enumerate()
    if previous is not None:
        known = Known.from_index(previous)
    else:
        cached = store.load(source.cache_key) if store is not None else None
        rebuild = (lambda: _rebuild(source, store)) if cached else None
        known = Known.from_cache(cached.signature, cached.data, rebuild) if cached else Known()
        if (whole := known.unchanged(stubs)) is not None:
            # Nothing changed since the cache was written: no resolution, no rebuilding;
            # the (empty) scan still runs, so a source sees the same calls as ever.
            _scan(source, [], progress, cancel)
            return whole
    reused: dict[str, Reusable] = {}
    to_scan: list[PageStub] = []
    for stub in stubs:
        entry = known.entry(stub.slug, stub.fingerprint)
        if entry is None or not (entry[0].readable or lasting_failure(entry[0])):
            to_scan.append(stub)
        else:
            reused[stub.slug] = entry
    index = _assemble(stubs, reused, _scan(source, to_scan, progress, cancel))
    unchanged = index.signature == known.signature
    if unchanged and not to_scan and known.reverse is not None:
        index.forward = {slug: reused[slug][2] for slug in index.pages}
        index.targets, index.reverse, index.ambiguous = (
            known.targets,
            known.reverse,
            known.ambiguous,
        )
        index.out_rels, index.in_rels = known.out_rels, known.in_rels
    else:
        _resolve_all(index, reused if unchanged else {})
    if store is not None and (to_scan or not unchanged):
        store.save(source.cache_key, index.signature, cache_payload(index))
    return index


def _rebuild(source: PageSource, store: IndexCache | None) -> LinkIndex:
    """A whole build that skips the disk cache and then replaces it: what answers when
    a cached index's lazily decoded links turn out not to decode."""
    fresh = build_index(source, cache=False)
    if store is not None:
        store.save(source.cache_key, fresh.signature, cache_payload(fresh))
    return fresh


def corpus_signature(pages: dict[str, PageInfo]) -> str:
    """A digest of every slug and title (what resolution depends on) and the versions."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{okf_explorer.__version__}/{FORMAT_VERSION}\x1e".encode())
    text = "".join(f"{slug}\x1f{info.title}\x1e" for slug, info in pages.items())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _scan(
    source: PageSource,
    stubs: list[PageStub],
    progress: ProgressCallback | None,
    cancel: CancelCheck | None,
) -> dict[str, tuple[PageInfo, tuple[RawTuple, ...]]]:
    """Scan results by slug. A `RowScanner` source hands plain rows (`PageInfo.to_row()`
    values, then raw links as tuples), which skips building `RawLink`s."""
    if isinstance(source, RowScanner):
        return {
            row[0]: (PageInfo.from_row(row[:-1]), row[-1])
            for row in source.scan_rows(stubs, progress, cancel)
        }
    return {
        page.info.slug: (page.info, tuple(map(_raw_tuple, page.links)))
        for page in source.scan(stubs, progress, cancel)
    }


def _raw_tuple(link: RawLink) -> RawTuple:
    """A `RawLink` as the index keeps it: 3 values for a body link, 5 for a typed one."""
    if link.rel == LINKS and not link.incoming:
        return (link.target, link.kind, link.count)
    return (link.target, link.kind, link.count, link.rel, link.incoming)


def _assemble(
    stubs: list[PageStub],
    reused: dict[str, Reusable],
    scanned: dict[str, tuple[PageInfo, tuple[RawTuple, ...]]],
) -> LinkIndex:
    """Pages and raw links in the listing's (slug) order; fingerprints from the listing."""
    pages: dict[str, PageInfo] = {}
    raw: dict[str, tuple[RawTuple, ...]] = {}
    for stub in stubs:
        slug = stub.slug
        entry = reused.get(slug)
        if entry is not None:
            pages[slug], raw[slug] = entry[0], entry[1]
            continue
        info, links = scanned.get(slug) or (None, ())
        if info is None:
            info = _unreadable_info(stub, "the source did not return this page", "missing")
        elif not info.readable:
            kind = info.error_kind or "unreadable"
            info, links = _unreadable_info(stub, info.error or "unreadable", kind, info), ()
        elif info.fingerprint != stub.fingerprint:
            info = replace(info, fingerprint=stub.fingerprint)
        pages[slug], raw[slug] = info, links
    return LinkIndex(pages=pages, raw_links=raw, signature=corpus_signature(pages))


def _unreadable_info(
    stub: PageStub, reason: str, kind: ErrorKind, scanned: PageInfo | None = None
) -> PageInfo:
    """An unreadable page keeps what the listing knew (a server's title) over a bare stem."""
    base = stub.info or scanned or PageInfo(slug=stub.slug, title=stub.slug.rsplit("/", 1)[-1])
    return replace(
        base,
        reserved=is_reserved(stub.slug),
        readable=False,
        error=reason,
        fingerprint=stub.fingerprint,
        error_kind=kind,
    )


def _resolve_all(index: LinkIndex, keep: dict[str, Reusable]) -> None:
    """Fill `forward`, the walk tables and `ambiguous`, reusing resolutions in `keep`.

    `forward` holds what each page states; the walk tables turn an incoming
    relation stated on P about Q into an edge Q → P, so they are built in a
    second pass, once every page's links are resolved.
    """
    resolver: SlugResolver | None = None
    memo: dict[tuple[str, str, str], Resolution] = {}
    forward: dict[str, tuple[ResolvedLink, ...]] = {}
    injected: dict[str, list[tuple[str, str]]] = {}  # Q → [(P, rel)]: edges Q → P
    typed = False
    ambiguous = 0
    for slug, raw in index.raw_links.items():
        entry = keep.get(slug)
        if entry is not None:
            links = entry[2]
        elif raw:
            if resolver is None:
                resolver = SlugResolver(index.pages, _distinct_titles(index.pages))
            links = _resolve_page(resolver, index.pages, slug, raw, memo)
        else:
            links = ()
        forward[slug] = links
        for link in links:
            ambiguous += link.ambiguous
            if link.rel != LINKS:
                typed = True
                if link.incoming:
                    injected.setdefault(link.to, []).append((slug, link.rel))
    index.forward, index.ambiguous = forward, ambiguous
    if typed:
        typed_tables(index, injected)
    else:
        plain_tables(index)


def _distinct_titles(pages: dict[str, PageInfo]) -> dict[str, str]:
    """Titles for the resolver's title rule, without those that merely repeat the file
    stem (the default title): those would pre-empt the basename rule and hide ambiguity."""
    return {
        slug: info.title for slug, info in pages.items() if info.title != slug.rpartition("/")[2]
    }


def _resolve_page(
    resolver: SlugResolver,
    slugs: dict[str, PageInfo],
    slug: str,
    raw: tuple[RawTuple, ...],
    memo: dict[tuple[str, str, str], Resolution],
) -> tuple[ResolvedLink, ...]:
    """One page's links resolved and de-duplicated by target node (first wins, counts summed);
    typed links by `(node, rel, incoming)`, and dropped when a name matches no page.

    The hot loop of a cold build (100k pages: ~400k links). A wiki target that
    is exactly a slug resolves by the `exact` rule without asking the
    resolver. Resolution depends only on the target, its kind and, for
    relative paths, the linking page's folder, so other results are memoised
    on that.
    """
    folder = slug.rpartition("/")[0]
    merged: dict[object, list] = {}
    for item in raw:
        if len(item) == 3:
            target, kind, count = item
            rel = None
        else:  # a typed frontmatter link
            target, kind, count, rel, incoming = item
        if rel is not None and kind != "markdown":
            resolution = resolve_named(resolver, slugs, target, slug, rel, incoming)
            node, rule, ambiguous = resolution.node, resolution.rule, resolution.ambiguous
        elif kind != "markdown" and target in slugs and not target.endswith(".md"):
            node, rule, ambiguous = target, "exact", False  # what the wiki rules say, sooner
        else:
            written = target.strip()
            relative = kind == "markdown" or written.startswith(".") or written.endswith("/")
            asked = (target, kind, folder if relative and not written.startswith("/") else "")
            resolution = memo.get(asked)
            if resolution is None:
                resolution = memo[asked] = resolver.resolve(target, slug, kind)
            node, rule, ambiguous = resolution.node, resolution.rule, resolution.ambiguous
        key: object = node
        if rel is not None:
            if rule == "dangling" and (kind != "markdown" or incoming):
                continue  # a name matching no page is no edge (gbrain drops it too)
            key = (node, rel, incoming)
        first = merged.get(key)
        if first is None:
            values = [target, node, kind, rule, count, ambiguous]
            merged[key] = values if rel is None else [*values, rel, incoming]
        else:
            first[4] += count
    return tuple([ResolvedLink(*values) for values in merged.values()])
