"""Saving into a gbrain v0.51+ server (issue 22 §2): create-only writes, request ids,
pending receipts, and one rule for a page already there (this save's key: `unchanged`,
else `refused`); against the loopback stand-in of `tests/gbrain_standin.py`, which keeps
gbrain's documented write rules (the pinned real gbrain predates them: its tests
are `test_gbrain_write.py` and `test_save_gbrain_refusals.py`)."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from okf_explorer.core.port import SaveOutcome
from okf_explorer.sources.gbrain.contract import request_id
from okf_explorer.sources.gbrain.write import GbrainWriter
from tests.gbrain_standin import GbrainStandIn, standin

SLUG = "slices/x"
KEY = "sha256:" + "1" * 64
IDENTICAL = "the same slice is already saved there (identical)"
DIFFERS = "the same slice is already saved there (content differs from this save: left as it is)"


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
    assert sent["request_id"] == request_id(KEY, SLUG)
    assert sent["request_id"] == "871091b8-0013-55c5-a50d-3650aaab7a36"  # stable across releases
    assert str(uuid.UUID(sent["request_id"])) == sent["request_id"]
    assert server.tools() == ["get_page", "put_page", "get_page"]
    assert server.pages[SLUG]["frontmatter"]["idempotency_key"] == KEY


def test_the_same_save_again_is_unchanged_and_the_contract_is_asked_once(server, writers):
    writer = writers(server)
    assert save(writer).outcome is SaveOutcome.WRITTEN
    again = save(writer)
    assert (again.outcome, again.attempts, again.detail) == (SaveOutcome.UNCHANGED, 0, IDENTICAL)
    assert len(server.arguments("put_page")) == 1
    assert server.tool_lists == 1  # once per writer, not per save


def test_a_page_of_the_slice_with_other_content_is_unchanged_and_nothing_sent(server, writers):
    """The page carries this save's key but other bytes (a person's edit, another run):
    it is left as it is, never updated."""
    revision = server.store(SLUG, text(extra="\nEdited by hand.\n"))
    result = save(writers(server))
    assert (result.outcome, result.attempts, result.detail) == (SaveOutcome.UNCHANGED, 0, DIFFERS)
    assert server.arguments("put_page") == []
    assert server.pages[SLUG]["revision"] == revision


def test_a_page_of_someone_else_is_refused_with_nothing_sent(server, writers):
    revision = server.store(SLUG, "---\ntitle: Notes\n---\nA human page.\n")
    result = save(writers(server))
    assert (result.outcome, result.attempts) == (SaveOutcome.REFUSED, 0)
    assert result.detail == f"page exists; choose another --as ({server.url}#{SLUG})"
    assert server.arguments("put_page") == []
    assert server.pages[SLUG]["revision"] == revision


@pytest.mark.parametrize(
    ("twin", "detail"),
    [(text(extra="\nA twin's walk.\n"), DIFFERS), (text(), IDENTICAL)],
    ids=["other-bytes", "same-bytes"],
)
def test_a_save_of_the_slice_created_meanwhile_is_left_unchanged(server, writers, twin, detail):
    """Two first saves of one slice (other principals, so other request ids): the
    other lands between our read and our create; gbrain refuses ours
    (`revision_required`), the re-read finds the slice's key: `unchanged`, and the
    page is never written over."""

    def other_run(slug: str) -> None:
        if slug not in server.pages:
            server.store(slug, twin)

    server.before_commit = other_run
    result = save(writers(server))
    assert (result.outcome, result.attempts, result.detail) == (SaveOutcome.UNCHANGED, 1, detail)
    (sent,) = server.arguments("put_page")
    assert "expected_revision" not in sent
    assert server.requests[request_id(KEY, SLUG)].error == "revision_required"
    assert server.tools() == ["get_page", "put_page", "get_page"]
    assert SLUG not in server.versions  # the other run's page was never written over


def test_a_page_created_by_someone_else_meanwhile_is_refused(server, writers):
    def human(slug: str) -> None:
        if slug not in server.pages:
            server.store(slug, "---\ntitle: Mine\n---\nWritten by hand.\n")

    server.before_commit = human
    result = save(writers(server))
    assert result.outcome is SaveOutcome.REFUSED
    assert result.detail.startswith("page exists; choose another --as")
    assert server.requests[request_id(KEY, SLUG)].error == "revision_required"
    assert server.pages[SLUG]["compiled_truth"] == "Written by hand."
    assert SLUG not in server.versions  # the human page was never written over


def test_a_create_refused_for_a_page_gone_on_the_re_read_is_a_conflict(server, writers):
    """gbrain refused the create (a page was there), but the re-read finds none (it
    was removed meanwhile): `conflict`, one request sent, never a second."""

    def brief_page(slug: str) -> None:
        if slug not in server.pages:
            server.store(slug, "---\ntitle: Brief\n---\nHere a moment.\n")

    def removed_after_the_put(tool: str, args: dict[str, Any]) -> None:
        if tool == "get_page" and server.arguments("put_page"):
            with server.lock:
                server.pages.pop(SLUG, None)

    server.before_commit, server.fault = brief_page, removed_after_the_put
    result = save(writers(server))
    assert (result.outcome, result.attempts) == (SaveOutcome.CONFLICT, 1), result.detail
    rid = request_id(KEY, SLUG)
    assert result.detail == (
        f"gbrain refused to create the page (revision_required) but a re-read finds none;"
        f" not written (request {rid})"
    )
    assert len(server.arguments("put_page")) == 1 and SLUG not in server.pages


def test_racing_first_saves_of_the_slice_are_one_written_and_the_rest_unchanged(writers):
    """Runs of one slice composed apart (other bytes, one token, so one request id):
    one create commits, the others are gbrain's `idempotency_conflict`, settled by the
    request's receipt: `unchanged`, and the winner's page is never written over."""
    racers = 4
    with standin() as server:
        bodies = [text(extra=f"\nRun {n}.\n") for n in range(racers)]
        made = [writers(server) for _ in range(racers)]
        start = threading.Barrier(racers)
        results: list[Any] = [None] * racers

        def run(number: int) -> None:
            start.wait()
            results[number] = save(made[number], bodies[number])

        threads = [threading.Thread(target=run, args=(n,)) for n in range(racers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        outcomes = Counter(result.outcome for result in results)
        details = [result.detail for result in results]
        assert outcomes == {SaveOutcome.WRITTEN: 1, SaveOutcome.UNCHANGED: racers - 1}, details
        (winner,) = [n for n, r in enumerate(results) if r.outcome is SaveOutcome.WRITTEN]
        assert f"Run {winner}." in server.pages[SLUG]["compiled_truth"]
        assert SLUG not in server.versions
        assert list(server.requests) == [request_id(KEY, SLUG)]


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
        rid = request_id(KEY, SLUG)
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
        assert result.detail.endswith(f"pending, request {request_id(KEY, SLUG)}")
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
    assert f"holds no request {request_id(KEY, SLUG)}: not written" in result.detail
    assert server.tools()[-1] == "get_write_request" and SLUG not in server.pages


def test_a_rerun_with_other_bytes_while_pending_keeps_the_request_id(writers):
    with standin(pending_polls=4) as server:
        rid = request_id(KEY, SLUG)
        first = save(writers(server, wait=0.01))
        assert first.outcome is SaveOutcome.UNAVAILABLE
        later = text(extra="\nComposed at another time.\n")  # e.g. a new generated.at
        second = save(writers(server), later)
        assert second.outcome is SaveOutcome.UNCHANGED, second.detail
        assert second.detail == (
            f"the same slice is already saved there (an earlier run of this save wrote it,"
            f" request {rid})"
        )
        assert list(server.requests) == [rid]  # no second request
        assert "another time" not in server.pages[SLUG]["compiled_truth"]
