"""The start page a person would choose (`core.graph.analysis.choose_start`)."""

from __future__ import annotations

import pytest

from okf_explorer.core.graph.analysis import FIRST_PAGE, MAP_LINKS, choose_start


@pytest.mark.parametrize(
    ("slugs", "slug", "rule"),
    [
        (["a", "index", "Home", "README"], "index", "root index"),
        (["a", "Index", "Home"], "Index", "root Index"),
        (["a", "index", "Index"], "index", "root index"),
        (["docs/index", "Home", "README", "z"], "Home", "root Home"),
        (["docs/404", "readme", "_index"], "readme", "root readme"),
        (["_index", "b"], "_index", "root _index"),
        (["docs/404", "docs/index", "a/index", "a/b/README"], "docs/index", "docs/index"),
        (["a/b/index", "z/README", "m/c/Home"], "z/README", "nested README"),
        (["x/Home", "y/index"], "y/index", "nested index"),
        # a deeper home documents its own folder, not the brain
        (["b", "c/d/index", "e/f/g/readme"], "b", FIRST_PAGE),
        (["b", "a"], "a", FIRST_PAGE),
        # a vault's "Start here" (numbered, any separators) beats its GitHub README
        (["README", "00 - Start here", "z"], "00 - Start here", "root 00 - Start here"),
        (["README", "start-here"], "start-here", "root start-here"),
        (["Home", "Start Here"], "Home", "root Home"),
        (["README", "restart here", "start here now"], "README", "root README"),
        (["a/README", "b/Start_here"], "b/Start_here", "nested Start_here"),
    ],
)
def test_home_pages_by_rule(slugs: list[str], slug: str, rule: str) -> None:
    choice = choose_start(slugs)
    assert choice is not None
    assert (choice.slug, choice.rule) == (slug, rule)


def test_most_backlinks_when_no_home_page() -> None:
    counts = {"notes/fleeting": 0, "hub": 7, "other": 7, "lonely": 1}
    choice = choose_start(counts, counts.__getitem__)
    assert choice is not None
    assert (choice.slug, choice.rule, choice.final) == ("hub", "most backlinks (7)", True)


def test_a_home_page_beats_backlinks() -> None:
    choice = choose_start(["index", "hub"], {"index": 0, "hub": 9}.__getitem__)
    assert choice is not None and choice.slug == "index"


def test_the_first_page_stands_in_until_backlinks_are_known() -> None:
    no_links = choose_start(["b", "a"], lambda slug: 0)
    unknown = choose_start(["b", "a"])
    assert no_links is not None and unknown is not None
    assert (unknown.slug, unknown.final) == ("a", False)
    assert no_links.slug == "a"


def test_an_empty_brain_has_no_start() -> None:
    assert choose_start([]) is None


def test_a_home_linking_nowhere_inside_is_none_once_links_are_known() -> None:
    """A Korean ML vault's README is `# Obsidian-Vault` and a dot, its plugin-made
    `Spaces/Home` settings only: the explorer opened on an empty page. Chosen before
    the index (not final), then replaced by the page with most backlinks; a home that
    links into the brain stays the start."""
    slugs = ["README", "Pytorch/Pytorch", "Python/Python", "Spaces/Home"]
    backlinks = {"README": 0, "Pytorch/Pytorch": 81, "Python/Python": 42, "Spaces/Home": 0}
    before = choose_start(slugs)
    assert before is not None and (before.slug, before.final) == ("README", False)
    after = choose_start(slugs, backlinks.__getitem__, lambda slug: 0)
    assert after is not None
    assert (after.slug, after.rule, after.final) == ("Pytorch/Pytorch", "most backlinks (81)", True)
    links = {"README": 12, "Spaces/Home": 0}
    kept = choose_start(slugs, backlinks.__getitem__, lambda slug: links.get(slug, 3))
    assert kept is not None and (kept.slug, kept.final) == ("README", True)
    nested = choose_start(slugs, backlinks.__getitem__, lambda slug: 5 * (slug != "README"))
    assert nested is not None and (nested.slug, nested.rule) == ("Spaces/Home", "nested Home")


def test_a_home_linking_nowhere_stays_when_no_page_is_a_hub() -> None:
    """A TTRPG share's README is an awesome list of outside links; its most linked page
    is a spell with 3 backlinks: the README is the better start."""
    slugs = ["README", "spells/fear", "spells/light"]
    backlinks = {"README": 0, "spells/fear": 3, "spells/light": 1}
    choice = choose_start(slugs, backlinks.__getitem__, lambda slug: 0)
    assert choice is not None and (choice.slug, choice.final) == ("README", True)


def test_a_map_of_the_brain_beats_a_leaf_most_linked_to() -> None:
    """An Italian university vault has no home page: a note per course lists its 17 to
    45 lectures, and no lecture has more than 5 backlinks. The explorer opened on a
    lecture (`19 - il meccanismo di lock`, 5 backlinks, no links out); the course note
    linking to most pages is the map to start from, and its README (outside links only)
    gives way to it."""
    slugs = ["README", "db/db", "db/19 - lock", "os/os", "os/10 - passwords"]
    backlinks = {"db/19 - lock": 5, "os/10 - passwords": 5}
    links = {"db/db": 22, "os/os": 45}
    choice = choose_start(slugs, lambda s: backlinks.get(s, 0), lambda s: links.get(s, 0))
    assert choice is not None
    assert (choice.slug, choice.rule, choice.final) == ("os/os", "map (45 links)", True)
    # a page linking to fewer than MAP_LINKS, or to fewer pages than the hub has
    # backlinks, is no map: the hub stays
    cases = [  # (links out of `os/os`, backlinks of `db/19 - lock`)
        (MAP_LINKS - 1, 5),  # too few links to be a map
        (30, 30),  # no more links than the hub has backlinks
    ]
    for out, hub in cases:
        counts = {**backlinks, "db/19 - lock": hub}
        links_out = {"os/os": out}
        chosen = choose_start(
            slugs, lambda s, c=counts: c.get(s, 0), lambda s, o=links_out: o.get(s, 0)
        )
        assert chosen is not None and chosen.rule == f"most backlinks ({hub})", chosen


def test_backlinks_tied_the_page_linking_to_more_wins() -> None:
    """A research vault's pages most linked to have 5 backlinks each; slug order put a
    leaf (`Compiler/FP/Haskell/Haskell Tricks`, 1 link out) before the overview
    `Math/Category Theory/Category Theory` (18 links out)."""
    slugs = ["Compiler/Haskell Tricks", "Math/Category Theory", "Net/MAC sublayer"]
    links = {"Compiler/Haskell Tricks": 1, "Math/Category Theory": 18, "Net/MAC sublayer": 3}
    choice = choose_start(slugs, lambda s: 5, links.__getitem__)
    assert choice is not None and choice.slug == "Math/Category Theory"
    unknown = choose_start(slugs, lambda s: 5)  # links not known: slug order
    assert unknown is not None and unknown.slug == "Compiler/Haskell Tricks"
