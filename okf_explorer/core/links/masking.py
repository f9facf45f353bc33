"""Masking code out of Markdown before the link scan (SPEC §3, pass 1 of `link_grammar`).

Fenced code blocks (```` ``` ```` / `~~~`, longer fences, unclosed fences run to
the end, as CommonMark says) and inline code spans (backtick runs of equal
length, not crossing a blank line) are found in linear time; fences with
`str.find`, since a regex that starts with a class is ~20x slower.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

_RUN = {"`": re.compile(r"`+"), "~": re.compile(r"~+")}
_FENCE_PREFIX = re.compile(r"[ \t>]*+(?:(?:[-*+]|\d{1,9}[.)])[ \t]++)?")
_CLOSE_PREFIX = re.compile(r"[ \t>]*+")
_LINE_REST_BLANK = re.compile(r"[ \t\r]*+(?:\n|\Z)")
_MAX_FENCE_INDENT = 64
"""How far before a fence run its line may start (blockquote / list markers, indent)."""
_BACKTICKS = re.compile(r"`+")
BLANK_LINE = re.compile(r"\n[ \t\r]*+(?=\n)")
"""A blank line, from the newline before it (a span never crosses one)."""
CODE_MARK = "\x00"
"""What a code span becomes: no link target may contain it."""


def _starts_line(text: str, at: int, prefix: re.Pattern[str]) -> bool:
    """True when only `prefix` (indent, `>`, a list marker) stands between `at` and its line start.

    The look-back is bounded, so many runs on one long line stay linear.
    """
    low = max(0, at - _MAX_FENCE_INDENT)
    newline = text.rfind("\n", low, at)
    if newline < 0 and low > 0:
        return False
    return prefix.fullmatch(text, newline + 1, at) is not None


class _FenceRuns:
    """Runs of 3+ backticks or tildes, in order, found with `str.find`.

    (A regex that starts with a character class or an alternation is scanned
    character by character in Python's engine, ~20x slower than `find`.)
    Each marker's next position is cached, so a text with many ``` and no
    ~~~ is still scanned once.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.next = {"```": -2, "~~~": -2}

    def search(self, start: int) -> tuple[int, int] | None:
        """(start, end) of the first whole run at or after `start`."""
        best = -1
        for marker, at in self.next.items():
            if at != -1 and at < start:
                at = self.next[marker] = self.text.find(marker, start)
            if at >= 0 and (best < 0 or at < best):
                best = at
        if best < 0:
            return None
        run = _RUN[self.text[best]].match(self.text, best)
        assert run is not None
        return best, run.end()


def _find_fence(runs: _FenceRuns, start: int, closing: str | None = None) -> tuple[int, int] | None:
    """The next opening fence run from `start`, or the next run closing `closing`."""
    text = runs.text
    while (run := runs.search(start)) is not None:
        begin, start = run
        fence = text[begin:start]
        if closing is not None:
            if (
                fence[0] == closing[0]
                and len(fence) >= len(closing)
                and _LINE_REST_BLANK.match(text, start) is not None
                and _starts_line(text, begin, _CLOSE_PREFIX)
            ):
                return run
        elif _starts_line(text, begin, _FENCE_PREFIX):
            line_end = text.find("\n", start)
            info = text[start : line_end if line_end >= 0 else len(text)]
            if fence[0] == "~" or "`" not in info:  # else an inline code span
                return run
            start = line_end if line_end >= 0 else len(text)
    return None


def prose_ranges(text: str) -> list[tuple[int, int]]:
    """`(start, end)` of each stretch of `text` outside fenced code blocks, in order
    (an unclosed fence runs to the end of the text)."""
    if "```" not in text and "~~~" not in text:
        return [(0, len(text))]
    runs = _FenceRuns(text)
    ranges: list[tuple[int, int]] = []
    pos = 0
    while (opening := _find_fence(runs, pos)) is not None:
        ranges.append((pos, opening[0]))
        body = text.find("\n", opening[1])
        fence = text[opening[0] : opening[1]]
        closing = _find_fence(runs, body, fence) if body >= 0 else None
        if closing is None:  # unclosed: code to the end of the document
            return ranges
        pos = closing[1]
    ranges.append((pos, len(text)))
    return ranges


def strip_fences(text: str) -> list[str]:
    """The text outside fenced code blocks, as segments (a block → a blank line)."""
    ranges = prose_ranges(text)
    if len(ranges) == 1 and ranges[0] == (0, len(text)):
        return [text]
    segments: list[str] = []
    for start, end in ranges:
        if segments:
            segments.append("\n\n")
        segments.append(text[start:end])
    return segments


def mask_code_spans(segment: str) -> str:
    """Replace inline code spans by `CODE_MARK` (see `code_span_ranges`)."""
    if "`" not in segment:
        return segment
    pieces: list[str] = []
    pos = 0
    for start, end in code_span_ranges(segment):
        pieces.append(segment[pos:start])
        pieces.append(CODE_MARK)
        pos = end
    pieces.append(segment[pos:])
    return "".join(pieces)


def code_span_ranges(segment: str) -> list[tuple[int, int]]:
    """`(start, end)` of each inline code span of a text without fences (CommonMark
    matching, linear time).

    A run of n backticks opens a span closed by the next run of exactly n
    backticks before the next blank line; an unmatched run is literal text.
    A backslash before a run escapes its first backtick (outside spans only).
    """
    if "`" not in segment:
        return []
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(segment)]
    starts_by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        starts_by_length.setdefault(end - start, []).append(index)
    blanks = [m.start() for m in BLANK_LINE.finditer(segment)] if "\n" in segment else []
    spans: list[tuple[int, int]] = []
    pos = 0
    index = 0
    while index < len(runs):
        start, end = runs[index]
        if start < pos:  # inside a span already closed past it
            index += 1
            continue
        start += _escaping_backslashes(segment, start) % 2
        candidates = starts_by_length.get(end - start)
        closer = None
        if candidates:
            k = bisect_right(candidates, index)
            if k < len(candidates):
                closer = candidates[k]
        if closer is not None:
            limit = blanks[i] if (i := bisect_left(blanks, end)) < len(blanks) else len(segment)
            if runs[closer][0] < limit:
                spans.append((start, runs[closer][1]))
                pos = runs[closer][1]
                index = closer + 1
                continue
        index += 1
    return spans


def _escaping_backslashes(text: str, at: int) -> int:
    count = 0
    while at > count and text[at - count - 1] == "\\":
        count += 1
    return count
