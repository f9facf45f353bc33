"""Close pages for a name that resolves to none: the one suggester (SPEC §3).

Used by the CLI's `no page` error, the TUI's `--start` notice and the server's
fuzzy `get_page` when resolution finds nothing. A page is scored by its best
name among its slug, file name, stated or displayed title and aliases
(case-folded, `.md` stripped):

- a name that starts one of the page's words (`graph` → `graph-view`,
  `Graph View`) scores 0.95, one contained anywhere in a name (`people/alic`)
  0.9;
- otherwise `difflib`'s similarity ratio, kept when at least `CUTOFF` (typos).

Only the best of those three kinds of match is offered (`graph` suggests
`graph-view`, not also `paragraphs`); best score first, then fewest folders,
then code-point order.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from okf_explorer.core.links.resolution import fold, fold_name, strip_md, tie_key
from okf_explorer.core.pages import PageInfo

CUTOFF = 0.75
"""The least `difflib` ratio that counts as a typo of a name."""
_WORD = re.compile(r"[^\W_]+")
_WORD_START = 0.95
_SUBSTRING = 0.9


def _names(info: PageInfo) -> set[str]:
    names = {fold(info.slug), fold(info.slug.rpartition("/")[2])}
    if info.title:
        names.add(fold_name(info.title))
    names.update(fold_name(alias) for alias in info.aliases)
    return names


def _score(needle: str, names: Iterable[str]) -> float:
    best = 0.0
    matcher = difflib.SequenceMatcher(b=needle, autojunk=False)
    for name in names:
        if not name:
            continue
        if any(word.startswith(needle) for word in _WORD.findall(name)) and needle[0].isalnum():
            return _WORD_START
        if needle in name:
            best = max(best, _SUBSTRING)
            continue
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() >= CUTOFF and matcher.quick_ratio() >= CUTOFF:
            best = max(best, matcher.ratio())
    return best if best >= CUTOFF else 0.0


def suggest(name: str, pages: Iterable[PageInfo], limit: int = 3) -> list[str]:
    """Up to `limit` slugs of pages whose names are close to `name`, best first."""
    needle = fold_name(strip_md(name.strip()))
    if not needle or limit <= 0:
        return []
    scored = []
    for info in pages:
        score = _score(needle, _names(info))
        if score > 0:
            scored.append((-score, tie_key(info.slug), info.slug))
    scored.sort()
    if scored and -scored[0][0] >= _SUBSTRING:  # word or substring matches: only that kind
        best = -scored[0][0]
        scored = [entry for entry in scored if -entry[0] == best]
    return [slug for _, _, slug in scored[:limit]]
