"""GbrainWriter without gbrain: the stored-form comparison (pure), slug and key checks,
an unreachable server, and our own read-only `serve` (which has no put_page)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from okf_explorer.core.port import PageWriter, SaveOutcome
from okf_explorer.sources.gbrain.contract import (
    body_matches,
    difference,
    expected_page,
    stored_value,
    with_idempotency_key,
)
from okf_explorer.sources.gbrain.write import GbrainWriter, check_slug
from tests.mcp_server_fixture import free_port, serve_bundle

TEXT = """---
type: Trail
title: A trail
idempotency_key: k1
generated: {by: okf-explorer/0.1.0, at: 2026-11-30T19:35:00+01:00}
tags: [b, a]
---

# A trail

- [Alice](/people/alice)
"""

STORED = {
    "slug": "trails/a",
    "type": "Trail",
    "title": "A trail",
    "tags": ["a", "b"],
    "frontmatter": {
        "generated": {"at": "2026-11-30T18:35:00.000Z", "by": "okf-explorer/0.1.0"},
        "idempotency_key": "k1",
    },
    "compiled_truth": "# A trail\n\n- [Alice](/people/alice)",
    "timeline": "",
}


def test_the_stored_form_of_our_page_matches_what_gbrain_keeps():
    assert difference(expected_page(TEXT), STORED) is None


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"title": "Another"}, "title"),
        ({"type": "concept"}, "type"),
        ({"tags": ["a"]}, "tags"),
        ({"compiled_truth": "# A trail\n\n- [Alice](/people/alice) "}, "body"),
        ({"frontmatter": {"idempotency_key": "k1"}}, "frontmatter (generated)"),
        ({"frontmatter": {**STORED["frontmatter"], "idempotency_key": "k2"}}, "idempotency_key"),
    ],
)
def test_any_stored_difference_is_named(change, named):
    found = difference(expected_page(TEXT), {**STORED, **change})
    assert found is not None and named in found


def test_gate_keys_the_server_adds_are_not_a_difference():
    flagged = {**STORED["frontmatter"], "content_flag": {"reason": "markup_heavy"}}
    assert difference(expected_page(TEXT), {**STORED, "frontmatter": flagged}) is None


def test_dates_are_compared_as_js_yaml_stores_them():
    plus_one = timezone(timedelta(hours=1))
    assert stored_value(datetime(2026, 11, 30, 19, 35, 0, 123456, plus_one)) == (
        "2026-11-30T18:35:00.123Z"
    )
    assert stored_value(datetime(2026, 11, 30, 18, 35)) == "2026-11-30T18:35:00.000Z"
    assert stored_value(date(2026, 11, 30)) == "2026-11-30T00:00:00.000Z"
    assert stored_value({"at": [datetime(2026, 1, 1, tzinfo=UTC)]}) == {
        "at": ["2026-01-01T00:00:00.000Z"]
    }


@pytest.mark.parametrize(
    ("body", "compiled", "timeline", "same"),
    [
        ("\n# T\n\ntext\n", "# T\n\ntext", "", True),
        ("# T\n\ntext\n\n<!-- timeline -->\n\n## Timeline\n- 2024: x\n", "# T\n\ntext",
         "## Timeline\n- 2024: x", True),
        ("# T\n\n## Timeline\n- 2024: x\n\n## After\nmore\n", "# T\n\n## After\nmore",
         "## Timeline\n- 2024: x", True),
        ("# T\n\n\n## Timeline\n- 2024: x\n## After\nmore\n", "# T\n\n\n## After\nmore",
         "## Timeline\n- 2024: x", True),
        ("# T\n\ntext\n\n---\n\n## Timeline\n- 2024: x\n", "# T\n\ntext",
         "## Timeline\n- 2024: x", True),
        ("# T\n\ntext\nlost line\n<!-- timeline -->\n- 2024: x\n", "# T\n\ntext",
         "- 2024: x", False),
        ("# T\n\ntext\n", "# T\n\ntext", "- 2024: x", False),
    ],
)  # fmt: skip
def test_the_body_split_accounts_for_every_line(body, compiled, timeline, same):
    assert body_matches(body, compiled, timeline) is same


def test_a_missing_key_is_added_and_a_different_one_refused():
    bare = "---\ntitle: x\n---\nbody\n"
    keyed = with_idempotency_key(bare, "sha256:ab")
    assert keyed == '---\ntitle: x\nidempotency_key: "sha256:ab"\n---\nbody\n'
    assert with_idempotency_key(keyed, "sha256:ab") == keyed
    assert with_idempotency_key("body only\n", "k").startswith('---\nidempotency_key: "k"\n---\n')
    with pytest.raises(ValueError, match="states idempotency_key"):
        with_idempotency_key(keyed, "other")
    with pytest.raises(ValueError, match="not readable"):
        with_idempotency_key("---\na: [\n---\nbody\n", "k")


@pytest.mark.parametrize(
    "slug", ["", "/trails/a", "trails/../x", "trails//a", "a\\b", "a%2fb", "a\tb", "Trails/A"]
)
def test_slugs_gbrain_would_refuse_or_rename_are_a_value_error(slug):
    with pytest.raises(ValueError):
        check_slug(slug)


def test_an_unreachable_server_is_unavailable_and_nothing_written():
    writer = GbrainWriter.connect(f"http://127.0.0.1:{free_port()}/mcp", token="secret-token-1")
    try:
        assert isinstance(writer, PageWriter)
        result = writer.write_page("trails/a", TEXT, idempotency_key="k1")
    finally:
        writer.close()
    assert result.outcome is SaveOutcome.UNAVAILABLE and result.attempts == 0
    assert "the write was not sent" in result.detail and "secret-token-1" not in result.detail


def test_our_own_read_only_serve_refuses_the_write(tmp_path: Path):
    bundle = tmp_path / "brain"
    bundle.mkdir()
    (bundle / "page.md").write_text("# Page\n")
    with serve_bundle(bundle) as server:
        writer = GbrainWriter.connect(server.url, token=None)
        try:
            result = writer.write_page("trails/a", TEXT, idempotency_key="k1")
        finally:
            writer.close()
    assert result.outcome is SaveOutcome.REFUSED and result.attempts == 1
    assert "unknown_operation" in result.detail
    assert sorted(p.name for p in bundle.iterdir()) == ["page.md"]


def test_the_counting_proxy_counts_what_a_server_would_have_got(counting_proxy):
    proxy = counting_proxy(None)  # no upstream: every request is answered 502
    writer = GbrainWriter.connect(proxy.url, token="secret-token-2")
    try:
        result = writer.write_page("trails/a", TEXT, idempotency_key="k1")
    finally:
        writer.close()
    assert result.outcome is SaveOutcome.UNAVAILABLE and result.attempts == 0
    assert proxy.count(method="initialize") == len(proxy.requests) >= 1
    assert proxy.count("put_page") == 0
