"""The Tasks plugin's query blocks (```` ```tasks ````) read as the Dataview `TASK` query
they mean (`dataview_query.task_query`): the tasks of every page that its filters keep.

Tasks (one of Obsidian's most installed plugins) shows, where a ```` ```tasks ```` block
is written, the vault's tasks its instructions keep: `not done`, `due before tomorrow`,
`path includes {{query.file.path}}`. Without it a daily note or a project page is a
screen of instructions. okf-explorer reads the instructions below, as the plugin's
"Filters", "Sorting", "Limiting" and "Combining Filters" pages describe them, and
leaves any other block as written (code), so a block is never shown half understood:

- `done` (a box of `x`, `X` or `-`, Tasks' statuses of type done and cancelled) and
  `not done`;
- a date: `due`, `scheduled`, `starts`, `done`, `created`, `cancelled` or `happens` (any
  of start, scheduled and due), then `before`, `after`, `on`, `in`, `on or before`,
  `on or after` (or none: on / in), then a day (`YYYY-MM-DD`, `today`, `tomorrow`,
  `yesterday`, `in 2 weeks`, `3 days ago`, `a month ago`) or a range of days (two dates;
  `last`, `this` or `next` `week`, Monday to Sunday, `month`, `quarter` or `year`),
  counted from today (`_days`); `after` a range is after its last day; `has due date`,
  `no due date` and the others' alike. A task's dates are its Tasks
  emoji (`📅 2024-05-01`, `⏳`, `🛫`, `✅`, `➕`, `❌`), read where Tasks reads them: at
  the end of its line (`dataview_tasks.tasks_fields`);
- `path`, `folder`, `filename`, `description` or `heading` (the one the task is under)
  `includes` / `does not include` a text (any case), which may be the page holding the
  block's own: `{{query.file.path}}`, `{{query.file.folder}}`, `{{query.file.filename}}`,
  `{{query.file.filenameWithoutExtension}}`;
- `tags include` / `tags do not include` (and `tag includes` …) a text (any case);
- `priority is [above|below] highest|high|medium|none|low|lowest` (`🔺⏫🔼🔽⏬`, none
  being "normal"), `is recurring` / `is not recurring` (`🔁`);
- `(a) AND (b)`, `(a) OR (b)`, `NOT (a)`, each part one of the filters above in
  parentheses (Tasks' other delimiters, `[…]`, `{…}` and `"…"`, are not read);
- `sort by` `due`, `scheduled`, `start`, `done`, `created`, `path`, `filename`,
  `description`, `status` or `priority`, `reverse` after it; `limit N` (`limit to N
  tasks`); `group by filename` and `group by path` (how the tasks are shown anyway,
  under their page), and one `group by` `heading`, `folder`, `status.type`, `priority`
  or a date (`due`, …: `2024-05-01 Wednesday`, `No due date`), each group under its
  heading, in Tasks' order (`_GROUPS`);
- what changes only how a task looks (`hide …`, `show …`, `short mode`, `full mode`),
  `explain`, `ignore global query` and comments (`# …`) are read as nothing.

A vault's global filter (Tasks' settings: `#task`) is read: only a checklist item holding
it is a task. Not read (the block stays code): presets, `filter by function` and every
other JavaScript, regular expressions, `status.…` filters, dependencies (`is blocked`),
other groupings (and a second one), `XOR`, and the dates other than those above (`next
monday`, `in two weeks and a day`).

Without `sort by`, tasks are shown by page and line, under their page (Tasks' default
order ranks by urgency, which needs its priority and its settings).
"""

from __future__ import annotations

import calendar
import functools
import json
import re
from datetime import date, timedelta

from okf_explorer.core.bases.dataview_query import (
    QUERIES_KEPT,
    DataviewQuery,
    QueryRefused,
    task_query,
)
from okf_explorer.core.bases.dataview_tasks import NORMAL_PRIORITY, TASKS_FIELD

__all__ = ["read_tasks_query"]

