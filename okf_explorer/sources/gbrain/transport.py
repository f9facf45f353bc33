"""JSON-RPC over MCP "Streamable HTTP", as a gbrain server speaks it (GBRAIN_PROTOCOL.md).

Design choice: a synchronous `httpx.Client` (one keep-alive connection pool, which
httpx makes safe to share between threads) driven by a bounded thread pool in
`mcp_scan`. The `PageSource` protocol is synchronous and already called from
worker threads, so a private event loop behind a sync facade would only add a
second concurrency model; on loopback the server, not the client, is the bottleneck,
and what cuts its work is fewer round trips (`request_batch`), not more threads.

What this module guarantees:
- every POST carries `Accept: application/json, text/event-stream`,
  `Content-Type: application/json`, the bearer token when set, and
  `MCP-Protocol-Version` / `Mcp-Session-Id` once negotiated / issued;
- replies are read as SSE (several events, notifications and foreign ids skipped)
  or plain JSON (an object or a batch array);
- no hang: a request (all its attempts) ends `timeout` seconds after it is sent,
  whatever the server does (`mcp_http`), with `unreachable (timed out after S s)`;
- bounded memory: a reply over `mcp_http.MAX_REPLY_BYTES` is refused, read no
  further than that; SSE is parsed line by line as it streams;
- idempotent reads are retried a bounded number of times with exponential backoff,
  on connection failures, dropped or cut-off replies and 5xx, never on 4xx or
  tool errors; timeouts are not retried (a slow server stays slow);
- every failure is a typed `OkfError` whose message shows the URL without
  credentials and never the token.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from okf_explorer.core.errors import OkfError, ProtocolError, SourceUnavailable
from okf_explorer.sources.gbrain.bounded_json import decode
from okf_explorer.sources.gbrain.errors import (
    ServerFailed,
    auth_error,
    scrub_secrets,
    timed_out_error,
    unreachable_error,
)
from okf_explorer.sources.gbrain.fast_httpx import httpx
from okf_explorer.sources.gbrain.http import DeadlineBackend, capped_chunks, deadline_transport
from okf_explorer.sources.gbrain.sse import (
    is_refusal,
    is_reply,
    refusal_text,
    sse_lines,
    sse_messages,
)

log = logging.getLogger(__name__)

PROTOCOL_VERSION = "2025-06-18"
"""The MCP version we ask for; the server's answer is what we send afterwards."""

ATTEMPTS = 3
BACKOFF_S = 0.1
"""Retry delays are BACKOFF_S, 2·BACKOFF_S, … (so 0.1 s then 0.2 s)."""

CLIENT_INFO = {"name": "okf-explorer", "version": "0.1.0"}


Call = tuple[str, dict[str, Any] | None]
"""One JSON-RPC request: method and params."""


class _Retryable(Exception):
    """A transient failure worth another attempt; `final` is what to raise if none is left."""

    def __init__(self, final: OkfError) -> None:
        super().__init__(str(final))
        self.final = final


class _SessionExpired(Exception):
    """HTTP 404 while we held a session id: the server forgot us."""


