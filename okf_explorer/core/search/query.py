"""The grammar of a full-text search query: plain words or FTS5 syntax, plus filters.

Three filters may appear anywhere in a query: `type:T` (the page's type), `tag:T`
(one of its tags, or a tag nested in it: `core.pages.has_tag`) and `path:P` (its slug
starts with P; a leading `/` is ignored). Filter values may be quoted. Filters alone
(`tag:todo`) list the pages passing them (`SearchQuery.listing`), as a click on a tag
in Obsidian does. What is left is read one of two ways:

- **Plain words** (no `"`, no `prefix*`, no `AND` / `OR` / `NOT` / `NEAR`), as people
  type a question: its stop words are left out (`core.search.words`; all kept when
  there is nothing else), and a page holding *any* of the other words matches; the
  ranking puts the pages holding more of them first (`core.search.ranking`). Words
  are searched as the tokenizer reads them (stemmed: `notes` finds `note`), and the
  punctuation in them is no syntax (`gross-margin`, `o'neil`, `Maps (MOC)`).
- **FTS5 syntax** otherwise: bare words, `"exact phrases"`, `prefix*`, `AND` / `OR`
  / `NOT`, parentheses, with FTS5's meaning (every item must match: juxtaposition
  is `AND`). A bare word holding characters FTS5 would reject (`tables/orders`) is
  quoted for the user, so it is searched as the phrase of its words; the `*` of a
  prefix query stays outside the quotes. What is left malformed (an unclosed quote
  or parenthesis, a dangling `AND`) is FTS5's to refuse: the caller turns that into
  `SearchSyntaxError`.

Either way a run of a script written without spaces (Chinese, Japanese, Korean; Thai,
Lao, Khmer, Burmese) is searched as the index holds it, one character a token
(`core.search.words`): as a phrase in FTS5 syntax, as its overlapping pairs of
characters (the whole run in an alphabet: `run_phrases`) among plain words.
`SearchQuery.name` is the query read as a page's name (filters and quotes left out):
a page so called comes first (`core.search.find_rank.page_names`).

A query is untrusted input with a cost: FTS5's work grows with the square of
its phrases (one word repeated 4,000 times took 35 s on the 59-page sample
brain), so a query searches for at most `MAX_QUERY_TERMS` words (the operators
and the filters not counted; among plain words, the terms searched for: repeated
words count once, a pair of CJK characters once). Plain words past them are left
out, the first ones searched for (`SearchQuery.cut` says how many were not): a
sentence pasted whole, or an agent's long question, still finds its pages (a
Chinese news title of 40 characters is 39 pairs). FTS5 syntax holding more, or a
query of more than `MAX_QUERY_BYTES` bytes, is refused with `QueryTooLong` before
anything runs.
What a query may still cost is bounded by the deadline of `core.search.text_index`
(`SearchTimedOut`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from okf_explorer.core.errors import OkfError
from okf_explorer.core.search.words import (
    ELISIONS,
    STOP_WORDS,
    WORD_CHAR,
    cjk_phrase,
    has_cjk,
    run_phrases,
    separates,
    split_cjk,
)

_FILTER = re.compile(r'(?<!\S)(type|tag|path):(?:"([^"]*)"|(\S+))', re.IGNORECASE)
_EMPTY_FILTER = re.compile(r'"[^"]*"|(?<!\S)(type|tag|path):(?:""|(?=\s|$))', re.IGNORECASE)
"""A filter written without its value (`tag:` alone, `type: note`, `path:""`), group 1
its key; a quoted phrase is matched whole, so `"type: concept"` is a phrase, not that."""
_TOKEN = re.compile(r'"[^"]*"?|[()]|[^\s()"]+')
_BAREWORD = re.compile(f"{WORD_CHAR}+\\*?")
_OPERATORS = frozenset({"AND", "OR", "NOT", "NEAR"})
_WORD = re.compile(f"{WORD_CHAR}+")

MAX_QUERY_TERMS = 32
"""Words one query may search for (a phrase's words count one each)."""
MAX_QUERY_BYTES = 2048
"""Bytes of one query (UTF-8), filters included."""


class SearchSyntaxError(OkfError):
    """The query is not valid search syntax (the message says where)."""


class QueryTooLong(SearchSyntaxError):
    """The query holds more words or bytes than a search takes (a usage error)."""


class SearchTimedOut(OkfError):
    """The search ran past its deadline and was stopped (the query is valid)."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        super().__init__(
            f"search stopped after {deadline:g} s: narrow the query (fewer words or"
            " prefixes, or a type:, tag: or path: filter)"
        )


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """A parsed query: the FTS5 expression and the filters taken out of it.

    `terms` are the plain words' FTS5 terms (each a quoted word, or a pair of CJK
    characters), ranked by how many of them a page holds; empty for FTS5 syntax,
    where `text` says what must match. `words` are the words as typed (what a server's
    search is asked, and what its rows are marked with); `name` the query as a page's
    name."""

    text: str
    type: str | None = None
    tag: str | None = None
    path: str | None = None
    types: tuple[str, ...] = ()
    """Any of these types (what a server's `types` argument asks); besides `type`."""
    terms: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    name: str = ""
    cut: int = 0
    """Plain-word terms left out past `MAX_QUERY_TERMS` (the first ones are searched for)."""
    hide_excluded: bool = False
    """Leave out the pages the brain's settings exclude (`core.excluded`: the SQL
    function `okf_excluded`, which `TextIndex.search` registers)."""

    @property
    def plain(self) -> bool:
        """Whether the query is plain words (ranked by coverage), not FTS5 syntax."""
        return bool(self.terms)

    @property
    def listing(self) -> bool:
        """Whether the query is filters alone: every page passing them, no words."""
        return not self.text and not self.terms

    @property
    def filters(self) -> dict[str, str]:
        """The filters given, by name (for messages and for servers' own search)."""
        found = {"type": self.type, "tag": self.tag, "path": self.path}
        return {name: value for name, value in found.items() if value}


def parse_query(query: str) -> SearchQuery:
    """Split `query` into its FTS5 expression and its `type:`/`tag:`/`path:` filters.

    Raises `SearchSyntaxError` when nothing is left to search for (no word, no filter),
    `QueryTooLong` past the caps.
    """
    check_size(query)
    for empty in _EMPTY_FILTER.finditer(query):
        if key := (empty.group(1) or "").lower():
            value = "PREFIX" if key == "path" else "NAME"
            raise SearchSyntaxError(f"{key}: needs a value right after the colon: {key}:{value}")
    filters: dict[str, str] = {}
    for match in _FILTER.finditer(query):
        value = match.group(2) if match.group(2) is not None else match.group(3)
        filters[match.group(1).lower()] = value.strip()
    rest = _FILTER.sub(" ", query)
    tokens = _TOKEN.findall(rest)
    path = filters.get("path", "").lstrip("/") or None
    kind, tag = filters.get("type") or None, filters.get("tag") or None
    if not any(_is_syntax(token) for token in tokens):
        if not _WORD.search(rest):
            if filters:
                return SearchQuery("", type=kind, tag=tag, path=path)
            raise SearchSyntaxError("search needs a word, or a type:, tag: or path: filter")
        return replace(_plain(rest), type=kind, tag=tag, path=path)
    text = " ".join(_quoted(token) for token in tokens)
    check_terms(text)
    words = tuple(w for w in _WORD.findall(rest) if w not in _OPERATORS)
    name = " ".join(rest.replace('"', " ").split())
    return SearchQuery(text, kind, tag, path, words=words, name=name)


def words_query(text: str) -> SearchQuery:
    """`text` searched as plain words, whatever operators or quotes it holds: for
    callers that do not speak our syntax (an agent over MCP)."""
    check_size(text)
    if not _WORD.search(text):
        raise SearchSyntaxError("search needs at least one word")
    return _plain(text)


def _plain(text: str) -> SearchQuery:
    """Plain words: their terms (the first `MAX_QUERY_TERMS`), stop words left out unless
    nothing else is left. A word written with punctuation inside (`gross-margin`,
    `o'neil`, `tables/orders`) is one term, the phrase of its parts, as the index reads
    such text."""
    groups = [
        _without_elision(parts)
        for token in text.split()
        if token not in _OPERATORS and (parts := _WORD.findall(token))
    ] or [_WORD.findall(text)]
    kept = [parts for parts in groups if not _is_stop(parts)] or groups
    terms: dict[str, None] = {}
    for parts in kept:
        if len(parts) > 1 and not any(has_cjk(part) for part in parts):
            terms.setdefault('"' + " ".join(parts).casefold() + '"', None)
            continue
        for part, cjk in (piece for word in parts for piece in split_cjk(word)):
            if all(separates(char) for char in part):
                continue  # `：`, `—`, `⚠`: the tokenizer's separators
            for term in run_phrases(part) if cjk else [f'"{part}"']:
                terms.setdefault(term.casefold(), None)
    if not terms:
        raise SearchSyntaxError("search needs a word, not punctuation or symbols alone")
    searched = tuple(terms)[:MAX_QUERY_TERMS]
    words = tuple(word for parts in groups for word in parts)
    name = " ".join(text.split())
    cut = len(terms) - len(searched)
    return SearchQuery(" OR ".join(searched), terms=searched, words=words, name=name, cut=cut)


def _without_elision(parts: list[str]) -> list[str]:
    """A word's parts without an elided article or preposition before the word
    (`dell'applicazione` → `applicazione`, `ELISIONS`)."""
    if len(parts) > 1 and parts[0].casefold() in ELISIONS:
        return parts[1:]
    return parts


def _is_stop(parts: list[str]) -> bool:
    """Whether a word typed (its parts, split at punctuation) is a stop word: `how`,
    or a contraction (`don't`: `don` and `t`)."""
    return "'".join(parts).replace("’", "'").casefold() in STOP_WORDS or all(
        part.casefold() in STOP_WORDS for part in parts
    )


def _is_syntax(token: str) -> bool:
    """Whether a token of a query is FTS5 syntax: an operator, a phrase, a prefix."""
    return token in _OPERATORS or token.startswith('"') or (token.endswith("*") and len(token) > 1)


def check_size(query: str) -> None:
    """Refuse a query of more than `MAX_QUERY_BYTES` bytes, before any parsing."""
    size = len(query.encode("utf-8", "surrogatepass"))
    if size > MAX_QUERY_BYTES:
        raise QueryTooLong(f"search query too long: {size} bytes (at most {MAX_QUERY_BYTES})")


def check_terms(text: str) -> None:
    """Refuse an FTS5 expression of more than `MAX_QUERY_TERMS` words."""
    count = query_terms(text)
    if count > MAX_QUERY_TERMS:
        raise QueryTooLong(f"search query too long: {count} words (at most {MAX_QUERY_TERMS})")


def query_terms(text: str) -> int:
    """How many words an FTS5 expression searches for (operators not counted): what
    its phrases, hence FTS5's work per page, grow with."""
    return sum(1 for word in _WORD.findall(text) if word not in _OPERATORS)


def _quoted(token: str) -> str:
    """A token as FTS5 takes it: operators, phrases and plain words unchanged, anything
    else as a phrase (its `*` kept outside); CJK runs as the phrase of their
    characters."""
    if token in _OPERATORS or token in "()":
        return token
    if has_cjk(token):
        return _cjk_token(token)
    if token.startswith('"'):
        return token
    if _BAREWORD.fullmatch(token):
        return token
    star = token.endswith("*") and len(token) > 1
    inner = token[:-1] if star else token
    inner = inner.replace('"', "")
    return f'"{inner}"' + ("*" if star else "")


def _cjk_token(token: str) -> str:
    """A token holding CJK characters: inside a phrase, each CJK character one word of
    it; outside, each CJK run a phrase of its own beside the token's other words."""
    if token.startswith('"'):
        inner = token.strip('"')
        parts = [" ".join(part) if cjk else part for part, cjk in split_cjk(inner)]
        return '"' + " ".join(parts).replace('"', "") + '"'
    star = token.endswith("*") and len(token) > 1
    pieces = [
        cjk_phrase(part) if cjk else _quoted(part)
        for part, cjk in split_cjk(token[:-1] if star else token)
        if part.strip()
    ]
    return " ".join(pieces) + ("*" if star and not has_cjk(token[-2]) else "")
