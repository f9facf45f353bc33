"""A note's `#tags` are among its tags in a vault, as Obsidian reads them.

Seen on public vaults (the Tasks plugin's demo vault tags every task `#task`; the Obsidian
Hub marks 3,393 notes `#placeholder/author` for its maintainers): `list --tag`, `search
tag:` and a base's `hasTag` found none of them, because only the `tags` property counted.
The grammar follows Obsidian's help ("Tag format") and what Obsidian's own metadata cache
lists, as the Tasks plugin captured it for its tests (the cases below are ours, written
to the same rules). An OKF bundle's tags stay its frontmatter's.
"""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.brain import Brain
from okf_explorer.core.links.grammar import (
    HTML_COMMENT,
    code_span_ranges,
    comment_ranges,
    mask_math,
    mask_ranges,
    prose_ranges,
)
from okf_explorer.core.links.tags import MAX_INLINE_TAGS, inline_tags
from okf_explorer.core.pages import has_tag
from okf_explorer.core.search.query import SearchSyntaxError, parse_query
from okf_explorer.sources.folder.bundle import BundleSource

OKF_INDEX = '---\nokf_version: "0.2"\n---\n# Index\n'


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("#garden at the start, and #seeds after a space", ("garden", "seeds")),
        (
            "nested #inbox/to-read and #kebab-case, #snake_case",
            ("inbox/to-read", "kebab-case", "snake_case"),
        ),
        (
            "ends at punctuation: #done. #next, #ask? #quote' (#after-a-bracket is none)",
            ("done", "next", "ask", "quote"),
        ),
        ("unicode #über and #日本語 and an emoji #idea💡", ("über", "日本語", "idea💡")),
        ("#Task then #task then #TASK", ("Task",)),
        ("digits alone are no tag: #1984 #12.5, but #y1984 is", ("y1984",)),
        ("# Heading\n## Sub #heading-tag\n", ("heading-tag",)),
        ("inside a word or a link: C# a#b [[page#part]] [x](#anchor) <http://x/#y>", ()),
        ("escaped: \\#not, but after an escaped mark \\[#yes and \\|#also", ("yes", "also")),
        ("code: `#no` and\n```\n#fenced\n```\n#after", ("after",)),
        ("math: $#x$ and $$\n#y\n$$\n", ()),
        ('HTML: <td style="color: #ffffff"> #cell</td>', ("cell",)),
        ("<!-- #hidden --> stays out; %% #kept %% counts", ("kept",)),
        ("%%\n- [ ] #todo in a comment block\n%%\n", ("todo",)),
        ("no tags here, a heading only:\n# Title\n", ()),
    ],
)
def test_a_tag_is_read_as_obsidian_reads_it(text: str, tags: tuple[str, ...]) -> None:
    assert inline_tags(text) == tags


def test_a_page_of_countless_tags_is_bounded() -> None:
    text = " ".join(f"#t{n}" for n in range(20 * MAX_INLINE_TAGS))
    tags = inline_tags(text)
    assert len(tags) == MAX_INLINE_TAGS
    assert tags[:2] == ("t0", "t1")


def test_has_tag_ignores_case_and_the_hash_and_holds_nested_tags() -> None:
    tags = ("Inbox/To-Read", "garden")
    assert has_tag(tags, "inbox")
    assert has_tag(tags, "#INBOX/to-read")
    assert has_tag(tags, "Garden")
    assert not has_tag(tags, "inbox/to")
    assert not has_tag(tags, "gard")
    assert not has_tag((), "garden")


def vault(root: Path) -> Path:
    (root / "seeds.md").write_text(
        "---\ntags: [garden]\n---\n# Seeds\nSow in spring #Garden #inbox/to-read\n"
    )
    (root / "beds.md").write_text("# Beds\nRaised beds. #todo\n\n```\n#not-a-tag\n```\n")
    (root / "plain.md").write_text("# Plain\nNo tag: `#code`, C# and [[seeds#Sow]].\n")
    return root


def test_a_vault_page_has_its_body_tags_after_its_property_tags(tmp_path: Path) -> None:
    source = BundleSource(vault(tmp_path))
    brain = Brain(source, cache_dir=False)
    pages = brain.ensure_index().pages
    assert pages["seeds"].tags == ("garden", "inbox/to-read")
    assert pages["beds"].tags == ("todo",)
    assert pages["plain"].tags == ()
    for slug, info in pages.items():  # the page read alone says what the index says
        assert source.get_page(slug).tags == info.tags


