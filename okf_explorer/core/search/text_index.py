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

The file is a private cache like the link index's: mode 0600; a file that is
corrupt, of another layout or of another source is deleted and rebuilt.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from okf_explorer.core.pages import PageInfo
from okf_explorer.core.search.query import SearchQuery, SearchSyntaxError

TEXT_INDEX_VERSION = "1"
"""Bump when the tables below change: an older file is rebuilt."""
TOKENIZER = "unicode61 remove_diacritics 2"
HIT_OPEN, HIT_CLOSE = "\x02", "\x03"
"""What marks a hit inside `SearchHit.snippet` (never part of indexed text)."""
SNIPPET_TOKENS = 16
"""Words in a search snippet (FTS5 caps it at 64)."""
_TAG_SEP = "\x1f"

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS docs (id INTEGER PRIMARY KEY, slug TEXT UNIQUE NOT NULL,"
    " fingerprint TEXT NOT NULL, title TEXT NOT NULL, type TEXT, tags TEXT NOT NULL)",
    f"CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, body, tokenize='{TOKENIZER}',"
    " prefix='2 3')",
)

BodyReader = Callable[[list[str]], Iterable[tuple[str, str]]]
"""Reads the bodies of some slugs: `(slug, body)` pairs, any order; unreadable ones skipped."""


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


class TextIndex:
    """An FTS5 index of page bodies (`path=None`: in memory). Thread-safe."""

    def __init__(self, path: Path | None, source_key: str) -> None:
        self.path = path
        self._key = source_key
        self._lock = threading.Lock()
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return self._prepare(sqlite3.connect(":memory:", check_same_thread=False))
        try:
            return self._prepare(self._connect(self.path))
        except sqlite3.DatabaseError:  # corrupt, or not ours: start again
            with contextlib.suppress(OSError):
                os.remove(self.path)
            return self._prepare(self._connect(self.path))

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
        return sqlite3.connect(path, check_same_thread=False, timeout=10)

    def _prepare(self, db: sqlite3.Connection) -> sqlite3.Connection:
        db.execute(
            "PRAGMA journal_mode=WAL" if self.path is not None else "PRAGMA journal_mode=OFF"
        )
        db.execute("PRAGMA synchronous=NORMAL")
        for statement in _SCHEMA:
            db.execute(statement)
        stored = dict(db.execute("SELECT key, value FROM meta"))
        wanted = {"version": TEXT_INDEX_VERSION, "source": self._key}
        if stored != wanted:
            with db:
                db.execute("DELETE FROM docs")
                db.execute("DELETE FROM fts")
                db.execute("DELETE FROM meta")
                db.executemany("INSERT INTO meta VALUES (?, ?)", wanted.items())
        return db

    def sync(self, pages: Mapping[str, PageInfo], read_bodies: BodyReader) -> int:
        """Bring the index up to `pages` (readable pages only); returns how many bodies
        were read. Raises what `read_bodies` raises (nothing is then committed)."""
        with self._lock:
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

    def search(
        self, query: SearchQuery, limit: int = 20, offset: int = 0, tokens: int = SNIPPET_TOKENS
    ) -> list[SearchHit]:
        """Ranked hits of `query`, snippets of about `tokens` words (at most 64).
        Raises `SearchSyntaxError` for bad FTS5 syntax."""
        tokens = max(1, min(int(tokens), 64))
        sql = [
            "SELECT d.slug, d.title, d.type, -bm25(fts, 5.0, 1.0) AS score,",
            f" snippet(fts, -1, '{HIT_OPEN}', '{HIT_CLOSE}', '…', {tokens})",
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
        with self._lock:
            try:
                rows = self._db.execute("".join(sql), params).fetchall()
            except sqlite3.OperationalError as error:
                raise SearchSyntaxError(f"bad search syntax: {_fts_message(error)}") from None
        return [
            SearchHit(slug, title, kind, float(score), " ".join(snippet.split()))
            for slug, title, kind, score, snippet in rows
        ]

    def pages_with_phrase(self, phrase: str) -> list[str]:
        """Slugs of the pages whose body holds `phrase` as whole words (any case)."""
        words = phrase.replace('"', " ").split()
        if not words:
            return []
        match = '{body}: "' + " ".join(words) + '"'
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT d.slug FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ?",
                    (match,),
                ).fetchall()
            except sqlite3.OperationalError:
                return []
        return [slug for (slug,) in rows]

    def body(self, slug: str) -> str | None:
        """The indexed body of `slug` (as read at the last sync), or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT f.body FROM docs d JOIN fts f ON f.rowid = d.id WHERE d.slug = ?", (slug,)
            ).fetchone()
        return row[0] if row else None

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM docs").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _clean(text: str) -> str:
    """Text without the snippet's hit markers (and NULs, which SQLite text may not hold)."""
    if HIT_OPEN in text or HIT_CLOSE in text or "\x00" in text:
        return text.replace(HIT_OPEN, " ").replace(HIT_CLOSE, " ").replace("\x00", " ")
    return text


def _fts_message(error: sqlite3.OperationalError) -> str:
    message = " ".join(str(error).split())
    return message.removeprefix("fts5: ")
