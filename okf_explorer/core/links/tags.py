"""`#tags` in a page's text: in Obsidian a page's tags, in Logseq links.

**Obsidian** (`inline_tags`). A `#tag` in a note's body is one of the note's tags, as its
`tags` property's are: Obsidian's search (`tag:`), its Tags view and its bases read both
(`getAllTags`). Read as Obsidian's help describes a tag ("Tag format") and as its own
metadata cache reads one, captured in the Tasks plugin's test data
(`tests/Obsidian/__test_data__`, obsidian-tasks `cc0fce3`):

- a `#` at the start of a line, after a space or after an escaped mark (`\\[#tag`, `\\|#tag`:
  the escape is a mark of its own), then letters, numbers, `_`, `-`, `/`
  (nested tags) or other symbols (emoji), up to a space or a punctuation mark; at least
  one character that is not a digit (`#1984` is no tag, `#y1984` is);
- tags are case-insensitive: each is kept once, spelt as first written;
- not a tag: a heading's `#` (`# Title`), a `#` inside a word or a URL (`C#`,
  `page#section`, `[[page#heading]]`), an escaped `\\#`, anything in fenced code, an inline
  code span, dollar math, an HTML comment or an HTML tag's attributes (`<td
  style="color: #fff">`);
- a tag inside an Obsidian comment (`%% #todo %%`) counts, as a link there does
  (Obsidian's metadata cache lists it; `core.links.grammar.OBSIDIAN_COMMENT`).

**Logseq** (`tags_as_links`): `#garden` and `#[[garden tools]]` are links, as `[[garden]]` is.

In Obsidian a `#tag` is a tag and never a link. In a Logseq graph it is a page
reference like any other (Logseq's docs: a tag is a page, and a page tagged `#garden`
is among `garden`'s linked references). `tags_as_links` writes each as the wiki link it
is, `[[garden|#garden]]`, so every reader of a Logseq page's links (the index's grammar,
the sentence around a link, the explorer's drawing) reads one link to `garden` that
shows `#garden`.

A tag is a `#` at the start of a line or after a space, then either `[[a name]]` or
a run of characters up to a space or one of `,!?;:"'()[]{}` (a `.` ending it is the
sentence's, and `*`, `_`, `~`, `=`, `^` ending it close an emphasis around it). Not a
tag: a heading (`# Title`, `## Steps`: `#` then a space or another `#`), an org-mode
line (`#+BEGIN_NOTE`), a `#` inside a word or a URL (`a#b`, `page#section`), anything in
fenced code or an inline code span. In a table row the link's `|` is written `\\|`, as
Obsidian writes a link with its text in a table.

A `tags::` property names pages too: `tags:: kit, [[garden tools]], #seeds` links to
`kit`, `garden tools` and `seeds` (each plain value is written `[[kit]]`).
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_right
from collections.abc import Iterator

from okf_explorer.core.links.grammar import (
    BLANK_LINE,
    HTML_COMMENT,
    code_span_ranges,
    comment_ranges,
    mask_math,
    mask_ranges,
    outside_code,
    prose_ranges,
)

__all__ = ["MAX_INLINE_TAGS", "inline_tags", "tag_at", "tags_as_links", "tags_as_written"]

MAX_INLINE_TAGS = 500
"""Distinct tags read from one page's body (a page written to hold 100k of them would
carry them into every listing, the cache and the page's header); the first ones are kept."""

_NOT_IN_A_TAG = (
    r"\x00-\x20!-,.:-@\[-^`{-~"  # controls (masked code), ASCII punctuation but `_-/`
    r"\s"
    "\u00a1\u00a7\u00ab\u00b6\u00b7\u00bb\u00bf"  # Latin-1 punctuation
    "\u2000-\u200b\u2010-\u205e"  # spaces, dashes, quotes, ellipses (not the joiner)
    "\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"  # CJK's
)
_OBSIDIAN_TAG = re.compile(rf"#([^{_NOT_IN_A_TAG}]+)")
"""An Obsidian tag's `#` and characters, up to a space or a punctuation mark (a heading's
`# ` is none); what comes before it is looked at apart (`_starts_tag`: a literal first,
so the engine skips to each `#` at once)."""
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>\n]*>")
"""An HTML tag as written (its attributes are no text: `style="color: #fff"`)."""


def inline_tags(text: str) -> tuple[str, ...]:
    """The Obsidian tags written in `text`, a page's body (see the module doc): without
    their `#`, each once (case-insensitively) as first written, in order; at most
    `MAX_INLINE_TAGS`."""
    if not _may_hold_a_tag(text):
        return ()
    found: dict[str, str] = {}
    for start, end in prose_ranges(text):
        segment = text[start:end]
        if not _may_hold_a_tag(segment):
            continue
        segment = _code_masked(segment)
        if HTML_COMMENT[0] in segment:
            segment = mask_ranges(segment, comment_ranges(segment, HTML_COMMENT))
        if "<" in segment:
            segment = mask_ranges(segment, [m.span() for m in _HTML_TAG.finditer(segment)])
        if "$" in segment:
            segment = mask_math(segment)
        for match in _OBSIDIAN_TAG.finditer(segment):
            tag = match[1]
            if _starts_tag(segment, match.start()) and not tag.isdigit():
                found.setdefault(tag.lower(), tag)
                if len(found) == MAX_INLINE_TAGS:
                    return tuple(found.values())
    return tuple(found.values())


