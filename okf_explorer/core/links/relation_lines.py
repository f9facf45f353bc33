"""Where a Basic Memory note types a link: its relation lines, `- part_of [[Project]]`.

Basic Memory (an MCP server that keeps an agent's knowledge as Markdown notes) writes a
note's relations as list items, one a line: a relation type, one wiki-link, and at most a
parenthesised context: `- part_of [[KPI dashboard]]`, `- uses [[config]] (reads the
settings)`, `- "depends on" [[Auth]]`. Its parser reads such an item anywhere in the note
(the `## Relations` heading is a habit, not a rule) and gives the link that type; every
other link is a plain one. A 771-note vault kept so by Claude types 2,389 links this way
(`part_of`, `contains`, `relates_to`, `uses`, …), which read as plain links, one relation,
in the link tree, `walk` and the exported edges.

`relation_values` finds those items as Basic Memory reads them: the type is one word (no
space; a quoted type may hold spaces), then the link, then nothing but one balanced
`(context)`; an item whose text runs on after the link is prose that holds a link (Basic
Memory's own rule, its issue 1260). Left out where it would name junk relations: a type
holding brackets or parentheses (a task, `- [x] [[a]]`) or an inline field's `::` (read as
the field). The type is a relation as a field's key is (`fields.canonical_key`: `"depends
on"` → `depends-on`).

Only a note Basic Memory wrote is read so (`writes_relations`: its frontmatter states a
`permalink`, which Basic Memory gives every note): in any other vault `- Uses [[x]]` is
prose, and stays a plain link. It runs on the text the link grammar scans, code masked,
and gives `(relation, start, end)` spans as `fields.field_values` does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from okf_explorer.core.links.fields import FIELD_MARK, FieldValue, canonical_key

STATED_BY = "permalink"
"""The frontmatter key Basic Memory writes on every note (its stable id)."""

_RELATION_LINE = re.compile(
    r"^[ \t]*+(?:[-*+]|\d{1,9}[.)])[ \t]++"
    r"(\"[^\"\n]++\"|'[^'\n]++'|[^\s\"'\[\]()]++)[ \t]++"
    r"(\[\[[^\[\]\n]++\]\])[ \t]*+(\([^\n]*\))?[ \t]*+$",
    re.MULTILINE,
)
"""A list item: its type, its link, its context (checked balanced by `_one_group`)."""


def writes_relations(frontmatter: Mapping[str, Any] | None) -> bool:
    """Whether a note of this frontmatter was written by Basic Memory (`STATED_BY`)."""
    return frontmatter is not None and STATED_BY in frontmatter


def relation_values(text: str) -> list[FieldValue]:
    """`(relation, start, end)` of the link of each relation line of `text`, in order."""
    if "[[" not in text:
        return []
    found: list[FieldValue] = []
    for match in _RELATION_LINE.finditer(text):
        written, context = match.group(1), match.group(3)
        if FIELD_MARK in written or (context is not None and not _one_group(context)):
            continue
        relation = canonical_key(written.strip("\"'"))
        if relation:
            found.append((relation, match.start(2), match.end(2)))
    return found


def _one_group(text: str) -> bool:
    """Whether `text` is one balanced `( … )` and nothing more (`(a) and (b)` is not)."""
    depth = 0
    for at, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return at == len(text) - 1
    return False
