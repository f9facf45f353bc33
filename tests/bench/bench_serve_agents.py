"""Benchmark: the agents' side of `serve` (issue 26): the handshake on a big cold bundle,
the agents' tools on a warm index, and many clients at once.

Run: `.venv/bin/python tests/bench/bench_serve_agents.py [--handshake-pages N]
[--pages N] [--clients N] [--calls N] [--seed S]` (defaults 100,000 / 10,000 / 50 / 10).
Not collected by pytest. Generates bundles (`gen_bundle.py`, kept under the system temp
folder by size and seed, so a second run skips generating them) and prints:

- `initialize` and `tools/list` on a cold 100k-page bundle (no index cache): over stdio,
  from spawning `serve --stdio` to each reply; over HTTP, from the first answer of
  `/health` to each reply, with the index still building (target: `initialize` <= 1 s);
- at 10k pages over loopback HTTP: `find_paths` k=3 and `build_context` depth 1 on
  several pairs / pages, a first pass (pages touched for the first time) and a warm one
  (target: <= 100 ms each, warm);
- N clients at once, each with its own connection: `initialize`, then M calls mixing
  `find_paths`, `build_context`, `get_page`, `graph_stats` and `wanted_pages`; the errors
  (must be 0), wall time, per-call median and p95, and the server's peak memory.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.gen_bundle import GENERATOR_VERSION, generate
from tests.mcp_server_fixture import (
    MCP_HEADERS,
    TOOLS_LIST,
    ServerHandle,
    free_port,
    initialize,
    serve_bundle,
    stdio_command,
    subprocess_env,
)

HEADERS = MCP_HEADERS
INIT = initialize("bench-serve-agents")
LIST = TOOLS_LIST


def bundle(pages: int, seed: int) -> Path:
    """A generated bundle of `pages`, reused across runs (same size, seed and generator)."""
    root = Path(tempfile.gettempdir()) / f"okf-bench-agents-{pages}-{seed}-v{GENERATOR_VERSION}"
    done = root / ".generated"
    if not done.exists():
        started = time.perf_counter()
        generate(root, pages, seed)
        done.write_text("", encoding="utf-8")
        print(f"(generated {pages} pages in {time.perf_counter() - started:.0f} s: {root})")
    return root


class ToolFailed(RuntimeError):
    """An `isError` reply; `code` is its `error` field (`no_path`, `indexing`, ...)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        try:
            self.code = json.loads(text).get("error")
        except (ValueError, AttributeError):
            self.code = None


def payload(reply: httpx.Response) -> Any:
    """The decoded value of a one-call POST (error replies raise `ToolFailed`)."""
    (data,) = [line for line in reply.text.splitlines() if line.startswith("data: ")]
    message = json.loads(data[len("data: ") :])
    result = message["result"]
    if result.get("isError"):
        raise ToolFailed(result["content"][0]["text"])
    return json.loads(result["content"][0]["text"]) if "content" in result else result


def tool(http: httpx.Client, url: str, name: str, arguments: dict[str, Any]) -> Any:
    body = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    return payload(http.post(url, json=body, headers=HEADERS))


def milliseconds(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"median {statistics.median(ordered) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
        f"worst {ordered[-1] * 1000:.1f} ms ({len(ordered)} calls)"
    )


# -- the handshake, cold --------------------------------------------------------------------


