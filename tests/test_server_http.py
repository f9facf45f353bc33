"""`okf-explorer serve` on the wire: raw JSON-RPC with httpx against a subprocess
server on loopback, checked against gbrain's behaviour (GBRAIN_PROTOCOL §1-§5)."""

from __future__ import annotations

import json
import secrets
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from okf_explorer.server import run_server
from tests.bundles import write_pages
from tests.mcp_server_fixture import (
    ServerHandle,
    free_port,
    serve_bundle,
    serve_command,
    stdio_command,
    subprocess_env,
)

pytestmark = pytest.mark.plain

ACCEPT = "application/json, text/event-stream"
HEADERS = {"Accept": ACCEPT, "Content-Type": "application/json"}
PAGE_COUNT = 130
OUTSIDE_SECRET = "top secret, outside the bundle"
TOKEN = "okf_" + secrets.token_hex(16)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("served")
    (base / "outside.md").write_text(OUTSIDE_SECRET, encoding="utf-8")
    pages = {f"notes/n{i:03d}": f"note {i} links [[notes/n{(i + 1) % 3:03d}]]\n" for i in range(3)}
    pages |= {f"bulk/b{i:03d}": f"bulk page {i}\n" for i in range(PAGE_COUNT - 4)}
    pages["people/alice"] = "---\ntype: person\ntitle: Alice\n---\nKnows [[notes/n000]].\n"
    return write_pages(base / "brain", pages)


@pytest.fixture(scope="module")
def server(bundle: Path) -> Iterator[ServerHandle]:
    with serve_bundle(bundle, token=TOKEN) as handle:
        yield handle


@pytest.fixture(scope="module")
def open_server(bundle: Path) -> Iterator[ServerHandle]:
    """A second server, without a token."""
    with serve_bundle(bundle) as handle:
        yield handle


@pytest.fixture
def client(server: ServerHandle) -> Iterator[httpx.Client]:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with httpx.Client(base_url=server.base_url, headers=auth, timeout=10) as http:
        yield http


def post(http: httpx.Client, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
    return http.post("/mcp", content=json.dumps(body), headers={**HEADERS, **(headers or {})})


def sse(response: httpx.Response) -> list[dict[str, Any]]:
    """Parse gbrain's framing strictly: `event: message`, one `data:` line, blank line."""
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert "mcp-session-id" not in response.headers
    blocks = response.text.split("\n\n")
    assert blocks[-1] == ""
    messages = []
    for block in blocks[:-1]:
        event, data = block.split("\n")
        assert event == "event: message" and data.startswith("data: ")
        messages.append(json.loads(data[len("data: ") :]))
    return messages


def call(http: httpx.Client, name: str, arguments: dict[str, Any], rid: int = 1) -> dict[str, Any]:
    body = {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    (message,) = sse(post(http, body))
    assert list(message) == ["result", "jsonrpc", "id"] and message["id"] == rid
    return message["result"]


def payload(result: dict[str, Any]) -> Any:
    (item,) = result["content"]
    assert item["type"] == "text" and "structuredContent" not in result
    return json.loads(item["text"])


# -- handshake and framing ---------------------------------------------------------------


def test_initialize_list_and_call(client: httpx.Client) -> None:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"},
        },
    }
    (reply,) = sse(post(client, init))
    assert reply["result"]["protocolVersion"] == "2025-06-18"
    assert reply["result"]["serverInfo"]["name"] == "okf-explorer"
    assert "tools" in reply["result"]["capabilities"]
    note = post(client, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert note.status_code == 202 and note.content == b""
    (listed,) = sse(post(client, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
    tools = {tool["name"]: tool for tool in listed["result"]["tools"]}
    assert list(tools) == [
        "get_page",
        "list_pages",
        "get_links",
        "get_backlinks",
        "traverse_graph",
        "search",
        "query",
        "get_tags",
        "resolve_slugs",
        "find_orphans",
        "fetch",
        "memory_navigate",
        "find_paths",
        "best_paths",
        "explain_links",
        "graph_stats",
        "wanted_pages",
        "find_mentions",
        "build_context",
        "analyze",
    ]
    assert tools["get_page"]["inputSchema"]["required"] == ["slug"]
    assert "nextCursor" not in listed["result"]
    page = payload(call(client, "get_page", {"slug": "people/alice"}, rid=3))
    assert (page["slug"], page["title"], page["type"]) == ("people/alice", "Alice", "person")


def test_tools_call_needs_no_initialize_and_ignores_session_ids(client: httpx.Client) -> None:
    body = {"jsonrpc": "2.0", "id": 7, "method": "ping"}
    (reply,) = sse(post(client, body, {"Mcp-Session-Id": "made-up"}))
    assert reply == {"result": {}, "jsonrpc": "2.0", "id": 7}


def test_unknown_protocol_version_in_initialize_gets_a_supported_one(client: httpx.Client) -> None:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2099-01-01",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"},
        },
    }
    (reply,) = sse(post(client, init))
    assert reply["result"]["protocolVersion"] in {"2025-11-25", "2025-06-18"}


