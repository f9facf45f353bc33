"""Where the links of a text are, with positions, and the sentence around each.

The TUI rewrites wiki-links into clickable links; it must find exactly the
links the parser finds (not inside code, not escaped), so it asks here instead
of keeping its own patterns. The text is masked without changing its length
(code → `\\x00`, an escaped character → a marker and its placeholder), then
scanned with the parser's own pattern, so every match is a span of the
original text. Reference definition lines are masked too, as the parser drops them;
what they define is kept, so a reference-style link (`[text][ref]`, `[ref][]`, `[ref]`)
is a span with the definition's target, and a wiki-link whose name is a defined label
(Foam's `[[lint]]` with `[lint]: cli/lint.md`) carries that definition (`refdef`).

The sentence around a link is what a backlink shows of the page that links: the
sentence holding the link, found by these spans (so a link inside code or escaped is
never quoted), within its line (list markers, quote marks and heading hashes cut), at
most `CONTEXT_CHARS` characters around the link. `b` reads it as the page renders it
(links as their text, no emphasis marks, a table row as its cells); the server keeps
it as written, as gbrain's `context` (`first_link_context`); unlinked mentions use the
same sentence (`core.search.mentions`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from okf_explorer.core.links.grammar import (
    _DEFINITION,
    _LINK,
    _PLACEHOLDER,
    CODE_MARK,
    HTML_COMMENT,
    OBSIDIAN_COMMENT,
    LinkKind,
    _markdown_target,
    _normalise_label,
    _wiki_target,
    code_span_ranges,
    comment_ranges,
    mask_math,
    mask_ranges,
    prose_ranges,
)

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
    target (and no `refdef`). `comment`: the link is inside an Obsidian comment
    (`%% … %%`): hidden on the page, counted in the graph (a link inside an HTML
    comment is no link, so no span).
    """

    start: int
    end: int
    inner: str
    target: str | None
    kind: LinkKind
    refdef: str | None = None
    comment: bool = False


Definitions = dict[str, str | None]
"""A page's reference definitions: normalised label → page target (None: no page)."""


def _mask(segment: str, definitions: Definitions) -> str:
    """`segment` masked (same length); its reference definitions added to `definitions`
    (the first of a label wins, as in CommonMark). Code first, then math, then HTML
    comments."""
    masked = mask_math(_code_masked(segment))
    if HTML_COMMENT[0] in masked:  # links in HTML comments are no links
        masked = mask_ranges(masked, comment_ranges(masked, HTML_COMMENT))
    if "\\" in masked:
        masked = _ESCAPE.sub(lambda m: _ESCAPED + _PLACEHOLDER[m.group(1)], masked)
    if "]:" in masked:  # reference definitions are no links (`[x]: [[y]]` neither)
        lined = "\n" + masked
        pieces: list[str] = []
        pos = 0
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
        comments = comment_ranges(masked, OBSIDIAN_COMMENT) if "%%" in masked else []
        comment_starts = [low for low, _ in comments]
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
            at = bisect_right(comment_starts, start) - 1  # the last comment opened before
            commented = at >= 0 and start < comments[at][1]
            spans.append(
                WikiSpan(begin + start - embed, begin + end, inner, target, kind, refdef, commented)
            )
    return spans


def comment_spans(text: str) -> list[tuple[int, int, bool]]:
    """`(start, end, obsidian)` of each comment of `text` outside code, in order:
    HTML comments (`obsidian` False) and Obsidian `%%` comments (True), as the grammar
    reads them (`core.links.grammar.comment_ranges`)."""
    if HTML_COMMENT[0] not in text and OBSIDIAN_COMMENT[0] not in text:
        return []
    found: list[tuple[int, int, bool]] = []
    for begin, finish in prose_ranges(text):
        masked = _mask(text[begin:finish], {})
        html = comment_ranges(_code_masked(text[begin:finish]), HTML_COMMENT)
        found += [(begin + start, begin + end, False) for start, end in html]
        found += [(begin + a, begin + b, True) for a, b in comment_ranges(masked, OBSIDIAN_COMMENT)]
    return sorted(found)


def _code_masked(segment: str) -> str:
    pieces: list[str] = []
    pos = 0
    for start, end in code_span_ranges(segment):
        pieces += [segment[pos:start], CODE_MARK * (end - start)]
        pos = end
    pieces.append(segment[pos:])
    return "".join(pieces)


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


CONTEXT_CHARS = 240
"""Characters of context kept around a link (the link itself always whole)."""

