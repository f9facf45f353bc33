"""`PageLinks`' shortcuts (an exact slug, a plain `.md` path, a wiki target matching one
page) answer as `SlugResolver.resolve` does, for random slugs, targets and linking pages:
with the full resolver and with a `slugs_only` one (which asks for names alike)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from okf_explorer.core.index.build import PageLinks, path_slug
from okf_explorer.core.links.resolution import NamesNeeded, SlugResolver

SEGMENTS = ["a", "A", "b", "x", "X", "index", "my note", "My-Note", ".hidden", "é", "e\u0301", " x"]
PREFIXES = ["", "", "/", "./", "../", "../../", "./../", " ", "//"]
SUFFIXES = ["", "", ".md", ".md", ".MD", "/", "/.", "/..", ".png", " "]

HOSTILE = [".", "..", ""]
"""Segments no listing makes, so `path_slug` must not take a slug's word for a path."""


def slug_lists(segments: list[str]) -> st.SearchStrategy[list[str]]:
    return st.lists(
        st.lists(st.sampled_from(segments), min_size=1, max_size=3).map("/".join),
        min_size=1,
        max_size=10,
        unique=True,
    )


slugs = slug_lists(SEGMENTS)
any_slugs = slug_lists([*SEGMENTS, *HOSTILE])


@st.composite
def targets(draw: st.DrawFn) -> str:
    middle = draw(st.lists(st.sampled_from([*SEGMENTS, ".", ".."]), min_size=1, max_size=3))
    return draw(st.sampled_from(PREFIXES)) + "/".join(middle) + draw(st.sampled_from(SUFFIXES))


def answer(call: Callable[..., Any], *args: object) -> object:
    try:
        return call(*args)
    except NamesNeeded as needed:
        return ("names needed", needed.args[0])


@settings(max_examples=400, deadline=None)
@given(
    slugs,
    st.lists(st.tuples(targets(), st.sampled_from(["wiki", "embed", "markdown"])), max_size=8),
    st.integers(min_value=0, max_value=9),
    st.booleans(),
)
def test_page_links_answer_as_the_resolver(
    corpus: list[str], links: list[tuple[str, str]], at: int, names_known: bool
) -> None:
    titles = {corpus[0]: "My Note"}
    resolver = SlugResolver(corpus, titles, {corpus[-1]: ["x"]}, names_known=names_known)
    reference = SlugResolver(corpus, titles, {corpus[-1]: ["x"]}, names_known=names_known)
    page_links = PageLinks(resolver, frozenset(corpus))
    slug = corpus[at % len(corpus)]
    folder = slug.rpartition("/")[0]
    for _round in range(2):  # the second round answers from the memos
        for written, kind in links:
            target = written.strip()  # as the grammar gives them
            if not target:
                continue
            row = (target, kind, 1, None, "links", False, False)
            got = answer(page_links.one, slug, folder, row)
            want = answer(reference.resolve, target, slug, kind)
            if not isinstance(want, tuple):
                want = (want.node, want.rule, want.candidates)
            assert got == want, (target, kind, slug)


@settings(max_examples=400, deadline=None)
@given(any_slugs, targets(), st.integers(min_value=0, max_value=9))
def test_a_plain_path_names_the_slug_the_path_rules_find(
    corpus: list[str], target: str, at: int
) -> None:
    slug = corpus[at % len(corpus)]
    # The linking page is always a listed page (no hostile segment); the corpus may hold
    # hostile slugs, which a path must never name by accident.
    assume(not set(slug.split("/")) & set(HOSTILE))
    found = path_slug(target, slug.rpartition("/")[0], frozenset(corpus))
    if found is not None:
        resolution = SlugResolver(corpus).resolve(target, slug, "markdown")
        assert (resolution.node, resolution.rule) == (found, "path")


def test_the_plain_paths_the_shortcut_takes() -> None:
    corpus = frozenset(["a/b", "a/c/d", "top"])
    assert path_slug("/a/b.md", "x", corpus) == "a/b"
    assert path_slug("b.md", "a", corpus) == "a/b"
    assert path_slug("./c/d.md", "a", corpus) == "a/c/d"
    assert path_slug("../../top.md", "a/c", corpus) == "top"
    for unplain in ["../top.md", "a/./b.md", "/a//b.md", "/a/b.MD", " /a/b.md", "/a/b"]:
        assert path_slug(unplain, "", corpus) is None


def test_a_slug_no_listing_makes_is_not_taken_for_a_path() -> None:
    corpus = frozenset(["a/./b", "a//b", "a/../b", "/b", "c/", ".d"])
    for target in ["/a/./b.md", "/a//b.md", "/a/../b.md", "//b.md", "/c/.md", "/.d.md"]:
        assert path_slug(target, "", corpus) is None
