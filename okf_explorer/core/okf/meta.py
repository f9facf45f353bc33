"""OKF v0.2 trust, lifecycle and provenance read from a page's frontmatter (pure).

- `status`: draft / stable / deprecated; absent (or empty) means stable (§5.4).
- `verified`: a list of `{by, at}` events; one bare mapping is a one-element list (§5.2).
- trust tier (§5.3): no `verified` ⇒ unverified; only non-`human:` actors ⇒
  machine-confirmed; any `human:<id>` actor ⇒ human-reviewed.
- staleness (§5.5): stale when `now >= stale_after`. Only an ISO 8601 datetime with
  an explicit UTC offset counts: a date-only or offset-less value names a different
  instant in every timezone, so it is ignored (never stale), as the reference does.
- `sources` (§5.1): titled entries whose `resource` is a URL, a path (a concept of
  the bundle) or a scope descriptor that cannot be followed.

`value_text` renders any frontmatter value as readable text: timestamps as ISO 8601,
lists and mappings as `key: value` lines, nested values indented.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Literal

Status = Literal["draft", "stable", "deprecated"]
TrustTier = Literal["unverified", "machine-confirmed", "human-reviewed"]
ResourceKind = Literal["url", "path", "scope"]

STATUSES: tuple[Status, ...] = ("draft", "stable", "deprecated")
STATUS_GLYPHS: dict[str, str] = {"draft": "✎", "stable": "●", "deprecated": "⊘"}
TRUST_GLYPHS: dict[TrustTier, str] = {
    "unverified": "○",
    "machine-confirmed": "◐",
    "human-reviewed": "◉",
}
STALE_GLYPH = "⚠"
FRESH_GLYPH = "✓"
HUMAN_PREFIX = "human:"
TRUST_ORDER: tuple[TrustTier, ...] = ("unverified", "machine-confirmed", "human-reviewed")
"""The §5.3 tiers, lowest first (`--min-trust` compares positions)."""
OKF_KEYS = frozenset({"verified", "stale_after", "generated"})
"""A page with any of these, a `status` OKF defines or OKF-shaped `sources` (a mapping
with a `resource`) is an OKF v0.2 concept: its trust tier is shown even when
unverified. Other pages are plain notes (an Obsidian `status: done`, gbrain's
`sources: [name]`): no trust glyph."""
INLINE_WIDTH = 72
"""A list or mapping of scalars whose one-line form is at most this long stays on one line."""

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://|^mailto:", re.IGNORECASE)


@dataclass(frozen=True)
class Verification:
    """One `verified` event: `by` an actor (`human:kliu`, `process:nightly`), `at` ISO text."""

    by: str
    at: str | None

    @property
    def human(self) -> bool:
        return self.by.startswith(HUMAN_PREFIX)


@dataclass(frozen=True)
class Source:
    """One `sources` entry; `extra` holds its other keys (`author`, `usage_count`, …)."""

    resource: str
    id: str | None = None
    title: str | None = None
    extra: tuple[tuple[str, Any], ...] = ()

    @property
    def kind(self) -> ResourceKind:
        return resource_kind(self.resource)


def status_of(frontmatter: dict[str, Any]) -> str:
    """`draft`, `stable` or `deprecated` (lower-cased); absent ⇒ `stable`; another
    value is returned as written (lower-cased), not guessed at."""
    raw = frontmatter.get("status")
    if raw is None:
        return "stable"
    text = str(raw).strip().lower()
    return text or "stable"


def is_okf_concept(frontmatter: dict[str, Any]) -> bool:
    """Whether the page states OKF v0.2 trust, lifecycle or provenance (see `OKF_KEYS`)."""
    if not frontmatter:
        return False
    if not OKF_KEYS.isdisjoint(frontmatter):
        return True
    if "status" in frontmatter and status_of(frontmatter) in STATUSES:
        return True
    sources = frontmatter.get("sources")
    entries = sources if isinstance(sources, list) else [sources]
    return any(isinstance(entry, dict) and "resource" in entry for entry in entries)


def summary(frontmatter: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    """`(status, trust tier, stale_after)` as a `PageInfo` keeps them: the stated status
    (lower-cased; None when absent, which means `stable`), the tier (None for a page
    that is not an OKF concept: `is_okf_concept`) and the `stale_after` instant as ISO
    text (None when absent or not a time with an offset)."""
    if not frontmatter:
        return None, None, None
    status = status_of(frontmatter) if frontmatter.get("status") is not None else None
    if not is_okf_concept(frontmatter):
        return status, None, None
    deadline = stale_after(frontmatter)
    return status, trust_tier(frontmatter), iso(deadline) if deadline is not None else None


def verifications(frontmatter: dict[str, Any]) -> list[Verification]:
    """The `verified` events as a list; a bare mapping is one event; non-mappings are skipped."""
    raw = frontmatter.get("verified")
    events = [raw] if isinstance(raw, dict) else raw if isinstance(raw, list) else []
    return [
        Verification(by=scalar_text(event.get("by")), at=_maybe_text(event.get("at")))
        for event in events
        if isinstance(event, dict)
    ]


def trust_tier(frontmatter: dict[str, Any]) -> TrustTier:
    """The §5.3 tier: any `human:` verifier ⇒ human-reviewed; any other ⇒ machine-confirmed."""
    events = verifications(frontmatter)
    if not events:
        return "unverified"
    return "human-reviewed" if any(event.human for event in events) else "machine-confirmed"


def instant(value: Any) -> datetime | None:
    """`value` as an aware datetime when it is an ISO 8601 datetime with an offset, else None
    (a date-only value, a datetime without offset, or anything else)."""
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else None
    if not isinstance(value, str) or "T" not in value:
        return None  # a `date` too: it names no instant
    text = value.strip()
    try:
        parsed = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def stale_after(frontmatter: dict[str, Any]) -> datetime | None:
    """The `stale_after` instant, or None when absent or not a datetime with an offset."""
    return instant(frontmatter.get("stale_after"))


def is_stale(frontmatter: dict[str, Any], now: datetime | None = None) -> bool:
    """Whether `now` (default: the current time) is on or after `stale_after`."""
    deadline = stale_after(frontmatter)
    if deadline is None:
        return False
    return (now or datetime.now(UTC)) >= deadline


def resource_kind(resource: str) -> ResourceKind:
    """`url` (has a scheme), `path` (one word: a bundle-relative or relative path to a
    concept) or `scope` (prose such as `all queries in project X`)."""
    text = resource.strip()
    if _URL.match(text):
        return "url"
    return "path" if text and not any(char.isspace() for char in text) else "scope"


def sources_of(frontmatter: dict[str, Any]) -> list[Source]:
    """The `sources` entries; a bare string is an entry with only a `resource`."""
    raw = frontmatter.get("sources")
    items = raw if isinstance(raw, list) else [] if raw is None else [raw]
    found: list[Source] = []
    for item in items:
        if isinstance(item, dict):
            extra = tuple(
                (str(key), value)
                for key, value in item.items()
                if str(key) not in ("id", "title", "resource")
            )
            found.append(
                Source(
                    resource=scalar_text(item.get("resource")),
                    id=_maybe_text(item.get("id")),
                    title=_maybe_text(item.get("title")),
                    extra=extra,
                )
            )
        elif item is not None:
            found.append(Source(resource=scalar_text(item)))
    return found


def scalar_text(value: Any) -> str:
    """One scalar as text: timestamps as ISO 8601, booleans as `true`/`false`, None as ``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (dict, list, tuple)):
        return value_text(value).replace("\n", "; ")
    return str(value)


