"""What bounds a server's reply: a real deadline per request, a cap per reply, bounded JSON.

httpx timeouts bound each socket operation, not a request: a server that answers
`200` and then sends one byte a second never trips a 3 s read timeout. Two guards
make `--timeout S` a deadline from the first byte sent to the last byte read:

- `DeadlineBackend` is the network backend of the connection pool we build: every
  connect, TLS handshake, write and read gets at most the time left before the
  calling thread's deadline (set with `DeadlineBackend.until`), so a stalled or
  trickling server is cut off on time in any phase (status line, headers, body);
- `capped_chunks`, which every reply body is read through, also checks the
  deadline after each chunk, so a transport we did not build (a test's, or httpx's
  own when an `https_proxy` is configured) is still bounded to within one read.

A `Deadline` may be pushed back while the server shows it is working on our call: MCP
lets a client reset its timeout on each progress notification for the call, and asks
it to keep a maximum all the same. `Deadline.progressed` moves it to `timeout` from
now, never past `PROGRESS_STRETCH` times `timeout` from the start: a server building
its index behind the handshake (ours, `serve`, reports its progress) is waited for,
and one that reports progress forever still meets a deadline.

`MAX_REPLY_BYTES` caps one reply (64 MiB, counted after decompression): a larger
declared `Content-Length` is refused before reading, and a body is cut off as soon
as it passes the cap, so memory stays bounded whatever a server sends. SSE replies
are split into lines as they stream (`transport.sse_lines`), never read whole.

Every JSON text a server sends (the JSON-RPC message, a tool's payload text, an error
body) goes through `decode`, with bounded nesting. `json.loads` recurses once per level:
a reply nested 100,000 deep raises `RecursionError` from inside the decoder, and one
nested 600 deep decodes but breaks whatever walks it next (printing it as indented JSON,
rendering a page header); `decode` refuses both with a `ProtocolError` naming the
server. gbrain's replies nest under ten levels, plus a page's frontmatter (which bundles
cap at 64 levels, `sources.frontmatter`).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

import httpcore

from okf_explorer.core.errors import OkfError, ProtocolError
from okf_explorer.sources.gbrain.fast_httpx import httpx

PROGRESS_STRETCH = 6
"""How far progress notifications may push a request's deadline back, in timeouts
from its start (the default 10 s: a minute at most)."""


class Deadline:
    """When a request must have ended (`time.monotonic`): `timeout` after it started,
    moved to `timeout` after each sign of progress (`progressed`), up to
    `PROGRESS_STRETCH` timeouts after the start."""

    def __init__(self, timeout: float) -> None:
        now = time.monotonic()
        self.timeout = timeout
        self.at = now + timeout
        self.latest = now + timeout * PROGRESS_STRETCH

    def left(self) -> float:
        """Seconds left (negative once passed)."""
        return self.at - time.monotonic()

    def passed(self) -> bool:
        return self.left() < 0

    def progressed(self) -> None:
        """The server reported progress on the request: `timeout` more from now."""
        self.at = max(self.at, min(self.latest, time.monotonic() + self.timeout))


MAX_REPLY_BYTES = 64 * 1024 * 1024
"""The most one MCP reply may hold (64 MiB). gbrain caps its pages far below this;
a larger reply is a `ProtocolError`, read no further than the cap."""


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's socket backend, with every operation clamped to the thread's deadline.

    Outside `until(...)` it behaves exactly like `httpcore.SyncBackend`. Past the
    deadline an operation raises httpcore's timeout error of its kind, which httpx
    turns into `httpx.TimeoutException`. The deadline is per thread because httpx's
    sync client does all I/O of a request on the thread that sent it.
    """

    def __init__(self) -> None:
        self._sockets = httpcore.SyncBackend()
        self._local = threading.local()

    @contextlib.contextmanager
    def until(self, deadline: Deadline) -> Iterator[None]:
        """Bound every network operation of this thread by `deadline`."""
        previous = getattr(self._local, "deadline", None)
        self._local.deadline = deadline
        try:
            yield
        finally:
            self._local.deadline = previous

    def time_left(self, timeout: float | None, expired: type[Exception]) -> float | None:
        """`timeout`, shortened to what is left before the deadline; raises `expired` past it."""
        deadline: Deadline | None = getattr(self._local, "deadline", None)
        if deadline is None:
            return timeout
        left = deadline.left()
        if left <= 0:
            raise expired("the request's deadline has passed")
        return left if timeout is None else min(timeout, left)

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        stream = self._sockets.connect_tcp(
            host,
            port,
            self.time_left(timeout, httpcore.ConnectTimeout),
            local_address=local_address,
            socket_options=socket_options,
        )
        return _DeadlineStream(stream, self)

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        left = self.time_left(timeout, httpcore.ConnectTimeout)
        stream = self._sockets.connect_unix_socket(path, left, socket_options=socket_options)
        return _DeadlineStream(stream, self)

    def sleep(self, seconds: float) -> None:
        self._sockets.sleep(seconds)


