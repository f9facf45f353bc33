"""`okf-explorer web`: the explorer in a browser, served by textual-serve.

Each browser session (one websocket) runs its own `okf-explorer browse` process on
the same source, on Textual's web driver; closing the tab ends it. SIGINT/SIGTERM
stop the server: every session is asked to quit, killed after `SESSION_STOP_GRACE`
seconds if it has not, and the server exits 0. Who may connect is `gate`'s
business. One line on stderr says where the explorer is; the token is never printed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
import signal
import socket
import sys
from collections.abc import Sequence
from typing import Any

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from okf_explorer.core.errors import OkfError
from okf_explorer.core.text_safety import printable
from okf_explorer.net import (
    DEFAULT_HOST,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    WEB_PORT,
    base_url,
    bind_listener,
    is_loopback,
    log_warnings_one_line,
    serving_refusal,
)
from okf_explorer.tui.web.gate import Gate

PROG = "okf-explorer web"
MAX_SESSIONS = 16
"""Explorer processes running at once; one more browser tab is told to come back later."""
SESSION_STOP_GRACE = 5.0
"""Seconds a session gets to quit (when its tab closes or the server stops) before a kill."""
HEARTBEAT = 15.0
"""Seconds between websocket pings: a browser gone without a word ends its session."""
MAX_TERMINAL_CELLS = 1000
"""The widest and tallest terminal a browser may ask for, in cells: at the start (the
`/ws` query) and in every `resize` message (a 20000×20000 screen grew a session to
4.5 GB)."""

log = logging.getLogger("okf_explorer.web")


def say(message: str) -> None:
    print(f"{PROG}: {printable(message)}", file=sys.stderr, flush=True)


def run_web(
    brain: Any,
    session_argv: Sequence[str],
    *,
    host: str = DEFAULT_HOST,
    port: int = WEB_PORT,
    token: str | None = None,
) -> int:
    """Serve the explorer over `brain`'s source until interrupted; returns the exit code.

    `session_argv` is the command each browser session runs (`okf-explorer browse …`).
    Exit 2: a non-loopback bind without a token (`net.serving_refusal`, as for `serve`).
    Exit 1: the port cannot be bound or the source cannot be indexed. Exit 0: stopped by
    a signal.
    """
    token = token or None
    refusal = serving_refusal(host, token)
    if refusal is not None:
        say(refusal)
        return EXIT_USAGE
    try:
        listener = bind_listener(host, port)
    except OSError as error:
        say(f"cannot listen on {host}:{port}: {error.strerror or error}")
        return EXIT_FAILED
    try:
        pages = len(brain.ensure_index().pages)  # also warms the cache every session reads
    except OkfError as error:
        listener.close()
        say(str(error))
        return EXIT_FAILED
    _one_line_logs()
    where = f"{base_url(host, listener)}/"
    banner = f"{where} · {pages} pages" + (" · token required" if token else "")
    server = ExplorerWebServer(session_argv, Gate(token, loopback=is_loopback(host)))
    try:
        asyncio.run(server.serve_until_stopped(listener, banner))
    finally:
        listener.close()
    return EXIT_OK


class ExplorerWebServer(Server):
    """textual-serve's server, behind the gate, with its sessions counted and ended."""

    def __init__(self, session_argv: Sequence[str], gate: Gate) -> None:
        # `exec`: the shell becomes the explorer, so ending the process ends the session.
        super().__init__("exec " + shlex.join(session_argv), title="okf-explorer")
        self.gate = gate
        self._sessions: set[asyncio.Task[Any]] = set()
        self._endings: set[asyncio.Task[None]] = set()  # sessions quitting (or being killed)

    def initialize_logging(self) -> None:
        """Ours is set up by `run_web` (one line a record, warnings and up)."""

    async def on_startup(self, app: web.Application) -> None:
        """No banner of textual-serve's: `run_web` prints ours."""

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        self.gate.install(app)
        return app

    async def handle_index(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """The page, pointing its websocket at the address the browser used."""
        self.public_url = f"{request.scheme}://{request.host}"
        return await super().handle_index(request)

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """One browser session: start an explorer process, relay until either side ends."""
        if len(self._sessions) + len(self._endings) >= MAX_SESSIONS:
            return web.Response(status=503, text=f"too many sessions (at most {MAX_SESSIONS})\n")
        task = asyncio.current_task()
        assert task is not None
        self._sessions.add(task)
        websocket = web.WebSocketResponse(heartbeat=HEARTBEAT)
        service: AppService | None = None
        try:
            await websocket.prepare(request)
            service = SizedAppService(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
            )
            await service.start(_cells(request, "width", 80), _cells(request, "height", 24))
            await self._process_messages(websocket, service)
        except Exception as error:  # a malformed message from the browser ends its session only
            log.warning("a browser session ended: %s", type(error).__name__)
        finally:
            self._sessions.discard(task)
            if service is not None:
                # A task of its own: aiohttp cancels this handler when the browser goes away,
                # and the process must still be ended (and counted until it is).
                ending = asyncio.create_task(_end_session(service))
                self._endings.add(ending)
                ending.add_done_callback(self._endings.discard)
                await asyncio.shield(ending)
            with contextlib.suppress(Exception):
                await websocket.close()
        return websocket

    async def serve_until_stopped(self, listener: socket.socket, banner: str) -> None:
        """Serve on `listener` until SIGINT/SIGTERM, then end every session and stop."""
        runner = web.AppRunner(
            await self._make_app(), handle_signals=False, access_log=None, shutdown_timeout=1
        )
        await runner.setup()
        await web.SockSite(runner, listener).start()
        say(banner)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        try:
            await stop.wait()
        finally:
            sessions = list(self._sessions)
            for task in sessions:
                task.cancel()
            await asyncio.gather(*sessions, return_exceptions=True)
            await asyncio.gather(*self._endings, return_exceptions=True)
            await runner.cleanup()


async def _end_session(service: AppService) -> None:
    """Ask the explorer to quit; kill it if it has not within the grace period."""
    with contextlib.suppress(asyncio.TimeoutError, OSError, RuntimeError):
        await asyncio.wait_for(service.stop(), SESSION_STOP_GRACE)
    process = service._process  # textual-serve keeps no public handle on it
    if process is None or process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    await process.wait()


class SizedAppService(AppService):
    """textual-serve's session, told only terminal sizes within `MAX_TERMINAL_CELLS`."""

    async def set_terminal_size(self, width: int, height: int) -> None:
        """Every `resize` message from the browser: whole numbers, clamped. Anything
        else is a malformed message, which ends the session."""
        if not all(type(value) is int for value in (width, height)):
            raise ValueError("a resize needs whole numbers of cells")
        await super().set_terminal_size(clamp_cells(width), clamp_cells(height))


def clamp_cells(value: int) -> int:
    return min(max(value, 1), MAX_TERMINAL_CELLS)


def _cells(request: web.Request, name: str, default: int) -> int:
    try:
        value = int(request.query.get(name, default))
    except ValueError:
        return default
    return clamp_cells(value)


class _ReapedTwice(logging.Filter):
    """Drop asyncio's "Unknown child process pid N" warning: a session's process is
    awaited both by textual-serve and by `_end_session`, and whichever reaps it second
    finds it gone. The process did end; nothing is lost."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Unknown child process pid")


def _one_line_logs() -> None:
    """aiohttp and textual-serve log warnings and errors one line each, on stderr."""
    logging.getLogger("asyncio").addFilter(_ReapedTwice())
    log_warnings_one_line()
