"""`run_server`: bind, print the banner, serve until SIGINT/SIGTERM; the index builds
behind the handshake once the transport is up (`warmup`), and one more line says when
it is done.

Everything the user sees goes to stderr as one line (stdout belongs to the
MCP stream in `--stdio` mode). The token is never printed.

A signal while calls run (`mcp_app.Shutdown`): the calls are cancelled and answered
at once (HTTP 503; over stdio an `isError` reply), one line says so, and the process
exits within `SHUTDOWN_BUDGET`; a watchdog ends it then if tool work has not stopped.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from okf_explorer.core.text_safety import printable
from okf_explorer.net import (
    DEFAULT_HOST,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    SERVE_PORT,
    base_url,
    bind_listener,
    log_warnings_one_line,
    serving_refusal,
)
from okf_explorer.server.limits import SHUTDOWN_BUDGET

if TYPE_CHECKING:  # the MCP SDK loads only when a server starts
    from okf_explorer.server.mcp_app import Shutdown

PROG = "okf-explorer serve"


def say(message: str) -> None:
    """One line on stderr; a source label or reason cannot drive the terminal."""
    print(f"{PROG}: {printable(message)}", file=sys.stderr, flush=True)


def run_server(
    brain: Any,
    *,
    host: str = DEFAULT_HOST,
    port: int = SERVE_PORT,
    stdio: bool = False,
    token: str | None = None,
    shapes: str = "current",
    show_private: bool = False,
) -> int:
    """Serve `brain` read-only over MCP until interrupted; returns the exit code.
    `shapes` is whose gbrain shapes the tools give (`tools.GBRAIN_SHAPES`);
    `show_private`: its callers see pages marked `visibility: private` too (`server.tools`).

    Exit 2: a non-loopback bind without a token, or a token holding whitespace (no
    client can send it in an `Authorization: Bearer` header). Exit 1: the port cannot be
    bound. Exit 0: stopped by SIGINT/SIGTERM (or, with `stdio`, the client closed
    stdin). A source that cannot be indexed is said in one line; the server goes on,
    and each call that needs the index tries again and reports why it cannot.
    """
    token = token or None
    refusal = serving_refusal(None if stdio else host, token)
    if refusal is not None:
        say(refusal)
        return EXIT_USAGE
    quiet_logs()
    try:
        with _interrupts_as_keyboard_interrupt():
            return _run(brain, host, port, stdio, token, shapes, show_private)
    except KeyboardInterrupt:
        return EXIT_OK


def _run(
    brain: Any,
    host: str,
    port: int,
    stdio: bool,
    token: str | None,
    shapes: str,
    show_private: bool,
) -> int:
    """Bind, index, print the banner, serve (SIGTERM arrives as KeyboardInterrupt)."""
    from okf_explorer.server.mcp_app import FreshBrain

    try:
        listener = None if stdio else bind_listener(host, port)
    except OSError as error:
        say(f"cannot listen on {host}:{port}: {error.strerror or error}")
        return EXIT_FAILED
    fresh = FreshBrain(brain, announce=say, shapes=shapes, show_private=show_private)
    if stdio:
        say("stdio · read-only · indexing")
        return _serve_stdio(fresh)
    assert listener is not None
    where = f"{base_url(host, listener)}/mcp"
    say(f"{where} · read-only" + (" · token required" if token else "") + " · indexing")
    return _serve_http(fresh, listener, token)


def _serve_http(fresh: Any, listener: socket.socket, token: str | None) -> int:
    import uvicorn

    from okf_explorer.server.http_app import HeadDeadlineProtocol, build_http_app
    from okf_explorer.server.limits import KEEP_ALIVE_TIMEOUT, MAX_HEADER_BYTES

    class StoppingServer(uvicorn.Server):
        """uvicorn's server, whose signal handler also stops the calls in flight."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            _stop(fresh.shutdown, sig, wait_for=fresh.shutdown.done)
            super().handle_exit(sig, frame)

    app = build_http_app(fresh, token=token)
    config = uvicorn.Config(
        app,
        http=HeadDeadlineProtocol,
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=SHUTDOWN_BUDGET,
    )
    server = StoppingServer(config)
    # uvicorn handles SIGINT/SIGTERM itself and re-raises the signal after a
    # graceful shutdown; with no-op handlers underneath that ends in exit 0.
    previous = {sig: signal.signal(sig, _ignore) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        listener.close()
    shutdown = fresh.shutdown
    if shutdown.requested():
        if not shutdown.wait_idle(shutdown.deadline - time.monotonic()):
            _exit_now(shutdown)  # tool work that does not stop must not hold the process
        _last_word(shutdown)
        shutdown.done.set()
    return EXIT_OK


def _serve_stdio(fresh: Any) -> int:
    from okf_explorer.server.mcp_app import build_mcp_server
    from okf_explorer.server.stdio import serve_stdio

    # stdin is read by a worker thread that no cancellation can interrupt, so a
    # signal ends the process directly, once the calls in flight are answered.
    shutdown = fresh.shutdown

    def stop(signum: int, frame: object) -> None:
        _stop(shutdown, signum, wait_for=shutdown.settled)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        import anyio

        server = build_mcp_server(fresh)
        fresh.start_indexing()
        with contextlib.suppress(KeyboardInterrupt):
            anyio.run(serve_stdio, server, shutdown)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if shutdown.requested():  # stdin ended during the stop: the process ends here, not
        _last_word(shutdown)  # in the watchdog, so the line is said here
    return EXIT_OK


def _stop(shutdown: Shutdown, signum: int, *, wait_for: threading.Event) -> None:
    """Request the stop (from a signal handler) and start the watchdog that ends the
    process once `wait_for` is set or `SHUTDOWN_BUDGET` has passed, whichever is first
    (a second signal changes nothing)."""
    if shutdown.requested():
        return
    shutdown.request(signal.Signals(signum).name)

    def watchdog() -> None:
        if wait_for.wait(SHUTDOWN_BUDGET) and wait_for is shutdown.done:
            return  # the main thread stopped in time and returns normally
        _exit_now(shutdown)

    threading.Thread(target=watchdog, name="okf-serve-watchdog", daemon=True).start()


def _ignore(signum: int, frame: object) -> None:
    """A no-op signal handler."""


def _last_word(shutdown: Shutdown) -> None:
    shutdown.say_last_word(say)


def _exit_now(shutdown: Shutdown) -> None:
    """End the process now, after the one line and whatever was already answered.

    An index build may be under way (`server.warmup`) with scan workers: those known
    are killed first; one still being started ends by itself once the server has
    gone (`sources.folder.scan._start_worker`), and never holds its stdout."""
    _last_word(shutdown)
    for worker in multiprocessing.active_children():
        with contextlib.suppress(OSError):
            worker.kill()
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(EXIT_OK)


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _interrupts_as_keyboard_interrupt() -> Iterator[None]:
    """SIGTERM behaves like Ctrl-C until a transport installs its own handlers."""
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def quiet_logs() -> None:
    """The SDK logs every request at INFO and unknown tools at WARNING: keep stderr clean.

    Warnings and errors go to stderr one line each (unless the embedding program
    configured logging itself)."""
    for name in ("mcp", "mcp.server.lowlevel.server", "mcp.server.streamable_http"):
        logging.getLogger(name).setLevel(logging.ERROR)
    log_warnings_one_line()