def handshake_over_stdio(root: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="okf-bench-agents-") as work:
        started = time.perf_counter()
        process = subprocess.Popen(
            stdio_command(root),
            env=subprocess_env(Path(work)),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write((json.dumps(INIT) + "\n" + json.dumps(LIST) + "\n").encode())
            process.stdin.flush()
            init = json.loads(process.stdout.readline())
            answered = time.perf_counter() - started
            tools = json.loads(process.stdout.readline())
            listed = time.perf_counter() - started
            assert init["id"] == 0 and tools["id"] == 1, (init, tools)
        finally:
            process.kill()
            process.wait()
    print(
        f"stdio, cold: initialize {answered:.2f} s after spawning serve --stdio, "
        f"tools/list ({len(tools['result']['tools'])} tools) {listed:.2f} s"
    )


def handshake_over_http(root: Path) -> None:
    handle = ServerHandle(root=root, port=free_port(), wait_for_index=False)
    started = time.perf_counter()
    handle.start()  # returns once /health answers
    try:
        healthy = time.perf_counter() - started
        with httpx.Client(base_url=handle.base_url, headers=HEADERS, timeout=60) as http:
            state = http.get("/health").json()["index"]["state"]
            sent = time.perf_counter()
            http.post("/mcp", json=INIT).raise_for_status()
            init = time.perf_counter() - sent
            sent = time.perf_counter()
            http.post("/mcp", json=LIST).raise_for_status()
            listed = time.perf_counter() - sent
            still = http.get("/health").json()["index"]["state"]
    finally:
        handle.close()
    print(
        f"http, cold: /health after {healthy:.2f} s (index {state}); initialize "
        f"{init * 1000:.0f} ms, tools/list {listed * 1000:.0f} ms (index then {still})"
    )


def entries(pack: dict[str, Any]) -> int:
    """How many neighbours a `build_context` pack carries."""
    return sum(
        len(hop["links_out"]) + len(hop["backlinks"]) + sum(map(len, hop["relations"].values()))
        for hop in pack["hops"]
    )


# -- the tools, warm ------------------------------------------------------------------------


def warm_tools(root: Path) -> None:
    """Each question twice: the first pass touches pages for the first time (their text is
    read and its sentences found), the second is the warm figure the targets are about."""
    with serve_bundle(root) as server, httpx.Client(timeout=120) as http:
        url = server.url
        slugs = [row["slug"] for row in tool(http, url, "list_pages", {"limit": 100})]
        pairs = list(zip(slugs[:20], reversed(slugs[-20:]), strict=True))
        for label in ("first touch", "warm"):
            found, unjoined, times = 0, 0, []
            for frm, to in pairs:
                started = time.perf_counter()
                try:
                    found += len(tool(http, url, "find_paths", {"from": frm, "to": to, "k": 3}))
                except ToolFailed as failed:
                    if failed.code != "no_path":
                        raise
                    unjoined += 1
                times.append(time.perf_counter() - started)
            print(
                f"find_paths k=3, {label}: {milliseconds(times)}; {found} paths in all, "
                f"{unjoined} pairs without one"
            )
        for name, pages in (("build_context depth 1", slugs[:40]), ("... of hub", ["hub"] * 3)):
            for label in ("first touch", "warm"):
                times, sizes = [], []
                for slug in pages:
                    started = time.perf_counter()
                    pack = tool(http, url, "build_context", {"slug": slug, "depth": 1})
                    times.append(time.perf_counter() - started)
                    sizes.append(entries(pack))
                print(
                    f"{name}, {label}: {milliseconds(times)}; "
                    f"entries median {statistics.median(sizes)}"
                )


# -- many clients ---------------------------------------------------------------------------


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def many_clients(root: Path, clients: int, calls: int) -> None:
    with serve_bundle(root) as server, httpx.Client(timeout=120) as http:
        assert server.process is not None
        url = server.url
        slugs = [row["slug"] for row in tool(http, url, "list_pages", {"limit": 100})]
        mix: list[Callable[[int], tuple[str, dict[str, Any]]]] = [
            lambda i: ("find_paths", {"from": slugs[i % 100], "to": slugs[-1 - i % 50], "k": 3}),
            lambda i: ("build_context", {"slug": slugs[i % 100], "depth": 1}),
            lambda i: ("get_page", {"slug": slugs[i % 100]}),
            lambda i: ("graph_stats", {"top": 3}),
            lambda i: ("wanted_pages", {"limit": 20}),
        ]
        errors: list[str] = []
        times: list[float] = []
        lock = threading.Lock()
        gate = threading.Barrier(clients)

        def client(number: int) -> None:
            with httpx.Client(timeout=120) as own:
                try:
                    gate.wait()
                    own.post(url, json=INIT, headers=HEADERS).raise_for_status()
                    for call in range(calls):
                        name, arguments = mix[(number + call) % len(mix)](number * calls + call)
                        started = time.perf_counter()
                        try:
                            tool(own, url, name, arguments)
                        except ToolFailed as failed:  # no path is an answer, not an error
                            if failed.code != "no_path":
                                raise
                        with lock:
                            times.append(time.perf_counter() - started)
                except Exception as error:  # counted, the benchmark goes on
                    with lock:
                        errors.append(f"{type(error).__name__}: {error}"[:200])

        started = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(client, range(clients)))
        wall = time.perf_counter() - started
        peak = peak_rss_mb(server.process.pid)
    print(
        f"{clients} clients x {calls} calls at once: {len(errors)} errors, {wall:.1f} s wall; "
        f"per call {milliseconds(times)}; server peak RSS {peak:.0f} MB"
    )
    for error in errors[:5]:
        print(f"  error: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--handshake-pages", type=int, default=100_000)
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-handshake", action="store_true")
    options = parser.parse_args()
    if not options.skip_handshake:
        big = bundle(options.handshake_pages, options.seed)
        print(f"-- the handshake, {options.handshake_pages} pages, cold")
        handshake_over_stdio(big)
        handshake_over_http(big)
    root = bundle(options.pages, options.seed)
    print(f"-- the agents' tools, {options.pages} pages")
    warm_tools(root)
    many_clients(root, options.clients, options.calls)


if __name__ == "__main__":
    main()
