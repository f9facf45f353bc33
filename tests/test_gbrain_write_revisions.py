"""Saving into a gbrain v0.51+ server (issue 22 §2): revisions, request ids, pending
receipts; against the loopback stand-in of `tests/gbrain_standin.py`, which keeps
gbrain's documented write rules (the pinned real gbrain predates them: its tests
are `test_gbrain_write.py` and `test_save_gbrain_refusals.py`)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from okf_explorer.core.page_write import SaveOutcome
from okf_explorer.sources.gbrain.contract import request_id
from okf_explorer.sources.gbrain.write import GbrainWriter
from tests.gbrain_standin import GbrainStandIn, standin

SLUG = "slices/x"
KEY = "sha256:" + "1" * 64


def text(key: str = KEY, extra: str = "") -> str:
    return (
        f'---\ntype: Slice\ntitle: Slice of x\nidempotency_key: "{key}"\ntags: [slice]\n---\n'
        f"\n# Slice of x\n\n- [A](/a.md)\n{extra}"
    )


@pytest.fixture
def server() -> Iterator[GbrainStandIn]:
    with standin() as state:
        yield state


@pytest.fixture
def writers() -> Iterator[Any]:
    made: list[GbrainWriter] = []

    def make(state: GbrainStandIn, *, wait: float = 5.0, timeout: float = 10.0) -> GbrainWriter:
        writer = GbrainWriter.connect(state.url, token=None, timeout=timeout, pending_wait_s=wait)
        writer.retry_backoff_s = 0.01
        made.append(writer)
        return writer

    yield make
    for writer in made:
        writer.close()


def first_put(fault: tuple[str, float]) -> Any:
    """A stand-in fault for the first `put_page` only."""
    fired: list[bool] = []

    def fault_once(tool: str, args: dict[str, Any]) -> tuple[str, float] | None:
        if tool != "put_page" or fired:
            return None
        fired.append(True)
        return fault

    return fault_once


def save(writer: GbrainWriter, body: str | None = None, key: str = KEY):
    return writer.write_page(SLUG, body or text(key), idempotency_key=key)


def test_a_create_names_no_revision_and_a_request_id_from_the_key(server, writers):
    result = save(writers(server))
    assert (result.outcome, result.attempts) == (SaveOutcome.WRITTEN, 1), result.detail
    (sent,) = server.arguments("put_page")
    assert "expected_revision" not in sent and "force" not in sent
    assert sent["request_id"] == request_id(KEY, SLUG, None)
    assert str(uuid.UUID(sent["request_id"])) == sent["request_id"]
    assert server.tools() == ["get_page", "put_page", "get_page"]
    assert server.pages[SLUG]["frontmatter"]["idempotency_key"] == KEY


def test_the_same_save_again_is_unchanged_and_the_contract_is_asked_once(server, writers):
    writer = writers(server)
    assert save(writer).outcome is SaveOutcome.WRITTEN
    again = save(writer)
    assert (again.outcome, again.attempts) == (SaveOutcome.UNCHANGED, 0)
    assert len(server.arguments("put_page")) == 1
    assert server.tool_lists == 1  # once per writer, not per save


def test_an_update_of_our_page_names_the_revision_it_read(server, writers):
    old = server.store(SLUG, text(extra="\nAn older walk.\n"))
    result = save(writers(server))
    assert result.outcome is SaveOutcome.WRITTEN, result.detail
    (sent,) = server.arguments("put_page")
    assert sent["expected_revision"] == old
    assert sent["request_id"] == request_id(KEY, SLUG, old)
    assert len(server.versions[SLUG]) == 1


def test_a_page_of_someone_else_is_refused_with_nothing_sent(server, writers):
    revision = server.store(SLUG, "---\ntitle: Notes\n---\nA human page.\n")
    result = save(writers(server))
    assert (result.outcome, result.attempts) == (SaveOutcome.REFUSED, 0)
    assert result.detail == f"page exists; choose another --as ({server.url}#{SLUG})"
    assert server.arguments("put_page") == []
    assert server.pages[SLUG]["revision"] == revision


def test_a_conflict_is_re_read_once_and_written_against_the_new_revision(server, writers):
    first = server.store(SLUG, text(extra="\nAn older walk.\n"))
    edits = iter([True])

    def twin_save(slug: str) -> None:  # another run of this slice lands first
        if next(edits, False):
            server.store(slug, text(extra="\nA twin's walk.\n"))

    server.before_commit = twin_save
    result = save(writers(server))
    assert (result.outcome, result.attempts) == (SaveOutcome.WRITTEN, 2), result.detail
    sent = server.arguments("put_page")
    second = server.versions[SLUG][-1]["revision"]
    assert [s["expected_revision"] for s in sent] == [first, second]
    assert [s["request_id"] for s in sent] == [
        request_id(KEY, SLUG, first),
        request_id(KEY, SLUG, second),
    ]
    assert "twin" not in server.pages[SLUG]["compiled_truth"]


def test_a_page_created_by_someone_else_meanwhile_is_refused(server, writers):
    def human(slug: str) -> None:
        if slug not in server.pages:
            server.store(slug, "---\ntitle: Mine\n---\nWritten by hand.\n")

    server.before_commit = human
    result = save(writers(server))
    assert result.outcome is SaveOutcome.REFUSED
    assert result.detail.startswith("page exists; choose another --as")
    assert server.requests[request_id(KEY, SLUG, None)].error == "revision_required"
    assert server.pages[SLUG]["compiled_truth"] == "Written by hand."
    assert SLUG not in server.versions  # the human page was never written over


def test_a_second_conflict_is_a_conflict(server, writers):
    server.store(SLUG, text(extra="\nAn older walk.\n"))
    server.before_commit = lambda slug: server.store(slug, text(extra="\nAgain.\n"))
    result = save(writers(server))
    assert (result.outcome, result.attempts) == (SaveOutcome.CONFLICT, 2)
    assert "changed again" in result.detail
    assert "Again." in server.pages[SLUG]["compiled_truth"]


def test_a_pending_write_is_polled_until_committed(writers):
    with standin(pending_polls=3) as server:
        result = save(writers(server))
        assert (result.outcome, result.attempts) == (SaveOutcome.WRITTEN, 1), result.detail
        assert server.tools() == [
            "get_page",
            "put_page",
            "get_write_request",
            "get_write_request",
            "get_write_request",
            "get_page",
        ]
        assert len(server.requests) == 1


def test_a_write_pending_past_the_deadline_names_its_request_and_a_rerun_settles_it(writers):
    with standin(pending_polls=10_000) as server:
        rid = request_id(KEY, SLUG, None)
        first = save(writers(server, wait=0.2))
        assert first.outcome is SaveOutcome.UNAVAILABLE
        assert first.detail.endswith(f"pending, request {rid}"), first.detail
        assert "accepted the write but has not committed it" in first.detail
        again = save(writers(server, wait=0.2))  # still pending: the same request, not a new one
        assert again.outcome is SaveOutcome.UNAVAILABLE
        assert [s["request_id"] for s in server.arguments("put_page")] == [rid, rid]
        assert list(server.requests) == [rid]
        server.settle_all()
        settled = save(writers(server))
        assert (settled.outcome, settled.attempts) == (SaveOutcome.UNCHANGED, 0), settled.detail
        assert len(server.arguments("put_page")) == 2
        assert SLUG not in server.versions  # written once


def test_a_pending_write_gbrain_says_to_inspect_is_not_polled_on(writers):
    """v0.57: a receipt whose diagnostic says `inspect_owner` is reported at once."""
    stalled = {"age_ms": 150_000, "assessment": "stalled", "reason": "owner_unavailable",
               "next_action": "inspect_owner"}  # fmt: skip
    with standin(pending_polls=10_000, diagnostic=stalled) as server:
        result = save(writers(server, wait=30.0))
        assert result.outcome is SaveOutcome.UNAVAILABLE
        assert "(queued, owner_unavailable)" in result.detail
        assert "inspecting its writer" in result.detail
        assert result.detail.endswith(f"pending, request {request_id(KEY, SLUG, None)}")
        assert "get_write_request" not in server.tools()


def test_without_get_write_request_a_pending_write_is_asked_by_replaying_it(writers):
    with standin(pending_polls=2, receipts=False) as server:
        result = save(writers(server))
        assert result.outcome is SaveOutcome.WRITTEN, result.detail
        sent = server.arguments("put_page")
        assert len(sent) == 3 and all(s == sent[0] for s in sent)  # the very same request
        assert len(server.requests) == 1 and SLUG not in server.versions


def test_a_lost_reply_is_sent_again_with_the_same_request_id_and_written_once(server, writers):
    server.fault = first_put(("status", 503))
    result = save(writers(server))
    assert (result.outcome, result.attempts) == (SaveOutcome.WRITTEN, 2), result.detail
    first, second = server.arguments("put_page")
    assert first == second
    assert len(server.requests) == 1 and SLUG not in server.versions


def test_a_timed_out_write_is_settled_by_its_receipt(server, writers):
    server.fault = first_put(("stall", 1.5))
    result = save(writers(server, timeout=0.5))
    assert (result.outcome, result.attempts) == (SaveOutcome.WRITTEN, 1), result.detail
    assert server.tools()[-2:] == ["get_write_request", "get_page"]


def test_a_write_the_server_never_took_is_not_written(server, writers):
    server.fault = lambda tool, args: ("drop", 502) if tool == "put_page" else None
    result = save(writers(server))
    assert (result.outcome, result.attempts) == (SaveOutcome.UNAVAILABLE, 3)
    assert f"holds no request {request_id(KEY, SLUG, None)}: not written" in result.detail
    assert server.tools()[-1] == "get_write_request" and SLUG not in server.pages


def test_a_rerun_with_other_bytes_while_pending_keeps_the_request_id(writers):
    with standin(pending_polls=4) as server:
        rid = request_id(KEY, SLUG, None)
        first = save(writers(server, wait=0.01))
        assert first.outcome is SaveOutcome.UNAVAILABLE
        later = text(extra="\nComposed at another time.\n")  # e.g. a new generated.at
        second = save(writers(server), later)
        assert second.outcome is SaveOutcome.UNCHANGED, second.detail
        assert second.detail.endswith(f"wrote this slice there (request {rid})")
        assert list(server.requests) == [rid]  # no second request
        assert "another time" not in server.pages[SLUG]["compiled_truth"]
