"""The HTTP face of `serve`: `/mcp` (streamable HTTP, stateless) and `/health`.

A front door checks what gbrain checks, with gbrain's status codes and bodies
(GBRAIN_PROTOCOL §1, §5): bearer token (401), method (405), `Accept` (406),
`Content-Type` (415), `MCP-Protocol-Version` (400), JSON (400). Then each
JSON-RPC request goes to the SDK's stateless transport, whose SSE reply is
captured and re-framed as gbrain frames it: `event: message` plus one `data:`
line, `\\n` line ends, a `Content-Length`, key order `result`/`error`,
`jsonrpc`, `id`. Batches get one block per reply; notifications get 202.

Without a token (which implies a loopback bind) the `Host` and `Origin`
headers must name a loopback host, any port: a web page that rebinds its DNS
name to 127.0.0.1 cannot read the brain. With a token no browser can forge
the header, so any host is fine.

Plain `tools/call` requests (nothing but `name` and `arguments`) take the fast
path in `fast_calls` (off under `OKF_EXPLORER_PLAIN=1`); everything else
(`initialize`, `tools/list`, `ping`, calls with `_meta` or odd ids) goes through
the SDK (mcp 2.x, stateless streamable HTTP), one request at a time.

Every request is bounded (`limits`): the body's size and time, the batch's length,
the bytes of the replies. A request refused for any of these, or malformed
JSON-RPC, gets a JSON-RPC error and one line in the log, never a traceback.

Slow clients (slowloris): uvicorn closes a keep-alive connection that stays silent
after a reply, but any byte cancels that timer, and a fresh connection has none: a
client sending a header line now and then, or nothing at all, kept a connection
forever. `HeadDeadlineProtocol`, the HTTP/1.1 protocol `serve` runs, makes every
connection deliver a complete request head within `HEADER_TIMEOUT` seconds of
connecting or of its previous reply; the body has its own deadline
(`exchange.read_body`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import anyio
import mcp.types as types
import pydantic
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from okf_explorer import __version__
from okf_explorer.server.exchange import (
    Refused,
    ReplyBudget,
    error_block,
    parse_messages,
    progress_block,
    read_body,
    sse_block,
)
from okf_explorer.server.fast_calls import Call, answer_calls, plain_tool_call
from okf_explorer.server.limits import HEADER_TIMEOUT, INDEX_WAIT, MAX_REPLY_BYTES
from okf_explorer.server.mcp_app import FreshBrain, ServerStopping, build_mcp_server
from okf_explorer.server.warmup import PROGRESS_EVERY, await_index

log = logging.getLogger(__name__)


SERVED_METHODS = frozenset({"initialize", "ping", "tools/list", "tools/call"})
"""The requests the SDK answers for us. Any other method gets gbrain's bare -32601
here (mcp 2.x would add `data` naming the method, and knows 2026-era methods)."""
SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07")
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def rpc_error(
    status: int, code: int, message: str, headers: dict[str, str] | None = None
) -> Response:
    """A transport-level error: plain JSON (not SSE), `id` null, as gbrain sends it."""
    body = {"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": None}
    return JSONResponse(body, status_code=status, headers=headers)


def unauthorized(description: str) -> Response:
    challenge = f'Bearer error="invalid_token", error_description="{description}"'
    return JSONResponse(
        {"error": "invalid_token", "error_description": description},
        status_code=401,
        headers={"WWW-Authenticate": challenge},
    )


def check_token(request: Request, token: str) -> Response | None:
    header = request.headers.get("authorization")
    if not header:
        return unauthorized("Missing Authorization header")
    scheme, _, given = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        given.strip().encode("utf-8"), token.encode("utf-8")
    ):
        return unauthorized("Invalid token")
    return None


def _hostname(value: str) -> str:
    return (urlsplit(f"//{value}").hostname or "").lower()


def check_local_origin(request: Request) -> Response | None:
    """DNS-rebinding guard for a token-less server: loopback `Host` and `Origin` only."""
    if _hostname(request.headers.get("host", "")) not in LOOPBACK_NAMES:
        return rpc_error(421, -32000, "Misdirected Request: Host must be a loopback name")
    origin = request.headers.get("origin")
    if origin and origin != "null" and (urlsplit(origin).hostname or "") not in LOOPBACK_NAMES:
        return rpc_error(403, -32000, "Forbidden: Origin must be a loopback address")
    return None


def check_headers(request: Request) -> Response | None:
    """gbrain's header checks, in gbrain's order (after auth)."""
    if request.method != "POST":
        return rpc_error(405, -32000, "Method not allowed", {"Allow": "POST"})
    accept = [
        part.split(";")[0].strip().lower() for part in request.headers.get("accept", "").split(",")
    ]
    if "application/json" not in accept or "text/event-stream" not in accept:
        return rpc_error(
            406,
            -32000,
            "Not Acceptable: Client must accept both application/json and text/event-stream",
        )
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        return rpc_error(
            415, -32000, "Unsupported Media Type: Content-Type must be application/json"
        )
    version = request.headers.get("mcp-protocol-version")
    if version is not None and version not in SUPPORTED_VERSIONS:
        return rpc_error(
            400,
            -32000,
            f"Bad Request: Unsupported protocol version: {version} "
            f"(supported versions: {', '.join(SUPPORTED_VERSIONS)})",
        )
    return None


def sse_messages(body: bytes) -> list[dict[str, Any]]:
    """The JSON-RPC messages in the SDK's SSE body (`\\r\\n` line ends)."""
    messages = []
    for line in body.decode("utf-8").splitlines():
        if line.startswith("data:"):
            data = line[5:].strip()
            if data:
                messages.append(json.loads(data))
    return messages


