"""The finder's text mode: full-text search of page bodies, with snippets.

Two ways in: `ctrl+f` opens the palette with `TextFinder` alone (every query
searches the text), and in the page finder (`/`) a query starting with
`TEXT_PREFIX` is a text search (`PrefixedTextFinder`), the rest of the query
being the search. Choosing a hit opens the page scrolled to the hit:
`TextJump` remembers the hit's words, and once that page's body is on screen,
scrolls to the first widget of the rendered body whose text holds one of
them (the simplest method that survives any renderer: search the rendered
text, not the Markdown source).

Searches run in a thread (the first one may sync the text index); a query
that is not valid syntax shows one line saying so instead of hits, and one
past the caps or the deadline of a search also a notification.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import Hit, Hits, Provider
from textual.content import Content
from textual.widget import Widget

from okf_explorer.core.errors import OkfError
from okf_explorer.core.search.query import QueryTooLong, SearchSyntaxError, SearchTimedOut
from okf_explorer.core.search.text_index import HIT_CLOSE, HIT_OPEN, SearchHit
from okf_explorer.core.text_safety import printable

TEXT_PREFIX = "#"
"""In the page finder, a query starting with this searches page text."""
HIT_LIMIT = 20
PLACEHOLDER = 'Search page text… (words, "phrase", prefix*, type:T, tag:T, path:P)'


@runtime_checkable
class TextSearchHost(Protocol):
    """What a screen offers the text finder: its brain's search and a way to open a hit."""

    def search_text(self, query: str, limit: int) -> list[SearchHit]:
        """Blocking: called in a thread."""
        ...

    def open_hit(self, slug: str, words: list[str]) -> None: ...


def snippet_content(hit: SearchHit) -> Content:
    """The snippet with its hits in bold and underlined (names shown `printable`)."""
    parts: list[tuple[str, str] | str] = []
    for i, piece in enumerate(hit.snippet.split(HIT_OPEN)):
        if i == 0:
            parts.append(printable(piece))
            continue
        word, _, rest = piece.partition(HIT_CLOSE)
        parts.append((printable(word), "bold underline"))
        parts.append(printable(rest))
    return Content.assemble(*parts)


class TextFinder(Provider):
    """Every query is a text search (the palette `ctrl+f` opens)."""

    prefix = ""
    _told: str | None = None

    def _tell(self, message: str) -> None:
        """A notification for a search refused or stopped by a limit, once per message
        while the palette is open (it searches again at every key)."""
        if message != self._told:
            self._told = message
            self.app.notify(message, title="Search", severity="warning")

    def _host(self) -> TextSearchHost | None:
        screen = self.screen
        return screen if isinstance(screen, TextSearchHost) else None

    async def search(self, query: str) -> Hits:
        host = self._host()
        if host is None or not query.startswith(self.prefix):
            return
        text = query[len(self.prefix) :].strip()
        if not text:
            return
        try:
            hits = await asyncio.to_thread(host.search_text, text, HIT_LIMIT)
        except (QueryTooLong, SearchTimedOut) as error:
            self._tell(str(error))
            yield Hit(0.0, Content(str(error)), lambda: None, text=str(error))
            return
        except SearchSyntaxError as error:
            yield Hit(0.0, Content(str(error)), lambda: None, text=str(error))
            return
        except OkfError as error:
            yield Hit(0.0, Content(f"search failed: {error}"), lambda: None)
            return
        count = len(hits)
        for rank, hit in enumerate(hits):
            title = printable(hit.title)
            slug = printable(hit.slug)
            shown_title = [("  " + title, "dim")] if title != slug else []
            label = Content.assemble((slug, "bold"), *shown_title)
            yield Hit(
                float(count - rank),  # the index's ranking, best first
                label,
                partial(host.open_hit, hit.slug, hit.hit_words()),
                text=slug,
                help=snippet_content(hit),
            )


class PrefixedTextFinder(TextFinder):
    """In the page finder: only queries starting with `TEXT_PREFIX`."""

    prefix = TEXT_PREFIX


class TextJump:
    """Scroll a page to a search hit once its body is on screen."""

    def __init__(self) -> None:
        self._wanted: tuple[str, list[str]] | None = None

    def want(self, slug: str, words: list[str]) -> None:
        self._wanted = (slug, words) if words else None

    def body_shown(self, slug: str | None, body: Widget) -> bool:
        """Scroll `body`'s scrollable ancestor to the hit if `slug` is the wanted page."""
        if self._wanted is None or slug != self._wanted[0]:
            return False
        words = [w.casefold() for w in self._wanted[1]]
        self._wanted = None
        target = find_rendered(body, words)
        if target is None:
            return False
        widget, line = target
        body.scroll_to_widget(widget, animate=False, top=True)
        if line:
            body.call_after_refresh(partial(body.scroll_relative, y=line, animate=False))
        return True


def find_rendered(root: Widget, words: list[str]) -> tuple[Widget, int] | None:
    """The first leaf widget under `root` whose rendered text holds one of `words`
    (any case), and the line of the text it is on (before wrapping)."""
    for widget in root.query("*"):
        if widget.children or not widget.display:
            continue
        text = _plain(widget)
        if not text:
            continue
        folded = text.casefold()
        found = [at for w in words if (at := folded.find(w)) >= 0]
        if found:
            return widget, text.count("\n", 0, min(found))
    return None


def _plain(widget: Widget) -> str:
    try:
        rendered = widget.render()
    except Exception:  # a widget that cannot render outside a frame holds no text for us
        return ""
    plain = getattr(rendered, "plain", None)
    return plain if isinstance(plain, str) else ""
