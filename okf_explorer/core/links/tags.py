"""Logseq's tags: `#garden` and `#[[garden tools]]` are links, as `[[garden]]` is.

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

import re

from okf_explorer.core.links.grammar import outside_code

__all__ = ["tags_as_links", "tags_as_written"]

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
