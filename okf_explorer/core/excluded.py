"""A vault's excluded files: what Obsidian keeps out of search, as its owner set it.

Obsidian's setting "Excluded files" (`userIgnoreFilters` in `.obsidian/app.json`) hides
pages "in Search, Graph View, and Unlinked Mentions, and [makes them] less noticeable in
Quick Switcher and link suggestions" (its help, Settings). An LLM-kept wiki of 35k pages
excludes its 30k raw source documents so; read as written, every search answered with
them first. Here an excluded page is left out of `search` (the command line, `ctrl+f`,
`serve`'s `search`; `search --excluded` keeps it) and of unlinked mentions, and comes
after the others in the page finder (`/`). Its links, its backlinks and the graph are
kept: a link to it is still a link. The text index reads an excluded page only for a
search that asks for everything (`TextSearch.text_index`): on that 35k-page wiki the
first search took 11.5-12.0 s, and 7.4-7.5 s reading the 16k pages it does not exclude.

A filter is a path prefix, as Obsidian's settings write a folder (`_sources/`) or a
file (`AGENTS.md`), matched against the page's file path from the vault's root; a filter
written between slashes (`/draft-\\d+/`) is a regular expression searched in that path.
One that does not compile is left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["NONE_EXCLUDED", "Excluded", "excluded_files"]

MAX_FILTERS = 1000
"""At most this many filters are read (Obsidian's list is typed by hand)."""


@dataclass(frozen=True, slots=True)
class Excluded:
    """Which pages a vault's settings exclude: `prefixes` of their file paths, and
    `patterns` searched in them. Called with a slug, says whether it is excluded."""

    prefixes: tuple[str, ...] = ()
    patterns: tuple[re.Pattern[str], ...] = ()

    def __call__(self, slug: str) -> bool:
        return _excluded(self, slug)

    def __bool__(self) -> bool:
        return bool(self.prefixes or self.patterns)


NONE_EXCLUDED = Excluded()
"""No page excluded (a source without such settings)."""


@lru_cache(maxsize=65536)
def _excluded(excluded: Excluded, slug: str) -> bool:
    path = slug + ".md"
    return path.startswith(excluded.prefixes) or any(p.search(path) for p in excluded.patterns)


def excluded_files(filters: object) -> Excluded:
    """The `Excluded` of a settings value (`userIgnoreFilters`: a list of strings; any
    other value, or item, excludes nothing)."""
    if not isinstance(filters, list):
        return Excluded()
    prefixes: list[str] = []
    patterns: list[re.Pattern[str]] = []
    for item in _strings(filters[:MAX_FILTERS]):
        if len(item) > 2 and item.startswith("/") and item.endswith("/"):
            try:
                patterns.append(re.compile(item[1:-1]))
            except re.error:
                continue
        else:
            prefixes.append(item.lstrip("/"))
    return Excluded(tuple(p for p in prefixes if p), tuple(patterns))


def _strings(items: Iterable[object]) -> Iterable[str]:
    return (item.strip() for item in items if isinstance(item, str) and item.strip())
