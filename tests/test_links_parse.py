"""The link grammar, one case per SPEC §3 bullet (positives and negatives)."""

from __future__ import annotations

import pytest

from okf_explorer.core.links import RawLink, extract_links, parse_links


def test_spec_example() -> None:
    text = (
        "see [[project_x|the X project]] and [[ref_y#section]] and ![[embed_z]] "
        "and [docs](guide.md)"
    )
    assert parse_links(text) == ["project_x", "ref_y", "embed_z", "guide.md"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[[target]]", ["target"]),
        ("[[target|alias]]", ["target"]),
        ("| a | [[target\\|alias]] |", ["target"]),
        ("[[target#heading]]", ["target"]),
        ("[[target#^block1]]", ["target"]),
        ("[[target#heading|alias]]", ["target"]),
        ("[[  spaced target  |alias]]", ["spaced target"]),
        ("[[folder/deep note]]", ["folder/deep note"]),
        ("[[note.md]]", ["note.md"]),
        ("![[target]]", ["target"]),
        ("[[x]](y.md)", ["x"]),
    ],
)
def test_wiki_links(text: str, expected: list[str]) -> None:
    assert parse_links(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "[[#heading]]",
        "[[#^block]]",
        "[[|alias]]",
        "[[]]",
        "[[ ]]",
        "[[a\nb]]",
        "\\[[x]]",
        "\\[\\[x\\]\\]",
    ],
)
def test_wiki_non_links(text: str) -> None:
    assert parse_links(text) == []


SPEC_ATTACHMENTS = [
    "png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "avif", "pdf",
    "mp3", "mp4", "m4a", "wav", "ogg", "webm", "mov", "canvas", "base",
]  # fmt: skip


@pytest.mark.parametrize("ext", SPEC_ATTACHMENTS)
def test_attachments_are_not_pages(ext: str) -> None:
    text = f"![[pic.{ext}]] [[files/Report.{ext.upper()}|r]] [[page]]"
    assert parse_links(text) == ["page"]


def test_dotted_name_that_is_no_attachment_is_a_link() -> None:
    assert parse_links("[[v1.2 release]] [[notes.txt]]") == ["v1.2 release", "notes.txt"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[text](path.md)", ["path.md"]),
        ("[text](path.md#anchor)", ["path.md"]),
        ("![alt](path.md)", ["path.md"]),
        ("[text](<path with spaces.md>)", ["path with spaces.md"]),
        ("[text](<path with spaces.md#a> 'title')", ["path with spaces.md"]),
        ("[text](/tables/orders.md)", ["/tables/orders.md"]),
        ("[text](./other.md)", ["./other.md"]),
        ("[text](../x.md)", ["../x.md"]),
        ("[text](/tables/)", ["/tables/"]),
        ("[text](./)", ["./"]),
        ("[text](..)", [".."]),
        ("[text](My%20Note.md)", ["My Note.md"]),
        ("[text](caf%C3%A9.md)", ["café.md"]),
        ('[text](path.md "a title")', ["path.md"]),
        ("[text](path.md 'a title')", ["path.md"]),
        ("[text](path.md (a title))", ["path.md"]),
        ("[text](  path.md  )", ["path.md"]),
        ("[text](\n  path.md\n)", ["path.md"]),
        ("[text](UPPER.MD)", ["UPPER.MD"]),
        ("[text](path.md?plain=1)", ["path.md"]),
        ("[text](a\\(1\\).md)", ["a(1).md"]),
        ("[text](a(1).md)", ["a(1).md"]),
        ("[a [nested] text](n.md)", ["n.md"]),
        ("[`code` text](c.md)", ["c.md"]),
        ("[text](x.md)[text](y.md)", ["x.md", "y.md"]),
    ],
)
def test_markdown_links(text: str, expected: list[str]) -> None:
    assert parse_links(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "[site](https://example.com/page.md)",
        "[site](http://example.com/)",
        "[mail](mailto:someone@example.com)",
        "[app](obsidian://open?file=x.md)",
        "[custom](x-my-scheme:note.md)",
        "[net](//example.com/page.md)",
        "![pic](images/pic.png)",
        "[doc](files/report.pdf)",
        "[text](noextension)",
        "[anchor](#same-page)",
        "[empty]()",
        "[spaces](my note.md)",
        "\\[text](x.md)",
        "[text]\\(x.md)",
    ],
)
def test_markdown_non_links(text: str) -> None:
    assert parse_links(text) == []


def test_reference_links() -> None:
    text = (
        "Full [text][Ref One], collapsed [ref two][], shortcut [Ref Three].\n"
        "Unknown [x][nope] and [nope] stay text; [url][web] is no page.\n"
        "\n"
        "[ref one]: /tables/orders.md\n"
        "[REF TWO]: <guide with spaces.md> 'title'\n"
        "[ref   three]: ./third.md#part\n"
        "[web]: https://example.com/x.md\n"
        "[ref one]: ignored-second-definition.md\n"
    )
    assert parse_links(text) == ["/tables/orders.md", "guide with spaces.md", "./third.md"]


