"""Replies to one POST to `/mcp` as gbrain frames them, within one byte budget.

`sse_block` writes one JSON-RPC reply as gbrain does: `event: message` plus one
`data:` line, `\\n` line ends, keys `result`/`error`, `jsonrpc`, `id` in that
order. `ReplyBudget` caps the bytes of all replies to one request.
"""

from __future__ import annotations

import json
from typing import Any

from okf_explorer.server.intake import SERVER_ERROR
from okf_explorer.server.limits import MAX_REPLY_BYTES, MIB


def sse_block(message: dict[str, Any]) -> bytes:
    """One reply as gbrain frames it, keys in gbrain's order."""
    ordered = {k: message[k] for k in ("result", "error") if k in message}
    ordered.update({"jsonrpc": message.get("jsonrpc", "2.0"), "id": message.get("id")})
    data = json.dumps(ordered, ensure_ascii=False, separators=(",", ":"))
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
