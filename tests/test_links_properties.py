"""Property tests of the link grammar (hypothesis) and adversarial inputs.

Adversarial inputs are kept around 1 MB so the suite stays fast; the scaling
script `tests/bench/bench_links.py` shows the parse time is linear in size.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.links import RawLink, SlugResolver, extract_links, parse_links
from okf_explorer.core.links import grammar as link_grammar
from okf_explorer.core.links import resolution as link_resolution

TOKENS = [
    "[", "]", "[[", "]]", "![[", "(", ")", "](", "![", "!", "|", "\\|", "#", "#^", "\\",
    "`", "``", "```", "~~~", "\n", "\n\n", " ", "  ", "\t", "a", "B", "é", "note", "b.md",
    ".md", "/", "./", "../", "<", ">", '"', "'", ":", "%20", "%", "http:", "https://x/",
    "mailto:", "[r]: ", "[r]", "[]", "x.png", "^", "> ", "- ", "    ", "<!--", "-->", "%%",
    "$", "$$", "\\$", "$x$", "$ ", "5",
]  # fmt: skip

markdownish = st.lists(st.sampled_from(TOKENS), max_size=60).map("".join)
any_text = st.one_of(st.text(max_size=300), markdownish)


def _appears_in(target: str, text: str) -> bool:
    """The target is in the text as written, unescaped or percent-decoded."""
    plain = text.replace("\\", "")
    forms = (text, plain, unquote(text), unquote(plain))
    return any(target in form or target.replace("\\", "") in form for form in forms)


@settings(max_examples=250, deadline=None)
@given(any_text)
def test_parsing_never_raises_and_is_deduplicated(text: str) -> None:
    links = extract_links(text)
    targets = [link.target for link in links]
    assert len(targets) == len(set(targets))
    assert all(link.count >= 1 and link.kind in ("wiki", "embed", "markdown") for link in links)
    assert parse_links(text) == targets


@settings(max_examples=250, deadline=None)
@given(any_text)
def test_every_target_appears_in_the_input(text: str) -> None:
    for target in parse_links(text):
        assert target and target == target.strip()
        assert _appears_in(target, text), target


@settings(max_examples=300, deadline=None)
@given(markdownish.filter(lambda t: "`" not in t and "~~~" not in t))
def test_repeating_a_page_keeps_order_and_doubles_counts(text: str) -> None:
    # Fences are left out: an unclosed fence in the first copy may close in the second.
    once = extract_links(text)
    twice = extract_links(text + "\n\n" + text)
    assert [link.target for link in twice] == [link.target for link in once]
    assert twice == [RawLink(link.target, link.kind, 2 * link.count) for link in once]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.text(alphabet="abc/.# -_", max_size=30))
def test_fenced_code_hides_everything(prefix: str, inner: str) -> None:
    body = f"[[{inner}]] [x]({inner}.md)"
    fence = "~~~~~~~~~~" if "```" in prefix else "``````````"
    text = f"{fence}\n{body}\n{fence}\n"
    assert parse_links(text) == []
    if "[" not in prefix and "`" not in prefix and "~" not in prefix:
        assert parse_links(prefix.replace("\n", " ") + "\n" + text) == []


segment = st.text(alphabet="abcAB-_ .é", min_size=1, max_size=6)
slug = st.lists(segment, min_size=1, max_size=3).map("/".join)
target = st.one_of(
    st.text(max_size=30),
    st.lists(st.sampled_from(["a", "B", "/", "./", "../", ".md", " ", "é", "-", "index"])).map(
        "".join
    ),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(slug, max_size=20), target, st.sampled_from(["wiki", "embed", "markdown"]))
def test_resolution_names_a_slug_or_a_dangling_node(slugs: list[str], target: str, kind) -> None:
    resolver = SlugResolver(slugs)
    for from_slug in slugs[:3] or ["x"]:
        result = resolver.resolve(target, from_slug, kind)
        if result.exists:
            assert result.node in slugs
        else:
            assert not result.node.startswith("/")
        assert result.ambiguous is False or result.rule in ("basename", "slugified")


MB = 1_000_000


END = " [[end]] [e](e.md)\n\n[[end2]]"
ADVERSARIAL = {
    "brackets": "[" * MB,
    "double-brackets": "[[" * (MB // 2),
    "unclosed-wiki": "[[" + "a" * MB,
    "unclosed-dest": "[a](" * (MB // 4),
    "unclosed-alias": "[[a|" * (MB // 4),
    "nested": "[" + "[a]" * (MB // 3),
    "nested-spaced": "[ [a] " * (MB // 6),
    "unclosed-title": '[x](a.md "' * (MB // 10),
    "escapes": "\\[" * (MB // 2),
    "closed-fences": "```\n[[a]]\n```\n" * (MB // 14),
    "fake-fences": "```x`\n" * (MB // 6),
    "backtick-runs": "[x] " + "".join("`" * (i % 97 + 1) + " [y] " for i in range(20_000)),
    "long-line": "x" * MB,
}


@pytest.mark.parametrize("text", list(ADVERSARIAL.values()), ids=list(ADVERSARIAL))
def test_adversarial_inputs_finish_and_links_after_them_are_found(text: str) -> None:
    assert extract_links(text) == []
    assert parse_links(text + "\n\n" + END)[-3:] == ["end", "e.md", "end2"]


def test_many_code_spans_and_a_huge_one() -> None:
    text = "`x` [[a]] " * (MB // 10) + "[" + "`" * 100_000 + "] [[b]]"
    assert extract_links(text) == [RawLink("a", "wiki", MB // 10), RawLink("b", "wiki")]


def test_unclosed_fence_hides_the_rest() -> None:
    assert parse_links("[[before]]\n```\n" + "[[in]] " * (MB // 7)) == ["before"]


def test_many_reference_uses() -> None:
    text = "[r]: a.md\n[r]\n" * (MB // 14)
    assert extract_links(text) == [RawLink("a.md", "markdown", MB // 14)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="\\[]!()#<>|ab", max_size=40))
def test_escape_hiding_matches_a_left_to_right_scan(text: str) -> None:
    scan = re.sub(r"\\([\\\[\]!()#<>])", lambda m: link_grammar._PLACEHOLDER[m.group(1)], text)
    assert link_grammar._hide_escapes(text) == scan


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.text(alphabet="aB -_/.éÉ", min_size=1, max_size=8), max_size=12),
    st.lists(st.text(alphabet="aB -_/.éÉ#|", max_size=8), max_size=6),
)
def test_lazily_built_tables_answer_as_if_built_up_front(
    slugs: list[str], targets: list[str]
) -> None:
    """A shared resolver (tables built by earlier misses) answers each target exactly as a
    fresh one does: the order in which lazy tables get built never matters."""
    titles = {slug: slug.upper() for slug in slugs[::2]}
    shared = SlugResolver(slugs, titles)
    for target in targets:
        for kind in ("wiki", "markdown"):
            fresh = SlugResolver(slugs, titles).resolve(target, "x/y", kind)
            assert shared.resolve(target, "x/y", kind) == fresh


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=30))
def test_ascii_slugify_matches_the_unicode_path(text: str) -> None:
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    expected = re.sub(r"-{2,}", "-", re.sub(r"[^\w.\-]", "", re.sub(r"\s+", "-", plain)))
    assert link_resolution.slugify_segment(text) == expected.strip("-")


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(alphabet=st.characters(max_codepoint=127), max_size=30),
        st.text(alphabet="aZ09_-/ .!", max_size=20),
    )
)
def test_slugify_shortcuts_answer_as_its_segments(text: str) -> None:
    """`slugify`'s shortcuts for names already in slug form (lower or any case) give what
    slugifying each segment gives."""
    segments = (link_resolution.slugify_segment(s) for s in text.split("/"))
    assert link_resolution.slugify(text) == "/".join(s for s in segments if s)


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_wiki_link_spans_find_exactly_the_parsers_wiki_links(text: str) -> None:
    """The TUI's clickable wiki-links are the parser's: same targets, from spans of the
    text itself (so a link inside code or behind an escape is never made clickable)."""
    from okf_explorer.core.links.spans import wiki_link_spans

    spans = wiki_link_spans(text)
    for span in spans:
        written = text[span.start : span.end]
        assert written.startswith("![[" if span.kind == "embed" else "[[")
        assert written.endswith("]]") and span.inner in written
    found = {span.target for span in spans if span.target is not None}
    links = extract_links(text)
    assert {link.target for link in links if link.kind != "markdown"} <= found
    assert found <= {link.target for link in links}


def test_reference_definitions_travel_with_the_wiki_target_they_name() -> None:
    text = "Run [[lint]] and [[Other]] then [[LINT|again]].\n\n[lint]: cli/lint.md\n"
    assert extract_links(text) == [
        RawLink("lint", "wiki", 1, "cli/lint.md"),
        RawLink("Other", "wiki", 1, None),
        RawLink("LINT", "wiki", 1, "cli/lint.md"),
    ]
    assert extract_links("[[lint]] only\n")[0].refdef is None


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_link_spans_find_the_parsers_targets_reference_links_included(text: str) -> None:
    """Every page target the parser finds (reference-style links and Foam's defined
    `[[x]]` included) is a span's target or the definition a wiki span carries, so
    a backlink's sentence is found for it."""
    from okf_explorer.core.links.spans import link_spans

    spans = link_spans(text)
    found = {span.target for span in spans} | {span.refdef for span in spans}
    assert {link.target for link in extract_links(text)} <= found
