"""The expressions of an Obsidian base: `'!file.name.contains("Template")'`,
`list(type).contains(this)`, `note.rating > 6`: parsed once, evaluated for each page.

The grammar is the one Obsidian's help gives ("Bases syntax", "Functions"): literals
(`"text"`, `'text'`, numbers, `true`, `false`, `null`), a property (`rating` is
`note.rating`; `note["a b"]`, `file.name`, `formula.x`, `this`), a field or an element
(`.name`, `[0]`), a call (`link("Books")`, `x.contains(y)`), `!` and unary `-`, then
`* / %`, `+ -`, `< <= > >=`, `== !=`, `&&`, `||`, loosest last.

What okf-explorer reads of the functions is `GLOBALS` and `METHODS`; an expression
calling any other is refused when parsed (`ExpressionError`), so a base never shows
rows picked by a filter half understood. A value missing or of the wrong kind for a
method gives `null`, which a filter reads as false, as Obsidian does.

Bounded against hostile bases: an expression is at most `MAX_CHARS` characters and
`MAX_DEPTH` nested, and `filter` / `map` run over lists no longer than a page's own
properties hold.

Values: `None`, `bool`, `int` / `float`, `str`, `list`, `dict`, `datetime.date` /
`datetime.datetime`, a `Link` (a link written in a property, or `link("x")`) and a
`FileRef` (a page: `file`, `this`). A link equals a page it resolves to, and another
link to the same page (`Scope.resolve`).
"""

from __future__ import annotations

import contextlib
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from okf_explorer.core.pages import has_tag

__all__ = [
    "MAX_CHARS",
    "MAX_DEPTH",
    "MAX_STEPS",
    "Budget",
    "Expression",
    "ExpressionError",
    "FileFacts",
    "FileRef",
    "Link",
    "Scope",
    "is_empty",
    "lex",
    "order_key",
    "parse_expression",
    "truthy",
]

MAX_CHARS = 2000
"""Characters an expression may hold."""
MAX_DEPTH = 64
"""How deeply an expression may nest (parentheses, calls, operators)."""


class ExpressionError(ValueError):
    """An expression okf-explorer cannot read: its message says where and why."""


# ------------------------------------------------------------------------ values


@dataclass(frozen=True, slots=True)
class Link:
    """A link: `target` as written (`[[target|display]]`), read from page `origin`."""

    target: str
    display: str | None = None
    origin: str | None = None


@dataclass(frozen=True, slots=True)
class FileRef:
    """A page of the brain, by slug."""

    slug: str


_DURATION_UNITS = (
    ("years", 365 * 86_400_000),
    ("months", 30 * 86_400_000),
    ("weeks", 7 * 86_400_000),
    ("days", 86_400_000),
    ("hours", 3_600_000),
    ("minutes", 60_000),
    ("seconds", 1000),
    ("milliseconds", 1),
)
"""A duration's fields, largest first, in milliseconds."""