def test_batch_gets_one_block_per_reply(client: httpx.Client) -> None:
    batch = [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    assert [m["id"] for m in sse(post(client, batch))] == [1, 2]


def test_plain_tool_calls_answer_exactly_as_through_the_sdk(client: httpx.Client) -> None:
    """Plain `tools/call` requests skip the SDK's per-request session; a call carrying
    `_meta` still goes through it. Both must give the same bytes, in batches too."""
    calls = [
        ("get_page", {"slug": "people/alice", "include_content": True}),
        ("get_page", {"slug": "ghost"}),
        ("get_backlinks", {"slug": "notes/n000"}),
        ("list_pages", {"limit": 3, "bogus": 1}),
        ("nope", {}),
    ]

    def batch(meta: bool) -> list[dict[str, Any]]:
        bodies = []
        for rid, (name, arguments) in enumerate(calls, start=1):
            params: dict[str, Any] = {"name": name, "arguments": arguments}
            if meta:
                params["_meta"] = {"progressToken": rid}
            bodies.append({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params})
        return bodies

    plain, through_sdk = post(client, batch(False)), post(client, batch(True))
    assert plain.text == through_sdk.text
    replies = sse(plain)
    assert [m["id"] for m in replies] == [1, 2, 3, 4, 5]
    assert [m["result"]["isError"] for m in replies] == [False, True, False, False, True]
    assert replies[3]["result"]["_meta"] == {
        "warnings": [{"code": "unknown_param", "param": "bogus"}]
    }

    for method in ("no/such", "resources/list", "server/discover", "logging/setLevel"):
        (reply,) = sse(post(client, {"jsonrpc": "2.0", "id": 9, "method": method}))
        assert reply == {
            "error": {"code": -32601, "message": "Method not found"},
            "jsonrpc": "2.0",
            "id": 9,
        }


# -- transport errors --------------------------------------------------------------------


def transport_error(response: httpx.Response, status: int, code: int, message: str) -> None:
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == {
        "jsonrpc": "2.0",
        "error": {"code": code, "message": message},
        "id": None,
    }


NOT_ACCEPTABLE = "Not Acceptable: Client must accept both application/json and text/event-stream"


@pytest.mark.parametrize("accept", ["application/json", "*/*", "text/event-stream", None])
def test_406_unless_both_types_are_accepted(client: httpx.Client, accept: str | None) -> None:
    headers = {"Content-Type": "application/json"}
    if accept is not None:
        headers["Accept"] = accept
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    response = client.post("/mcp", content=body, headers=headers)
    transport_error(response, 406, -32000, NOT_ACCEPTABLE)


def test_accept_order_does_not_matter(client: httpx.Client) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert sse(post(client, body, {"Accept": "text/event-stream, application/json"}))


def test_415_on_wrong_content_type(client: httpx.Client) -> None:
    response = post(
        client, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"Content-Type": "text/plain"}
    )
    transport_error(
        response, 415, -32000, "Unsupported Media Type: Content-Type must be application/json"
    )


def test_405_on_get_and_delete(client: httpx.Client) -> None:
    for method in ("GET", "DELETE"):
        response = client.request(method, "/mcp", headers={"Accept": ACCEPT})
        transport_error(response, 405, -32000, "Method not allowed")
        assert "POST" in response.headers["allow"]


def test_400_on_bad_json_and_bad_protocol_version(client: httpx.Client) -> None:
    response = client.post("/mcp", content=b"{not json", headers=HEADERS)
    transport_error(response, 400, -32700, "Parse error: Invalid JSON")
    response = post(
        client,
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"MCP-Protocol-Version": "1999-01-01"},
    )
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith(
        "Bad Request: Unsupported protocol version: 1999-01-01"
    )


