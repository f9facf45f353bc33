"""`TextIndex`: the full-text index of page bodies, an SQLite FTS5 table.

It lives beside the link index's cache file (same folder, same name, suffix
`.fts`), or in memory when the disk cache is off, and is refreshed the same
way: `sync` compares each page's fingerprint and title in the link index with the
ones stored here and reads only the bodies of pages that changed, appeared, were
retried or were titled anew; pages that disappeared are dropped. One transaction per
sync, so an interrupted sync leaves the previous state. The first fill of a file is written in a
file of its own beside it and renamed over the empty index (`_fill_aside`): no row goes
through the write-ahead log and is copied again (databricks-okf's first fill into a file,
`tests/bench/bench_search.py --fill`: 2.8 → 2.3 s).

What it holds of a page is `core.search.document`'s row: title, other names,
headings, summary and body as text, in FTS5 columns weighed apart
(`core.search.ranking`), with its names (`names` table: "the page called X") and its
Markdown as written (`docs.body`, for the mention finder, which reads links and code).

Tokenizer: `porter` over `unicode61` with diacritics folded: English words are
stemmed (`notes` finds `note`, `embedding` finds `embed`), prefix queries are
stemmed alike (`happy*` finds `happiness`). No prefix indexes: measured on the
10k-page benchmark bundle they added a third to filling the index, and prefix queries
stay well within the search latency target without them (docs/performance.md). The
`trigram` tokenizer matches substrings, but measured on the same bundle it took 1.43 s
to fill (unicode61: 0.21 s) and 29 MB on disk (10 MB): scripts written without spaces
are indexed one character a token instead (`core.search.words`). Word matching is
also what the mention finder needs (`core.search.mentions`).

The file is a private cache like the link index's: mode 0600. A file of
another version or layout (its tables differ from ours in any way), of another
source, or corrupt (when opened, or found so later) is replaced by an empty
index of ours in one `os.replace` (its `-wal`/`-shm` removed first, so a stale
log is never replayed into it) and filled again. When the file cannot be kept
(a file where its folder should be, a folder in its place, a read-only folder,
a full disk) the index lives in memory instead and `fallback` says why: a
search never fails for want of a cache.

Every search has a deadline (`SEARCH_DEADLINE`): SQLite's progress handler
stops it between steps of its work (`SearchTimedOut`). One step (one page's
ranking or snippet) is not interruptible, which is why the query's size is
capped (`core.search.query`) and so is the snippet's work (below).

Snippets, one line of a page's text around its hits, with bounded work: every snippet
is built here, from the body as text (`core.search.plain_text`: links, HTML and
Markdown syntax gone, so the marks fall on words only), the same for the CLI, JSON,
the explorer and `serve`. On an ordinary page it is FTS5's own `snippet()` over the
whole body; its cost grows with the square of the page's hit instances (every
instance of every phrase scores a window of every other), and a 5 MB page holding a
common word 70,000 times took 30 s a search. So FTS5 sees a whole page only while
`phrases × tokens` (an upper bound of its instances) is at most `INSTANCE_BUDGET`,
about 0.2 s of that work at worst; any other page gets a snippet of a window of its
body (`window_snippet`), of at most `2 × INSTANCE_BUDGET / phrases` characters, the
first holding the most of the query's words, marked by FTS5 in a scratch table of its
own. A server's rows (`snippet_around`, for `core.search.text_search`) are read as
text and cut the same way. Hits are marked between `HIT_OPEN` and
`HIT_CLOSE`, never part of indexed text.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import TypeVar

from okf_explorer.core.atomic import atomic_write, remove_stale_temps, temp_beside
from okf_explorer.core.pages import Markup, PageInfo
from okf_explorer.core.port import ProgressCallback
from okf_explorer.core.search import meaning
from okf_explorer.core.search.document import (
    BODY_COLUMN,
    FIELDS,
    HIT_CLOSE,
    HIT_OPEN,
    PROPERTIES_COLUMN,
    Document,
    DocumentMaker,
)
from okf_explorer.core.search.find_rank import name_order, normalise
from okf_explorer.core.search.plain_text import display_text, index_text
from okf_explorer.core.search.query import (
    SearchQuery,
    SearchSyntaxError,
    SearchTimedOut,
    query_terms,
)
from okf_explorer.core.search.ranking import (
    CANDIDATES,
    EXCLUDED_FUNCTION,
    TAG_SEP,
    Rarity,
    Row,
    best_pages,
    filters,
    rerank,
)
from okf_explorer.core.search.words import (
    TOKENIZER,
    WORD_CHAR,
    has_cjk,
    piece_pattern,
    rough_stem,
    run_pieces,
    spaced,
    split_cjk,
    unspaced,
)

__all__ = [
    "HIT_CLOSE",
    "HIT_OPEN",
    "LONG_FILL",
    "SEARCH_DEADLINE",
    "SNIPPET_TOKENS",
    "TEXT_INDEX_VERSION",
    "SearchHit",
    "TextIndex",
    "snippet_around",
]

PROGRESS_STEP = 1000
"""Bodies read between two reports of a fill's progress (`TextIndex.sync`)."""
LONG_FILL = 2000
"""A fill reading this many bodies or more takes seconds (a 35k-page wiki's, 20-35 s):
the explorer and the command line say so as it starts."""
TEXT_INDEX_VERSION = "37"
"""Bump when the tables below, or what a page's row holds, change: an older file is
rebuilt. 2: fields weighed apart, stemming, pages' names, text without Markdown.
3: inline footnotes read as their note, a cited file name dropped (`plain_text`).
4: names without their emoji (`find_rank.normalise`). 5: a page's properties
(`document.property_text`), a column of their own. 6: titles read anew (no title from a
`#` heading after text, `sources.frontmatter.first_heading`). 7: math read as text
(`core.math_text`). 8: Dataview's queries of a page's own fields as their values, and
titles read anew likewise (`core.dataview`). 9: a Logseq graph's own macros as their
templates (`core.logseq_macros`). 10: titles read anew (none from the first of three `# `
headings). 11: a Markdown link whose address holds balanced parentheses read as its text.
12: a callout's type anything up to its `]` (`[!take away]`). 13: math read where the
page draws it (`core.links.grammar.math_ranges`: `$$` blocks across blank lines, not
across paragraphs otherwise). 14: a Logseq block's hidden properties, all of Logseq's list
(`plain_text.LOGSEQ_HIDDEN_PROPERTIES`), not only `id::` and `collapsed::`. 15: Thai, Lao,
Khmer and Burmese one character a token, as Chinese (`core.search.words`). 16: math's
script of one character Unicode has no script letter for without braces (`x_α`). 17: tags
written as a quoted list (`tags: "[a, b]"`) read as that list (`sources.frontmatter.as_tags`).
18: a body without its opening heading when that heading is the title
(`document.after_title_heading`). 19: titles read anew (their dollar math as the page
draws it, `core.links.reading`). 20: no dollar math from one list item into the next.
21: a fenced block's code between `plain_text.CODE_OPEN` and `CODE_CLOSE` (its snippets
show the code as written). 22: no HTML tag taken out of code (`` `<uuid>.jsonl` ``).
23: fenced blocks as the link grammar finds them (in a quote or a list item too).
24: links, URLs and entities in code kept as written (`` `[[Projects/Note]]` ``).
25: a heading in a list item is a heading (`- ## Usage`, `plain_text.heading_text`).
26: the code of a block fenced by tildes kept as written too, on a page without backticks.
27: an escaped tag (`&lt;div&gt;`) is text, as before 24; tags in code held aside as links.
28: a Logseq block's properties read `key: value`, as Logseq shows them (`logseq_visible`).
29: titles read anew (their character references as the page draws them).
30: headings and titles without the attribute block ending them (`## Usage {#usage}`).
31: the body's text without them too (a snippet showed `Usage { usage }`).
32: math accents over any character (`\\bar{X}` was left as TeX, `core.math_text`).
33: code spans between the code marks, not their backticks (`plain_text._span_marked`).
34: an element's opening tag left without its `>` runs to the next (`<div class="x"` …
`</div>`), as the page draws it. 35: math's `\\vDash` as `⊨`. 36: a
display's line breaks as spaces, its aligned rows' matrices as grids, math in `\\text{…}`,
bussproofs' proof trees as trees. 37: a code span ends with its paragraph (a list item, a
heading: `core.links.grammar.paragraph_breaks`), and math's `\\mathbb{1}` as `𝟙`; a heading
without its MDX id comment (`{/*usage*/}`)."""
SNIPPET_TOKENS = 16
"""Words in a search snippet (FTS5 caps it at 64)."""
CJK_TOKENS_A_WORD = 3
"""Tokens (characters) of Chinese or Japanese text a snippet of a query in those scripts
gives for each word it would show of English (about a word's worth of meaning)."""
SEARCH_DEADLINE = 5.0
"""Seconds one search may run before it is stopped (read when a search starts)."""
_PROGRESS_STEPS = 1000
"""SQLite virtual-machine steps between two looks at the deadline."""
MEANING_MARGIN = 0.25
"""Seconds a search must have left before its deadline for its question to be ranked
again by meaning (a few ms): rather an answer by keywords than none."""
_MEANING_COLUMNS = ", ".join(
    f"substr({field}, 1, {meaning.BODY_CHARS * 4})" for field in FIELDS[: BODY_COLUMN + 1]
)
"""The columns `meaning.page_text` reads, each cut long enough for it (a long page's
body and headings are not read whole)."""
ELLIPSIS = "…"
INSTANCE_BUDGET = 6000
"""Hit instances FTS5's `snippet()` may see in one page (its work is their square)."""
WINDOW_MAX_CHARS = 12_000
WINDOW_MIN_CHARS = 400
HEAD_CHARS = 65_536
"""How much of a big page's body is read first to find its first hit."""
DENSEST_HITS = 20_000
"""Hits of a big page's terms looked at for the window holding the most of them."""
SERVER_SNIPPET_CHARS = 160
"""Characters of a server row's text kept around its first hit."""