def sdk_can_parse(item: dict[str, Any]) -> bool:
    """True when the SDK can validate this request: it answers one it cannot with
    -32602, but also logs a many-line warning we do not want (checked as it checks)."""
    try:
        request = types.JSONRPCRequest.model_validate(item)
        dumped = request.model_dump(by_alias=True, mode="json", exclude_none=True)
        types.client_request_adapter.validate_python(dumped)
    except pydantic.ValidationError:
        return False
    return True


class McpEndpoint:
    """The `/mcp` route: front-door checks, then the tools (plain calls) or the SDK."""

    def __init__(
        self, manager: StreamableHTTPSessionManager, token: str | None, fresh: FreshBrain
    ) -> None:
        self._manager = manager
        self._token = token
        self._fresh = fresh

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        try:
            response = await self._fresh.shutdown.unless_stopping(
                lambda: self._respond(request, scope)
            )
        except ServerStopping:
            headers = {"Connection": "close"}
            message = "Service Unavailable: the server is shutting down"
            response = rpc_error(503, -32000, message, headers)
        except Refused as refused:
            _log_refusal(scope, refused.status, refused.message)
            headers = {"Connection": "close"} if refused.close else None
            response = rpc_error(refused.status, refused.code, refused.message, headers)
        except Exception as error:  # a bug must not print a traceback per request
            _log_refusal(scope, 500, f"internal error ({type(error).__name__})")
            response = rpc_error(500, -32603, "Internal error")
        await response(scope, receive, send)

    async def _respond(self, request: Request, scope: Scope) -> Response:
        guard = check_token(request, self._token) if self._token else check_local_origin(request)
        refusal = guard or check_headers(request)
        if refusal is not None:
            return refusal
        batch = parse_messages(await read_body(request))
        requests = [item for item in batch if "method" in item and "id" in item]
        if not requests:
            return Response(status_code=202)  # notifications and responses: nothing to say
        waiting = self._waiting_with_progress(requests)
        if waiting is not None:
            return StreamingResponse(
                self._progress_then_answer(*waiting),
                media_type="text/event-stream",
                headers={"Cache-Control": "no-cache"},
            )
        budget = ReplyBudget()
        plain = [plain_tool_call(item) for item in requests]
        calls = [
            (item["id"], call)
            for item, call in zip(requests, plain, strict=True)
            if call is not None
        ]
        warmer = self._fresh.warmer
        if any(warmer.refusal(*call) for _, call in calls):
            stop = self._fresh.shutdown.requested
            await await_index(warmer, INDEX_WAIT, None, stop, calls=[call for _, call in calls])
        answered = iter(await self._answer(calls, budget) if calls else [])
        blocks: list[bytes] = []
        for item, call in zip(requests, plain, strict=True):
            if call is not None:
                blocks.append(next(answered))
            elif item["method"] not in SERVED_METHODS:
                blocks.append(error_block(item["id"], -32601, "Method not found"))
            elif budget.spent:
                blocks.append(budget.refuse(item["id"]))
            elif not sdk_can_parse(item):
                _log_refusal(scope, 200, f"invalid parameters for {item['method']}")
                blocks.append(error_block(item["id"], -32602, "Invalid request parameters"))
            else:
                status, body = await self._call_sdk(scope, item)
                if status != 200:
                    return _passthrough(status, body)
                for message in sse_messages(body):
                    blocks.append(budget.take(sse_block(message), message.get("id")))
        if budget.refused:
            too_large = f"{budget.refused} replies too large (over {MAX_REPLY_BYTES} bytes)"
            _log_refusal(scope, 200, too_large)
        return Response(
            b"".join(blocks),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache"},
        )

    def _waiting_with_progress(
        self, requests: list[dict[str, Any]]
    ) -> tuple[Any, str | int, Call] | None:
        """`(id, progress token, call)` of a POST that is one `tools/call` asking for
        progress, while the index it needs is being built; else None."""
        if len(requests) != 1 or requests[0]["method"] != "tools/call":
            return None
        params = requests[0].get("params") or {}
        meta, name, arguments = params.get("_meta"), params.get("name"), params.get("arguments")
        token = meta.get("progressToken") if isinstance(meta, dict) else None
        if isinstance(token, bool) or not isinstance(token, str | int) or not isinstance(name, str):
            return None
        call = (name, arguments if isinstance(arguments, dict) else {})
        if self._fresh.warmer.refusal(*call) is None:
            return None
        return requests[0]["id"], token, call

    async def _progress_then_answer(
        self, request_id: Any, token: str | int, call: Call
    ) -> AsyncIterator[bytes]:
        """The SSE stream of a call waiting for the index (or, for `search`, the text
        index): a progress notification at once and every `PROGRESS_EVERY` seconds until
        it is ready (or the call's deadline, or a stop), then the call's reply, as the
        SDK would write it (the SDK's own progress could only be sent with the reply:
        this front door frames whole SDK answers)."""
        warmer, shutdown = self._fresh.warmer, self._fresh.shutdown
        end = time.monotonic() + INDEX_WAIT
        while warmer.waiting(call) and time.monotonic() < end and not shutdown.requested():
            done, total = warmer.progress()
            yield progress_block(token, done, total, warmer.message())
            await await_index(warmer, min(PROGRESS_EVERY, end - time.monotonic()), calls=[call])
        budget = ReplyBudget()

        def work() -> list[bytes]:
            return shutdown.running(lambda: answer_calls(self._fresh, [(request_id, call)], budget))

        (block,) = await anyio.to_thread.run_sync(
            work, limiter=self._fresh.limiter(), abandon_on_cancel=True
        )
        yield block

    async def _answer(self, calls: list[tuple[Any, Call]], budget: ReplyBudget) -> list[bytes]:
        """Plain tool calls in one worker thread (`TOOL_THREADS` requests at once at most).

        Only a stop cancels this wait (nothing else cancels a request): the POST is
        answered 503 at once, and the thread, left behind, stops at its next check."""
        shutdown = self._fresh.shutdown

        def work() -> list[bytes]:
            return shutdown.running(lambda: answer_calls(self._fresh, calls, budget), len(calls))

        return await anyio.to_thread.run_sync(
            work, limiter=self._fresh.limiter(), abandon_on_cancel=True
        )

    async def _call_sdk(self, scope: Scope, message: dict[str, Any]) -> tuple[int, bytes]:
        """Run one JSON-RPC request through the SDK transport; capture status and body."""
        body = json.dumps(message).encode("utf-8")
        done = anyio.Event()
        sent_body = False
        status = 500
        chunks: list[bytes] = []

        async def receive() -> Message:
            nonlocal sent_body
            if not sent_body:
                sent_body = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()  # the SSE response watches for a disconnect: not before it ends
            return {"type": "http.disconnect"}

        async def send(event: Message) -> None:
            nonlocal status
            if event["type"] == "http.response.start":
                status = int(event["status"])
            elif event["type"] == "http.response.body":
                chunks.append(event.get("body", b""))
                if not event.get("more_body", False):
                    done.set()

        headers = [
            (b"content-type", b"application/json"),
            (b"accept", b"application/json, text/event-stream"),
            (b"content-length", str(len(body)).encode()),
        ]
        inner = {**scope, "headers": headers, "method": "POST"}
        try:
            await self._manager.handle_request(inner, receive, send)
        finally:
            done.set()
        return status, b"".join(chunks)


