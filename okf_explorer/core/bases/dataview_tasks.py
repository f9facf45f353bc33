"""The rows of a Dataview `TASK` query: each task of the pages its `FROM` keeps, a row a
base reads (`core.bases.dataview_query`), shown as Dataview shows them, under their page.

A task is a list item with a box, outside code (`- [ ] Call Ada`, `* [x] …`, `1. [>] …`).
A task's row reads its page's frontmatter fields (Dataview's tasks inherit their page's) and
its own: `text` (after the box), `status` (the box's character), `completed` (`x` or `X`;
also `fullyCompleted`: subtasks are not read apart), `checked` (any character but a space),
`line` (from 0, in the text after the frontmatter), `tags` (the `#tags` in its text) and the
inline fields written in it (`[due:: 2024-05-01]`, typed as Dataview types them), and the
dates the Tasks plugin writes as emoji (`📅 2024-05-01`: `EMOJI_DATES`), read as Dataview
reads them (its "Metadata on Tasks and Lists": anywhere in the text): `due`, `scheduled`,
`start`, `completion`, `created`, and `cancelled`. Its `file.…` fields are its page's.

The Tasks plugin reads a task's fields itself, otherwise: only in the run of them that
ends the line (dates, priority, `🔁 every week`, `🆔`, `⛔`, `🏁`, tags, a `^block` id),
from the end, as its own parser does; a date written mid-sentence is text to it. A row
holds what it reads too, under `TASKS_FIELD` (`tasks:due`, `tasks:priority`,
`tasks:recurring`), and the heading the task is under (`tasks:heading`), for the Tasks
plugin's queries (`core.bases.tasks_query`).

Bounded: at most `MAX_TASKS` tasks are read (of the pages in order; the rest counted).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from okf_explorer.core.bases.expression import FileFacts, cell_text
from okf_explorer.core.bases.view import BaseTable
from okf_explorer.core.dataview import inline_value, query_fields
from okf_explorer.core.links.fields import field_values
from okf_explorer.core.links.grammar import mask_code_spans, prose_ranges

__all__ = [
    "EMOJI_DATES",
    "MAX_TASKS",
    "PRIORITIES",
    "TASKS_FIELD",
    "TASK_STATUSES",
    "Task",
    "page_tasks",
    "task_rows",
    "tasks_fields",
    "tasks_markdown",
]

MAX_TASKS = 20_000
"""Tasks a query reads at most."""
TASK_STATUSES = {"x", "X"}
"""The box characters of a completed task."""

_TASK = re.compile(r"^[ \t>]*+(?:[-*+]|\d{1,9}[.)])[ \t]++\[(.)\](?:[ \t]++(.*))?$", re.MULTILINE)
_TAG = re.compile(r"(?<![\w#])#[^\s#,.;:!?()\[\]{}\"']+")
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)
EMOJI_DATES = {
    "📅": "due",
    "📆": "due",
    "🗓": "due",
    "⏳": "scheduled",
    "⌛": "scheduled",
    "🛫": "start",
    "✅": "completion",
    "➕": "created",
    "❌": "cancelled",
}
"""The Tasks plugin's date emoji → the field a task's row reads the date after it in."""
_EMOJI_DATE = re.compile("([" + "".join(EMOJI_DATES) + r"])\ufe0f?[ \t]*+(\d{4}-\d{2}-\d{2})(?!\d)")
TASKS_FIELD = "tasks:{}"
"""The key a task's row holds a field under as the Tasks plugin reads it (`tasks_fields`)."""
PRIORITIES = {"🔺": 0, "⏫": 1, "🔼": 2, "🔽": 4, "⏬": 5}
"""The Tasks plugin's priority emoji → its rank, highest first (none is 3, "normal")."""
NORMAL_PRIORITY = 3
_TRAILING_FIELD = re.compile(
    "(?:([" + "".join(EMOJI_DATES) + r"])\ufe0f?[ \t]*(\d{4}-\d{2}-\d{2})"
    "|([" + "".join(PRIORITIES) + "])\ufe0f?"
    r"|(🔁)\ufe0f?[ \t]*[a-zA-Z0-9, !]+"
    r"|🆔\ufe0f?[ \t]*[\w-]+"
    r"|⛔\ufe0f?[ \t]*[\w-]+(?:[ \t]*,[ \t]*[\w-]+)*"
    r"|🏁\ufe0f?[ \t]*[a-zA-Z]+"
    r"|(?<!\S)#[^\s#]+"
    r"|(?<!\S)\^[\w-]+"
    r")[ \t]*$"
)
"""One of the fields the Tasks plugin reads at the end of a task's line."""
TRAILING_CHARS = 2000
"""How far from a task's end its fields are looked for."""
MAX_TRAILING = 20
"""Fields read at most from a task's end."""


