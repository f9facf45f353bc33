"""The finder's ranking (`core.search.find_rank`): the obvious answer first."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.search.find_rank import (
    EXACT,
    FUZZY,
    PREFIX,
    SUBSTRING,
    Findable,
    NameRanker,
    normalise,
    rank_pages,
)

PAGES = [
    Findable("decisions/adr-001-one-orders-table", "ADR-001: One orders table", backlinks=4),
    Findable("glossary/orders", "Order", backlinks=3),
    Findable("tables/orders", "analytics.orders", backlinks=34),
    Findable("tables/orders_legacy", "analytics.orders_legacy", backlinks=9),
    Findable("tables/order_items", "analytics.order_items", backlinks=14),
    Findable("people/maya-chen", "Maya Chen", ("Maya", "M. Chen")),
    Findable("glossary/gross margin", "Gross margin"),
]


def slugs(query: str) -> list[str]:
    return [hit.slug for hit in rank_pages(query, PAGES)]


def test_an_exact_file_name_comes_first_the_most_linked_of_two_first() -> None:
    found = slugs("orders")
    assert found[:2] == ["tables/orders", "glossary/orders"]
    assert found.index("tables/orders_legacy") < found.index("decisions/adr-001-one-orders-table")


def test_tiers_exact_prefix_substring_fuzzy() -> None:
    tiers = {hit.slug: hit.tier for hit in rank_pages("orders", PAGES)}
    assert tiers["tables/orders"] == EXACT
    assert tiers["tables/orders_legacy"] == PREFIX
    assert tiers["decisions/adr-001-one-orders-table"] == PREFIX  # a word of the name
    assert tiers["tables/order_items"] == FUZZY
    assert rank_pages("rders", PAGES)[0].tier == SUBSTRING


def test_titles_and_aliases_match_exactly_ignoring_case_and_separators() -> None:
    assert next((hit.slug, hit.field) for hit in rank_pages("m. chen", PAGES)) == (
        "people/maya-chen",
        "alias",
    )
    assert rank_pages("MAYA chen", PAGES)[0].tier == EXACT
    assert rank_pages("gross-margin", PAGES)[0].slug == "glossary/gross margin"
    assert rank_pages("tables/orders", PAGES)[0].field == "slug"


def test_emoji_and_other_symbols_are_no_part_of_a_name() -> None:
    """A community vault names its maps of content `🗂️ Plugins` (U+1F5C2 and a
    variation selector); typing `plugins` means that page, as a person reads it. A name
    of symbols only keeps them (else it could not be found by name at all)."""
    pages = [
        Findable("🗂️ Plugins", "🗂️ Plugins"),
        Findable("plugins-by-author", "Plugins by author", backlinks=40),
        Findable("✅", "✅"),
        Findable("ok/👩‍💻 Coding", "👩‍💻 Coding"),  # a ZWJ sequence
    ]
    best = rank_pages("plugins", pages)[0]
    assert (best.slug, best.tier) == ("🗂️ Plugins", EXACT)
    assert rank_pages("🗂 plugins", pages)[0].tier == EXACT  # the emoji typed without it
    assert rank_pages("✅", pages)[0].slug == "✅"
    assert rank_pages("coding", pages)[0].tier == EXACT


def test_nothing_for_a_blank_query_or_no_match_and_a_limit() -> None:
    assert rank_pages("  ", PAGES) == []
    assert rank_pages("zzz", PAGES) == []
    assert len(rank_pages("a", PAGES, limit=2)) == 2


def test_fuzzy_matches_rank_by_pieces_starting_inside_words_and_scattered_ones_are_none() -> None:
    """On a 35k-page vault `krbtgt` matched 384 pages fuzzily, its letters gathered from
    long paths (`…/skypeforbusiness/set-csaccessedgeconfiguration`), before the page
    about a Kerberos TGT."""
    pages = [
        Findable("sources/skype/skypeforbusiness/set-csaccessedgeconfiguration", backlinks=20),
        Findable("kb/no-kerberos-tgt-after-unlock", backlinks=1),
        Findable("topics/tables-view", backlinks=50),
        Findable("topics/obsidian"),
        Findable("topics/t-b-v"),
    ]
    assert [hit.slug for hit in rank_pages("krbtgt", pages)] == ["kb/no-kerberos-tgt-after-unlock"]
    # word starts only: no stray, before the more linked page with one (`b` in `tables`)
    assert [(hit.slug, hit.strays) for hit in rank_pages("tbv", pages)] == [
        ("topics/t-b-v", 0),
        ("topics/tables-view", 1),
    ]
    assert [(hit.slug, hit.tier, hit.strays) for hit in rank_pages("obsdian", pages)] == [
        ("topics/obsidian", FUZZY, 1)
    ]


NAME_PARTS = ["orders", "order", "items", "ord", "rs", "tables", "glossary", "x", "o"]


@settings(max_examples=200, deadline=None)
@given(
    pages=st.lists(
        st.tuples(
            st.lists(st.sampled_from(NAME_PARTS), min_size=1, max_size=3),
            st.lists(st.sampled_from(NAME_PARTS), max_size=3),
        ),
        min_size=1,
        max_size=12,
    ),
    typed=st.lists(st.sampled_from([*"ordes -_/it", "backspace"]), min_size=1, max_size=10),
)
def test_the_name_ranker_ranks_as_rank_pages_key_after_key(pages, typed) -> None:  # type: ignore[no-untyped-def]
    """Typing, deleting and typing again: each query's hits are `rank_pages`' own."""
    findables = [
        Findable("/".join(slug) + f"-{n}", " ".join(title)) for n, (slug, title) in enumerate(pages)
    ]
    ranker, query = NameRanker(), ""
    for key in typed:
        query = query[:-1] if key == "backspace" else query + key
        assert ranker.rank(query, findables) == rank_pages(query, findables)


SEPARATORS = re.compile(r"[-_\s]+")
"""The separators as the regex first wrote them (`\\s`: Unicode white space)."""


@settings(max_examples=300)
@given(st.text(st.sampled_from("aB- _\t\n\u00a0\u2028\u3000\x1cé·½"), max_size=20))
def test_separators_are_one_space_as_the_regex_made_them(text: str) -> None:
    """`normalise` joins runs of `-`, `_` and white space with str methods (4x the regex
    over a 14k-page wiki's names): the same names, the odd white space included."""
    assert normalise(text) == SEPARATORS.sub(" ", text.casefold()).strip()
