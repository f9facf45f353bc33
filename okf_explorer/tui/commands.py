"""The page finder: the command palette's one provider, fuzzy over slugs and titles."""

from __future__ import annotations

import difflib
from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider

from okf_explorer.core.errors import PageNotFound


@runtime_checkable
class PageCatalogue(Protocol):
    """What a screen offers the finder: the pages it knows and a way to open one."""

    def catalogue(self) -> list[tuple[str, str]]:
        """(slug, title) for every page, slug order."""
        ...

    def open_page(self, slug: str) -> None: ...


DISCOVERY_LIMIT = 200
"""Pages listed before the user types: enough to browse a small brain, not so
many that opening the palette on 100k pages stalls."""


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
            yield DiscoveryHit(slug, partial(self._open, slug), help=_help(slug, title))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for slug, title in self._pages():
            slug_score = matcher.match(slug)
            title_score = matcher.match(title) if title != slug else 0.0
            if slug_score <= 0 and title_score <= 0:
                continue
            if title_score > slug_score:
                display = matcher.highlight(title)
                text, help_text, score = title, slug, title_score
            else:
                display = matcher.highlight(slug)
                text, help_text, score = slug, _help(slug, title), slug_score
            yield Hit(score, display, partial(self._open, slug), text=text, help=help_text)


def _help(slug: str, title: str) -> str | None:
    return title if title and title != slug else None


def not_found_sentence(name: str, slugs: list[str]) -> str:
    """`no page NAME`, suggesting up to three close slugs (as the CLI does for a typo)."""
    close = difflib.get_close_matches(name, slugs, n=3, cutoff=0.75)
    return str(PageNotFound(name, f"did you mean {' or '.join(close)}?" if close else ""))
