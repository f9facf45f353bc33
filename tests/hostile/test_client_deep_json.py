"""Issue 22 item 5: an MCP reply nested 100,000 levels deep is a protocol error that
names the server, not `internal error: RecursionError` (exit 1 with no word of which
server, or of what went wrong).

A real HTTP server on loopback (`mcp_fault_server`: a fault no real server produces
on demand) sends the nesting in each place our client decodes JSON: the JSON-RPC
message of an SSE event, a plain JSON body, the tool's payload text, and the body of
an error status. Replies nested past `MAX_REPLY_DEPTH` but shallow enough for the
decoder are refused the same way, before any code walks them recursively.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp_fault_server import FaultHandler, fault_server, run_cli

from okf_explorer.sources.gbrain.http import MAX_REPLY_DEPTH

DEEP = 100_000
WALL_S = 20.0  # a hang check: each run takes about a second
DECODABLE = 600  # the decoder reads it; `get --json` then failed with RecursionError


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def send_raw(handler: FaultHandler, content_type: str, body: bytes, status: int = 200) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def deep_sse_message(handler: FaultHandler, request: dict[str, Any]) -> None:
    message = f'{{"jsonrpc": "2.0", "id": {request["id"]}, "result": {nested(DEEP)}}}'
    send_raw(handler, "text/event-stream", f"event: message\ndata: {message}\n\n".encode())


def deep_json_body(handler: FaultHandler, request: dict[str, Any]) -> None:
    message = f'{{"jsonrpc": "2.0", "id": {request["id"]}, "result": {nested(DEEP)}}}'
    send_raw(handler, "application/json", message.encode())


def deep_tool_text(handler: FaultHandler, request: dict[str, Any]) -> None:
    handler.send_result(request, {"content": [{"type": "text", "text": nested(DEEP)}]})


def deep_but_decodable_frontmatter(handler: FaultHandler, request: dict[str, Any]) -> None:
    """Deep enough to trouble a recursive walk (printing, rendering), not the decoder."""
    value: Any = "bottom"
    for _ in range(DECODABLE):
        value = {"x": value}
    if request["params"]["name"] == "list_pages":
        handler.send_tool_payload(request, [{"slug": "deep", "type": "note"}])
        return
    page = {"slug": "deep", "title": "Deep", "type": "note", "compiled_truth": "Body.",
            "frontmatter": {"nested": value}}  # fmt: skip
    handler.send_tool_payload(request, page)


@pytest.mark.parametrize(
    "fault",
    [deep_sse_message, deep_json_body, deep_tool_text],
    ids=["sse-message", "json-body", "tool-payload"],
)
def test_a_reply_nested_100k_deep_is_a_protocol_error_naming_the_server(fault: Any) -> None:
    with fault_server(fault) as server:
        run = run_cli(["list", "--source", server.url, "--timeout", "10"])
    assert run.status == 1
    assert run.stderr.splitlines() == [
        f"okf-explorer: {server.url} sent JSON nested deeper than {MAX_REPLY_DEPTH} levels"
    ]
    assert run.seconds < WALL_S


def test_a_deeply_nested_error_body_is_only_left_out_of_the_message() -> None:
    def deep_error(handler: FaultHandler, request: dict[str, Any]) -> None:
        send_raw(handler, "application/json", nested(DEEP).encode(), status=400)

    with fault_server(deep_error) as server:
        run = run_cli(["list", "--source", server.url, "--timeout", "10"])
    assert run.status == 1
    (line,) = run.stderr.splitlines()
    assert line.startswith(f"okf-explorer: {server.url} ")
    assert "internal error" not in line and "Recursion" not in line


def test_a_page_nested_past_the_cap_is_refused_before_it_is_shown() -> None:
    with fault_server(deep_but_decodable_frontmatter) as server:
        run = run_cli(["get", "deep", "--json", "--source", server.url, "--timeout", "10"])
    assert run.status == 1
    assert run.stderr.splitlines() == [
        f"okf-explorer: {server.url} sent JSON nested deeper than {MAX_REPLY_DEPTH} levels"
    ]


def test_nesting_at_the_cap_is_read() -> None:
    from okf_explorer.sources.gbrain.http import decode

    at_cap = nested(MAX_REPLY_DEPTH)
    assert decode(at_cap, "server") == json.loads(at_cap)
