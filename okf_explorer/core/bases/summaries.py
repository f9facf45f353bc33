"""A view's summaries: one value a column, over the rows it shows, under its table.

A view names a summary for a property (`summaries: {note.price: Average}`): one of
Obsidian's defaults ("Bases syntax", "Default Summary Formulas"), or a formula of the
base's own `summaries` section, evaluated with `values` (the column's values, a list).

The defaults, by the kind of value they read (values of another kind are left out):

- numbers: `Average`, `Min`, `Max`, `Sum`, `Range` (max minus min), `Median`, `Stddev`
  (the population's);
- dates: `Earliest`, `Latest`, `Range` (a duration, when every value is a date);
- true/false: `Checked`, `Unchecked` (how many);
- any: `Empty`, `Filled`, `Unique` (how many).

A summary of no value of its kind is empty, and so is one past a float's range. An
average, median or deviation is rounded to two places, as Obsidian's tables show them.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from okf_explorer.core.bases.expression import (
    Duration,
    Expression,
    ExpressionError,
    Scope,
    cell_text,
    is_empty,
    order_key,
)

__all__ = ["DEFAULT_SUMMARIES", "summary_value"]


def _numbers(values: Sequence[Any]) -> list[float]:
    return [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]


def _dates(values: Sequence[Any]) -> list[date]:
    return [v for v in values if isinstance(v, date)]  # a datetime is a date


def _rounded(number: float) -> float:
    return round(number, 2)


def _range(values: Sequence[Any]) -> Any:
    present = [v for v in values if not is_empty(v)]
    dates = _dates(present)
    if dates and len(dates) == len(present):
        return Duration((max(map(order_key, dates)) - min(map(order_key, dates))) * 1000)
    numbers = _numbers(present)
    return max(numbers) - min(numbers) if numbers else None


def _when(
    pick: Callable[[Sequence[Any]], list[Any]], then: Callable[[list[Any]], Any]
) -> Callable[[Sequence[Any]], Any]:
    """A summary of the values `pick` keeps, empty when it keeps none."""
    return lambda values: then(found) if (found := pick(values)) else None


DEFAULT_SUMMARIES: dict[str, Callable[[Sequence[Any]], Any]] = {
    "Average": _when(_numbers, lambda xs: _rounded(statistics.fmean(xs))),
    "Min": _when(_numbers, min),
    "Max": _when(_numbers, max),
    "Sum": _when(_numbers, sum),
    "Range": _range,
    "Median": _when(_numbers, lambda xs: _rounded(statistics.median(xs))),
    "Stddev": _when(_numbers, lambda xs: _rounded(statistics.pstdev(xs))),
    "Earliest": _when(_dates, lambda ds: min(ds, key=order_key)),
    "Latest": _when(_dates, lambda ds: max(ds, key=order_key)),
    "Checked": lambda values: sum(1 for v in values if v is True),
    "Unchecked": lambda values: sum(1 for v in values if v is False),
    "Empty": lambda values: sum(1 for v in values if is_empty(v)),
    "Filled": lambda values: sum(1 for v in values if not is_empty(v)),
    "Unique": lambda values: len({cell_text(v) for v in values if not is_empty(v)}),
}
"""Obsidian's default summaries, by name."""
_DEFAULTS_BY_FOLDED = {name.casefold(): name for name in DEFAULT_SUMMARIES}


def summary_value(
    name: str, values: Sequence[Any], custom: Mapping[str, Expression], scope: Scope | None
) -> Any:
    """Summary `name` of a column's `values`: the base's own formula of that name (run on
    `scope`, any row of the table, with `values` bound), else a default one (any case).
    `ExpressionError` names a summary that is neither."""
    if name in custom:
        if scope is None:
            return None
        return custom[name].evaluate(scope, {"values": list(values)})
    default = _DEFAULTS_BY_FOLDED.get(name.casefold())
    if default is None:
        raise ExpressionError(f"no summary {name!r}")
    try:
        return DEFAULT_SUMMARIES[default](values)
    except ArithmeticError:  # numbers past a float's range (an average of two near 1e308)
        return None