def test_the_tag_filters_find_body_tags_and_nested_ones(tmp_path: Path) -> None:
    brain = Brain(BundleSource(vault(tmp_path)), cache_dir=tmp_path / "cache")
    assert [info.slug for info in brain.pages(tag="inbox")] == ["seeds"]
    assert [info.slug for info in brain.pages(tag="TODO")] == ["beds"]
    found = brain.text_search().search(parse_query("raised OR sow tag:inbox"), 10)
    assert [hit.slug for hit in found] == ["seeds"]
    found = brain.text_search().search(parse_query("raised OR sow tag:#todo"), 10)
    assert [hit.slug for hit in found] == ["beds"]


def test_an_okf_bundle_keeps_its_frontmatter_tags(tmp_path: Path) -> None:
    (tmp_path / "index.md").write_text(OKF_INDEX)
    (tmp_path / "c.md").write_text("---\ntype: concept\ntags: [x]\n---\n# C\nIssue #y is open.\n")
    source = BundleSource(tmp_path)
    assert Brain(source, cache_dir=False).ensure_index().pages["c"].tags == ("x",)
    assert source.get_page("c").tags == ("x",)


def test_a_bundle_kept_in_obsidian_reads_its_body_tags(tmp_path: Path) -> None:
    """As its line breaks do (`test_line_breaks`): its owner reads it in Obsidian."""
    (tmp_path / "index.md").write_text(OKF_INDEX)
    (tmp_path / "c.md").write_text("---\ntype: concept\ntags: [x]\n---\n# C\nOpen #y\n")
    (tmp_path / ".obsidian").mkdir()
    assert BundleSource(tmp_path).get_page("c").tags == ("x", "y")


def run_cli(*argv: str) -> tuple[int, str, str]:
    from okf_explorer.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_a_tag_alone_lists_its_pages_the_most_linked_first(tmp_path: Path) -> None:
    """As a click on a tag in Obsidian lists its notes: `search tag:x` was refused ("needs
    at least one word")."""
    root = tmp_path / "v"
    root.mkdir()
    vault(root)
    (root / "hub.md").write_text("---\ndescription: The hub.\n---\n[[beds]] #todo\n")
    (root / "more.md").write_text("[[beds]] and [[hub]] #todo/later\n")
    status, out, err = run_cli("search", "tag:todo", "--source", str(root))
    assert (status, err) == (0, "")
    assert out.splitlines() == ["beds\t", "hub\tThe hub.", "more\t"]
    status, out, _ = run_cli("search", "tag:#TODO/later", "--source", str(root))
    assert out.splitlines() == ["more\t"]
    brain = Brain(BundleSource(root), cache_dir=False)
    listed = brain.text_search().search(parse_query("path:h tag:todo"))
    assert [(hit.slug, hit.score) for hit in listed] == [("hub", 1.0)]
    assert brain.text_search().search(parse_query("tag:nothing")) == []
    with pytest.raises(SearchSyntaxError, match="needs a word, or a type:, tag: or path: filter"):
        parse_query("  ")


def every_span_masked(text: str) -> tuple[str, ...]:
    """`inline_tags` as first written: every code span of a segment masked, not only
    those of the paragraphs that may hold a tag (the reference of the test below)."""
    found: dict[str, str] = {}
    for start, end in prose_ranges(text):
        segment = text[start:end]
        segment = mask_ranges(segment, code_span_ranges(segment))
        if "<!--" in segment:
            segment = mask_ranges(segment, comment_ranges(segment, HTML_COMMENT))
        segment = mask_ranges(
            segment, [m.span() for m in re.finditer(r"</?[A-Za-z][^<>\n]*>", segment)]
        )
        segment = mask_math(segment)
        for match in re.finditer(
            r"#([^\x00-\x20\s!-,.:-@\[-^`{-~\u00a1\u00a7\u00ab\u00b6\u00b7\u00bb"
            r"\u00bf\u2000-\u200b\u2010-\u205e\u3000-\u303f\uff01-\uff0f"
            r"\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+)",
            segment,
        ):
            at = match.start()
            starts = (
                at == 0
                or segment[at - 1].isspace()
                or (
                    at >= 2
                    and segment[at - 2] == "\\"
                    and not segment[at - 1].isalnum()
                    and segment[at - 1] != "_"
                )
            )
            if starts and not match[1].isdigit():
                found.setdefault(match[1].lower(), match[1])
    return tuple(found.values())[:MAX_INLINE_TAGS]


PIECES = st.sampled_from(
    ["#a", "#B", "#1", "#c/d", "x", " ", "\n", "\n\n", "`", "``", "```\n", "<!--", "-->",
     "$", "$$", "%%", "<b>", "</b>", "\\", "[", "(", "é", "#", "##", "-", "> "]
)  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join))
def test_masking_only_the_paragraphs_that_may_hold_a_tag_reads_the_same_tags(text: str) -> None:
    assert inline_tags(text) == every_span_masked(text)
