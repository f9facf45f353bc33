"""The link index: every page's summary, its resolved forward links, and the
reverse index, built by one scan of a source and cached on disk.

`build_index` is incremental: given the previous index (in memory) or the disk
cache, it rescans only pages whose fingerprint changed. The records it builds
(`LinkIndex`, `ResolvedLink`) live in `index_model`; they are re-exported here.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Literal

import okf_explorer
from okf_explorer.core.fast_gc import gc_paused
from okf_explorer.core.index.cache import FORMAT_VERSION, IndexCache
from okf_explorer.core.index.model import (
    RESOLVED_LINK_FIELDS,
    LinkIndex,
    ResolvedLink,
    ResolvedRow,
    Reusable,
)
from okf_explorer.core.index.page_pass import EarlyLinks, LinkPass, PageLinks
from okf_explorer.core.index.reuse import Known, LazyMapping, cache_payload, lasting_failure
from okf_explorer.core.index.walk_tables import plain_tables, typed_tables
from okf_explorer.core.links.grammar import RawTuple
from okf_explorer.core.links.typed import LINKS
from okf_explorer.core.pages import ErrorKind, PageInfo, is_reserved
from okf_explorer.core.port import (
    CancelCheck,
    LinkResolvingScanner,
    PageSource,
    PageStub,
    ProgressCallback,
    ReservedFiles,
    RowScanner,
    UnstampedListing,
)

__all__ = ["LinkIndex", "ResolvedLink", "build_index", "corpus_signature"]


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
    # the build makes ~10 objects per link, none cyclic, and the index lives on (fast_gc)
    with gc_paused(freeze=True):
        index, changed, rows = _build(source, previous, store, progress, cancel)
    if store is not None and changed:
        store.save(source.cache_key, index.signature, cache_payload(index, rows))
    return index


def _build(
    source: PageSource,
    previous: LinkIndex | None,
    store: IndexCache | None,
    progress: ProgressCallback | None,
    cancel: CancelCheck | None,
) -> tuple[LinkIndex, bool, dict[str, tuple[ResolvedRow, ...]] | None]:
    """The index, whether the disk cache needs it saved, and its resolved rows when
    this build made them (`cache_payload`)."""
    if previous is not None:
        stubs = source.enumerate()
        known = Known.from_index(previous)
    else:
        cached = store.load(source.cache_key) if store is not None else None
        if cached is None and isinstance(source, UnstampedListing):
            stubs = source.enumerate_unstamped()  # nothing to compare: the scan stamps
        else:
            stubs = source.enumerate()
        rebuild = (lambda: _rebuild(source, store)) if cached else None
        known = Known.from_cache(cached.signature, cached.data, rebuild) if cached else Known()
        if (whole := known.unchanged(stubs)) is not None:
            # Nothing changed since the cache was written: no resolution, no rebuilding;
            # the (empty) scan still runs, so a source sees the same calls as ever.
            _scan(source, [], [], progress, cancel)
            return _mark_reserved(whole, source), False, None
    reused: dict[str, Reusable] = {}
    to_scan: list[PageStub] = []
    for stub in stubs:
        entry = known.entry(stub.slug, stub.fingerprint)
        if entry is None or not (entry.info.readable or lasting_failure(entry.info)):
            to_scan.append(stub)
        else:
            reused[stub.slug] = entry
    scanned, early, link_pass = _scan(source, to_scan, stubs, progress, cancel)
    index = _mark_reserved(_assemble(stubs, reused, scanned), source)
    unchanged = index.signature == known.signature
    rows = None
    if unchanged and not to_scan and known.reverse is not None:
        index.forward = {slug: reused[slug].links for slug in index.pages}
        index.targets, index.reverse, index.ambiguous = (
            known.targets,
            known.reverse,
            known.ambiguous,
        )
        index.out_rels, index.in_rels = known.out_rels, known.in_rels
    else:
        rows = _resolve_all(index, reused if unchanged else {}, early, link_pass)
    return index, bool(to_scan) or not unchanged, rows


def _rebuild(source: PageSource, store: IndexCache | None) -> LinkIndex:
    """A whole build that skips the disk cache and then replaces it: what answers when
    a cached index's lazily decoded links turn out not to decode."""
    fresh = build_index(source, cache=False)
    if store is not None:
        store.save(source.cache_key, fresh.signature, cache_payload(fresh))
    return fresh


