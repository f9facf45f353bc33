"""`TextIndex`: the full-text index of page bodies, an SQLite FTS5 table.

It lives beside the link index's cache file (same folder, same name, suffix
`.fts`), or in memory when the disk cache is off, and is refreshed the same
way: `sync` compares each page's fingerprint in the link index with the one
stored here and reads only the bodies of pages that changed, appeared or were
retried; pages that disappeared are dropped. One transaction per sync, so an
interrupted sync leaves the previous state.

Tokenizer: `unicode61` with diacritics folded and prefix indexes for 2 and 3
characters (prefix queries `ord*` stay fast). The `trigram` tokenizer is
available in this SQLite and matches substrings, but measured on the 10k-page
benchmark bundle it took 1.43 s to fill (unicode61: 0.21 s) and 29 MB on disk
(10 MB) against a 1.6 s cold link index: it alone would double the cold
index time, where the budget is +30 %. Word matching is also what the
mention finder needs (`core.search.mentions`).

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

Snippets, one line of a page around its hits, with bounded work: every snippet is
built here. On an ordinary page it is FTS5's own `snippet()` over the whole page; its
cost grows with the square of the page's hit instances (every instance of every
phrase scores a window of every other), and a 5 MB page holding a common word 70,000
times took 30 s a search. So FTS5 sees a whole page only while `phrases × tokens` (an
upper bound of its instances) is at most `INSTANCE_BUDGET`, about 0.2 s of that work
at worst; any other page gets a snippet of a window of its body around its first hit
(`window_snippet`), of at most `2 × INSTANCE_BUDGET / phrases` characters, marked by
FTS5 in a scratch table of its own. A server's rows (`snippet_around`, for
`core.search.text_search`) are cut around the first hit the same way. Hits are marked
between `HIT_OPEN` and `HIT_CLOSE`, never part of indexed text.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypeVar

from okf_explorer.core.atomic import atomic_write
from okf_explorer.core.pages import PageInfo
from okf_explorer.core.search.query import (
    SearchQuery,
    SearchSyntaxError,
    SearchTimedOut,
    query_terms,
)

__all__ = [
    "HIT_CLOSE",
    "HIT_OPEN",
    "SEARCH_DEADLINE",
    "SNIPPET_TOKENS",
    "TEXT_INDEX_VERSION",
    "SearchHit",
    "TextIndex",
    "snippet_around",
]

TEXT_INDEX_VERSION = "1"
"""Bump when the tables below change: an older file is rebuilt."""
TOKENIZER = "unicode61 remove_diacritics 2"
SNIPPET_TOKENS = 16
"""Words in a search snippet (FTS5 caps it at 64)."""
SEARCH_DEADLINE = 5.0
"""Seconds one search may run before it is stopped (read when a search starts)."""
_PROGRESS_STEPS = 1000
"""SQLite virtual-machine steps between two looks at the deadline."""
_TAG_SEP = "\x1f"

HIT_OPEN, HIT_CLOSE = "\x02", "\x03"
"""What marks a hit inside a snippet (never part of indexed text)."""
ELLIPSIS = "…"
INSTANCE_BUDGET = 6000
"""Hit instances FTS5's `snippet()` may see in one page (its work is their square)."""
WINDOW_MAX_CHARS = 12_000
WINDOW_MIN_CHARS = 400
HEAD_CHARS = 65_536
"""How much of a big page's body is read first to find its first hit."""
SERVER_SNIPPET_CHARS = 160
"""Characters of a server row's text kept around its first hit."""

_WORD = re.compile(r"([\w\u0080-\U0010ffff]+)(\*?)")
_OPERATORS = frozenset({"AND", "OR", "NOT", "NEAR"})

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS docs (id INTEGER PRIMARY KEY, slug TEXT UNIQUE NOT NULL,"
    " fingerprint TEXT NOT NULL, title TEXT NOT NULL, type TEXT, tags TEXT NOT NULL)",
    f"CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, body, tokenize='{TOKENIZER}',"
    " prefix='2 3')",
)

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

