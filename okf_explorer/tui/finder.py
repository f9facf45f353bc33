"""The finder: the command palette's providers, over page names and over page text.

Names (`/`, `ctrl+p`): `PageFinder`, the palette's one provider, over slugs, file
names, titles and aliases; a query no name matches is offered as a text search instead
(`enter` opens the text finder with it), never a list saying only that nothing matches.
A query that names match only loosely (fuzzy: its letters in order, no name holding it)
is offered as a text search too, after those names: `kerberos` in a vault with no page
of that name, but ninety that mention it, listed `Kerberoasting` and `Raspberry Pi OS`.
Before anything is typed it offers where a reader is likely to go: the pages of this
session's trail, most recent first, then the hubs (most backlinks), never the alphabet
(`first_offer`; the listing's order only while no screen offers these). The ranking
is `core.search.find_rank.rank_pages` (exact, then prefix, then substring, then fuzzy;
more backlinks first within a tier). Each hit shows the file name and title, and the
folder. Names are shown as `printable` renders them (control characters as escapes);
the page opened is the exact slug. Help lines are markup-escaped (a `[` in a name is
text).

The palette that shows them is `tui.dialogs.finder.FinderDialog`: its `enter` opens
the best hit of what is typed, once the last key's search has ended.

Typing never piles up searches: each runs in a thread, which cannot be stopped, so a
finder runs one at a time (`OneAtATime`). A key cancels the search before it, and one
still waiting for its turn never starts: after a search, the latest query runs, not
every key typed meanwhile. On a 35k-page vault, `fsmo-roles` typed at 80 ms a key
ranked its prefixes several at once, and its hits came 1.9 s after the last key (85 ms
now: `tests/bench/bench_finder.py`).

Text: full-text search of page bodies, with snippets. Two ways in: `ctrl+f` opens the
palette with `TextFinder` alone (every query searches the text), and in the page
finder a query starting with `TEXT_PREFIX` is a text search (`PrefixedTextFinder`),
the rest of the query being the search. Choosing a hit opens the page scrolled to the
hit: `TextJump` remembers the hit's words, and once that page's body is on screen,
scrolls to the first line of the rendered body holding the most of them (the
simplest method that survives any renderer: search the rendered text, not the
Markdown source), and the engine's rows show every one of them (`FOUND_STYLE`), as a
browser's find does, until another page is opened. Searches run in a thread (the first
one may sync the text index); a query that is not valid syntax shows one line saying so
instead of hits, and one past
the caps or the deadline of a search also a notification. A snippet in Chinese or Japanese
is wrapped where such text breaks, between its characters (`tui.markdown.cjk_wrap`), to
the width of the palette's rows when searched: Textual wraps at spaces only, and moved
a run of such text after a Latin word whole to the next row (`Obsidian` alone on one).
"""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Callable
from functools import partial
from typing import Protocol, TypeVar, runtime_checkable

from rich.cells import cell_len
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.css.query import NoMatches
from textual.markup import escape
from textual.message import Message
from textual.widget import Widget

from okf_explorer.core.errors import OkfError
from okf_explorer.core.pages import title_says_more
from okf_explorer.core.search.find_rank import (
    FUZZY,
    TIER_NAMES,
    Findable,
    FindHit,
    NameRanker,
)
from okf_explorer.core.search.query import QueryTooLong, SearchSyntaxError, SearchTimedOut
from okf_explorer.core.search.text_index import (
    HIT_CLOSE,
    HIT_OPEN,
    LONG_FILL,
    SearchHit,
    hit_finder,
)
from okf_explorer.core.search.words import rough_stem
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.markdown import VaultBody
from okf_explorer.tui.markdown.cjk_wrap import cjk_cuts, has_wide_script
from okf_explorer.tui.state.slice import MIN_TITLE, TITLE_GAP, shorten_left

_T = TypeVar("_T")

