"""Issue 7 item 8: malformed JSON-RPC gets 400 and a JSON-RPC error, and the server
log gains one line, not a traceback (it used to be HTTP 500 plus a traceback).

Runs the real `serve` with its shipped settings on a one-page bundle.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.bundles import write_pages
from tests.mcp_server_fixture import ServerHandle, serve_bundle

pytestmark = pytest.mark.plain

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

MALFORMED = {
    "method is a list": (b'{"jsonrpc":"2.0","id":1,"method":["x"]}', -32600),
    "method is an object": (b'{"jsonrpc":"2.0","id":1,"method":{"a":1}}', -32600),
    "5,000-digit id": (b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"ping"}', -32700),
    "70-bit id": (b'{"jsonrpc":"2.0","id":%d,"method":"ping"}' % (1 << 70), -32600),
    "fractional id": (b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', -32600),
    "list id": (b'{"jsonrpc":"2.0","id":[1],"method":"tools/call"}', -32600),
    "100,000 nested [": (b"[" * 100_000, -32700),
    "deep params": (
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":' + b"[" * 500 + b"]" * 500 + b"}",
        -32600,
    ),
    "null in a batch": (b'[{"jsonrpc":"2.0","id":1,"method":"ping"},null]', -32600),
    "null id on a request": (b'{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600),
    "params not an object": (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":5}', -32600),
    "JSON-RPC 1.0": (b'{"jsonrpc":"1.0","id":1,"method":"ping"}', -32600),
    "not UTF-8": (b'{"jsonrpc":"2.0","id":1,"method":"\xff"}', -32700),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerHandle]:
    root = write_pages(tmp_path_factory.mktemp("malformed"), {"alpha": "# Alpha\n"})
    with serve_bundle(root) as handle:
        yield handle


def log_lines(server: ServerHandle) -> list[str]:
    return server.stderr_text().splitlines()


def wait_for_lines(server: ServerHandle, count: int) -> list[str]:
    deadline = time.monotonic() + 2
    while len(lines := log_lines(server)) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    return lines


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_json_rpc_is_a_400_and_one_log_line(server: ServerHandle, case: str) -> None:
    body, code = MALFORMED[case]
    before = log_lines(server)
    response = httpx.post(server.url, content=body, headers=HEADERS)
    assert response.status_code == 400
    payload = response.json()
    assert payload["jsonrpc"] == "2.0" and payload["id"] is None
    assert payload["error"]["code"] == code
    assert "\n" not in payload["error"]["message"]
    time.sleep(0.1)
    new = wait_for_lines(server, len(before) + 1)[len(before) :]
    assert len(new) == 1, new
    assert "answered 400" in new[0]
    assert "Traceback" not in server.stderr_text()


def test_parameters_the_sdk_cannot_read_are_an_error_reply_and_one_log_line(
    server: ServerHandle,
) -> None:
    before = log_lines(server)
    params = {"protocolVersion": ["x"], "capabilities": {}}
    request = {"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": params}
    response = httpx.post(server.url, json=request, headers=HEADERS)
    assert response.status_code == 200
    assert '"error":{"code":-32602,"message":"Invalid request parameters"}' in response.text
    new = wait_for_lines(server, len(before) + 1)[len(before) :]
    assert len(new) == 1, new
    assert "Traceback" not in server.stderr_text()


def test_the_server_still_answers_afterwards(server: ServerHandle) -> None:
    request = {"jsonrpc": "2.0", "id": 7, "method": "ping"}
    response = httpx.post(server.url, json=request, headers=HEADERS)
    assert response.status_code == 200
    assert '"id":7' in response.text


def test_a_large_but_valid_id_is_echoed(server: ServerHandle) -> None:
    request_id = (1 << 62) + 5
    request = {"jsonrpc": "2.0", "id": request_id, "method": "ping"}
    response = httpx.post(server.url, json=request, headers=HEADERS)
    assert response.status_code == 200
    assert f'"id":{request_id}' in response.text
