"""A Dataview query block (```` ```dataview ````) read as the base it means: a `LIST` or a
`TABLE` of the pages a `FROM` names, kept by `WHERE`, in `SORT` order, at most `LIMIT`, or
grouped (`GROUP BY`); or a `TASK` query, the tasks of those pages.

Dataview (one of Obsidian's most installed plugins) runs such a block and shows its
result where it is written: a list of links, a table of the pages' fields, their tasks.
Without it a vault's index and hub pages are screens of query code. okf-explorer reads the
part of the query language a base can say (`core.bases`), and leaves any other block as it
is written (code), so a query is never shown half understood:

- `LIST [WITHOUT ID] [expression]` and `TABLE [WITHOUT ID] expression [AS "name"], …`;
- `TASK` (`core.bases.dataview_tasks`: a task's row reads its own fields and its page's);
- `FROM`: `#tag` (and the tags nested under it), `"folder"` (or `"folder/page"`),
  `[[page]]` (the pages linking to it; `[[]]` or `[[#]]` this page), `outgoing([[page]])`
  (the pages it links to), joined by `and` / `or`, negated by `-` or `!`, grouped by
  parentheses;
- `WHERE expression` (several must all hold), `SORT expression [ASC|DESC], …` (with
  none, by file name, as a base), `LIMIT n` (after any `SORT`);
- `GROUP BY expression [AS name]` (`_stages`): a row a group, which reads `key` and `rows`
  (a task query's `GROUP BY file.link` only, how its tasks are shown anyway);
- in expressions: a page's fields (frontmatter, then inline `key:: value`), `file.name`,
  `file.link`, `file.path`, `file.folder`, `file.ext`, `file.size`, `file.tags`,
  `file.outlinks`, `file.inlinks`, `file.mtime`, `file.ctime`, `file.mday`, `file.cday`
  (`FILE_FIELDS`), a row's `file.day` (`FILE_DAY`), `this.…`
  (the page holding the query); `=`, `!=`, `<`, `<=`, `>`, `>=`, `+`, `-`, `*`, `/`,
  `%`, `and` (`&`), `or` (`|`), `!`; strings, numbers, `true`, `false`, `null`,
  `[[links]]`; the functions of `FUNCTIONS`, `date(…)`, `dur(…)` and `dateformat(…)`.

Refused (`QueryRefused`, which says what): `CALENDAR` queries, `FLATTEN`, any other
function or `file.` field, a date's field a base has not (`LUXON_FIELDS`), and anything
not read above.

A query is at most `MAX_QUERY_CHARS` characters and nests at most `MAX_DEPTH` deep; each
expression is then bounded as a base's is (`core.bases.expression`).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from okf_explorer.core.bases.expression import (
    MAX_DEPTH,
    ExpressionError,
    FileFacts,
    FileRef,
    cell_text,
    lex,
)
from okf_explorer.core.bases.view import Base, BaseError, BaseTable, read_base

__all__ = [
    "FILE_FIELDS",
    "FUNCTIONS",
    "MAX_QUERY_CHARS",
    "QUERIES_KEPT",
    "DataviewQuery",
    "OverPages",
    "QueryRefused",
    "as_groups",
    "group_pages",
    "read_query",
    "task_query",
]

QUERIES_KEPT = 256
"""Query texts kept read (`read_query`): at most 4,000 characters each."""
MAX_QUERY_CHARS = 4000
"""Characters a query may hold (the longest of the Dataview example vault's 236 holds 477)."""

FILE_FIELDS = {
    "name": "file.basename",
    "link": "file",
    "path": "file.path",
    "folder": "file.folder",
    "ext": "file.ext",
    "size": "file.size",
    "tags": 'file.tags.map("#" + value)',
    "etags": 'file.tags.map("#" + value)',
    "outlinks": "file.links",
    "inlinks": "file.backlinks",
    "mtime": "file.mtime",
    "ctime": "file.ctime",
    "mday": "file.mtime.date()",
    "cday": "file.ctime.date()",
}
"""Dataview's `file.X` read, as the base expression that reads it (Dataview's `file.name`
is the name without `.md`, a base's `file.basename`; its tags keep their `#`)."""

LUXON_FIELDS = {
    "weekyear",
    "weeknumber",
    "weekday",
    "ordinal",
    "quarter",
    "millisecond",
    "zone",
    "zonename",
    "offset",
    "ts",
    "daysinmonth",
    "daysinyear",
    "isinleapyear",
    "monthlong",
    "monthshort",
    "weekdaylong",
    "weekdayshort",
}
"""A Dataview date's fields (Luxon's) that a base's date has not (it reads `year`,
`month`, `day`, `hour`, `minute`, `second`)."""

FILE_DAY = '(if(note["date"], date(note["date"]), date(file.basename)).date())'
"""Dataview's `file.day` of the page a row is: its `date` field, else the date its file
name starts with (`2024-05-01 Standup`), else null."""

FUNCTIONS = {
    "contains": "({0}).contains({1})",
    "econtains": "({0}).contains({1})",
    "icontains": "({0}).toString().lower().contains(({1}).toString().lower())",
    "startswith": "({0}).startsWith({1})",
    "endswith": "({0}).endsWith({1})",
    "length": "({0}).length",
    "lower": "({0}).lower()",
    "upper": "({0}).upper()",
    "round": "({0}).round({1})",
    "join": "({0}).join({1})",
    "choice": "if({0}, {1}, {2})",
    "default": "if(({0}).isEmpty(), {1}, {0})",
    "number": "number({0})",
    "string": "({0}).toString()",
    "reverse": "({0}).reverse()",
    "trim": "({0}).trim()",
    "link": "link({0})",
    "min": "min({0}, {1})",
    "max": "max({0}, {1})",
}
"""Dataview's functions read, as base expressions of their arguments (`{0}` the first):
each takes exactly the arguments its pattern names, but for `round` and `join`, whose
last one may be left out (`ARGUMENT_DEFAULTS`). `date(today)` (`DAYS`), `date("2024-05-01")`,
`dur(90 days)` (`UNITS`) and `dateformat(d, "yyyy-MM")` (`DATE_TOKENS`) are read too."""

ARGUMENT_DEFAULTS = {"round": "0", "join": '", "'}

DAYS = {
    "today": "today()",
    "now": "now()",
    "tomorrow": '(today() + "1 days")',
    "yesterday": '(today() - "1 days")',
}
"""The days `date(…)` names, as base expressions."""

DATE_TOKENS = {"yyyy": "YYYY", "MM": "MM", "dd": "DD", "HH": "HH", "mm": "mm", "ss": "ss"}
"""`dateformat`'s tokens read (Luxon's), as a base's `format` writes them."""

UNITS = {
    **dict.fromkeys(["s", "sec", "secs", "second", "seconds"], "seconds"),
    **dict.fromkeys(["m", "min", "mins", "minute", "minutes"], "minutes"),
    **dict.fromkeys(["h", "hr", "hrs", "hour", "hours"], "hours"),
    **dict.fromkeys(["d", "day", "days"], "days"),
    **dict.fromkeys(["w", "wk", "wks", "week", "weeks"], "weeks"),
    **dict.fromkeys(["mo", "month", "months"], "months"),
    **dict.fromkeys(["yr", "yrs", "year", "years"], "years"),
}
"""The units of Dataview's `dur(…)`, as a base names them (a month 30 days, a year 365)."""

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<string>"(?:[^"\\\n]|\\.)*")
    | (?P<link>\[\[[^\[\]\n]*\]\])
    | (?P<tag>\#[^\s,()"#\[\]]+)
    | (?P<number>\d+(?:\.\d+)?)
    | (?P<name>[^\W\d][\w-]*)
    | (?P<op>!=|<=|>=|==|[=<>+\-*/%!&|().,\[\]])
    )""",
    re.VERBOSE,
)
_BASE_NAME = re.compile(r"[A-Za-z_$][\w$]*", re.ASCII)
"""A name a base's expression reads as it is written."""
_CLAUSES = {"from", "where", "sort", "limit", "group", "flatten"}
Token = tuple[str, str]