BodyReader = Callable[[list[str]], Iterable[tuple[str, str]]]
"""Reads the bodies of some slugs: `(slug, body)` pairs, any order; unreadable ones skipped."""

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One ranked page of a search: `score` higher is better (negated BM25, the
    title weighing 5 times the body); `snippet` is flattened to one line with each
    hit between `HIT_OPEN` and `HIT_CLOSE` (see `marked`)."""

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
        self._synced: tuple[Mapping[str, PageInfo], BodyReader] | None = None
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
        except BaseException:
            db.close()
            raise
        return db

    def _replace_with_empty(self, path: Path) -> None:
        """Put an empty index of ours at `path` in one rename; its old log goes first (a
        log left beside a new file would be replayed into it)."""
        fresh = sqlite3.connect(":memory:")
        try:
            _create(fresh, self._key)
            data = fresh.serialize()
        finally:
            fresh.close()
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(f"{path}{suffix}")
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

    def sync(self, pages: Mapping[str, PageInfo], read_bodies: BodyReader) -> int:
        """Bring the index up to `pages` (readable pages only); returns how many bodies
        were read. Raises what `read_bodies` raises (nothing is then committed)."""
        with self._lock:
            try:
                read = self._sync(pages, read_bodies)
            except sqlite3.Error as error:
                self._recover(error)
                read = self._sync(pages, read_bodies)
            self._synced = (pages, read_bodies)
            return read

    def _sync(self, pages: Mapping[str, PageInfo], read_bodies: BodyReader) -> int:
        db = self._db
        stored = dict(db.execute("SELECT slug, fingerprint FROM docs"))
        wanted = {slug: info for slug, info in pages.items() if info.readable}
        gone = [s for s, fp in stored.items() if s not in wanted or wanted[s].fingerprint != fp]
        fresh = [s for s, info in wanted.items() if stored.get(s) != info.fingerprint]
        if not gone and not fresh:
            return 0
        with db:
            for slug in gone:
                row = db.execute("SELECT id FROM docs WHERE slug = ?", (slug,)).fetchone()
                db.execute("DELETE FROM fts WHERE rowid = ?", row)
                db.execute("DELETE FROM docs WHERE id = ?", row)
            read = 0
            for slug, body in read_bodies(fresh):
                info = wanted.get(slug)
                if info is None:
                    continue
                tags = _TAG_SEP + _TAG_SEP.join(t.lower() for t in info.tags) + _TAG_SEP
                cursor = db.execute(
                    "INSERT OR REPLACE INTO docs (slug, fingerprint, title, type, tags)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (slug, info.fingerprint, info.title, info.type, tags),
                )
                db.execute(
                    "INSERT INTO fts (rowid, title, body) VALUES (?, ?, ?)",
                    (cursor.lastrowid, _clean(info.title), _clean(body)),
                )
                read += 1
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
    ) -> list[SearchHit]:
        """Ranked hits of `query`, snippets of about `tokens` words (at most 64).

        Raises `SearchSyntaxError` for bad FTS5 syntax, `SearchTimedOut` past
        `deadline` seconds (default `SEARCH_DEADLINE`, read now).
        """
        seconds = SEARCH_DEADLINE if deadline is None else deadline
        stop_at = time.monotonic() + seconds
        tokens = max(1, min(int(tokens), 64))
        phrases = query_terms(query.text)
        with self._lock:

            def work() -> list[SearchHit]:
                hits = []
                with self._deadline(stop_at):
                    for rowid, slug, title, kind, score in self._ranked(query, limit, offset):
                        if time.monotonic() > stop_at:
                            raise SearchTimedOut(seconds)
                        snippet = self._snippet(rowid, title, query, phrases, tokens, stop_at)
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
        self, query: SearchQuery, limit: int, offset: int
    ) -> list[tuple[int, str, str, str | None, float]]:
        """`(rowid, slug, title, type, score)` of the hits, best first (no snippets: those
        are made for the rows returned only)."""
        sql = [
            "SELECT d.id, d.slug, d.title, d.type, -bm25(fts, 5.0, 1.0) AS score",
            " FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ?",
        ]
        params: list[object] = [query.text]
        if query.type:
            sql.append(" AND d.type = ? COLLATE NOCASE")
            params.append(query.type)
        if query.types:
            sql.append(" AND d.type IN (" + ", ".join("?" * len(query.types)) + ")")
            params.extend(query.types)
        if query.tag:
            sql.append(" AND instr(d.tags, ?) > 0")
            params.append(_TAG_SEP + query.tag.lower() + _TAG_SEP)
        if query.path:
            sql.append(" AND substr(d.slug, 1, ?) = ?")
            params += [len(query.path), query.path]
        sql.append(" ORDER BY score DESC, d.slug LIMIT ? OFFSET ?")
        params += [max(0, limit), max(0, offset)]
        return self._db.execute("".join(sql), params).fetchall()

    def _snippet(
        self, rowid: int, title: str, query: SearchQuery, phrases: int, tokens: int, stop_at: float
    ) -> str:
        """The one-line snippet of hit `rowid`: FTS5's over the whole page when its work is
        bounded (`fts5_may_read_whole`), else of a window of the page."""
        db = self._db
        if fts5_may_read_whole(phrases, self._tokens(rowid)):
            row = db.execute(
                f"SELECT snippet(fts, -1, '{HIT_OPEN}', '{HIT_CLOSE}', '{ELLIPSIS}', {tokens})"
                " FROM fts WHERE fts MATCH ? AND rowid = ?",
                (query.text, rowid),
            ).fetchone()
            return " ".join((row[0] if row else "").split())
        (head,) = db.execute(
            "SELECT substr(body, 1, ?) FROM fts WHERE rowid = ?", (HEAD_CHARS, rowid)
        ).fetchone()
        snippet = window_snippet(
            title,
            head or "",
            lambda: db.execute("SELECT body FROM fts WHERE rowid = ?", (rowid,)).fetchone()[0],
            query.text,
            phrases=phrases,
            tokens=tokens,
            tokenizer=TOKENIZER,
            stop_at=stop_at,
        )
        return " ".join(snippet.split())

    def _tokens(self, rowid: int) -> int:
        """The tokens of page `rowid` (title and body), from FTS5's own count."""
        row = self._db.execute("SELECT sz FROM fts_docsize WHERE id = ?", (rowid,)).fetchone()
        return sum(_varints(row[0])) if row and isinstance(row[0], bytes) else 1 << 30

    def pages_with_phrase(self, phrase: str) -> list[str]:
        """Slugs of the pages whose body holds `phrase` as whole words (any case)."""
        words = phrase.replace('"', " ").split()
        if not words:
            return []
        match = '{body}: "' + " ".join(words) + '"'
        with self._lock:
            try:
                rows = self._with_recovery(
                    lambda: self._db.execute(
                        "SELECT d.slug FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ?",
                        (match,),
                    ).fetchall()
                )
            except sqlite3.OperationalError:
                return []
        return [slug for (slug,) in rows]

    def body(self, slug: str) -> str | None:
        """The indexed body of `slug` (as read at the last sync), or None."""
        with self._lock:
            row = self._with_recovery(
                lambda: self._db.execute(
                    "SELECT f.body FROM docs d JOIN fts f ON f.rowid = d.id WHERE d.slug = ?",
                    (slug,),
                ).fetchone()
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


def _create(db: sqlite3.Connection, source_key: str) -> None:
    """Our tables and meta rows in an empty database."""
    with db:
        for statement in _SCHEMA:
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


def _clean(text: str) -> str:
    """Text without the snippet's hit markers (and NULs, which SQLite text may not hold)."""
    if HIT_OPEN in text or HIT_CLOSE in text or "\x00" in text:
        return text.replace(HIT_OPEN, " ").replace(HIT_CLOSE, " ").replace("\x00", " ")
    return text


def _fts_message(error: sqlite3.OperationalError) -> str:
    message = " ".join(str(error).split())
    return message.removeprefix("fts5: ")


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


def query_words(fts_query: str) -> list[tuple[str, bool]]:
    """The words of an FTS5 expression, each with whether it is a prefix (`ord*`)."""
    return [(w, bool(star)) for w, star in _WORD.findall(fts_query) if w not in _OPERATORS]


def window_snippet(
    title: str,
    head: str,
    whole: Callable[[], str],
    fts_query: str,
    *,
    phrases: int,
    tokens: int,
    tokenizer: str,
    stop_at: float,
) -> str:
    """The snippet of a page too big for FTS5 to read whole (`fts5_may_read_whole`).

    `head` is the start of the body (`HEAD_CHARS` at most), `whole()` reads the whole
    body when the first hit is not in it. The window around the first hit (the words
    of the query, any case, a prefix of a word) is marked by FTS5 as the whole page
    would be: the query itself when the window holds a match of it, else any of its
    words; a window with none gives its start, unmarked. `stop_at` (`time.monotonic`)
    stops FTS5's work with `sqlite3.OperationalError` (interrupted).
    """
    words = query_words(fts_query)
    pattern = _words_pattern([w for w, _ in words])
    cut_head = len(head) >= HEAD_CHARS  # the body goes on past `head`
    text, found = head, pattern.search(head) if pattern else None
    if found is None and pattern is not None and cut_head:
        text, cut_head = whole(), False
        found = pattern.search(text, max(0, len(head) - 64))
    start, end = _window(text, found.start() if found else 0, window_chars(phrases))
    window = text[start:end]
    more_after = end < len(text) or cut_head
    alternatives = [fts_query, " OR ".join(f'"{w}"' + ("*" if star else "") for w, star in words)]
    with _scratch(tokenizer, title, window, stop_at) as scratch:
        for query in alternatives:
            marked = _fts5_window_snippet(scratch, query, tokens)
            if marked is None:
                continue
            from_body, snippet = marked
            if not from_body:
                return snippet
            return _with_ellipses(snippet, start > 0, more_after)
    plain = window.split()
    cut = len(plain) > tokens
    return _with_ellipses(" ".join(plain[:tokens]), start > 0, more_after or cut)


def snippet_around(text: str, words: Sequence[str], width: int = SERVER_SNIPPET_CHARS) -> str:
    """One line of `text` around the first of `words` (whole words, any case), each
    occurrence between `HIT_OPEN` and `HIT_CLOSE`; the start of the text when none is found."""
    flat = " ".join(text.replace(HIT_OPEN, " ").replace(HIT_CLOSE, " ").split())
    pattern = _words_pattern(words)
    found = pattern.search(flat) if pattern else None
    start = max(0, found.start() - width // 3) if found else 0
    if start:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < (found.start() if found else start) else start
    end = min(len(flat), start + width)
    if end < len(flat):
        space = flat.rfind(" ", start, end)
        end = space if space > start else end
    window = flat[start:end]
    if pattern:
        window = pattern.sub(lambda m: HIT_OPEN + m.group(0) + HIT_CLOSE, window)
    return (ELLIPSIS if start else "") + window + (ELLIPSIS if end < len(flat) else "")


def _words_pattern(words: Sequence[str]) -> re.Pattern[str] | None:
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
    return re.compile(rf"(?<![\w])(?:{alternatives})\w*", re.IGNORECASE)


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
def _scratch(
    tokenizer: str, title: str, window: str, stop_at: float
) -> Iterator[sqlite3.Connection]:
    """A throwaway FTS5 table (same tokenizer as the index) holding one page: `title`
    and the `window` of its body."""
    db = sqlite3.connect(":memory:")
    try:
        db.set_progress_handler(lambda: time.monotonic() > stop_at, 1000)
        db.execute(f"CREATE VIRTUAL TABLE w USING fts5(title, body, tokenize='{tokenizer}')")
        db.execute("INSERT INTO w (title, body) VALUES (?, ?)", (title, window))
        yield db
    finally:
        db.close()


def _fts5_window_snippet(
    db: sqlite3.Connection, query: str, tokens: int
) -> tuple[bool, str] | None:
    """(whether the snippet is of the body, FTS5's snippet) of the scratch page for
    `query`, or None when the page does not match it (or it is not valid syntax)."""
    marks = f"'{HIT_OPEN}', '{HIT_CLOSE}', '{ELLIPSIS}', {int(tokens)}"
    try:
        row = db.execute(
            f"SELECT snippet(w, -1, {marks}), snippet(w, 1, {marks}) FROM w WHERE w MATCH ?",
            (query,),
        ).fetchone()
    except sqlite3.OperationalError as error:
        if getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_INTERRUPT:
            raise
        return None
    if row is None:
        return None
    best, of_body = row
    return best == of_body, best


def _with_ellipses(snippet: str, before: bool, after: bool) -> str:
    """`snippet` of a window, with `…` where the page goes on beyond the window."""
    if before and not snippet.startswith(ELLIPSIS):
        snippet = ELLIPSIS + snippet
    if after and not snippet.endswith(ELLIPSIS):
        snippet += ELLIPSIS
    return snippet
