"""Reading MCP replies: Server-Sent Events framing and picking our JSON-RPC replies.

A streamable-HTTP reply may hold several events: notifications, replies to other
requests, keep-alive comments, and ours. These helpers are pure (no I/O of their
own), so the transport and the tests share them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any

from okf_explorer.core.errors import OkfError, ProtocolError
from okf_explorer.sources.gbrain.bounded_json import decode


def is_reply(message: Any, ids: Collection[int]) -> bool:
    """True for a JSON-RPC response to one of our requests (not a notification, not
    another id)."""
    return (
        isinstance(message, dict)
        and message.get("id") in ids
        and ("result" in message or "error" in message)
    )


def is_refusal(message: Any) -> bool:
    """True for an error that answers no request in particular (`"id": null`): the
    server rejected the whole POST (bad JSON, a batch it does not accept, ...)."""
    return isinstance(message, dict) and message.get("id") is None and "error" in message


def refusal_text(message: dict[str, Any]) -> str:
    error = message.get("error")
    if isinstance(error, dict):
        return str(error.get("message") or error.get("code") or "unknown error")
    return str(error)


def sse_messages(
    lines: Iterator[str], deadline: float, timed_out: Callable[[], OkfError], label: str
) -> Iterator[Any]:
    """JSON-RPC messages from an SSE stream, one per event (`data:` lines joined).

    Stops at the overall `deadline` (raising `timed_out()`), so a server that
    trickles keep-alive comments forever cannot hang us. A final event without its
    blank line is still tried (a complete message is accepted; a cut one is not).
    An event whose data is not JSON, or nests too deep (`bounded_json`), is a protocol
    error.
    """
    data: list[str] = []
    for line in lines:
        if time.monotonic() > deadline:
            raise timed_out()
        if line == "":
            if data:
                yield _decode_event(data, label)
                data = []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if field == "data":
            data.append(value[1:] if value.startswith(" ") else value)
    if data:
        try:
            yield decode("\n".join(data), label)
        except ValueError:
            return


_LINE_END = re.compile(rb"\r\n|\r|\n")


def sse_lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """The lines of an SSE stream (CRLF, LF or CR ends), as the bytes arrive.

    Unlike reading the body whole, memory holds one line at most (and the caller
    caps the bytes read); a line split over chunks is joined once, not re-copied per
    chunk. Lines are split as bytes, so a UTF-8 character cut between chunks is whole.
    """
    partial: list[bytes] = []
    after_cr = False
    for chunk in chunks:
        if after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]  # the LF of a CRLF split between chunks
            after_cr = False
        if not chunk:
            continue
        after_cr = chunk.endswith(b"\r")
        pieces = _LINE_END.split(chunk)
        if len(pieces) == 1:
            partial.append(chunk)
            continue
        partial.append(pieces[0])
        yield b"".join(partial).decode("utf-8", "replace")
        for piece in pieces[1:-1]:
            yield piece.decode("utf-8", "replace")
        partial = [pieces[-1]] if pieces[-1] else []
    if partial:
        yield b"".join(partial).decode("utf-8", "replace")


def _decode_event(data: list[str], label: str) -> Any:
    try:
        return decode("\n".join(data), label)
    except ValueError:
        raise ProtocolError(f"{label} sent an event that is not valid JSON") from None
