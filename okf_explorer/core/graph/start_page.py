"""The first page a person would open in a brain, and which rule chose it.

Rules, first match wins (file names compared without case):

1. a root home page: `index`, then `Home`, then `README`, then `_index`;
2. a nested home page: `docs/index` first, then any folder's `index`, `Home`,
   `README` or `_index`, shallowest first (then in that name order, then slug order);
3. the page with most backlinks (distinct linking pages; ties: slug order), once the
   index knows them;
4. else the first page in slug order.

Pure: it is given the slugs (and the backlink counts when known), never a source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

HOME_NAMES = ("index", "home", "readme", "_index")
"""Home-page file names (lower case), in order of preference."""
DOCS_INDEX = "docs/index"


@dataclass(frozen=True, slots=True)
class StartChoice:
    """The chosen start page and a few words on why (shown in the status line)."""

    slug: str
    rule: str

    @property
    def final(self) -> bool:
        """False for the stand-in first page: backlink counts may still choose another."""
        return self.rule != FIRST_PAGE


FIRST_PAGE = "first page"


def choose_start(
    slugs: Iterable[str], backlinks: Callable[[str], int] | None = None
) -> StartChoice | None:
    """The start page among `slugs` (see the module doc); None for an empty brain.

    `backlinks(slug)` counts the pages linking to `slug`; without it (no index yet)
    rule 3 is skipped and rule 4 answers, its choice not `final`.
    """
    ordered = sorted(slugs)
    if not ordered:
        return None
    root = _best_home(slug for slug in ordered if "/" not in slug)
    if root is not None:
        return StartChoice(root, f"root {root}")
    nested = _nested_home(ordered)
    if nested is not None:
        rule = DOCS_INDEX if nested.lower() == DOCS_INDEX else f"nested {_file_name(nested)}"
        return StartChoice(nested, rule)
    if backlinks is not None:
        counts = [(backlinks(slug), slug) for slug in ordered]
        most = max(count for count, _ in counts)
        if most > 0:
            slug = next(slug for count, slug in counts if count == most)
            return StartChoice(slug, f"most backlinks ({most})")
    return StartChoice(ordered[0], FIRST_PAGE)


def _file_name(slug: str) -> str:
    return slug.rsplit("/", 1)[-1]


def _home_rank(slug: str) -> int | None:
    name = _file_name(slug).lower()
    return HOME_NAMES.index(name) if name in HOME_NAMES else None


def _best_home(slugs: Iterable[str]) -> str | None:
    """The home page of highest preference; an exact-case `index` beats `Index`."""
    ranked = [
        (rank, slug != "index", slug) for slug in slugs if (rank := _home_rank(slug)) is not None
    ]
    return min(ranked)[2] if ranked else None


def _nested_home(slugs: list[str]) -> str | None:
    docs = [slug for slug in slugs if slug.lower() == DOCS_INDEX]
    if docs:
        return min(docs, key=lambda slug: (slug != DOCS_INDEX, slug))
    ranked = [
        (slug.count("/"), rank, slug)
        for slug in slugs
        if "/" in slug and (rank := _home_rank(slug)) is not None
    ]
    return min(ranked)[2] if ranked else None