FIND_PROMPT = "Find a page…"
"""The finder's prompt (`/`, `ctrl+p`)."""
TEXT_PROMPT = 'Search page text… (words, "phrase", prefix*, type:T, tag:T, path:P)'
"""The prompt of the text finder alone (`ctrl+f`)."""
SYNTAX_ROW = "Type words to search the text of every page"
"""`ctrl+f`'s last row before anything is typed (`TextFinder.discover`)."""
SYNTAX_HELP = '"a phrase"  prefix*  AND  OR  NOT  ( )  type:T  tag:T  path:P'
"""What that row says under it: the query syntax (docs/cli.md, `search`)."""
TEXT_PREFIX = "#"
"""In the page finder, a query starting with this searches page text."""
TEXT_HIT_LIMIT = 20
"""Text hits listed at most for one query."""
EXCLUDED_NOTE = "excluded in the vault's settings"
"""Said of a page Obsidian's "Excluded files" cover (listed after every other)."""


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


@runtime_checkable
class OpensTextSearch(Protocol):
    """What a screen offers the finder when no name matches: the text finder (`ctrl+f`)."""

    def action_search_text(self, query: str = "") -> None: ...


@runtime_checkable
class RecentPages(Protocol):
    """What a screen tells the finder about this session: where the reader has been."""

    def recent_pages(self) -> list[str]:
        """The trail's pages, oldest first (the page shown now last)."""
        ...


DISCOVERY_LIMIT = 50
"""Pages listed before the user types (the recent ones, then hubs): Textual measures
every listed option as the finder opens, so 200 made `/` 18 ms slower on obsidian-hub
(102 against 84 ms, docs/performance.md); browsing every page is the page tree's (`f`)."""


EXACT_SCORE = float("inf")
"""The score of a page the resolver finds but no name matches (a path, say): first."""
PAGE_HIT_LIMIT = 200
"""Pages listed at most for one query (the best ones)."""


class OneAtATime:
    """Blocking work run in a thread, one at a time (see the module doc)."""

    def __init__(self) -> None:
        self._turn = asyncio.Lock()

    async def run(self, work: Callable[..., _T], *args: object) -> _T:
        """`work(*args)` in a thread once no other is running. Cancelled while waiting,
        it never starts; cancelled while running, it keeps the turn until it ends."""
        async with self._turn:
            job = asyncio.ensure_future(asyncio.to_thread(work, *args))
            try:
                return await asyncio.shield(job)
            except asyncio.CancelledError:
                await asyncio.wait([job])
                raise


