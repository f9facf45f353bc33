"""The grammar of a full-text search query: words for SQLite FTS5, plus filters.

A query is FTS5 syntax (bare words, `"exact phrases"`, `prefix*`, `AND` / `OR`
/ `NOT`, parentheses) with three filters that may appear anywhere in it:
`type:T` (the page's type), `tag:T` (one of its tags) and `path:P` (its slug
starts with P; a leading `/` is ignored). Filter values may be quoted.

A bare word holding characters FTS5 would reject (`tables/orders`,
`gross-margin`, `o'neil`) is quoted for the user, so it is searched as the
phrase of its words; the `*` of a prefix query stays outside the quotes.
What is left malformed (an unclosed quote or parenthesis, a dangling `AND`)
is FTS5's to refuse: the caller turns that into `SearchSyntaxError`.

A query is untrusted input with a cost: FTS5's work grows with the square of
its phrases (one word repeated 4,000 times took 35 s on the 59-page sample
brain), so a query holds at most `MAX_QUERY_TERMS` words searched for (the
operators and the filters not counted) and `MAX_QUERY_BYTES` bytes, or is
refused with `QueryTooLong` before anything runs. What a query may still cost
is bounded by the deadline of `core.search.text_index` (`SearchTimedOut`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from okf_explorer.core.errors import OkfError

_FILTER = re.compile(r'(?<!\S)(type|tag|path):(?:"([^"]*)"|(\S+))', re.IGNORECASE)
_TOKEN = re.compile(r'"[^"]*"?|[()]|[^\s()"]+')
_BAREWORD = re.compile(r"[\w\u0080-\U0010ffff]+\*?")
_OPERATORS = frozenset({"AND", "OR", "NOT", "NEAR"})
_WORD = re.compile(r"[\w\u0080-\U0010ffff]+")

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
    """A parsed query: the FTS5 expression and the filters taken out of it."""

    text: str
    type: str | None = None
    tag: str | None = None
    path: str | None = None
    types: tuple[str, ...] = ()
    """Any of these types (what a server's `types` argument asks); besides `type`."""

    @property
    def filters(self) -> dict[str, str]:
        """The filters given, by name (for messages and for servers' own search)."""
        found = {"type": self.type, "tag": self.tag, "path": self.path}
        return {name: value for name, value in found.items() if value}


def parse_query(query: str) -> SearchQuery:
    """Split `query` into its FTS5 expression and its `type:`/`tag:`/`path:` filters.

    Raises `SearchSyntaxError` when nothing is left to search for, `QueryTooLong`
    past the caps.
    """
    check_size(query)
    filters: dict[str, str] = {}
    for match in _FILTER.finditer(query):
        value = match.group(2) if match.group(2) is not None else match.group(3)
        filters[match.group(1).lower()] = value.strip()
    rest = _FILTER.sub(" ", query)
    text = " ".join(_quoted(token) for token in _TOKEN.findall(rest))
    check_terms(text)
    if not text.strip():
        raise SearchSyntaxError("search needs at least one word besides type:, tag: and path:")
    path = filters.get("path", "").lstrip("/") or None
    return SearchQuery(text, filters.get("type") or None, filters.get("tag") or None, path)


def words_query(text: str) -> SearchQuery:
    """`text` searched as plain words, whatever operators or quotes it holds: for
    callers that do not speak our syntax (an agent over MCP)."""
    check_size(text)
    words = [w for w in _WORD.findall(text) if w not in _OPERATORS]
    check_terms(" ".join(words))
    if not words:
        raise SearchSyntaxError("search needs at least one word")
    return SearchQuery(" ".join(f'"{w}"' for w in words))


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
    else as a phrase (its `*` kept outside)."""
    if token in _OPERATORS or token in "()" or token.startswith('"'):
        return token
    if _BAREWORD.fullmatch(token):
        return token
    star = token.endswith("*") and len(token) > 1
    inner = token[:-1] if star else token
    inner = inner.replace('"', "")
    return f'"{inner}"' + ("*" if star else "")
