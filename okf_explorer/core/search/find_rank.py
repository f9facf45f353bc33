"""Ranking pages for the finder: the obvious answer first.

Tiers, best first: an **exact** match of the slug, the file name, the title or an
alias; a **prefix** of one of them (or of a word of the title); a **substring**; then
a **fuzzy** match (the query's characters in order, in the slug or the title). Case,
`-`, `_`, spaces and emoji do not count (`normalise`). Within a tier: more backlinks
first (the page people link to is the one they mean), then the shallower slug, then
slug order. A page the vault's settings exclude (`Findable.excluded`, Obsidian's
"Excluded files") comes after every other, as Obsidian's Quick Switcher makes it "less
noticeable".

A fuzzy match is only as good as its pieces: each run of the query's characters that
starts inside a word (not at the name's start or after a space or `/`) is a **stray**.
`dtv` → *data tables view* has none, `obsdian` → *obsidian* one (`dian`), and `krbtgt`
gathered from `…/skypeforbusiness/set csaccessedgeconfiguration` six. Fuzzy matches
rank by their strays first, and one with more than `max_strays` (a quarter of the
query's characters, at least one) is no match: on a 35k-page vault such letters turned
up in hundreds of long paths and buried the pages meant.

Pure: the TUI's finder (and any other finder mode) hands it `Findable` rows. As a
person types, `NameRanker` ranks each query among the pages that matched the one
before it when it extends that one (on a 35k-page vault: a full pass 150-450 ms, the
next keys a fraction of it).

"The page called X" is one idea shared with full-text search: `page_names` gives a
page's names as both compare them, and `name_order` the order of several pages so
called. A page whose name is exactly the query is the finder's first tier, and comes
first among a search's hits (`core.search.text_index`), in the same order.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

EXACT, PREFIX, SUBSTRING, FUZZY = 3, 2, 1, 0
TIER_NAMES = {EXACT: "exact", PREFIX: "prefix", SUBSTRING: "contains", FUZZY: "fuzzy"}
FIELDS = ("file name", "slug", "title", "alias")
"""Which name matched, in order of preference when several match at one tier."""

_WORD_STARTS = " /"
"""What a word of a normalised name follows (besides the name's start)."""


def max_strays(query_chars: int) -> int:
    """How many runs starting inside a word a fuzzy match of that many characters
    may have (see the module doc)."""
    return max(1, query_chars // 4)


def normalise(text: str) -> str:
    """Lower case, with runs of `-`, `_` and white space as one space, and emoji and
    other symbols outside ASCII left out (`🗂️ Plugins` is called `plugins`) unless
    the name is nothing else."""
    lower = text.casefold()
    if not lower.isascii():
        words = _MAY_BE_SYMBOL.sub(_symbol_out, lower)
        if words.strip():
            lower = words
    # runs of `-`, `_` and white space as one space: str methods, 4x the regex
    # `[-_\s]+` (which `\s` reads as `str.isspace` does) over a 14k-page wiki's names
    return " ".join(lower.replace("-", " ").replace("_", " ").split())


_MAY_BE_SYMBOL = re.compile(
    "[\u00a0-\u00bf\u02c0-\u02ff\u2000-\u2bff\u2e00-\u2e7f\u3000-\u303f"
    "\ufe00-\ufe0f\ufff0-\uffff\U0001f000-\U0001ffff\U000e0000-\U000e01ef]"
)
"""The blocks of symbols, punctuation and emoji (with their joiners and variation
selectors): only their characters are looked at (letters of other scripts, a Russian
vault's every name, need no look at each character)."""


def _symbol_out(found: re.Match[str]) -> str:
    """A space for a character of `_MAY_BE_SYMBOL` that is a symbol (an emoji, a
    pictograph, a skin tone) or what joins and styles them (a zero-width joiner, a
    variation selector); other characters (`·`, `½`, a dash) as they are."""
    char = found[0]
    if unicodedata.category(char) in ("So", "Sk", "Cf") or "\ufe00" <= char <= "\ufe0f":
        return " "
    return char


def page_names(slug: str, title: str, aliases: Iterable[str] = ()) -> tuple[tuple[str, str], ...]:
    """A page's `(field, normalised name)` pairs (see `FIELDS`), blanks left out."""
    names = [
        ("file name", slug.rsplit("/", 1)[-1]),
        ("slug", slug),
        ("title", title),
        *(("alias", alias) for alias in aliases),
    ]
    return tuple((name, key) for name, text in names if text and (key := normalise(text)))


def name_order(slug: str, backlinks: int) -> tuple[int, int, int, str]:
    """The order of pages matching at one tier: more backlinks first (the page people
    link to is the one they mean), then the shallower slug, the shorter, slug order."""
    return (-backlinks, slug.count("/"), len(slug), slug)


@dataclass(frozen=True, slots=True)
class Findable:
    """A page as the finder sees it: its names and how many pages link to it."""

    slug: str
    title: str = ""
    aliases: tuple[str, ...] = ()
    backlinks: int = 0
    excluded: bool = False
    """Excluded by the vault's settings (`core.excluded`): ranked after every other page."""
    names: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    """(field, normalised name) pairs, computed once (see `FIELDS`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", page_names(self.slug, self.title, self.aliases))


@dataclass(frozen=True, slots=True)
class FindHit:
    """One ranked page: its tier, and which of its names matched."""

    page: Findable
    tier: int
    field: str
    strays: int = 0
    """For a fuzzy match, its runs that start inside a word (see the module doc)."""

    @property
    def slug(self) -> str:
        return self.page.slug


def rank_pages(query: str, pages: Iterable[Findable], limit: int | None = None) -> list[FindHit]:
    """The pages matching `query`, best first (see the module doc); `limit` caps the list."""
    wanted = normalise(query)
    if not wanted:
        return []
    hits = [hit for page in pages if (hit := match(wanted, page)) is not None]
    hits.sort(key=_order)
    return hits if limit is None else hits[:limit]


class NameRanker:
    """`rank_pages` query after query over the same pages. Every page a query matches
    holds its characters in order in one of its names (an exact, prefix or substring
    match does too), and so holds those of any query it extends: a query extending the
    last one is matched only against the pages that held the last one's characters.
    Not thread-safe: one ranking at a time."""

    def __init__(self) -> None:
        self._pages: list[Findable] | None = None
        self._chars = ""
        self._holding: list[Findable] = []
        """The pages holding `_chars` in order in a name, of `_pages`."""

    def rank(self, query: str, pages: list[Findable], limit: int | None = None) -> list[FindHit]:
        chars = normalise(query).replace(" ", "")
        if not chars:
            return []
        extends = pages is self._pages and self._chars and chars.startswith(self._chars)
        pool = self._holding if extends else pages
        holding = [
            page for page in pool if any(_in_order(chars, text, 0) for _, text in page.names)
        ]
        self._pages, self._chars, self._holding = pages, chars, holding
        return rank_pages(query, holding, limit)


def match(wanted: str, page: Findable) -> FindHit | None:
    """The best tier at which the normalised query `wanted` matches `page`, or None."""
    best: FindHit | None = None
    for name, text in page.names:
        tier = _tier(wanted, text, name)
        if tier is not None and (best is None or tier > best.tier):
            best = FindHit(page, tier, name)
            if tier == EXACT:
                break
    if best is None:
        best = _fuzzy(wanted.replace(" ", ""), page)
    return best


def _tier(wanted: str, text: str, name: str) -> int | None:
    if text == wanted:
        return EXACT
    if text.startswith(wanted) or (name != "slug" and f" {wanted}" in f" {text}"):
        return PREFIX  # the name, or one of its words, starts with the query
    if name == "slug" and any(part.startswith(wanted) for part in text.split("/")):
        return PREFIX
    if wanted in text:
        return SUBSTRING
    return None


def _fuzzy(chars: str, page: Findable) -> FindHit | None:
    """The fuzzy match of `chars` in the page's slug or title with the fewest strays,
    or None when neither holds them in order with at most `max_strays`."""
    best: FindHit | None = None
    allowed = max_strays(len(chars))
    for name, text in page.names:
        if name not in ("slug", "title") or not _in_order(chars, text, 0):
            continue
        strays = strays_of(chars, text, allowed if best is None else best.strays - 1)
        if strays is not None:
            best = FindHit(page, FUZZY, name, strays)
    return best


def strays_of(chars: str, text: str, allowed: int) -> int | None:
    """The runs of `chars` (all in `text`, in order) that start inside a word, matched
    greedily: a run goes on while the next character follows; a new run starts at the
    first word start from which the rest still fits, else at the next occurrence.
    None once there are more than `allowed`."""
    strays, last = 0, -1
    for index, char in enumerate(chars):
        if index and text.startswith(char, last + 1):
            last += 1
            continue
        rest = chars[index + 1 :]
        at = text.find(char, last + 1)
        first = at
        while at >= 0 and not (at == 0 or text[at - 1] in _WORD_STARTS):
            at = text.find(char, at + 1)
        if at >= 0 and _in_order(rest, text, at + 1):
            last = at
        else:
            last, strays = first, strays + 1
            if strays > allowed:
                return None
    return strays


def _in_order(chars: str, text: str, start: int) -> bool:
    position = start
    for char in chars:
        position = text.find(char, position) + 1
        if position == 0:
            return False
    return True


def _order(hit: FindHit) -> tuple[bool, int, int, tuple[int, int, int, str]]:
    page = hit.page
    return (page.excluded, -hit.tier, hit.strays, name_order(page.slug, page.backlinks))
