"""Where the wiki-links of a text are: the grammar's answer with positions.

The TUI rewrites wiki-links into clickable links; it must find exactly the
links the parser finds (not inside code, not escaped), so it asks here instead
of keeping its own patterns. The text is masked without changing its length
(code → `\\x00`, an escaped character → a marker and its placeholder), then
scanned with the parser's own pattern, so every match is a span of the
original text. Reference definition lines are masked too, as the parser drops them;
what they define is kept, so a reference-style link (`[text][ref]`, `[ref][]`, `[ref]`)
is a span with the definition's target, and a wiki-link whose name is a defined label
(Foam's `[[lint]]` with `[lint]: cli/lint.md`) carries that definition (`refdef`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from okf_explorer.core.links.grammar import (
    _DEFINITION,
    _LINK,
    _PLACEHOLDER,
    LinkKind,
    _markdown_target,
    _normalise_label,
    _wiki_target,
)
from okf_explorer.core.links.masking import CODE_MARK, code_span_ranges, prose_ranges

_ESCAPE = re.compile(r"\\([\\\[\]!()#<>])")
_ESCAPED = "\x03"
"""Stands for the backslash of an escape in the masked text (same length)."""


@dataclass(frozen=True, slots=True)
class WikiSpan:
    """One wiki-link or embed of a text.

    `start`/`end` cover the whole link as written (the `!` of an embed
    included); `inner` is the text between `[[` and `]]`; `target` is what the
    parser reports for it, or None when it names no page (a same-page heading,
    an attachment). `refdef` is the target of the page's reference definition
    whose label is a wiki-link's target, which the resolver tries first (SPEC §3
    rule 2); a reference-style link is a `markdown` span with its definition's
    target (and no `refdef`).
    """

    start: int
    end: int
    inner: str
    target: str | None
    kind: LinkKind
    refdef: str | None = None


Definitions = dict[str, str | None]
"""A page's reference definitions: normalised label → page target (None: no page)."""


def _mask(segment: str, definitions: Definitions) -> str:
    """`segment` masked (same length); its reference definitions added to `definitions`
    (the first of a label wins, as in CommonMark)."""
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
                if label not in definitions:
                    destination = match.group(2).replace(_ESCAPED, "")
                    definitions[label] = _markdown_target(destination, True)
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
    and reference-style link (`[text][ref]`, `[ref][]`, `[ref]` with a definition on
    the page) outside code, in order; for a Markdown link `inner` is its text."""
    if "[" not in text:
        return []
    return _spans(text, markdown=True)


def _spans(text: str, *, markdown: bool) -> list[WikiSpan]:
    opening = "[" if markdown else "[["
    definitions: Definitions = {}
    masked_segments = [
        (begin, text[begin:finish], _mask(text[begin:finish], definitions))
        for begin, finish in prose_ranges(text)
        if opening in text[begin:finish]
    ]
    spans: list[WikiSpan] = []
    for begin, segment, masked in masked_segments:
        pos = 0
        while (match := _LINK.search(masked, pos)) is not None:
            pos = match.end()
            start, end = match.span()
            refdef = None
            if match.group("wiki") is not None:
                embed = start > 0 and masked[start - 1] == "!"
                inner = segment[match.start("wiki") : match.end("wiki")]
                target = _wiki_target(match.group("wiki").replace(_ESCAPED, ""), True)
                kind: LinkKind = "embed" if embed else "wiki"
                if target is not None and definitions:
                    refdef = definitions.get(_normalise_label(target))
            elif not markdown:
                continue
            elif match.group("dest") is not None:
                embed = False
                inner = segment[match.start("text") : match.end("text")]
                target = _markdown_target(match.group("dest").replace(_ESCAPED, ""), True)
                kind = "markdown"
            elif definitions:
                defined, target, end, pos = _reference(match, definitions)
                if not defined:
                    continue
                embed, kind = False, "markdown"
                inner = segment[match.start("text") : match.end("text")]
            else:
                continue
            spans.append(WikiSpan(begin + start - embed, begin + end, inner, target, kind, refdef))
    return spans


def _reference(match: re.Match[str], definitions: Definitions) -> tuple[bool, str | None, int, int]:
    """`(defined, target, end, next scan position)` of the reference-style link `match`;
    `defined` is False when its label has no definition. As in the parser,
    `[ref][undefined]` is the shortcut `[ref]` alone, and `[undefined]` is scanned
    again on its own."""
    label, text = match.group("label"), match.group("text")
    if label is not None and (ref := _normalise_label(label)) in definitions:
        return True, definitions[ref], match.end(), match.end()
    key = _normalise_label(text)
    end = match.start("label") - 1 if label is not None and ref else match.end()
    return key in definitions, definitions.get(key), end, end