def tag_at(text: str, at: int, end: int | None = None) -> str | None:
    """The tag written at `at` of `text` (its `#` there; read no further than `end`), by the
    rule of `inline_tags`, or None: how the page draws a tag (`tui.markdown.parser`), so it
    draws as a tag exactly what the page's tags count (code and comments are the parser's)."""
    found = _OBSIDIAN_TAG.match(text, at, len(text) if end is None else end)
    if found is None or found[1].isdigit() or not _starts_tag(text, at):
        return None
    return found[1]


def _code_masked(segment: str) -> str:
    """`segment` (outside fences) with the inline code spans masked (`mask_ranges`) of its
    paragraphs that may hold a tag, or a comment's or math's mark (`<!--`, `-->`, `$`). A
    code span never crosses a blank line, and one in another paragraph can neither hide
    nor show a mark that opens or closes a comment or math reaching a tag (a span holding
    `-->` keeps a comment open into the paragraphs after), so the other paragraphs' spans
    are not looked for: on a note full of code, finding every span cost more than all the
    rest (`tests/test_inline_tags.py` holds the result to masking every span)."""
    if "`" not in segment:
        return segment
    blanks = [found.start() for found in BLANK_LINE.finditer(segment)]
    ranges: list[tuple[int, int]] = []
    done = -1
    marks = (found.start() for found in _REACHING_MARK.finditer(segment))
    for at in heapq.merge(_places(segment), marks):
        if at < done:
            continue
        number = bisect_right(blanks, at)
        start = blanks[number - 1] if number else 0
        done = blanks[number] if number < len(blanks) else len(segment)
        if "`" in segment[start:done]:
            ranges += [(start + a, start + b) for a, b in code_span_ranges(segment[start:done])]
    return mask_ranges(segment, ranges)


_REACHING_MARK = re.compile(r"<!--|-->|\$")
"""A mark a code span may hide or show, opening or closing a comment or math that may reach
a tag in another paragraph (`_code_masked`)."""


def _may_hold_a_tag(text: str) -> bool:
    return next(_places(text), None) is not None


def _places(text: str) -> Iterator[int]:
    """Where a tag is written in `text` as it stands (code and comments not yet read):
    each `#` opening a run of tag characters, not all digits (an issue's `#123` is none)."""
    for found in _OBSIDIAN_TAG.finditer(text):
        if _starts_tag(text, found.start()) and not found[1].isdigit():
            yield found.start()


def _starts_tag(text: str, at: int) -> bool:
    """Whether a `#` at `at` may open a tag: at a line's start, after a space or after an
    escaped mark (`\\[`)."""
    if at == 0 or text[at - 1].isspace():
        return True
    before = text[at - 1]
    return at >= 2 and text[at - 2] == "\\" and not before.isalnum() and before != "_"


_TAG = re.compile(
    r"(?:(?<=\s)|^)#(?:\[\[(?P<named>[^\[\]\n]+)\]\]"
    r"|(?P<word>[^\s,!?;:\"'()\[\]{}#+`|][^\s,!?;:\"'()\[\]{}#`|]*))",
    re.M,
)
_ENDS = ".*_~=^"
"""Ending a word tag, the sentence's (`#garden.`) or an emphasis closing around it
(`**Removal of #tags**`, which Logseq reads as bold text holding the tag `tags`): not the
tag's. Seen on Logseq's docs graph, where `tags**` dangled."""
_TABLE_ROW = re.compile(r"[ \t]*\|")
_TAGS_PROPERTY = re.compile(r"^([ \t]*(?:[-*+][ \t]+)?tags::[ \t]*)(\S.*)$", re.M | re.I)
_VALUE_PART = re.compile(r"(?:\[\[[^\]\n]*\]\]|[^,\n])+")
_WRITTEN = re.compile(r"\[\[([^\[\]|\n]+?)\\?\|#\1\]\]")


def tags_as_links(text: str) -> str:
    """`text` with each Logseq tag written as the link it is (see the module doc)."""
    if "#" not in text and "::" not in text:
        return text
    return outside_code(text, _prose)


def tags_as_written(text: str) -> str:
    """`tags_as_links` undone: each `[[garden|#garden]]` it wrote back as `#garden` (a
    name with a space as `#[[garden tools]]`), for text shown as the page writes it (a
    link's context in `serve`'s rows)."""
    if "|#" not in text:
        return text
    return _WRITTEN.sub(
        lambda found: f"#[[{found[1]}]]" if any(c.isspace() for c in found[1]) else f"#{found[1]}",
        text,
    )


def _prose(segment: str) -> str:
    """A stretch outside code: its `tags::` lines' values and its tags as links."""
    if "::" in segment:
        segment = _TAGS_PROPERTY.sub(_tags_property, segment)
    return _TAG.sub(_link, segment) if "#" in segment else segment


def _tags_property(found: re.Match[str]) -> str:
    """A `tags::` line, each plain value written as a link (`[[x]]` and `#x` kept)."""
    values = (part.strip() for part in _VALUE_PART.findall(found[2]))
    kept = [v if v.startswith(("[[", "#")) or "`" in v else f"[[{v}]]" for v in values if v]
    return found[1] + ", ".join(kept)


def _link(found: re.Match[str]) -> str:
    name = found["named"]
    if name is None:
        name = found["word"].rstrip(_ENDS)
        if not name:
            return found[0]
        rest = found["word"][len(name) :]
    else:
        name, rest = name.strip(), ""
    line_start = found.string.rfind("\n", 0, found.start()) + 1
    bar = "\\|" if _TABLE_ROW.match(found.string, line_start) else "|"
    return f"[[{name}{bar}#{name}]]{rest}"
