"""A counting proxy on loopback: every MCP POST a client sends, recorded, then passed on.

    def test_x(counting_proxy, gbrain_peer):
        proxy = counting_proxy(upstream_url)       # a new proxy on a free port
        writer = GbrainWriter.connect(proxy.url, token=...)
        ...
        assert proxy.count("put_page") == 1        # tools/call of put_page
        assert proxy.requests == []                # nothing reached the server at all

`proxy.calls` holds one `ProxiedCall` per JSON-RPC message (a batch counts each call);
`proxy.requests` one entry per HTTP request (even one whose body is not JSON).
Faults and side effects, for tests that need a server to misbehave on cue:

- `proxy.reply = fn(call) -> (status, body) | None`: answer the call without
  forwarding it (an HTTP 503, a stall: `fn` may sleep), or None to forward;
- `proxy.after = fn(call)`: run once the upstream answered and before that answer
  goes back (write in between, or sleep to make the client time out after the
  server has acted).

With no upstream (`counting_proxy(None)`) every request is answered 502, so a test
can count what a client would have sent to a server that must not be touched.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import pytest

FORWARDED_HEADERS = ("authorization", "content-type", "accept", "mcp-protocol-version")
UPSTREAM_TIMEOUT = 60.0


@dataclass(frozen=True)
class ProxiedCall:
    """One JSON-RPC message: its method, and for `tools/call` the tool and arguments."""

    method: str
    tool: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    id: Any = None


class CountingProxy:
    """A loopback HTTP server that records MCP POSTs and forwards them to `upstream`."""

    def __init__(self, upstream: str | None) -> None:
        self.upstream = urlsplit(upstream) if upstream else None
        self.calls: list[ProxiedCall] = []
        self.requests: list[bytes] = []
        self.reply: Callable[[ProxiedCall], tuple[int, bytes] | None] | None = None
        self.after: Callable[[ProxiedCall], None] | None = None
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        path = self.upstream.path if self.upstream else "/mcp"
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}{path or '/'}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def count(self, tool: str | None = None, *, method: str | None = None) -> int:
        """How many calls of `tool` (or of JSON-RPC `method`; or all) were sent."""
        with self._lock:
            return sum(
                1
                for call in self.calls
                if (tool is None or call.tool == tool) and (method is None or call.method == method)
            )

    def tools(self) -> list[str]:
        """The tools called, in order."""
        with self._lock:
            return [call.tool for call in self.calls if call.tool]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _record(self, body: bytes) -> list[ProxiedCall]:
        try:
            data = json.loads(body)
        except ValueError:
            data = []
        found = []
        for message in data if isinstance(data, list) else [data]:
            if not isinstance(message, dict):
                continue
            params = message.get("params") if isinstance(message.get("params"), dict) else {}
            tool = params.get("name") if message.get("method") == "tools/call" else None
            arguments = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
            call = ProxiedCall(str(message.get("method")), tool, dict(arguments), message.get("id"))
            found.append(call)
        with self._lock:
            self.requests.append(body)
            self.calls.extend(found)
        return found

    def _forward(self, method: str, path: str, body: bytes, headers: dict[str, str]):
        if self.upstream is None:
            return 502, {"content-type": "text/plain"}, b"no upstream"
        connection = http.client.HTTPConnection(
            self.upstream.hostname, self.upstream.port, timeout=UPSTREAM_TIMEOUT
        )
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            payload = response.read()
            kept = {k.lower(): v for k, v in response.getheaders()}
            return response.status, kept, payload
        finally:
            connection.close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                calls = proxy._record(body)
                for call in calls:
                    canned = proxy.reply(call) if proxy.reply else None
                    if canned is not None:
                        self._send(canned[0], {"content-type": "application/json"}, canned[1])
                        return
                headers = {
                    name: value
                    for name, value in self.headers.items()
                    if name.lower() in FORWARDED_HEADERS
                }
                path = proxy.upstream.path if proxy.upstream else "/"
                status, kept, payload = proxy._forward("POST", path or "/", body, headers)
                for call in calls:
                    if proxy.after:
                        proxy.after(call)
                self._send(status, kept, payload)

            def _send(self, status: int, headers: dict[str, str], payload: bytes) -> None:
                with contextlib.suppress(OSError):  # the client may have given up
                    self.send_response(status)
                    for name in ("content-type", "mcp-session-id"):
                        if name in headers:
                            self.send_header(name, headers[name])
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


def tool_reply(call: ProxiedCall, payload: dict[str, Any], *, is_error: bool = True) -> bytes:
    """A JSON `tools/call` reply to `call` whose text is `payload` (for `proxy.reply`)."""
    result: dict[str, Any] = {"content": [{"type": "text", "text": json.dumps(payload)}]}
    if is_error:
        result["isError"] = True
    return json.dumps({"jsonrpc": "2.0", "id": call.id, "result": result}).encode()


@pytest.fixture
def counting_proxy() -> Iterator[Callable[[str | None], CountingProxy]]:
    """`counting_proxy(upstream_url_or_None) -> CountingProxy`, all closed after the test."""
    proxies: list[CountingProxy] = []

    def start(upstream: str | None) -> CountingProxy:
        proxy = CountingProxy(upstream)
        proxies.append(proxy)
        return proxy

    yield start
    for proxy in proxies:
        proxy.close()