class _DeadlineStream(httpcore.NetworkStream):
    """One connection; each call gets the time its thread has left (see `DeadlineBackend`)."""

    def __init__(self, inner: httpcore.NetworkStream, backend: DeadlineBackend) -> None:
        self._inner = inner
        self._backend = backend

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._backend.time_left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._backend.time_left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        left = self._backend.time_left(timeout, httpcore.ConnectTimeout)
        inner = self._inner.start_tls(ssl_context, server_hostname, left)
        return _DeadlineStream(inner, self._backend)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _PoolTransport(httpx.HTTPTransport):
    """httpx's transport over a connection pool we configured (httpx offers no way to
    hand it a network backend). Only `_pool` is set: it is all `handle_request` and
    `close` use, and skipping `HTTPTransport.__init__` avoids building a second pool."""

    def __init__(self, pool: httpcore.ConnectionPool) -> None:
        self._pool = pool


def deadline_transport(
    url: str, pool_size: int, backend: DeadlineBackend
) -> httpx.BaseTransport | None:
    """The transport for `url`, its sockets driven by `backend`.

    `http://` never loads the CA bundle (httpx reads the system certificates for
    every client it makes: 60-100 ms, most of a one-shot CLI query over loopback).
    `https://` verifies as httpx does by default; when an environment proxy applies
    to it, None keeps httpx's own proxying transport (then only `capped_chunks`
    enforces the deadline, to within one read).
    """
    scheme = urlsplit(url).scheme.lower()
    ssl_context = None
    if scheme == "https":
        if _environment_proxy_applies(url):
            return None
        ssl_context = httpx.create_ssl_context()
    pool = httpcore.ConnectionPool(
        ssl_context=ssl_context,
        max_connections=pool_size,
        max_keepalive_connections=pool_size,
        keepalive_expiry=5.0,
        network_backend=backend,
    )
    return _PoolTransport(pool)


def _environment_proxy_applies(url: str) -> bool:
    import urllib.request

    proxies = urllib.request.getproxies_environment()
    parts = urlsplit(url)
    if not (proxies.get(parts.scheme.lower()) or proxies.get("all")):
        return False
    return not urllib.request.proxy_bypass_environment(parts.hostname or "", proxies)


def capped_chunks(
    response: httpx.Response,
    *,
    deadline: Deadline,
    timed_out: Callable[[], OkfError],
    label: str,
) -> Iterator[bytes]:
    """The body of `response` as it arrives, within the deadline and `MAX_REPLY_BYTES`."""
    limit = MAX_REPLY_BYTES
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(label, limit)
    total = 0
    for chunk in response.iter_bytes():
        total += len(chunk)
        if total > limit:
            raise _too_large(label, limit)
        if deadline.passed():
            raise timed_out()
        yield chunk


def _too_large(label: str, limit: int) -> ProtocolError:
    size = f"{limit >> 20} MiB" if limit % (1 << 20) == 0 else f"{limit:,} bytes"
    return ProtocolError(f"{label} sent a reply larger than {size}, the most okf-explorer reads")


MAX_REPLY_DEPTH = 128
"""Deepest nesting of arrays and objects accepted in one JSON text from a server."""


def decode(text: str | bytes | bytearray, label: str) -> Any:
    """`json.loads(text)`, nested at most `MAX_REPLY_DEPTH` deep.

    Raises `ProtocolError` ("`label` sent JSON nested deeper than …") past it, and
    `ValueError` for text that is not JSON (each caller says what it was reading)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise too_deep(label) from None
    if not nested_within(value, MAX_REPLY_DEPTH):
        raise too_deep(label)
    return value


def too_deep(label: str) -> ProtocolError:
    return ProtocolError(f"{label} sent JSON nested deeper than {MAX_REPLY_DEPTH} levels")


def nested_within(value: Any, limit: int) -> bool:
    """True when no array or object in `value` sits more than `limit` levels deep
    (`[]` is one level). Iterative, so any depth can be measured."""
    if not isinstance(value, dict | list):
        return True
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return False
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return True
