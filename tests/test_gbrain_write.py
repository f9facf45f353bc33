"""Saving a page into the real gbrain (tests/gbrain_peer.py, a read+write token minted
beside the read one), through a counting proxy on loopback (tests/counting_proxy.py)
that counts what reaches the server and misbehaves on cue.

The discipline under test (okf_explorer/sources/gbrain/write.py): `written` only when
read back identical; a page carrying this save's key is `unchanged` with no write,
whatever its bytes (the same save twice, another run of the slice, a person's edit),
and one page; a refusal is never retried; transient failures resend the same bytes,
at most `WRITE_ATTEMPTS` times, each resend after a re-read (an earlier attempt that
landed is `written`, a page of this slice that appeared `unchanged`, a page of
someone else `refused`); a lost reply is found out by reading, never assumed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.port import SaveOutcome
from okf_explorer.sources.factory import open_source
from okf_explorer.sources.gbrain.write import WRITE_ATTEMPTS, GbrainWriter
from tests.counting_proxy import CountingProxy, ProxiedCall, tool_reply
from tests.gbrain_peer import GbrainPeer, page_state, raw_tool_text, write_token_file

CORPUS = Path(__file__).resolve().parent / "gbrain_client_corpus"

pytestmark = pytest.mark.gbrain

PAGE = """---
type: Trail
title: Trail from alice
idempotency_key: "{key}"
generated:
  by: okf-explorer/0.1.0
  at: 2026-11-30T18:35:00+00:00
roots: [people/alice]
tags: [trail]
---

# Trail from alice

1. [Alice](/people/alice)
2. [Bob](/people/bob), followed `related`
"""


IDENTICAL = "the same slice is already saved there (identical)"
DIFFERS = "the same slice is already saved there (content differs from this save: left as it is)"


def page(key: str, extra: str = "") -> str:
    return PAGE.format(key=key) + extra


@pytest.fixture
def peer(gbrain_peer) -> GbrainPeer:
    return gbrain_peer(CORPUS, write_token=True)


def token_of(path: Path) -> str:
    return path.read_text().strip()


@pytest.fixture
def write_through(
    peer: GbrainPeer, counting_proxy: Callable[[str | None], CountingProxy]
) -> Callable[..., tuple[GbrainWriter, CountingProxy]]:
    """`write_through(token_file=write token, timeout=10)`: a writer behind a new proxy."""
    made: list[GbrainWriter] = []

    def make(token_file: Path | None = None, timeout: float = 10.0):
        proxy = counting_proxy(peer.url)
        token = token_of(token_file or write_token_file(peer))
        writer = GbrainWriter.connect(proxy.url, token=token, timeout=timeout)
        made.append(writer)
        return writer, proxy

    yield make
    for writer in made:
        writer.close()


@pytest.fixture
def direct(peer: GbrainPeer):
    """A second writer, straight to the server: the other party of a conflict."""
    writer = GbrainWriter.connect(peer.url, token=token_of(write_token_file(peer)))
    yield writer
    writer.close()


def by_hand(peer: GbrainPeer, slug: str, text: str) -> None:
    """A `put_page` of a person's own, straight to the server (no writer, no checks)."""
    raw_tool_text(peer, write_token_file(peer), "put_page", {"slug": slug, "content": text})


def state(peer: GbrainPeer, slug: str) -> tuple[str, str]:
    return page_state(peer, write_token_file(peer), slug)


def read_page(peer: GbrainPeer, slug: str):
    source = open_source(peer.url, token_file=peer.token_file)
    try:
        return source.get_page(slug)
    finally:
        source.close()


def test_a_save_is_written_and_read_back_identical(peer, write_through):
    writer, proxy = write_through()
    result = writer.write_page("trails/written", page("k-written"), idempotency_key="k-written")
    assert result.outcome is SaveOutcome.WRITTEN, result.detail
    assert result.attempts == 1 and proxy.count("put_page") == 1
    assert result.where.endswith("#trails/written")
    # get_page: before writing (right before: the contract was asked first), the read-back
    assert proxy.tools() == ["get_page", "put_page", "get_page"]
    stored = read_page(peer, "trails/written")
    assert stored.type == "Trail" and "[Bob](/people/bob)" in stored.content
    assert stored.frontmatter["idempotency_key"] == "k-written"