_ALIAS_SEP = "\x1d"


def _stated_title(info: PageInfo) -> str:
    return info.title if info.title_stated else ""


def corpus_signature(pages: dict[str, PageInfo]) -> str:
    """A digest of what resolution depends on (every slug, stated title and alias)
    and the versions."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{okf_explorer.__version__}/{FORMAT_VERSION}\x1e".encode())
    text = "".join(
        f"{slug}\x1f{_stated_title(info)}\x1f{_ALIAS_SEP.join(info.aliases)}\x1e"
        for slug, info in pages.items()
    )
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


Scanned = dict[str, tuple[PageInfo, tuple[RawTuple, ...]]]
_WARM_FROM = 1000
"""Scans of this many pages build the resolver's slug tables before reading (`LinkPass`)."""
Early = dict[str, tuple[tuple[RawTuple, ...], EarlyLinks]]
"""slug → its raw links and what the scan workers' `LinkPass` made of exactly them."""


def _scan(
    source: PageSource,
    stubs: list[PageStub],
    everything: list[PageStub],
    progress: ProgressCallback | None,
    cancel: CancelCheck | None,
) -> tuple[Scanned, Early, LinkPass | None]:
    """Scan results by slug, and the links the scan workers resolved (by the
    `LinkPass` over the slugs of `everything`, the whole listing, returned too)
    when the source can. A
    `RowScanner` source hands `PageRow`s (a `PageInfo` row and `RawLink` rows),
    which skips building `RawLink`s."""
    scanned: Scanned = {}
    early: Early = {}
    link_pass = None
    if isinstance(source, LinkResolvingScanner) and stubs:
        link_pass = LinkPass([stub.slug for stub in everything])
        # before the workers start, so a forked worker inherits the tables; a small
        # refresh builds only the tables its few pages need
        link_pass.prepare(warm=len(stubs) >= _WARM_FROM)
        for (info_row, links), began in source.scan_resolving(stubs, link_pass, progress, cancel):
            info = PageInfo.from_row(info_row)
            scanned[info.slug] = (info, links)
            if began is not None:
                early[info.slug] = (links, began)
    elif isinstance(source, RowScanner):
        for info_row, links in source.scan_rows(stubs, progress, cancel):
            info = PageInfo.from_row(info_row)
            scanned[info.slug] = (info, links)
    else:
        for page in source.scan(stubs, progress, cancel):
            scanned[page.info.slug] = (page.info, tuple([link.to_row() for link in page.links]))
    return scanned, early, link_pass


def _assemble(
    stubs: list[PageStub],
    reused: dict[str, Reusable],
    scanned: Scanned,
) -> LinkIndex:
    """Pages and raw links in the listing's (slug) order; fingerprints from the listing."""
    pages: dict[str, PageInfo] = {}
    raw: dict[str, tuple[RawTuple, ...]] = {}
    for stub in stubs:
        slug = stub.slug
        entry = reused.get(slug)
        if entry is not None:
            pages[slug], raw[slug] = entry.info, entry.raw_links
            continue
        info, links = scanned.get(slug) or (None, ())
        if info is None:
            info = _unreadable_info(stub, "the source did not return this page", "missing")
        elif not info.readable:
            kind = info.error_kind or "unreadable"
            info, links = _unreadable_info(stub, info.error or "unreadable", kind, info), ()
        elif stub.fingerprint and info.fingerprint != stub.fingerprint:
            info = replace(info, fingerprint=stub.fingerprint)  # the listing's (see read_page)
        pages[slug], raw[slug] = info, links
    return LinkIndex(pages=pages, raw_links=raw, signature=corpus_signature(pages))


_RESERVED_TAILS = ("index", "log")