_WORD_ONLY = re.compile(f"{WORD_CHAR}+")
_PHRASE_OR_WORD = re.compile(f'"([^"]*)"(\\*?)|({WORD_CHAR}+)(\\*?)')
_OPERATORS = frozenset({"AND", "OR", "NOT", "NEAR"})

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS docs (id INTEGER PRIMARY KEY, slug TEXT UNIQUE NOT NULL,"
    " fingerprint TEXT NOT NULL, title TEXT NOT NULL, type TEXT, tags TEXT NOT NULL,"
    " body TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS names (key TEXT NOT NULL, doc INTEGER NOT NULL)",
    f"CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5({', '.join(FIELDS)},"
    f" tokenize='{TOKENIZER}')",
)
_NAME_INDEXES = {
    "names_key": "CREATE INDEX IF NOT EXISTS names_key ON names (key)",
    "names_doc": "CREATE INDEX IF NOT EXISTS names_doc ON names (doc)",
}
"""The `names` table's indexes: a first fill makes them after its rows (`_insert`)."""

_STORED_ROWS = "SELECT slug, fingerprint, title FROM docs"


def _held(info: PageInfo) -> tuple[str, str]:
    """What a page's row is kept by: its fingerprint and its title."""
    return info.fingerprint, info.title


LOG_LIMIT = 4 << 20
"""Bytes of its write-ahead log the index file keeps after a checkpoint (SQLite keeps the
log's largest size for reuse)."""
_DAMAGED = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
"""SQLite errors saying the file is not (or no longer) a database: rebuild it."""
_CANNOT_KEEP = frozenset(
    {
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
    }
)
"""SQLite errors saying the file cannot be written (or read) now: go on in memory."""