def test_the_same_save_twice_is_unchanged_and_one_page(peer, write_through):
    writer, proxy = write_through()
    text = page("k-twice")
    first = writer.write_page("trails/twice", text, idempotency_key="k-twice")
    source = open_source(peer.url, token_file=peer.token_file)
    try:
        pages_after_first = len(source.enumerate())
        second = writer.write_page("trails/twice", text, idempotency_key="k-twice")
        assert len(source.enumerate()) == pages_after_first
    finally:
        source.close()
    assert first.outcome is SaveOutcome.WRITTEN
    assert second.outcome is SaveOutcome.UNCHANGED and second.attempts == 0
    assert second.detail == IDENTICAL
    assert proxy.count("put_page") == 1  # the second save wrote nothing


def test_another_save_of_the_slice_with_other_bytes_leaves_the_page_unchanged(peer, write_through):
    """The same slice composed at another time (another `generated.at`, another run):
    the page already carrying its key is kept as it is, never written over."""
    writer, proxy = write_through()
    writer.write_page("trails/rekeyed", page("k-same"), idempotency_key="k-same")
    before = state(peer, "trails/rekeyed")
    later = page("k-same", "\nOne more line.\n")
    result = writer.write_page("trails/rekeyed", later, idempotency_key="k-same")
    assert (result.outcome, result.attempts) == (SaveOutcome.UNCHANGED, 0), result.detail
    assert result.detail == DIFFERS
    assert proxy.count("put_page") == 1
    assert state(peer, "trails/rekeyed") == before


def test_a_saved_slice_a_person_edited_keeps_the_edit(peer, write_through):
    writer, proxy = write_through()
    text = page("k-edited")
    assert writer.write_page("trails/edited", text, idempotency_key="k-edited").attempts == 1
    by_hand(peer, "trails/edited", text + "\nA note by hand.\n")  # the key kept
    before = state(peer, "trails/edited")
    again = writer.write_page("trails/edited", text, idempotency_key="k-edited")
    assert (again.outcome, again.attempts, again.detail) == (SaveOutcome.UNCHANGED, 0, DIFFERS)
    assert proxy.count("put_page") == 1
    assert state(peer, "trails/edited") == before
    assert "A note by hand." in read_page(peer, "trails/edited").content


def test_a_key_the_text_lacks_is_added_to_its_frontmatter(peer, write_through):
    writer, _ = write_through()
    text = page("k-added").replace('idempotency_key: "k-added"\n', "")
    result = writer.write_page("trails/added-key", text, idempotency_key="k-added")
    assert result.outcome is SaveOutcome.WRITTEN, result.detail
    assert read_page(peer, "trails/added-key").frontmatter["idempotency_key"] == "k-added"


def test_a_read_token_is_refused_once_and_never_retried(peer, write_through):
    writer, proxy = write_through(token_file=peer.token_file)
    result = writer.write_page("trails/refused", page("k-refused"), idempotency_key="k-refused")
    assert result.outcome is SaveOutcome.REFUSED
    assert "insufficient_scope" in result.detail
    assert result.attempts == 1 and proxy.count("put_page") == 1
    with pytest.raises(PageNotFound):
        read_page(peer, "trails/refused")


def test_a_rejected_token_is_refused_before_any_write(peer, counting_proxy):
    proxy = counting_proxy(peer.url)
    bad = "gbrain_" + "0" * 64
    writer = GbrainWriter.connect(proxy.url, token=bad)
    try:
        result = writer.write_page("trails/bad-token", page("k-bad"), idempotency_key="k-bad")
    finally:
        writer.close()
    assert result.outcome is SaveOutcome.REFUSED and result.attempts == 0
    assert proxy.count("put_page") == 0
    assert bad not in result.detail and bad not in repr(result)


def test_a_policy_refusal_is_not_retried(peer, write_through):
    writer, proxy = write_through()

    def fence(call: ProxiedCall):
        if call.tool == "put_page":
            denied = {"error": "permission_denied", "message": "slug is not under trails-only/"}
            return 200, tool_reply(call, denied)
        return None

    proxy.reply = fence
    result = writer.write_page("trails/fenced", page("k-fenced"), idempotency_key="k-fenced")
    assert result.outcome is SaveOutcome.REFUSED and "permission_denied" in result.detail
    assert proxy.count("put_page") == 1