class Duration(float):
    """The time between two dates, in milliseconds (a number, as Obsidian has it: `(now() -
    file.ctime) / 86400000`), with its length in other units as fields (`.days`,
    `.months`, `.years` …: a month 30 days, a year 365)."""

    def field(self, name: str) -> float | None:
        size = dict(_DURATION_UNITS).get(name)
        return float(self) / size if size else None

    def text(self) -> str:
        """`12 days`: its length in the largest unit it holds one of, whole."""
        for name, size in _DURATION_UNITS:
            if abs(self) >= size:
                count = int(abs(self) // size) * (1 if self >= 0 else -1)
                return f"{count} {name[:-1] if abs(count) == 1 else name}"
        return "0 milliseconds"


@dataclass(slots=True)
class FileFacts:
    """What a base reads of one page: its file and its properties (frontmatter)."""

    slug: str
    path: str
    """Relative to the vault's folder, with its extension (`References/Kyoto.md`)."""
    properties: Mapping[str, Any]
    tags: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    """The slugs the page links to (its frontmatter's links included)."""
    backlinks: tuple[str, ...] = ()
    file: str | None = None
    """The page's file, asked for its size and times only when a base reads them."""
    _stat: tuple[int, datetime | None, datetime | None] | None = None

    def stat(self) -> tuple[int, datetime | None, datetime | None]:
        """The file's size, modified and created times (0 and None when unknown)."""
        if self._stat is None:
            self._stat = (0, None, None)
            if self.file is not None:
                with contextlib.suppress(OSError, ValueError, OverflowError):
                    found = os.stat(self.file)
                    modified = datetime.fromtimestamp(found.st_mtime)
                    created = datetime.fromtimestamp(min(found.st_ctime, found.st_mtime))
                    self._stat = (found.st_size, modified, created)
        return self._stat


MAX_STEPS = 2_000_000
"""Steps (nodes evaluated) one run of a view may take, over all its pages: a base
mapping lists within lists (`a.map(a.map(a.map(…)))`) stops there."""


@dataclass
class Budget:
    """Steps left to a run of a view (shared by its pages' scopes)."""

    left: int

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise ExpressionError(f"more than {MAX_STEPS:,} steps of work")


@dataclass
class Scope:
    """What an expression is evaluated against: the page a row stands for (`row`), the
    page the base is shown in (`this`), the pages by slug, a link resolver (`resolve`:
    target, from slug → slug or None) and the base's formulas."""

    row: FileFacts
    this: FileFacts | None
    pages: Mapping[str, FileFacts]
    resolve: Callable[[str, str | None], str | None]
    formulas: Mapping[str, Expression] = field(default_factory=dict)
    now: datetime = field(default_factory=datetime.now)
    budget: Budget = field(default_factory=lambda: Budget(MAX_STEPS))
    _formula_values: dict[str, Any] = field(default_factory=dict)
    _formula_busy: set[str] = field(default_factory=set)

    def formula(self, name: str) -> Any:
        """The value of formula `name` for this row (null if unknown or circular)."""
        if name in self._formula_values:
            return self._formula_values[name]
        expression = self.formulas.get(name)
        if expression is None or name in self._formula_busy:
            return None
        if len(self._formula_busy) >= MAX_DEPTH:
            raise ExpressionError(f"formulas call each other more than {MAX_DEPTH} deep")
        self._formula_busy.add(name)
        try:
            value = expression.evaluate(self)
        finally:
            self._formula_busy.discard(name)
        self._formula_values[name] = value
        return value

    def slug_of(self, value: Any) -> str | None:
        """The page a link, a page or a name stands for (None: no page)."""
        if isinstance(value, FileRef):
            return value.slug
        if isinstance(value, Link):
            return self.resolve(value.target, value.origin)
        if isinstance(value, str):
            link = as_link(value, None)
            return self.resolve(
                link.target if link else value, self.this.slug if self.this else None
            )
        return None


_WIKI = re.compile(r"^\s*\[\[([^\[\]]+)\]\]\s*$")


def as_link(text: str, origin: str | None) -> Link | None:
    """`[[target|display]]` written in a property → a `Link`; anything else None."""
    match = _WIKI.match(text)
    if match is None:
        return None
    target, _, display = match.group(1).replace("\\|", "|").partition("|")
    return Link(target.partition("#")[0].strip(), display.strip() or None, origin)


def property_value(value: Any, origin: str) -> Any:
    """A frontmatter value as a base reads it: links written as `[[x]]` become links."""
    if isinstance(value, str):
        return as_link(value, origin) or value
    if isinstance(value, list):
        return [property_value(item, origin) for item in value]
    return value


def is_empty(value: Any) -> bool:
    """Whether a value is empty, as `isEmpty()` says (nothing, `""`, `[]`, `{}`; never
    `false` or `0`)."""
    return not truthy(value) and value is not False and value != 0


def truthy(value: Any) -> bool:
    """Whether a filter keeps a row whose statement gave `value`."""
    if isinstance(value, list | dict | str):
        return len(value) > 0
    return bool(value) if value is not None else False


def _equal(scope: Scope, left: Any, right: Any) -> bool:
    if isinstance(left, Link | FileRef) or isinstance(right, Link | FileRef):
        linked = (left, right)
        if all(isinstance(side, Link | FileRef | str) for side in linked):
            slugs = [scope.slug_of(side) for side in linked]
            if slugs[0] is not None and slugs[1] is not None:
                return slugs[0] == slugs[1]
            texts = [side.target if isinstance(side, Link) else side for side in linked]
            return isinstance(texts[0], str) and texts[0] == texts[1]
        return False
    if isinstance(left, bool) or isinstance(right, bool):
        return left is right
    if isinstance(left, int | float) and isinstance(right, int | float):
        return float(left) == float(right)
    return bool(left == right)


def order_key(value: Any) -> Any:
    """A date or time as seconds from a fixed start (plain arithmetic: no year is out of
    range, as a timestamp's can be); any other value as it is."""
    if isinstance(value, datetime):
        seconds = value.hour * 3600 + value.minute * 60 + value.second
        return value.toordinal() * 86400 + seconds + value.microsecond / 1e6
    if isinstance(value, date):
        return value.toordinal() * 86400
    return value


def _compare(operator: str, left: Any, right: Any) -> Any:
    left, right = order_key(left), order_key(right)
    numbers = isinstance(left, int | float) and isinstance(right, int | float)
    if not numbers and not (isinstance(left, str) and isinstance(right, str)):
        return False
    if operator == "<":
        return left < right
    if operator == "<=":
        return left <= right
    if operator == ">":
        return left > right
    return left >= right


_DURATION = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([a-zA-Z]+)\s*$")
_DAYS = {"y": 365, "year": 365, "years": 365, "month": 30, "months": 30}
_DAYS |= {"d": 1, "day": 1, "days": 1, "w": 7, "week": 7, "weeks": 7}
_SECONDS = {"h": 3600, "hour": 3600, "hours": 3600, "m": 60, "minute": 60, "minutes": 60}
_SECONDS |= {"s": 1, "second": 1, "seconds": 1}


def _duration(text: str) -> timedelta | None:
    """`"1M"`, `"7d"`, `"2 hours"` → a time span (a month as 30 days, a year as 365;
    `M` is a month, `m` a minute)."""
    match = _DURATION.match(text)
    if match is None:
        return None
    amount, unit = float(match.group(1)), match.group(2)
    days = 30 if unit == "M" else _DAYS.get(unit.lower())
    seconds = None if days is not None else _SECONDS.get(unit.lower())
    try:
        if days is not None:
            return timedelta(days=amount * days)
        return timedelta(seconds=amount * seconds) if seconds is not None else None
    except OverflowError:  # longer than any date can take
        return None


def _arithmetic(operator: str, left: Any, right: Any) -> Any:
    if isinstance(left, date) and isinstance(right, str) and operator in "+-":
        span = _duration(right)
        if span is None:
            return None
        base = left if isinstance(left, datetime) else datetime(left.year, left.month, left.day)
        try:
            return base + span if operator == "+" else base - span
        except OverflowError:  # past the year 9999 or before the year 1
            return None
    if isinstance(left, date) and isinstance(right, date) and operator == "-":
        return Duration((order_key(left) - order_key(right)) * 1000)
    if operator == "+" and (isinstance(left, str) or isinstance(right, str)):
        return f"{_text(left)}{_text(right)}"
    if isinstance(left, bool) or isinstance(right, bool):
        return None
    if not (isinstance(left, int | float) and isinstance(right, int | float)):
        return None
    if operator == "+":
        return left + right
    if operator == "-":
        return left - right
    if operator == "*":
        return left * right
    if right == 0:
        return None
    return left / right if operator == "/" else math.fmod(left, right)


def _text(value: Any) -> str:
    """A value as the text a cell (or `toString()`) shows."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Duration):
        return value.text()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, Link):
        return value.display or value.target
    if isinstance(value, FileRef):
        return value.slug.rpartition("/")[2]
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M") if value.time() else value.strftime("%Y-%m-%d")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list):
        return ", ".join(_text(item) for item in value)
    return str(value)


# ------------------------------------------------------------------------ functions


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _date(value: Any) -> Any:
    if isinstance(value, date):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip().replace("T", " ")
    for pattern, length in _DATE_FORMS:  # a longer text's rest (seconds' fraction, zone) aside
        try:
            return datetime.strptime(text[:length], pattern)
        except ValueError:
            continue
    return None


_DATE_FORMS = (("%Y-%m-%d %H:%M:%S", 19), ("%Y-%m-%d %H:%M", 16), ("%Y-%m-%d", 10))
"""The date forms `date()` reads, each with its length written out."""


def _number(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return value
    if isinstance(value, date):
        return order_key(value) * 1000
    try:
        return float(str(value))
    except ValueError:
        return None


def _numbers(values: Sequence[Any]) -> list[float]:
    return [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]


GLOBALS: dict[str, Callable[..., Any]] = {
    "date": _date,
    "if": lambda condition, yes, no=None: yes if truthy(condition) else no,
    "link": lambda target, display=None: Link(_text(target), _text(display) or None),
    "list": _as_list,
    "max": lambda *values: max(_numbers(values), default=None),
    "min": lambda *values: min(_numbers(values), default=None),
    "number": _number,
}
"""Global functions read (`if` evaluates both sides: neither has effects). `now()`,
`today()` and `file(path)` need the scope: see `_global_call`."""


def _contains(scope: Scope, subject: Any, value: Any) -> Any:
    if isinstance(subject, str):
        return _text(value) in subject
    if isinstance(subject, list):
        return any(_equal(scope, item, value) for item in subject)
    return None


def _has_tag(facts: FileFacts, *tags: Any) -> bool:
    return any(has_tag(facts.tags, _text(tag)) for tag in tags)


def _in_folder(facts: FileFacts, folder: Any) -> bool:
    wanted = _text(folder).strip("/")
    own = facts.path.rpartition("/")[0]
    return not wanted or own == wanted or own.startswith(f"{wanted}/")


def _has_link(scope: Scope, facts: FileFacts, target: Any) -> bool:
    slug = scope.slug_of(target)
    return slug is not None and slug in facts.links


def _fixed(value: Any, places: Any = 0) -> Any:
    if not isinstance(value, int | float) or not isinstance(places, int | float):
        return None
    return f"{value:.{max(0, min(int(places), 20))}f}"


def _round(value: Any, places: Any = 0) -> Any:
    if not isinstance(value, int | float) or not isinstance(places, int | float):
        return None
    rounded = round(value, max(0, min(int(places), 20)))
    return int(rounded) if not places else rounded


METHODS: dict[str, Callable[..., Any]] = {
    # any value
    "isEmpty": lambda scope, value: is_empty(value),
    "isTruthy": lambda scope, value: truthy(value),
    "toString": lambda scope, value: _text(value),
    # text and lists
    "contains": _contains,
    "containsAll": lambda scope, subject, *values: all(
        _contains(scope, subject, value) for value in values
    ),
    "containsAny": lambda scope, subject, *values: any(
        _contains(scope, subject, value) for value in values
    ),
    "startsWith": lambda scope, text, query: (
        text.startswith(_text(query)) if isinstance(text, str) else None
    ),
    "endsWith": lambda scope, text, query: (
        text.endswith(_text(query)) if isinstance(text, str) else None
    ),
    "lower": lambda scope, text: text.lower() if isinstance(text, str) else None,
    "upper": lambda scope, text: text.upper() if isinstance(text, str) else None,
    "title": lambda scope, text: text.title() if isinstance(text, str) else None,
    "trim": lambda scope, text: text.strip() if isinstance(text, str) else None,
    "join": lambda scope, items, separator=", ": (
        _text(separator).join(_text(item) for item in items) if isinstance(items, list) else None
    ),
    "unique": lambda scope, items: (
        [item for n, item in enumerate(items) if not any(_equal(scope, item, x) for x in items[:n])]
        if isinstance(items, list)
        else None
    ),
    "reverse": lambda scope, items: items[::-1] if isinstance(items, list | str) else None,
    "flat": lambda scope, items: (
        [x for item in items for x in _as_list(item)] if isinstance(items, list) else None
    ),
    # numbers
    "abs": lambda scope, number: abs(number) if isinstance(number, int | float) else None,
    "ceil": lambda scope, number: math.ceil(number) if isinstance(number, int | float) else None,
    "floor": lambda scope, number: math.floor(number) if isinstance(number, int | float) else None,
    "round": lambda scope, number, places=0: _round(number, places),
    "toFixed": lambda scope, number, places=0: _fixed(number, places),
    # dates
    "format": lambda scope, value, pattern="YYYY-MM-DD": (
        _format_date(value, _text(pattern)) if isinstance(value, date) else None
    ),
    "date": lambda scope, value: (
        value.date() if isinstance(value, datetime) else value if isinstance(value, date) else None
    ),
    # files and links
    "asFile": lambda scope, value: (
        FileRef(slug) if (slug := scope.slug_of(value)) in scope.pages else None
    ),
    "asLink": lambda scope, value, display=None: (
        Link(value.slug, _text(display) or None) if isinstance(value, FileRef) else value
    ),
    "linksTo": lambda scope, value, target: _file_method(scope, value, _has_link, target),
    "hasLink": lambda scope, value, target: _file_method(scope, value, _has_link, target),
    "hasTag": lambda scope, value, *tags: _file_method(scope, value, _tag_method, *tags),
    "inFolder": lambda scope, value, folder: _file_method(scope, value, _folder_method, folder),
    "hasProperty": lambda scope, value, name: _file_method(scope, value, _property_method, name),
}
"""Methods read, each given the scope, the value it is called on and its arguments."""

LIST_FUNCTIONS = frozenset({"filter", "map"})
"""Methods whose argument is evaluated for each element (`value`, `index`)."""


def _tag_method(scope: Scope, facts: FileFacts, *tags: Any) -> bool:
    return _has_tag(facts, *tags)


def _folder_method(scope: Scope, facts: FileFacts, folder: Any) -> bool:
    return _in_folder(facts, folder)


def _property_method(scope: Scope, facts: FileFacts, name: Any) -> bool:
    return _text(name) in facts.properties


def _file_method(scope: Scope, value: Any, method: Callable[..., Any], *arguments: Any) -> Any:
    slug = scope.slug_of(value) if isinstance(value, FileRef | Link) else None
    facts = scope.pages.get(slug) if slug is not None else None
    return None if facts is None else method(scope, facts, *arguments)


_DATE_TOKENS = (
    ("dddd", "%A"),
    ("YYYY", "%Y"),
    ("MM", "%m"),
    ("DD", "%d"),
    ("HH", "%H"),
    ("mm", "%M"),
    ("ss", "%S"),
)


def _format_date(value: date, pattern: str) -> str:
    for token, code in _DATE_TOKENS:
        pattern = pattern.replace(token, code)
    return value.strftime(pattern)


# ------------------------------------------------------------------------ file fields


def file_field(scope: Scope, facts: FileFacts, name: str) -> Any:
    """`file.NAME` of the page `facts` describes."""
    path = facts.path
    stem, dot, extension = path.rpartition("/")[2].rpartition(".")
    if name == "name":
        return path.rpartition("/")[2]
    if name == "basename":
        return stem if dot else extension
    if name == "path":
        return path
    if name == "folder":
        return path.rpartition("/")[0]
    if name == "ext":
        return extension if dot else ""
    if name == "size":
        return facts.stat()[0]
    if name == "tags":
        return [tag.lstrip("#") for tag in facts.tags]
    if name == "links":
        return [Link(slug, None, facts.slug) for slug in facts.links]
    if name == "backlinks":
        return [FileRef(slug) for slug in facts.backlinks]
    if name == "properties":
        return {key: property_value(value, facts.slug) for key, value in facts.properties.items()}
    if name == "mtime":
        return facts.stat()[1]
    if name == "ctime":
        return facts.stat()[2]
    if name == "file":
        return FileRef(facts.slug)
    return None


def _field(scope: Scope, value: Any, name: str) -> Any:
    """`value.name`: a page's file field or property, a mapping's key, a list's or a
    text's `length`, a date's part."""
    if isinstance(value, FileRef | Link):
        facts = scope.pages.get(scope.slug_of(value) or "")
        if facts is None:
            return None
        if name == "properties" or name == "file":
            return file_field(scope, facts, name)
        found = file_field(scope, facts, name)
        return found if found is not None else _property(facts, name)
    if isinstance(value, dict):
        return value.get(name)
    if name == "length" and isinstance(value, list | str):
        return len(value)
    if isinstance(value, Duration):
        return value.field(name)
    if isinstance(value, date) and name in {"year", "month", "day"}:
        return getattr(value, name)
    if isinstance(value, datetime) and name in {"hour", "minute", "second"}:
        return getattr(value, name)
    return None


def _property(facts: FileFacts, name: str) -> Any:
    """Note property `name` of a page (as written; else the first key equal to it in
    another case), links read as links."""
    properties = facts.properties
    if name in properties:
        return property_value(properties[name], facts.slug)
    folded = name.casefold()
    for key, value in properties.items():
        if isinstance(key, str) and key.casefold() == folded:
            return property_value(value, facts.slug)
    return None


# ------------------------------------------------------------------------ parsing

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<number>\d+(?:\.\d+)?)
    | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
    | (?P<name>[A-Za-z_$][\w$]*)
    | (?P<op>&&|\|\||==|!=|<=|>=|[-+*/%<>!().,\[\]])
    )""",
    re.VERBOSE,
)

