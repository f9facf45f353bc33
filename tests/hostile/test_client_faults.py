"""A hostile MCP server cannot hang the client, page it forever, or blow up its memory.

Issue 7, items 2-4. Each test runs the real CLI in a subprocess against a real HTTP
server on loopback (`mcp_fault_server`) and checks the exit status, the one line on
stderr, a generous wall-time bound (a hang check, not a benchmark) and, for big
replies, the child's peak RSS.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from mcp_fault_server import FaultHandler, fault_server, run_cli

from okf_explorer.sources.gbrain.http import PROGRESS_STRETCH

TIMEOUT_S = 2
MARGIN_S = 5.0
"""Interpreter start-up plus a loaded 2-core machine; a hang runs for a minute."""

REPLY_CAP_MIB = 64
HUGE = 300 * 1024 * 1024


def _reply_prefix(request: dict[str, Any]) -> bytes:
    return (
        b'{"jsonrpc": "2.0", "id": %d, "result": {"content": [{"type": "text", "text": "'
        % (request["id"])
    )


# -- item 2: --timeout is a deadline --------------------------------------------------------


def trickled_json_body(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.send_head("application/json")
    handler.wfile.write(_reply_prefix(request))
    handler.trickle(b" ", every_s=0.5)


def trickled_sse_line(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.send_head("text/event-stream")
    handler.wfile.write(b"data: {")
    handler.trickle(b" ", every_s=0.5)


def trickled_headers(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: ")
    handler.trickle(b"x", every_s=0.5)


def silent_after_headers(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.send_head("application/json")
    handler.wfile.write(_reply_prefix(request))
    handler.trickle(b"", every_s=0.5)


@pytest.mark.slow
@pytest.mark.parametrize(
    "fault",
    [trickled_json_body, trickled_sse_line, trickled_headers, silent_after_headers],
    ids=["json-body", "sse-line", "headers", "silent-body"],
)
def test_timeout_bounds_a_request_whatever_the_server_does(fault: Any) -> None:
    with fault_server(fault) as server:
        run = run_cli(["list", "--source", server.url, "--timeout", str(TIMEOUT_S)])
    assert run.status == 1
    assert run.stderr.splitlines() == [
        f"okf-explorer: {server.url} unreachable (timed out after {TIMEOUT_S} s)"
    ]
    assert run.seconds < TIMEOUT_S + MARGIN_S


def slow_server_errors(handler: FaultHandler, request: dict[str, Any]) -> None:
    time.sleep(1.5)
    handler.send_json({"error": "busy"}, status=503)


@pytest.mark.slow
def test_retries_share_the_request_deadline() -> None:
    """A 503 after 1.5 s is worth a retry, but not past the 2 s deadline: three full
    attempts would take 4.8 s and end with `server error` instead."""
    with fault_server(slow_server_errors) as server:
        run = run_cli(["list", "--source", server.url, "--timeout", str(TIMEOUT_S)])
    assert run.status == 1
    assert run.stderr.splitlines() == [
        f"okf-explorer: {server.url} unreachable (timed out after {TIMEOUT_S} s)"
    ]


@pytest.mark.slow
async def test_the_tui_shows_the_same_timeout_on_its_start_screen() -> None:
    from okf_explorer.core.brain import Brain
    from okf_explorer.sources.factory import open_source
    from okf_explorer.tui.app import make_app
    from okf_explorer.tui.screens.source_error import SourceErrorScreen

    with fault_server(trickled_json_body) as server:
        brain = Brain(open_source(server.url, timeout=1), cache_dir=False)
        app = make_app(brain)
        started = time.monotonic()
        async with app.run_test(size=(120, 40)):
            while not isinstance(app.screen, SourceErrorScreen):
                assert time.monotonic() - started < 1 + MARGIN_S, "the TUI never gave up"
                await asyncio.sleep(0.05)
            assert app.screen.reason.endswith("unreachable (timed out after 1 s)")
        brain.close()


# -- item 3: endless paging -----------------------------------------------------------------


def endless_listing(handler: FaultHandler, request: dict[str, Any]) -> None:
    arguments = request["params"]["arguments"]
    offset, limit = int(arguments["offset"]), int(arguments["limit"])
    rows = [{"slug": f"page-{n:09d}", "updated_at": "2026"} for n in range(offset, offset + limit)]
    handler.send_tool_payload(request, rows)


def listing_that_ignores_offset(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.send_tool_payload(request, [{"slug": f"page-{n}"} for n in range(100)])


@pytest.mark.slow
def test_a_server_that_pages_forever_meets_the_listing_ceiling() -> None:
    ceiling = 3_000
    with fault_server(endless_listing) as server:
        run = run_cli(
            ["list", "--source", server.url],
            overrides={"okf_explorer.sources.gbrain.source:MAX_LISTED_PAGES": ceiling},
        )
    assert run.status == 1
    assert run.stderr.splitlines() == [
        f"okf-explorer: {server.url} lists more than 3,000 pages, the most okf-explorer"
        " reads (a server that pages forever?)"
    ]
    assert run.seconds < 30


def test_the_listing_ceiling_is_a_million_pages() -> None:
    from okf_explorer.sources.gbrain import source as mcp

    assert mcp.MAX_LISTED_PAGES == 1_000_000


def test_a_listing_page_with_nothing_new_stops_the_listing() -> None:
    with fault_server(listing_that_ignores_offset) as server:
        run = run_cli(["list", "--source", server.url])
    assert run.status == 1
    assert run.stderr.splitlines() == [
        f"okf-explorer: {server.url} repeats list_pages rows (offset ignored?)"
    ]


# -- item 4: reply size ---------------------------------------------------------------------


def endless_json_reply(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.send_head("application/json")
    handler.wfile.write(_reply_prefix(request))
    handler.stream(b"a" * (1 << 20), HUGE)


def endless_sse_line(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.send_head("text/event-stream")
    handler.wfile.write(b"data: " + _reply_prefix(request))
    handler.stream(b"a" * (1 << 20), HUGE)


def declared_huge_reply(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.send_head("application/json", {"Content-Length": str(HUGE)})
    handler.wfile.write(_reply_prefix(request))
    handler.stream(b"a" * (1 << 20), HUGE)


@pytest.mark.parametrize(
    "fault",
    [endless_json_reply, endless_sse_line, declared_huge_reply],
    ids=["json", "sse-line", "content-length"],
)
def test_a_huge_reply_is_cut_at_the_cap_in_bounded_memory(fault: Any) -> None:
    with fault_server(fault) as server:
        run = run_cli(["list", "--source", server.url, "--timeout", "30"])
    assert run.status == 1
    assert run.stderr.splitlines() == [
        f"okf-explorer: {server.url} sent a reply larger than {REPLY_CAP_MIB} MiB,"
        " the most okf-explorer reads"
    ]
    # the reply offered is 300 MiB; reading it whole took 1.2 GB. Held: at most the cap.
    assert run.peak_rss_mb < REPLY_CAP_MIB + 60, f"peak RSS {run.peak_rss_mb:.0f} MB"
    assert run.seconds < 30


def test_a_small_cap_keeps_memory_near_the_baseline() -> None:
    """With the cap at 1 MiB, a 300 MiB reply costs no more than a normal run."""
    with fault_server(endless_json_reply) as server:
        run = run_cli(
            ["list", "--source", server.url],
            overrides={"okf_explorer.sources.gbrain.http:MAX_REPLY_BYTES": 1 << 20},
        )
    assert run.status == 1
    assert "sent a reply larger than 1 MiB" in run.stderr
    assert run.peak_rss_mb < 90, f"peak RSS {run.peak_rss_mb:.0f} MB"


def test_a_server_paging_empty_wanted_pages_forever_is_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`wanted_pages` pages of no rows, each with a next offset: the client counts the
    pages it asked for, not only the rows, and gives up (it asked forever before)."""
    import mcp_fault_server

    from okf_explorer.core.errors import ProtocolError
    from okf_explorer.sources.gbrain import source as mcp
    from okf_explorer.sources.gbrain.source import McpSource

    asked: list[int] = []

    def empty_pages(handler: FaultHandler, request: dict[str, Any]) -> None:
        offset = request["params"]["arguments"]["offset"]
        asked.append(offset)
        handler.send_tool_payload(request, {"targets": [], "next_offset": offset + 1})

    monkeypatch.setattr(mcp, "MAX_LISTED_PAGES", 3_000)
    tools = [*mcp_fault_server.TOOLS, {"name": "wanted_pages", "inputSchema": {}}]
    monkeypatch.setattr(mcp_fault_server, "TOOLS", tools)
    with fault_server(empty_pages) as server:
        source = McpSource(server.url, token=None, token_source="no token")
        try:
            with pytest.raises(ProtocolError, match="lists wanted pages without end"):
                source.wanted_targets()
        finally:
            source.close()
    assert len(asked) <= 3_000 // mcp.WANTED_PAGE + 2


