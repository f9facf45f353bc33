"""Fast path: plain `tools/call` requests answered without the SDK's per-request session.

In stateless mode the SDK (mcp 2.x) builds a transport, a dispatcher, a connection
and a task group for every message, then validates and re-serialises the result
through its per-version wire models; none of it carries anything a tool call
needs. A plain call (nothing but `name` and `arguments`, an ordinary id) runs
here instead: the same tool work as the SDK handler (`mcp_app.build_mcp_server`),
the result written as the SDK writes it (`result_object`), all calls of one
POST in one worker thread.

Measured gain over the SDK path (tests/bench/bench_fast_paths.py, 2,000 pages, mcp
2.3.0, both paths alternating in one run on one server; its figure is in
`core.fast_paths.FAST_PATHS`): one `get_page` a POST about 1.8x faster, a batch of 20
(as our client scans) about 6x.

Off under `OKF_EXPLORER_PLAIN=1` (`core.fast_paths`): then every request goes
through the SDK. tests/test_server_http.py (same request, same reply bytes) and
tests/test_server_encoding.py (`result_object` = the SDK's wire dump) hold both
paths to the same answer.
"""

from __future__ import annotations

from typing import Any

from okf_explorer.core import fast_paths
from okf_explorer.server.catalog import call_tool
from okf_explorer.server.exchange import ReplyBudget, sse_block
from okf_explorer.server.mcp_app import FreshBrain, reply_meta
from okf_explorer.server.tools import ToolReply

PLAIN_KEYS = frozenset({"jsonrpc", "id", "method", "params"})

Call = tuple[str, dict[str, Any]]


def plain_tool_call(item: dict[str, Any]) -> Call | None:
    """`(name, arguments)` of a `tools/call` the SDK would dispatch unchanged, else None
    (always None when fast paths are off)."""
    if not fast_paths.enabled():
        return None
    if item.get("method") != "tools/call" or item.get("jsonrpc") != "2.0" or set(item) - PLAIN_KEYS:
        return None
    request_id, params = item.get("id"), item.get("params")
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None
    if not isinstance(params, dict) or set(params) - {"name", "arguments"}:
        return None
    name, arguments = params.get("name"), params.get("arguments")
    if arguments is None:
        arguments = {}
    if not isinstance(name, str) or not isinstance(arguments, dict):
        return None
    return name, arguments


def result_object(reply: ToolReply) -> dict[str, Any]:
    """The `result` of a `tools/call` exactly as the SDK puts `mcp_app.to_result(reply)`
    on a pre-2026 wire (its wire models order a content item `text`, `type`)."""
    result: dict[str, Any] = {
        "content": [{"text": reply.text, "type": "text"}],
        "isError": reply.is_error,
    }
    meta = reply_meta(reply)
    if meta:
        result = {"_meta": meta, **result}
    return result


def call_result(fresh: FreshBrain, call: Call) -> dict[str, Any]:
    """One call's `result`, as the SDK handler makes it (an unexpected failure included)."""
    name, arguments = call
    try:
        reply = fresh.warmer.refusal(name, arguments) or call_tool(
            fresh.current(),
            name,
            arguments,
            contexts=fresh.contexts,
            cancel=fresh.shutdown.requested,
            shapes=fresh.shapes,
            show_private=fresh.show_private,
        )
    except Exception as error:  # the SDK handler's catch-all, reproduced
        return {"content": [{"text": str(error), "type": "text"}], "isError": True}
    return result_object(reply)


def answer_calls(
    fresh: FreshBrain, calls: list[tuple[Any, Call]], budget: ReplyBudget
) -> list[bytes]:
    """The SSE blocks of plain tool calls `(id, (name, arguments))`, run in order in this
    (worker) thread; once the budget is spent, later calls are refused, not run."""
    blocks = []
    for request_id, call in calls:
        if budget.spent:
            blocks.append(budget.refuse(request_id))
            continue
        block = sse_block({"result": call_result(fresh, call), "id": request_id})
        blocks.append(budget.take(block, request_id))
    return blocks