_WINDOW = 4 * CONTEXT_CHARS
"""Characters of the page read on each side of a link at most (a 10 MB line stays cheap)."""
_LINE_LEAD = re.compile(r"[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+|>[ \t]*|#{1,6}[ \t]+)*")
_SENTENCE_END = re.compile(r"[.!?][)\"'’”]*(?=\s)|[。！？｡][)）」』\"'’”]*")
"""A sentence's end: `.`, `!` or `?` before a space; Chinese and Japanese `。`, `！`, `？`
(no space follows them); each with the quotes and brackets closing after it."""
_SPACE = re.compile(r"\s+")
_TABLE_ROW = re.compile(r"[ \t]*\|")
_CELL_BAR = re.compile(r"[ \t]*(?<!\\)\|[ \t]*")
_MARKS = re.compile(r"\*\*|~~|`+|(?<![\w\\])__|__(?!\w)")
"""Strong, strike and code marks, which a rendered sentence does not show (alone too:
the link may stand between the two marks)."""
_PAIRED = re.compile(r"(?<![\w*=\\])([*_]|==)(?=[^\s*_=])(.+?)(?<=[^\s\\])\1(?![\w*=])")
"""`*word*`, `_word_`, `==word==`: the text between the marks."""

LeadsHere = Callable[[str, LinkKind], bool]
"""`leads_here(target, kind)`: whether a link written so leads to the page wanted."""


@dataclass(frozen=True, slots=True)
class LinkContext:
    """One link and the sentence around it: `text[start:end]` is the link; `comment`:
    the link is inside an Obsidian comment (`%% … %%`), which the page does not show."""

    text: str
    start: int
    end: int
    comment: bool = False

    @property
    def link(self) -> str:
        return self.text[self.start : self.end]


def link_contexts(text: str, leads_here: LeadsHere) -> list[LinkContext]:
    """The context of every link of `text` that `leads_here`, in order; each link
    reads as its text (`[[a|the A]]` → `the A`) and emphasis marks are dropped
    (`plain_markup`), as the page renders it.

    Reference-style links count (`[text][ref]` leads where `[ref]: dest` does); a
    wiki-link whose name is a defined label (Foam's `[[lint]]` with `[lint]:
    cli/lint.md`) leads where the definition does when that leads here, else by
    its name (the resolver tries the definition first, SPEC §3 rule 2).

    Comments read as the page shows them: a link inside a `%%` comment has the sentence
    inside the comment, without its marks (and `comment` set); the comments around any
    other link are not read."""
    found = []
    spans = link_spans(text)
    comments = comment_spans(text)
    span_starts = [span.start for span in spans]
    comment_starts = [start for start, _, _ in comments]
    for span in spans:
        if not _leads(span, leads_here):
            continue
        # Only what a sentence can reach (`_WINDOW` each side) is looked at: a page of
        # thousands of links and comments stays linear.
        low, high = span.start - _WINDOW, span.end + _WINDOW
        first = max(0, bisect_right(comment_starts, low) - 1)
        near = comments[first : bisect_left(comment_starts, high)]
        inside = next((c for c in near if c[0] <= span.start < c[1]), None)
        within = None
        if inside is not None:
            within = (inside[0] + len(OBSIDIAN_COMMENT[0]), inside[1] - len(OBSIDIAN_COMMENT[1]))
        hidden = [(start, end) for start, end, _ in near if (start, end, True) != inside]
        around = spans[bisect_left(span_starts, low) : bisect_right(span_starts, high)]
        context = sentence_around(
            text, span.start, span.end, link_text(span), around, within=within, hidden=hidden
        )
        found.append(replace(context, comment=inside is not None) if inside else context)
    return found


def first_link_context(text: str, target: str, spans: Sequence[WikiSpan] | None = None) -> str:
    """The sentence around the first link of `text` whose target is written `target`
    (as the parser reports it: `RawLink.target`), the link as written and the
    whitespace collapsed; else around the first mention of `target` as plain text;
    else empty. What a gbrain server keeps as a link's `context`. `spans` are
    `link_spans(text)` when the caller has them (one page, many targets)."""
    for span in link_spans(text) if spans is None else spans:
        if span.target == target:
            return sentence_around(text, span.start, span.end).text
    position = text.find(target) if target.strip() else -1
    if position < 0:
        return ""
    return sentence_around(text, position, position + len(target)).text


def _leads(span: WikiSpan, leads_here: LeadsHere) -> bool:
    if span.target is None:
        return False
    if span.refdef is not None and leads_here(span.refdef, "markdown"):
        return True
    return leads_here(span.target, span.kind)


def told_context(text: str, root: str) -> LinkContext:
    """A context line someone else cut (gbrain's per-link `context`), its links read as
    their text; the link to `root` marked (else its first link, else none)."""
    line = _SPACE.sub(" ", text).strip()
    spans = link_spans(line)
    if not spans:
        return LinkContext(line, 0, 0)
    named = (s for s in spans if s.target and s.target.removesuffix(".md").endswith(root))
    chosen = next(named, spans[0])
    before = plain_markup(rendered(line, 0, chosen.start, spans))
    shown = plain_markup(link_text(chosen))
    after = plain_markup(rendered(line, chosen.end, len(line), spans))
    return LinkContext(before + shown + after, len(before), len(before) + len(shown))


def link_text(span: WikiSpan) -> str:
    """What a link reads as: its text (`[the A](a.md)`), else `wiki_text`."""
    return span.inner if span.kind == "markdown" else wiki_text(span.inner)