class QueryRefused(ValueError):
    """A query okf-explorer does not read; the message says what (the block stays code)."""


@dataclass(frozen=True)
class DataviewQuery:
    """A query read: the base that runs it over the pages, whether it is a list (else a
    table), whether its rows leave out their page (`WITHOUT ID`), and, when it groups
    them (`GROUP BY`), the base run over the groups (`group_pages`): the pages' base
    then gives each page and its key."""

    base: Base
    listed: bool
    without_id: bool
    groups: Base | None = None
    tasks: Base | None = None
    """A `TASK` query's base over the tasks of the pages `base` keeps
    (`core.bases.dataview_tasks`): its columns a task's box and text."""


def read_query(text: str) -> DataviewQuery:
    """A ```` ```dataview ```` block's text → the query it is; `QueryRefused` says why
    not (see the module doc). Each text is read once (`_read`): the page's parser reads it
    to tell a query from code, the worker that runs it reads it again, and so does each
    page drawn anew."""
    read = _read(text)
    if isinstance(read, QueryRefused):
        raise QueryRefused(str(read))  # a fresh one: a kept one raised again grows its traceback
    return read


@functools.lru_cache(maxsize=QUERIES_KEPT)
def _read(text: str) -> DataviewQuery | QueryRefused:
    try:
        return _query(text)
    except QueryRefused as refused:
        return refused


