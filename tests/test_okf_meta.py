"""okf_meta: OKF v0.2 status, verified, trust tier, staleness, sources, readable values."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import yaml

from okf_explorer.core.okf import meta as okf_meta
from okf_explorer.core.okf.meta import Source, Verification
from tests.bundles import write_bundle

FRONTMATTER = """
title: Net churn
type: metric
status: draft
verified:
  - { by: human:rosa@example, at: 2026-03-01T10:00:00Z }
  - { by: process:nightly-check, at: 2026-03-02T02:30:00+02:00 }
stale_after: 2026-06-01T00:00:00Z
sources:
  - id: billing-export
    resource: https://example.org/billing/export
    title: Billing export notes
    usage_count: 42
  - id: churn-base
    resource: /metrics/customer-base.md
    title: Customer base
  - resource: all invoices of the west region
"""


def parsed(text: str) -> dict[str, Any]:
    """Frontmatter as the bundle reader parses it (YAML makes datetimes of timestamps)."""
    return yaml.safe_load(text)


def test_status_is_stable_when_absent_and_lower_cased_otherwise() -> None:
    assert okf_meta.status_of({}) == "stable"
    assert okf_meta.status_of({"status": ""}) == "stable"
    assert okf_meta.status_of({"status": "Deprecated"}) == "deprecated"
    assert okf_meta.status_of(parsed(FRONTMATTER)) == "draft"
    # a vault's status property of links: its text, never a Python list
    assert okf_meta.status_of({"status": ["[[Published]]", "Done"]}) == "[[published]], done"


def test_verified_list_and_one_bare_mapping() -> None:
    events = okf_meta.verifications(parsed(FRONTMATTER))
    assert events == [
        Verification("human:rosa@example", "2026-03-01T10:00:00Z"),
        Verification("process:nightly-check", "2026-03-02T02:30:00+02:00"),
    ]
    one = parsed("verified: { by: human:ari, at: 2026-01-05T08:00:00Z }")
    assert okf_meta.verifications(one) == [Verification("human:ari", "2026-01-05T08:00:00Z")]
    assert okf_meta.verifications({"verified": ["not a mapping"]}) == []


@pytest.mark.parametrize(
    ("frontmatter", "tier"),
    [
        ({}, "unverified"),
        ({"verified": []}, "unverified"),
        (
            {"verified": {"by": "process:nightly", "at": "2026-01-01T00:00:00Z"}},
            "machine-confirmed",
        ),
        ({"verified": [{"by": "agent/2.0"}, {"by": "process:x"}]}, "machine-confirmed"),
        ({"verified": [{"by": "process:x"}, {"by": "human:ari"}]}, "human-reviewed"),
        ({"verified": {"by": "humans:not-a-person"}}, "machine-confirmed"),
    ],
)
def test_trust_tier_any_human_actor_means_reviewed(frontmatter: dict[str, Any], tier: str) -> None:
    assert okf_meta.trust_tier(frontmatter) == tier


def test_stale_when_now_reaches_stale_after() -> None:
    fm = parsed(FRONTMATTER)
    deadline = datetime(2026, 6, 1, tzinfo=UTC)
    assert okf_meta.stale_after(fm) == deadline
    assert not okf_meta.is_stale(fm, now=deadline - timedelta(seconds=1))
    assert okf_meta.is_stale(fm, now=deadline)
    assert okf_meta.is_stale(fm, now=deadline + timedelta(days=1))


def test_stale_after_with_an_offset_and_as_text() -> None:
    east = timezone(timedelta(hours=5))
    fm = {"stale_after": "2026-06-01T05:00:00+05:00"}
    assert okf_meta.stale_after(fm) == datetime(2026, 6, 1, 5, tzinfo=east)
    assert okf_meta.is_stale(fm, now=datetime(2026, 6, 1, 0, 0, tzinfo=UTC))
    assert not okf_meta.is_stale(fm, now=datetime(2026, 5, 31, 23, 59, tzinfo=UTC))
    assert okf_meta.stale_after({"stale_after": "2026-06-01T00:00:00Z"}) is not None


@pytest.mark.parametrize(
    "value",
    [date(2020, 1, 1), "2020-01-01", "2020-01-01T00:00:00", datetime(2020, 1, 1), "soon", None],
)
def test_date_only_or_offsetless_stale_after_is_ignored(value: Any) -> None:
    fm = {"stale_after": value}
    assert okf_meta.stale_after(fm) is None
    assert not okf_meta.is_stale(fm, now=datetime(2030, 1, 1, tzinfo=UTC))


def test_date_only_from_yaml_is_ignored() -> None:
    assert not okf_meta.is_stale(parsed("stale_after: 2020-01-01"))


def test_sources_are_titled_entries_with_the_kind_of_resource() -> None:
    sources = okf_meta.sources_of(parsed(FRONTMATTER))
    assert sources == [
        Source(
            "https://example.org/billing/export",
            "billing-export",
            "Billing export notes",
            (("usage_count", 42),),
        ),
        Source("/metrics/customer-base.md", "churn-base", "Customer base"),
        Source("all invoices of the west region"),
    ]
    assert [source.kind for source in sources] == ["url", "path", "scope"]
    assert okf_meta.resource_kind("../computations/x.md") == "path"
    assert okf_meta.sources_of({"sources": "https://a.example"}) == [Source("https://a.example")]
    assert okf_meta.sources_of({}) == []


def test_values_render_as_readable_text_never_python_reprs() -> None:
    fm = parsed(FRONTMATTER)
    rendered = okf_meta.value_text(fm)
    assert "datetime" not in rendered and "{'" not in rendered and "[" not in rendered
    assert "- by: human:rosa@example, at: 2026-03-01T10:00:00Z" in rendered
    assert "at: 2026-03-02T02:30:00+02:00" in rendered
    assert okf_meta.value_lines(["a", 1, True, None]) == ["a, 1, true, "]
    assert okf_meta.value_lines(date(2026, 1, 2)) == ["2026-01-02"]
    nested = {"a": [1, {"b": 2, "c": ["x", "y"]}], "when": datetime(2026, 1, 1, tzinfo=UTC)}
    assert okf_meta.value_lines(nested) == [
        "a:",
        "  - 1",
        "  - b: 2",
        "    c: x, y",
        "when: 2026-01-01T00:00:00Z",
    ]
    assert okf_meta.value_lines("two\nlines") == ["two", "lines"]


def test_get_json_keeps_the_frontmatter_exact_with_iso_timestamps(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    text = "---" + FRONTMATTER + 'date: 2026-01-15\n"odd\\x1bkey": {deep: [1, 2]}\n---\nbody\n'
    root = write_bundle(tmp_path / "b", {"churn.md": text})
    status, out, err = run("get", "--source", str(root), "churn", "--json")
    assert status == 0, err
    fm = json.loads(out)["frontmatter"]
    assert fm["verified"][1] == {"by": "process:nightly-check", "at": "2026-03-02T02:30:00+02:00"}
    assert fm["stale_after"] == "2026-06-01T00:00:00+00:00"
    assert fm["date"] == "2026-01-15"
    assert fm["sources"][0]["usage_count"] == 42
    assert fm["odd\x1bkey"] == {"deep": [1, 2]}