@dataclass(frozen=True)
class Task:
    """A task of a page: the line it is on (from 0), its box's character, its text, and
    the text of the heading it is under ("" above the first)."""

    line: int
    status: str
    text: str
    heading: str = ""


def page_tasks(text: str, limit: int = MAX_TASKS) -> list[Task]:
    """The tasks written in a page's `text` (outside fenced code), in order, at most
    `limit`."""
    tasks: list[Task] = []
    line, counted = 0, 0
    heading = ""
    for start, end in prose_ranges(text):
        headings = _HEADING.finditer(text, start, end)
        above = next(headings, None)
        for found in _TASK.finditer(text, start, end):
            while above is not None and above.start() < found.start():
                heading = above[1]
                above = next(headings, None)
            line += text.count("\n", counted, found.start())
            counted = found.start()
            tasks.append(Task(line, found[1], (found[2] or "").strip(), heading))
            if len(tasks) >= limit:
                return tasks
    return tasks


def task_rows(
    page: FileFacts, frontmatter: Mapping[str, Any], tasks: Sequence[Task]
) -> list[FileFacts]:
    """Each task of `page` as a row a base reads: the page's facts, its frontmatter's
    fields and the task's own (see the module doc); not the inline fields of the page's
    other lines (another task's `due` is not this one's)."""
    inherited = query_fields(frontmatter, "")
    rows = []
    for task in tasks:
        fields: dict[str, Any] = dict(inherited)
        masked = mask_code_spans(task.text)
        for found in _EMOJI_DATE.finditer(masked):
            with contextlib.suppress(ValueError):
                fields[EMOJI_DATES[found[1]]] = date.fromisoformat(found[2])
        for key, start, end in field_values(masked):
            fields[key] = inline_value(task.text[start:end].strip())
        for name, value in tasks_fields(masked).items():
            fields[TASKS_FIELD.format(name)] = value
        fields[TASKS_FIELD.format("heading")] = task.heading
        fields |= {
            "text": task.text,
            "status": task.status,
            "completed": task.status in TASK_STATUSES,
            "fullyCompleted": task.status in TASK_STATUSES,
            "checked": task.status != " ",
            "line": task.line,
            "tags": _TAG.findall(masked),
        }
        rows.append(
            FileFacts(
                page.slug, page.path, fields, page.tags, page.links, page.backlinks, page.file
            )
        )
    return rows


def tasks_fields(text: str) -> dict[str, Any]:
    """The fields the Tasks plugin reads in a task's `text`: its dates by name (`due`,
    …), its `priority` (`PRIORITIES`' rank) and whether it is `recurring`, those in the
    run of fields that ends the line, read from the end (see the module doc)."""
    found: dict[str, Any] = {"priority": NORMAL_PRIORITY, "recurring": False}
    end = len(text.rstrip())
    start = max(0, end - TRAILING_CHARS)
    for _ in range(MAX_TRAILING):
        field = _TRAILING_FIELD.search(text, start, end)
        if field is None:
            break
        if field[1] is not None:
            with contextlib.suppress(ValueError):
                found.setdefault(EMOJI_DATES[field[1]], date.fromisoformat(field[2]))
        elif field[3] is not None:
            found["priority"] = PRIORITIES[field[3]]
        elif field[4] is not None:
            found["recurring"] = True
        end = len(text[: field.start()].rstrip())
    return found


def tasks_markdown(table: BaseTable, names: Mapping[str, str]) -> str:
    """The tasks a query keeps (`table`: a row a task, its cells its box's character, its
    text and, when the query groups them, its group's name), as Dataview shows them:
    under each page's link, in the table's order, the tasks of the page that follow each
    other; grouped, under each group's heading first, as the Tasks plugin shows them."""
    if not table.rows:
        return "*TASK: no task matches.*"
    lines: list[str] = []
    shown: tuple[object, str] | None = None
    for slug, (status, text, *group) in table.rows:
        if group and (shown is None or group[0] != shown[0]):
            lines += [*([""] if lines else []), f"#### {cell_text(group[0])}"]
            shown = None
        if shown is None or slug != shown[1]:
            title = (names.get(slug) or slug).replace("|", "¦").replace("]]", "] ]")
            lines += [*([""] if lines else []), f"**[[{slug}|{title}]]**", ""]
            shown = (group[0] if group else None, slug)
        lines.append(f"- [{status}] {text}")
    if table.total > len(table.rows):
        lines.append(f"\n*{table.total - len(table.rows)} more of {table.total} tasks.*")
    return "\n".join(lines)
