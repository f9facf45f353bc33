"""Every cap and timeout of `serve`, in one place (docs/limits.md lists them).

A client can make the server read, compute, hold or send only this much for one
request; past a cap it gets a clear JSON-RPC error (or, for a traversal, the
shallowest rows and `_meta.truncated`), never a stalled or swollen server.
Values are what a user of a local knowledge server expects: far above any
honest request, far below what hurts a small machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MIB = 1024 * 1024

MAX_BODY_BYTES = 1 * MIB
"""Largest `/mcp` request body (checked as it streams in): past it, 413. An honest
request is a few hundred bytes; a batch of `MAX_BATCH` calls a few kilobytes."""

MAX_BATCH = 32
"""Most JSON-RPC messages in one batch (our client sends 20): past it, 400 -32600."""

MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects in a request (MCP messages nest 4-6 levels):
past it, 400 -32600, before any code walks the value recursively."""

MAX_ID_BITS = 63
"""An integer JSON-RPC id must fit a signed 64-bit integer (as in every MCP SDK)."""

MAX_REPLY_BYTES = 16 * MIB
"""Most bytes of replies to one POST. The reply that would pass it, and every
later one in the batch, is the JSON-RPC error -32000 `Reply too large` (later
calls are not run). Below the MCP client's own cap, so our client reads any reply
our server sends."""

TRAVERSE_ROW_CAP = 5000
"""Most rows in one `traverse_graph` (or `memory_navigate` traverse) reply, as
gbrain's `TRAVERSE_PATH_ROW_CAP`: the shallowest rows are kept (rows are ordered
by depth), and the reply's `_meta` says `truncated`."""

INDEX_WAIT = 20.0
"""Seconds a tool call waits for the index being built behind the handshake
(`server.warmup`), reporting progress if asked; then it is answered `indexing, N of M
pages` and may be retried. Below the 30-60 s after which MCP clients give up a call."""

HEADER_TIMEOUT = 10.0
"""Seconds a connection may take to send a complete request head (from connecting,
or from the end of the previous reply); then it is closed (slowloris)."""

BODY_TIMEOUT = 30.0
"""Seconds a client may take to send a request body once its head is in: then 408."""

KEEP_ALIVE_TIMEOUT = 5
"""Seconds an idle keep-alive connection stays open between requests (as gbrain)."""

MAX_HEADER_BYTES = 16 * 1024
"""Largest request head (request line and headers): past it, 400 from the HTTP layer."""

SHUTDOWN_BUDGET = 3.0
"""Seconds from SIGINT/SIGTERM to the process's exit: calls in flight are cancelled and
answered at once (HTTP 503, or an `isError` reply over stdio), replies already under
way get this long to finish; then the process ends, whatever is still running."""

TOOL_THREADS = 4
"""Worker threads doing tool work at once (the plain calls of one POST share one);
more requests wait. Tool work holds the GIL, so more threads would add memory
(each holds replies), not speed."""


@dataclass(frozen=True)
class Truncated:
    """A tool's rows cut at `TRAVERSE_ROW_CAP` (the shallowest kept): the reply says so
    in `_meta`, which gbrain clients ignore, and the value stays gbrain's bare array."""

    rows: list[Any]
    tool: str

    def warning(self) -> dict[str, str]:
        return {
            "code": "truncated",
            "message": f"{self.tool} output truncated at {TRAVERSE_ROW_CAP} rows "
            "(shallowest first); lower depth or narrow with link_type/direction",
        }


def capped(rows: list[Any], tool: str) -> list[Any] | Truncated:
    """`rows` asked for with `limit=TRAVERSE_ROW_CAP + 1`: one row over means more exist."""
    if len(rows) > TRAVERSE_ROW_CAP:
        return Truncated(rows[:TRAVERSE_ROW_CAP], tool)
    return rows
