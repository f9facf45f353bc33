"""`okf-explorer web` over plain HTTP and websockets: binding rules, the token gate,
one explorer process per session, and a clean stop on SIGINT (real subprocesses)."""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from yarl import URL

from okf_explorer.cli.commands.serve import web_session_argv
from tests.web_fixture import WebServer, gone, serve_web, wait_for, web_env

TOKEN = "web-secret-4242"
BRAIN_TEXT = b"Harbor & Bean"  # the sample brain's start page: brain content


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("web-cache")


@pytest.fixture(scope="module")
def token_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("web-token") / "token"
    path.write_text(TOKEN + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def gated(token_file: Path, cache: Path) -> Iterator[WebServer]:
    with serve_web("--token-file", str(token_file), env=web_env(cache)) as server:
        yield server


async def first_screen(websocket: aiohttp.ClientWebSocketResponse) -> bytes:
    """What the session sends until its screen shows the sample brain (or 30 s pass)."""
    received = b""
    async with asyncio.timeout(30):
        while BRAIN_TEXT not in received:
            message = await websocket.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                received += message.data
            elif message.type != aiohttp.WSMsgType.TEXT:
                break
    return received


def test_non_loopback_bind_without_token_is_refused(run, sample_brain: Path) -> None:
    status, out, err = run("web", str(sample_brain), "--host", "0.0.0.0", "--port", "0")
    assert status == 2 and out == ""
    assert err == (
        "okf-explorer web: refusing to listen on 0.0.0.0 without a token: "
        "pass --token-file (or use 127.0.0.1)\n"
    )


def test_a_busy_port_is_one_line(run, sample_brain: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        status, _, err = run("web", str(sample_brain), "--port", str(port))
    assert status == 1
    assert err == f"okf-explorer web: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_session_command_keeps_the_source_and_never_the_web_token(tmp_path: Path) -> None:
    args = argparse.Namespace(
        src="-odd folder", source=None, start="-x", timeout=3.0, scan=True, token_file=tmp_path
    )
    argv = web_session_argv(args)
    assert argv[:4] == [sys.executable, "-m", "okf_explorer", "browse"]
    assert argv[4:] == ["--start=-x", "--timeout=3.0", "--scan", "--", "-odd folder"]
    bare = argparse.Namespace(src=None, source=None, timeout=None, scan=False)
    assert web_session_argv(bare)[4:] == []


async def test_without_the_token_nothing_of_the_brain_is_served(gated: WebServer) -> None:
    assert gated.stderr_lines[0].endswith("/ · 59 pages · token required")  # the sample brain
    base = gated.url.rstrip("/")
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as http:
        async with http.get(base + "/") as reply:  # the sign-in page, nothing else
            page = await reply.text()
            assert reply.status == 200 and "needs the server's token" in page
            assert "textual" not in page and "websocket" not in page
        async with http.get(base + f"/?token={TOKEN}") as reply:  # no token in a query
            assert "needs the server's token" in await reply.text()
        for path in ("/ws", "/static/js/textual.js", "/download/anything", "/nowhere"):
            async with http.get(base + path) as reply:
                assert reply.status == 401, path
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(base + "/ws")
        assert refused.value.status == 401
        async with http.post(base + "/login", data={"token": "wrong"}) as reply:
            assert reply.status == 403 and "not right" in await reply.text()
        assert not http.cookie_jar.filter_cookies(URL(gated.url))
    assert TOKEN not in "\n".join(gated.stderr_lines)


async def test_the_token_opens_a_session_with_the_brain(gated: WebServer) -> None:
    base = gated.url.rstrip("/")
    jar = aiohttp.CookieJar(unsafe=True)  # keep cookies of an IP address, as browsers do
    async with aiohttp.ClientSession(cookie_jar=jar) as http:
        async with http.post(base + "/login", data={"token": TOKEN}) as reply:
            assert reply.status == 200 and "textual-terminal" in await reply.text()
            assert reply.history[0].status == 303
        cookie = http.cookie_jar.filter_cookies(URL(gated.url))["okf_explorer_session"]
        assert TOKEN not in cookie.value
        async with http.ws_connect(base + "/ws?width=120&height=40") as websocket:
            assert BRAIN_TEXT in await first_screen(websocket)
        # A page of another site cannot use the browser's cookie to reach the session.
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(base + "/ws", headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403


def test_loopback_server_answers_only_to_loopback_names(cache: Path) -> None:
    import httpx

    with serve_web(env=web_env(cache)) as server:
        assert httpx.get(server.url, trust_env=False).status_code == 200
        rebound = httpx.get(server.url, headers={"Host": "evil.example"}, trust_env=False)
        assert rebound.status_code == 403


@pytest.mark.slow
def test_each_session_is_a_process_ended_with_its_tab_and_by_sigint(cache: Path) -> None:
    with serve_web(env=web_env(cache)) as server:
        ws_url = server.url + "ws"

        async def sessions() -> None:
            async with aiohttp.ClientSession() as http:
                first = await http.ws_connect(ws_url)
                second = await http.ws_connect(ws_url)
                await first_screen(first)
                await first_screen(second)
                pids = server.sessions()
                assert len(pids) == 2
                await first.close()  # the tab closes: its explorer ends, the other stays
                assert await asyncio.to_thread(wait_for, lambda: len(server.sessions()) == 1)
                assert set(server.sessions()) < set(pids)
                # Ctrl-C: the server ends the last session and exits 0.
                remaining = server.sessions()
                assert await asyncio.to_thread(server.stop) == 0
                assert await asyncio.to_thread(gone, remaining)
                async with asyncio.timeout(10):
                    async for _ in second:  # what was sent before the end, then the close
                        pass
                assert second.closed

        asyncio.run(sessions())
        assert server.stderr_lines == [server.stderr_lines[0]]  # the banner, nothing else
        assert json.dumps(server.stderr_lines).count("http://127.0.0.1:") == 1


@pytest.mark.slow
def test_a_malformed_browser_message_ends_only_its_session(cache: Path) -> None:
    with serve_web(env=web_env(cache)) as server:

        async def session() -> None:
            async with aiohttp.ClientSession() as http:
                websocket = await http.ws_connect(server.url + "ws")
                await first_screen(websocket)
                pids = server.sessions()
                await websocket.send_str('["resize", {"wide": 3}]')
                async with asyncio.timeout(10):
                    async for _ in websocket:
                        pass
                assert await asyncio.to_thread(gone, pids)
                async with http.get(server.url) as reply:  # the server carries on
                    assert reply.status == 200

        asyncio.run(session())
        assert server.stop() == 0
        assert server.stderr_lines[1:] == ["a browser session ended: KeyError"]


@pytest.mark.slow
async def test_sessions_beyond_the_cap_are_told_to_come_back(
    monkeypatch: pytest.MonkeyPatch, sample_brain: Path
) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from okf_explorer.tui.web import server as web_server
    from okf_explorer.tui.web.gate import Gate

    monkeypatch.setattr(web_server, "MAX_SESSIONS", 1)
    argv = [sys.executable, "-m", "okf_explorer", "browse", "--", str(sample_brain)]
    server = web_server.ExplorerWebServer(argv, Gate(None, loopback=True))
    async with TestClient(TestServer(await server._make_app())) as http:
        async with http.ws_connect("/ws") as first:
            await first_screen(first)
            async with http.get("/ws") as refused:
                assert refused.status == 503
                assert await refused.text() == "too many sessions (at most 1)\n"
        await ended(server)  # the first has ended (its process too): room again
        async with http.ws_connect("/ws") as second:
            assert BRAIN_TEXT in await first_screen(second)
        await ended(server)


async def ended(server: object) -> None:
    """Wait until `server` runs no session (each process ended and reaped)."""
    async with asyncio.timeout(20):
        while server._sessions or server._endings:  # type: ignore[attr-defined]
            await asyncio.sleep(0.05)
