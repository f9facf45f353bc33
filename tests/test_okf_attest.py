"""An attested computation's contract (`core.okf.meta`) and the row glyphs
(`tui.marks.row_badge`) as pure functions."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from okf_explorer.core.okf.meta import Parameter, contract_of
from okf_explorer.tui.marks import row_badge
from tests.okf_bundle import frontmatter_info


def test_no_contract_on_an_ordinary_page() -> None:
    assert contract_of({"type": "Metric", "status": "stable"}, "Metric") is None


def test_the_contract_fields_are_read() -> None:
    contract = contract_of(
        {
            "runtime": "bigquery",
            "parameters": [{"name": "year", "type": "integer", "required": True}, {"name": "q"}],
            "computation": "references/x.sql",
            "executor": {"resource": "skills/run.md", "receipt": ["job_id", "executed_sql"]},
            "attester": {"resource": "attesters/eq.py"},
        },
        "Attested Computation",
    )
    assert contract is not None and not contract.failing
    assert contract.parameters == (Parameter("year", "integer", True), Parameter("q", "?", False))
    assert (contract.computation, contract.executor, contract.attester) == (
        "references/x.sql",
        "skills/run.md",
        "attesters/eq.py",
    )
    assert contract.receipt == ("job_id", "executed_sql") and contract.verdict is None


@pytest.mark.parametrize(
    ("said", "verdict"),
    [("fail", "fail"), ("FAILED", "fail"), (False, "fail"), ("passed", "pass"), (True, "pass"),
     ("maybe", "unknown")],
)  # fmt: skip
def test_a_recorded_verdict_is_read(said: object, verdict: str) -> None:
    contract = contract_of({"runtime": "dbt", "attester": {"resource": "a.py", "result": said}})
    assert contract is not None and contract.verdict == verdict
    assert contract.failing is (verdict == "fail")


def test_an_incomplete_contract_is_failing() -> None:
    contract = contract_of(
        {"parameters": [{"type": "int"}], "executor": {"receipt": ["x"]}}, "attested computation"
    )
    assert contract is not None and contract.failing
    assert contract.problems == (
        "no runtime (REQUIRED for an Attested Computation)",
        "a parameter without a name",
        "executor without a resource",
    )


def info(frontmatter: dict[str, object]):  # type: ignore[no-untyped-def]
    return frontmatter_info(frontmatter)


def test_row_badges() -> None:
    now = datetime(2026, 11, 30, tzinfo=UTC)
    assert row_badge(info({"type": "note"}), now).plain == ""  # a plain note
    assert row_badge(None, now).plain == ""
    assert row_badge(info({"status": "done", "sources": ["a podcast"]}), now).plain == ""  # vault
    assert row_badge(info({"sources": [{"resource": "x.md"}]}), now).plain == "○ "
    assert row_badge(info({"status": "stable"}), now).plain == "○ "
    human = {"verified": {"by": "human:a", "at": "2026-01-01T00:00:00Z"}}
    assert row_badge(info({**human, "status": "draft"}), now).plain == "✎◉ "
    stale = {"status": "deprecated", "stale_after": "2026-11-01T00:00:00Z"}
    assert row_badge(info(stale), now).plain == "⊘○⚠ "
    assert row_badge(info({"status": "accepted", "verified": [{"by": "ci"}]}), now).plain == "?◐ "
    assert row_badge(info({**stale, "stale_after": "2026-11-01"}), now).plain == "⊘○ "  # date only
