"""A loopback stand-in for a gbrain v0.51+ server's page writes (issue 22 §2).

The pinned gbrain (0.46.28) predates revisions and write receipts, so the writer's
revisioned path is tested against this small, real MCP server over HTTP. It keeps
gbrain's documented rules (`okf_explorer/sources/gbrain/contract.py` cites them) and
nothing more:

- `get_page` answers the stored form (frontmatter without type/title/tags, the body
  as `compiled_truth`) with the page's `revision`, a UUID that changes on every write;
- `put_page {slug, content, expected_revision?, force?, request_id?}`: without
  `expected_revision` a write is create-only (`revision_required` if the page
  exists), a stale one is `revision_conflict`; `request_id` replays: the same id with
  the same arguments returns the request's receipt and never writes twice, with
  other arguments it is `idempotency_conflict` (a write without one gets an id of
  the server's own, as gbrain gives it);
- a write stays pending for `pending_polls` polls (`get_write_request`, or a replay of
  the same `put_page`) before it commits: `put_page` then answers `write_pending`
  with the receipt (`retry_after_ms`, and `diagnostic` when set: v0.57), as gbrain
  does after its own wait;
- `get_write_request {request_id}` (listed unless `receipts=False`) answers the
  receipt, `not_found` for an id never accepted.

Hooks for tests: `before_commit(slug)` runs right before a write's precondition is
checked (another writer acting between our read and our write); `fault(tool, args)`
may return `("status", 503)` to answer that HTTP status after the call acted (a lost
reply), `("drop", 502)` to answer it without acting, or `("stall", seconds)` to hold
the reply. Every `tools/call` is recorded in
`calls` as `(tool, arguments)`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import yaml

PENDING = "queued"


@dataclass
class WriteRequest:
    """One accepted write: what it asked (`intent`), where it is (`state`)."""

    request_id: str
    intent: dict[str, Any]
    state: str = PENDING
    polls_left: int = 0
    revision: str | None = None
    error: str | None = None


@dataclass
class GbrainStandIn:
    """The server's state and its hooks; `url` once started (see `standin()`)."""

    receipts: bool = True
    pending_polls: int = 0
    retry_after_ms: int = 20
    diagnostic: dict[str, Any] | None = None
    pages: dict[str, dict[str, Any]] = field(default_factory=dict)
    versions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    requests: dict[str, WriteRequest] = field(default_factory=dict)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    tool_lists: int = 0
    before_commit: Callable[[str], None] | None = None
    fault: Callable[[str, dict[str, Any]], tuple[str, float] | None] | None = None
    url: str = ""
    lock: threading.RLock = field(default_factory=threading.RLock)

    # -- what tests use ----------------------------------------------------------------

    def tools(self) -> list[str]:
        with self.lock:
            return [tool for tool, _ in self.calls]

    def arguments(self, tool: str) -> list[dict[str, Any]]:
        with self.lock:
            return [args for name, args in self.calls if name == tool]

    def store(self, slug: str, content: str) -> str:
        """Another writer's committed write (no precondition): the new revision."""
        with self.lock:
            return self._store(slug, content)

    def settle_all(self) -> None:
        """Every pending write commits now (its owner caught up)."""
        with self.lock:
            for request in self.requests.values():
                if request.state == PENDING:
                    self._commit(request)

    # -- the tools -----------------------------------------------------------------------

    def tool_list(self) -> list[dict[str, Any]]:
        def tool(name: str, properties: dict[str, Any]) -> dict[str, Any]:
            schema = {"type": "object", "properties": properties}
            return {"name": name, "description": name, "inputSchema": schema}

        text, flag = {"type": "string"}, {"type": "boolean"}
        listed = [
            tool("get_page", {"slug": text, "include_content": flag}),
            tool(
                "put_page",
                {
                    "slug": text,
                    "content": text,
                    "allow_empty": flag,
                    "expected_revision": text,
                    "force": flag,
                    "request_id": text,
                    "wait_ms": {"type": "number"},
                },
            ),
        ]
        if self.receipts:
            listed.append(tool("get_write_request", {"request_id": text}))
        return listed

    def call(self, tool: str, args: dict[str, Any]) -> tuple[Any, bool]:
        """(payload, is_error) of one tool call."""
        with self.lock:
            self.calls.append((tool, dict(args)))
        if tool == "get_page":
            with self.lock:
                page = self.pages.get(str(args.get("slug")))
                if page is None:
                    return _error("page_not_found", f"Page not found: {args.get('slug')}"), True
                return dict(page), False
        if tool == "put_page":
            return self._put(args)
        if tool == "get_write_request" and self.receipts:
            with self.lock:
                request = self.requests.get(str(args.get("request_id")))
                if request is None:
                    return _error("not_found", "No accessible write request has that id."), True
                self._polled(request)
                return {**self._receipt(request), "operation": "put_page"}, False
        return _error("unknown_operation", f"Unknown: {tool}"), True

    def _put(self, args: dict[str, Any]) -> tuple[Any, bool]:
        rid = args.get("request_id", str(uuid.uuid4()))  # gbrain makes one up when none is sent
        if not _is_uuid(rid):
            return _error("invalid_params", "request_id must be a UUID"), True
        if "expected_revision" in args and args.get("force") is True:
            return _error("invalid_params", "expected_revision and force are exclusive"), True
        intent = {k: v for k, v in args.items() if k not in ("request_id", "wait_ms")}
        with self.lock:
            request = self.requests.get(rid)
            if request is not None:
                if request.intent != intent:
                    return _error("idempotency_conflict", "request_id reused"), True
                self._polled(request)  # a replay asks how the request is doing
            else:
                request = WriteRequest(rid, intent, polls_left=self.pending_polls)
                self.requests[rid] = request
                if not request.polls_left:
                    self._commit(request)
            return self._answer(request)

    def _polled(self, request: WriteRequest) -> None:
        if request.state == PENDING:
            request.polls_left -= 1
            if request.polls_left <= 0:
                self._commit(request)

    def _commit(self, request: WriteRequest) -> None:
        slug = request.intent["slug"]
        if self.before_commit is not None:
            self.before_commit(slug)
        page = self.pages.get(slug)
        expected = request.intent.get("expected_revision")
        if request.intent.get("force") is not True:
            if expected is None and page is not None:
                request.state, request.error = "conflict", "revision_required"
                return
            if expected is not None and (page is None or page["revision"] != expected):
                request.state, request.error = "conflict", "revision_conflict"
                return
        request.revision = self._store(slug, request.intent["content"])
        request.state = "committed"

    def _answer(self, request: WriteRequest) -> tuple[Any, bool]:
        receipt = self._receipt(request)
        if request.state == "committed":
            return {**receipt, "write_request": receipt}, False
        if request.state == PENDING:
            pending = "The write is accepted and is still pending."
            return _error("write_pending", pending, receipt), True
        return _error(request.error or "storage_error", "The write did not commit.", receipt), True

    def _receipt(self, request: WriteRequest) -> dict[str, Any]:
        receipt: dict[str, Any] = {
            "request_id": request.request_id,
            "state": request.state,
            "retry_after_ms": self.retry_after_ms if request.state == PENDING else None,
        }
        if request.state == PENDING and self.diagnostic is not None:
            receipt["diagnostic"] = dict(self.diagnostic)
        if request.revision:
            receipt["revision"] = request.revision
        if request.error:
            receipt["write_error"] = request.error
        return receipt

    def _store(self, slug: str, content: str) -> str:
        old = self.pages.get(slug)
        if old is not None:
            self.versions.setdefault(slug, []).append(old)
        revision = str(uuid.uuid4())
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        self.pages[slug] = {
            **stored_form(content),
            "slug": slug,
            "revision": revision,
            "content_hash": hashlib.sha256(content.encode()).hexdigest(),
            "created_at": old["created_at"] if old else now,
            "updated_at": now,
            "source_id": "default",
        }
        return revision


