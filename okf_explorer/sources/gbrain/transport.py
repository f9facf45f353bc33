"""JSON-RPC over MCP "Streamable HTTP", as a gbrain server speaks it (GBRAIN_PROTOCOL.md).

Design choice: a synchronous `httpx.Client` (one keep-alive connection pool, which
httpx makes safe to share between threads) driven by a bounded thread pool in
`McpSource.scan`. The `PageSource` protocol is synchronous and already called from
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
  whatever the server does (`sources.gbrain.http`), with `unreachable (timed out after S s)`;
  a tool call carries a `progressToken`, and each progress notification the server
  sends for it gives it `timeout` more, within a maximum (`http.Deadline`): a server
  still building its index says so instead of our giving up on it;
- bounded memory: a reply over `http.MAX_REPLY_BYTES` is refused, read no
  further than that; SSE is parsed line by line as it streams;
- idempotent reads are retried a bounded number of times with exponential backoff,
  on connection failures, dropped or cut-off replies and 5xx, never on 4xx or
  tool errors; timeouts are not retried (a slow server stays slow);
- every failure is a typed `OkfError` whose message shows the URL without
  credentials (`redact_url`) and never the token, nor a URL's secret parts
  (`url_secrets`: its password, secret-looking query values). The factory labels
  sources with `redact_url` too, and the CLI scrubs `url_secrets` from its errors.

Replies are read here too: Server-Sent Events framing (`sse_lines`, `sse_messages`) and
picking our JSON-RPC replies (`is_reply`, `is_refusal`). A streamable-HTTP reply may
hold several events: notifications, replies to other requests, keep-alive comments, and
ours. These helpers are pure (no I/O of their own), so the transport and the tests share
them.

Its failures are one-line typed errors (`auth_error`, `unreachable_error`, ...): each
message names the endpoint by its label (the URL without credentials); server text
repeated in one is scrubbed of every secret, so no token shows.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from okf_explorer.core.errors import AuthError, OkfError, ProtocolError, SourceUnavailable
from okf_explorer.sources.gbrain.fast_httpx import httpx
from okf_explorer.sources.gbrain.http import (
    Deadline,
    DeadlineBackend,
    capped_chunks,
    deadline_transport,
    decode,
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

    `label` is the URL as shown to users (`redact_url`); the token and the URL's
    secret parts (`url_secrets`) are scrubbed from any server text we repeat.
    `transport` replaces the deadline-enforcing one we build (tests inject faults).
    """

    def __init__(
        self,
        url: str,
        *,
        token: str | None,
        token_source: str,
        timeout: float,
        pool_size: int,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._url = url
        self.label = redact_url(url)
        self._token_source = token_source
        self._has_token = bool(token)
        self._timeout = timeout
        self._secrets = tuple(s for s in (token, *url_secrets(url)) if s)
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
        deadline = Deadline(self._timeout)
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
        deadline = Deadline(self._timeout)
        for attempt in range(1, attempts + 1):
            try:
                return self._exchange(calls, batch, deadline)
            except _Retryable as failure:
                delay = BACKOFF_S * 2 ** (attempt - 1)
                if attempt == attempts or delay >= deadline.left():
                    raise failure.final from None
                log.debug(
                    "%s (attempt %d of %d, retrying in %.1f s)",
                    failure.final, attempt, attempts, delay,
                )  # fmt: skip
                time.sleep(delay)
        raise AssertionError("unreachable code")  # pragma: no cover

    def _exchange(self, calls: list[Call], batch: bool, deadline: Deadline) -> list[Any]:
        """One POST: the outcome (result or `ProtocolError`) of each call, in order."""
        ids = [next(self._ids) for _ in calls]
        bodies: list[dict[str, Any]] = []
        for request_id, (method, params) in zip(ids, calls, strict=True):
            body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
            if method == "tools/call" and params is not None:
                params = with_progress_token(params, request_id)
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
    def _post(self, payload: Any, deadline: Deadline) -> Iterator[httpx.Response]:
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

    def _check_status(self, response: httpx.Response, method: str, deadline: Deadline) -> None:
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

    def _error_detail(self, response: httpx.Response, deadline: Deadline) -> str:
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
        self, response: httpx.Response, ids: list[int], deadline: Deadline
    ) -> dict[int, dict[str, Any]]:
        """Our replies by id; stops reading as soon as all have arrived. A progress
        notification for one of them gives the request more time (`Deadline.progressed`)."""
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
            elif is_progress(message, wanted):
                deadline.progressed()
            elif is_refusal(message):
                raise ProtocolError(
                    f"{self.label} refused the request: {self.scrub(refusal_text(message))}"
                )
        raise _Retryable(ProtocolError(f"{self.label} reply was cut off before the answer arrived"))

    def _body(self, response: httpx.Response, deadline: Deadline) -> Iterator[bytes]:
        return capped_chunks(
            response, deadline=deadline, timed_out=self._timed_out, label=self.label
        )

    def _json_messages(self, response: httpx.Response, deadline: Deadline) -> list[Any]:
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

    # -- errors (`timed_out_error`, ...) ----------------------------------------------------------

    def scrub(self, text: str) -> str:
        """`text` with any secret replaced by `***`, cut to one short line."""
        return scrub_secrets(text, self._secrets)

    def _timed_out(self) -> SourceUnavailable:
        return timed_out_error(self.label, self._timeout)

    def _unreachable(self, error: Exception, dropped: bool = False) -> SourceUnavailable:
        return unreachable_error(self.label, error, self._secrets, dropped)