# -- auth --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("authorization", "description"),
    [
        (None, "Missing Authorization header"),
        ("Bearer wrong", "Invalid token"),
        ("Basic " + TOKEN, "Invalid token"),
    ],
    ids=["missing", "wrong-token", "basic-scheme"],  # stable: TOKEN is random per run
)
def test_401_without_the_right_token(
    server: ServerHandle, authorization: str | None, description: str
) -> None:
    headers = dict(HEADERS)
    if authorization is not None:
        headers["Authorization"] = authorization
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    response = httpx.post(server.url, content=body, headers=headers)
    assert response.status_code == 401
    assert response.json() == {"error": "invalid_token", "error_description": description}
    challenge = response.headers["www-authenticate"]
    assert challenge.startswith('Bearer error="invalid_token"') and description in challenge
    assert TOKEN not in response.text and TOKEN not in challenge


def test_bearer_scheme_is_case_insensitive(server: ServerHandle) -> None:
    headers = {**HEADERS, "Authorization": f"bearer {TOKEN}"}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert sse(httpx.post(server.url, content=body, headers=headers))


def test_health_needs_no_token(server: ServerHandle) -> None:
    response = httpx.get(server.health_url)
    assert response.status_code == 200
    assert response.json()["status"] == "ok" and response.json()["engine"] == "okf-explorer"
    assert response.json()["version"]


def test_banner_names_the_url_and_count_but_not_the_token(server: ServerHandle) -> None:
    """The banner comes before the index; a second line says when it is built."""
    wait_until_indexed(server)
    banner, indexed = server.stderr_text().splitlines()[:2]
    assert banner == f"okf-explorer serve: {server.url} · read-only · token required · indexing"
    assert indexed.startswith(f"okf-explorer serve: indexed {PAGE_COUNT} pages in ")
    assert TOKEN not in server.stderr_text()


def wait_until_indexed(server: ServerHandle, timeout: float = 30.0) -> dict[str, Any]:
    """`/health`'s `index` once it is no longer building."""
    deadline = time.monotonic() + timeout
    while True:
        state = httpx.get(server.health_url, timeout=5).json()["index"]
        if state["state"] != "building" or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def test_tokenless_server_accepts_loopback_names_and_refuses_others(
    open_server: ServerHandle,
) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    for base in (open_server.url, open_server.url.replace("127.0.0.1", "localhost")):
        assert sse(httpx.post(base, content=body, headers=HEADERS))
    evil = httpx.post(open_server.url, content=body, headers={**HEADERS, "Host": "evil.example"})
    assert evil.status_code == 421
    origin = {**HEADERS, "Origin": "http://evil.example"}
    assert httpx.post(open_server.url, content=body, headers=origin).status_code == 403
    local = {**HEADERS, "Origin": "http://localhost:3000"}
    assert sse(httpx.post(open_server.url, content=body, headers=local))


# -- tool errors and tools over the wire ------------------------------------------------


def test_tool_errors_are_is_error_results(client: httpx.Client) -> None:
    result = call(client, "get_page", {"slug": "people/nobody"})
    assert result["isError"] is True
    assert payload(result)["error"] == "page_not_found"
    assert payload(call(client, "get_page", {}))["message"] == "Missing required parameter: slug"
    assert payload(call(client, "no_such_tool", {})) == {
        "error": "unknown_operation",
        "message": "Unknown: no_such_tool",
    }
    bad_sort = call(client, "list_pages", {"sort": "nope"})
    assert bad_sort["isError"] is True and payload(bad_sort)["error"] == "invalid_params"
    (item,) = bad_sort["content"]
    assert "\n" not in item["text"]  # compact on errors


def test_success_text_is_pretty_and_unknown_keys_warn(client: httpx.Client) -> None:
    result = call(client, "get_links", {"slug": "people/alice", "bogus": True})
    assert result.get("isError", False) is False
    assert result["_meta"] == {"warnings": [{"code": "unknown_param", "param": "bogus"}]}
    text = result["content"][0]["text"]
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    assert [row["to_slug"] for row in json.loads(text)] == ["notes/n000"]


@pytest.mark.parametrize(
    "slug", ["../outside", "/etc/passwd", "notes\\n000", "notes/n000\x00", "notes/../../outside"]
)
def test_hostile_slugs(client: httpx.Client, slug: str) -> None:
    result = call(client, "get_page", {"slug": slug, "include_content": True})
    assert payload(result)["error"] == "page_not_found"
    for name in ("get_links", "get_backlinks", "traverse_graph"):
        assert payload(call(client, name, {"slug": slug})) == []
    assert payload(call(client, "memory_navigate", {"op": "get", "slug": slug})) == []


def test_list_pages_pages_beyond_100_with_offset(client: httpx.Client) -> None:
    assert len(payload(call(client, "list_pages", {"limit": 10000}))) == 100
    seen: list[str] = []
    while rows := payload(
        call(client, "list_pages", {"sort": "slug", "limit": 100, "offset": len(seen)})
    ):
        seen += [row["slug"] for row in rows]
    assert len(seen) == PAGE_COUNT and seen == sorted(seen) and len(set(seen)) == PAGE_COUNT