def _query(text: str) -> DataviewQuery:
    if len(text) > MAX_QUERY_CHARS:
        raise QueryRefused(f"a query over {MAX_QUERY_CHARS:,} characters")
    tokens = _tokens(text)
    if _deepest(tokens) > MAX_DEPTH:
        raise QueryRefused(f"a query nested more than {MAX_DEPTH} deep")
    if not tokens or tokens[0][0] != "name":
        raise QueryRefused("a query starts with LIST, TABLE or TASK")
    kind = tokens[0][1].lower()
    if kind == "calendar":
        raise QueryRefused("CALENDAR queries are not read")
    if kind not in {"list", "table", "task"}:
        raise QueryRefused("a query starts with LIST, TABLE or TASK")
    at = 1
    without_id = _words(tokens, at, "without", "id")
    if without_id:
        at += 2
    pages, after = _stages(kind, without_id, _clauses(tokens, at))
    later = after.base() if after is not None else None
    if kind == "task":
        return DataviewQuery(pages.base(), False, False, tasks=later)
    return DataviewQuery(pages.base(), kind == "list", without_id, groups=later)


def task_query(
    filters: Sequence[str],
    sort: Sequence[tuple[str, bool]] = (),
    limit: int | None = None,
    group: tuple[str, str] | None = None,
) -> DataviewQuery:
    """A `TASK` query over every page's tasks: kept by each of `filters` (a base's
    expressions over a task's row), in `sort` order (an expression, and whether it runs
    from the largest), then by page and line, at most `limit`; `group`: the expressions
    of a task's group's name (a third column, `dataview_tasks.tasks_markdown`) and of
    the groups' order, which comes first. How the Tasks plugin's blocks are run
    (`core.bases.tasks_query`)."""
    pages = _Stage("TASK")
    pages.column("page", "file", "File")
    tasks = _task_stage()
    tasks.filters.extend(filters)
    if group is not None:
        tasks.column("group", group[0], "group")
        tasks.formulas["g"] = group[1]
        tasks.sort.append({"property": "formula.g", "direction": "ASC"})
    for number, (expression, descending) in enumerate(sort, start=1):
        tasks.formulas[f"s{number}"] = expression
        direction = "DESC" if descending else "ASC"
        tasks.sort.append({"property": f"formula.s{number}", "direction": direction})
    for formula in ("path", "line"):
        tasks.sort.append({"property": f"formula.{formula}", "direction": "ASC"})
    tasks.limit = limit
    return DataviewQuery(pages.base(), False, False, tasks=tasks.base())


def _tokens(text: str) -> list[Token]:
    try:
        return lex(text, _TOKEN)
    except ExpressionError as error:
        raise QueryRefused(str(error)) from None