class JsonRpcTransport:
    """One MCP endpoint: handshake, requests, error mapping. Thread-safe.

    `label` is the URL as shown to users (credentials already removed by the
    caller); `secrets` are strings scrubbed from any server text we repeat.
    `transport` replaces the deadline-enforcing one we build (tests inject faults).
    """

    def __init__(
        self,
        url: str,
        *,
        label: str,
        token: str | None,
        token_source: str,
        timeout: float,
        pool_size: int,
        secrets: Iterable[str] = (),
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._url = url
        self.label = label
        self._token_source = token_source
        self._has_token = bool(token)
        self._timeout = timeout
        self._secrets = tuple(s for s in (token, *secrets) if s)
        headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
        }
        if token:
            headers["Authorization"] = f"Bearer {token}"
        limits = httpx.Limits(max_connections=pool_size, max_keepalive_connections=pool_size)
        self._backend = DeadlineBackend()
        if transport is None:
            transport = deadline_transport(url, pool_size, self._backend)
        self._client = httpx.Client(
            headers=headers,
            timeout=httpx.Timeout(timeout),
            limits=limits,
            transport=transport,
            follow_redirects=False,
        )
        self._lock = threading.Lock()
        self._ids = iter(range(1, 1 << 62))
        self._initialized = False
        self._protocol_version: str | None = None
        self._session_id: str | None = None
        self.server_info: dict[str, Any] = {}

    @property
    def token_source(self) -> str:
        """Where the token came from (`--token-file F`, `$GBRAIN_TOKEN`), for messages."""
        return self._token_source

    def __repr__(self) -> str:
        return f"JsonRpcTransport({self.label!r}, token_source={self._token_source!r})"

    # -- public -------------------------------------------------------------------------

    def request(
        self, method: str, params: dict[str, Any] | None = None, *, attempts: int = ATTEMPTS
    ) -> Any:
        """The `result` of one JSON-RPC request (initialising the session first if needed).

        `attempts=1` sends it once, never again (a write decides for itself what a
        transient failure means); the handshake before it is retried as usual.
        """
        outcome = self._exchange_in_session([(method, params)], batch=False, attempts=attempts)[0]
        if isinstance(outcome, OkfError):
            raise outcome
        return outcome

    def request_batch(self, calls: Sequence[Call]) -> list[Any]:
        """The results of several requests sent in one POST as a JSON-RPC batch, in order.

        A call the server answered with a JSON-RPC error has its `ProtocolError` in its
        place (not raised); transport failures raise for the whole batch. A server
        that refuses batches (MCP 2025-06-18 dropped them) raises `ProtocolError`.
        """
        return self._exchange_in_session(list(calls), batch=True)

    def _exchange_in_session(
        self, calls: list[Call], *, batch: bool, attempts: int = ATTEMPTS
    ) -> list[Any]:
        self.ensure_initialized()
        try:
            return self._exchange_with_retries(calls, batch, attempts)
        except _SessionExpired:
            log.debug("%s: session expired, initialising again", self.label)
            self._reinitialize()
            try:
                return self._exchange_with_retries(calls, batch, attempts)
            except _SessionExpired:
                raise ProtocolError(
                    f"{self.label} keeps rejecting our session (HTTP 404 after a new handshake)"
                ) from None

    def ensure_initialized(self) -> None:
        """`initialize` + `notifications/initialized`, once, whichever thread comes first."""
        if self._initialized:
            return
        with self._lock:
            if not self._initialized:
                self._handshake()

    def close(self) -> None:
        self._client.close()

    # -- handshake ------------------------------------------------------------------------

    def _handshake(self) -> None:
        params = {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": CLIENT_INFO,
        }
        try:
            result = self._exchange_with_retries([("initialize", params)], batch=False)[0]
        except _SessionExpired:
            raise ProtocolError(f"{self.label} has no MCP endpoint (HTTP 404)") from None
        if isinstance(result, OkfError):
            raise result
        if not isinstance(result, dict):
            raise ProtocolError(f"{self.label} answered initialize with something unexpected")
        version = result.get("protocolVersion")
        self._protocol_version = version if isinstance(version, str) else PROTOCOL_VERSION
        info = result.get("serverInfo")
        self.server_info = info if isinstance(info, dict) else {}
        self._notify("notifications/initialized")
        self._initialized = True

    def _reinitialize(self) -> None:
        with self._lock:
            self._initialized = False
            self._session_id = None
            self._protocol_version = None
            self._handshake()

    def _notify(self, method: str) -> None:
        """A notification: the server answers 202 with no body; failures here are not fatal
        for a stateless server, so only auth and reachability errors propagate."""
        body = {"jsonrpc": "2.0", "method": method}
        deadline = time.monotonic() + self._timeout
        try:
            with self._post(body, deadline) as response:
                self._check_auth(response)
                for _ in self._body(response, deadline):
                    pass  # read (and drop) any body, so the connection can be reused
        except httpx.TimeoutException:
            raise self._timed_out() from None
        except httpx.TransportError as error:
            raise self._unreachable(error) from None

    # -- one request ----------------------------------------------------------------------

    def _exchange_with_retries(
        self, calls: list[Call], batch: bool, attempts: int = ATTEMPTS
    ) -> list[Any]:
        """`_exchange`, tried up to `attempts` times; all share one deadline, `timeout` from now."""
        deadline = time.monotonic() + self._timeout
        for attempt in range(1, attempts + 1):
            try:
                return self._exchange(calls, batch, deadline)
            except _Retryable as failure:
                delay = BACKOFF_S * 2 ** (attempt - 1)
                if attempt == attempts or time.monotonic() + delay >= deadline:
                    raise failure.final from None
                log.debug(
                    "%s (attempt %d of %d, retrying in %.1f s)",
                    failure.final, attempt, attempts, delay,
                )  # fmt: skip
                time.sleep(delay)
        raise AssertionError("unreachable code")  # pragma: no cover

    def _exchange(self, calls: list[Call], batch: bool, deadline: float) -> list[Any]:
        """One POST: the outcome (result or `ProtocolError`) of each call, in order."""
        ids = [next(self._ids) for _ in calls]
        bodies: list[dict[str, Any]] = []
        for request_id, (method, params) in zip(ids, calls, strict=True):
            body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
            if params is not None:
                body["params"] = params
            bodies.append(body)
        what = f"a batch of {len(calls)} calls" if batch else calls[0][0]
        try:
            with self._post(bodies if batch else bodies[0], deadline) as response:
                self._check_status(response, what, deadline)
                replies = self._read_replies(response, ids, deadline)
        except httpx.TimeoutException:
            raise self._timed_out() from None
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as error:
            raise _Retryable(self._unreachable(error, dropped=True)) from None
        except httpx.TransportError as error:
            raise _Retryable(self._unreachable(error)) from None
        return [
            self._outcome(replies[request_id], method)
            for request_id, (method, _) in zip(ids, calls, strict=True)
        ]

    @contextlib.contextmanager
    def _post(self, payload: Any, deadline: float) -> Iterator[httpx.Response]:
        """A streamed POST of `payload` whose every network operation ends by `deadline`."""
        headers = self._extra_headers()
        with (
            self._backend.until(deadline),
            self._client.stream("POST", self._url, json=payload, headers=headers) as response,
        ):
            yield response

    def _extra_headers(self) -> dict[str, str]:
        headers: dict[str, str] = {}
        if self._protocol_version:
            headers["MCP-Protocol-Version"] = self._protocol_version
        if self._session_id:
            headers["Mcp-Session-Id"] = self._session_id
        return headers

    def _check_status(self, response: httpx.Response, method: str, deadline: float) -> None:
        """Map the HTTP status to our errors; remember a session id the server issues."""
        status = response.status_code
        if status == 200:
            session = response.headers.get("mcp-session-id")
            if session and method == "initialize":
                self._session_id = session
            return
        self._check_auth(response)
        if status == 404 and self._session_id:
            response.close()
            raise _SessionExpired()
        if status >= 500:
            reason = f"HTTP {status} {response.reason_phrase}".strip()
            raise _Retryable(ServerFailed(f"{self.label} unreachable (server error {reason})"))
        detail = self._error_detail(response, deadline)
        raise ProtocolError(f"{self.label} refused {method} (HTTP {status}{detail})")

    def _check_auth(self, response: httpx.Response) -> None:
        status = response.status_code
        if status in (401, 403):
            raise auth_error(self.label, status, self._has_token, self._token_source)

    def _error_detail(self, response: httpx.Response, deadline: float) -> str:
        """`: <server message>` from a small JSON error body (its first 4 KiB), scrubbed;
        else empty."""
        head = bytearray()
        try:
            for chunk in self._body(response, deadline):
                head += chunk
                if len(head) >= 4096:
                    break
            data = decode(head[:4096], self.label)
        except (ValueError, httpx.HTTPError, OkfError):
            return ""
        error = data.get("error") if isinstance(data, dict) else None
        message = error.get("message") if isinstance(error, dict) else None
        return f": {self.scrub(str(message))}" if message else ""

    # -- reading replies ------------------------------------------------------------------

    def _read_replies(
        self, response: httpx.Response, ids: list[int], deadline: float
    ) -> dict[int, dict[str, Any]]:
        """Our replies by id; stops reading as soon as all have arrived."""
        content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type == "text/event-stream":
            lines = sse_lines(self._body(response, deadline))
            messages = sse_messages(lines, deadline, self._timed_out, self.label)
        elif content_type in ("application/json", ""):
            messages = iter(self._json_messages(response, deadline))
        else:
            raise ProtocolError(f"{self.label} answered with unexpected {content_type!r} content")
        wanted, found = set(ids), {}
        for message in messages:
            if is_reply(message, wanted):
                found[message["id"]] = message
                if len(found) == len(wanted):
                    return found
            elif is_refusal(message):
                raise ProtocolError(
                    f"{self.label} refused the request: {self.scrub(refusal_text(message))}"
                )
        raise _Retryable(ProtocolError(f"{self.label} reply was cut off before the answer arrived"))

    def _body(self, response: httpx.Response, deadline: float) -> Iterator[bytes]:
        return capped_chunks(
            response, deadline=deadline, timed_out=self._timed_out, label=self.label
        )

    def _json_messages(self, response: httpx.Response, deadline: float) -> list[Any]:
        raw = bytearray()  # json.loads reads a bytearray as it is: no second copy
        for chunk in self._body(response, deadline):
            raw += chunk
        if not raw.strip():
            return []
        try:
            data = decode(raw, self.label)
        except ValueError:
            raise ProtocolError(f"{self.label} answered with invalid JSON") from None
        return data if isinstance(data, list) else [data]

    def _outcome(self, reply: dict[str, Any], method: str) -> Any:
        """The `result`, or a `ProtocolError` for a JSON-RPC `error` (returned, not raised)."""
        if "error" not in reply:
            return reply["result"]
        error = reply["error"]
        if isinstance(error, dict):
            message = self.scrub(str(error.get("message", "unknown error")))
            return ProtocolError(
                f"{self.label} failed {method}: {message} (code {error.get('code')})"
            )
        return ProtocolError(f"{self.label} failed {method}: {self.scrub(str(error))}")

    # -- errors (`mcp_errors`) -------------------------------------------------------------

    def scrub(self, text: str) -> str:
        """`text` with any secret replaced by `***`, cut to one short line."""
        return scrub_secrets(text, self._secrets)

    def _timed_out(self) -> SourceUnavailable:
        return timed_out_error(self.label, self._timeout)

    def _unreachable(self, error: Exception, dropped: bool = False) -> SourceUnavailable:
        return unreachable_error(self.label, error, self._secrets, dropped)