class PageFinder(Provider):
    """Finds pages by slug or title; `discover()` lists pages in slug order."""

    _threads: OneAtATime | None = None
    _ranker: NameRanker | None = None

    def _searching(self) -> tuple[OneAtATime, NameRanker]:
        """This palette's turn for threads and its ranker (made at its first search)."""
        if self._threads is None or self._ranker is None:
            self._threads, self._ranker = OneAtATime(), NameRanker()
        return self._threads, self._ranker

    def _pages(self) -> list[tuple[str, str]]:
        screen = self.screen
        return screen.catalogue() if isinstance(screen, PageCatalogue) else []

    def _open(self, slug: str) -> None:
        screen = self.screen
        if isinstance(screen, PageCatalogue):
            screen.open_page(slug)

    async def discover(self) -> Hits:
        """Recent pages, then hubs (`first_offer`); the listing's order without an index."""
        screen = self.screen
        if isinstance(screen, PageCatalogue) and isinstance(screen, RecentPages):
            pages = await asyncio.to_thread(screen.findables)
            for page, why in first_offer(screen.recent_pages(), pages, DISCOVERY_LIMIT):
                shown = printable(page.slug)
                title = printable(page.title)
                about = " · ".join(part for part in (why, title) if part and part != shown)
                opening = partial(self._open, page.slug)
                yield DiscoveryHit(escape(shown), opening, help=escape(about) or None)
            return
        for slug, title in self._pages()[:DISCOVERY_LIMIT]:
            shown = printable(slug)
            yield DiscoveryHit(escape(shown), partial(self._open, slug), help=_help(shown, title))

    async def search(self, query: str) -> Hits:
        """Ranked pages (`rank_pages`); the page the query resolves to (as `get NAME`
        would open it) comes first when no name of it matched (a path, say)."""
        screen = self.screen
        if not isinstance(screen, PageCatalogue) or query.startswith(TEXT_PREFIX):
            return  # `#words` searches the text (`TextFinder`), not the names
        threads, ranker = self._searching()
        pages = await threads.run(screen.findables)
        hits = await threads.run(ranker.rank, query, pages, PAGE_HIT_LIMIT)
        exact = screen.exact_hit(query)
        width = snippet_width(self.app.screen)
        if exact is not None and all(hit.slug != exact for hit in hits):
            page = next((page for page in pages if page.slug == exact), Findable(exact))
            yield self._hit(FindHit(page, -1, "resolves"), query, EXACT_SCORE, width)
        for position, hit in enumerate(hits):
            yield self._hit(hit, query, float(len(hits) - position), width)
        loose = all(hit.tier == FUZZY for hit in hits)
        if loose and exact is None and isinstance(screen, OpensTextSearch) and query.strip():
            yield self._search_text_hit(screen, query)

    def _search_text_hit(self, screen: OpensTextSearch, query: str) -> Hit:
        """No page is called `query`, and none holds it in a name: one entry that searches
        the pages' text for it (`enter` takes it when it is the only one), instead of a
        palette saying only that nothing matches, after any names matched loosely."""
        display = Content("Search the text for ") + Content.styled(printable(query), "bold")
        opening = partial(screen.action_search_text, query)
        help_text = escape(f"no page is called that · ctrl+f, or {TEXT_PREFIX} before words here")
        return Hit(0.0, display, opening, text=printable(query), help=help_text)

    def _hit(self, hit: FindHit, query: str, score: float, width: int | None = None) -> Hit:
        """`orders  analytics.orders` over `tables/ · file name exact · 34 backlinks`;
        the first row cut to `width` (`name_row`)."""
        page = hit.page
        folder, _, name = page.slug.rpartition("/")
        shown_name, title = printable(name), printable(page.title)
        shown_title = title if title and title not in (shown_name, printable(page.slug)) else ""
        display = name_row(_highlighted(shown_name, query), shown_title, width)
        how = "what the name resolves to" if hit.tier < 0 else f"{hit.field} {TIER_NAMES[hit.tier]}"
        parts = [f"{printable(folder)}/" if folder else "(root)", how]
        if page.backlinks:
            parts.append(f"{page.backlinks} backlink{'s' if page.backlinks != 1 else ''}")
        if page.excluded:
            parts.append(EXCLUDED_NOTE)
        help_text = escape(" · ".join(parts))
        opening = partial(self._open, page.slug)
        return Hit(score, display, opening, text=printable(page.slug), help=help_text)


def first_offer(recent: list[str], pages: list[Findable], limit: int) -> list[tuple[Findable, str]]:
    """What the finder lists before anything is typed, each with why: the trail's pages
    most recent first (`recent`, oldest first, ends with the page shown now, which is
    left out), then the pages with most backlinks (those the vault's settings exclude
    last); each page once, at most `limit`.

    Before the index is built no page has backlinks: the listing's order follows."""
    by_slug = {page.slug: page for page in pages}
    offered: list[tuple[Findable, str]] = []
    seen = set(recent[-1:])
    for slug in reversed(recent[:-1]):
        if slug not in seen:
            seen.add(slug)
            offered.append((by_slug.get(slug, Findable(slug)), "recent"))
    # as `sorted(..., reverse=True)[:n]`: the listing's order among equals; the pages
    # the vault's settings exclude (`core.excluded`) after every other
    hubs = heapq.nlargest(
        limit + len(seen), pages, key=lambda page: (not page.excluded, page.backlinks)
    )
    for page in hubs:
        if len(offered) >= limit:
            break
        if page.slug not in seen:
            seen.add(page.slug)
            count = page.backlinks
            offered.append((page, f"{count} backlink{'s' if count != 1 else ''}" if count else ""))
    return offered[:limit]


def _highlighted(name: str, query: str) -> Content:
    """`name` with the query, where it appears (ignoring case), in bold."""
    content = Content(name)
    wanted = query.strip().casefold()
    at = name.casefold().find(wanted) if wanted else -1
    return content.stylize("bold underline", at, at + len(wanted)) if at >= 0 else content


def _help(shown_slug: str, title: str) -> str | None:
    shown = printable(title)
    return escape(shown) if shown and shown != shown_slug else None


