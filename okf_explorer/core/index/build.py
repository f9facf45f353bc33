"""The link index: every page's summary, its resolved forward links, and the
reverse index, built by one scan of a source and cached on disk.

`build_index` is incremental: given the previous index (in memory) or the disk
cache (`core.index.store`), it rescans only pages whose fingerprint changed. The
records it builds (`LinkIndex`, `ResolvedLink`) live in `core.index.model`; they are
re-exported here.

Resolving one page's links (SPEC §3) is the hot loop of a cold build, done on plain
rows: `PageLinks` resolves a page's raw links (`RawLink.to_row()` rows) and merges
them into `ResolvedLink.to_row()` rows for whatever the build resolves itself.
`LinkPass` runs the same code in a folder's scan workers while they read pages,
against the listing's slugs alone (`SlugResolver.slugs_only`): every rule before
`alias` depends on slugs alone, so each link it answers is answered as the full
resolver would; a link only titles or aliases can settle is left open (its wiki
target kept) for the build to finish, by the name rules alone, once every page's
names are known.

Last come the walk tables (`targets`, `reverse`, `out_rels`, `in_rels`), built from
every page's resolved links once they are all known (see `LinkIndex`).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Container, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

import okf_explorer
from okf_explorer.core.fast_paths import gc_paused
from okf_explorer.core.index.model import (
    RESOLVED_COUNT_AT,
    RESOLVED_LINK_FIELDS,
    LinkIndex,
    ResolvedLink,
    ResolvedRow,
    Reusable,
)
from okf_explorer.core.index.store import (
    FORMAT_VERSION,
    IndexCache,
    Known,
    LazyMapping,
    cache_payload,
    lasting_failure,
)
from okf_explorer.core.links.grammar import LinkKind, RawTuple
from okf_explorer.core.links.resolution import NamesNeeded, Resolution, SlugResolver
from okf_explorer.core.links.typed import LINKS, resolve_named
from okf_explorer.core.pages import ErrorKind, PageInfo, is_reserved
from okf_explorer.core.port import (
    CancelCheck,
    Folder,
    PageSource,
    PageStub,
    ProgressCallback,
    wiki_folders,
)

__all__ = ["LinkIndex", "ResolvedLink", "build_index", "corpus_signature"]

Resolved = tuple[str, str, tuple[str, ...]]
"""How one raw link resolved: `(node, rule, candidates)`."""
EarlyLinks = tuple[bool, Any]
"""What `LinkPass` makes of a page: `(True, ResolvedLink rows)` when every link was
settled, else `(False, [Resolved, or the wiki target left to the name rules, per raw
link])`."""


def build_index(
    source: PageSource,
    *,
    previous: LinkIndex | None = None,
    cache: IndexCache | Literal[False] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> LinkIndex:
    """List `source`, rescan only what changed, resolve, and save the disk cache.

    Unchanged pages (same fingerprint) are taken from `previous` when given (when no
    page changed, `previous` itself is the answer), else from the disk cache; pages
    that were unreadable for any reason but their bytes (I/O, permissions, a server
    error) are retried every time.
    `cache=None` uses `IndexCache.from_environment()`, `False` disables the
    disk cache. Resolutions are reused only while the
    corpus signature (slugs and titles) is unchanged; when a page appears,
    disappears or is renamed, every page's raw links are re-resolved (cheap:
    no file is re-read). Raises `SourceUnavailable`, or `Cancelled` (then
    nothing is saved).
    """
    store = IndexCache.from_environment() if cache is None else (cache or None)
    # the build makes ~10 objects per link, none cyclic, and the index lives on (`gc_paused`)
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
    folders = wiki_folders(source)
    if previous is not None and previous.wiki_folders != folders:
        previous = None  # the folder became another app's: its links read anew
    if previous is not None:
        stubs = source.enumerate()
        known = Known.from_index(previous)
    else:
        cached = store.load(source.cache_key) if store is not None else None
        if cached is None and isinstance(source, Folder):
            stubs = source.enumerate_unstamped()  # nothing to compare: the scan stamps
        else:
            stubs = source.enumerate()
        rebuild = (lambda: _rebuild(source, store)) if cached else None
        known = Known.from_cache(cached.signature, cached.data, rebuild) if cached else Known()
        if (whole := known.unchanged(stubs)) is not None:
            # Nothing changed since the cache was written: no resolution, no rebuilding;
            # the (empty) scan still runs, so a source sees the same calls as ever.
            _scan(source, [], [], progress, cancel, folders)
            whole.wiki_folders = folders  # the cache's key tells the folder's app apart
            return _mark_reserved(whole, source), False, None
    reused: dict[str, Reusable] = {}
    to_scan: list[PageStub] = []
    for stub in stubs:
        entry = known.entry(stub.slug, stub.fingerprint)
        if entry is None or not (entry.info.readable or lasting_failure(entry.info)):
            to_scan.append(stub)
        else:
            reused[stub.slug] = entry
    scanned, early, link_pass = _scan(source, to_scan, stubs, progress, cancel, folders)
    index = _mark_reserved(_assemble(stubs, reused, scanned, folders), source)
    unchanged = index.signature == known.signature
    if unchanged and not to_scan and previous is not None and index.pages == previous.pages:
        return previous, False, None  # nothing changed: what was derived from it still holds
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


def corpus_signature(pages: dict[str, PageInfo], wiki_folders: bool = False) -> str:
    """A digest of what resolution depends on (every slug, stated title and alias,
    and whether wiki names may name folders) and the versions."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{okf_explorer.__version__}/{FORMAT_VERSION}\x1e".encode())
    if wiki_folders:
        digest.update(b"folders\x1e")
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
    folders: bool = False,
) -> tuple[Scanned, Early, LinkPass | None]:
    """Scan results by slug, and the links the scan workers resolved (by the
    `LinkPass` over the slugs of `everything`, the whole listing, returned too)
    when the source can: a `Folder` hands `PageRow`s (a `PageInfo` row and `RawLink`
    rows, which skips building `RawLink`s), resolved as its workers read them."""
    scanned: Scanned = {}
    early: Early = {}
    link_pass = None
    if isinstance(source, Folder) and stubs:
        link_pass = LinkPass([stub.slug for stub in everything], folders)
        # before the workers start, so a forked worker inherits the tables; a small
        # refresh builds only the tables its few pages need
        link_pass.prepare(warm=len(stubs) >= _WARM_FROM)
        for (info_row, links), began in source.scan_resolving(stubs, link_pass, progress, cancel):
            info = PageInfo.from_row(info_row)
            scanned[info.slug] = (info, links)
            if began is not None:
                early[info.slug] = (links, began)
    else:
        for page in source.scan(stubs, progress, cancel):
            scanned[page.info.slug] = (page.info, tuple([link.to_row() for link in page.links]))
    return scanned, early, link_pass