def wiki_text(inner: str) -> str:
    """What a wiki-link reads as, as Obsidian shows it: its alias (`[[a|the A]]`), else
    its target with the heading or block it points into after `>`
    (`[[templates#Metadata]]` → `templates > Metadata`, `[[#Usage]]` → `Usage`); a Dendron
    note reference's range as where it starts and ends (`[[cli#install,1:#*]]` →
    `cli > install`, `[[a#one:#two]]` → `a > one … two`)."""
    for bar in ("\\|", "|"):  # `\|`: the pipe escaped inside a table
        if bar in inner:
            return inner.split(bar, 1)[1]
    if "#" not in inner:
        return inner
    target, _, anchor = inner.partition("#")
    if ":#" in anchor:  # a Dendron note reference's range (no heading of a vault holds `:#`)
        start, _, end = anchor.partition(":#")
        text = " > ".join(part.strip() for part in (target, _LINE_OFFSET.sub("", start)) if part)
        return text if end.strip() in ("", "*", "^end") else f"{text} … {end.strip()}"
    return " > ".join(part.strip() for part in inner.split("#") if part.strip())


_LINE_OFFSET = re.compile(r",\d+$")
"""A Dendron range's offset after its start (`#summary,1:#*`: skip the heading). Read only in
a range: alone, `#Chapter 1,2` may be a heading's text."""


def sentence_around(
    text: str,
    start: int,
    end: int,
    shown: str | None = None,
    spans: Sequence[WikiSpan] = (),
    *,
    within: tuple[int, int] | None = None,
    hidden: Sequence[tuple[int, int]] = (),
) -> LinkContext:
    """The sentence of `text` holding `text[start:end]`, on one line, whitespace
    collapsed; the link reads as `shown` when given, the other links among `spans`
    as their text. The sentence stays `within` (a comment's inside) when given, and
    the `hidden` stretches of it (comments the page does not show) are left out."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if within is not None:
        line_start, line_end = max(line_start, within[0]), min(line_end, within[1])
    lead = _LINE_LEAD.match(text, line_start, start)
    begin = lead.end() if lead is not None else line_start
    for match in _SENTENCE_END.finditer(text, begin, start):
        begin = match.end()
    stop = _SENTENCE_END.search(text, end, line_end)
    finish = stop.end() if stop is not None else line_end
    far_before, far_after = start - begin > _WINDOW, finish - end > _WINDOW
    begin, finish = max(begin, start - _WINDOW), min(finish, end + _WINDOW)
    before = _SPACE.sub(" ", rendered(text, begin, start, spans, hidden)).lstrip()
    after = _SPACE.sub(" ", rendered(text, end, finish, spans, hidden)).rstrip()
    before, after = "…" * far_before + before, after + "…" * far_after
    if shown is not None:  # read as the page renders it
        before, after, shown = plain_markup(before), plain_markup(after), plain_markup(shown)
        if _TABLE_ROW.match(text, line_start) is not None:
            before, after = _cells(before, leading=True), _cells(after, leading=False)
    link = _SPACE.sub(" ", text[start:end] if shown is None else shown)
    room = max(0, CONTEXT_CHARS - len(link))
    after_room = max(room // 2, room - len(before))
    before_room = room - min(len(after), after_room)
    before, after = _cut(before, before_room, keep_end=True), _cut(after, after_room, False)
    return LinkContext(before + link + after, len(before), len(before) + len(link))


def _cells(part: str, *, leading: bool) -> str:
    """A piece of a table row as the table shows it: `| a | b |` → `a │ b`."""
    part = part.lstrip("| ") if leading else part.rstrip("| ")
    return _CELL_BAR.sub(" │ ", part)


def plain_markup(text: str) -> str:
    """`text` without its inline Markdown marks (`**b**`, `_i_`, `` `c` ``, `~~s~~`,
    `==h==`): each piece of a sentence is cleaned on its own, so the marks around a
    link (`**[[x]]**`) go too."""
    if not any(mark in text for mark in "*_~=`"):
        return text
    return _PAIRED.sub(r"\2", _MARKS.sub("", text))


def rendered(
    text: str,
    low: int,
    high: int,
    spans: Sequence[WikiSpan],
    hidden: Sequence[tuple[int, int]] = (),
) -> str:
    """`text[low:high]` with each of `spans` wholly inside it read as its text, and
    the `hidden` stretches of it left out."""
    cuts = [
        (span.start, span.end, link_text(span))
        for span in spans
        if span.start >= low and span.end <= high
    ]
    cuts += [(max(start, low), min(end, high), "") for start, end in hidden]
    pieces, at = [], low
    for cut_start, cut_end, shown in sorted(cuts):
        if cut_start >= at and cut_start < cut_end:
            pieces += [text[at:cut_start], shown]
            at = cut_end
    pieces.append(text[at:high])
    return "".join(pieces)


def _cut(part: str, room: int, keep_end: bool) -> str:
    """`part` cut to `room` characters on its far side from the link (`…` marks the cut)."""
    if len(part) <= room:
        return part
    if room <= 1:
        return ""
    return "…" + part[len(part) - room + 1 :] if keep_end else part[: room - 1] + "…"