def test_transient_server_errors_resend_the_same_bytes(peer, write_through):
    writer, proxy = write_through()
    failures = iter([True, True])

    def flaky(call: ProxiedCall):
        if call.tool == "put_page" and next(failures, False):
            return 503, b'{"error": "busy"}'
        return None

    proxy.reply = flaky
    text = page("k-flaky")
    result = writer.write_page("trails/flaky", text, idempotency_key="k-flaky")
    assert result.outcome is SaveOutcome.WRITTEN, result.detail
    assert result.attempts == WRITE_ATTEMPTS == 3
    sent = [call.arguments["content"] for call in proxy.calls if call.tool == "put_page"]
    assert sent == [text] * 3


def test_a_server_that_keeps_failing_is_unavailable_after_the_cap(peer, write_through):
    writer, proxy = write_through()
    proxy.reply = lambda call: (502, b"") if call.tool == "put_page" else None
    result = writer.write_page("trails/down", page("k-down"), idempotency_key="k-down")
    assert result.outcome is SaveOutcome.UNAVAILABLE
    assert "not written" in result.detail
    assert result.attempts == proxy.count("put_page") == WRITE_ATTEMPTS


def test_a_reply_lost_after_the_write_is_found_by_reading(peer, write_through):
    writer, proxy = write_through(timeout=1.0)
    proxy.after = lambda call: time.sleep(2.0) if call.tool == "put_page" else None
    result = writer.write_page("trails/lost-reply", page("k-lost"), idempotency_key="k-lost")
    assert result.outcome is SaveOutcome.WRITTEN, result.detail
    assert "reply was lost" in result.detail
    assert result.attempts == 1 and proxy.count("put_page") == 1


def test_a_timeout_before_the_server_acted_is_unavailable_not_a_write(peer, write_through):
    writer, proxy = write_through(timeout=1.0)
    proxy.reply = lambda call: (time.sleep(2.0), (503, b""))[1] if call.tool == "put_page" else None
    result = writer.write_page("trails/stalled", page("k-stall"), idempotency_key="k-stall")
    assert result.outcome is SaveOutcome.UNAVAILABLE
    assert "timed out" in result.detail and "not written" in result.detail
    assert result.attempts == 1 and proxy.count("put_page") == 1  # a timeout is not retried
    with pytest.raises(PageNotFound):
        read_page(peer, "trails/stalled")


def fail_first_put(proxy: CountingProxy, meanwhile: Callable[[ProxiedCall], None]) -> None:
    """The first `put_page` is answered HTTP 503 by the proxy, a transient failure the
    writer resends after; `meanwhile(call)` runs first: what the server saw in between."""
    fired: list[bool] = []

    def fail(call: ProxiedCall):
        if call.tool != "put_page" or fired:
            return None
        fired.append(True)
        meanwhile(call)
        return 503, b'{"error": "busy"}'

    proxy.reply = fail


def test_an_earlier_attempt_that_landed_is_found_before_a_resend(peer, write_through):
    """The server took the write but its reply was a 503: the re-read before the
    resend finds the page holding our bytes, `written`, and sends nothing again."""
    writer, proxy = write_through()
    fail_first_put(proxy, lambda call: by_hand(peer, "trails/landed", call.arguments["content"]))
    result = writer.write_page("trails/landed", page("k-landed"), idempotency_key="k-landed")
    assert (result.outcome, result.attempts) == (SaveOutcome.WRITTEN, 1), result.detail
    assert "an earlier attempt landed" in result.detail
    assert proxy.count("put_page") == 1
    assert read_page(peer, "trails/landed").frontmatter["idempotency_key"] == "k-landed"


def test_a_save_of_the_slice_landing_before_a_resend_is_left_unchanged(peer, write_through, direct):
    """Two first saves of one slice: the other lands while ours waits to resend; ours
    finds its key there and leaves that page as it is, never overwriting it."""
    writer, proxy = write_through()
    twin = page("k-twin", "\nThe other run.\n")

    def other_run(call: ProxiedCall) -> None:
        done = direct.write_page("trails/twin", twin, idempotency_key="k-twin")
        assert done.outcome is SaveOutcome.WRITTEN, done.detail

    fail_first_put(proxy, other_run)
    result = writer.write_page("trails/twin", page("k-twin"), idempotency_key="k-twin")
    assert (result.outcome, result.attempts, result.detail) == (SaveOutcome.UNCHANGED, 1, DIFFERS)
    assert proxy.count("put_page") == 1
    assert "The other run." in read_page(peer, "trails/twin").content