def stored_form(content: str) -> dict[str, Any]:
    """What gbrain keeps of a page: frontmatter read as YAML, type/title/tags lifted out."""
    frontmatter: dict[str, Any] = {}
    body = content
    if content.startswith("---\n"):
        end = content.index("\n---\n", 3)
        frontmatter = yaml.safe_load(content[4:end]) or {}
        body = content[end + 5 :]
    lifted = {key: frontmatter.pop(key, None) for key in ("type", "title", "tags", "slug")}
    tags = lifted["tags"] or []
    return {
        "type": lifted["type"] or "note",
        "title": lifted["title"] or "",
        "tags": sorted({str(tag) for tag in tags}),
        "frontmatter": json.loads(json.dumps(frontmatter, default=str)),
        "compiled_truth": body.strip(),
        "timeline": "",
    }


def _error(code: str, message: str, receipt: dict[str, Any] | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"error": code, "code": code, "message": message}
    if receipt is not None:
        error["write_request"] = receipt
    return error


def _is_uuid(value: Any) -> bool:
    try:
        return isinstance(value, str) and str(uuid.UUID(value)) == value.lower()
    except ValueError:
        return False


def _handler(standin: GbrainStandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
            method, rid = request.get("method"), request.get("id")
            if rid is None:  # a notification
                self._send(202, b"", None)
                return
            if method == "initialize":
                result: Any = {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "gbrain-standin", "version": "0.57.0.1"},
                }
            elif method == "tools/list":
                with standin.lock:
                    standin.tool_lists += 1
                result = {"tools": standin.tool_list()}
            elif method == "tools/call":
                params = request.get("params") or {}
                tool, args = params.get("name"), params.get("arguments") or {}
                fault = standin.fault(tool, args) if standin.fault else None
                if fault is not None and fault[0] == "drop":  # answered before acting
                    with standin.lock:
                        standin.calls.append((tool, dict(args)))
                    self._send(int(fault[1]), b'{"error": "busy"}', "application/json")
                    return
                payload, is_error = standin.call(tool, args)
                result = {"content": [{"type": "text", "text": json.dumps(payload, indent=2)}]}
                if is_error:
                    result["isError"] = True
                if fault is not None and fault[0] == "status":
                    self._send(int(fault[1]), b'{"error": "lost"}', "application/json")
                    return
                if fault is not None and fault[0] == "stall":
                    time.sleep(fault[1])
            else:
                error = {"code": -32601, "message": "Method not found"}
                self._sse({"jsonrpc": "2.0", "id": rid, "error": error})
                return
            self._sse({"result": result, "jsonrpc": "2.0", "id": rid})

        def _sse(self, message: dict[str, Any]) -> None:
            body = f"event: message\ndata: {json.dumps(message)}\n\n".encode()
            self._send(200, body, "text/event-stream")

        def _send(self, status: int, body: bytes, content_type: str | None) -> None:
            with contextlib.suppress(OSError):  # the client may have given up
                self.send_response(status)
                if content_type:
                    self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

    return Handler


@contextlib.contextmanager
def standin(**options: Any) -> Iterator[GbrainStandIn]:
    """A running stand-in on a free loopback port for the `with` block."""
    state = GbrainStandIn(**options)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}/mcp"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
