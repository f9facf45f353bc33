"""Pure parts of the hostile-server defences: SSE lines split as they stream, and
which transport carries the deadline (issue 7, items 2 and 4)."""

from __future__ import annotations

import itertools
import re
import time

import httpcore
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.sources.gbrain.http import (
    PROGRESS_STRETCH,
    Deadline,
    DeadlineBackend,
    _PoolTransport,
    deadline_transport,
)
from okf_explorer.sources.gbrain.transport import sse_lines

pytestmark = pytest.mark.plain


def reference_lines(data: bytes) -> list[str]:
    """The SSE rule, on the whole stream at once: CRLF, CR or LF end a line."""
    pieces = re.split(rb"\r\n|\r|\n", data)
    if pieces[-1] == b"":
        pieces.pop()
    return [piece.decode("utf-8", "replace") for piece in pieces]


@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(st.sampled_from(["a", "é", "data: {", "\r", "\n", "\r\n", ""]), max_size=40),
    cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=10),
)
def test_sse_lines_match_the_whole_stream_split_at_any_chunking(
    text: list[str], cuts: list[int]
) -> None:
    data = "".join(text).encode()
    bounds = sorted({min(cut, len(data)) for cut in cuts} | {0, len(data)})
    chunks = [data[a:b] for a, b in itertools.pairwise(bounds)]
    assert list(sse_lines(chunks)) == reference_lines(data)


def test_a_crlf_split_between_chunks_ends_one_line_only() -> None:
    """The LF that completes a CRLF is dropped once; a later chunk's LF ends a line."""
    assert list(sse_lines([b"\r", b"\n", b"\n"])) == ["", ""]
    assert list(sse_lines([b"a\r", b"\n", b"\nb"])) == ["a", "", "b"]


def test_plain_http_gets_the_deadline_transport() -> None:
    transport = deadline_transport("http://127.0.0.1:9/mcp", 4, DeadlineBackend())
    assert isinstance(transport, _PoolTransport)
    transport.close()


def test_https_behind_an_environment_proxy_keeps_httpx_proxying(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("https_proxy", "http://proxy.invalid:3128")
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    assert deadline_transport("https://brain.example/mcp", 4, DeadlineBackend()) is None
    monkeypatch.setenv("no_proxy", "brain.example")
    transport = deadline_transport("https://brain.example/mcp", 4, DeadlineBackend())
    assert isinstance(transport, _PoolTransport)
    transport.close()


def test_the_backend_refuses_work_past_the_deadline() -> None:
    backend = DeadlineBackend()
    assert backend.time_left(5.0, httpcore.ReadTimeout) == 5.0  # no deadline: unchanged
    with backend.until(Deadline(1.0)):
        left = backend.time_left(5.0, httpcore.ReadTimeout)
        assert left is not None and 0 < left <= 1.0
    with backend.until(Deadline(-0.1)), pytest.raises(httpcore.ReadTimeout):
        backend.time_left(5.0, httpcore.ReadTimeout)
    assert backend.time_left(None, httpcore.ReadTimeout) is None


def test_progress_gives_a_request_more_time_up_to_its_maximum() -> None:
    """Each progress notification moves the deadline to a timeout from now (never
    earlier), and never past `PROGRESS_STRETCH` timeouts from the start."""
    deadline = Deadline(10.0)
    assert deadline.latest - deadline.at == pytest.approx(10.0 * (PROGRESS_STRETCH - 1))
    deadline.at -= 30.0  # as if 30 s had gone by: passed
    assert deadline.passed()
    deadline.progressed()
    assert deadline.left() == pytest.approx(10.0, abs=0.5)
    deadline.progressed()  # at once again: no earlier
    assert deadline.left() == pytest.approx(10.0, abs=0.5)
    deadline.latest = time.monotonic() + 2.0  # the maximum is near
    deadline.progressed()
    assert deadline.left() == pytest.approx(10.0, abs=0.5)  # never moved back
    deadline.at -= 20.0
    deadline.progressed()
    assert 0 < deadline.left() <= 2.0