def _assemble(
    stubs: list[PageStub],
    reused: dict[str, Reusable],
    scanned: Scanned,
    folders: bool = False,
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
    name_shared_headings(pages)
    return LinkIndex(
        pages=pages,
        raw_links=raw,
        signature=corpus_signature(pages, folders),
        wiki_folders=folders,
    )


SHARED_HEADING = 5
"""Pages opening with one heading that make it a section's name, not a title
(`name_shared_headings`)."""


def name_shared_headings(pages: dict[str, PageInfo]) -> None:
    """Title each page of `pages` (in place) by its first heading (`heading_title`), or by
    its file name when `SHARED_HEADING` or more readable pages open with the same heading
    (in any case, spaces collapsed). A 13k-page student vault opens 347 daily notes with
    `# Todo` and 162 notes on a term with `# Definition` over its parts: "the page called
    Definition" named none of them, and the finder listed 347 "Todo"s; Obsidian and the
    vault's published site name each by its file name (1,015 of its pages are so named
    now). Of fourteen other vaults tried, one changed: 16 of a community vault's 6.5k pages,
    person pages headed `# Obsidian` (11) or `# zero` (5), now named by their handles.
    Every build counts again (a few ms for 10k pages), from each page's own heading, so a
    title follows the count as pages come and go."""
    headed = {slug: heading for slug, info in pages.items() if (heading := _heading_of(info))}
    counts = Counter(headed.values())
    for slug, heading in headed.items():
        info = pages[slug]
        shared = counts[heading] >= SHARED_HEADING
        title = slug.rsplit("/", 1)[-1] if shared else info.heading_title or info.title
        if info.title != title:
            pages[slug] = replace(info, title=title)


def _heading_of(info: PageInfo) -> str | None:
    """The heading `info`'s title comes from, as headings are compared (in any case, spaces
    collapsed), or None: a page that states its title (a Logseq page's name is stated by
    its dialect, over any heading), or one unreadable."""
    if info.heading_title is None or info.title_stated or not info.readable:
        return None
    return " ".join(info.heading_title.casefold().split())


_RESERVED_TAILS = ("index", "log")


def _mark_reserved(index: LinkIndex, source: PageSource) -> LinkIndex:
    """`index` / `log` pages marked reserved only in an OKF bundle: a plain vault's are
    ordinary pages. A `Folder` says which it is (`okf_reserved`);
    for any other source (a server) the same rule is applied to the whole listing: an
    OKF bundle when at least half of its other pages state a `type`. Also fixes pages
    reused from a cache written before the folder changed kind."""
    pages = index.pages
    named = [slug for slug in pages if slug.endswith(_RESERVED_TAILS) and is_reserved(slug)]
    if not named:
        return index
    if isinstance(source, Folder):
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
                    passing = link_pass or LinkPass((), index.wiki_folders)
                    resolving = passing.full(index.pages)
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


class PageLinks:
    """Resolves pages' links against one resolver, remembering answers across pages.

    `slugs` is the set of page slugs (membership only). A wiki target that is
    exactly a slug (and names no reference definition) resolves by the `exact`
    rule without asking the resolver. Otherwise resolution depends only on the
    target, its kind and the linking page's folder (relative paths, ties), so
    answers are memoised on that (the folder only for relative paths; an
    ambiguous match is re-chosen per page); a target with a reference definition
    is resolved on its own.
    """

    def __init__(self, resolver: SlugResolver, slugs: Container[str]) -> None:
        self.resolver = resolver
        self.slugs = slugs
        self._memo: dict[tuple[str, str, str], Resolution] = {}
        self._wiki_memo: dict[str, Resolved] = {}

    def one(self, slug: str, folder: str, link: RawTuple) -> Resolved:
        """One raw link of page `slug` (in `folder`); may raise `NamesNeeded`."""
        target, kind, _count, refdef, rel, incoming, named = link
        resolver = self.resolver
        if named and kind != "markdown":  # a name in a gbrain field, not a written link
            resolution = resolve_named(resolver, self.slugs, target, slug, rel, incoming)
        elif (
            refdef is None
            and kind != "markdown"
            and target in self.slugs
            and not target.endswith(".md")
        ):  # what the wiki rules say, sooner (remembered for `all`)
            known = self._wiki_memo[target] = (target, "exact", ())
            return known
        elif refdef is not None:
            resolution = resolver.resolve(target, slug, kind, refdef)
        elif kind == "markdown" or target.startswith(".") or target.endswith("/"):
            if kind == "markdown" and (node := path_slug(target, folder, self.slugs)) is not None:
                return node, "path", ()  # what the path rules say, sooner
            key = (target, kind, folder)  # a relative path
            resolution = self._memo.get(key)  # type: ignore[assignment]
            if resolution is None:
                resolution = self._memo[key] = resolver.resolve(target, slug, kind)
        else:  # wiki and embed targets resolve alike, wherever they are written
            known = self._wiki_memo.get(target)
            if known is None:
                known = self._wiki_memo[target] = self._wiki(target, slug, kind)
            elif known[2]:  # the tie-break is per folder
                known = self._wiki(target, slug, kind)
            return known
        return resolution.node, resolution.rule, resolution.candidates

    def _wiki(self, target: str, slug: str, kind: LinkKind) -> Resolved:
        """A wiki or embed target (not a path); its rule matches straight from the
        resolver when one page matched (no tie-break, no `Resolution` to build)."""
        if target[:1] != "/" and target == target.strip() and target:
            rule, found = self.resolver.wiki_matches(target)
            if isinstance(found, str):  # one page, or the node of a dangling name
                return found, rule, ()
        resolution = self.resolver.resolve(target, slug, kind)
        return resolution.node, resolution.rule, resolution.candidates

    def all(self, slug: str, raw: Sequence[RawTuple]) -> list[Resolved | str]:
        """Each raw link resolved; where a `slugs_only` resolver needs names, the wiki
        target it could not settle instead (`NamesNeeded`)."""
        folder = slug.rpartition("/")[0]
        found: list[Resolved | str] = []
        memo = self._wiki_memo  # a body wiki or embed target answered before (`one`)
        for link in raw:
            if link[4] == LINKS and link[3] is None and link[1] != "markdown":
                known = memo.get(link[0])
                if known is not None and not known[2]:
                    found.append(known)
                    continue
            try:
                found.append(self.one(slug, folder, link))
            except NamesNeeded as needed:
                found.append(needed.args[0])
        return found

    def rows(self, slug: str, raw: Sequence[RawTuple]) -> list[tuple[Any, ...]]:
        """The page's `ResolvedLink` rows (see `merged_rows`)."""
        return merged_rows(raw, self.all(slug, raw))  # type: ignore[arg-type]

    def finish(self, slug: str, raw: Sequence[RawTuple], early: list[Resolved | str]) -> list:
        """`rows`, reusing what `LinkPass` settled (`early`, aligned with `raw`); only
        the name rules are tried for the targets it left."""
        folder = slug.rpartition("/")[0]
        self.resolver.names_settle([known for known in early if isinstance(known, str)])
        found = [
            known if not isinstance(known, str) else self.one(slug, folder, link)
            for link, known in zip(raw, early, strict=True)
        ]
        return merged_rows(raw, found)


def path_slug(target: str, folder: str, slugs: Container[str]) -> str | None:
    """The slug a Markdown link `target` written in `folder` names by the `path` rule
    as written (SPEC §3 rule 1: `/` is the root, else the folder; `./`, `../` leading),
    when that is plain to see: a lower-case `.md` target with no `.`-led, empty or
    blank-led segment that names a slug exactly. None: ask the resolver
    (`SlugResolver.resolve`, which answers the same whenever this answers)."""
    if not target.endswith(".md") or target[:1].isspace():
        return None
    path = target[:-3]
    if path[:1] == "/":
        path = path[1:]
    else:
        while path[:3] == "../":
            if not folder:
                return None  # climbs above the root
            folder, path = folder.rpartition("/")[0], path[3:]
        if path[:2] == "./":
            path = path[2:]
        if folder:
            path = f"{folder}/{path}"
    if not path or path[0] in "./" or path[-1] == "/" or "/." in path or "//" in path:
        return None
    return path if path in slugs else None


def merged_rows(raw: Sequence[RawTuple], resolved: Sequence[Resolved]) -> list[tuple[Any, ...]]:
    """`ResolvedLink.to_row()` rows of a page's links, de-duplicated by target node
    (first wins, counts summed); typed links by `(node, rel, incoming)`, and dropped
    when a gbrain field's name matches no page (a link written so stays, dangling)."""
    merged: dict[object, tuple[Any, ...]] = {}
    for (target, kind, count, _refdef, rel, incoming, named), (node, rule, candidates) in zip(
        raw, resolved, strict=True
    ):
        merge_key: object = node
        if rel != LINKS:
            if rule == "dangling" and named:
                # a name in a gbrain field matching no page is no edge, path-like or not
                # (gbrain drops it too): an LLM-written wiki's `source: [services/oauth/,
                # utils/auth.ts]` names source code: 199 of its 205 dangling targets
                continue
            merge_key = (node, rel, incoming)
        first = merged.get(merge_key)
        if first is None:  # a `ResolvedLink.to_row()` row
            many = bool(candidates)
            merged[merge_key] = (target, node, kind, rule, count, many, candidates, rel, incoming)
        else:  # rare: a new tuple with the counts summed
            at = RESOLVED_COUNT_AT
            merged[merge_key] = (*first[:at], first[at] + count, *first[at + 1 :])
    return list(merged.values())


class LinkPass:
    """Resolves links in scan workers, as pages are read (see the module docstring).

    `prepare` builds its resolver's slug tables in this process: workers started
    by `fork` inherit them, and `full` completes them for the main process. It
    pickles as its slug list and whether wiki names may name folders, nothing more (a
    worker started otherwise builds its own tables).
    """

    def __init__(self, slugs: Sequence[str], wiki_folders: bool = False) -> None:
        self._slugs = list(slugs)
        self._folders = wiki_folders
        self._links: PageLinks | None = None

    def __getstate__(self) -> tuple[list[str], bool]:
        return self._slugs, self._folders

    def __setstate__(self, state: tuple[list[str], bool]) -> None:
        (self._slugs, self._folders), self._links = state, None

    def prepare(self, *, warm: bool = False) -> PageLinks:
        """The resolving state of this process, made on first use; `warm` also builds
        the slug tables now (worth it before many pages: each forked worker then
        inherits them instead of building its own)."""
        links = self._links
        if links is None:
            slugs = frozenset(self._slugs)
            resolver = SlugResolver.slugs_only(slugs, wiki_folders=self._folders)
            links = self._links = PageLinks(resolver, slugs)
        if warm:
            links.resolver.warm(names=False)
        return links

    def full(self, pages: Mapping[str, PageInfo]) -> PageLinks:
        """The main process's `PageLinks` over `pages` (the same slugs), with titles and
        aliases, reusing the slug tables and answers made here."""
        if self._links is None:
            resolver = SlugResolver.for_pages(pages.values(), wiki_folders=self._folders)
            return PageLinks(resolver, pages)
        return PageLinks(self._links.resolver.with_names(pages.values()), pages)

    def __call__(self, slug: str, raw: Sequence[RawTuple]) -> EarlyLinks:
        found = self.prepare().all(slug, raw)
        for known in found:
            if known.__class__ is str:
                return False, found
        return True, merged_rows(raw, found)  # type: ignore[arg-type]


def plain_tables(index: LinkIndex, targets: dict[str, tuple[str, ...]] | None = None) -> None:
    """The walk tables of a corpus whose links are all `links` (the hot path);
    `targets` (slug → its links' nodes, in page order) when already known."""
    if targets is None:
        targets = {
            slug: tuple([link.to for link in links]) for slug, links in index.forward.items()
        }
    reverse: dict[str, list[str]] = {}
    for slug, tos in targets.items():
        for node in tos:
            froms = reverse.get(node)
            if froms is None:
                reverse[node] = [slug]
            else:
                froms.append(slug)
    index.targets, index.out_rels, index.in_rels = targets, {}, {}
    index.reverse = {node: tuple(froms) for node, froms in reverse.items()}


def typed_tables(index: LinkIndex, injected: dict[str, list[tuple[str, str]]]) -> None:
    """The walk tables with relations: pages in slug order, so `reverse` stays in slug order."""
    targets: dict[str, tuple[str, ...]] = {}
    out_rels: dict[str, tuple[str, ...]] = {}
    reverse: dict[str, list[tuple[str, str]]] = {}
    for slug, links in index.forward.items():
        stated = [(link.to, link.rel) for link in links if not link.incoming]
        # the same edge may be stated from both ends (`company` on a person and
        # `key_people` on the company): it is one edge
        edges = list(dict.fromkeys([*stated, *injected.get(slug, ())]))
        targets[slug] = tuple([node for node, _ in edges])
        if any(rel != LINKS for _, rel in edges):
            out_rels[slug] = tuple([rel for _, rel in edges])
        for node, rel in edges:
            reverse.setdefault(node, []).append((slug, rel))
    index.targets, index.out_rels = targets, out_rels
    index.reverse = {node: tuple([frm for frm, _ in pairs]) for node, pairs in reverse.items()}
    index.in_rels = {
        node: tuple([rel for _, rel in pairs])
        for node, pairs in reverse.items()
        if any(rel != LINKS for _, rel in pairs)
    }