def iso(moment: datetime) -> str:
    """ISO 8601 with `Z` for UTC (as OKF writes it), else the offset (`+02:00`)."""
    text = moment.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def value_lines(value: Any) -> list[str]:
    """`value` as readable lines: a scalar on one line; a list of short scalars as
    `a, b, c`; otherwise lists as `- item` and mappings as `key: value` lines, nested
    values indented by two spaces."""
    if isinstance(value, dict):
        if _flat(value.values()):
            inline = ", ".join(f"{key}: {scalar_text(item)}" for key, item in value.items())
            if len(inline) <= INLINE_WIDTH:
                return [inline]
        lines: list[str] = []
        for key, item in value.items():
            lines += _labelled(f"{key}:", item)
        return lines
    if isinstance(value, (list, tuple)):
        if _flat(value):
            inline = ", ".join(scalar_text(item) for item in value)
            if len(inline) <= INLINE_WIDTH:
                return [inline]
        lines = []
        for item in value:
            lines += _labelled("-", item)
        return lines
    return scalar_text(value).splitlines() or [""]


def value_text(value: Any) -> str:
    """`value_lines` joined with newlines."""
    return "\n".join(value_lines(value))


def _labelled(label: str, value: Any) -> list[str]:
    inner = value_lines(value)
    if len(inner) == 1 and (label == "-" or not isinstance(value, dict)):
        return [f"{label} {inner[0]}"]
    if label == "-":
        return [f"- {inner[0]}"] + ["  " + line for line in inner[1:]]
    return [label] + ["  " + line for line in inner]


def _flat(values: Any) -> bool:
    return all(not isinstance(item, (dict, list, tuple)) for item in values)


def _maybe_text(value: Any) -> str | None:
    text = scalar_text(value)
    return text or None
