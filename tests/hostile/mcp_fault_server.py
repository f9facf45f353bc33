"""A small, real MCP server on loopback that misbehaves on `tools/call`, and a CLI runner.

`fault_server(fault)` starts a `ThreadingHTTPServer` on 127.0.0.1 in a thread. It
speaks enough MCP for our client to get to the point: `initialize`, the
`notifications/initialized` notification, `tools/list` (list_pages, get_page), and
refuses batches (the client then sends single calls). Every `tools/call` is handed to
`fault(handler, request)`, which writes whatever reply (or non-reply) it likes with
the helpers on `FaultHandler`. Trickling faults stop once the server is shut down.

`run_cli(args)` runs `okf-explorer ARGS` in a fresh interpreter and reports the
exit status, stderr, wall time and the child's own peak RSS (`VmHWM` on Linux, where
`resource`'s `ru_maxrss` also counts the pytest process it was forked from), optionally
after setting module constants (`overrides`) so a test can use a small ceiling.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Fault = Callable[["FaultHandler", dict[str, Any]], None]

TOOLS = [{"name": "list_pages", "inputSchema": {}}, {"name": "get_page", "inputSchema": {}}]


class FaultHandler(BaseHTTPRequestHandler):
    """One connection of the fault server (HTTP/1.1, keep-alive)."""

    protocol_version = "HTTP/1.1"
    server: FaultHTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test output is the client's."""

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        request = json.loads(self.rfile.read(length))
        if isinstance(request, list):
            self.send_json({"jsonrpc": "2.0", "id": None, "error": {"code": -32600,
                            "message": "batches are not supported"}}, status=400)  # fmt: skip
            return
        method = request.get("method")
        if method == "initialize":
            result = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fault-server", "version": "0"},
            }
            self.send_result(request, result)
        elif "id" not in request:
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif method == "tools/list":
            self.send_result(request, {"tools": TOOLS})
        elif method == "tools/call":
            try:
                self.server.fault(self, request)
            except OSError:  # the client hung up: that is what these faults provoke
                self.close_connection = True
        else:
            self.send_json({"jsonrpc": "2.0", "id": request.get("id"),
                            "error": {"code": -32601, "message": "no such method"}})  # fmt: skip

    # -- helpers for faults ---------------------------------------------------------------

    def send_json(self, message: Any, status: int = 200) -> None:
        body = json.dumps(message).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_result(self, request: dict[str, Any], result: Any) -> None:
        self.send_json({"jsonrpc": "2.0", "id": request["id"], "result": result})

    def send_tool_payload(self, request: dict[str, Any], payload: Any) -> None:
        """A gbrain-shaped tool result: the payload as JSON text in `content[0]`."""
        self.send_result(request, {"content": [{"type": "text", "text": json.dumps(payload)}]})

    def send_head(self, content_type: str, extra: dict[str, str] | None = None) -> None:
        """Status and headers of a body that ends when the connection closes."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def trickle(self, data: bytes, every_s: float, for_s: float = 60.0) -> None:
        """`data` once every `every_s` seconds until `for_s` pass or the server stops."""
        stop = time.monotonic() + for_s
        while time.monotonic() < stop and not self.server.stopping.is_set():
            self.wfile.write(data)
            self.wfile.flush()
            time.sleep(every_s)

    def stream(self, chunk: bytes, total: int) -> None:
        """`chunk` again and again, `total` bytes in all (or until the client hangs up)."""
        sent = 0
        while sent < total and not self.server.stopping.is_set():
            self.wfile.write(chunk)
            sent += len(chunk)


class FaultHTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, fault: Fault) -> None:
        super().__init__(("127.0.0.1", 0), FaultHandler)
        self.fault = fault
        self.stopping = threading.Event()
        self.calls = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/mcp"


@contextlib.contextmanager
def fault_server(fault: Fault) -> Iterator[FaultHTTPServer]:
    """A running fault server; shut down (trickles stopped) on exit."""
    server = FaultHTTPServer(fault)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield server
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


# -- the CLI in a subprocess ----------------------------------------------------------------

_RUNNER = """
import importlib, json, os, resource, sys
for target, value in json.loads(os.environ.get("OKF_TEST_OVERRIDES", "{}")).items():
    module, name = target.split(":")
    setattr(importlib.import_module(module), name, value)
from okf_explorer.cli import main
exit_status = main(sys.argv[1:])
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:  # Linux: ru_maxrss keeps the parent's peak across fork+exec; VmHWM is ours alone
    with open("/proc/self/status", encoding="ascii") as proc_status:
        for line in proc_status:
            if line.startswith("VmHWM:"):
                peak_kb = int(line.split()[1])
except OSError:
    pass
with open(os.environ["OKF_TEST_RSS_FILE"], "w") as out:
    out.write(str(peak_kb))
sys.exit(exit_status)
"""


@dataclass(frozen=True)
class CliRun:
    status: int
    stdout: str
    stderr: str
    seconds: float
    peak_rss_mb: float


def run_cli(
    args: list[str],
    *,
    overrides: dict[str, Any] | None = None,
    kill_after_s: float = 30.0,
    env: dict[str, str] | None = None,
) -> CliRun:
    """`okf-explorer ARGS` in a fresh interpreter. `overrides` maps `module:NAME` to a
    value set before the CLI starts; `env` adds to the environment. Raises
    `subprocess.TimeoutExpired` past `kill_after_s` (a hang)."""
    with tempfile.TemporaryDirectory() as work:
        rss_file = Path(work) / "rss"
        env = dict(os.environ, **(env or {}), OKF_TEST_RSS_FILE=str(rss_file))
        env["OKF_TEST_OVERRIDES"] = json.dumps(overrides or {})
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-c", _RUNNER, *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=kill_after_s,
            check=False,
        )
        seconds = time.monotonic() - started
        rss_kb = int(rss_file.read_text()) if rss_file.exists() else 0
    return CliRun(done.returncode, done.stdout, done.stderr, seconds, rss_kb / 1024)
