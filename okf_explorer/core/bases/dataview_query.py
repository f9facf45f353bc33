"""A Dataview query block (```` ```dataview ````) read as the base it means: a `LIST` or a
`TABLE` of the pages a `FROM` names, kept by `WHERE`, in `SORT` order, at most `LIMIT`.

Dataview (one of Obsidian's most installed plugins) runs such a block and shows its
result where it is written: a list of links, or a table of the pages' fields. Without it
a vault's index and hub pages are screens of query code. okf-explorer reads the part of
the query language a base can say (`core.bases`), and leaves any other block as it is
written (code), so a query is never shown half understood:

- `LIST [WITHOUT ID] [expression]` and `TABLE [WITHOUT ID] expression [AS "name"], …`;
- `FROM`: `#tag` (and the tags nested under it), `"folder"` (or `"folder/page"`),
  `[[page]]` (the pages linking to it; `[[]]` or `[[#]]` this page), `outgoing([[page]])`
  (the pages it links to), joined by `and` / `or`, negated by `-` or `!`, grouped by
  parentheses;
- `WHERE expression` (several must all hold), `SORT expression [ASC|DESC], …` (with
  none, by file name, as a base), `LIMIT n` (after any `SORT`);
- in expressions: a page's fields (frontmatter, then inline `key:: value`), `file.name`,
  `file.link`, `file.path`, `file.folder`, `file.ext`, `file.size`, `file.tags`,
  `file.outlinks`, `file.inlinks`, `file.mtime`, `file.ctime` (`FILE_FIELDS`), `this.…`
  (the page holding the query); `=`, `!=`, `<`, `<=`, `>`, `>=`, `+`, `-`, `*`, `/`,
  `%`, `and` (`&`), `or` (`|`), `!`; strings, numbers, `true`, `false`, `null`,
  `[[links]]`; the functions of `FUNCTIONS`, `date(…)` and `dur(…)`.

Refused (`QueryRefused`, which says what): `TASK` and `CALENDAR` queries, `GROUP BY`,
`FLATTEN`, any other function or `file.` field, and anything not read above.

A query is at most `MAX_QUERY_CHARS` characters and nests at most `MAX_DEPTH` deep; each
expression is then bounded as a base's is (`core.bases.expression`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from okf_explorer.core.bases.expression import MAX_DEPTH
from okf_explorer.core.bases.view import Base, BaseError, read_base

__all__ = [
    "FILE_FIELDS",
    "FUNCTIONS",
    "MAX_QUERY_CHARS",
    "DataviewQuery",
    "QueryRefused",
    "read_query",
]

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
}
"""Dataview's `file.X` read, as the base expression that reads it (Dataview's `file.name`
is the name without `.md`, a base's `file.basename`; its tags keep their `#`)."""

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
last one may be left out (`ARGUMENT_DEFAULTS`). `date(today)` (`DAYS`), `date("2024-05-01")`
and `dur(90 days)` (`UNITS`) are read too."""

ARGUMENT_DEFAULTS = {"round": "0", "join": '", "'}

DAYS = {
    "today": "today()",
    "now": "now()",
    "tomorrow": '(today() + "1 days")',
    "yesterday": '(today() - "1 days")',
}
"""The days `date(…)` names, as base expressions."""

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
    """A query read: the base that runs it, whether it is a list (else a table), and
    whether its rows leave out their page (`WITHOUT ID`)."""

    base: Base
    listed: bool
    without_id: bool


def read_query(text: str) -> DataviewQuery:
    """A ```` ```dataview ```` block's text → the query it is; `QueryRefused` says why
    not (see the module doc)."""
    if len(text) > MAX_QUERY_CHARS:
        raise QueryRefused(f"a query over {MAX_QUERY_CHARS:,} characters")
    tokens = _tokens(text)
    if _deepest(tokens) > MAX_DEPTH:
        raise QueryRefused(f"a query nested more than {MAX_DEPTH} deep")
    if not tokens or tokens[0][0] != "name":
        raise QueryRefused("a query starts with LIST or TABLE")
    kind = tokens[0][1].lower()
    if kind in {"task", "calendar"}:
        raise QueryRefused(f"{kind.upper()} queries are not read")
    if kind not in {"list", "table"}:
        raise QueryRefused("a query starts with LIST or TABLE")
    at = 1
    without_id = _words(tokens, at, "without", "id")
    if without_id:
        at += 2
    clauses = _clauses(tokens, at)
    try:
        base = read_base(_base_data(kind, without_id, clauses))
    except BaseError as error:
        raise QueryRefused(str(error)) from None
    if base.views[0].problem is not None:
        raise QueryRefused(base.views[0].problem)
    return DataviewQuery(base, kind == "list", without_id)


def _tokens(text: str) -> list[Token]:
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        if text[position:].isspace():
            break
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise QueryRefused(f"cannot read {text[position : position + 12].strip()!r}")
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        position = match.end()
    return tokens


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
            if word in {"group", "flatten"}:
                raise QueryRefused(f"{'GROUP BY' if word == 'group' else 'FLATTEN'} is not read")
            clauses.append((word, []))
            continue
        if word_after_sort(clauses, kind, value):
            clauses[-1] = ("sort", clauses[-1][1])  # SORT's BY is no field
            continue
        clauses[-1][1].append((kind, value))
    return clauses


def word_after_sort(clauses: list[tuple[str, list[Token]]], kind: str, value: str) -> bool:
    """`SORT BY x` is read as `SORT x`, as Dataview reads it."""
    return (
        clauses[-1][0] == "sort" and not clauses[-1][1] and kind == "name" and value.lower() == "by"
    )


def _base_data(
    kind: str, without_id: bool, clauses: list[tuple[str, list[Token]]]
) -> dict[str, Any]:
    """The base (as a `.base` file's loaded YAML) the query's clauses say."""
    formulas: dict[str, str] = {}
    names: dict[str, dict[str, str]] = {}
    order: list[str] = [] if without_id and kind == "table" else ["formula.page"]
    formulas["page"] = "file"
    names["formula.page"] = {"displayName": "File"}
    filters: list[str] = []
    sort: list[dict[str, str]] = []
    limit: int | None = None
    seen: set[str] = set()
    for number, (clause, tokens) in enumerate(clauses):
        if clause == "fields":
            columns = _split(tokens, ",") if tokens else []
            if kind == "list" and len(columns) > 1:
                raise QueryRefused("a LIST shows one expression")
            for column, parts in enumerate(columns, start=1):
                expression, name = _named(parts)
                formulas[f"c{column}"] = expression
                names[f"formula.c{column}"] = {"displayName": name}
                order.append(f"formula.c{column}")
        elif clause == "from":
            if "from" in seen or number != 1:
                raise QueryRefused("FROM comes once, first")
            filters.append(_source(tokens))
        elif clause == "where":
            if limit is not None or sort:
                raise QueryRefused("a WHERE after SORT or LIMIT is not read")
            filters.append(_expression(tokens))
        elif clause == "sort":
            if limit is not None:
                raise QueryRefused("a SORT after LIMIT is not read")
            for parts in _split(tokens, ","):
                descending = bool(parts) and parts[-1][1].lower() in {"desc", "descending"}
                if parts and parts[-1][1].lower() in {"asc", "ascending", "desc", "descending"}:
                    parts = parts[:-1]
                formulas[f"s{len(sort) + 1}"] = _expression(parts)
                sort.append(
                    {
                        "property": f"formula.s{len(sort) + 1}",
                        "direction": "DESC" if descending else "ASC",
                    }
                )
        elif clause == "limit":
            if len(tokens) != 1 or tokens[0][0] != "number" or "." in tokens[0][1]:
                raise QueryRefused("LIMIT takes a whole number")
            limit = int(tokens[0][1])
        seen.add(clause)
    view: dict[str, Any] = {"type": "table", "name": kind.upper(), "order": order, "sort": sort}
    if limit is not None:
        view["limit"] = limit
    data: dict[str, Any] = {"formulas": formulas, "properties": names, "views": [view]}
    if filters:
        data["filters"] = {"and": filters}
    return data


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


def _named(tokens: list[Token]) -> tuple[str, str]:
    """A column: `expression [AS name]` → (the base expression, the column's name: the
    one given, else the expression as written)."""
    name = None
    if len(tokens) >= 3 and tokens[-2][0] == "name" and tokens[-2][1].lower() == "as":
        kind, value = tokens[-1]
        name = _string(value) if kind == "string" else value
        tokens = tokens[:-2]
    written = " ".join(value for _, value in tokens)
    written = re.sub(r" ?([.(\[]) ?", r"\1", written).replace(" )", ")").replace(" ,", ",")
    return _expression(tokens), name or written


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


def _expression(tokens: list[Token]) -> str:
    """A Dataview expression → the base expression that computes it."""
    out: list[str] = []
    at = 0
    while at < len(tokens):
        kind, value = tokens[at]
        following = tokens[at + 1][1] if at + 1 < len(tokens) else ""
        if kind == "name" and following == "(" and value.lower() not in {"and", "or"}:
            end = _closing(tokens, at + 1)
            out.append(_call(value, tokens[at + 2 : end]))
            at = end + 1
            continue
        if kind == "name":
            path, at = _path(tokens, at)
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


def _call(name: str, arguments: list[Token]) -> str:
    """A function call → the base expression (see `FUNCTIONS`)."""
    lowered = name.lower()
    parts = _split(arguments, ",") if arguments else []
    if lowered == "date" and len(parts) == 1:
        (only,) = parts
        if len(only) == 1 and only[0][0] == "name" and only[0][1].lower() in DAYS:
            return DAYS[only[0][1].lower()]
        return f"date({_expression(only)})"
    if lowered == "dur" and len(parts) == 1:
        return _duration(parts[0])
    pattern = FUNCTIONS.get(lowered)
    if pattern is None:
        raise QueryRefused(f"Dataview's {name}() is not read")
    wanted = len(set(re.findall(r"\{(\d)\}", pattern)))
    texts = [_expression(part) for part in parts]
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


def _path(tokens: list[Token], at: int) -> tuple[str, int]:
    """A name and the fields after it (`file.name`, `this.file.link`, `rating`,
    `Dates.Birthday`) → (the base expression, where the path ends)."""
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
        if len(names) >= 3 and names[1] == "file":
            return "this." + _file_field(names[2]) + _rest(names[3:]), at
        return "this" + _rest(names[1:]), at
    if names[0] == "file" and len(names) >= 2:
        return _file_field(names[1]) + _rest(names[2:]), at
    return f"note[{json.dumps(names[0])}]" + _rest(names[1:]), at


def _file_field(name: str) -> str:
    if name not in FILE_FIELDS:
        raise QueryRefused(f"file.{name} is not read")
    return FILE_FIELDS[name]


def _rest(names: list[str]) -> str:
    """The fields after a path's first name: `.name`, or `["a name"]` where a base's
    names cannot hold it."""
    return "".join(
        f".{name}" if _BASE_NAME.fullmatch(name) else f"[{json.dumps(name)}]" for name in names
    )