BodyMap = Callable[[list[str], Callable[[str, str, str], Document]], Iterable[tuple[str, Document]]]
"""Reads the bodies of some slugs and makes each a row: `(slug, make(slug, body,
frontmatter))` pairs, any order; unreadable ones skipped (`core.port.BodyMapper`)."""

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One ranked page of a search: `score` higher is better (`core.search.ranking`;
    a page called by the query scores above the rest); `snippet` is the page's text
    flattened to one line with each hit between `HIT_OPEN` and `HIT_CLOSE` (see
    `marked`)."""

    slug: str
    title: str
    type: str | None
    score: float
    snippet: str

    def marked(self, open_mark: str = "«", close_mark: str = "»") -> str:
        """The snippet with the hits between `open_mark` and `close_mark`."""
        return self.snippet.replace(HIT_OPEN, open_mark).replace(HIT_CLOSE, close_mark)

    def hit_words(self) -> list[str]:
        """The highlighted words of the snippet, in order."""
        words = []
        for part in self.snippet.split(HIT_OPEN)[1:]:
            word = part.split(HIT_CLOSE, 1)[0].strip()
            if word:
                words.append(word)
        return words


class _Foreign(Exception):
    """The file is an SQLite database, but not an index of ours for this source."""


class TextIndex:
    """An FTS5 index of page bodies (`path=None`: in memory). Thread-safe.

    `path` becomes None, and `fallback` says why, when the file cannot be kept.
    """

    def __init__(self, path: Path | None, source_key: str) -> None:
        self.path = path
        self.fallback: str | None = None
        self._key = source_key
        self._lock = threading.Lock()
        self._synced: tuple[Mapping[str, PageInfo], BodyMap] | None = None
        self._opened: int | None = None  # the file's inode when it was opened
        self._db = self._open()

    # -- the file --------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return self._in_memory()
        try:
            return self._open_file(self.path)
        except (OSError, sqlite3.Error) as error:
            return self._give_up_file(self.path, error)

    def _in_memory(self) -> sqlite3.Connection:
        db = sqlite3.connect(":memory:", check_same_thread=False)
        db.execute("PRAGMA journal_mode=OFF")
        _create(db, self._key)
        return db

    def _open_file(self, path: Path) -> sqlite3.Connection:
        """Our index at `path`: opened as it is when it is ours, else replaced by an
        empty one first. Raises OSError or `sqlite3.Error` when it cannot be kept."""
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise OSError(f"{path.name} is not a regular file")
        if not path.exists():
            self._replace_with_empty(path)
        try:
            return self._connect(path)
        except (_Foreign, sqlite3.DatabaseError) as error:
            if isinstance(error, sqlite3.Error) and _code(error) not in _DAMAGED:
                raise
        self._replace_with_empty(path)
        try:
            return self._connect(path)
        except _Foreign:  # another process put its own file back meanwhile: let it be
            raise OSError(f"{path.name} is not an index of this version") from None

    def _connect(self, path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, check_same_thread=False, timeout=10)
        try:
            if _layout(db) != _our_layout() or _meta(db) != _wanted_meta(self._key):
                raise _Foreign
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(f"PRAGMA journal_size_limit={LOG_LIMIT}")
            self._opened = os.stat(path).st_ino
        except BaseException:
            db.close()
            raise
        return db

    def _follow_replacement(self) -> None:
        """Open the file again when another process has put a new index in its place
        since it was opened here (its first fill, written aside): its rows are there, and
        what is written here must go where the next process will read it."""
        path = self.path
        if path is None:
            return
        try:
            if os.stat(path).st_ino == self._opened:
                return
        except OSError:
            return
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db = self._open()

    def _replace_with_empty(self, path: Path) -> None:
        """Put an empty index of ours at `path` in one rename; its old log goes first (a
        log left beside a new file would be replayed into it)."""
        fresh = sqlite3.connect(":memory:")
        try:
            _create(fresh, self._key)
            data = fresh.serialize()
        finally:
            fresh.close()
        _remove_log(path)
        atomic_write(path, data, mode=0o600, durable=False)

    def _give_up_file(self, path: Path, error: BaseException) -> sqlite3.Connection:
        """Keep the index in memory from now on; `fallback` says why."""
        self.fallback = f"cannot keep the search index in {path.parent} ({_reason(error)})"
        self.path = None
        return self._in_memory()

    def _recover(self, error: sqlite3.Error) -> None:
        """After `error` from the file: a damaged file is replaced by an empty one, a file
        that cannot be written is left for memory. Re-raises any other error."""
        code, path = _code(error), self.path
        if path is None or (code not in _DAMAGED and code not in _CANNOT_KEEP):
            raise error
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        cause: BaseException = error
        if code in _DAMAGED:
            try:
                self._replace_with_empty(path)
                self._db = self._connect(path)
                return
            except (OSError, sqlite3.Error, _Foreign) as failure:
                cause = failure
        self._db = self._give_up_file(path, cause)

    def _with_recovery(self, work: Callable[[], _T]) -> _T:
        """`work()`; when the file fails it (damaged, or cannot be written), recover, fill
        the index again as the last sync did, and run `work()` once more."""
        try:
            return work()
        except sqlite3.Error as error:
            self._recover(error)
        if self._synced is not None:
            self._sync(*self._synced)
        return work()

    # -- filling ---------------------------------------------------------------------

    def sync(
        self,
        pages: Mapping[str, PageInfo],
        map_bodies: BodyMap,
        progress: ProgressCallback | None = None,
        skip: Callable[[str], bool] | None = None,
        markup: Markup = "markdown",
    ) -> int:
        """Bring the index up to `pages` (readable pages only), written in `markup`
        (`document.document`); returns how many bodies were read. `progress(done,
        total)` hears of the bodies to read (first with 0 done, then every
        `PROGRESS_STEP`, last with all done) when there are any. `skip(slug)`: a page not
        to read now (one the brain's settings exclude from search, `core.excluded`): left
        out unless already held unchanged. Raises what `map_bodies` raises (nothing is
        then committed)."""
        with self._lock:
            try:
                read = self._sync(pages, map_bodies, progress, skip, markup)
            except sqlite3.Error as error:
                self._recover(error)
                read = self._sync(pages, map_bodies, progress, skip, markup)
            self._synced = (pages, map_bodies)
            if read and self.path is not None:
                self._cut_log()
            return read

    def _cut_log(self) -> None:
        """Write the log into the file and cut it to nothing: a first fill is one
        transaction, whose log grew as big as the index (455 MB beside a 453 MB index of a
        16k-page wiki) and stayed so, the explorer quitting without a close. Another
        process reading the file may keep it from being cut now: the next fill will."""
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def _sync(
        self,
        pages: Mapping[str, PageInfo],
        map_bodies: BodyMap,
        progress: ProgressCallback | None = None,
        skip: Callable[[str], bool] | None = None,
        markup: Markup = "markdown",
    ) -> int:
        self._follow_replacement()
        db = self._db
        # a page whose title changed, its file not (`core.index.build.name_shared_headings`:
        # another page came or went), is read again as one that changed
        stored = {slug: (fp, title) for slug, fp, title in db.execute(_STORED_ROWS)}
        wanted = {slug: info for slug, info in pages.items() if info.readable}
        gone = [s for s, held in stored.items() if s not in wanted or _held(wanted[s]) != held]
        fresh = [s for s, info in wanted.items() if stored.get(s) != _held(info)]
        if skip is not None:
            fresh = [slug for slug in fresh if not skip(slug)]
        if not gone and not fresh:
            return 0
        tell = progress if progress is not None and fresh else None
        if tell is not None:
            tell(0, len(fresh))
        read = None
        if not stored and self.path is not None:
            read = self._fill_aside(self.path, fresh, wanted, map_bodies, tell, markup)
            if self.path is None:  # the file could not be opened again: fill the memory's
                return self._sync(pages, map_bodies, progress, skip, markup)
        if read is None:
            db = self._db  # the fill aside may have opened the file again
            with db:
                for slug in gone:
                    row = db.execute("SELECT id FROM docs WHERE slug = ?", (slug,)).fetchone()
                    db.execute("DELETE FROM fts WHERE rowid = ?", row)
                    db.execute("DELETE FROM names WHERE doc = ?", row)
                    db.execute("DELETE FROM docs WHERE id = ?", row)
                read = _insert(db, fresh, wanted, map_bodies, tell, markup)
        if tell is not None:
            tell(len(fresh), len(fresh))
        return read

    def _fill_aside(
        self,
        path: Path,
        fresh: list[str],
        wanted: Mapping[str, PageInfo],
        map_bodies: BodyMap,
        tell: ProgressCallback | None,
        markup: Markup,
    ) -> int | None:
        """A first fill of the file, written aside and put in its place whole; how many
        bodies were read, or None when the folder takes no file beside it (then fill in
        place). Filled in place, every row would go through the write-ahead log first
        and be copied again into the file (the log as big as the index), with a sync
        at the end. Aside, a file of no other reader needs no log: written once,
        synced once, renamed over the empty index. A fill that fails or is stopped
        leaves the empty index as it was, and no file of its own."""
        remove_stale_temps(path)
        try:
            temp = temp_beside(path)
        except OSError:
            return None
        try:
            aside = sqlite3.connect(temp)
            try:
                aside.execute("PRAGMA journal_mode=OFF")
                aside.execute("PRAGMA synchronous=OFF")
                _create(aside, self._key)
                with aside:
                    read = _insert(aside, fresh, wanted, map_bodies, tell, markup)
            finally:
                aside.close()
            with open(temp, "rb") as written:  # whole on disk before it is the index
                os.fsync(written.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(temp)
            raise
        self._db.close()
        try:
            _remove_log(path)
            os.replace(temp, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.remove(temp)
            return None
        finally:
            self._db = self._open()
        return read

    # -- searching -------------------------------------------------------------------

    def search(
        self,
        query: SearchQuery,
        limit: int = 20,
        offset: int = 0,
        tokens: int = SNIPPET_TOKENS,
        *,
        deadline: float | None = None,
        backlinks: Callable[[str], int] | None = None,
        hidden: Callable[[str], bool] | None = None,
    ) -> list[SearchHit]:
        """Ranked hits of `query`, snippets of about `tokens` words (at most 64).

        The pages called by the query (`SearchQuery.name`) come first, in the finder's
        order, then the others by `core.search.ranking`; `backlinks(slug)` is how many
        pages link to a page (both orders use it; None: none known); `hidden(slug)` leaves
        a page out (`core.excluded`; None: none). Raises
        `SearchSyntaxError` for bad FTS5 syntax, `SearchTimedOut` past `deadline`
        seconds (default `SEARCH_DEADLINE`, read now).
        """
        if _asks_meaning(query):
            meaning.enabled()  # a first question loads the embeddings before its deadline runs
        seconds = SEARCH_DEADLINE if deadline is None else deadline
        stop_at = time.monotonic() + seconds
        if has_cjk(query.text):  # a token of such text is one character, not a word
            tokens *= CJK_TOKENS_A_WORD
        tokens = max(1, min(int(tokens), 64))
        phrases = query_terms(query.text)
        if hidden is not None:
            query = replace(query, hide_excluded=True)
        with self._lock:

            def work() -> list[SearchHit]:
                hits = []
                if hidden is not None:  # on the connection the search runs on (a recovery
                    # opens another)
                    self._db.create_function(EXCLUDED_FUNCTION, 1, hidden, deterministic=True)
                with self._deadline(stop_at):
                    rows = self._ranked(query, limit, offset, backlinks or _no_links, stop_at)
                    for rowid, slug, title, kind, score in rows:
                        if time.monotonic() > stop_at:
                            raise SearchTimedOut(seconds)
                        snippet = self._snippet(rowid, query, phrases, tokens, stop_at)
                        hits.append(SearchHit(slug, title, kind, float(score), snippet))
                return hits

            try:
                return self._with_recovery(work)
            except sqlite3.OperationalError as error:
                if _code(error) == sqlite3.SQLITE_INTERRUPT:
                    raise SearchTimedOut(seconds) from None
                raise SearchSyntaxError(f"bad search syntax: {_fts_message(error)}") from None

    @contextlib.contextmanager
    def _deadline(self, stop_at: float) -> Iterator[None]:
        self._db.set_progress_handler(lambda: time.monotonic() > stop_at, _PROGRESS_STEPS)
        try:
            yield
        finally:
            self._db.set_progress_handler(None, 0)

    def _ranked(
        self,
        query: SearchQuery,
        limit: int,
        offset: int,
        backlinks: Callable[[str], int],
        stop_at: float,
    ) -> list[Row]:
        """`(rowid, slug, title, type, score)` of the hits, best first (no snippets: those
        are made for the rows returned only): the pages called by the query, then the
        others (`core.search.ranking`, then `core.search.meaning` unless the search is
        due to stop at `stop_at` within `MEANING_MARGIN` seconds)."""
        named = self._named(query, backlinks)
        wanted = max(0, limit) + max(0, offset)
        rarities = [self._rarity(term) for term in query.terms]
        count = wanted + len(named)
        rows = best_pages(
            self._db, query, rarities, max(count, CANDIDATES) if query.plain else count
        )
        ranked = rerank(query, rows, backlinks) if query.plain else [row[:5] for row in rows]
        ids = {row[0] for row in named}
        if _asks_meaning(query) and stop_at - time.monotonic() > MEANING_MARGIN:
            ranked = self._by_meaning(query, [row for row in ranked if row[0] not in ids])
        if named:
            top = max((row[4] for row in ranked), default=0.0)
            first = [(*row, top + len(named) - i) for i, row in enumerate(named)]
            ranked = first + [row for row in ranked if row[0] not in ids]
        return ranked[max(0, offset) : wanted]

    def _by_meaning(self, query: SearchQuery, ranked: list[Row]) -> list[Row]:
        """The best `meaning.RERANKED` rows ranked again by what the question means
        (`core.search.meaning`); as they are without the embeddings."""
        best = ranked[: meaning.RERANKED]
        if len(best) < 2 or not meaning.enabled():
            return ranked
        marks = ", ".join("?" * len(best))
        columns = dict(
            (rowid, meaning.page_text(*text))
            for rowid, *text in self._db.execute(
                f"SELECT rowid, {_MEANING_COLUMNS} FROM fts WHERE rowid IN ({marks})",
                [row[0] for row in best],
            )
        )
        texts = [columns.get(row[0], row[2]) for row in best]
        again = meaning.rerank(" ".join(query.words), best, texts)
        return ranked if again is None else [*again, *ranked[len(best) :]]

    def _named(
        self, query: SearchQuery, backlinks: Callable[[str], int]
    ) -> list[tuple[int, str, str, str | None]]:
        """`(rowid, slug, title, type)` of the pages passing the filters whose name is the
        query (`find_rank.normalise`), in the finder's order (`find_rank.name_order`)."""
        key = normalise(query.name)
        if not key:
            return []
        where, params = filters(query)
        rows = self._db.execute(
            "SELECT DISTINCT d.id, d.slug, d.title, d.type FROM names n"
            f" JOIN docs d ON d.id = n.doc WHERE n.key = ?{where}",
            [key, *params],
        ).fetchall()
        return sorted(rows, key=lambda row: name_order(row[1], backlinks(row[1])))

    def _rarity(self, term: str) -> Rarity:
        """How rare a plain-word term is among the pages."""
        (pages,) = self._db.execute("SELECT count(*) FROM docs").fetchone()
        (holding,) = self._db.execute(
            "SELECT count(*) FROM fts WHERE fts MATCH ?", (term,)
        ).fetchone()
        return Rarity(pages, holding)

    def _snippet(
        self, rowid: int, query: SearchQuery, phrases: int, tokens: int, stop_at: float
    ) -> str:
        """The one-line snippet of hit `rowid`, from its body as text (as indexed, without
        an opening heading that repeats the title: `document.after_title_heading`):
        FTS5's over the whole body when its work is bounded (`fts5_may_read_whole`), else
        of a window of it. A page whose body holds no hit but whose properties do shows
        them (`author: [[Kevin Kelly]]` as `«Kevin» «Kelly»`)."""
        snippet, in_body = self._body_snippet(rowid, query, phrases, tokens, stop_at)
        if not in_body:
            row = self._db.execute(  # a hit in its properties only (a few short values)
                f"SELECT snippet(fts, {PROPERTIES_COLUMN}, '{HIT_OPEN}', '{HIT_CLOSE}',"
                f" '{ELLIPSIS}', {tokens}) FROM fts WHERE fts MATCH ? AND rowid = ?",
                (query.text, rowid),
            ).fetchone()
            properties = shown(row[0] if row else "")
            snippet = properties if HIT_OPEN in properties else snippet
        return without_stray_pairs(snippet, query)

    def _body_snippet(
        self, rowid: int, query: SearchQuery, phrases: int, tokens: int, stop_at: float
    ) -> tuple[str, bool]:
        """The body's snippet, and whether the body holds a hit."""
        db = self._db
        if fts5_may_read_whole(phrases, self._tokens(rowid)):
            row = db.execute(
                f"SELECT snippet(fts, {BODY_COLUMN}, '{HIT_OPEN}', '{HIT_CLOSE}', '{ELLIPSIS}',"
                f" {tokens}) FROM fts WHERE fts MATCH ? AND rowid = ?",
                (query.text, rowid),
            ).fetchone()
            raw = row[0] if row else ""
            return shown(raw), HIT_OPEN in raw
        (head,) = db.execute(
            "SELECT substr(body, 1, ?) FROM fts WHERE rowid = ?", (HEAD_CHARS, rowid)
        ).fetchone()
        snippet = window_snippet(
            head or "",
            lambda: db.execute("SELECT body FROM fts WHERE rowid = ?", (rowid,)).fetchone()[0],
            query.text,
            phrases=phrases,
            tokens=tokens,
            stop_at=stop_at,
        )
        return snippet, HIT_OPEN in snippet

    def _tokens(self, rowid: int) -> int:
        """The tokens of page `rowid` (title and body), from FTS5's own count."""
        row = self._db.execute("SELECT sz FROM fts_docsize WHERE id = ?", (rowid,)).fetchone()
        return sum(_varints(row[0])) if row and isinstance(row[0], bytes) else 1 << 30

    def pages_with_phrase(self, phrase: str) -> list[str]:
        """Slugs of the pages whose body holds `phrase` as whole words (any case; the
        tokenizer's stems: the caller checks each body), those where it weighs most
        first (`bm25`), then in slug order."""
        words = spaced(phrase.replace('"', " ")).replace("\u200b", " ").split()
        if not words:
            return []
        match = '{body}: "' + " ".join(words) + '"'
        with self._lock:
            try:
                rows = self._with_recovery(
                    lambda: self._db.execute(
                        "SELECT d.slug FROM fts JOIN docs d ON d.id = fts.rowid"
                        " WHERE fts MATCH ? ORDER BY bm25(fts), d.slug",
                        (match,),
                    ).fetchall()
                )
            except sqlite3.OperationalError:
                return []
        return [slug for (slug,) in rows]

    def body(self, slug: str) -> str | None:
        """The Markdown body of `slug` as read at the last sync, or None."""
        with self._lock:
            row = self._with_recovery(
                lambda: self._db.execute("SELECT body FROM docs WHERE slug = ?", (slug,)).fetchone()
            )
        return row[0] if row else None

    def __len__(self) -> int:
        with self._lock:
            return self._with_recovery(
                lambda: self._db.execute("SELECT count(*) FROM docs").fetchone()[0]
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _insert(
    db: sqlite3.Connection,
    fresh: list[str],
    wanted: Mapping[str, PageInfo],
    map_bodies: BodyMap,
    tell: ProgressCallback | None,
    markup: Markup,
) -> int:
    """Read the bodies of `fresh` and insert their rows (in the caller's transaction);
    how many were read."""
    columns = ", ".join(FIELDS)
    insert_fts = f"INSERT INTO fts (rowid, {columns}) VALUES (?{', ?' * len(FIELDS)})"
    read = 0
    names: list[tuple[str, int]] = []  # inserted at once: one statement, not one a page
    made = DocumentMaker({slug: wanted[slug] for slug in fresh}, markup)
    for slug, (columns, keys, markdown) in map_bodies(fresh, made):
        info = wanted[slug]
        tags = TAG_SEP + TAG_SEP.join(t.lower() for t in info.tags) + TAG_SEP
        cursor = db.execute(
            "INSERT OR REPLACE INTO docs (slug, fingerprint, title, type, tags, body)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (slug, info.fingerprint, info.title, info.type, tags, markdown),
        )
        doc = cursor.lastrowid
        db.execute(insert_fts, (doc, *columns))
        names.extend((key, doc) for key in keys)
        read += 1
        if tell is not None and read % PROGRESS_STEP == 0:
            tell(read, len(fresh))
    _insert_names(db, names)
    return read


def _insert_names(db: sqlite3.Connection, names: list[tuple[str, int]]) -> None:
    """Insert `(key, doc)` rows into `names`; into an empty table (a first fill) before
    its indexes are made again, each built once from sorted keys instead of grown a row at a
    time (37k names of the 10k-page benchmark bundle: 61 → 39 ms)."""
    first = db.execute("SELECT 1 FROM names LIMIT 1").fetchone() is None
    if first:
        for name in _NAME_INDEXES:
            db.execute(f"DROP INDEX IF EXISTS {name}")
    db.executemany("INSERT INTO names VALUES (?, ?)", names)
    if first:
        for statement in _NAME_INDEXES.values():
            db.execute(statement)


def _remove_log(path: Path) -> None:
    """Remove the write-ahead log of the file at `path`, and its index: a log left beside
    another file would be replayed into it."""
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"{path}{suffix}")


def _no_links(slug: str) -> int:
    return 0


def _create(db: sqlite3.Connection, source_key: str) -> None:
    """Our tables and meta rows in an empty database."""
    with db:
        for statement in (*_SCHEMA, *_NAME_INDEXES.values()):
            db.execute(statement)
        db.executemany("INSERT INTO meta VALUES (?, ?)", _wanted_meta(source_key).items())


def _wanted_meta(source_key: str) -> dict[str, str]:
    return {"version": TEXT_INDEX_VERSION, "source": source_key}


def _meta(db: sqlite3.Connection) -> dict[str, str]:
    return dict(db.execute("SELECT key, value FROM meta"))


def _layout(db: sqlite3.Connection) -> dict[str, str]:
    """Every table and index of a database, by name, as its schema states them."""
    rows = db.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    return {f"{kind} {name}": sql or "" for kind, name, sql in rows}


@cache
def _our_layout() -> dict[str, str]:
    """What `_layout` says of an index of ours (FTS5's own tables included)."""
    db = sqlite3.connect(":memory:")
    try:
        _create(db, "")
        return _layout(db)
    finally:
        db.close()


def _code(error: sqlite3.Error) -> int | None:
    """SQLite's primary result code of `error` (None when it has none)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return " ".join(str(error).split()) or type(error).__name__


def _varints(blob: bytes) -> list[int]:
    """The values of SQLite varints (FTS5's `docsize` record: tokens per column)."""
    values, value = [], 0
    for byte in blob:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            values.append(value)
            value = 0
    return values


def _fts_message(error: sqlite3.OperationalError) -> str:
    message = " ".join(str(error).split()).removeprefix("fts5: ")
    if message == 'syntax error near ""':  # FTS5 names no token: the query ran out
        return "the query ends where a word should follow (after AND, OR, NOT or '(')"
    return message


# -- snippets ---------------------------------------------------------------------


def fts5_may_read_whole(phrases: int, tokens: int) -> bool:
    """Whether FTS5's `snippet()` may read a whole page of `tokens` tokens for a query
    of `phrases` phrases (each token starts at most one instance of each phrase)."""
    return max(1, phrases) * tokens <= INSTANCE_BUDGET


def window_chars(phrases: int) -> int:
    """The characters of a window holding at most `INSTANCE_BUDGET` instances of
    `phrases` phrases (a token takes two characters at least)."""
    size = 2 * INSTANCE_BUDGET // max(1, phrases)
    return max(WINDOW_MIN_CHARS, min(WINDOW_MAX_CHARS, size))


def hit_terms(fts_query: str) -> list[tuple[tuple[str, ...], bool]]:
    """What a window's first hit is looked for by, and marked by when the window does
    not match the whole query: each word of the query, with whether it is a prefix
    (`ord*`), but the characters of a Chinese or Japanese phrase together (`"上 下"`,
    a pair a plain word is searched by): one character of such a run is no word."""
    terms: list[tuple[tuple[str, ...], bool]] = []
    for phrase, phrase_star, word, word_star in _PHRASE_OR_WORD.findall(fts_query):
        if phrase and has_cjk(phrase):
            terms.append((tuple(_WORD_ONLY.findall(phrase)), bool(phrase_star)))
        elif phrase:
            inner = _WORD_ONLY.findall(phrase)
            terms.extend(((w,), bool(phrase_star) and w == inner[-1]) for w in inner)
        elif word and word not in _OPERATORS:
            terms.append(((word,), bool(word_star)))
    return terms


def shown(snippet: str) -> str:
    """A snippet of the index's text as it is shown: without Markdown's marks
    (`plain_text.display_text`), the zero-width spaces of CJK text and line breaks;
    each hit's mark closed after the marks that belong to its last letter
    (`closed_after_marks`)."""
    text = closed_after_marks(unspaced(display_text(snippet)))
    return _without_cut_hits(" ".join(text.split()))


def _without_cut_hits(snippet: str) -> str:
    """`snippet` without the mark of a hit one character of a CJK word long that
    stands against its cut end (or start): FTS5 ends a snippet after so many tokens, one
    a character of such text, and marks the part of a word searched as a pair that
    falls inside (`…需要设置«同»…`, of `同步`)."""
    for cut in (_CUT_HIT_AT_END, _CUT_HIT_AT_START):
        found = cut.search(snippet)
        if found is not None and has_cjk(found.group("char")):
            snippet = snippet[: found.start()] + found.group("char") + snippet[found.end() :]
    return snippet


def without_stray_pairs(snippet: str, query: SearchQuery) -> str:
    """`snippet` without the marks of a stretch of kana shorter than every run of the
    plain-word `query` (3 at most): such a run is searched by its pairs of characters,
    and a pair of a longer word marks a piece of another word (`メッセ«ージ»`, message,
    of `エージェント`, agent; `アカウ«ント»`, account). Two kana are seldom a word; two
    Chinese characters often are (`服务`, service, of `同步服务`), and keep their mark,
    as do Korean syllables. A run of two characters is one pair, its whole word: then
    nothing is unmarked."""
    if not query.plain or HIT_OPEN not in snippet:
        return snippet
    runs = [part for word in query.words for part, cjk in split_cjk(word) if cjk]
    if not runs:
        return snippet
    shortest = min(STRAY_PAIR_RUN, *(len(run) for run in runs))

    def kept(found: re.Match[str]) -> str:
        marked = found.group().replace(HIT_OPEN, "").replace(HIT_CLOSE, "")
        if len(marked) >= shortest or not _KANA_ONLY.fullmatch(marked):
            return found.group()
        return marked

    return _MARKED_STRETCH.sub(kept, snippet)


STRAY_PAIR_RUN = 3
"""A query's runs this long or longer make a marked stretch of two characters stray."""
_MARKED_STRETCH = re.compile(f"(?:{HIT_OPEN}[^{HIT_CLOSE}]*{HIT_CLOSE})+")
_KANA_ONLY = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]+")
"""Hiragana and katakana (the long vowel mark `ー` too), half-width katakana."""


_CUT_HIT_AT_END = re.compile(f"{HIT_OPEN}(?P<char>.){HIT_CLOSE}(?={ELLIPSIS}$)")
_CUT_HIT_AT_START = re.compile(f"(?<=^{ELLIPSIS}){HIT_OPEN}(?P<char>.){HIT_CLOSE}")


def closed_after_marks(text: str) -> str:
    """`text` with each `HIT_CLOSE` moved after the combining marks following it (a
    Thai tone mark or vowel, an accent written apart, an emoji's variation selector)
    and an emoji's skin tone: FTS5's tokenizer ends a word before them, and a mark
    closed there has the terminal draw them on the `»`."""
    if HIT_CLOSE not in text:
        return text
    pieces = text.split(HIT_CLOSE)
    for at in range(1, len(pieces)):
        piece = pieces[at]
        kept = 0
        while kept < len(piece) and _belongs_to_the_letter_before(piece[kept]):
            kept += 1
        if kept:
            pieces[at - 1] += piece[:kept]
            pieces[at] = piece[kept:]
    return HIT_CLOSE.join(pieces)


def _belongs_to_the_letter_before(char: str) -> bool:
    return unicodedata.category(char)[0] == "M" or "\U0001f3fb" <= char <= "\U0001f3ff"


def window_snippet(
    head: str,
    whole: Callable[[], str],
    fts_query: str,
    *,
    phrases: int,
    tokens: int,
    stop_at: float,
) -> str:
    """The snippet of a body too big for FTS5 to read whole (`fts5_may_read_whole`).

    `head` is the start of the body as text (`HEAD_CHARS` at most), `whole()` reads the
    whole body when the first hit is not in it. The window is the first from the first
    hit on holding the most of the query's terms (`densest_hit`; a term, `hit_terms`, is a
    word, any case, a prefix of a word, or its stem; a Chinese or Japanese phrase whole),
    looked for in `head` when it holds a hit. It is marked by FTS5 as the whole body
    would be: the query itself when the window holds a match of it, else any of its
    terms; a window with none gives its start, unmarked. `stop_at` (`time.monotonic`)
    stops FTS5's work with `sqlite3.OperationalError` (interrupted).
    """
    terms = hit_terms(fts_query)
    pattern = _any_of(_term_written(words) for words, _ in terms)
    cut_head = len(head) >= HEAD_CHARS  # the body goes on past `head`
    text, found = head, pattern.search(head) if pattern else None
    if found is None and pattern is not None and cut_head:
        text, cut_head = whole(), False
        found = pattern.search(text, max(0, len(head) - 64))
    size = window_chars(phrases)
    at = densest_hit(text, terms, found.start(), size) if found else 0
    start, end = _window(text, at, size)
    window = text[start:end]
    more_after = end < len(text) or cut_head
    any_term = " OR ".join(f'"{" ".join(words)}"' + ("*" if star else "") for words, star in terms)
    alternatives = [fts_query, any_term]
    with _scratch(window, stop_at) as scratch:
        for query in alternatives:
            marked = _fts5_window_snippet(scratch, query, tokens)
            if marked is not None:
                return _with_ellipses(shown(marked), start > 0, more_after)
    plain = shown(window).split()
    cut = len(plain) > tokens
    return _with_ellipses(" ".join(plain[:tokens]), start > 0, more_after or cut)


def snippet_around(text: str, words: Sequence[str], width: int = SERVER_SNIPPET_CHARS) -> str:
    """One line of `text` (Markdown, read as text: `plain_text`) from a third of it
    before the first of `words` found (`hit_spans`) holding the most different ones,
    each occurrence between `HIT_OPEN` and `HIT_CLOSE`; the start of the text when none
    is found."""
    plain = display_text(index_text(text.replace(HIT_OPEN, " ").replace(HIT_CLOSE, " ")))
    flat = " ".join(plain.split())
    spans = hit_spans(flat, words)
    hits = [(at, flat[at:end].casefold()) for at, end in spans[:DENSEST_HITS]]
    first = _most_held(hits, width * 2 // 3, 0)
    start = max(0, first - width // 3)
    if start:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < first else start
    end = min(len(flat), start + width)
    if end < len(flat):
        space = flat.rfind(" ", start, end)
        end = space if space > start else end
    window, at = [], start
    for hit_start, hit_end in spans:
        if hit_start >= at and hit_end <= end:
            window += [flat[at:hit_start], HIT_OPEN, flat[hit_start:hit_end], HIT_CLOSE]
            at = hit_end
    window.append(flat[at:end])
    marked = closed_after_marks("".join(window))
    return (ELLIPSIS if start else "") + marked + (ELLIPSIS if end < len(flat) else "")


def hit_spans(text: str, words: Sequence[str]) -> list[tuple[int, int]]:
    """Where `words` are in `text`, in order, as the index marks them: a word (any case)
    at the start of a word, to that word's end; a word of a script written without
    spaces as the characters its pieces cover (`run_pieces`: `上下文压缩` in `上下文压力`
    is `上下文压`), which stand inside a run of such text, never one character alone."""
    return hit_finder(words)(text)


def hit_finder(words: Sequence[str]) -> Callable[[str], list[tuple[int, int]]]:
    """`hit_spans` of `words` in a text, its patterns made once for many texts (the
    rows of a page: made again for each, 30,000 rows took 170 ms)."""
    plain, pieces = [], set()
    for part, cjk in (piece for word in words for piece in split_cjk(word)):
        if cjk:
            pieces.update(run_pieces(part))
        else:
            plain.append(part)
    pattern = _words_pattern(plain)
    finders = [_piece_finder(piece) for piece in pieces]

    def spans_in(text: str) -> list[tuple[int, int]]:
        spans = [found.span() for found in pattern.finditer(text)] if pattern else []
        for finder in finders:  # overlapping: `上下` and `下文` of `上下文`
            spans += [found.span(1) for found in finder.finditer(text)]
        merged: list[tuple[int, int]] = []
        for span_start, span_end in sorted(spans):
            if merged and span_start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], span_end))
            else:
                merged.append((span_start, span_end))
        return merged

    return spans_in