def _deepest(tokens: list[Token]) -> int:
    """How deeply the query's parentheses and brackets nest (each level is a call of the
    translation into a base's expression)."""
    depth = deepest = 0
    for kind, value in tokens:
        if kind == "op" and value in "([":
            depth += 1
            deepest = max(deepest, depth)
        elif kind == "op" and value in ")]":
            depth -= 1
    return deepest


def _string(written: str) -> str:
    """A string as written (`"a \\"b\\""`) → its text."""
    try:
        text = json.loads(written)
    except ValueError:
        raise QueryRefused(f"cannot read the string {written[:40]}") from None
    return str(text)


def _words(tokens: list[Token], at: int, *words: str) -> bool:
    """Whether the tokens from `at` are these words (any case)."""
    found = [value.lower() for kind, value in tokens[at : at + len(words)] if kind == "name"]
    return found == list(words)


def _clauses(tokens: list[Token], at: int) -> list[tuple[str, list[Token]]]:
    """The query's parts in order: ("fields", …) then ("from" | "where" | "sort" |
    "limit", …), each with its tokens. A clause word inside parentheses is a field."""
    clauses: list[tuple[str, list[Token]]] = [("fields", [])]
    depth = 0
    for kind, value in tokens[at:]:
        if kind == "op" and value in "([":
            depth += 1
        elif kind == "op" and value in ")]":
            depth -= 1
        if kind == "name" and depth == 0 and value.lower() in _CLAUSES:
            word = value.lower()
            if word == "flatten":
                raise QueryRefused("FLATTEN is not read")
            clauses.append((word, []))
            continue
        if _by(clauses, kind, value):
            continue  # `SORT BY x` is `SORT x`
        clauses[-1][1].append((kind, value))
    return clauses


def _by(clauses: list[tuple[str, list[Token]]], kind: str, value: str) -> bool:
    """Whether this is the `BY` of `SORT BY` (read as `SORT`, as Dataview reads it)."""
    clause, tokens = clauses[-1]
    return clause == "sort" and not tokens and kind == "name" and value.lower() == "by"


