"""The page finder: the command palette's one provider, fuzzy over slugs and titles.

Slugs and titles are matched and shown as `printable` renders them (control
characters as escapes: what the user sees is what they type); the page opened is
the exact slug. Plain-text prompts and help are markup-escaped (a `[` in a name
is text).
"""

from __future__ import annotations

from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.text_safety import printable


@runtime_checkable
class PageCatalogue(Protocol):
    """What a screen offers the finder: the pages it knows and a way to open one."""

    def catalogue(self) -> list[tuple[str, str]]:
        """(slug, title) for every page, slug order."""
        ...

    def exact_hit(self, name: str) -> str | None:
        """The page `name` resolves to (the core resolver, SPEC §3), or None."""
        ...

    def open_page(self, slug: str) -> None: ...


DISCOVERY_LIMIT = 200
"""Pages listed before the user types: enough to browse a small brain, not so
many that opening the palette on 100k pages stalls."""


EXACT_SCORE = float("inf")
"""The resolved page's score: above any fuzzy score (Textual's are unbounded)."""


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
        """The page the query resolves to first (as `get NAME` would open it), then
        fuzzy matches over slugs and titles (names shown with controls escaped)."""
        matcher = self.matcher(query)
        screen = self.screen
        exact = screen.exact_hit(query) if isinstance(screen, PageCatalogue) else None
        pages = self._pages()
        if exact is not None:
            shown = printable(exact)
            title = printable(next((title for slug, title in pages if slug == exact), exact))
            help_text = f"{escape(title)} · what the name resolves to" if title != shown else None
            yield Hit(
                EXACT_SCORE,
                matcher.highlight(shown),
                partial(self._open, exact),
                text=shown,
                help=help_text,
            )
        for exact_slug, exact_title in pages:
            if exact_slug == exact:
                continue
            slug, title = printable(exact_slug), printable(exact_title)
            slug_score = matcher.match(slug)
            title_score = matcher.match(title) if title != slug else 0.0
            if slug_score <= 0 and title_score <= 0:
                continue
            if title_score > slug_score:
                display = matcher.highlight(title)
                text, help_text, score = title, escape(slug), title_score
            else:
                display = matcher.highlight(slug)
                text, help_text, score = slug, _help(slug, title), slug_score
            yield Hit(score, display, partial(self._open, exact_slug), text=text, help=help_text)


def _help(shown_slug: str, title: str) -> str | None:
    shown = printable(title)
    return escape(shown) if shown and shown != shown_slug else None


def not_found_sentence(name: str, suggestions: list[str]) -> str:
    """`no page NAME`, suggesting close pages (`Brain.suggest`, as the CLI does)."""
    detail = f"did you mean {' or '.join(suggestions)}?" if suggestions else ""
    return str(PageNotFound(name, detail))