def _mark_reserved(index: LinkIndex, source: PageSource) -> LinkIndex:
    """`index` / `log` pages marked reserved only in an OKF bundle: a plain vault's are
    ordinary pages. A folder says which it is (`ReservedFiles`, `sources.folder.kind`);
    for any other source (a server) the same rule is applied to the whole listing: an
    OKF bundle when at least half of its other pages state a `type`. Also fixes pages
    reused from a cache written before the folder changed kind."""
    pages = index.pages
    named = [slug for slug in pages if slug.endswith(_RESERVED_TAILS) and is_reserved(slug)]
    if not named:
        return index
    if isinstance(source, ReservedFiles):
        okf = source.okf_reserved()
    else:
        typed = sum(1 for info in pages.values() if info.type)
        typed -= sum(1 for slug in named if pages[slug].type)
        okf = 2 * typed >= len(pages) - len(named) > 0
    for slug in named:
        info = pages[slug]
        if info.reserved != okf:
            pages[slug] = replace(info, reserved=okf)
    return index


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
        error_kind=kind,
        fingerprint=stub.fingerprint or (scanned.fingerprint if scanned else ""),
    )


def _resolve_all(
    index: LinkIndex,
    keep: dict[str, Reusable],
    early: Early | None = None,
    link_pass: LinkPass | None = None,
) -> dict[str, tuple[ResolvedRow, ...]]:
    """Fill `forward`, the walk tables and `ambiguous`, reusing resolutions in `keep`
    and finishing those the scan workers began (`early`, by `link_pass`); returns
    every page's `ResolvedLink` rows (what the cache stores).

    `forward` holds what each page states; the walk tables turn an incoming
    relation stated on P about Q into an edge Q → P, so they are built in a
    second pass, once every page's links are resolved. All is done on rows: a
    graph with `links` alone gets `forward` as a `LazyMapping`, its `ResolvedLink`s
    made on first use (walks, backlinks and the cache need none of them).
    """
    resolving: PageLinks | None = None
    early = early or {}
    rows_of: dict[str, tuple[ResolvedRow, ...]] = {}
    kept: dict[str, tuple[ResolvedLink, ...]] = {}
    injected: dict[str, list[tuple[str, str]]] = {}  # Q → [(P, rel)]: edges Q → P
    typed = False
    ambiguous = 0
    for slug, raw in index.raw_links.items():
        entry = keep.get(slug)
        rows: tuple[ResolvedRow, ...] = ()
        if entry is not None:
            kept[slug] = entry.links
            rows = ResolvedLink.to_rows(entry.links)
        elif raw:
            began = early.get(slug)
            if began is not None and began[0] is raw and began[1][0]:
                rows = tuple(began[1][1])
            else:
                if resolving is None:
                    resolving = (link_pass or LinkPass(())).full(index.pages)
                if began is not None and began[0] is raw:
                    found = resolving.finish(slug, raw, began[1][1])
                else:
                    found = resolving.rows(slug, raw)
                rows = tuple(map(tuple, found))  # type: ignore[arg-type]
        rows_of[slug] = rows
        for row in rows:
            ambiguous += row[_MANY]
            if row[_REL] != LINKS:
                typed = True
                if row[_INCOMING]:
                    injected.setdefault(row[_TO], []).append((slug, row[_REL]))
    index.ambiguous = ambiguous
    from_rows = ResolvedLink.from_rows

    def forward() -> dict[str, tuple[ResolvedLink, ...]]:
        return {
            slug: kept[slug] if slug in kept else from_rows(rows) for slug, rows in rows_of.items()
        }

    if typed:
        index.forward = forward()
        typed_tables(index, injected)
    else:
        index.forward = LazyMapping(forward)
        plain_tables(index, {slug: tuple([r[_TO] for r in rows]) for slug, rows in rows_of.items()})
    return rows_of


_TO, _MANY, _REL, _INCOMING = (
    RESOLVED_LINK_FIELDS.index(name) for name in ("to", "ambiguous", "rel", "incoming")
)
"""Where these `ResolvedLink` fields sit in a row."""