@dataclass
class _Stage:
    """One base of a query: over the pages, or (after `GROUP BY`) over the groups."""

    name: str
    keys: frozenset[str] | None = None
    """The names of a group's key, when it runs over groups (`_expression`)."""
    formulas: dict[str, str] = field(default_factory=dict)
    names: dict[str, dict[str, str]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    filters: list[str] = field(default_factory=list)
    sort: list[dict[str, str]] = field(default_factory=list)
    limit: int | None = None

    def column(self, formula: str, expression: str, name: str) -> None:
        self.formulas[formula] = expression
        self.names[f"formula.{formula}"] = {"displayName": name}
        self.order.append(f"formula.{formula}")

    def where(self, tokens: list[Token]) -> None:
        if self.limit is not None or self.sort:
            raise QueryRefused("a WHERE after SORT or LIMIT is not read")
        self.filters.append(_expression(tokens, self.keys))

    def sort_by(self, tokens: list[Token]) -> None:
        if self.limit is not None:
            raise QueryRefused("a SORT after LIMIT is not read")
        for parts in _split(tokens, ","):
            descending = parts[-1][1].lower() in {"desc", "descending"}
            if parts[-1][1].lower() in {"asc", "ascending", "desc", "descending"}:
                parts = parts[:-1]
            formula = f"s{len(self.sort) + 1}"
            self.formulas[formula] = _expression(parts, self.keys)
            self.sort.append(
                {"property": f"formula.{formula}", "direction": "DESC" if descending else "ASC"}
            )

    def limit_to(self, tokens: list[Token]) -> None:
        if len(tokens) != 1 or tokens[0][0] != "number" or "." in tokens[0][1]:
            raise QueryRefused("LIMIT takes a whole number")
        self.limit = int(tokens[0][1])

    def base(self) -> Base:
        """The base this stage says; `QueryRefused` if it cannot be read."""
        view: dict[str, Any] = {"name": self.name, "order": self.order, "sort": self.sort}
        if self.limit is not None:
            view["limit"] = self.limit
        data: dict[str, Any] = {"formulas": self.formulas, "properties": self.names}
        data["views"] = [view]
        if self.filters:
            data["filters"] = {"and": self.filters}
        try:
            base = read_base(data)
        except BaseError as error:
            raise QueryRefused(str(error)) from None
        if base.views[0].problem is not None:
            raise QueryRefused(base.views[0].problem)
        return base


def _stages(
    kind: str, without_id: bool, clauses: list[tuple[str, list[Token]]]
) -> tuple[_Stage, _Stage | None]:
    """The bases the query's clauses say: over the pages; then over their groups when it
    groups them (`GROUP BY`; the pages' base then gives each page's key, its second
    column), or over their tasks (`TASK`: `_task_stage`)."""
    pages = _Stage(kind.upper())
    pages.column("page", "file", "File")
    tasks = _task_stage() if kind == "task" else None
    after = tasks
    for number, (clause, tokens) in enumerate(clauses[1:], start=1):
        stage = after or pages
        if clause == "from":
            if number != 1:
                raise QueryRefused("FROM comes once, first")
            pages.filters.append(_source(tokens))
        elif clause == "where":
            stage.where(tokens)
        elif clause == "sort":
            stage.sort_by(tokens)
        elif clause == "limit":
            stage.limit_to(tokens)
        elif kind == "task":  # GROUP BY file.link: how the tasks are shown anyway
            if [value.lower() for _, value in tokens] != BY_PAGE:
                raise QueryRefused("a TASK query is grouped by file.link alone")
        else:
            if after is not None or pages.limit is not None:
                raise QueryRefused("GROUP BY comes once, before any LIMIT")
            if len(tokens) < 2 or tokens[0][1].lower() != "by":
                raise QueryRefused("GROUP is followed by BY and what to group by")
            key, name = _named(tokens[1:])
            pages.column("key", key, name)
            after = _Stage(kind.upper(), keys=frozenset({"key", name.lower()}))
            after.column("key", 'note["key"]', name)
    fields = _split(clauses[0][1], ",") if clauses[0][1] else []
    if tasks is not None:
        if fields:
            raise QueryRefused("a TASK query shows no expression")
        for formula in ("path", "line"):  # the tasks of a page together, in its order
            tasks.sort.append({"property": f"formula.{formula}", "direction": "ASC"})
        return pages, tasks
    if kind == "list" and len(fields) > 1:
        raise QueryRefused("a LIST shows one expression")
    shown = after or pages
    if without_id and kind == "table":
        shown.order.clear()
    if after is not None and kind == "list" and not fields:
        fields = [[("name", "rows"), ("op", "."), ("name", "file"), ("op", "."), ("name", "link")]]
    for number, parts in enumerate(fields, start=1):
        shown.column(f"c{number}", *_named(parts, shown.keys))
    if after is not None and not after.sort:  # by their key, as Dataview lists them
        after.sort.append({"property": "formula.key", "direction": "ASC"})
    return pages, after


BY_PAGE = ["by", "file", ".", "link"]
"""`GROUP BY file.link`, the one grouping of tasks read: how they are shown anyway."""


def _task_stage() -> _Stage:
    """A `TASK` query's base over the tasks of the pages it keeps: its columns a task's
    box and text; kept by the query's `WHERE`, in its `SORT` order, then by page and line,
    at most its `LIMIT`. A task's row reads its page's fields and its own
    (`core.bases.dataview_tasks`)."""
    tasks = _Stage("TASK")
    tasks.column("status", 'note["status"]', "status")
    tasks.column("text", 'note["text"]', "text")
    tasks.formulas |= {"path": "file.path", "line": 'note["line"]'}
    return tasks


GROUP_PAGE = "\x00group/"
"""How a group's slug starts, as `group_pages` gives it (no page's slug holds a NUL)."""


def group_pages(table: BaseTable, pages: Mapping[str, FileFacts]) -> Mapping[str, FileFacts]:
    """The groups of the pages `table` keeps (its rows: a page, then its key: the query's
    pages' base), each a page a base reads, whose properties are its `key` and its `rows`
    (the pages, in the table's order). The pages are found by slug too (a group's
    `rows.author`), but only the groups are run over. `table` holds every page kept
    (`run_view`'s `rows=None`): a group of the pages shown would be half counted."""
    found: dict[tuple[str, str], tuple[Any, list[FileRef]]] = {}
    for slug, cells in table.rows:
        key = cells[1]
        group = found.setdefault((type(key).__name__, cell_text(key)), (key, []))
        group[1].append(FileRef(slug))
    groups = {
        f"{GROUP_PAGE}{number}": FileFacts(f"{GROUP_PAGE}{number}", "", {"key": key, "rows": rows})
        for number, (key, rows) in enumerate(found.values())
    }
    return OverPages(groups, pages)


def as_groups(table: BaseTable) -> BaseTable:
    """The table a base run over `group_pages` gave, its rows no page's (slug `""`)."""
    table.rows = [("", cells) for _, cells in table.rows]
    table.counted = "groups"
    return table


class OverPages(Mapping[str, FileFacts]):
    """Rows that are no pages (a query's groups, or its tasks), which a base runs over
    (iterated), with the pages they name (found by slug too)."""

    def __init__(self, groups: dict[str, FileFacts], pages: Mapping[str, FileFacts]) -> None:
        self._groups, self._pages = groups, pages

    def __getitem__(self, slug: str) -> FileFacts:
        return self._groups[slug] if slug in self._groups else self._pages[slug]

    def __iter__(self) -> Iterator[str]:
        return iter(self._groups)

    def __len__(self) -> int:
        return len(self._groups)


def _split(tokens: list[Token], separator: str) -> list[list[Token]]:
    """`tokens` cut at each `separator` outside parentheses and brackets."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for kind, value in tokens:
        if kind == "op" and value in "([":
            depth += 1
        elif kind == "op" and value in ")]":
            depth -= 1
        if kind == "op" and value == separator and depth == 0:
            parts.append([])
            continue
        parts[-1].append((kind, value))
    if any(not part for part in parts):
        raise QueryRefused(f"an empty expression before or after {separator!r}")
    return parts


def _named(tokens: list[Token], keys: frozenset[str] | None = None) -> tuple[str, str]:
    """A column: `expression [AS name]` → (the base expression, the column's name: the
    one given, else the expression as written); `keys` as `_expression`'s."""
    name = None
    if len(tokens) >= 3 and tokens[-2][0] == "name" and tokens[-2][1].lower() == "as":
        kind, value = tokens[-1]
        name = _string(value) if kind == "string" else value
        tokens = tokens[:-2]
    written = " ".join(value for _, value in tokens)
    written = re.sub(r" ?([.(\[]) ?", r"\1", written).replace(" )", ")").replace(" ,", ",")
    return _expression(tokens, keys), name or written


def _source(tokens: list[Token]) -> str:
    """A FROM clause → the base expression that keeps its pages."""
    parts: list[str] = []
    at = 0
    while at < len(tokens):
        kind, value = tokens[at]
        lowered = value.lower()
        if kind == "name" and lowered in {"and", "or"}:
            parts.append("&&" if lowered == "and" else "||")
        elif kind == "op" and value in {"&", "|"}:
            parts.append(value * 2)
        elif kind == "op" and value in {"-", "!", "(", ")"}:
            parts.append("!" if value in "-!" else value)
        elif kind == "tag":
            parts.append(f"file.hasTag({json.dumps(value[1:])})")
        elif kind == "string":
            place = _string(value).strip("/")
            if place.endswith(".md"):
                place = place[:-3]
            quoted = json.dumps(place)
            parts.append(f"(file.inFolder({quoted}) || file.path == {json.dumps(place + '.md')})")
        elif kind == "link":
            parts.append(f"file.hasLink({_link(value)})")
        elif kind == "name" and lowered == "outgoing" and _call_of_link(tokens, at):
            parts.append(f"file.backlinks.contains({_link(tokens[at + 2][1])})")
            at += 3
        else:
            raise QueryRefused(f"FROM does not read {value!r}")
        at += 1
    if not parts:
        raise QueryRefused("FROM names no source")
    return " ".join(parts)


def _call_of_link(tokens: list[Token], at: int) -> bool:
    """Whether `outgoing([[x]])` starts at `at`."""
    shape = [kind if kind != "op" else value for kind, value in tokens[at + 1 : at + 4]]
    return shape == ["(", "link", ")"]


def _link(written: str) -> str:
    """`[[page|shown]]` → `link("page")`; `[[]]` and `[[#…]]`, this page → `this`."""
    target = written[2:-2].split("|")[0].split("#")[0].strip()
    return f"link({json.dumps(target)})" if target else "this"


def _expression(tokens: list[Token], keys: frozenset[str] | None = None) -> str:
    """A Dataview expression → the base expression that computes it; with `keys`, after
    a `GROUP BY`: over a group, whose names are `rows` and its key (`key`, `row.key`, or
    any of `keys`)."""
    out: list[str] = []
    at = 0
    while at < len(tokens):
        kind, value = tokens[at]
        following = tokens[at + 1][1] if at + 1 < len(tokens) else ""
        if kind == "name" and out and out[-1] == ".":  # a field of what came before
            if following == "(":
                raise QueryRefused(f"a method .{value}() is not read")
            out[-1] = _rest([value])
            at += 1
            continue
        if kind == "name" and following == "(" and value.lower() not in {"and", "or"}:
            end = _closing(tokens, at + 1)
            out.append(_call(value, tokens[at + 2 : end], keys))
            at = end + 1
            continue
        if kind == "name":
            path, at = _path(tokens, at, keys)
            out.append(path)
            continue
        if kind == "link":
            out.append(_link(value))
        elif kind == "tag":
            raise QueryRefused(f"a tag {value} in an expression is not read")
        elif kind == "op" and value in {"=", "&", "|"}:
            out.append({"=": "==", "&": "&&", "|": "||"}[value])
        else:
            out.append(value)
        at += 1
    if not out:
        raise QueryRefused("an empty expression")
    return " ".join(out)


def _closing(tokens: list[Token], opening: int) -> int:
    """Where the parenthesis at `opening` closes."""
    depth = 0
    for at in range(opening, len(tokens)):
        if tokens[at] == ("op", "("):
            depth += 1
        elif tokens[at] == ("op", ")"):
            depth -= 1
            if depth == 0:
                return at
    raise QueryRefused("a parenthesis is not closed")


def _call(name: str, arguments: list[Token], keys: frozenset[str] | None) -> str:
    """A function call → the base expression (see `FUNCTIONS`)."""
    lowered = name.lower()
    parts = _split(arguments, ",") if arguments else []
    if lowered == "date" and len(parts) == 1:
        (only,) = parts
        if len(only) == 1 and only[0][0] == "name" and only[0][1].lower() in DAYS:
            return DAYS[only[0][1].lower()]
        return f"date({_expression(only, keys)})"
    if lowered == "dur" and len(parts) == 1:
        return _duration(parts[0])
    if lowered == "dateformat" and len(parts) == 2:
        return f"({_expression(parts[0], keys)}).format({_date_pattern(parts[1])})"
    pattern = FUNCTIONS.get(lowered)
    if pattern is None:
        raise QueryRefused(f"Dataview's {name}() is not read")
    wanted = len(set(re.findall(r"\{(\d)\}", pattern)))
    texts = [_expression(part, keys) for part in parts]
    if len(texts) == wanted - 1 and lowered in ARGUMENT_DEFAULTS:
        texts.append(ARGUMENT_DEFAULTS[lowered])
    if len(texts) != wanted:
        raise QueryRefused(f"{name}() takes {wanted} arguments here")
    return pattern.format(*texts)


def _duration(tokens: list[Token]) -> str:
    """`dur(90 days)`, `dur(2h)`, `dur("1 week")` → the span as a base reads one after
    a date's `+` or `-` (`"90 days"`): one amount of one unit of `UNITS`."""
    written = " ".join(_string(value) if kind == "string" else value for kind, value in tokens)
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*", written.lower())
    if found is None or found[2] not in UNITS:
        raise QueryRefused(f"dur({written}) is not read: one amount of one unit is")
    return json.dumps(f"{found[1]} {UNITS[found[2]]}")


def _date_pattern(tokens: list[Token]) -> str:
    """`dateformat`'s pattern (Luxon's tokens: `"yyyy-MM"`) as a base's `format` takes it
    (`"YYYY-MM"`): each run of letters one of `DATE_TOKENS`, whatever else as written."""
    if len(tokens) != 1 or tokens[0][0] != "string":
        raise QueryRefused("dateformat() takes its pattern as a string")
    written = _string(tokens[0][1])
    if "%" in written:  # the base's format is strftime's
        raise QueryRefused("dateformat()'s % is not read")
    parts = []
    for found in re.finditer(r"([A-Za-z])\1*|[^A-Za-z]+", written):
        run = found[0]
        if run[0].isalpha() and run not in DATE_TOKENS:
            raise QueryRefused(f"dateformat()'s {run} is not read")
        parts.append(DATE_TOKENS.get(run, run))
    return json.dumps("".join(parts))


def _path(tokens: list[Token], at: int, keys: frozenset[str] | None) -> tuple[str, int]:
    """A name and the fields after it (`file.name`, `this.file.link`, `rating`,
    `Dates.Birthday`; after a `GROUP BY`, `key` and `rows.file.link`: `_expression`) →
    (the base expression, where the path ends)."""
    names = [tokens[at][1]]
    at += 1
    while (
        at + 1 < len(tokens)
        and tokens[at] == ("op", ".")
        and tokens[at + 1][0] == "name"
        and not (at + 2 < len(tokens) and tokens[at + 2] == ("op", "("))
    ):
        names.append(tokens[at + 1][1])
        at += 2
    first = names[0].lower()
    if len(names) == 1 and first in {"and", "or"}:
        return ("&&" if first == "and" else "||"), at
    if len(names) == 1 and first in {"true", "false", "null"}:
        return first, at
    if first == "this":
        return "this" + _page_path(names[1:]), at
    if keys is not None:
        return _group_path(names, keys), at
    if names[0] == "file" and len(names) >= 2 and names[1] == "day":
        return FILE_DAY + _rest(names[2:]), at  # the row's own day: no `this.` or `rows.`
    if names[0] == "file" and len(names) >= 2:
        return _page_path(names)[1:], at
    return f"note[{json.dumps(names[0])}]" + _rest(names[1:]), at


def _page_path(names: list[str]) -> str:
    """The fields read of a page (`file.name` → `.file.basename`, `author` → `.author`),
    as they follow the page's expression (`this`, `value`)."""
    if len(names) >= 2 and names[0] == "file":
        return "." + _file_field(names[1]) + _rest(names[2:])
    return _rest(names)


def _group_path(names: list[str], keys: frozenset[str]) -> str:
    """A path read of a group: its key, or its pages (`rows`, or a field of each)."""
    first = names[0].lower()
    if first in keys or (first == "row" and len(names) >= 2 and names[1].lower() == "key"):
        rest = names[1:] if first != "row" else names[2:]
        return 'note["key"]' + _rest(rest)
    if first == "rows":
        each = _page_path(names[1:])
        return 'note["rows"]' + (f".map(value{each})" if each else "")
    raise QueryRefused(f"after GROUP BY a query reads key and rows, not {names[0]}")


def _file_field(name: str) -> str:
    if name not in FILE_FIELDS:
        raise QueryRefused(f"file.{name} is not read")
    return FILE_FIELDS[name]


def _rest(names: list[str]) -> str:
    """The fields after a path's first name: `.name`, or `["a name"]` where a base's
    names cannot hold it. A date's field a base does not read (`LUXON_FIELDS`) is
    refused: it would be null, and the rows it filters none."""
    for name in names:
        if name.lower() in LUXON_FIELDS:
            raise QueryRefused(f"a date's .{name} is not read")
    return "".join(
        f".{name}" if _BASE_NAME.fullmatch(name) else f"[{json.dumps(name)}]" for name in names
    )