@lru_cache(maxsize=1024)
def _piece_finder(piece: str) -> re.Pattern[str]:
    return re.compile(f"(?=({piece_pattern(piece)}))")


def _words_pattern(words: Sequence[str]) -> re.Pattern[str] | None:
    return _any_of(re.escape(w) for w in words)


def _term_written(words: tuple[str, ...]) -> str:
    """A term of `hit_terms` as a pattern: a word by its stem, a phrase's words in a
    row, whatever separates them (the zero-width spaces of CJK text)."""
    if len(words) == 1:
        return re.escape(rough_stem(words[0]))
    return r"\W*".join(re.escape(w) for w in words)


def _any_of(alternatives: Iterable[str]) -> re.Pattern[str] | None:
    """Any of the patterns `alternatives` at the start of a word, to the word's end."""
    written = sorted(set(alternatives), key=len, reverse=True)
    if not written:
        return None
    return re.compile(rf"(?<![\w])(?:{'|'.join(written)})\w*", re.IGNORECASE)


def densest_hit(
    text: str, terms: Sequence[tuple[tuple[str, ...], bool]], first: int, size: int
) -> int:
    """Where in `text` the stretch of `size` characters holding the most of `terms`
    begins (the first such, by its first hit: at or after `first`, the first hit). Each
    term's hits are looked for with `str.find` in the text lowered (a pattern of them
    all took 2 ms on 64 KB), `DENSEST_HITS` of them at most (a page of one word repeated
    is marked at its start, as before)."""
    if len(terms) < 2:
        return first
    reach = size * 2 // 3  # `_window` puts a third of the window before its hit
    low = text.lower()
    if len(low) != len(text):  # a character lowered to two: the positions would shift
        return first
    near = low[first : first + reach + max(len(_lead(words)) for words, _ in terms)]
    if all(any(at < reach for at in _term_starts(near, words, 0)) for words, _ in terms):
        return first  # the window at the first hit holds them all
    hits = sorted(
        (at, index)
        for index, (words, _) in enumerate(terms)
        for at in _term_starts(low, words, first)
    )[:DENSEST_HITS]
    return _most_held(hits, reach, first)