def name_row(name: Content, title: str, width: int | None) -> Content:
    """A hit's first row, `name` then its `title` (dim), on one row `width` cells wide
    (None: as it is): the title cut short (`…`) while a few of its letters fit beside the
    whole name, else the name alone, cut short if it must be. A row wrapped onto the next
    (a 35k-page wiki's `reference/active-directory/ad-cs-…  Configure the Certificate…`)
    made hits of three and four rows at 80 columns, each its own height."""
    if not title:
        return name if width is None else name.truncate(width, ellipsis=True)
    row = name + Content.styled(f"{' ' * TITLE_GAP}{title}", "dim")
    if width is None or row.cell_length <= width:
        return row
    if name.cell_length + TITLE_GAP + MIN_TITLE <= width:
        return row.truncate(width, ellipsis=True)
    return name.truncate(width, ellipsis=True)


def hit_name(slug: str, title: str, width: int | None) -> str:
    """A text hit's page as its first row names it: its slug, its folders cut from the
    left (`…/issue-804`) as far as its `title` needs to show whole in `width` cells, never
    past its file name. An agent's wiki of scraped issues showed every hit as
    `raw/github/kubernetes-sigs__kueue/issue-804  Issue #804: Concurrent preem…`."""
    if width is None or not title or "/" not in slug:
        return slug
    if cell_len(slug) + TITLE_GAP + cell_len(title) <= width:
        return slug
    file_name = slug.rsplit("/", 1)[-1]
    return shorten_left(slug, max(width - TITLE_GAP - cell_len(title), cell_len(file_name) + 2))


# ------------------------------------------------------------------ page text


@runtime_checkable
class TextSearchHost(Protocol):
    """What a screen offers the text finder: its brain's search and a way to open a hit."""

    def search_text(self, query: str, limit: int) -> list[SearchHit]:
        """Blocking: called in a thread."""
        ...

    def open_hit(self, slug: str, words: list[str], query: str) -> None:
        """Open the hit's page, scrolled to `words`; `query` is kept among the recent
        searches."""
        ...

    def text_reading(self) -> tuple[int, int] | None:
        """`(done, total)` of the pages the text index's first fill is reading, `(0, 0)`
        before it begins, None once filled (`TextSearch.reading`)."""
        ...

    def recent_searches(self) -> list[str]:
        """This session's searches that opened a page, the most recent first."""
        ...

    def action_search_text(self, query: str = "") -> None:
        """The text finder, `query` typed in it."""
        ...


RECENT_SEARCH_LIMIT = 10
"""Recent searches kept (and listed by `ctrl+f` before anything is typed)."""


class RecentSearches:
    """The text searches of a session that opened a page, the most recent first, each
    once, at most `RECENT_SEARCH_LIMIT`."""

    def __init__(self) -> None:
        self.queries: list[str] = []

    def add(self, query: str) -> None:
        query = query.strip()
        if query:
            others = [kept for kept in self.queries if kept != query]
            self.queries = [query, *others][:RECENT_SEARCH_LIMIT]


def snippet_content(hit: SearchHit, width: int | None = None) -> Content:
    """The snippet with its hits in bold and underlined (names shown `printable`); one
    holding Chinese or Japanese is wrapped `width` cells wide where such text breaks
    (`width` None: left to Textual)."""
    parts: list[tuple[str, str] | str] = []
    for i, piece in enumerate(hit.snippet.split(HIT_OPEN)):
        if i == 0:
            parts.append(printable(piece))
            continue
        word, _, rest = piece.partition(HIT_CLOSE)
        parts.append((printable(word), "bold underline"))
        parts.append(printable(rest))
    snippet = Content.assemble(*parts)
    if width is None or not has_wide_script(snippet.plain):
        return snippet
    rows = snippet.divide(cjk_cuts(snippet.plain, width))
    return Content("\n").join(row.rstrip() for row in rows)


