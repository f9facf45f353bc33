"""Fault injection for the MCP source: a fake gbrain behind `httpx.MockTransport`, and a
raw loopback socket server for what a mock cannot do (slow and trickling replies)."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import (
    AuthError,
    Cancelled,
    InvalidParams,
    PageNotFound,
    PageUnreadable,
    ProtocolError,
    SourceUnavailable,
)
from okf_explorer.sources.gbrain import transport as mcp_transport
from okf_explorer.sources.gbrain.source import McpSource

pytestmark = pytest.mark.plain

URL = "http://127.0.0.1:9/mcp"
SECRET = "gbrain_" + "5e" * 32

Fault = Callable[[dict[str, Any], "FakeGbrain"], httpx.Response | None]


def sse(*messages: Any, extra: str = "") -> httpx.Response:
    body = extra + "".join(f"event: message\ndata: {json.dumps(m)}\n\n" for m in messages)
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, text=body)


def tool_text(payload: Any, is_error: bool = False) -> dict[str, Any]:
    result: dict[str, Any] = {"content": [{"type": "text", "text": json.dumps(payload)}]}
    if is_error:
        result["isError"] = True
    return result


class FakeGbrain:
    """A gbrain-shaped server in memory: `pages` maps slug → markdown body.

    `fault(body, server)` may return a response to send instead of the normal one;
    `requests` records every JSON-RPC body and its headers.
    """

    def __init__(self, pages: dict[str, str], *, cap: int = 100, plain_json: bool = False):
        self.pages = pages
        self.cap = cap
        self.plain_json = plain_json
        self.fault: Fault | None = None
        self.requests: list[tuple[dict[str, Any], httpx.Headers]] = []
        self.session: str | None = None
        self.batches = True
        self.stamps: dict[str, str] = {}
        self.rpc_errors: set[str] = set()
        self.posts = 0
        self.tags: dict[str, list[str]] = {}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if isinstance(body, list):
            return self.batch(body, request.headers)
        self.requests.append((body, request.headers))
        if self.fault is not None:
            injected = self.fault(body, self)
            if injected is not None:
                return injected
        if "id" not in body:
            return httpx.Response(202)
        reply = self.reply(body)
        if self.plain_json:
            return httpx.Response(200, json=reply)
        return sse(reply)

    def batch(self, bodies: list[dict[str, Any]], headers: httpx.Headers) -> httpx.Response:
        """A JSON-RPC batch: replies in reverse order (ids must be matched, not assumed);
        with `batches` False, refused like a server without batch support."""
        self.posts += 1
        if not self.batches:
            error = {"code": -32600, "message": "Invalid Request: batches are not supported"}
            return httpx.Response(400, json={"jsonrpc": "2.0", "error": error, "id": None})
        replies = []
        for body in bodies:
            self.requests.append((body, headers))
            if self.fault is not None:
                injected = self.fault(body, self)
                if injected is not None:
                    return injected
            replies.append(self.reply(body))
        return sse(*reversed(replies))

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        slug = body.get("params", {}).get("arguments", {}).get("slug")
        if slug in self.rpc_errors:
            error = {"code": -32603, "message": "db is down"}
            return {"jsonrpc": "2.0", "id": body["id"], "error": error}
        result = self.result(body["method"], body.get("params") or {})
        return {"result": result, "jsonrpc": "2.0", "id": body["id"]}

    def calls(self, method: str) -> list[dict[str, Any]]:
        return [body for body, _ in self.requests if body.get("method") == method]

    def result(self, method: str, params: dict[str, Any]) -> Any:
        if method == "initialize":
            return {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}}
        if method == "tools/list":
            names = ["get_page", "list_pages", "get_links", "get_backlinks", "traverse_graph"]
            return {"tools": [{"name": n, "inputSchema": {}} for n in names]}
        args = params["arguments"]
        name = params["name"]
        if name == "list_pages":
            slugs = sorted(self.pages)
            if "tag" in args:
                slugs = [s for s in slugs if args["tag"] in self.tags.get(s, [])]
            start = args.get("offset", 0)
            rows = slugs[start : start + min(args.get("limit", 50), self.cap)]
            stamp = "2026-01-01T00:00:{:02d}Z"
            return tool_text([{"slug": s, "title": s.upper(), "type": "note",
                               "updated_at": self.stamps.get(s, stamp.format(len(s)))}
                              for s in rows])  # fmt: skip
        if name == "get_page":
            slug = args["slug"]
            if slug not in self.pages:
                error = {"error": "page_not_found", "message": f"Page not found: {slug}"}
                return tool_text(error, is_error=True)
            content = f"---\ntitle: {slug.upper()}\n---\n{self.pages[slug]}"
            return tool_text({"slug": slug, "title": slug.upper(), "type": "note",
                              "content": content, "frontmatter": {}, "tags": ["t"],
                              "updated_at": "2026-01-01"})  # fmt: skip
        if name == "get_backlinks":
            rows = [{"from_slug": s, "to_slug": args["slug"]} for s in sorted(self.pages)
                    if f"[[{args['slug']}]]" in self.pages[s]]  # fmt: skip
            return tool_text(rows + rows)
        raise AssertionError(f"unexpected {method} {name}")


@pytest.fixture(autouse=True)
def fast_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mcp_transport, "BACKOFF_S", 0.001)


def source_for(server: Any, **options: Any) -> McpSource:
    options.setdefault("token", SECRET)
    options.setdefault("token_source", "$GBRAIN_TOKEN")
    return McpSource(URL, http_transport=httpx.MockTransport(server), **options)


def three_pages() -> FakeGbrain:
    return FakeGbrain({"a": "see [[b]]", "b": "back to [[a]]", "c": "[[a]] and [[b]]"})


def test_headers_handshake_and_plain_sse() -> None:
    server = three_pages()
    source = source_for(server)
    assert source.get_page("a").content == "see [[b]]"
    methods = [body["method"] for body, _ in server.requests]
    assert methods == ["initialize", "notifications/initialized", "tools/call"]
    for _body, headers in server.requests:
        assert headers["accept"] == "application/json, text/event-stream"
        assert headers["content-type"] == "application/json"
        assert headers["authorization"] == f"Bearer {SECRET}"
    assert "mcp-protocol-version" not in server.requests[0][1]
    assert server.requests[2][1]["mcp-protocol-version"] == "2025-06-18"


def test_plain_json_replies_and_no_token_header() -> None:
    server = three_pages()
    server.plain_json = True
    source = source_for(server, token=None, token_source="no token")
    assert [s.slug for s in source.enumerate()] == ["a", "b", "c"]
    assert all("authorization" not in headers for _, headers in server.requests)


def test_sse_with_notification_and_foreign_id_before_the_reply() -> None:
    server = three_pages()

    def noisy(body: dict[str, Any], fake: FakeGbrain) -> httpx.Response | None:
        if body.get("method") != "tools/call":
            return None
        real = fake.result("tools/call", body["params"])
        note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "hi"}}
        other = {"jsonrpc": "2.0", "id": 999_999, "result": tool_text({"slug": "wrong"})}
        ping = ": keep-alive\n\n"
        return sse(note, other, {"jsonrpc": "2.0", "id": body["id"], "result": real}, extra=ping)

    server.fault = noisy
    page = source_for(server).get_page("b")
    assert (page.slug, page.content) == ("b", "back to [[a]]")


def test_paging_past_100_with_a_short_last_page() -> None:
    pages = {f"p/{i:04d}": "" for i in range(250)}
    server = FakeGbrain(pages)
    stubs = source_for(server).enumerate()
    assert [s.slug for s in stubs] == sorted(pages)
    offsets = [c["params"]["arguments"]["offset"] for c in server.calls("tools/call")]
    assert offsets == [0, 100, 200]
    first = stubs[0]
    assert first.info is not None and first.info.title == "P/0000"
    assert first.fingerprint == first.info.updated_at == "2026-01-01T00:00:06Z"


def test_paging_with_a_server_cap_below_100() -> None:
    pages = {f"p{i:03d}": "" for i in range(80)}
    stubs = source_for(FakeGbrain(pages, cap=30)).enumerate()
    assert [s.slug for s in stubs] == sorted(pages)


def test_tagged_slugs_use_the_server_filter_paged_and_rows_tags_are_unknown() -> None:
    server = FakeGbrain({f"p{i}": "" for i in range(7)}, cap=2)
    server.tags = {"p1": ["x"], "p3": ["x", "y"], "p4": ["y"], "p6": ["x"], "p5": ["x"]}
    source = source_for(server)
    assert source.slugs_with_tag("x") == ["p1", "p3", "p5", "p6"]
    calls = [c["params"]["arguments"] for c in server.calls("tools/call")]
    assert [(c["tag"], c["offset"]) for c in calls] == [("x", 0), ("x", 2), ("x", 4)]
    assert source.slugs_with_tag("nothing") == []
    stubs = source.enumerate()
    assert stubs[0].info is not None and stubs[0].info.tags_known is False


def test_server_ignoring_offset_is_an_error_not_a_loop() -> None:
    server = FakeGbrain({f"p{i:03d}": "" for i in range(150)})

    def ignore_offset(body: dict[str, Any], fake: FakeGbrain) -> httpx.Response | None:
        if body.get("method") == "tools/call":
            body["params"]["arguments"]["offset"] = 0
        return None

    server.fault = ignore_offset
    with pytest.raises(ProtocolError, match="offset"):
        source_for(server).enumerate()


def test_compiled_truth_and_timeline_without_content() -> None:
    def split(body: dict[str, Any], fake: FakeGbrain) -> httpx.Response | None:
        if body.get("method") != "tools/call":
            return None
        payload = {"slug": "a", "title": "A", "type": None, "frontmatter": {"k": 1},
                   "compiled_truth": "# A\nsee [[b]]", "timeline": "## Timeline\n- met [[c]]",
                   "updated_at": "2026-02-02T00:00:00.000Z", "tags": ["x"]}  # fmt: skip
        return sse({"jsonrpc": "2.0", "id": body["id"], "result": tool_text(payload)})

    server = three_pages()
    server.fault = split
    page = source_for(server).get_page("a")
    assert page.content == "# A\nsee [[b]]\n\n## Timeline\n- met [[c]]"
    assert (page.tags, page.frontmatter, page.fingerprint) == (
        ("x",),
        {"k": 1},
        "2026-02-02T00:00:00.000Z",
    )


def test_is_error_page_not_found_and_scan_marks_it_unreadable() -> None:
    server = three_pages()
    source = source_for(server)
    with pytest.raises(PageNotFound, match="no page 'ghost'"):
        source.get_page("ghost")
    stubs = source.enumerate()
    del server.pages["b"]
    scanned = {s.info.slug: s for s in source.scan(stubs)}
    assert scanned["b"].info.readable is False and scanned["b"].links == ()
    assert [link.target for link in scanned["c"].links] == ["a", "b"]


@pytest.mark.parametrize(
    ("payload", "is_error", "expected", "words"),
    [
        ({"error": "ambiguous_slug", "candidates": ["x/a", "y/a"]}, False, PageNotFound, "x/a"),
        ({"error": "invalid_params", "message": "must be a string"}, True, InvalidParams, "must"),
        ({"error": "insufficient_scope", "message": "needs read"}, True, AuthError, "GBRAIN"),
        ({"error": "internal_error", "message": "db down"}, True, ProtocolError, "db down"),
        ({"error": "unknown_operation", "message": "Unknown"}, True, ProtocolError, "no tool"),
    ],
)
def test_tool_errors_are_typed(payload: Any, is_error: bool, expected: type, words: str) -> None:
    server = three_pages()
    server.fault = lambda body, fake: (
        sse({"jsonrpc": "2.0", "id": body["id"], "result": tool_text(payload, is_error)})
        if body.get("method") == "tools/call"
        else None
    )
    with pytest.raises(expected, match=words) as caught:
        source_for(server).get_page("a")
    assert SECRET not in str(caught.value)


REASON = "not valid UTF-8 (byte 0xe9 at offset 3)"
UNREADABLE = f"page 'a' is unreadable: {REASON}"


@pytest.mark.parametrize(
    "payload",
    [
        {"error": "page_unreadable", "message": UNREADABLE, "reason": REASON},
        {"error": "page_unreadable", "message": UNREADABLE},  # a server without `reason`
        {"error": "page_unreadable", "message": REASON},  # or with a bare message
    ],
)
def test_unreadable_page_error_names_the_page_once(payload: dict[str, Any]) -> None:
    server = three_pages()
    server.fault = lambda body, fake: (
        sse({"jsonrpc": "2.0", "id": body["id"], "result": tool_text(payload, True)})
        if body.get("method") == "tools/call"
        else None
    )
    with pytest.raises(PageUnreadable) as caught:
        source_for(server).get_page("a")
    assert str(caught.value) == UNREADABLE
    assert caught.value.reason == REASON


def test_json_rpc_error_is_a_protocol_error() -> None:
    server = three_pages()
    server.fault = lambda body, fake: (
        sse({"jsonrpc": "2.0", "id": body["id"], "error": {"code": -32601, "message": "nope"}})
        if body.get("method") == "tools/call"
        else None
    )
    with pytest.raises(ProtocolError, match="nope"):
        source_for(server).get_page("a")


def test_invalid_json_and_garbage_events() -> None:
    server = three_pages()
    server.fault = lambda body, fake: (
        httpx.Response(200, headers={"content-type": "application/json"}, text="{not json")
        if body.get("method") == "tools/call"
        else None
    )
    with pytest.raises(ProtocolError, match="invalid JSON"):
        source_for(server).get_page("a")
    server.fault = lambda body, fake: (
        httpx.Response(200, headers={"content-type": "text/event-stream"}, text="data: {oops\n\n")
        if body.get("method") == "tools/call"
        else None
    )
    with pytest.raises(ProtocolError, match="not valid JSON"):
        source_for(server).get_page("a")


def test_truncated_sse_is_retried_then_reported() -> None:
    server = three_pages()
    cut = 'event: message\ndata: {"result": {"content": [{"type": "te'
    server.fault = lambda body, fake: (
        httpx.Response(200, headers={"content-type": "text/event-stream"}, text=cut)
        if body.get("method") == "tools/call"
        else None
    )
    with pytest.raises(ProtocolError, match="cut off"):
        source_for(server).get_page("a")
    assert len(server.calls("tools/call")) == mcp_transport.ATTEMPTS


def test_500s_are_retried_then_a_clear_error() -> None:
    server = three_pages()
    failures = {"left": 2}

    def flaky(body: dict[str, Any], fake: FakeGbrain) -> httpx.Response | None:
        if body.get("method") == "tools/call" and failures["left"] > 0:
            failures["left"] -= 1
            return httpx.Response(500, text="boom")
        return None

    server.fault = flaky
    source = source_for(server)
    assert source.get_page("a").content == "see [[b]]"
    server.fault = lambda body, fake: httpx.Response(503, text="busy")
    before = len(server.requests)
    with pytest.raises(SourceUnavailable, match=r"unreachable \(server error HTTP 503"):
        source.get_page("a")
    assert len(server.requests) - before == mcp_transport.ATTEMPTS


def test_4xx_is_not_retried() -> None:
    server = three_pages()
    server.fault = lambda body, fake: httpx.Response(
        406, json={"jsonrpc": "2.0", "error": {"code": -32000, "message": "Not Acceptable"}}
    )
    with pytest.raises(ProtocolError, match="Not Acceptable"):
        source_for(server).get_page("a")
    assert len(server.requests) == 1


def test_401_names_the_token_source_never_the_token(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    server = three_pages()
    server.fault = lambda body, fake: httpx.Response(
        401, json={"error": "invalid_token", "error_description": f"Invalid token {SECRET}"}
    )
    source = source_for(server, token_source="--token-file /tmp/tok")
    with pytest.raises(AuthError, match="--token-file /tmp/tok") as caught:
        source.enumerate()
    assert len(server.requests) == 1
    for text in (str(caught.value), repr(caught.value), repr(source), caplog.text):
        assert SECRET not in text
    with pytest.raises(AuthError, match="requires a token"):
        source_for(server, token=None, token_source="no token").get_page("a")


def test_session_id_is_used_and_a_404_reinitialises_once() -> None:
    server = three_pages()
    sessions = iter(["s1", "s2", "s3"])

    def with_sessions(body: dict[str, Any], fake: FakeGbrain) -> httpx.Response | None:
        if body.get("method") == "initialize":
            fake.session = next(sessions)
            response = sse({"jsonrpc": "2.0", "id": body["id"], "result": fake.result(
                "initialize", {})})  # fmt: skip
            response.headers["mcp-session-id"] = fake.session
            return response
        sent = fake.requests[-1][1].get("mcp-session-id")
        return None if sent == fake.session else httpx.Response(404)

    server.fault = with_sessions
    source = source_for(server)
    assert source.get_page("a").slug == "a"
    server.session = "forgotten"
    assert source.get_page("b").slug == "b"
    assert len(server.calls("initialize")) == 2
    server.fault = lambda body, fake: (
        with_sessions(body, fake) if body.get("method") != "tools/call" else httpx.Response(404)
    )
    with pytest.raises(ProtocolError, match="session"):
        source.get_page("c")
    assert len(server.calls("initialize")) == 3


def test_dropped_connection_mid_scan() -> None:
    server = FakeGbrain({f"p{i:02d}": f"[[p{(i + 1) % 40:02d}]]" for i in range(40)})
    source = source_for(server, concurrency=4)
    stubs = source.enumerate()
    dropped: set[str] = set()

    def drop_some(body: dict[str, Any], fake: FakeGbrain) -> httpx.Response | None:
        slug = body.get("params", {}).get("arguments", {}).get("slug", "")
        if slug.endswith(("3", "7")) and slug not in dropped:
            dropped.add(slug)
            raise httpx.RemoteProtocolError("peer closed connection")
        return None

    server.fault = drop_some
    scanned = list(source.scan(stubs))
    assert sorted(s.info.slug for s in scanned) == [s.slug for s in stubs]
    assert all(s.info.readable for s in scanned) and len(dropped) == 8

    def drop_after_ten(body: dict[str, Any], fake: FakeGbrain) -> httpx.Response | None:
        state["calls"] += 1
        if state["calls"] > 10:
            raise httpx.RemoteProtocolError("peer closed connection")
        return None

    state = {"calls": 0}
    server.fault = drop_after_ten
    with pytest.raises(SourceUnavailable, match="connection was dropped"):
        list(source.scan(stubs))


@pytest.mark.parametrize("batches", [True, False], ids=["batched", "refused"])
def test_scan_batches_get_page_or_falls_back(batches: bool) -> None:
    pages = {f"p{i:02d}": f"[[p{(i + 1) % 50:02d}]] [[p{(i + 2) % 50:02d}]]" for i in range(50)}
    server = FakeGbrain(dict(pages))
    server.batches = batches
    source = source_for(server, concurrency=2)
    stubs = source.enumerate()
    del server.pages["p07"]
    scanned = {s.info.slug: s for s in source.scan(stubs)}
    assert sorted(scanned) == sorted(pages)
    assert scanned["p07"].info.readable is False
    assert [link.target for link in scanned["p48"].links] == ["p49", "p00"]
    assert len(server.calls("tools/call")) == 2 + 50  # two list_pages (the last one empty)
    assert server.posts == (3 if batches else 1)


def test_a_json_rpc_error_inside_a_batch_fails_the_scan() -> None:
    server = FakeGbrain({f"p{i:02d}": "" for i in range(10)})
    source = source_for(server, concurrency=1)
    stubs = source.enumerate()
    server.rpc_errors.add("p04")
    with pytest.raises(ProtocolError, match="db is down"):
        list(source.scan(stubs))
    assert server.posts >= 1


def test_warm_index_cache_refetches_only_pages_whose_updated_at_changed(tmp_path: Path) -> None:
    pages = {f"p{i:02d}": f"[[p{(i + 1) % 12:02d}]]" for i in range(12)}
    server = FakeGbrain(pages)

    def fetched() -> list[str]:
        calls = server.calls("tools/call")
        return sorted(
            c["params"]["arguments"]["slug"] for c in calls if "slug" in c["params"]["arguments"]
        )

    assert Brain(source_for(server), scan=True, cache_dir=tmp_path).backlinks("p03") == ["p02"]
    assert fetched() == sorted(pages)
    server.requests.clear()
    assert Brain(source_for(server), scan=True, cache_dir=tmp_path).backlinks("p03") == ["p02"]
    assert fetched() == []
    server.pages["p05"] = "now [[p03]]"
    server.stamps["p05"] = "2026-03-03T00:00:00Z"
    assert Brain(source_for(server), scan=True, cache_dir=tmp_path).backlinks("p03") == [
        "p02",
        "p05",
    ]
    assert fetched() == ["p05"]


def test_unknown_host_is_unreachable() -> None:
    def no_dns(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno -2] Name or service not known")

    with pytest.raises(SourceUnavailable, match=r"unreachable \(unknown host\)"):
        source_for(no_dns).enumerate()


def test_scan_reports_progress_and_cancels() -> None:
    server = FakeGbrain({f"p{i:02d}": "" for i in range(30)})
    source = source_for(server, concurrency=3)
    stubs = source.enumerate()
    seen: list[tuple[int, int]] = []
    assert len(list(source.scan(stubs, progress=lambda d, t: seen.append((d, t))))) == 30
    assert seen == [(i, 30) for i in range(1, 31)]
    done = {"n": 0}
    with pytest.raises(Cancelled):
        for _ in source.scan(stubs, cancel=lambda: done["n"] >= 5):
            done["n"] += 1
    assert done["n"] < 30


def test_server_graph_dedupes_and_needs_both_tools() -> None:
    server = three_pages()
    source = source_for(server)
    graph = source.server_graph()
    assert graph is not None
    assert graph.links_in("a") == ["b", "c"]
    server.fault = lambda body, fake: (
        sse({"jsonrpc": "2.0", "id": body["id"], "result": {"tools": [{"name": "get_page"}]}})
        if body.get("method") == "tools/list"
        else None
    )
    assert source_for(server).server_graph() is None


def test_label_and_repr_hide_credentials() -> None:
    source = McpSource(
        "http://user:pw-secret@127.0.0.1:9/mcp?token=q-secret",
        token=SECRET,
        token_source="$GBRAIN_TOKEN",
        http_transport=httpx.MockTransport(three_pages()),
    )
    for text in (source.label, source.cache_key, repr(source)):
        assert "pw-secret" not in text and "q-secret" not in text and SECRET not in text
    assert source.label.startswith("http://***@127.0.0.1:9/mcp")


# -- real sockets: connection refused, slow and trickling servers ---------------------------


def test_connection_refused_is_unreachable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    source = McpSource(f"http://127.0.0.1:{port}/mcp", token=SECRET, token_source="x")
    with pytest.raises(SourceUnavailable, match="unreachable \\(connection refused\\)"):
        source.enumerate()


def slow_server(reply: Callable[[socket.socket], None]) -> Iterator[str]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            threading.Thread(target=reply, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"
    finally:
        stop.set()
        thread.join()
        listener.close()


def _stall(conn: socket.socket) -> None:
    conn.recv(65536)
    time.sleep(3)
    conn.close()


def _trickle(conn: socket.socket) -> None:
    conn.recv(65536)
    head = (
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
    )
    try:
        conn.sendall(head)
        for _ in range(60):
            conn.sendall(b"d\r\n: keep-alive\n\r\n")
            time.sleep(0.05)
    except OSError:
        pass
    conn.close()


@pytest.mark.parametrize("reply", [_stall, _trickle], ids=["silent", "trickling"])
def test_a_reply_slower_than_the_timeout_never_hangs(
    reply: Callable[[socket.socket], None],
) -> None:
    for url in slow_server(reply):
        source = McpSource(url, token=SECRET, token_source="x", timeout=0.4)
        started = time.monotonic()
        with pytest.raises(SourceUnavailable, match=r"unreachable \(timed out after 0.4 s\)"):
            source.enumerate()
        assert time.monotonic() - started < 2.5, "a timeout must not be retried or extended"
        source.close()


def test_short_url_secret_does_not_mangle_words() -> None:
    from okf_explorer.sources.gbrain.transport import _scrub_secret

    assert _scrub_secret("connection refused", "u") == "connection refused"
    assert _scrub_secret("user u failed", "u") == "user *** failed"
    assert _scrub_secret("Bearer abcdefgh123 rejected", "abcdefgh123") == "Bearer *** rejected"


def test_plain_http_never_loads_the_ca_bundle(monkeypatch: pytest.MonkeyPatch) -> None:
    """httpx reads the system certificates for every client (60-100 ms of a one-shot CLI
    query); an `http://` source speaks no TLS, so it must not, and `https://` still does."""
    import ssl

    loads: list[str] = []
    real = ssl.SSLContext.load_verify_locations

    def spy(self: ssl.SSLContext, *args: Any, **kwargs: Any) -> None:
        loads.append("ca")
        real(self, *args, **kwargs)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", spy)
    McpSource("http://127.0.0.1:9/mcp", token=None, token_source="no token").close()
    assert loads == []
    McpSource("https://127.0.0.1:9/mcp", token=None, token_source="no token").close()
    assert loads
