"""Run our own MCP server (`okf-explorer serve`) in a subprocess for tests.

Usage (a context manager, or wrap it in a pytest fixture of any scope):

    with serve_bundle(tmp_path, token="secret") as server:
        httpx.post(server.url, ...)       # server.url == "http://127.0.0.1:PORT/mcp"
        server.stop()                     # simulate the server going away
        server.restart()                  # same port, same bundle, same token

The server is started as `python -m okf_explorer serve ROOT --port P` (the
`okf-explorer` CLI). A token is passed through a `--token-file` (never on the
command line, where `ps` would show it).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import httpx

STARTUP_TIMEOUT = 20.0
STOP_TIMEOUT = 5.0
HOST = "127.0.0.1"


def free_port() -> int:
    """A loopback port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def stdio_command(root: Path) -> list[str]:
    """The argv of `okf-explorer serve ROOT --stdio` (MCP on its stdin/stdout)."""
    return [sys.executable, "-m", "okf_explorer", "serve", str(root), "--stdio"]


def serve_command(
    root: Path, port: int, token_file: Path | None, options: tuple[str, ...] = ()
) -> list[str]:
    """The argv that starts a server on `root` at `127.0.0.1:port`, with `serve`'s
    `options`."""
    argv = [*stdio_command(root)[:-1], "--host", HOST, "--port", str(port), *options]
    if token_file is not None:
        argv += ["--token-file", str(token_file)]
    return argv


def subprocess_env(work: Path) -> dict[str, str]:
    """The subprocess's environment: a private index cache (kept across restarts), and
    no source or token leaking in from the developer's shell."""
    env = dict(os.environ)
    for name in ("OKF_SOURCE", "GBRAIN_MCP_URL", "GBRAIN_TOKEN"):
        env.pop(name, None)
    env["OKF_EXPLORER_CACHE"] = str(work / "cache")
    return env


PORT_ATTEMPTS = 5
"""How many free ports a first start tries before it gives up."""


class PortTaken(RuntimeError):
    """The server could not bind its port: someone took it after `free_port` chose it."""


@dataclass
class ServerHandle:
    """A running server subprocess: `url` is its `/mcp` endpoint."""

    root: Path
    port: int
    token: str | None = None
    options: tuple[str, ...] = ()
    """`serve`'s options beside the address and the token (`--show-private`)."""
    process: subprocess.Popen[bytes] | None = None
    wait_for_index: bool = True
    """`start` returns once the index is built (the server answers before; tests that
    look at that pass False)."""
    _started: bool = field(default=False, repr=False)
    _work_dir: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)
    _stderr_file: IO[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/mcp"

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def health_url(self) -> str:
        return f"{self.base_url}/health"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        """Start the subprocess and wait until `/health` answers (else raise with stderr).

        A port from `free_port` is free when chosen, not when the server binds it: another
        test (an xdist worker) may take it in between. The first start then moves to a
        fresh port; a restart keeps its port (the tests hold its URL)."""
        if self.running:
            return
        for _ in range(PORT_ATTEMPTS - 1 if not self._started else 0):
            try:
                self._start_once()
            except PortTaken:
                self.port = free_port()
                continue
            self._started = True
            return
        self._start_once()
        self._started = True

    def _start_once(self) -> None:
        if self._work_dir is None:
            self._work_dir = tempfile.TemporaryDirectory(prefix="okf-serve-")
        work = Path(self._work_dir.name)
        token_file: Path | None = None
        if self.token is not None:
            token_file = work / "token"
            token_file.write_text(self.token + "\n", encoding="utf-8")
            token_file.chmod(0o600)
        # stderr goes to a file, not a pipe: a pipe nobody reads would block the server.
        self._stderr_file = (work / "stderr").open("w+b")
        self.process = subprocess.Popen(
            serve_command(self.root, self.port, token_file, self.options),
            env=subprocess_env(work),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._stderr_file,
        )
        self._wait_healthy()

    def _wait_healthy(self) -> None:
        """Until `/health` answers (and says the index is built, unless told not to)."""
        deadline = time.monotonic() + STARTUP_TIMEOUT
        assert self.process is not None
        with httpx.Client(timeout=1.0) as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    said = self.stderr_text()
                    self.stop()
                    if "cannot listen on" in said:
                        raise PortTaken(said)
                    raise RuntimeError(f"server exited early: {said}")
                if f":{self.port}/mcp" not in self.stderr_text():
                    # No banner yet: whoever answers on this port now is not our server.
                    time.sleep(0.05)
                    continue
                with contextlib.suppress(httpx.HTTPError):
                    health = http.get(self.health_url)
                    index = health.json().get("index", {}) if health.status_code == 200 else {}
                    if health.status_code == 200 and (
                        not self.wait_for_index or index.get("state") != "building"
                    ):
                        return
                time.sleep(0.05)
        self.stop()
        waited = f"{STARTUP_TIMEOUT:.0f} s"
        raise RuntimeError(f"server not healthy after {waited}: {self.stderr_text()}")

    def stderr_text(self) -> str:
        """What the server wrote on stderr so far (banner, warnings)."""
        if self._work_dir is None:
            return ""
        path = Path(self._work_dir.name) / "stderr"
        try:
            return path.read_bytes().decode("utf-8", "replace").strip()
        except OSError:
            return ""

    def stop(self) -> int | None:
        """SIGTERM, then kill after a grace period; returns the exit code."""
        process, self.process = self.process, None
        if process is None:
            return None
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._stderr_file is not None:
            self._stderr_file.close()
            self._stderr_file = None
        return process.returncode

    def restart(self) -> None:
        """Stop, then start again on the same port with the same bundle and token."""
        self.stop()
        self.start()

    def close(self) -> None:
        self.stop()
        if self._work_dir is not None:
            self._work_dir.cleanup()
            self._work_dir = None


@contextlib.contextmanager
def serve_bundle(
    root: Path, *, token: str | None = None, options: tuple[str, ...] = ()
) -> Iterator[ServerHandle]:
    """A server on `root` for the duration of the `with` block (on a free loopback port),
    started with `serve`'s `options`."""
    handle = ServerHandle(root=Path(root), port=free_port(), token=token, options=options)
    try:
        handle.start()
        yield handle
    finally:
        handle.close()


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
"""What a streamable-HTTP MCP client sends with each POST."""
TOOLS_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


def initialize(client: str = "okf-explorer-tests", version: str = "2025-06-18") -> dict:
    """The `initialize` request (id 0) of a client named `client`."""
    return {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": client, "version": "0"},
        },
    }


def stdio_session(*calls: dict) -> str:
    """An MCP stdio session: initialize, then one `tools/call` per item."""
    messages: list[dict] = [
        initialize(version="2025-03-26"),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    for number, call in enumerate(calls, start=1):
        messages.append({"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": call})
    return "".join(json.dumps(message) + "\n" for message in messages)