def test_a_page_of_someone_else_appearing_before_a_resend_is_refused(peer, write_through, direct):
    """Issue 22 §1: the page created while the write waited to be resent is not ours:
    refused, nothing resent, the other page stays."""
    writer, proxy = write_through()

    def someone_else(call: ProxiedCall) -> None:
        done = direct.write_page("trails/taken", page("other"), idempotency_key="other")
        assert done.outcome is SaveOutcome.WRITTEN, done.detail

    fail_first_put(proxy, someone_else)
    result = writer.write_page("trails/taken", page("k-late"), idempotency_key="k-late")
    assert (result.outcome, result.attempts) == (SaveOutcome.REFUSED, 1)
    assert result.detail.startswith("page exists; choose another --as")
    assert proxy.count("put_page") == 1
    assert read_page(peer, "trails/taken").frontmatter["idempotency_key"] == "other"


def test_a_write_overtaken_before_the_read_back_is_not_written(peer, write_through):
    writer, proxy = write_through()

    def overtake(call: ProxiedCall) -> None:
        if call.tool == "put_page":  # a person's edit of the page just saved
            by_hand(peer, "trails/overtaken", page("k-early", "\nLater edit.\n"))

    proxy.after = overtake
    result = writer.write_page("trails/overtaken", page("k-early"), idempotency_key="k-early")
    assert result.outcome is SaveOutcome.FAILED
    assert "read back differs" in result.detail


def test_making_a_writer_sends_nothing(peer, counting_proxy):
    proxy = counting_proxy(peer.url)
    writer = GbrainWriter.connect(proxy.url, token=token_of(write_token_file(peer)))
    writer.close()
    assert proxy.requests == []


@pytest.mark.parametrize(
    "body",
    [
        "# Plain\n\nNo timeline here.\n",
        "# Sentinel\n\ntext\n\n<!-- timeline -->\n\n## Timeline\n\n- 2024-01-05: joined\n",
        "# Rule\n\ntext\n\n---\n\n## Timeline\n- 2024-01-05: joined\n",
        "# Moved\n\n\n## Timeline\n- 2024-01-05: joined\n- 2025: left\n\n## After\n\nmore\n",
        "# Unicode ✓\n\n  indented line\ttab\n\n```python\nx = 1\n```\n",
    ],
    ids=["plain", "sentinel", "rule", "moved-section", "unicode"],
)
def test_bodies_gbrain_splits_still_read_back_identical(peer, write_through, body):
    writer, _ = write_through()
    slug = f"trails/body-{abs(hash(body)) % 10**8}"
    text = f"---\ntitle: Shapes\nday: 2026-11-30\nnested: {{a: [1, 2.5, true, null]}}\n---\n{body}"
    result = writer.write_page(slug, text, idempotency_key=slug)
    assert result.outcome is SaveOutcome.WRITTEN, result.detail
    again = writer.write_page(slug, text, idempotency_key=slug)
    assert again.outcome is SaveOutcome.UNCHANGED, again.detail


def test_a_write_that_cannot_be_read_back_is_not_written(peer, write_through):
    writer, proxy = write_through()

    def no_read_back(call: ProxiedCall):
        if call.tool == "get_page" and proxy.count("get_page") > 1:  # the read-back
            return 503, b""
        return None

    proxy.reply = no_read_back
    result = writer.write_page("trails/unverified", page("k-unv"), idempotency_key="k-unv")
    assert result.outcome is SaveOutcome.UNAVAILABLE
    assert "sent but is not verified" in result.detail and result.attempts == 1


def test_a_reply_cut_off_is_read_to_find_out_and_not_resent(peer, write_through):
    writer, proxy = write_through()
    proxy.reply = lambda call: (200, b"") if call.tool == "put_page" else None
    result = writer.write_page("trails/cut-off", page("k-cut"), idempotency_key="k-cut")
    assert result.outcome is SaveOutcome.FAILED
    assert "cut off" in result.detail and "not written" in result.detail
    assert result.attempts == proxy.count("put_page") == 1