# -- progress: a server working on the call gets more time, within a maximum ------------------


def _progress(request: dict[str, Any], done: int, token: Any = None) -> bytes:
    if token is None:
        token = request["params"]["_meta"]["progressToken"]
    note = {"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": token, "progress": done, "total": 100}}  # fmt: skip
    return b"data: " + json.dumps(note).encode() + b"\n\n"


def _answer(handler: FaultHandler, request: dict[str, Any]) -> None:
    """A listing of one page, `alpha` (none after its first page), and the page."""
    params = request["params"]
    if params["name"] == "list_pages":
        rows = [{"slug": "alpha", "type": "concept"}] if not params["arguments"]["offset"] else []
        result = {"content": [{"type": "text", "text": json.dumps(rows)}]}
    else:
        page = {"slug": "alpha", "type": "concept", "title": "Alpha", "tags": [],
                "frontmatter": {}, "compiled_truth": "Alpha.", "timeline": ""}  # fmt: skip
        result = {"content": [{"type": "text", "text": json.dumps(page)}]}
    reply = {"jsonrpc": "2.0", "id": request["id"], "result": result}
    handler.wfile.write(b"data: " + json.dumps(reply).encode() + b"\n\n")


def progress_then_answer(handler: FaultHandler, request: dict[str, Any]) -> None:
    """The first call busy for 3 s (three timeouts of the test), reporting progress
    every 0.4 s; the others answered at once."""
    handler.send_head("text/event-stream")
    handler.server.calls += 1
    for done in range(8 if handler.server.calls == 1 else 0):
        handler.wfile.write(_progress(request, done))
        handler.wfile.flush()
        time.sleep(0.4)
    _answer(handler, request)


