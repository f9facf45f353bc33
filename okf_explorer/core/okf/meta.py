"""OKF v0.2 trust, lifecycle, provenance and attestation read from a page's frontmatter (pure).

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

An attested computation's contract (§10, `contract_of`) is `runtime` (REQUIRED for
`type: Attested Computation`), `parameters` (`{name, type, required}` entries),
`computation` (a path; absent ⇒ the body's `# Computation` fence), `executor`
(`resource`, `receipt`) and `attester` (`resource`). OKF stores no attestation: a run
is attested consumer-side (§10.6). So "failing" here means what a bundle can say, and
it is always shown, never dropped:

- a **recorded verdict that fails**: an `attester` mapping whose `verdict`,
  `result`, `status`, `passed` or `ok` key says `fail`/`failed`/`failure`/`error`/
  `rejected`/`mismatch`/`false` (a producer that keeps its last run's outcome);
  `pass`/`passed`/`ok`/`success`/`attested`/`true` is a passing one;
- an **incomplete contract**: an Attested Computation without `runtime`, an
  `executor` or `attester` without `resource`, a parameter without `name`.
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


def stated_status(frontmatter: dict[str, Any]) -> str | None:
    """The `status` the page states, lower-cased (a list as `a, b`: a vault's
    `status: ["[[Published]]"]` is `[[published]]`); None when it states none: no key,
    or one left empty (`status:` in a vault's template, on 1,709 notes of one)."""
    raw = frontmatter.get("status")
    if raw is None:
        return None
    return scalar_text(raw).strip().lower() or None


def status_of(frontmatter: dict[str, Any]) -> str:
    """`draft`, `stable` or `deprecated`; none stated ⇒ `stable`; another value is
    returned as written (`stated_status`), not guessed at."""
    return stated_status(frontmatter) or "stable"


def is_okf_concept(frontmatter: dict[str, Any]) -> bool:
    """Whether the page states OKF v0.2 trust, lifecycle or provenance (see `OKF_KEYS`)."""
    if not frontmatter:
        return False
    if not OKF_KEYS.isdisjoint(frontmatter):
        return True
    if stated_status(frontmatter) in STATUSES:
        return True
    sources = frontmatter.get("sources")
    entries = sources if isinstance(sources, list) else [sources]
    return any(isinstance(entry, dict) and "resource" in entry for entry in entries)


def summary(frontmatter: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    """`(status, trust tier, stale_after)` as a `PageInfo` keeps them: the stated status
    (lower-cased; None when absent or empty, which means `stable`), the tier (None for a page
    that is not an OKF concept: `is_okf_concept`) and the `stale_after` instant as ISO
    text (None when absent or not a time with an offset)."""
    if not frontmatter:
        return None, None, None
    status = stated_status(frontmatter)
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


CONTRACT_KEYS = ("runtime", "parameters", "computation", "executor", "attester")
ATTESTED_TYPE = "attested computation"
VERDICT_KEYS = ("verdict", "result", "status", "passed", "ok")
FAILING = frozenset({"fail", "failed", "failure", "error", "rejected", "mismatch", "false"})
PASSING = frozenset({"pass", "passed", "ok", "success", "attested", "true"})

Verdict = Literal["pass", "fail", "unknown"]


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    type: str
    required: bool


@dataclass(frozen=True, slots=True)
class Contract:
    """What the frontmatter states; `verdict` is None when no outcome is recorded."""

    runtime: str | None
    parameters: tuple[Parameter, ...]
    computation: str | None
    executor: str | None
    receipt: tuple[str, ...]
    attester: str | None
    verdict: Verdict | None
    verdict_text: str
    """The recorded outcome as written (`verdict: fail`), for the reader."""
    verdict_details: tuple[tuple[str, Any], ...]
    """The attester's other keys beside `resource` and the verdict (`at`, `reason`)."""
    problems: tuple[str, ...]

    @property
    def failing(self) -> bool:
        return self.verdict == "fail" or bool(self.problems)


def contract_of(frontmatter: dict[str, Any], page_type: str | None = None) -> Contract | None:
    """The contract, or None for a page that states none of `CONTRACT_KEYS` and is not
    of type Attested Computation."""
    attested = (page_type or "").strip().lower() == ATTESTED_TYPE
    if not attested and not any(key in frontmatter for key in CONTRACT_KEYS):
        return None
    problems: list[str] = []
    runtime = _text(frontmatter.get("runtime"))
    if runtime is None and attested:
        problems.append("no runtime (REQUIRED for an Attested Computation)")
    parameters = _parameters(frontmatter.get("parameters"), problems)
    executor, receipt = _resource(frontmatter, "executor", problems), ()
    raw_executor = frontmatter.get("executor")
    if isinstance(raw_executor, dict):
        raw = raw_executor.get("receipt")
        items = raw if isinstance(raw, list) else [] if raw is None else [raw]
        receipt = tuple(scalar_text(item) for item in items)
    attester = _resource(frontmatter, "attester", problems)
    verdict, verdict_text, details = _verdict(frontmatter.get("attester"))
    return Contract(
        runtime=runtime,
        parameters=parameters,
        computation=_text(frontmatter.get("computation")),
        executor=executor,
        receipt=receipt,
        attester=attester,
        verdict=verdict,
        verdict_text=verdict_text,
        verdict_details=details,
        problems=tuple(problems),
    )


def _parameters(raw: Any, problems: list[str]) -> tuple[Parameter, ...]:
    items = raw if isinstance(raw, list) else [] if raw is None else [raw]
    found = []
    for item in items:
        if isinstance(item, dict):
            name = _text(item.get("name"))
            if name is None:
                problems.append("a parameter without a name")
                continue
            required = item.get("required") is True or scalar_text(item.get("required")) == "true"
            found.append(Parameter(name, _text(item.get("type")) or "?", required))
        elif item is not None:
            found.append(Parameter(scalar_text(item), "?", False))
    return tuple(found)


def _resource(frontmatter: dict[str, Any], key: str, problems: list[str]) -> str | None:
    raw = frontmatter.get(key)
    if raw is None:
        return None
    resource = _text(raw.get("resource")) if isinstance(raw, dict) else _text(raw)
    if resource is None:
        problems.append(f"{key} without a resource")
    return resource


def _verdict(raw: Any) -> tuple[Verdict | None, str, tuple[tuple[str, Any], ...]]:
    if not isinstance(raw, dict):
        return None, "", ()
    key = next((key for key in VERDICT_KEYS if key in raw), None)
    details = tuple(
        (str(name), value) for name, value in raw.items() if name not in ("resource", key)
    )
    if key is None:
        return None, "", details
    said = scalar_text(raw[key]).strip().lower()
    verdict: Verdict = "fail" if said in FAILING else "pass" if said in PASSING else "unknown"
    return verdict, f"{key}: {scalar_text(raw[key])}", details


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    text = scalar_text(value).strip()
    return text or None