def is_reply(message: Any, ids: Collection[int]) -> bool:
    """True for a JSON-RPC response to one of our requests (not a notification, not
    another id)."""
    return (
        isinstance(message, dict)
        and message.get("id") in ids
        and ("result" in message or "error" in message)
    )


def with_progress_token(params: dict[str, Any], token: int) -> dict[str, Any]:
    """`params` asking for progress notifications, keyed by `token` (MCP `_meta`)."""
    meta = params.get("_meta")
    return {**params, "_meta": {**(meta if isinstance(meta, dict) else {}), "progressToken": token}}


def is_progress(message: Any, tokens: Collection[int]) -> bool:
    """True for a `notifications/progress` about one of our requests (its token)."""
    if not isinstance(message, dict) or message.get("method") != "notifications/progress":
        return False
    params = message.get("params")
    return isinstance(params, dict) and params.get("progressToken") in tokens


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
    lines: Iterator[str], deadline: Deadline, timed_out: Callable[[], OkfError], label: str
) -> Iterator[Any]:
    """JSON-RPC messages from an SSE stream, one per event (`data:` lines joined).

    Stops at the request's `deadline` (raising `timed_out()`), so a server that
    trickles keep-alive comments forever cannot hang us. A final event without its
    blank line is still tried (a complete message is accepted; a cut one is not).
    An event whose data is not JSON, or nests too deep (`bounded_json`), is a protocol
    error.
    """
    data: list[str] = []
    for line in lines:
        if deadline.passed():
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


class ServerFailed(SourceUnavailable):
    """The server answered with HTTP 5xx: it is there, but failed this request (transient)."""


# -- credentials off the screen --------------------------------------------------

_SECRET_PARAM = re.compile(r"token|key|secret|pass|auth|sig|credential", re.IGNORECASE)


def redact_url(url: str) -> str:
    """`url` with user-info replaced by `***` and secret query values masked."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "<invalid URL>"
    netloc = parts.netloc
    if "@" in netloc:
        shown_host = f"[{host}]" if ":" in host else host
        netloc = "***@" + shown_host + (f":{port}" if port is not None else "")
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode(
            [(k, "***" if _SECRET_PARAM.search(k) else v) for k, v in pairs], safe="*"
        )
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def url_secrets(url: str) -> list[str]:
    """The secret parts of a URL (password, secret query values), to scrub from messages."""
    try:
        parts = urlsplit(url)
        found = [parts.password or "", parts.username or ""] if "@" in parts.netloc else []
        found += [v for k, v in parse_qsl(parts.query) if _SECRET_PARAM.search(k)]
    except ValueError:
        return []
    return [secret for secret in found if secret]


def scrub_secrets(text: str, secrets: Iterable[str]) -> str:
    """`text` with any secret replaced by `***`, cut to one short line."""
    for secret in secrets:
        text = _scrub_secret(text, secret)
    line = " ".join(text.split())
    return line if len(line) <= 200 else line[:197] + "..."


# -- failures, one line each -----------------------------------------------------


def timed_out_error(label: str, timeout: float) -> SourceUnavailable:
    """A request that got no full answer within `timeout` seconds."""
    return SourceUnavailable(f"{label} unreachable (timed out after {timeout:g} s)")


def unreachable_error(
    label: str, error: Exception, secrets: Iterable[str], dropped: bool = False
) -> SourceUnavailable:
    """A connection failure (refused, unknown host, dropped) as one scrubbed line."""
    if dropped:
        reason = "the connection was dropped"
    elif isinstance(error, httpx.ConnectError):
        reason = _connect_reason(str(error))
    else:
        reason = type(error).__name__
    return SourceUnavailable(f"{label} unreachable ({scrub_secrets(reason, secrets)})")


def auth_error(label: str, status: int, has_token: bool, token_source: str) -> AuthError:
    """HTTP 401 / 403: the token was rejected or is missing (says where it came from)."""
    word = "rejected" if status == 401 else "is not allowed to read with"
    if has_token:
        message = f"{label} {word} the token from {token_source} (HTTP {status})"
    else:
        message = (
            f"{label} requires a token (HTTP {status}); pass --token-file or set $GBRAIN_TOKEN"
        )
    return AuthError(message)


def _scrub_secret(text: str, secret: str) -> str:
    """Mask `secret` in `text`. A short secret (a URL user name like `u`) is masked
    only where it stands as a whole word, so it cannot mangle ordinary words."""
    if len(secret) >= 8:
        return text.replace(secret, "***")
    return re.sub(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])", "***", text)


def _connect_reason(text: str) -> str:
    lowered = text.lower()
    if "refused" in lowered:
        return "connection refused"
    if "name or service" in lowered or "nodename" in lowered or "getaddrinfo" in lowered:
        return "unknown host"
    return text or "cannot connect"
