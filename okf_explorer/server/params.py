"""Tool errors and argument readers with gbrain's exact wording (GBRAIN_PROTOCOL §5).

Clients written against gbrain match on the `error` code and sometimes on the
message, so the texts here are copied from a real gbrain server.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

SOURCE_ID = "default"
"""gbrain's source id for a single-source brain; we serve exactly one."""


@dataclass(frozen=True)
class ToolError(Exception):
    """A tool failure sent back as `isError: true` with `{"error": code, "message": …}`.

    `extra` keys are appended after `message` (e.g. `suggestion`).
    """

    code: str
    message: str
    extra: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message

    def payload(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


def invalid(message: str) -> ToolError:
    return ToolError("invalid_params", message)


def page_not_found(slug: str) -> ToolError:
    return ToolError(
        "page_not_found",
        f"Page not found: {slug}",
        {"suggestion": "Page may be soft-deleted; pass include_deleted: true to verify"},
    )


def is_hostile_slug(slug: str) -> bool:
    """Slugs that could name something outside the bundle: never looked up at all."""
    return not slug or ".." in slug or slug.startswith("/") or "\\" in slug or "\x00" in slug


def required_str(args: Mapping[str, Any], name: str) -> str:
    value = args.get(name)
    if value is None:
        raise invalid(f"Missing required parameter: {name}")
    if not isinstance(value, str):
        raise invalid(f'Parameter "{name}" must be a string')
    return value


def optional_str(args: Mapping[str, Any], name: str) -> str | None:
    value = args.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise invalid(f'Parameter "{name}" must be a string')
    return value


def optional_bool(args: Mapping[str, Any], name: str) -> bool:
    value = args.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise invalid(f'Parameter "{name}" must be a boolean')
    return value


def optional_int(args: Mapping[str, Any], name: str) -> int | None:
    """A number argument as an int (fractions truncated); bools and strings are refused."""
    value = args.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise invalid(f'Parameter "{name}" must be a number')
    if isinstance(value, float) and value != value:  # NaN
        raise invalid(f'Parameter "{name}" must be a number')
    try:
        return int(value)
    except OverflowError:
        raise invalid(f'Parameter "{name}" must be a number') from None


def optional_enum(
    args: Mapping[str, Any], name: str, choices: Sequence[str], default: str | None
) -> str | None:
    value = args.get(name)
    if value is None:
        return default
    if not isinstance(value, str) or value not in choices:
        raise invalid(f'Parameter "{name}" must be one of: {", ".join(choices)}')
    return value


def parse_timestamp(value: str) -> datetime:
    """`YYYY-MM-DD` or an ISO 8601 timestamp as an aware datetime (naive → UTC).

    Garbage gives gbrain's reply, an `internal_error` quoting Postgres.
    """
    text = value.strip()
    try:
        if len(text) == 10:
            parsed = datetime.combine(date.fromisoformat(text), datetime.min.time())
        else:
            parsed = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        raise ToolError(
            "internal_error",
            f'invalid input syntax for type timestamp with time zone: "{value}"',
        ) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


@functools.lru_cache(maxsize=1 << 18)
def timestamp_or_none(value: str | None) -> datetime | None:
    """A page's `updated_at` as a datetime, or None when absent or unparseable.

    Memoised: `list_pages` sorts every page by time on each call, and clients
    page through a corpus in hundreds of calls.
    """
    if not value:
        return None
    try:
        return parse_timestamp(value)
    except ToolError:
        return None
