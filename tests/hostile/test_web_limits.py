"""Issue 22 item 5: `web` bounds what a browser (or anything speaking its protocol) sends.

- A websocket message `["resize", {"width": 20000, "height": 20000}]` went to the
  session unclamped (only the `/ws` query string was clamped): one such message grew
  an explorer process to 4.5 GB in 25 s. Every resize is now clamped to
  `MAX_TERMINAL_CELLS`. The session here is a small recorder process speaking
  textual-serve's pipe protocol, so the test reads exactly what the session was told
  (the real explorer would have to be fed the 20000×20000 screen to show it).
- The sign-in form's 8 KiB cap was checked against `Content-Length` only: a chunked
  1 MB form was read whole before anything answered. It is now read as it streams
  and refused with 413 once it passes the cap, while the client is still sending.

Real loopback sockets throughout: aiohttp's test server for the first (in-process, so
the session command can be the recorder), a real `okf-explorer web` for the second.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from okf_explorer.tui.web.gate import MAX_LOGIN_BYTES
from okf_explorer.tui.web.server import MAX_TERMINAL_CELLS
from tests.web_fixture import serve_web, web_env

RECORDER = """
import json, os, sys
record = open(sys.argv[1], "a", buffering=1)
record.write(json.dumps({"type": "start", "width": int(os.environ["COLUMNS"]),
                         "height": int(os.environ["ROWS"])}) + "\\n")
sys.stdout.write("__GANGLION__\\n")
sys.stdout.flush()
stdin = sys.stdin.buffer
while head := stdin.read(5):
    payload = stdin.read(int.from_bytes(head[1:5], "big"))
    if head[:1] == b"M":
        record.write(payload.decode() + "\\n")
        if json.loads(payload)["type"] == "quit":
            break
"""

TOKEN = "web-limits-7"
ANSWER_S = 10.0  # the 413 must come while the client is still sending; a hang waits a minute


def recorded(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


async def wait_recorded(path: Path, count: int) -> list[dict[str, Any]]:
    async with asyncio.timeout(20):
        while len(found := recorded(path)) < count:
            await asyncio.sleep(0.02)
    return found


@contextlib.asynccontextmanager
async def recorded_session(tmp_path: Path, query: str = "") -> AsyncIterator[Recorded]:
    """The web server in-process, each session a recorder; one websocket to it."""
    from aiohttp.test_utils import TestClient, TestServer

    from okf_explorer.tui.web.gate import Gate
    from okf_explorer.tui.web.server import ExplorerWebServer

    record = tmp_path / "session.jsonl"
    recorder = tmp_path / "recorder.py"
    recorder.write_text(RECORDER, encoding="utf-8")
    argv = [sys.executable, str(recorder), str(record)]
    server = ExplorerWebServer(argv, Gate(None, loopback=True))
    async with TestClient(TestServer(await server._make_app())) as http:
        async with http.ws_connect("/ws" + query) as websocket:
            yield Recorded(http, websocket, record)
        async with asyncio.timeout(20):  # each session's process ended and reaped
            while server._sessions or server._endings:
                await asyncio.sleep(0.05)


@dataclass
class Recorded:
    http: Any
    websocket: aiohttp.ClientWebSocketResponse
    record: Path


@pytest.mark.parametrize(
    ("asked", "told"),
    [
        ((20000, 20000), (MAX_TERMINAL_CELLS, MAX_TERMINAL_CELLS)),
        ((0, -5), (1, 1)),
        ((132, 43), (132, 43)),
    ],
)
async def test_every_resize_is_clamped(
    tmp_path: Path, asked: tuple[int, int], told: tuple[int, int]
) -> None:
    async with recorded_session(tmp_path, "?width=30000&height=30000") as session:
        (start,) = await wait_recorded(session.record, 1)
        assert (start["width"], start["height"]) == (MAX_TERMINAL_CELLS, MAX_TERMINAL_CELLS)
        width, height = asked
        await session.websocket.send_str(json.dumps(["resize", {"width": width, "height": height}]))
        _, resize = await wait_recorded(session.record, 2)
        assert resize == {"type": "resize", "width": told[0], "height": told[1]}


async def test_a_resize_that_is_not_whole_numbers_ends_only_its_session(tmp_path: Path) -> None:
    async with recorded_session(tmp_path) as session:
        await wait_recorded(session.record, 1)
        await session.websocket.send_str(json.dumps(["resize", {"width": "1e9", "height": 2.5}]))
        async with asyncio.timeout(20):
            async for _ in session.websocket:
                pass
        assert all(entry["type"] != "resize" for entry in recorded(session.record))
        async with session.http.get("/") as page:  # the server carries on
            assert page.status == 200


def test_a_chunked_sign_in_form_is_refused_at_the_cap(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n", encoding="utf-8")
    with serve_web("--token-file", str(token_file), env=web_env(tmp_path / "cache")) as server:
        host, port = server.url.removeprefix("http://").rstrip("/").rsplit(":", 1)
        head = (
            f"POST /login HTTP/1.1\r\nHost: {host}:{port}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            "Transfer-Encoding: chunked\r\n\r\n"
        ).encode()
        piece = b"token=" + b"a" * 4090
        chunk = b"%x\r\n%s\r\n" % (len(piece), piece)
        with socket.create_connection((host, int(port)), timeout=ANSWER_S) as sock:
            sock.sendall(head)
            for _ in range(3):  # 12 KiB: past the cap, far short of the 1 MB a client may send
                sock.sendall(chunk)
            started = time.monotonic()
            answer = b""
            sock.settimeout(ANSWER_S)
            try:
                while b"\r\n\r\n" not in answer and (data := sock.recv(65536)):
                    answer += data
            except TimeoutError:
                pytest.fail("no answer while the form was still being sent: it is read whole")
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert time.monotonic() - started < ANSWER_S
        # The server goes on, and a form under the cap still signs in.
        assert len(f"token={TOKEN}") < MAX_LOGIN_BYTES

        async def sign_in() -> int:
            async with aiohttp.ClientSession() as http:
                reply = await http.post(
                    server.url + "login", data={"token": TOKEN}, allow_redirects=False
                )
                return reply.status

        assert asyncio.run(sign_in()) == 303
        assert server.stop() == 0
