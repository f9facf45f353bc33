"""An OKF v0.2 attested computation's contract (§10) read from frontmatter (pure).

The contract is `runtime` (REQUIRED for `type: Attested Computation`), `parameters`
(`{name, type, required}` entries), `computation` (a path; absent ⇒ the body's
`# Computation` fence), `executor` (`resource`, `receipt`) and `attester`
(`resource`). OKF stores no attestation: a run is attested consumer-side (§10.6).
So "failing" here means what a bundle can say, and it is always shown, never dropped:

- a **recorded verdict that fails**: an `attester` mapping whose `verdict`,
  `result`, `status`, `passed` or `ok` key says `fail`/`failed`/`failure`/`error`/
  `rejected`/`mismatch`/`false` (a producer that keeps its last run's outcome);
  `pass`/`passed`/`ok`/`success`/`attested`/`true` is a passing one;
- an **incomplete contract**: an Attested Computation without `runtime`, an
  `executor` or `attester` without `resource`, a parameter without `name`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from okf_explorer.core.okf.meta import scalar_text

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
