"""Where the wiki-links of a text are: the grammar's answer with positions.

The TUI rewrites wiki-links into clickable links; it must find exactly the
links the parser finds (not inside code, not escaped), so it asks here instead
of keeping its own patterns. The text is masked without changing its length
(code → `\\x00`, an escaped character → a marker and its placeholder), then
scanned with the parser's own pattern, so every match is a span of the
original text. Reference definition lines are masked too, as the parser drops them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from okf_explorer.core.link_grammar import (
    _DEFINITION,
    _LINK,
    _PLACEHOLDER,
    LinkKind,
    _markdown_target,
    _normalise_label,
    _wiki_target,
)
from okf_explorer.core.link_masking import CODE_MARK, code_span_ranges, prose_ranges

_ESCAPE = re.compile(r"\\([\\\[\]!()#<>])")
_ESCAPED = "\x03"
"""Stands for the backslash of an escape in the masked text (same length)."""


@dataclass(frozen=True, slots=True)
class WikiSpan:
    """One wiki-link or embed of a text.

    `start`/`end` cover the whole link as written (the `!` of an embed
    included); `inner` is the text between `[[` and `]]`; `target` is what the
    parser reports for it, or None when it names no page (a same-page heading,
    an attachment).
    """

    start: int
    end: int
    inner: str
    target: str | None
    kind: LinkKind


def _mask(segment: str) -> str:
    pieces: list[str] = []
    pos = 0
    for start, end in code_span_ranges(segment):
        pieces.append(segment[pos:start])
        pieces.append(CODE_MARK * (end - start))
        pos = end
    pieces.append(segment[pos:])
    masked = "".join(pieces)
    if "\\" in masked:
        masked = _ESCAPE.sub(lambda m: _ESCAPED + _PLACEHOLDER[m.group(1)], masked)
    if "]:" in masked:  # reference definitions are no links (`[x]: [[y]]` neither)
        lined = "\n" + masked
        pieces, pos = [], 0
        for match in _DEFINITION.finditer(lined):
            label = _normalise_label(match.group(1))
            if label and label[0] != "^":
                start, end = match.start(), match.end() - 1  # in `masked`, after its newline
                pieces += [masked[pos:start], CODE_MARK * (end - start)]
                pos = end
        masked = "".join(pieces) + masked[pos:]
    return masked


def wiki_link_spans(text: str) -> list[WikiSpan]:
    """Every wiki-link and embed of `text` outside code, in order."""
    if "[[" not in text:
        return []
    return _spans(text, markdown=False)


def link_spans(text: str) -> list[WikiSpan]:
    """Every wiki-link, embed and inline Markdown link (`[text](dest)`) of `text`
    outside code, in order; for a Markdown link `inner` is its text. Reference-style
    links (`[text][ref]`) are not included."""
    if "[" not in text:
        return []
    return _spans(text, markdown=True)


def _spans(text: str, *, markdown: bool) -> list[WikiSpan]:
    opening = "[" if markdown else "[["
    spans: list[WikiSpan] = []
    for begin, finish in prose_ranges(text):
        segment = text[begin:finish]
        if opening not in segment:
            continue
        masked = _mask(segment)
        for match in _LINK.finditer(masked):
            start, end = match.span()
            if match.group("wiki") is not None:
                embed = start > 0 and masked[start - 1] == "!"
                inner = segment[match.start("wiki") : match.end("wiki")]
                target = _wiki_target(match.group("wiki").replace(_ESCAPED, ""), True)
                kind: LinkKind = "embed" if embed else "wiki"
            elif markdown and match.group("dest") is not None:
                embed = False
                inner = segment[match.start("text") : match.end("text")]
                target = _markdown_target(match.group("dest").replace(_ESCAPED, ""), True)
                kind = "markdown"
            else:
                continue
            spans.append(WikiSpan(begin + start - embed, begin + end, inner, target, kind))
    return spans
