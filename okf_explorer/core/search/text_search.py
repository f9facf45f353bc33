"""`TextSearch`: full-text search over a brain, by its own text index or its server.

The local `TextIndex` is kept in step with the brain's link index: before
each question, if the link index is not the one last synced, the text index
is synced with it (only changed bodies are read). Over MCP, a server that
lists a `search` tool answers searches itself (unless `--scan` asked for our
own index); its rows carry a chunk of text, around which we cut a snippet.

Over an MCP source without a `search` tool (or with `--scan`) the local index
needs every body: the link scan does not keep them, so they are fetched once
more (`BodyReader`: batched `get_page` calls) the first time, then only the
pages whose `updated_at` moved.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from okf_explorer.core.errors import PageNotFound, PageUnreadable
from okf_explorer.core.excluded import NONE_EXCLUDED, Excluded
from okf_explorer.core.index.model import LinkIndex
from okf_explorer.core.pages import Markup
from okf_explorer.core.port import (
    BodyMapper,
    BodyReader,
    PageSource,
    ProgressCallback,
    ServerSearch,
)
from okf_explorer.core.search import meaning
from okf_explorer.core.search.document import Document
from okf_explorer.core.search.query import SearchQuery, parse_query
from okf_explorer.core.search.text_index import (
    SNIPPET_TOKENS,
    BodyMap,
    SearchHit,
    TextIndex,
    snippet_around,
)
from okf_explorer.core.text_safety import printable

if TYPE_CHECKING:
    from pathlib import Path

    from okf_explorer.core.pages import PageInfo

log = logging.getLogger(__name__)

DEFAULT_LIMIT = 20
MAX_LIMIT = 1000
"""The most hits one search returns."""


class TextSearch:
    """Searches and the text index of one brain (`Brain.text_search()`).

    `link_index()` is the brain's current link index (built if needed), `tagged(tag)`
    its pages with a tag (what a server's answer is filtered by), `path` where the text
    index is kept (None: in memory).
    """

    def __init__(
        self,
        source: PageSource,
        link_index: Callable[[], LinkIndex],
        tagged: Callable[[str], Iterable[PageInfo]],
        path: Path | None,
        *,
        use_server: bool,
        excluded: Callable[[], Excluded] = lambda: NONE_EXCLUDED,
        markup: Callable[[], Markup] = lambda: "markdown",
    ) -> None:
        self._source = source
        self._link_index = link_index
        self._tagged = tagged
        self._path = path
        self._use_server = use_server
        self._excluded = excluded
        self._markup = markup
        self._lock = threading.Lock()
        self._index: TextIndex | None = None
        self._synced: LinkIndex | None = None
        self._whole = False
        """Whether the last sync read the pages the settings exclude too (`everything`)."""
        self._fallback_said = False
        self._reading: tuple[int, int] | None = None

    @property
    def answered_by(self) -> str:
        """`server` when the source's own search answers, else `index`."""
        return "server" if self._server() is not None else "index"

    def search(
        self,
        query: str | SearchQuery,
        limit: int = DEFAULT_LIMIT,
        *,
        offset: int = 0,
        tokens: int = SNIPPET_TOKENS,
        everything: bool = False,
        hide: Callable[[str], bool] | None = None,
    ) -> list[SearchHit]:
        """Ranked hits (snippets of about `tokens` words), without the pages the source's
        settings exclude (`core.excluded`) unless `everything`, nor those `hide(slug)`
        keeps from the caller (`serve`'s private pages); raises `SearchSyntaxError`."""
        parsed = parse_query(query) if isinstance(query, str) else query
        excluded = self._excluded()
        hidden: Callable[[str], bool] | None = excluded if excluded and not everything else None
        if hide is not None:
            hidden = hide if hidden is None else partial(_either, hidden, hide)
        limit = max(1, min(int(limit), MAX_LIMIT))
        if parsed.listing:
            return self._listed(parsed, hidden)[max(0, offset) : max(0, offset) + limit]
        server = self._server()
        if server is not None:
            hits = self._server_search(server, parsed, limit + max(0, offset))
            if hits is not None:
                return hits[max(0, offset) :]
        index = self.text_index(everything=everything)
        try:
            return index.search(
                parsed, limit, offset, tokens, backlinks=self._backlinks(), hidden=hidden
            )
        finally:  # a file that failed during the search leaves the index in memory
            with self._lock:
                self._say_fallback(index)

    def _listed(self, query: SearchQuery, hidden: Callable[[str], bool] | None) -> list[SearchHit]:
        """Every readable page passing the filters of `query` (filters alone, no words),
        the most linked to first, then in slug order; its description as its snippet.
        No body is read: the pages so tagged are the brain's (`tagged`: a server's own tag
        filter, else the link index's tags), the rest the link index's pages."""
        pages = self._tagged(query.tag) if query.tag else self._link_index().pages.values()
        backlinks = self._backlinks()
        kind = query.type.casefold() if query.type else None
        found = [  # the filters as `ranking.filters` applies them to a search's hits
            info
            for info in pages
            if info.readable
            and (kind is None or (info.type or "").casefold() == kind)
            and (not query.types or info.type in query.types)
            and (query.path is None or info.slug.startswith(query.path))
            and not (hidden is not None and hidden(info.slug))
        ]
        counts = {info.slug: backlinks(info.slug) for info in found}
        found.sort(key=lambda info: (-counts[info.slug], info.slug))
        return [
            SearchHit(
                info.slug,
                info.title,
                info.type,
                float(counts[info.slug]),
                printable(" ".join((info.description or "").split())),
            )
            for info in found
        ]

    def _backlinks(self) -> Callable[[str], int]:
        """How many pages link to a page, by the brain's link index (what the finder
        counts too)."""
        reverse = self._link_index().reverse
        return lambda slug: len(set(reverse.get(slug, ())))

    @property
    def filled(self) -> bool:
        """Whether the local text index was filled once (a later search reads only
        what changed since)."""
        return self._synced is not None

    @property
    def reading(self) -> tuple[int, int] | None:
        """What a search asked now waits for: `(done, total)` of the pages the first fill
        of the local text index is reading, `(0, 0)` while that fill is due but has not
        begun; None once filled, or when the server's own search answers (no fill)."""
        if self._synced is not None or self._server() is not None:
            return None
        return self._reading or (0, 0)

    def prepare(self, progress: ProgressCallback | None = None, *, embeddings: bool = True) -> None:
        """Fill the local text index now, and load the word embeddings
        (`core.search.meaning`) unless not `embeddings`, so a search about to be asked
        waits for neither (nothing when the server's own search answers). Blocking;
        `progress` as `TextIndex.sync` has it."""
        if self._server() is None:
            self.text_index(progress)
            if embeddings:
                self.prepare_meaning()

    def prepare_meaning(self) -> None:
        """Load the word embeddings (`core.search.meaning`) a local search ranks its
        questions with, so the first question waits for nothing: the explorer loads them
        while the person reads (`tui.screens.main`). Blocking; nothing when the server's
        own search answers, or the embeddings are off or not installed."""
        if self._server() is None:
            meaning.enabled()

    def text_index(
        self, progress: ProgressCallback | None = None, *, everything: bool = False
    ) -> TextIndex:
        """The local text index, synced with the brain's current link index. The pages
        the source's settings exclude (`core.excluded`) are read only for a search of
        `everything` (a 35k-page wiki excluding its 30k raw sources fills in a fifth of
        the time): a search leaves them out anyway, and so do mentions."""
        link_index = self._link_index()
        excluded = self._excluded()
        with self._lock:
            if self._index is None:
                self._index = TextIndex(self._path, self._source.cache_key)
            whole = everything or not excluded
            if self._synced is not link_index or (whole and not self._whole):
                skip = None if whole else excluded

                def told(done: int, total: int) -> None:
                    self._reading = (done, total)
                    if progress is not None:
                        progress(done, total)

                try:
                    self._index.sync(link_index.pages, self._reader(), told, skip, self._markup())
                finally:
                    self._reading = None
                self._synced, self._whole = link_index, whole
            self._say_fallback(self._index)
            return self._index

    def _say_fallback(self, index: TextIndex) -> None:
        """Say once (a warning: one line on stderr) that the index lives in memory
        (called under `_lock`)."""
        if index.fallback and not self._fallback_said:
            self._fallback_said = True
            log.warning("okf-explorer: %s; searching in memory", printable(index.fallback))

    def close(self) -> None:
        with self._lock:
            if self._index is not None:
                self._index.close()
                self._index = None
                self._synced = None

    def _reader(self) -> BodyMap:
        """How the text index reads bodies into rows: where the source reads them (a
        folder's worker processes) when it can."""
        source = self._source
        if isinstance(source, BodyMapper):
            return source.map_bodies
        if isinstance(source, BodyReader):
            return partial(_made_here, source.read_bodies)
        return partial(_made_here, partial(_bodies_one_by_one, source))

    def _server(self) -> ServerSearch | None:
        source = self._source
        if self._use_server and isinstance(source, ServerSearch):
            return source
        return None

    def _server_search(
        self, server: ServerSearch, query: SearchQuery, limit: int
    ) -> list[SearchHit] | None:
        """The server's answer in our shape; filters it cannot apply are applied here."""
        types = [query.type] if query.type else (list(query.types) or None)
        asked = limit if not (query.tag or query.path) else min(MAX_LIMIT, limit * 5)
        rows = server.search_pages(" ".join(query.words), asked, types)
        if rows is None:
            return None
        tagged = None
        if query.tag:
            tagged = {info.slug for info in self._tagged(query.tag)}
        words = list(query.words)
        hits: list[SearchHit] = []
        seen: set[str] = set()
        for row in rows:
            slug = row["slug"]
            if slug in seen or (query.path and not slug.startswith(query.path)):
                continue
            if tagged is not None and slug not in tagged:
                continue
            seen.add(slug)
            hits.append(_server_hit(row, words))
            if len(hits) >= limit:
                break
        return hits


def _made_here(
    read: Callable[[list[str]], Iterable[tuple[str, str]]],
    slugs: list[str],
    make: Callable[[str, str, str], Document],
) -> Iterator[tuple[str, Document]]:
    """`BodyMap` of a source that only reads bodies: each made into its row here (no
    frontmatter as written: a server's pages are searched without their properties)."""
    for slug, body in read(slugs):
        yield slug, make(slug, body, "")


def _bodies_one_by_one(source: PageSource, slugs: Iterable[str]) -> Iterator[tuple[str, str]]:
    for slug in slugs:
        try:
            page = source.get_page(slug)
        except (PageNotFound, PageUnreadable):
            continue
        if page.readable:
            yield slug, page.content


def _server_hit(row: dict[str, Any], words: Sequence[str]) -> SearchHit:
    text = row.get("chunk_text") if isinstance(row.get("chunk_text"), str) else ""
    score = row.get("score")
    kind = row.get("type")
    title = row.get("title")
    return SearchHit(
        slug=row["slug"],
        title=title if isinstance(title, str) else row["slug"],
        type=kind if isinstance(kind, str) else None,
        score=float(score) if isinstance(score, int | float) else 0.0,
        snippet=snippet_around(text or "", words),
    )


def _either(first: Callable[[str], bool], second: Callable[[str], bool], slug: str) -> bool:
    return first(slug) or second(slug)
