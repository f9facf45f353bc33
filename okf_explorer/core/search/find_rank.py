"""Ranking pages for the finder: the obvious answer first.

Tiers, best first: an **exact** match of the slug, the file name, the title or an
alias; a **prefix** of one of them (or of a word of the title); a **substring**; then
a **fuzzy** match (the query's characters in order, in the slug or the title). Case,
and `-`, `_` and spaces, do not count. Within a tier: more backlinks first (the page
people link to is the one they mean), then the shallower slug, then slug order.

Pure: the TUI's finder (and any other finder mode) hands it `Findable` rows.

"The page called X" is one idea shared with full-text search: `page_names` gives a
page's names as both compare them, and `name_order` the order of several pages so
called. A page whose name is exactly the query is the finder's first tier, and comes
first among a search's hits (`core.search.text_index`), in the same order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

Tier = Literal[3, 2, 1, 0]
EXACT, PREFIX, SUBSTRING, FUZZY = 3, 2, 1, 0
TIER_NAMES = {EXACT: "exact", PREFIX: "prefix", SUBSTRING: "contains", FUZZY: "fuzzy"}
FIELDS = ("file name", "slug", "title", "alias")
"""Which name matched, in order of preference when several match at one tier."""

_SEPARATORS = re.compile(r"[-_\s]+")


def normalise(text: str) -> str:
    """Lower case, with runs of `-`, `_` and white space as one space."""
    return _SEPARATORS.sub(" ", text.casefold()).strip()


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


def match(wanted: str, page: Findable) -> FindHit | None:
    """The best tier at which the normalised query `wanted` matches `page`, or None."""
    best: FindHit | None = None
    for name, text in page.names:
        tier = _tier(wanted, text, name)
        if tier is not None and (best is None or tier > best.tier):
            best = FindHit(page, tier, name)
            if tier == EXACT:
                break
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
    if name in ("slug", "title") and _in_order(wanted.replace(" ", ""), text):
        return FUZZY
    return None


def _in_order(chars: str, text: str) -> bool:
    position = 0
    for char in chars:
        position = text.find(char, position) + 1
        if position == 0:
            return False
    return True


def _order(hit: FindHit) -> tuple[int, tuple[int, int, int, str]]:
    return (-hit.tier, name_order(hit.page.slug, hit.page.backlinks))
