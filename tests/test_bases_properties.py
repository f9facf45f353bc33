"""Any text as a base's expression: it parses or is refused with `ExpressionError`, and what
parses evaluates, over pages of any properties, to a value or to `ExpressionError` (the
work bound) — never another exception, which would show a traceback where the table goes."""

from __future__ import annotations

import contextlib
from datetime import date, datetime

from hypothesis import example, given, settings
from hypothesis import strategies as st

from okf_explorer.core.bases import ExpressionError, FileFacts, parse_expression
from okf_explorer.core.bases.expression import Scope
from okf_explorer.core.bases.summaries import DEFAULT_SUMMARIES, summary_value

PIECES = st.sampled_from(
    [
        "file", "note", "this", "formula", "x", "tags", "value", "index", ".", ",", "(", ")",
        "[", "]", "!", "-", "+", "*", "/", "%", "<", ">=", "==", "!=", "&&", "||", "0", "2.5",
        "'a'", '"[[p]]"', "true", "null", "contains", "map", "filter", "round", "toFixed",
        "link", "list", "if", "date", "now", "today", "length", "name", "hasTag", "inFolder",
        "hasLink", "asFile", "join", "unique", "lower", "containsAny", "format", "max", "'1d'",
        "mtime", "size", "properties", "year", "file.name", "basename", "number", "slice",
    ]
)  # fmt: skip
EXPRESSIONS = st.lists(PIECES, min_size=1, max_size=14).map(" ".join)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["[[p]]", "[[q|Q]]", date(2026, 1, 2), datetime(2026, 1, 2, 3, 4)]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=10,
)
ATOMS = st.sampled_from(
    ["x", "tags", "name", "value", "file", "this", "file.name", "file.tags", "file.links",
     "note.x", "formula.f", "0", "-3", "2.5", "'a'", '"[[p]]"', "true", "null", "now()",
     "today()", "link('q')", "date('2026-01-02')", "'1d'", "file.mtime", "file.size",
     "'99999999999y'", "date('9999-12-31')", "date('0001-01-01')", "'-5M'"]
)  # fmt: skip
METHODS = st.sampled_from(
    ["contains", "containsAny", "containsAll", "startsWith", "isEmpty", "lower", "join",
     "unique", "flat", "reverse", "round", "toFixed", "floor", "format", "asFile", "asLink",
     "hasTag", "hasLink", "inFolder", "hasProperty", "toString", "map", "filter", "date"]
)  # fmt: skip
OPERATORS = st.sampled_from(["+", "-", "*", "/", "%", "<", ">=", "==", "!=", "&&", "||"])
WELL_FORMED = st.recursive(
    ATOMS,
    lambda inner: (
        st.tuples(inner, OPERATORS, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})")
        | st.tuples(inner, METHODS, st.lists(inner, max_size=2)).map(
            lambda t: f"{t[0]}.{t[1]}({', '.join(t[2])})"
        )
        | inner.map(lambda e: f"!{e}")
        | st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]")
        | st.tuples(inner, inner, inner).map(lambda t: f"if({t[0]}, {t[1]}, {t[2]})")
        | st.lists(inner, max_size=3).map(lambda items: f"list({', '.join(items)})")
    ),
    max_leaves=12,
)
PROPERTIES = st.dictionaries(st.sampled_from(["x", "tags", "name", "value"]), VALUES)


@settings(max_examples=400, deadline=None)
@given(EXPRESSIONS | WELL_FORMED, PROPERTIES)
def test_any_expression_parses_or_is_refused_and_evaluates_or_is_bounded(
    text: str, properties: dict[str, object]
) -> None:
    try:
        expression = parse_expression(text)
    except ExpressionError:
        return
    row = FileFacts("a/p", "a/p.md", properties, tags=("t/u",), links=("q",))
    other = FileFacts("q", "q.md", {"x": 1})
    pages = {"a/p": row, "q": other}

    def resolve(target: str, origin: str | None) -> str | None:
        return target if target in pages else None

    scope = Scope(row, other, pages, resolve, {"f": parse_expression("x + 1")})
    with contextlib.suppress(ExpressionError):  # the work bound, said in place
        expression.evaluate(scope)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(DEFAULT_SUMMARIES)), st.lists(VALUES, max_size=8))
@example("Average", [8.988465674311579e307, 8.98846567431158e307])  # found by CI: fsum overflows
def test_any_default_summary_of_any_values_is_a_value(name: str, values: list[object]) -> None:
    """A view's summary under its table, over whatever a column holds (numbers, dates,
    text, lists, nothing): a value or nothing, never an exception where the table goes."""
    found = summary_value(name, values, {}, None)
    assert found is None or isinstance(found, int | float | date | str)