def test_traverse_forms_over_the_wire(client: httpx.Client) -> None:
    # no direction: current gbrain's remote default, both ways at depth 2, GraphPath[] rows
    both = payload(call(client, "traverse_graph", {"slug": "notes/n000"}))
    assert [(e["from_slug"], e["to_slug"]) for e in both if e["depth"] == 1] == [
        ("notes/n000", "notes/n001"),
        ("notes/n002", "notes/n000"),
        ("people/alice", "notes/n000"),
    ]
    assert max(e["depth"] for e in both) == 2
    edges = payload(
        call(client, "traverse_graph", {"slug": "notes/n000", "direction": "in", "depth": 1})
    )
    assert {(e["from_slug"], e["to_slug"]) for e in edges} == {
        ("notes/n002", "notes/n000"),
        ("people/alice", "notes/n000"),
    }


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"op": "explode"},
        {"op": None},
        {"op": "get", "slug": 1},
        {"op": "traverse", "slug": "x", "depth": "deep"},
    ],
)
def test_memory_navigate_never_raises(client: httpx.Client, arguments: dict[str, Any]) -> None:
    result = call(client, "memory_navigate", arguments)
    assert result.get("isError", False) is False and payload(result) == []


def test_memory_navigate_traverse_edge_records(client: httpx.Client) -> None:
    records = payload(
        call(client, "memory_navigate", {"op": "traverse", "slug": "people/alice", "depth": 2})
    )
    assert [(r["from"], r["to"], r["hop"]) for r in records] == [
        ("people/alice", "notes/n000", 1),
        ("notes/n000", "notes/n001", 2),
    ]


# -- lifecycle ---------------------------------------------------------------------------


def test_non_loopback_without_token_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    class NeverIndexed:
        def ensure_index(self) -> None:
            raise AssertionError("must refuse before indexing")

    assert run_server(NeverIndexed(), host="0.0.0.0", port=0) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "0.0.0.0" in lines[0] and "token" in lines[0]


@pytest.mark.parametrize("token", ["sek1 sek2", "sek1\tsek2", "sek1\nsek2", "sek1\u00a0sek2"])
def test_token_with_whitespace_is_refused(token: str, capsys: pytest.CaptureFixture[str]) -> None:
    class NeverIndexed:
        def ensure_index(self) -> None:
            raise AssertionError("must refuse before indexing")

    assert run_server(NeverIndexed(), port=0, token=token) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "whitespace" in lines[0]
    assert "sek" not in lines[0]


def test_serve_refuses_a_token_file_holding_whitespace(bundle: Path, tmp_path: Path) -> None:
    """End to end through the real entry: one clear line, exit 2, the token never shown."""
    token_file = tmp_path / "token"
    token_file.write_text("sekrit1 sekrit2\n", encoding="utf-8")
    argv = serve_command(bundle, free_port(), token_file)
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=30, check=False, env=subprocess_env(tmp_path)
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "whitespace" in lines[0] and "sekrit" not in done.stderr


def test_stdio_transport(bundle: Path) -> None:
    """Piped stdio: a tool call before `initialize` works, and EOF still gets every reply."""
    init_params = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    }
    links = {"name": "get_links", "arguments": {"slug": "people/alice"}}
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": links},
        {"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": init_params},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": links},
    ]
    done = subprocess.run(
        stdio_command(bundle),
        input="".join(json.dumps(m) + "\n" for m in messages),
        env=subprocess_env(bundle.parent),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    replies = {r["id"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert sorted(replies) == [1, 2, 3]
    assert replies[2]["result"]["serverInfo"]["name"] == "okf-explorer"
    for rid in (1, 3):
        rows = json.loads(replies[rid]["result"]["content"][0]["text"])
        assert [row["to_slug"] for row in rows] == ["notes/n000"]
    banner, indexed = done.stderr.splitlines()
    assert banner == "okf-explorer serve: stdio · read-only · indexing"
    assert indexed.startswith(f"okf-explorer serve: indexed {PAGE_COUNT} pages in ")


def test_stop_and_restart(open_server: ServerHandle) -> None:
    """Last in the module: it stops the shared token-less server, then restarts it."""
    assert open_server.stop() == 0  # SIGTERM is a graceful exit
    with pytest.raises(httpx.ConnectError):
        httpx.get(open_server.health_url, timeout=2)
    open_server.restart()
    assert httpx.get(open_server.health_url).status_code == 200
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert sse(httpx.post(open_server.url, content=body, headers=HEADERS))
