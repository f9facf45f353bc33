"""Where a page writes a relation beside its links: Dataview inline fields (issue 27).

Thousands of vaults type their links where the thought is: Dataview's `related:: [[x]]`,
Breadcrumbs' `up:: [[parent]]`. `field_values` finds those fields the way Dataview does
(its `extractInlineFields` and `extractFullLineField`), line by line, and says where
each value lies; the link grammar (`core.links.grammar`) reads the links in a value
with the page's own rules and gives them the field's relation. It runs on the text the
grammar scans, code already masked, so a field in code is no field, as a link in code is
no link.

Per line holding `::`:

- **bracketed** fields, `[key:: value]` and `(key:: value)`, anywhere in the line: the
  key is what stands between the bracket and the next `::` (trimmed; a bracket or a
  parenthesis in it makes it no field); the value runs to the matching closing bracket,
  nested brackets of the same kind counted and a character after `\\` skipped. A field
  that starts inside an earlier one is dropped.
- a **whole-line** field `key:: value`, only when the line has no bracketed field and is
  not a task (`- [ ] …`): the key is what precedes the first `::`, read as leading
  non-word characters (list markers, `>`, `**`), then letters, digits, `_`, `-`, `/` and
  spaces, then any of `_*~\\``; anything else in it (`.`, `:`, a link) makes the line no
  field. The value is the rest of the line; `::` must be followed by a space or end the
  line (Dataview does not ask for one, but then `std::vector` in prose would type the
  line's links).

A key becomes a relation as Dataview canonicalises it (`canonical_key`): `Related To` →
`related-to`, `**Parent**` → `parent`. A field with an empty key is none.

Left out, where Dataview differs: emoji in a whole-line key (Dataview accepts them; here
such a line is no field), an escaped opening (`\\[key:: value]` is a literal bracket
here, as Markdown reads it; Dataview opens a field there), and list items continued over
several lines (read line by line here). Each line is read in one pass whatever it holds
(`_closings`), so a hostile line of thousands of openings costs its length, not its
square.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right

FIELD_MARK = "::"

_WRAPPERS = {"[": "]", "(": ")"}
_KEY_BREAKERS = frozenset("[]()")
_LINE_KEY = re.compile(r"[^\w]*+([\w\s/-]*+)[_*~`]*+", re.UNICODE)
"""A whole-line key: leading non-word characters, the key, trailing markup (fullmatch)."""
_TASK = re.compile(r"[ \t>]*+(?:[-*+]|\d{1,9}[.)])[ \t]++\[.\]")
"""A list item that is a task: `- [ ]`, `* [x]`, `1. [-]`."""
_KEY_PARTS = re.compile(r"[\w-]+|\s+|.", re.UNICODE | re.DOTALL)
MAX_LINE = 32768
"""Longer lines are not read for fields (Dataview's bound too)."""

FieldValue = tuple[str, int, int]
"""`(relation, start, end)`: a field's canonical key and where its value lies."""


def canonical_key(key: str) -> str:
    """A field's key as a relation, as Dataview's `canonicalizeVarName` makes it: letters,
    digits, `_` and `-` kept and lowercased, each run of whitespace one `-`, symbols
    (emoji) kept, anything else dropped."""
    parts: list[str] = []
    for part in _KEY_PARTS.findall(key):
        if part[0] == "-" or part[0] == "_" or part[0].isalnum():
            parts.append(part.lower())
        elif part.isspace():
            parts.append("-")
        elif unicodedata.category(part) == "So":
            parts.append(part)
    return "".join(parts)


def field_values(text: str) -> list[FieldValue]:
    """Every inline field of `text` whose key is no empty relation, in text order."""
    found: list[FieldValue] = []
    at = text.find(FIELD_MARK)
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        if end < 0:
            end = len(text)
        if end - start <= MAX_LINE:
            found.extend(_line_fields(text, start, end))
        at = text.find(FIELD_MARK, end)
    return found


def _line_fields(text: str, start: int, end: int) -> list[FieldValue]:
    """The fields of the line `text[start:end]` (see the module doc)."""
    line = text[start:end]
    bracketed: list[tuple[int, int, str, int, int]] = []
    if "[" in line or "(" in line:
        closing_of = _closings(line)
        breakers = [index for index, char in enumerate(line) if char in _KEY_BREAKERS]
        for opening in _WRAPPERS:
            at = line.find(opening)
            while at >= 0:
                field = _bracketed(line, at, closing_of, breakers)
                if field is None:
                    at = line.find(opening, at + 1)
                else:
                    bracketed.append(field)
                    at = line.find(opening, field[1])
    if bracketed:
        bracketed.sort()
        kept: list[FieldValue] = []
        last_end = -1
        for field_start, field_end, key, value_start, value_end in bracketed:
            if field_start > last_end:
                last_end = field_end
                if rel := canonical_key(key):
                    kept.append((rel, start + value_start, start + value_end))
        return kept
    if _TASK.match(line):
        return []
    separator = line.find(FIELD_MARK)
    after = separator + len(FIELD_MARK)
    if after < len(line) and not line[after].isspace():
        return []
    key = _LINE_KEY.fullmatch(line[:separator].strip())
    if key is None or not (rel := canonical_key(key.group(1))):
        return []
    value_start, value_end = _trimmed(line, separator + len(FIELD_MARK), len(line))
    return [(rel, start + value_start, start + value_end)]


def _closings(line: str) -> dict[int, int]:
    """Where each bracket of `line` closes, brackets of one kind counted apart and a
    character after `\\` skipped: one pass, so a line of thousands of openings costs
    as much as its length (a field's value runs to its opening's closing)."""
    closing_of: dict[int, int] = {}
    open_at: dict[str, list[int]] = {opening: [] for opening in _WRAPPERS}
    opening_of = {closing: opening for opening, closing in _WRAPPERS.items()}
    escaped = False
    for index, char in enumerate(line):
        if char == "\\":
            escaped = not escaped
            continue
        if escaped:
            escaped = False
            continue
        if char in open_at:
            open_at[char].append(index)
        elif char in opening_of and (waiting := open_at[opening_of[char]]):
            closing_of[waiting.pop()] = index
    return closing_of


def _bracketed(
    line: str, at: int, closing_of: dict[int, int], breakers: list[int]
) -> tuple[int, int, str, int, int] | None:
    """`(start, end, key, value start, value end)` of the field opened at `line[at]`:
    its key runs to the next `::` before any other bracket (`breakers`, in order)."""
    next_breaker = bisect_right(breakers, at)
    key_end = breakers[next_breaker] if next_breaker < len(breakers) else len(line)
    separator = line.find(FIELD_MARK, at + 1, key_end)
    closing = closing_of.get(at)
    if separator < 0 or closing is None or closing < separator:
        return None
    value_start, value_end = _trimmed(line, separator + len(FIELD_MARK), closing)
    return at, closing + 1, line[at + 1 : separator].strip(), value_start, value_end


def _trimmed(line: str, start: int, end: int) -> tuple[int, int]:
    """`(start, end)` of `line[start:end]` without its surrounding whitespace."""
    while start < end and line[start].isspace():
        start += 1
    while end > start and line[end - 1].isspace():
        end -= 1
    return start, end
