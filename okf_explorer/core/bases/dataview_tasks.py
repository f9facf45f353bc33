"""The rows of a Dataview `TASK` query: each task of the pages its `FROM` keeps, a row a
base reads (`core.bases.dataview_query`), shown as Dataview shows them, under their page.

A task is a list item with a box, outside code (`- [ ] Call Ada`, `* [x] …`, `1. [>] …`).
A task's row reads its page's frontmatter fields (Dataview's tasks inherit their page's) and
its own: `text` (after the box), `status` (the box's character), `completed` (`x` or `X`;
also `fullyCompleted`: subtasks are not read apart), `checked` (any character but a space),
`line` (from 0, in the text after the frontmatter), `tags` (the `#tags` in its text) and the
inline fields written in it (`[due:: 2024-05-01]`, typed as Dataview types them). Its
`file.…` fields are its page's.

Bounded: at most `MAX_TASKS` tasks are read (of the pages in order; the rest counted).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from okf_explorer.core.bases.expression import FileFacts
from okf_explorer.core.bases.view import BaseTable
from okf_explorer.core.dataview import inline_value, query_fields
from okf_explorer.core.links.fields import field_values
from okf_explorer.core.links.grammar import mask_code_spans, prose_ranges

__all__ = ["MAX_TASKS", "TASK_STATUSES", "Task", "page_tasks", "task_rows", "tasks_markdown"]

MAX_TASKS = 20_000
"""Tasks a query reads at most."""
TASK_STATUSES = {"x", "X"}
"""The box characters of a completed task."""

_TASK = re.compile(r"^[ \t>]*+(?:[-*+]|\d{1,9}[.)])[ \t]++\[(.)\](?:[ \t]++(.*))?$", re.MULTILINE)
_TAG = re.compile(r"(?<![\w#])#[^\s#,.;:!?()\[\]{}\"']+")


@dataclass(frozen=True)
class Task:
    """A task of a page: the line it is on (from 0), its box's character, its text."""

    line: int
    status: str
    text: str


def page_tasks(text: str, limit: int = MAX_TASKS) -> list[Task]:
    """The tasks written in a page's `text` (outside fenced code), in order, at most
    `limit`."""
    tasks: list[Task] = []
    line, counted = 0, 0
    for start, end in prose_ranges(text):
        for found in _TASK.finditer(text, start, end):
            line += text.count("\n", counted, found.start())
            counted = found.start()
            tasks.append(Task(line, found[1], (found[2] or "").strip()))
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
        for key, start, end in field_values(masked):
            fields[key] = inline_value(task.text[start:end].strip())
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


def tasks_markdown(table: BaseTable, names: Mapping[str, str]) -> str:
    """The tasks a query keeps (`table`: a row a task, its cells its box's character and
    its text), as Dataview shows them: under each page's link, in the table's order,
    the tasks of the page that follow each other."""
    if not table.rows:
        return "*TASK: no task matches.*"
    lines: list[str] = []
    shown = None
    for slug, (status, text) in table.rows:
        if slug != shown:
            title = (names.get(slug) or slug).replace("|", "¦").replace("]]", "] ]")
            lines += [*([""] if lines else []), f"**[[{slug}|{title}]]**", ""]
            shown = slug
        lines.append(f"- [{status}] {text}")
    if table.total > len(table.rows):
        lines.append(f"\n*{table.total - len(table.rows)} more of {table.total} tasks.*")
    return "\n".join(lines)
