"""Search snippets: one line of a page around its hits, with bounded work.

Every snippet is built here. On an ordinary page it is FTS5's own `snippet()`
over the whole page (`text_index` asks for it); its cost grows with the square
of the page's hit instances (every instance of every phrase scores a window
of every other), and a 5 MB page holding a common word 70,000 times took 30 s
a search. So FTS5 sees a whole page only while `phrases × tokens` (an upper
bound of its instances) is at most `INSTANCE_BUDGET`, about 0.2 s of that work
at worst; any other page gets a snippet of a window of its body around its
first hit (`window_snippet`), of at most `2 × INSTANCE_BUDGET / phrases`
characters, marked by FTS5 in a scratch table of its own. A server's rows
(`snippet_around`) are cut around the first hit the same way.

Hits are marked between `HIT_OPEN` and `HIT_CLOSE`, never part of indexed text.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence

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
