"""The one suggester (`core.links.suggest`): close pages for a name that resolves to none."""

from __future__ import annotations

from okf_explorer.core.links.resolution import suggest
from okf_explorer.core.pages import PageInfo

PAGES = [
    PageInfo("docs/user/features/graph-view", "Graph View", title_stated=True),
    PageInfo("docs/user/features/paragraphs", "Paragraphs"),
    PageInfo("people/maya-chen", "Maya Chen", aliases=("Head of Data",)),
    PageInfo("tables/orders", "analytics.orders", title_stated=True),
    PageInfo("cycle-a", "cycle-a"),
    PageInfo("cycle-b", "cycle-b"),
]


def test_a_word_start_beats_a_substring() -> None:
    assert suggest("graph", PAGES) == ["docs/user/features/graph-view"]
    assert suggest("raph", PAGES) == [
        "docs/user/features/graph-view",
        "docs/user/features/paragraphs",
    ]


def test_titles_aliases_and_typos_are_searched() -> None:
    assert suggest("head of", PAGES) == ["people/maya-chen"]
    assert suggest("analytics.order", PAGES) == ["tables/orders"]
    assert suggest("tabels/orders", PAGES) == ["tables/orders"]  # a typo: difflib
    assert suggest("cycle", PAGES, limit=1) == ["cycle-a"]
    assert suggest("zzz", PAGES) == [] and suggest("  ", PAGES) == []
