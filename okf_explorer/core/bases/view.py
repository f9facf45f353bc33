"""A base's views run over the pages: which pages a view keeps, in what order, and the
table of their properties it shows.

`read_base` takes the `.base` file's YAML (already loaded, bounded, by the source) and
checks its shape: `filters` (a statement, or `and` / `or` / `not` over a list of
them, nested), `formulas`, `properties` (their `displayName`), `summaries` (formulas over
a column's `values`), `views` (each with `type`, `name`, `filters`, `order`, `sort`,
`limit`, `groupBy`, `summaries`: a column's summary by name, `core.bases.summaries`).
Every expression is parsed then, so an expression okf-explorer cannot read is said at
once (`BaseError`), not found half-way through the pages.

`run_view` keeps the pages both the base's and the view's filters keep, sorted by the
view's `groupBy` then its `sort` (by file name when it states none), at most its
`limit` (and `MAX_ROWS`); its columns are the view's `order` (the file name alone
when it has none). Every view is shown as a table: a `cards`, `list` or `map` view
shows the same rows and columns. A view's summaries are a last row under its table (under
each group's, for a grouped view), over the rows shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from okf_explorer.core.bases.expression import (
    MAX_STEPS,
    Budget,
    Expression,
    ExpressionError,
    FileFacts,
    FileRef,
    Link,
    Scope,
    cell_text,
    is_empty,
    parse_expression,
    truthy,
)
from okf_explorer.core.bases.summaries import summary_value

__all__ = [
    "BASE_SUFFIX",
    "MAX_ROWS",
    "Base",
    "BaseError",
    "BaseTable",
    "View",
    "is_base_name",
    "list_markdown",
    "read_base",
    "run_view",
    "table_markdown",
]

BASE_SUFFIX = ".base"
"""The file suffix of an Obsidian base."""


def is_base_name(name: str) -> bool:
    """Whether a file name (an embed's target) names an Obsidian base (`Books.base`)."""
    return name.lower().endswith(BASE_SUFFIX)


MAX_ROWS = 500
"""Rows a view shows at most (the rest are counted)."""
MAX_FILTERS = 1000
"""Statements a base's filters may hold, nested ones included."""

Filter = tuple[str, tuple[Any, ...]] | Expression
"""A filter: a statement, or (`and` | `or` | `not`, its filters)."""


class BaseError(ValueError):
    """A base okf-explorer cannot read; the message says what and where."""


@dataclass(frozen=True)
class View:
    name: str
    type: str
    filters: Filter | None
    order: tuple[str, ...]
    sort: tuple[tuple[str, bool], ...]
    """(property, descending) pairs, first key first."""
    group: tuple[str, bool] | None
    limit: int | None
    summaries: tuple[tuple[str, str], ...] = ()
    """(property, summary name) pairs: a column's summary under the table."""
    problem: str | None = None
    """Why this view cannot be read (its own fault: the base's other views still show)."""


@dataclass(frozen=True)
class Base:
    filters: Filter | None
    formulas: Mapping[str, Expression]
    names: Mapping[str, str]
    """A property's display name, by property (`note.author` → `Author`)."""
    views: tuple[View, ...]
    summaries: Mapping[str, Expression] = field(default_factory=dict)
    """The base's own summary formulas, by name (their `values`: a column's values)."""

    def view(self, name: str | None) -> View:
        """The view called `name` (any case), or the first one without a name."""
        if name:
            for view in self.views:
                if view.name.casefold() == name.strip().casefold():
                    return view
            raise BaseError(f"no view {name!r} in this base")
        return self.views[0]


@dataclass
class BaseTable:
    """What a view shows: a heading per column, a row per page (its slug and its cells:
    the values as the expressions gave them; the slug `""` for a row that is no page, a
    Dataview query's group), and how many pages it kept in all. Its rows
    in groups: the row each starts at (`starts`; one group when the view does not group
    them), each group's value of the `groupBy` property (`groups`, when the view groups),
    and with summaries, a last row a group (`footers`: a cell a column, `(summary name,
    value)` or None)."""

    view: str
    columns: list[str]
    rows: list[tuple[str, list[Any]]] = field(default_factory=list)
    total: int = 0
    groups: list[Any] | None = None
    starts: list[int] = field(default_factory=lambda: [0])
    footers: list[list[tuple[str, Any] | None]] | None = None
    counted: str = "pages"
    """What its rows are, as the count of those beyond them says (`groups`, a Dataview
    query's)."""


def read_base(data: object) -> Base:
    """A `.base` file's loaded YAML → a `Base`; `BaseError` if its shape is not one."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise BaseError("a base is a mapping of filters, formulas, properties and views")
    counter = [0]
    try:
        filters = _filters(data.get("filters"), "filters", counter)
        formulas = {
            str(name): parse_expression(_expression_text(text, f"formula {name}"))
            for name, text in _mapping(data.get("formulas"), "formulas").items()
        }
        views = tuple(
            _view_or_problem(item, n, counter)
            for n, item in enumerate(_list(data.get("views"), "views"))
        )
        summaries = {
            str(name): parse_expression(_expression_text(text, f"summary {name}"))
            for name, text in _mapping(data.get("summaries"), "summaries").items()
        }
    except ExpressionError as error:
        raise BaseError(str(error)) from None
    names: dict[str, str] = {}
    for key, settings in _mapping(data.get("properties"), "properties").items():
        if isinstance(settings, dict) and isinstance(settings.get("displayName"), str | int):
            names[_qualified(str(key))] = str(settings["displayName"])
    if not views:
        views = (View("Table", "table", None, (), (), None, None),)
    return Base(filters, formulas, names, views, summaries)


def _mapping(value: object, where: str) -> dict[Any, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BaseError(f"{where} is not a mapping")
    return value


def _list(value: object, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise BaseError(f"{where} is not a list")
    return value


def _expression_text(value: object, where: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    raise BaseError(f"{where}: an expression is text")


def _filters(value: object, where: str, counter: list[int]) -> Filter | None:
    if value is None:
        return None
    counter[0] += 1
    if counter[0] > MAX_FILTERS:
        raise BaseError(f"more than {MAX_FILTERS} filters")
    if isinstance(value, list):
        raise BaseError(
            f"{where}: a list of filters goes under `and:` (all must hold) or `or:` (one is enough)"
        )
    if isinstance(value, dict):
        if len(value) != 1 or next(iter(value)) not in {"and", "or", "not"}:
            raise BaseError(f"{where}: a filter is a statement, or and / or / not over a list")
        ((kind, items),) = value.items()
        parts = tuple(
            part
            for n, item in enumerate(_list(items, f"{where}.{kind}"))
            if (part := _filters(item, f"{where}.{kind}[{n}]", counter)) is not None
        )
        return (str(kind), parts)
    try:
        return parse_expression(_expression_text(value, where))
    except ExpressionError as error:
        raise ExpressionError(f"{where}: {error}") from None


def _view_or_problem(data: object, number: int, counter: list[int]) -> View:
    """The view `data`, or one saying why it cannot be read (named as it names itself):
    a base of a dozen views is not lost to one slip in one of them."""
    try:
        return _view(data, number, counter)
    except (BaseError, ExpressionError) as error:
        named = data.get("name") if isinstance(data, dict) else None
        name = str(named or f"View {number + 1}")
        return View(name, "table", None, (), (), None, None, problem=str(error))


def _view(data: object, number: int, counter: list[int]) -> View:
    where = f"views[{number}]"
    if not isinstance(data, dict):
        raise BaseError(f"{where} is not a mapping")
    name = str(data.get("name") or f"View {number + 1}")
    sort: list[tuple[str, bool]] = []
    for item in _list(data.get("sort"), f"{where}.sort"):
        if isinstance(item, dict) and (item.get("property") or item.get("column")):
            key = str(item.get("property") or item.get("column"))
            sort.append((_qualified(key), str(item.get("direction", "ASC")).upper() == "DESC"))
    group = None
    if isinstance(grouping := data.get("groupBy"), dict) and grouping.get("property"):
        descending = str(grouping.get("direction", "ASC")).upper() == "DESC"
        group = (_qualified(str(grouping["property"])), descending)
    limit = data.get("limit")
    summaries = tuple(
        (_qualified(str(key)), str(name))
        for key, name in _mapping(data.get("summaries"), f"{where}.summaries").items()
        if isinstance(name, str) and name.strip()
    )
    return View(
        name=name,
        type=str(data.get("type") or "table"),
        filters=_filters(data.get("filters"), f"{where}.filters", counter),
        order=tuple(_qualified(str(key)) for key in _list(data.get("order"), f"{where}.order")),
        sort=tuple(sort),
        group=group,
        limit=limit
        if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0
        else None,
        summaries=summaries,
    )


def _qualified(key: str) -> str:
    """A property as `note.x`, `file.x` or `formula.x` (`rating` is `note.rating`)."""
    if key.startswith(("note.", "file.", "formula.")):
        return key
    return f"note.{key}"


def _keeps(filters: Filter | None, scope: Scope) -> bool:
    if filters is None:
        return True
    if isinstance(filters, Expression):
        return truthy(filters.evaluate(scope))
    kind, parts = filters
    if kind == "and":
        return all(_keeps(part, scope) for part in parts)
    if kind == "or":
        return any(_keeps(part, scope) for part in parts)
    return not any(_keeps(part, scope) for part in parts)  # not: none of them


def column_value(key: str, scope: Scope) -> Any:
    """Property `key` (`note.x`, `file.x`, `formula.x`) of the scope's row."""
    return _column(key).evaluate(scope)


def _column(key: str) -> Expression:
    """A property (`note.x`, `file.x`, `formula.x`, any name after the dot: `note.Due
    date`, `formula.Cost per use`) as the expression that reads it."""
    prefix, _, name = key.partition(".")
    return Expression(key, ("field", ("name", prefix), name))


def heading(base: Base, key: str) -> str:
    """A column's heading: its display name, else the property's name (`file.name` reads
    `file name`, as Obsidian's tables head it)."""
    if key in base.names:
        return base.names[key]
    prefix, _, name = key.partition(".")
    return f"file {name}" if prefix == "file" else name


def run_view(
    base: Base,
    view: View,
    pages: Mapping[str, FileFacts],
    this: FileFacts | None,
    resolve: Callable[[str, str | None], str | None],
    now: datetime | None = None,
    rows: int | None = MAX_ROWS,
) -> BaseTable:
    """The table `view` shows of `pages`, for a base shown on page `this`, at most `rows`
    rows (None: every page kept, for a Dataview query whose groups or tasks another base
    runs over); `BaseError` when the view cannot be read (`View.problem`) or evaluated."""
    if view.problem is not None:
        raise BaseError(view.problem)
    moment = now or datetime.now()
    budget = Budget(MAX_STEPS)
    kept: list[Scope] = []
    try:
        for facts in pages.values():
            scope = Scope(facts, this, pages, resolve, base.formulas, moment, budget)
            if _keeps(base.filters, scope) and _keeps(view.filters, scope):
                kept.append(scope)
        keys = [*([view.group] if view.group else []), *view.sort] or [("file.name", False)]
        for key, descending in reversed(keys):  # a stable sort per key, the last key first
            values = {id(scope): _sort_key(column_value(key, scope)) for scope in kept}
            kept.sort(key=lambda scope: values[id(scope)], reverse=descending)
        return _table(base, view, kept, rows)
    except ExpressionError as error:
        raise BaseError(f"{view.name}: {error}") from None


def _table(base: Base, view: View, kept: list[Scope], rows: int | None) -> BaseTable:
    """The rows of the pages `kept` (in order), cut at the view's `limit` and `rows`."""
    total = len(kept)
    if view.limit is not None:
        kept = kept[: view.limit]
    columns = list(view.order) or ["file.name"]
    table = BaseTable(view.name, [heading(base, key) for key in columns], total=total)
    if view.group is not None:
        table.groups = []
    shown = kept[:rows]
    for number, scope in enumerate(shown):
        cells = [_shown(key, column_value(key, scope), scope) for key in columns]
        table.rows.append((scope.row.slug, cells))
        if table.groups is not None and view.group is not None:
            group = _shown("", column_value(view.group[0], scope), scope)
            if not table.groups:
                table.groups.append(group)
            elif group != table.groups[-1]:  # as shown: a link as its page
                table.starts.append(number)
                table.groups.append(group)
    if view.summaries and shown:
        table.footers = [
            _footer(base, view, columns, shown[start:end])
            for start, end in zip(table.starts, [*table.starts[1:], len(shown)], strict=True)
        ]
    return table


def _footer(
    base: Base, view: View, columns: list[str], scopes: list[Scope]
) -> list[tuple[str, Any] | None]:
    """A group's summaries (or the table's), a cell a column (None: no summary there)."""
    wanted = dict(view.summaries)
    cells: list[tuple[str, Any] | None] = []
    for key in columns:
        name = wanted.get(key)
        if name is None:
            cells.append(None)
            continue
        values = [column_value(key, scope) for scope in scopes]
        cells.append((name, summary_value(name, values, base.summaries, scopes[0])))
    return cells


def _shown(key: str, value: Any, scope: Scope) -> Any:
    """A cell's value as the table shows it: the file name as the row's page (a link
    named as the page is), a link as the page it leads to when it leads to one."""
    if key == "file.name":
        return FileRef(scope.row.slug)
    if isinstance(value, list):
        return [_shown("", item, scope) for item in value]
    if isinstance(value, Link) and (slug := scope.slug_of(value)) is not None:
        return FileRef(slug) if value.display is None else Link(slug, value.display)
    return value


def _sort_key(value: Any) -> tuple[int, Any]:
    """Values in one order: numbers, then dates, then text (case-folded); nothing last."""
    if is_empty(value):
        return (3, "")
    if isinstance(value, bool):
        return (0, int(value))
    if isinstance(value, int | float):
        return (0, value)
    if hasattr(value, "isoformat"):
        return (1, value.isoformat())
    return (2, cell_text(value).casefold())


def table_markdown(table: BaseTable, names: Mapping[str, str]) -> str:
    """`table` as a Markdown table: a page as a wiki-link by its name (`names`: a page's
    title by slug), a link as a wiki-link, `|` escaped; a row whose first cell is no link
    gets one to its page; the pages kept beyond its rows counted under it. A grouped view
    is a table a group, each under a line naming the group and its rows (`**Fiction** ·
    2`, `**(none)**` for the rows without a value), as Obsidian heads its groups."""
    if not table.rows:
        return f"*{_escape(table.view)}: no page matches.*"
    head = [_row([_escape(c) for c in table.columns]), _row(["---"] * len(table.columns))]
    parts: list[list[str]] = []
    ends = [*table.starts[1:], len(table.rows)]
    for part, (start, end) in enumerate(zip(table.starts, ends, strict=True)):
        lines = []
        if table.groups is not None:
            group = _cell(table.groups[part], names)
            lines += [f"**{group or '(none)'}** · {end - start}", ""]
        lines += head
        for slug, cells in table.rows[start:end]:
            texts = [_cell(value, names) for value in cells]
            if slug and not texts[0].startswith("[["):  # its page is reached by its first cell
                texts[0] = f"[[{slug}\\|{_alias(cell_text(cells[0]) or names.get(slug, slug))}]]"
            lines.append(_row(texts))
        if table.footers is not None:
            lines.append(_row([_summary(cell) for cell in table.footers[part]]))
        parts.append(lines)
    lines = "\n\n".join("\n".join(part) for part in parts)
    shown = len(table.rows)
    if table.total > shown:
        lines += f"\n\n*{table.total - shown} more of {table.total} {table.counted}.*"
    return lines


def list_markdown(table: BaseTable, names: Mapping[str, str], without_id: bool = False) -> str:
    """`table` as a Markdown list, as Dataview shows a `LIST`: an item a row, its first
    cell (its page, or a group's key), then `: ` and its second cell's value when it has
    one (`-` for none, as Dataview shows nothing); `without_id`, the value alone. The
    pages kept beyond its rows are counted under it."""
    if not table.rows:
        return f"*{_escape(table.view)}: no page matches.*"
    lines = []
    for _, cells in table.rows:
        texts = [_cell(value, names) for value in cells]
        if without_id and len(texts) > 1:
            lines.append(f"- {texts[1] or ' '}")
        elif len(texts) > 1:
            lines.append(f"- {texts[0] or '-'}: {texts[1] or '-'}")  # `-`: no value, no key
        else:
            lines.append(f"- {texts[0] or '-'}")
    shown = len(table.rows)
    if table.total > shown:
        lines.append(f"\n*{table.total - shown} more of {table.total} {table.counted}.*")
    return "\n".join(lines)


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cell or " " for cell in cells) + " |"