def test_reference_label_falls_back_to_shortcut_of_text() -> None:
    text = "[known][unknown]\n\n[known]: k.md\n"
    assert parse_links(text) == ["k.md"]


def test_reference_definition_alone_is_no_link() -> None:
    assert parse_links("[ref]: defined.md\n") == []


def test_shortcut_without_definition_is_text() -> None:
    assert parse_links("a [plain] bracket and [another one]") == []


@pytest.mark.parametrize(
    "text",
    [
        "```\n[[in fence]]\n```",
        "~~~\n[[in fence]]\n~~~",
        "```python\n[x](in.md)\n```",
        "````\n```\n[[still in]]\n```\n````",
        "~~~~\n~~~\n[[still in]]\n~~~~",
        "  ```\n[[indented fence]]\n  ```",
        "> ```\n> [[quoted fence]]\n> ```",
        "- ```\n  [[list fence]]\n  ```",
        "```\n[[unclosed fence runs to the end]]",
        "`[[inline]]`",
        "``[[double `tick` inline]]``",
        "`[x](in.md)`",
    ],
)
def test_code_hides_links(text: str) -> None:
    assert parse_links(text) == []


def test_code_around_links() -> None:
    text = (
        "before [[a]]\n```\n[[hidden]]\n```\nafter [[b]]\n"
        "~~~js\n[[hidden2]]\n~~~\n`[[c]]` [[d]] ``x`y`` [[e]]\n"
    )
    assert parse_links(text) == ["a", "b", "d", "e"]


def test_backtick_run_must_match_length() -> None:
    # `` opens, a single ` is no closer; the span ends at the next ``.
    assert parse_links("``a ` [[in]] `` [[out]]") == ["out"]


def test_unmatched_backtick_is_literal() -> None:
    assert parse_links("a stray ` tick [[link]]") == ["link"]


def test_code_span_does_not_cross_blank_line() -> None:
    assert parse_links("stray ` tick\n\n[[link]] and ` another") == ["link"]


def test_escaped_backtick_does_not_open_span() -> None:
    assert parse_links("\\`[[link]]`") == ["link"]


def test_fence_with_backtick_info_is_not_a_fence() -> None:
    assert parse_links("```x`\n[[link]]\n") == ["link"]


def test_shorter_closing_fence_does_not_close() -> None:
    assert parse_links("````\n```\n[[in]]\n````\n[[out]]") == ["out"]


def test_code_inside_link_target_breaks_it() -> None:
    assert parse_links("[[a`b`c]] [t](`x.md`)") == []


def test_escaped_embed_bang_makes_a_plain_wiki_link() -> None:
    assert extract_links("\\![[x]]") == [RawLink("x", "wiki", 1)]


def test_kinds_and_counts() -> None:
    text = (
        "![[pic note]] [[pic note|again]] [[a]] ![[a]] [m](m.md) ![img](m.md) [[m.md]]\n"
        "[[a#h]] [r][] [r]\n\n[r]: a.md\n"
    )
    assert extract_links(text) == [
        RawLink("pic note", "embed", 2),
        RawLink("a", "wiki", 3),
        RawLink("m.md", "markdown", 3),
        RawLink("a.md", "markdown", 2),
    ]


def test_dedupe_keeps_first_appearance_order() -> None:
    assert parse_links("[[b]] [[a]] [[b]] [x](c.md) [[a]]") == ["b", "a", "c.md"]


def test_targets_differing_in_anchor_or_alias_are_one() -> None:
    links = extract_links("[[t#one]] [[t#two|x]] [[t]]")
    assert links == [RawLink("t", "wiki", 3)]


def test_no_bracket_fast_path() -> None:
    assert extract_links("plain text, `code`, ```fence``` and no links") == []


def test_links_across_lines_and_unicode() -> None:
    text = "Première [[Café Über]]\nzweite [Ärger](ärger.md)\n"
    assert parse_links(text) == ["Café Über", "ärger.md"]


def test_windows_line_endings() -> None:
    text = "```\r\n[[hidden]]\r\n```\r\n[[shown]] [r]\r\n\r\n[r]: ref.md\r\n"
    assert parse_links(text) == ["shown", "ref.md"]


def test_link_text_does_not_span_a_blank_line() -> None:
    assert parse_links("[start of text\n\nnext paragraph](x.md)") == []
    assert parse_links("[two\nlines](x.md)") == ["x.md"]


def test_badge_image_inside_a_link() -> None:
    assert parse_links("[![build](badge.svg)](docs/ci.md) [![p](x.md)](y.md)") == [
        "docs/ci.md",
        "y.md",
    ]


def test_first_pipe_ends_the_target() -> None:
    assert parse_links("[[a|b|c]] [[d#e#f|g]]") == ["a", "d"]


def test_footnotes_are_not_reference_definitions() -> None:
    text = "Claim[^1] and [^note].\n\n[^1]: notes.md\n[^note]: See [[source]].\n"
    assert parse_links(text) == ["source"]


def test_task_list_boxes_are_not_links() -> None:
    assert parse_links("- [ ] todo [[a]]\n- [x] done [[b]]\n") == ["a", "b"]
