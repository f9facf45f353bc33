"""The page finder: the command palette's one provider, over slugs, file names,
titles and aliases.

The ranking is `core.search.find_rank.rank_pages` (exact, then prefix, then substring, then
fuzzy; more backlinks first within a tier). Each hit shows the file name and title,
and the folder. Names are shown as `printable` renders them (control characters as
escapes); the page opened is the exact slug. Help lines are markup-escaped (a `[` in
a name is text).
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.markup import escape

from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.search.find_rank import TIER_NAMES, Findable, FindHit, rank_pages
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.text_finder import TEXT_PREFIX

FIND_PROMPT = "Find a page…"
"""The finder's prompt (`/`, `ctrl+p`)."""


@runtime_checkable
class PageCatalogue(Protocol):
    """What a screen offers the finder: the pages it knows and a way to open one."""

    def catalogue(self) -> list[tuple[str, str]]:
        """(slug, title) for every page, slug order."""
        ...

    def exact_hit(self, name: str) -> str | None:
        """The page `name` resolves to (the core resolver, SPEC §3), or None."""
        ...

    def findables(self) -> list[Findable]:
        """Every page with its names and backlink count (blocking: run in a thread)."""
        ...

    def open_page(self, slug: str) -> None: ...


DISCOVERY_LIMIT = 200
"""Pages listed before the user types: enough to browse a small brain, not so
many that opening the palette on 100k pages stalls."""


EXACT_SCORE = float("inf")
"""The score of a page the resolver finds but no name matches (a path, say): first."""
HIT_LIMIT = 200
"""Pages listed at most for one query (the best ones)."""


class PageFinder(Provider):
    """Finds pages by slug or title; `discover()` lists pages in slug order."""

    def _pages(self) -> list[tuple[str, str]]:
        screen = self.screen
        return screen.catalogue() if isinstance(screen, PageCatalogue) else []

    def _open(self, slug: str) -> None:
        screen = self.screen
        if isinstance(screen, PageCatalogue):
            screen.open_page(slug)

    async def discover(self) -> Hits:
        for slug, title in self._pages()[:DISCOVERY_LIMIT]:
            shown = printable(slug)
            yield DiscoveryHit(escape(shown), partial(self._open, slug), help=_help(shown, title))

    async def search(self, query: str) -> Hits:
        """Ranked pages (`rank_pages`); the page the query resolves to (as `get NAME`
        would open it) comes first when no name of it matched (a path, say)."""
        screen = self.screen
        if not isinstance(screen, PageCatalogue) or query.startswith(TEXT_PREFIX):
            return  # `#words` searches the text (`text_finder`), not the names
        pages = await asyncio.to_thread(screen.findables)
        hits = await asyncio.to_thread(rank_pages, query, pages, HIT_LIMIT)
        exact = screen.exact_hit(query)
        if exact is not None and all(hit.slug != exact for hit in hits):
            page = next((page for page in pages if page.slug == exact), Findable(exact))
            yield self._hit(FindHit(page, -1, "resolves"), query, EXACT_SCORE)
        for position, hit in enumerate(hits):
            yield self._hit(hit, query, float(len(hits) - position))

    def _hit(self, hit: FindHit, query: str, score: float) -> Hit:
        """`orders  analytics.orders` over `tables/ · file name exact · 34 backlinks`."""
        page = hit.page
        folder, _, name = page.slug.rpartition("/")
        shown_name, title = printable(name), printable(page.title)
        display = _highlighted(shown_name, query)
        if title and title not in (shown_name, printable(page.slug)):
            display += Content.styled(f"  {title}", "dim")
        how = "what the name resolves to" if hit.tier < 0 else f"{hit.field} {TIER_NAMES[hit.tier]}"
        parts = [f"{printable(folder)}/" if folder else "(root)", how]
        if page.backlinks:
            parts.append(f"{page.backlinks} backlink{'s' if page.backlinks != 1 else ''}")
        help_text = escape(" · ".join(parts))
        opening = partial(self._open, page.slug)
        return Hit(score, display, opening, text=printable(page.slug), help=help_text)


def _highlighted(name: str, query: str) -> Content:
    """`name` with the query, where it appears (ignoring case), in bold."""
    content = Content(name)
    wanted = query.strip().casefold()
    at = name.casefold().find(wanted) if wanted else -1
    return content.stylize("bold underline", at, at + len(wanted)) if at >= 0 else content


def _help(shown_slug: str, title: str) -> str | None:
    shown = printable(title)
    return escape(shown) if shown and shown != shown_slug else None


def not_found_sentence(name: str, suggestions: list[str]) -> str:
    """`no page NAME`, suggesting close pages (`Brain.suggest`, as the CLI does)."""
    detail = f"did you mean {' or '.join(suggestions)}?" if suggestions else ""
    return str(PageNotFound(name, detail))