_MARKS = re.compile(r"([\\`*_\[\]<>$~=%#|])")
"""What a cell's text escapes: Markdown's marks and the page's own (`==`, `%%`, `$`, `#`
tags), so a property's value reads as written, as Obsidian's table shows it."""


def _escape(text: str) -> str:
    """Text that stays one cell's plain text: no row break, no column bar, no markup."""
    return _MARKS.sub(r"\\\1", text.replace("\n", " "))


def _alias(text: str) -> str:
    """A wiki-link's shown name as the table's cell holds it: its bar escaped (a table's
    `\\|`), nothing that would end the link."""
    text = text.replace("\n", " ").replace("|", "\\|")
    return text.replace("[[", "[ [").replace("]]", "] ]")


def _summary(cell: tuple[str, Any] | None) -> str:
    """A summary's cell: its name in italics, then its value (`*Average* 4.5`)."""
    if cell is None:
        return ""
    name, value = cell
    return f"*{_escape(name)}* {_escape(cell_text(value))}".rstrip()


def _cell(value: Any, names: Mapping[str, str]) -> str:
    if isinstance(value, list):
        return ", ".join(_cell(item, names) for item in value)
    if isinstance(value, FileRef):
        name = names.get(value.slug) or value.slug.rpartition("/")[2]
        return f"[[{value.slug}\\|{_alias(name)}]]"
    if isinstance(value, Link):
        shown = value.display or value.target.rpartition("/")[2]
        return f"[[{_alias(value.target)}\\|{_alias(shown)}]]"
    return _escape(cell_text(value))