def _most_held(hits: Sequence[tuple[int, Hashable]], reach: int, default: int) -> int:
    """The first of `hits` (`(position, what was hit)`, in order) from which `reach`
    characters hold the most different things hit; `default` without hits."""
    distinct = len({what for _, what in hits})
    held: Counter[Hashable] = Counter()
    best, most, ahead = default, 0, 0
    for at, what in hits:
        while ahead < len(hits) and hits[ahead][0] < at + reach:
            held[hits[ahead][1]] += 1
            ahead += 1
        if len(held) > most:
            best, most = at, len(held)
            if most == distinct:
                break
        held[what] -= 1
        if not held[what]:
            del held[what]
    return best


def _lead(words: tuple[str, ...]) -> str:
    """What a term of `hit_terms` starts with, lowered: a word's stem, a phrase's first
    word."""
    return (rough_stem(words[0]) if len(words) == 1 else words[0]).lower()


def _term_starts(low: str, words: tuple[str, ...], first: int) -> list[int]:
    """Where a term of `hit_terms` (`words`) starts in `low` (text lowered) at or after
    `first`, at a word's start, as `_term_written` finds it: `DENSEST_HITS` at most, and
    as many again looked at and passed over (inside words)."""
    lead = _lead(words)
    if not lead:
        return []
    phrase = None
    if len(words) > 1:
        phrase = re.compile(r"\W*".join(re.escape(word.lower()) for word in words))
    found: list[int] = []
    at = low.find(lead, first)
    for _ in range(2 * DENSEST_HITS):
        if at < 0 or len(found) >= DENSEST_HITS:
            break
        before = low[at - 1] if at else " "
        if not (before.isalnum() or before == "_") and (phrase is None or phrase.match(low, at)):
            found.append(at)
        at = low.find(lead, at + 1)
    return found