def _log_refusal(scope: Scope, status: int, reason: str) -> None:
    """One log line for a refused or failed request (no traceback, nothing the client wrote)."""
    client = scope.get("client")
    where = f" from {client[0]}:{client[1]}" if client else ""
    log.warning("okf-explorer serve: request%s answered %d: %s", where, status, reason)


def _passthrough(status: int, body: bytes) -> Response:
    """An SDK transport error as the SDK wrote it (mcp 2.x already sends gbrain's null id)."""
    return Response(body, status_code=status, media_type="application/json")


def health_route(fresh: FreshBrain) -> Callable[[Request], Awaitable[Response]]:
    """`GET /health`: gbrain's `{status, version, engine}`, and how far the index is
    (`index`: `warmup.IndexWarmer.state`)."""

    async def health(_: Request) -> Response:
        body = {"status": "ok", "version": __version__, "engine": "okf-explorer"}
        return JSONResponse({**body, "index": fresh.warmer.state()})

    return health


def build_http_app(fresh: FreshBrain, *, token: str | None = None) -> Starlette:
    """The ASGI app for uvicorn; the SDK's session manager lives for the app's lifespan."""
    manager = StreamableHTTPSessionManager(app=build_mcp_server(fresh), stateless=True)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        fresh.shutdown.bind()
        async with manager.run():
            fresh.start_indexing()
            yield

    endpoint = McpEndpoint(manager, token, fresh)
    routes = [
        Route("/health", health_route(fresh), methods=["GET"]),
        Route("/mcp", endpoint),  # every method reaches the endpoint, which answers 405
    ]
    return Starlette(routes=routes, lifespan=lifespan)


class HeadDeadlineProtocol(H11Protocol):
    """`H11Protocol` that closes a connection with no request in hand at its deadline."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def on_response_complete(self) -> None:
        self._arm()  # before the base class starts any pipelined request
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(HEADER_TIMEOUT, self._head_overdue)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_overdue(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being answered; its body has its own deadline
        log.debug("closed a connection: no complete request head in %g s", HEADER_TIMEOUT)
        self.transport.close()
