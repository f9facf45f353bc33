"""Resolving one page's links (SPEC §3), as plain rows: the hot loop of a cold build.

`PageLinks` resolves a page's raw links (`RawLink.to_row()` rows) and merges
them into `ResolvedLink.to_row()` rows; `core.index.build` uses it for whatever it
resolves itself. `LinkPass` runs the same code in the scan workers while they
read pages, against the listing's slugs alone (`SlugResolver.slugs_only`):
every rule before `alias` depends on slugs alone, so each link it answers is
answered as the full resolver would; a link only titles or aliases can settle
is left open (its wiki target kept) for the index to finish, by the name rules
alone, once every page's names are known.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from okf_explorer.core.index.model import RESOLVED_COUNT_AT
from okf_explorer.core.links.grammar import LinkKind, RawTuple
from okf_explorer.core.links.resolution import NamesNeeded, Resolution, SlugResolver
from okf_explorer.core.links.typed import LINKS, resolve_named

if TYPE_CHECKING:
    from okf_explorer.core.pages import PageInfo

Resolved = tuple[str, str, tuple[str, ...]]
"""How one raw link resolved: `(node, rule, candidates)`."""
EarlyLinks = tuple[bool, Any]
"""What `LinkPass` makes of a page: `(True, ResolvedLink rows)` when every link was
settled, else `(False, [Resolved, or the wiki target left to the name rules, per raw
link])`."""


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
        target, kind, _count, refdef, rel, incoming = link
        resolver = self.resolver
        if rel != LINKS and kind != "markdown":
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
    when a name matches no page."""
    merged: dict[object, tuple[Any, ...]] = {}
    for (target, kind, count, _refdef, rel, incoming), (node, rule, candidates) in zip(
        raw, resolved, strict=True
    ):
        merge_key: object = node
        if rel != LINKS:
            if rule == "dangling" and (kind != "markdown" or incoming):
                continue  # a name matching no page is no edge (gbrain drops it too)
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
    pickles as its slug list alone (a worker started otherwise builds its own).
    """

    def __init__(self, slugs: Sequence[str]) -> None:
        self._slugs = list(slugs)
        self._links: PageLinks | None = None

    def __getstate__(self) -> list[str]:
        return self._slugs

    def __setstate__(self, slugs: list[str]) -> None:
        self._slugs, self._links = slugs, None

    def prepare(self, *, warm: bool = False) -> PageLinks:
        """The resolving state of this process, made on first use; `warm` also builds
        the slug tables now (worth it before many pages: each forked worker then
        inherits them instead of building its own)."""
        links = self._links
        if links is None:
            slugs = frozenset(self._slugs)
            links = self._links = PageLinks(SlugResolver.slugs_only(slugs), slugs)
        if warm:
            links.resolver.warm(names=False)
        return links

    def full(self, pages: Mapping[str, PageInfo]) -> PageLinks:
        """The main process's `PageLinks` over `pages` (the same slugs), with titles and
        aliases, reusing the slug tables and answers made here."""
        if self._links is None:
            return PageLinks(SlugResolver.for_pages(pages.values()), pages)
        return PageLinks(self._links.resolver.with_names(pages.values()), pages)

    def __call__(self, slug: str, raw: Sequence[RawTuple]) -> EarlyLinks:
        found = self.prepare().all(slug, raw)
        for known in found:
            if known.__class__ is str:
                return False, found
        return True, merged_rows(raw, found)  # type: ignore[arg-type]