_BINARY = {
    "||": 1,
    "&&": 2,
    "==": 3,
    "!=": 3,
    "<": 4,
    "<=": 4,
    ">": 4,
    ">=": 4,
    "+": 5,
    "-": 5,
    "*": 6,
    "/": 6,
    "%": 6,
}
_UNARY = 7


Node = tuple[Any, ...]
"""An expression's tree: `("lit", v)`, `("name", n)`, `("field", node, n)`,
`("index", node, node)`, `("call", name, args)`, `("method", node, name, args)`,
`("not", node)`, `("neg", node)`, `("op", operator, left, right)`."""


def _tokens(text: str) -> list[tuple[str, str]]:
    return lex(text, _TOKEN)


def lex(text: str, pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """`text` as (kind, text) tokens of `pattern` (its groups named by kind, whitespace
    before each skipped); `ExpressionError` names where no token starts."""
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(text):
        if text[position:].isspace():
            break
        match = pattern.match(text, position)
        if match is None or match.end() == position:
            raise ExpressionError(f"cannot read {text[position : position + 12].strip()!r}")
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        position = match.end()
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.at = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if value is not None and token[1] != value:
            found = token[1] or "the end"
            raise ExpressionError(f"expected {value!r}, found {found!r}")
        if token[0] == "end":
            raise ExpressionError("the expression ends too soon")
        self.at += 1
        return token

    def expression(self, depth: int, strength: int = 0) -> Node:
        if depth > MAX_DEPTH:
            raise ExpressionError(f"nested more than {MAX_DEPTH} deep")
        left = self.unary(depth + 1)
        while True:
            kind, operator = self.peek()
            power = _BINARY.get(operator) if kind == "op" else None
            if power is None or power <= strength:
                return left
            self.take()
            left = ("op", operator, left, self.expression(depth + 1, power))

    def unary(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise ExpressionError(f"nested more than {MAX_DEPTH} deep")
        kind, value = self.peek()
        if kind == "op" and value in {"!", "-"}:
            self.take()
            return ("not" if value == "!" else "neg", self.unary(depth + 1))
        return self.postfix(self.primary(depth), depth)

    def primary(self, depth: int) -> Node:
        kind, value = self.take()
        if kind == "number":
            return ("lit", float(value) if "." in value else int(value))
        if kind == "string":
            return ("lit", re.sub(r"\\(.)", r"\1", value[1:-1]))
        if kind == "op" and value == "(":
            inner = self.expression(depth + 1)
            self.take(")")
            return inner
        if kind == "op" and value == "[":
            items = self.arguments(depth, "]")
            return ("list", items)
        if kind != "name":
            raise ExpressionError(f"unexpected {value!r}")
        if value in {"true", "false", "null"}:
            return ("lit", {"true": True, "false": False, "null": None}[value])
        if self.peek()[1] == "(":
            self.take("(")
            if value not in GLOBALS and value not in {"now", "today", "file"}:
                raise ExpressionError(f"okf-explorer does not read {value}() yet")
            return ("call", value, self.arguments(depth, ")"))
        return ("name", value)

    def postfix(self, node: Node, depth: int) -> Node:
        while True:
            kind, value = self.peek()
            if kind != "op" or value not in {".", "["}:
                return node
            self.take()
            if value == "[":
                index = self.expression(depth + 1)
                self.take("]")
                node = ("index", node, index)
                continue
            _, name = self.take()
            if self.peek()[1] == "(":
                self.take("(")
                if name not in METHODS and name not in LIST_FUNCTIONS:
                    raise ExpressionError(f"okf-explorer does not read .{name}() yet")
                node = ("method", node, name, self.arguments(depth, ")"))
            else:
                node = ("field", node, name)

    def arguments(self, depth: int, closing: str) -> tuple[Node, ...]:
        items: list[Node] = []
        while self.peek()[1] != closing:
            items.append(self.expression(depth + 1))
            if self.peek()[1] != closing:
                self.take(",")
        self.take(closing)
        return tuple(items)


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed expression (`parse_expression`), evaluated with `evaluate(scope)`."""

    text: str
    tree: Node

    def evaluate(self, scope: Scope, bound: Mapping[str, Any] | None = None) -> Any:
        """Its value for `scope`'s row; `bound`: names given a value (a summary's `values`)."""
        return _evaluate(self.tree, scope, bound or {})


def parse_expression(text: str) -> Expression:
    """`text` parsed; `ExpressionError` says why it cannot be."""
    if not isinstance(text, str):
        raise ExpressionError(f"an expression is text, not {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise ExpressionError(f"longer than {MAX_CHARS} characters")
    parser = _Parser(text)
    if not parser.tokens:
        raise ExpressionError("empty")
    tree = parser.expression(0)
    if parser.peek()[0] != "end":
        raise ExpressionError(f"unexpected {parser.peek()[1]!r}")
    return Expression(text, tree)


# ------------------------------------------------------------------------ evaluating


def _evaluate(node: Node, scope: Scope, bound: Mapping[str, Any]) -> Any:
    scope.budget.spend()
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "list":
        return [_evaluate(item, scope, bound) for item in node[1]]
    if kind == "name":
        return _name(node[1], scope, bound)
    if kind == "field":
        return _field_of(node, scope, bound)
    if kind == "index":
        subject, index = _evaluate(node[1], scope, bound), _evaluate(node[2], scope, bound)
        if subject == ("note",) and isinstance(index, str):  # `note["a key"]`
            return _property(scope.row, index)
        return _index(subject, index)
    if kind == "not":
        return not truthy(_evaluate(node[1], scope, bound))
    if kind == "neg":
        value = _evaluate(node[1], scope, bound)
        return -value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if kind == "call":
        return _global_call(node[1], [_evaluate(a, scope, bound) for a in node[2]], scope)
    if kind == "method":
        return _method(node, scope, bound)
    operator, left_node, right_node = node[1], node[2], node[3]
    left = _evaluate(left_node, scope, bound)
    if operator == "&&":
        return truthy(left) and truthy(_evaluate(right_node, scope, bound))
    if operator == "||":
        return truthy(left) or truthy(_evaluate(right_node, scope, bound))
    right = _evaluate(right_node, scope, bound)
    if operator == "==":
        return _equal(scope, left, right)
    if operator == "!=":
        return not _equal(scope, left, right)
    if operator in {"<", "<=", ">", ">="}:
        return _compare(operator, left, right)
    return _arithmetic(operator, left, right)


def _name(name: str, scope: Scope, bound: Mapping[str, Any]) -> Any:
    if name in bound:
        return bound[name]
    if name == "file":
        return FileRef(scope.row.slug)
    if name == "this":
        return FileRef(scope.this.slug) if scope.this is not None else None
    if name in {"note", "formula"}:
        return (name,)  # a prefix: read by `_field_of`
    return _property(scope.row, name)


def _field_of(node: Node, scope: Scope, bound: Mapping[str, Any]) -> Any:
    subject, name = node[1], node[2]
    if subject == ("name", "note") and "note" not in bound:
        return _property(scope.row, name)
    if subject == ("name", "formula") and "formula" not in bound:
        return scope.formula(name)
    if subject == ("name", "file") and "file" not in bound:
        return file_field(scope, scope.row, name)
    value = _evaluate(subject, scope, bound)
    if isinstance(value, tuple):  # `note` or `formula` alone, then a field
        return None
    return _field(scope, value, name)


def _index(value: Any, index: Any) -> Any:
    if isinstance(value, list | str) and isinstance(index, int) and not isinstance(index, bool):
        return value[index] if -len(value) <= index < len(value) else None
    if isinstance(value, dict) and isinstance(index, str):
        return value.get(index)
    return None


def _global_call(name: str, arguments: list[Any], scope: Scope) -> Any:
    if name == "now":
        return scope.now
    if name == "today":
        return datetime(scope.now.year, scope.now.month, scope.now.day)
    if name == "file":
        slug = scope.slug_of(arguments[0]) if arguments else None
        return FileRef(slug) if slug in scope.pages else None
    try:
        return GLOBALS[name](*arguments)
    except TypeError:  # the wrong number of arguments
        return None


def _method(node: Node, scope: Scope, bound: Mapping[str, Any]) -> Any:
    subject = _evaluate(node[1], scope, bound)
    name, argument_nodes = node[2], node[3]
    if name in LIST_FUNCTIONS:
        if not isinstance(subject, list) or len(argument_nodes) != 1:
            return None
        results = []
        for index, value in enumerate(subject):
            inner = {**bound, "value": value, "index": index}
            results.append(_evaluate(argument_nodes[0], scope, inner))
        if name == "map":
            return results
        return [value for value, keep in zip(subject, results, strict=True) if truthy(keep)]
    arguments = [_evaluate(argument, scope, bound) for argument in argument_nodes]
    try:
        return METHODS[name](scope, subject, *arguments)
    except (TypeError, ValueError, OverflowError):  # wrong arguments, a date out of range
        return None


def cell_text(value: Any) -> str:
    """A value as a table cell shows it (a link as its name)."""
    return _text(value)
