"""A page's own Dataview inline queries, as the values Dataview shows: `` `=this.name` ``
→ `Fear`.

Dataview (one of Obsidian's most installed plugins) runs an inline code span that starts with
`=` as a query and shows its result in place. Its commonest use reads the page's own
fields: a vault of 841 spell pages is written as `` # `=this.name` `` over lines like
`` **Range** `=this.range` ``, every value in the frontmatter; without the plugin such a
page is a screen of code spans, and its title reads `=this.name`.

`inline_queries` writes each span that is exactly `=this.KEY` (`KEY` a field, `a.b` a key
of a key, or `file.name`, `file.link`, `file.folder`, `file.path`) as the value, in
Dataview's rendering: a list as `a, b, c`, nothing as `-`, `true` / `false`, a date as
`December 04, 2026`. A field is the page's frontmatter key (as written, or as Dataview
canonicalises it: `Due Date` is `due-date`) or one of its inline fields (`key:: value`,
`core.links.fields`), read by `page_fields`. Anything else stays as written: a key the page
has not, a mapping, any other query (`=this.x + 1`, `=date(today)`), a span in a fenced
block, so a code span that only looks like a query in a vault without Dataview shows as
written unless the page has that very field.

A value holding line breaks (a folded YAML block) keeps them when its span stands alone on
its line, where Dataview shows its paragraphs; inside a line (a table row, a list item,
a quote) they become spaces, so the line's block holds.

Hostile pages are bounded: the values written in add at most `MAX_ADDED` characters to a
text (a 1 MB field queried by 100,000 spans would make 100 GB); the spans past it stay as
written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from okf_explorer.core.links.fields import canonical_key, field_values
from okf_explorer.core.links.grammar import code_span_ranges, mask_code_spans, prose_ranges

__all__ = ["QUERY_MARK", "inline_queries", "inline_value", "page_fields", "query_fields"]

QUERY_MARK = "`="
"""What a text holds when it may hold an inline query (a cheap test before the work)."""

_QUERY = re.compile(r"`+\s*=\s*this\.([^\W\d][\w-]*(?:\.[^\W\d][\w-]*)*)\s*`+")
"""A code span that is exactly `=this.KEY` (a dotted path of field names)."""
_FILE_KEYS = frozenset({"name", "link", "folder", "path"})
"""The `file.*` fields read from the page's name."""
_LINE_BREAKS = re.compile(r"[ \t]*\n\s*")
MAX_ADDED = 1_000_000
"""Characters the values may add to one text, at most (the rest of its queries stay)."""


def page_fields(frontmatter: Mapping[str, Any], body: str) -> dict[str, Any]:
    """The fields `this` reads on a page: its frontmatter, each key also as Dataview
    canonicalises it, then its inline fields (`key:: value`, outside code) not already
    there, by their canonical key (the first of a key wins)."""
    fields: dict[str, Any] = dict(frontmatter)
    for key, value in frontmatter.items():
        fields.setdefault(canonical_key(str(key)), value)
    if "::" in body:
        for start, end in prose_ranges(body):
            text = mask_code_spans(body[start:end])
            for key, value_start, value_end in field_values(text):
                fields.setdefault(key, text[value_start:value_end].strip())
    return fields


def query_fields(frontmatter: Mapping[str, Any], body: str) -> dict[str, Any]:
    """The fields a Dataview query reads on a page (`core.bases.dataview_query`): as
    `page_fields`, each inline field's text read as Dataview types it (`inline_value`),
    so `rating:: 4` compares as the number a frontmatter `rating: 4` is."""
    fields = page_fields(frontmatter, body)
    written = set(frontmatter) | {canonical_key(str(key)) for key in frontmatter}
    return {
        key: value if key in written or not isinstance(value, str) else inline_value(value)
        for key, value in fields.items()
    }


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def inline_value(text: str) -> Any:
    """An inline field's text as Dataview types it: a number, `true` / `false`, a day
    (`2024-05-01`), else the text."""
    if _NUMBER.fullmatch(text):
        return float(text) if "." in text else int(text)
    if text.lower() in {"true", "false"}:
        return text.lower() == "true"
    if _DAY.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            return text
    return text


def inline_queries(text: str, fields: Mapping[str, Any], slug: str) -> str:
    """`text` (Markdown) with each `=this.KEY` span outside fenced code written as the
    value Dataview shows (see the module doc); `fields` from `page_fields`, `slug` the
    page's (for `file.*`)."""
    if QUERY_MARK not in text:
        return text
    out: list[str] = []
    done = 0
    room = MAX_ADDED
    for start, end in prose_ranges(text):
        segment = text[start:end]
        for span_start, span_end in code_span_ranges(segment):
            found = _QUERY.fullmatch(segment, span_start, span_end)
            if found is None:
                continue
            value = _value(found[1].split("."), fields, slug)
            if value is None:
                continue
            if "\n" in value and not _alone_on_line(segment, span_start, span_end):
                value = _LINE_BREAKS.sub(" ", value).strip()
            room -= len(value)
            if room < 0:
                break
            out.append(text[done : start + span_start])
            out.append(value)
            done = start + span_end
        if room < 0:
            break
    out.append(text[done:])
    return "".join(out)


def _value(path: list[str], fields: Mapping[str, Any], slug: str) -> str | None:
    """The text Dataview shows for `this.<path>`, or None to leave the query as written."""
    if path[0] == "file" and len(path) == 2 and path[1] in _FILE_KEYS and "file" not in fields:
        return _file_field(path[1], slug)
    current: Any = fields
    for key in path:
        if not isinstance(current, Mapping):
            return None
        if key in current:
            current = current[key]
        elif (canonical := canonical_key(key)) in current:
            current = current[canonical]
        else:
            return None
    return _shown(current)


def _file_field(key: str, slug: str) -> str:
    folder, _, name = slug.rpartition("/")
    if key == "name":
        return name
    if key == "link":
        return f"[[{slug}|{name}]]"
    if key == "folder":
        return folder
    return f"{slug}.md"


def _shown(value: Any) -> str | None:
    """A field's value as Dataview renders it inline; None for a mapping."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        hour = value.hour % 12 or 12
        return f"{hour}:{value.minute:02d} {'AM' if value.hour < 12 else 'PM'} - {_day(value)}"
    if isinstance(value, date):
        return _day(value)
    if isinstance(value, (list, tuple)):
        items = [_shown(item) for item in value]
        return None if None in items else ", ".join(item for item in items if item is not None)
    if isinstance(value, Mapping):
        return None
    return str(value)


def _day(value: date) -> str:
    """Dataview's default date format, `MMMM dd, yyyy`."""
    return f"{value.strftime('%B')} {value.day:02d}, {value.year}"


def _alone_on_line(segment: str, start: int, end: int) -> bool:
    """Whether only blanks stand beside `segment[start:end]` on its line (read over the
    blanks only: a line of many spans costs its length)."""
    before = start
    while before > 0 and segment[before - 1] in " \t":
        before -= 1
    if before > 0 and segment[before - 1] != "\n":
        return False
    after = end
    while after < len(segment) and segment[after] in " \t\r":
        after += 1
    return after == len(segment) or segment[after] == "\n"