def snippet_width(palette: object) -> int | None:
    """The cells a snippet's row holds in `palette`'s list (None: not a palette). The
    list is laid out once it has shown hits; before (the palette's first search) it is
    taken as wide as the palette, less a scroll bar."""
    if not isinstance(palette, CommandPalette):
        return None
    try:
        options = palette.query_one(CommandList)
    except NoMatches:
        return None
    rows = options.scrollable_content_region.width
    if rows <= 0:
        rows = palette.size.width - options.styles.scrollbar_size_vertical
    width = rows - options.get_component_styles("option-list--option").padding.width
    return width if width > 0 else None


class TextFinder(Provider):
    """Every query is a text search (the palette `ctrl+f` opens)."""

    prefix = ""
    _told: str | None = None
    _threads: OneAtATime | None = None

    def _tell(self, message: str) -> None:
        """A notification for a search refused or stopped by a limit, once per message
        while the palette is open (it searches again at every key)."""
        if message != self._told:
            self._told = message
            self.app.notify(message, title="Search", severity="warning")

    def _host(self) -> TextSearchHost | None:
        screen = self.screen
        return screen if isinstance(screen, TextSearchHost) else None

    async def discover(self) -> Hits:
        """Nothing typed in `ctrl+f`'s palette: while a long first fill reads the pages
        (`FILL_NOTICE_PAGES` or more), a row saying how far it is and that a search waits
        for it (the list was blank for as long as 35 s). The fill's worker starts as the
        palette opens: it is given `FILL_START_WAIT` seconds to begin. Filled, nothing is
        waited for: the recent searches (`enter` searches the latest again), then a row
        saying what may be typed.

        That last row is also what shows the palette at once: Textual's palette stays
        hidden until its providers have listed, and with no row at all it noticed their
        end only at its next 0.1 s look (`ctrl+f` took 120-135 ms against `/`'s 25-40)."""
        host = self._host()
        if host is None or self.prefix:  # the page finder's own list stands
            return
        reading = host.text_reading()
        waited = 0.0
        while reading == NOT_BEGUN and waited < FILL_START_WAIT:
            await asyncio.sleep(FILL_START_POLL)
            waited += FILL_START_POLL
            reading = host.text_reading()
        if reading is not None and reading[1] >= FILL_NOTICE_PAGES:
            done, total = reading  # the palette lists again as it changes (`watched`)
            yield DiscoveryHit(
                Content(f"Reading {total:,} pages for full-text search, once: {done:,} read"),
                lambda: None,
                help="a search typed now waits for it, then shows its hits",
            )
            return
        for query in host.recent_searches():
            yield DiscoveryHit(
                Content(printable(query)),
                partial(host.action_search_text, query),
                help="searched before · enter searches it again",
            )
        yield DiscoveryHit(Content(SYNTAX_ROW), lambda: None, help=escape(SYNTAX_HELP))

    async def search(self, query: str) -> Hits:
        host = self._host()
        if host is None or not query.startswith(self.prefix):
            return
        text = query[len(self.prefix) :].strip()
        if not text:
            return
        if self._threads is None:
            self._threads = OneAtATime()
        try:
            hits = await self._threads.run(host.search_text, text, TEXT_HIT_LIMIT)
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
        width = snippet_width(self.app.screen)
        for rank, hit in enumerate(hits):
            title = printable(hit.title)
            slug = printable(hit.slug)
            shown_title = title if title_says_more(slug, title) else ""
            name = Content.styled(hit_name(slug, shown_title, width), "bold")
            label = name_row(name, shown_title, width)
            yield Hit(
                float(count - rank),  # the index's ranking, best first
                label,
                partial(host.open_hit, hit.slug, hit.hit_words(), text),
                text=slug,
                help=snippet_content(hit, width),
            )


FILL_NOTICE_PAGES = LONG_FILL
"""A text index fill reading at least this many bodies says so (it takes seconds: a
35k-page wiki's first `ctrl+f` waited 20-35 s on a blank list)."""


FILL_START_WAIT = 0.2
"""Seconds `ctrl+f`'s palette waits for the text index's first fill to begin before it
lists nothing (the palette's busy mark shows only after 0.5 s)."""
FILL_START_POLL = 0.02
NOT_BEGUN = (0, 0)
"""`TextSearchHost.text_reading` of a first fill that is due but has not begun."""


