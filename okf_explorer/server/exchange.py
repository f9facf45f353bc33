"""One POST to `/mcp`, in and out: the request read defensively, the replies framed as
gbrain frames them within one byte budget.

In: body size and time, JSON, message shapes. Whatever the body holds, the answer is
a `Refused` (status, JSON-RPC code, one-line message) or a list of JSON-RPC messages
that the rest of the server can handle without surprises: JSON-RPC 2.0, a string
`method`, an `id` that is a string or a 64-bit integer, object `params`, nesting a
few levels deep, at most `MAX_BATCH` of them.

Out: `sse_block` writes one JSON-RPC reply as gbrain does: `event: message` plus one
`data:` line, `\\n` line ends, keys `result`/`error`, `jsonrpc`, `id` in that order.
`ReplyBudget` caps the bytes of all replies to one request (`MAX_REPLY_BYTES`).
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from starlette.requests import ClientDisconnect, Request

from okf_explorer.server.limits import (
    BODY_TIMEOUT,
    MAX_BATCH,
    MAX_BODY_BYTES,
    MAX_ID_BITS,
    MAX_JSON_DEPTH,
    MAX_REPLY_BYTES,
    MIB,
)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
SERVER_ERROR = -32000


class Refused(Exception):
    """A request answered with a transport-level JSON-RPC error (`id` null).

    `close` asks for the connection to be closed after the answer (a body left unread).
    """

    def __init__(self, status: int, code: int, message: str, *, close: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.close = close


def _too_large() -> Refused:
    limit = f"{MAX_BODY_BYTES / MIB:g} MiB"
    return Refused(413, SERVER_ERROR, f"Payload Too Large: the body passes {limit}", close=True)


async def read_body(request: Request) -> bytes:
    """The body, read as it streams in: refused past `MAX_BODY_BYTES` (413) or after
    `BODY_TIMEOUT` seconds (408), without reading the rest."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise _too_large()
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(BODY_TIMEOUT):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise _too_large()
                chunks.append(chunk)
    except TimeoutError:
        late = f"Request Timeout: body not sent within {BODY_TIMEOUT:g} s"
        raise Refused(408, SERVER_ERROR, late, close=True) from None
    except ClientDisconnect:
        raise Refused(400, SERVER_ERROR, "Bad Request: the client went away", close=True) from None
    return b"".join(chunks)


def parse_messages(body: bytes) -> list[dict[str, Any]]:
    """The JSON-RPC messages of a body (a batch or one message), checked; else `Refused`."""
    try:
        payload = json.loads(body)
    except RecursionError:
        raise Refused(400, PARSE_ERROR, "Parse error: JSON nested too deeply") from None
    except ValueError as error:  # bad JSON or encoding, or a number too long to read
        message = "Parse error: Invalid JSON"
        if "integer string conversion" in str(error):
            message = "Parse error: a number too long"
        raise Refused(400, PARSE_ERROR, message) from None
    batch = payload if isinstance(payload, list) else [payload]
    if not batch:
        raise Refused(400, INVALID_REQUEST, "Invalid Request")
    if len(batch) > MAX_BATCH:
        raise Refused(
            400,
            INVALID_REQUEST,
            f"Invalid Request: a batch of {len(batch)} messages; at most {MAX_BATCH} a request",
        )
    if _deeper_than(payload, MAX_JSON_DEPTH):
        raise Refused(
            400, INVALID_REQUEST, f"Invalid Request: JSON nested deeper than {MAX_JSON_DEPTH}"
        )
    for item in batch:
        problem = _message_problem(item)
        if problem:
            raise Refused(400, INVALID_REQUEST, f"Invalid Request: {problem}")
    return batch


def _message_problem(item: Any) -> str | None:
    """Why `item` is not a JSON-RPC 2.0 message we can answer, or None."""
    if not isinstance(item, dict):
        return "a message must be an object" if item is not None else "a message is null"
    if item.get("jsonrpc") != "2.0":
        return 'jsonrpc must be "2.0"'
    if "method" not in item:
        return None  # a response: nothing is answered, nothing is read
    if not isinstance(item["method"], str):
        return "method must be a string"
    if "id" in item and not _valid_id(item["id"]):
        return "id must be a string or an integer of at most 64 bits"
    if item.get("params") is not None and not isinstance(item["params"], dict):
        return "params must be an object"
    return None


def _valid_id(value: Any) -> bool:
    """MCP request ids: a string or an integer (never null), here at most 64 bits."""
    if isinstance(value, str):
        return True
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and -(1 << MAX_ID_BITS) <= value < (1 << MAX_ID_BITS)
    )


def _deeper_than(value: Any, limit: int) -> bool:
    """True when arrays and objects nest more than `limit` levels (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


# --- out: the replies -----------------------------------------------------------------


def sse_block(message: dict[str, Any]) -> bytes:
    """One reply as gbrain frames it, keys in gbrain's order."""
    ordered = {k: message[k] for k in ("result", "error") if k in message}
    ordered.update({"jsonrpc": message.get("jsonrpc", "2.0"), "id": message.get("id")})
    data = json.dumps(ordered, ensure_ascii=False, separators=(",", ":"))
    return f"event: message\ndata: {data}\n\n".encode()


def progress_block(token: str | int, done: int, total: int | None, message: str) -> bytes:
    """One `notifications/progress` for the request that sent `progressToken` `token`,
    framed as a reply is."""
    params: dict[str, Any] = {"progressToken": token, "progress": done}
    if total is not None:
        params["total"] = total
    params["message"] = message
    note = {"method": "notifications/progress", "params": params, "jsonrpc": "2.0"}
    data = json.dumps(note, ensure_ascii=False, separators=(",", ":"))
    return f"event: message\ndata: {data}\n\n".encode()


def error_block(request_id: Any, code: int, message: str) -> bytes:
    return sse_block({"error": {"code": code, "message": message}, "id": request_id})


class ReplyBudget:
    """The bytes the replies to one POST may still take (`MAX_REPLY_BYTES` in all).

    The first reply that does not fit, and every reply after it, becomes the error
    `Reply too large`; `spent` tells callers to skip the work of later calls.
    """

    def __init__(self, limit: int = MAX_REPLY_BYTES) -> None:
        self.left = limit
        self.spent = False
        self.refused = 0

    def take(self, block: bytes, request_id: Any) -> bytes:
        if not self.spent and len(block) <= self.left:
            self.left -= len(block)
            return block
        return self.refuse(request_id)

    def refuse(self, request_id: Any) -> bytes:
        self.spent = True
        self.refused += 1
        limit = f"{MAX_REPLY_BYTES / MIB:g} MiB"
        return error_block(
            request_id,
            SERVER_ERROR,
            f"Reply too large: the replies to one request may take {limit}; "
            "send fewer calls a request, or ask for less",
        )