MAX_TASKS_QUERY_CHARS = 4000
"""A block longer than this is not read."""
MAX_COMBINED = 16
"""Filters one boolean line may combine."""

DONE = '(note["status"] == "x" || note["status"] == "X" || note["status"] == "-")'
"""A task Tasks calls done: its status's type is done (`x`, `X`) or cancelled (`-`)."""
_DATES = {
    "due": "due",
    "scheduled": "scheduled",
    "start": "start",
    "starts": "start",
    "done": "completion",
    "created": "created",
    "cancelled": "cancelled",
}
"""A date's name in an instruction → the task's field as Tasks reads it
(`dataview_tasks.tasks_fields`, under `TASKS_FIELD`)."""
HAPPENS = ("start", "scheduled", "due")
"""The dates `happens` reads: any of them."""
_PRIORITY_NAMES = {"highest": 0, "high": 1, "medium": 2, "none": NORMAL_PRIORITY}
_PRIORITY_NAMES |= {"normal": NORMAL_PRIORITY, "low": 4, "lowest": 5}
_DAYS_FROM_TODAY = {"today": 0, "tomorrow": 1, "yesterday": -1}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_NUMBERS |= {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_MONTHS = {"month": 1, "quarter": 3, "year": 12}
_TEXTS = {
    "path": "file.path",
    "folder": '(file.folder + "/")',
    "filename": "file.name",
    "description": 'note["text"]',
    "heading": 'note["tasks:heading"]',
}
_PLACEHOLDERS = {
    "{{query.file.path}}": "this.file.path",
    "{{query.file.folder}}": '(this.file.folder + "/")',
    "{{query.file.filename}}": "this.file.name",
    "{{query.file.filenamewithoutextension}}": "this.file.basename",
}


def _date_of(name: str) -> str:
    """The expression of a task's date `name` (`due`, …) as Tasks reads it."""
    return f"note[{json.dumps(TASKS_FIELD.format(name))}]"


_SORTS = {
    **{name: _date_of(_DATES[name]) for name in ("due", "scheduled", "start", "done", "created")},
    "path": "file.path",
    "filename": "file.name",
    "description": 'note["text"].lower()',
    "status": 'note["status"]',
    "priority": 'note["tasks:priority"]',
}

_STATUS_TYPE = (
    'if(note["status"] == "/", "IN_PROGRESS", if(note["status"] == "x" || note["status"] == "X",'
    ' "DONE", if(note["status"] == "-", "CANCELLED", "TODO")))'
)
"""A task's status type, as Tasks' default statuses give it (a box it does not know: TODO)."""
_STATUS_ORDER = (
    'if(note["status"] == "/", 1, if(note["status"] == "x" || note["status"] == "X", 3,'
    ' if(note["status"] == "-", 4, 2)))'
)
_PRIORITY_GROUP = (
    'if(note["tasks:priority"] == 0, "Highest priority", if(note["tasks:priority"] == 1,'
    ' "High priority", if(note["tasks:priority"] == 2, "Medium priority",'
    ' if(note["tasks:priority"] == 4, "Low priority", if(note["tasks:priority"] == 5,'
    ' "Lowest priority", "Normal priority")))))'
)


def _date_group(name: str) -> tuple[str, str]:
    """A group by a task's date `name`: `2024-05-01 Wednesday`, else `No due date` (last)."""
    value = _date_of(_DATES[name])
    missing = json.dumps(f"No {name} date")
    return (
        f'if({value}, {value}.format("YYYY-MM-DD dddd"), {missing})',
        f'if({value}, {value}.format("YYYY-MM-DD"), "9999")',
    )


_GROUPS = {
    "heading": ('if(note["tasks:heading"], note["tasks:heading"], "(No heading)")',) * 2,
    "folder": ('(file.folder + "/")',) * 2,
    "status.type": (_STATUS_TYPE, _STATUS_ORDER),
    "priority": (_PRIORITY_GROUP, 'note["tasks:priority"]'),
    **{name: _date_group(name) for name in ("due", "scheduled", "start", "done", "created")},
}
"""`group by` a key → the expressions of a task's group's name and of the groups' order
(Tasks' own: by date, no date last; in progress, to do, done, cancelled; by priority)."""

_DATE_NAMES = "|".join(sorted([*_DATES, "happens"], key=len, reverse=True))
_DATE_FILTER = re.compile(
    rf"(?P<name>{_DATE_NAMES})"
    r"(?: (?P<op>before|after|on or before|on or after|on|in))? (?P<days>.+)",
    re.IGNORECASE,
)
_TWO_DAYS = re.compile(r"(\d{4}-\d{2}-\d{2}) (\d{4}-\d{2}-\d{2})")
_PERIOD = re.compile(r"(last|this|next) (week|month|quarter|year)")
_SPAN = re.compile(
    r"in (?P<ahead>\w+) (?P<unit>day|week|month|year)s?"
    r"|(?P<back>\w+) (?P<ago>day|week|month|year)s? ago"
)
_HAS_DATE = re.compile(
    rf"(?P<has>has|no) (?P<name>{_DATE_NAMES}) date",
    re.IGNORECASE,
)
_TEXT_FILTER = re.compile(
    r"(?P<name>path|folder|filename|description|heading)"
    r" (?P<op>includes|does not include) (?P<text>.+)",
    re.IGNORECASE,
)
_TAG_FILTER = re.compile(
    r"tags? (?P<op>includes?|does not include|do not include) (?P<text>.+)", re.IGNORECASE
)
_PRIORITY_FILTER = re.compile(
    r"priority is(?: (?P<op>above|below))? (?P<name>highest|high|medium|none|normal|low|lowest)",
    re.IGNORECASE,
)
_LIMIT = re.compile(r"limit(?: to)? (?P<count>\d{1,6})(?: tasks?)?")
_SORT = re.compile(r"sort by (?P<name>\w+)(?P<reverse> reverse)?")
_SHOWN_ONLY = re.compile(
    r"(?:hide|show) .+|short(?: mode)?|full(?: mode)?|explain|ignore global query"
)
_BOOLEAN = re.compile(r"\(|\)|[^()]+")


def read_tasks_query(
    text: str, global_filter: str = "", today: date | None = None
) -> DataviewQuery:
    """A ```` ```tasks ```` block's text → the query it is; `QueryRefused` says why not
    (see the module doc). `global_filter`: the vault's (`Brain.tasks_global_filter`), a
    text a checklist item holds to be a task; `today` (the machine's date): the day its
    relative dates count from. Each text is read once a day (`_read`), as a Dataview
    query's is once."""
    read = _read(text, global_filter, today or date.today())
    if isinstance(read, QueryRefused):
        raise QueryRefused(str(read))
    return read


@functools.lru_cache(maxsize=QUERIES_KEPT)
def _read(text: str, global_filter: str, today: date) -> DataviewQuery | QueryRefused:
    try:
        return _query(text, global_filter, today)
    except QueryRefused as refused:
        return refused


def _query(text: str, global_filter: str, today: date) -> DataviewQuery:
    if len(text) > MAX_TASKS_QUERY_CHARS:
        raise QueryRefused(f"a Tasks query over {MAX_TASKS_QUERY_CHARS:,} characters")
    filters = [f'note["text"].contains({json.dumps(global_filter)})'] if global_filter else []
    sort: list[tuple[str, bool]] = []
    limit: int | None = None
    group: tuple[str, str] | None = None
    for written in text.splitlines():
        line = " ".join(written.split())
        lowered = line.lower()
        if not line or line.startswith("#") or _SHOWN_ONLY.fullmatch(lowered):
            continue
        if lowered in {"group by filename", "group by path"}:
            continue  # how the tasks are shown anyway: under their page
        if lowered.startswith("group by "):
            key = lowered.removeprefix("group by ").strip()
            if key not in _GROUPS or group is not None:
                raise QueryRefused(f"the instruction {line!r} is not read")
            group = _GROUPS[key]
        elif (found := _LIMIT.fullmatch(lowered)) is not None:
            limit = int(found["count"])
        elif (found := _SORT.fullmatch(lowered)) is not None:
            if found["name"] not in _SORTS:
                raise QueryRefused(f"sort by {found['name']} is not read")
            sort.append((_SORTS[found["name"]], found["reverse"] is not None))
        elif line.startswith(("(", "NOT ")):
            filters.append(_combined(line, today))
        else:
            filters.append(_filter(line, today))
    return task_query(filters, sort, limit, group)


def _filter(line: str, today: date) -> str:
    """One filter instruction → the expression that keeps the tasks it keeps."""
    lowered = line.lower()
    if lowered == "done":
        return DONE
    if lowered == "not done":
        return f"!{DONE}"
    if lowered in {"is recurring", "is not recurring"}:
        recurring = 'note["tasks:recurring"]'
        return recurring if lowered == "is recurring" else f"!{recurring}"
    if (found := _PRIORITY_FILTER.fullmatch(line)) is not None:
        operator = {"above": "<", "below": ">", None: "=="}[found["op"] and found["op"].lower()]
        return f'note["tasks:priority"] {operator} {_PRIORITY_NAMES[found["name"].lower()]}'
    if (found := _DATE_FILTER.fullmatch(line)) is not None:
        name, operator = found["name"].lower(), (found["op"] or "on").lower()
        fields = HAPPENS if name == "happens" else (_DATES[name],)
        written = found["days"].lower()
        try:
            first, last = _days(written, today)
        except QueryRefused:
            if operator != "in":  # `due in 2 weeks`: a day, not the operator `in`
                raise
            first, last = _days(f"in {written}", today)
        each = [_date_filter(field, operator, first, last) for field in fields]
        return each[0] if len(each) == 1 else f"({' || '.join(each)})"
    if (found := _HAS_DATE.fullmatch(line)) is not None:
        name = found["name"].lower()
        fields = HAPPENS if name == "happens" else (_DATES[name],)
        has = " || ".join(f"{_date_of(field)} != null" for field in fields)
        return f"({has})" if found["has"].lower() == "has" else f"!({has})"
    if (found := _TEXT_FILTER.fullmatch(line)) is not None:
        kept = f"{_TEXTS[found['name'].lower()]}.lower().contains({_operand(found['text'])})"
        return kept if found["op"].lower() == "includes" else f"!{kept}"
    if (found := _TAG_FILTER.fullmatch(line)) is not None:
        kept = f'note["tags"].join(" ").lower().contains({_operand(found["text"])})'
        return kept if found["op"].lower().startswith("include") else f"!{kept}"
    raise QueryRefused(f"the instruction {line!r} is not read")


def _operand(written: str) -> str:
    """A text to look for, as an expression of its lower case: as written, or the page
    holding the query's own path, folder or name (`_PLACEHOLDERS`)."""
    text = written.strip()
    if "{{" in text:
        placeholder = _PLACEHOLDERS.get(text.lower())
        if placeholder is None:
            raise QueryRefused(f"the placeholder {text} is not read")
        return f"{placeholder}.lower()"
    return json.dumps(text.lower())


def _days(written: str, today: date) -> tuple[date, date]:
    """The first and last day a date or a range of dates means, as Tasks reads them: a
    day (`2024-05-01`, `today`, `tomorrow`, `yesterday`, `in 2 weeks`, `3 days ago`), two
    days (`2024-05-01 2024-05-31`), or `last` / `this` / `next` `week` (Monday to Sunday),
    `month`, `quarter` or `year`."""
    if written in _DAYS_FROM_TODAY:
        day = today + timedelta(days=_DAYS_FROM_TODAY[written])
        return day, day
    if (found := _TWO_DAYS.fullmatch(written)) is not None:
        return _iso_day(found[1]), _iso_day(found[2])
    if (found := _PERIOD.fullmatch(written)) is not None:
        try:
            return _period(today, found[2], {"last": -1, "this": 0, "next": 1}[found[1]])
        except (ValueError, OverflowError):  # a year 1 or 9999 has no year before or after
            raise QueryRefused(f"{written} is past the dates Tasks' queries here read") from None
    if (found := _SPAN.fullmatch(written)) is not None:
        count = found["ahead"] or found["back"]
        amount = int(count) if count.isdigit() else _NUMBERS.get(count)
        if amount is None:
            raise QueryRefused(f"{written} is not a date Tasks' queries here read")
        unit = found["unit"] or found["ago"]
        try:
            day = _shifted(today, amount if found["ahead"] else -amount, unit)
        except (ValueError, OverflowError):  # past the year 9999
            raise QueryRefused(f"{written} is past the dates Tasks' queries here read") from None
        return day, day
    day = _iso_day(written)
    return day, day


def _iso_day(written: str) -> date:
    try:
        return date.fromisoformat(written) if len(written) == 10 else _refused_day(written)
    except ValueError:
        return _refused_day(written)


def _refused_day(written: str) -> date:
    raise QueryRefused(f"{written} is not a date Tasks' queries here read")


def _shifted(day: date, amount: int, unit: str) -> date:
    """`day` moved `amount` days, weeks, months or years (a month's day kept, or its last)."""
    if unit in {"day", "week"}:
        return day + timedelta(days=amount * (7 if unit == "week" else 1))
    months = day.year * 12 + day.month - 1 + amount * (12 if unit == "year" else 1)
    year, month = divmod(months, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _period(today: date, unit: str, offset: int) -> tuple[date, date]:
    """The week (ISO: Monday to Sunday), month, quarter or year holding `today`, moved by
    `offset` of them."""
    if unit == "week":
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=offset)
        return monday, monday + timedelta(days=6)
    length = _MONTHS[unit]
    first = date(today.year, 1 if unit == "year" else (today.month - 1) // length * length + 1, 1)
    first = _shifted(first, offset * length, "month")
    return first, _shifted(first, length, "month") - timedelta(days=1)


def _date_filter(field: str, operator: str, first: date, last: date) -> str:
    """`note[field]` before, after, on or in the days from `first` to `last` (a date or a
    time on one of them): `after` is after the last."""
    value = _date_of(field)
    start = f"date({json.dumps(first.isoformat())})"
    end = f"date({json.dumps((last + timedelta(days=1)).isoformat())})"
    if operator == "before":
        return f"{value} < {start}"
    if operator == "on or before":
        return f"{value} < {end}"
    if operator == "after":
        return f"{value} >= {end}"
    if operator == "on or after":
        return f"{value} >= {start}"
    return f"({value} >= {start} && {value} < {end})"


def _combined(line: str, today: date) -> str:
    """`(a) AND (b)`, `(a) OR NOT (b)`, `NOT (a)`: each part a filter in parentheses,
    operators between them, `NOT` binding tightest, then `AND`, then `OR` (as Tasks'
    "Execution Priority" orders them, and a base's expressions do)."""
    out: list[str] = []
    operand = True  # an operand (or NOT) comes next
    filters = 0
    parts: list[str] = []
    for found in _BOOLEAN.findall(line):
        inside = parts[-1:] == ["("]
        parts.extend([found.strip()] if inside or found in "()" else found.split())
    index = 0
    while index < len(parts):
        part = parts[index]
        if operand and part == "NOT":
            out.append("!")
        elif operand and part == "(" and parts[index + 2 : index + 3] == [")"]:
            out.append(f"({_filter(parts[index + 1], today)})")
            filters += 1
            operand = False
            index += 2
        elif not operand and part in {"AND", "OR"}:
            out.append(" && " if part == "AND" else " || ")
            operand = True
        else:
            raise QueryRefused(f"the instruction {line!r} is not read")
        index += 1
    if operand or filters > MAX_COMBINED:
        raise QueryRefused(f"the instruction {line!r} is not read")
    return "".join(out)