class TextReading(Message):
    """How far a text index fill of `FILL_NOTICE_PAGES` bodies or more is (`done` of
    `total`; `done == total` at its end): the status line shows it."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class FillNotice:
    """The `progress` of a text index fill (`ctrl+f`'s `TextSearch.prepare`, the link
    tree's mentions), called in its thread: a fill of `FILL_NOTICE_PAGES` bodies or more
    says as it starts that the first search waits for it (a toast), and how far it is,
    to its end, as `TextReading` messages `widget` posts (the status line shows them). A
    toast at its end beside the first, still up, read "Reading 2,565 pages…: the first
    search waits for it" and "Full-text search is ready." at once."""

    def __init__(self, widget: Widget) -> None:
        self._widget = widget
        self._app = widget.app  # read on the loop: the fill calls from its thread
        self._told = False

    def __call__(self, done: int, total: int) -> None:
        app = self._app
        if done == 0 and total >= FILL_NOTICE_PAGES:
            self._told = True
            app.call_from_thread(
                app.notify,
                f"Reading {total:,} pages for full-text search and mentions, once: the"
                " first search waits for it.",
                title="Search",
            )
        if self._told:
            app.call_from_thread(self._widget.post_message, TextReading(done, total))
            self._told = done < total


class PrefixedTextFinder(TextFinder):
    """In the page finder: only queries starting with `TEXT_PREFIX`."""

    prefix = TEXT_PREFIX


LAYOUT_POLL = 0.02
"""Seconds between two looks at whether a search hit's rows are laid out."""
LAYOUT_TRIES = 100
"""Looks a jump to a search hit takes at most (2 s) before it gives up."""


class TextJump:
    """Scroll a page to a search hit once its body is on screen."""

    def __init__(self) -> None:
        self._wanted: tuple[str, list[str]] | None = None

    def want(self, slug: str, words: list[str]) -> None:
        self._wanted = (slug, words) if words else None

    def body_shown(self, slug: str | None, body: Widget, tries: int = LAYOUT_TRIES) -> bool:
        """Scroll `body`'s scrollable ancestor to the hit if `slug` is the wanted page,
        once the rows holding it are laid out (looked at again every `LAYOUT_POLL`
        seconds, at most `tries` times: a dialog closing holds the layout back)."""
        if self._wanted is None or slug != self._wanted[0]:
            return False
        words = [w.casefold() for w in self._wanted[1]]
        target = find_rendered(body, words)
        if target is None:
            self._wanted = None
            return False
        widget, line = target
        if widget.size.height <= line and tries > 0:  # its rows are not laid out yet
            body.set_timer(LAYOUT_POLL, partial(self.body_shown, slug, body, tries - 1))
            return False
        self._wanted = None
        body.scroll_to_widget(widget, animate=False, top=True)
        if line:
            body.call_after_refresh(partial(body.scroll_relative, y=line, animate=False))
        found = hit_finder([rough_stem(word) for word in words])  # `operators`: `operator` too
        for drawn in body.query(VaultBody):
            drawn.show_found(found)
        return True


def find_rendered(root: Widget, words: list[str]) -> tuple[Widget, int] | None:
    """The first line of the text rendered under `root` holding the most of `words`
    (any case), with the line after it (a sentence the pane wrapped over two rows), as
    the leaf widget it is in and its line there: where the snippet is, not the first
    place one of them is (`boolean operators` before the table of `JavaScript
    operator`). The line itself holds one of them at least."""
    wanted = set(words)
    best: tuple[Widget, int] | None = None
    most = 0
    for widget in root.query("*"):
        if widget.children or not widget.display:
            continue
        folded = _plain(widget).casefold()
        if not any(word in folded for word in wanted):
            continue
        lines = folded.split("\n")
        for at, line in enumerate(lines):
            if not any(word in line for word in wanted):
                continue
            pair = f"{line} {lines[at + 1]}" if at + 1 < len(lines) else line
            held = sum(word in pair for word in wanted)
            if held > most:
                best, most = (widget, at), held
                if held == len(wanted):
                    return best
    return best


def _plain(widget: Widget) -> str:
    try:
        rendered = widget.render()
    except Exception:  # a widget that cannot render outside a frame holds no text for us
        return ""
    plain = getattr(rendered, "plain", None)
    return plain if isinstance(plain, str) else ""
