"""Issue 7 item 5: a hostile client cannot make `serve` read, compute, hold or send
without bound, nor hold a connection open by sending slowly.

One real server (a subprocess on a loopback port) serves a 1,000-page bundle
built so that `traverse_graph hub depth 10 both` has tens of thousands of rows
while walking it stays cheap: pages form a ring, each linking to the next and
to `hub`, which links to every page. Before the caps a batch of 20 such calls
took 19 s to answer with 150 MB, and the server peaked at 670 MB; partial
headers held a connection for as long as the client liked.

The server runs with the shipped caps but short timeouts (`HEADER_TIMEOUT` 1 s,
`BODY_TIMEOUT` 1.5 s instead of 10 s and 30 s), set in the subprocess before the
server modules load, so the slow-client tests take seconds.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from okf_explorer.server.limits import (
    MAX_BATCH,
    MAX_BODY_BYTES,
    MAX_REPLY_BYTES,
    TRAVERSE_ROW_CAP,
)
from tests.bundles import write_pages
from tests.mcp_server_fixture import HOST, free_port, subprocess_env

pytestmark = pytest.mark.plain

PAGES = 1000
HEADER_TIMEOUT = 1.0
BODY_TIMEOUT = 1.5
SLOW_MARGIN = 3.0
PEAK_RSS_BOUND_KB = 300 * 1024  # 670 MB before the caps; about 150 MB after
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

LAUNCH = f"""
import sys
from okf_explorer.server import limits
limits.HEADER_TIMEOUT = {HEADER_TIMEOUT}
limits.BODY_TIMEOUT = {BODY_TIMEOUT}
from okf_explorer.cli import main
sys.exit(main(["serve", *sys.argv[1:]]))
"""


def ring_bundle(root: Path) -> Path:
    """`hub` plus PAGES pages round a ring: each page links to hub and to the next
    page, and hub links to every page."""
    spokes = " ".join(f"[[p{i:04d}]]" for i in range(PAGES))
    pages = {"hub": f"# Hub\n\nThe centre: {spokes}\n"}
    for i in range(PAGES):
        following = f"p{(i + 1) % PAGES:04d}"
        pages[f"p{i:04d}"] = f"# Page {i}\n\nSee [[hub]] and then [[{following}]] for more.\n"
    return write_pages(root, pages)


class Server:
    def __init__(self, process: subprocess.Popen[bytes], port: int, stderr: Path) -> None:
        self.process = process
        self.port = port
        self.stderr = stderr
        self.url = f"http://{HOST}:{port}/mcp"

    def log(self) -> str:
        return self.stderr.read_text(encoding="utf-8", errors="replace")

    def peak_rss_kb(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        raise AssertionError("no VmHWM in /proc status")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    work = tmp_path_factory.mktemp("limits-server")
    root = ring_bundle(work / "bundle")
    port = free_port()
    stderr = work / "stderr"
    with stderr.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, str(root), "--host", HOST, "--port", str(port)],
            env=subprocess_env(work),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    handle = Server(process, port, stderr)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, handle.log()
            try:
                if httpx.get(f"http://{HOST}:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, handle.log()
            time.sleep(0.05)
        yield handle
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def call(request_id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def sse_replies(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]


def raw_exchange(port: int, data: bytes, *, wait: float = 10.0) -> bytes:
    """Send `data` on a fresh connection and read until the server closes it."""
    with socket.create_connection((HOST, port), timeout=wait) as sock:
        sock.sendall(data)
        return read_until_closed(sock, wait)


def read_until_closed(sock: socket.socket, wait: float) -> bytes:
    sock.settimeout(wait)
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    return received


def status_of(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def json_body(response: bytes) -> Any:
    return json.loads(response.partition(b"\r\n\r\n")[2])


# -- body, batch, reply ---------------------------------------------------------------------


@pytest.mark.slow
def test_a_declared_oversized_body_is_refused_before_it_is_read(server: Server) -> None:
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: {HOST}\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Type: application/json\r\nContent-Length: {50 * 1024 * 1024}\r\n\r\n"
    ).encode()
    response = raw_exchange(server.port, head + b'{"jsonrpc": "2.0", ')
    assert status_of(response) == 413
    assert json_body(response) == {
        "jsonrpc": "2.0",
        "error": {"code": -32000, "message": "Payload Too Large: the body passes 1 MiB"},
        "id": None,
    }


def test_a_streamed_oversized_body_is_cut_off_at_the_cap(server: Server) -> None:
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: {HOST}\r\nAccept: application/json, text/event-stream\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
    sent = 0
    with socket.create_connection((HOST, server.port), timeout=10) as sock:
        sock.sendall(head)
        try:
            while sent < 50 * 1024 * 1024:
                sock.sendall(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        response = read_until_closed(sock, 10)
    assert status_of(response) == 413
    assert sent < 16 * MAX_BODY_BYTES  # the server stopped reading near the cap


def test_a_batch_longer_than_the_cap_is_refused(server: Server) -> None:
    ping = {"jsonrpc": "2.0", "method": "ping"}
    full = [dict(ping, id=i) for i in range(MAX_BATCH)]
    assert httpx.post(server.url, json=full, headers=HEADERS).status_code == 200
    response = httpx.post(server.url, json=[*full, dict(ping, id=MAX_BATCH)], headers=HEADERS)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == -32600
    assert f"at most {MAX_BATCH}" in error["message"]


def test_one_traversal_keeps_the_shallowest_rows_and_says_truncated(server: Server) -> None:
    arguments = {"slug": "hub", "depth": 10, "direction": "both"}
    response = httpx.post(server.url, json=call(1, "traverse_graph", arguments), headers=HEADERS)
    (reply,) = sse_replies(response.text)
    result = reply["result"]
    rows = json.loads(result["content"][0]["text"])
    assert isinstance(rows, list) and len(rows) == TRAVERSE_ROW_CAP  # gbrain's bare array
    assert result["_meta"]["truncated"] is True
    assert [w["code"] for w in result["_meta"]["warnings"]] == ["truncated"]
    depths = [row["depth"] for row in rows]
    assert depths == sorted(depths) and depths[0] == 1
    shallow = call(2, "traverse_graph", {**arguments, "depth": max(depths) - 1})
    (whole,) = sse_replies(httpx.post(server.url, json=shallow, headers=HEADERS).text)
    assert "_meta" not in whole["result"]  # not truncated: no marker
    complete = json.loads(whole["result"]["content"][0]["text"])
    assert rows[: len(complete)] == complete  # every shallower row is kept


def test_the_default_walk_is_capped_too(server: Server) -> None:
    """Without `direction` (current gbrain's remote default: both ways), the same cap."""
    request = call(1, "traverse_graph", {"slug": "hub", "depth": 10})
    (reply,) = sse_replies(httpx.post(server.url, json=request, headers=HEADERS).text)
    rows = json.loads(reply["result"]["content"][0]["text"])
    assert len(rows) == TRAVERSE_ROW_CAP
    assert reply["result"]["_meta"]["truncated"] is True
    keys = [(row["depth"], row["from_slug"], row["to_slug"]) for row in rows]
    assert keys == sorted(keys) and keys[0][0] == 1


@pytest.mark.slow
def test_a_batch_of_big_traversals_stays_within_the_reply_cap(server: Server) -> None:
    arguments = {"slug": "hub", "depth": 10, "direction": "both"}
    batch = [call(i, "traverse_graph", arguments) for i in range(20)]
    response = httpx.post(server.url, json=batch, headers=HEADERS, timeout=60)
    assert response.status_code == 200
    assert len(response.content) <= MAX_REPLY_BYTES + 20 * 1024
    replies = sse_replies(response.text)
    assert [r["id"] for r in replies] == list(range(20))
    answered = [r for r in replies if "result" in r]
    refused = [r for r in replies if "error" in r]
    assert answered and refused
    assert replies.index(refused[0]) == len(answered)  # answers first, then refusals
    assert {r["error"]["code"] for r in refused} == {-32000}
    assert refused[0]["error"]["message"].startswith("Reply too large")
    assert server.peak_rss_kb() < PEAK_RSS_BOUND_KB
    assert "Traceback" not in server.log()


# -- slow clients -----------------------------------------------------------------------------


def test_partial_headers_are_not_held_open(server: Server) -> None:
    started = time.monotonic()
    with socket.create_connection((HOST, server.port), timeout=10) as sock:
        sock.sendall(f"POST /mcp HTTP/1.1\r\nHost: {HOST}\r\n".encode())
        closed = False
        for n in range(100):  # a header line every 0.2 s, never the blank line
            try:
                sock.sendall(f"X-Slow-{n}: 1\r\n".encode())
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            sock.settimeout(0.2)
            try:
                if sock.recv(1024) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except ConnectionResetError:  # closed with our last line unread: a reset
                closed = True
                break
    assert closed
    assert time.monotonic() - started < HEADER_TIMEOUT + SLOW_MARGIN


def test_a_silent_connection_is_closed(server: Server) -> None:
    started = time.monotonic()
    with socket.create_connection((HOST, server.port), timeout=10) as sock:
        assert read_until_closed(sock, HEADER_TIMEOUT + SLOW_MARGIN) == b""
    assert time.monotonic() - started < HEADER_TIMEOUT + SLOW_MARGIN


@pytest.mark.slow
def test_a_body_sent_too_slowly_gets_408(server: Server) -> None:
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: {HOST}\r\nAccept: application/json, text/event-stream\r\n"
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    ).encode()
    started = time.monotonic()
    with socket.create_connection((HOST, server.port), timeout=10) as sock:
        sock.sendall(head + b"{")
        response = read_until_closed(sock, BODY_TIMEOUT + SLOW_MARGIN)
    assert status_of(response) == 408
    assert json_body(response)["error"]["code"] == -32000
    assert time.monotonic() - started < BODY_TIMEOUT + SLOW_MARGIN


def test_an_oversized_head_is_refused(server: Server) -> None:
    head = f"GET /health HTTP/1.1\r\nHost: {HOST}\r\nX-Big: ".encode()
    with socket.create_connection((HOST, server.port), timeout=10) as sock:
        sock.sendall(head)
        try:
            for _ in range(1024):  # up to 8 MiB of one header, in pieces
                sock.sendall(b"a" * 8192)
        except (BrokenPipeError, ConnectionResetError):
            pass
        response = read_until_closed(sock, 10)
    assert status_of(response) == 400


@pytest.mark.slow
def test_keep_alive_requests_still_work(server: Server) -> None:
    with httpx.Client(headers=HEADERS) as http:
        for request_id in range(3):
            reply = http.post(
                server.url, json={"jsonrpc": "2.0", "id": request_id, "method": "ping"}
            )
            assert reply.status_code == 200
            time.sleep(HEADER_TIMEOUT / 2)