def progress_forever(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.send_head("text/event-stream")
    done = 0
    while not handler.server.stopping.is_set():
        done += 1
        handler.wfile.write(_progress(request, done))
        handler.wfile.flush()
        time.sleep(0.2)


def progress_of_another_call(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.send_head("text/event-stream")
    for done in range(8):
        handler.wfile.write(_progress(request, done, token="someone-else"))
        handler.wfile.flush()
        time.sleep(0.4)
    _answer(handler, request)


@pytest.mark.slow
def test_a_server_reporting_progress_is_waited_for_past_the_timeout() -> None:
    """A tool call carries a progress token; each progress notification for it gives
    the call a timeout more (MCP lets a client reset its timeout on progress)."""
    with fault_server(progress_then_answer) as server:
        run = run_cli(["list", "--source", server.url, "--timeout", "1"])
    assert (run.status, run.stderr) == (0, "")
    assert run.stdout.splitlines() == ["alpha\tconcept"]


@pytest.mark.slow
def test_progress_forever_meets_the_maximum_and_progress_of_others_counts_for_nothing() -> None:
    most = PROGRESS_STRETCH * 1  # timeouts of 1 s
    with fault_server(progress_forever) as server:
        run = run_cli(["list", "--source", server.url, "--timeout", "1"])
    assert run.status == 1
    assert run.stderr.splitlines() == [
        f"okf-explorer: {server.url} unreachable (timed out after 1 s)"
    ]
    assert most - 0.5 < run.seconds < most + MARGIN_S
    with fault_server(progress_of_another_call) as server:
        run = run_cli(["list", "--source", server.url, "--timeout", "1"])
    assert run.status == 1
    assert "timed out after 1 s" in run.stderr