def _window(text: str, at: int, size: int) -> tuple[int, int]:
    """`[start, end)` of about `size` characters of `text` holding position `at` (a third
    of the window before it), cut at white space where there is some."""
    start = max(0, at - size // 3)
    end = min(len(text), start + size)
    start = max(0, end - size)
    if start:
        space = text.find(" ", start, at)
        start = space + 1 if space >= 0 else start
    if end < len(text):
        space = text.rfind(" ", max(start, at), end)
        end = space if space > start else end
    return start, end


@contextlib.contextmanager
def _scratch(window: str, stop_at: float) -> Iterator[sqlite3.Connection]:
    """A throwaway FTS5 table (the index's tokenizer) holding a `window` of a body."""
    db = sqlite3.connect(":memory:")
    try:
        db.set_progress_handler(lambda: time.monotonic() > stop_at, 1000)
        db.execute(f"CREATE VIRTUAL TABLE w USING fts5(body, tokenize='{TOKENIZER}')")
        db.execute("INSERT INTO w (body) VALUES (?)", (window,))
        yield db
    finally:
        db.close()


def _fts5_window_snippet(db: sqlite3.Connection, query: str, tokens: int) -> str | None:
    """FTS5's snippet of the scratch window for `query`, or None when the window does
    not match it (or it is not valid syntax)."""
    marks = f"'{HIT_OPEN}', '{HIT_CLOSE}', '{ELLIPSIS}', {int(tokens)}"
    try:
        row = db.execute(
            f"SELECT snippet(w, 0, {marks}) FROM w WHERE w MATCH ?", (query,)
        ).fetchone()
    except sqlite3.OperationalError as error:
        if getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_INTERRUPT:
            raise
        return None
    return None if row is None else row[0]


def _with_ellipses(snippet: str, before: bool, after: bool) -> str:
    """`snippet` of a window, with `…` where the page goes on beyond the window."""
    if before and not snippet.startswith(ELLIPSIS):
        snippet = ELLIPSIS + snippet
    if after and not snippet.endswith(ELLIPSIS):
        snippet += ELLIPSIS
    return snippet


def _asks_meaning(query: SearchQuery) -> bool:
    """Whether `query`'s hits are ranked again by what it means (`core.search.meaning`):
    plain words, not in Chinese or Japanese (the embeddings were measured on English
    questions only)."""
    return query.plain and not has_cjk(query.text)
