"""Benchmark: our own `serve` on loopback, the figures GBRAIN_PROTOCOL §8 gives for gbrain.

Run: `/tmp/venv/bin/python tests/bench/bench_server.py [pages] [--seed S]` (default 2,000
pages). Not collected by pytest. Generates a bundle (`gen_bundle.py`), starts the server
as a subprocess (`tests/mcp_server_fixture.py`), and prints: start-up with a cold index,
enumeration with `list_pages`, `get_page` latency, `get_backlinks hub` cold and warm,
`traverse_graph hub depth 2 in`, and a body scan (one `get_page` per page) with 1 and 8
requests in flight.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.gen_bundle import generate
from tests.mcp_server_fixture import serve_bundle

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def call(http: httpx.Client, url: str, name: str, args: dict[str, Any]) -> tuple[Any, int]:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": args},
    }
    reply = http.post(url, content=json.dumps(body), headers=HEADERS)
    result = json.loads(reply.text.split("data: ", 1)[1])["result"]
    assert not result.get("isError"), result
    return json.loads(result["content"][0]["text"]), len(reply.content)


def timed(action: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    times, value = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        value = action()
        times.append(time.perf_counter() - started)
    return statistics.median(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", type=int, nargs="?", default=2000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="okf-bench-server-") as tmp:
        root = Path(tmp) / "bundle"
        generate(root, options.pages, options.seed)
        started = time.perf_counter()
        with serve_bundle(root) as server, httpx.Client(timeout=300) as http:
            print(f"start, cold index: {time.perf_counter() - started:.2f} s")
            url = server.url

            def enumerate_all() -> list[str]:
                seen: list[str] = []
                while rows := call(
                    http, url, "list_pages", {"sort": "slug", "limit": 100, "offset": len(seen)}
                )[0]:
                    seen += [row["slug"] for row in rows]
                return seen

            took, slugs = timed(enumerate_all, 3)
            print(f"enumerate {len(slugs)} pages with list_pages: median {took * 1000:.0f} ms")
            took, _ = timed(lambda: call(http, url, "get_page", {"slug": slugs[10]}), 50)
            print(f"get_page: median {took * 1000:.1f} ms")
            took, (rows, size) = timed(lambda: call(http, url, "get_backlinks", {"slug": "hub"}))
            print(
                f"get_backlinks hub, cold: {len(rows)} rows, {size / 1e6:.2f} MB,",
                f"{took * 1000:.0f} ms",
            )
            took, _ = timed(lambda: call(http, url, "get_backlinks", {"slug": "hub"}), 5)
            print(f"get_backlinks hub, warm: median {took * 1000:.0f} ms")
            args = {"slug": "hub", "depth": 2, "direction": "in"}
            took, (rows, size) = timed(lambda: call(http, url, "traverse_graph", args))
            print(
                f"traverse_graph hub depth 2 in: {len(rows)} rows, {size / 1e6:.2f} MB,",
                f"{took:.2f} s",
            )
            for workers in (1, 8):
                with ThreadPoolExecutor(workers) as pool:
                    took, _ = timed(
                        lambda: list(
                            pool.map(lambda s: call(http, url, "get_page", {"slug": s}), slugs)
                        )
                    )
                print(
                    f"body scan, {workers} in flight: {took:.1f} s",
                    f"({took / len(slugs) * 1000:.1f} ms a page)",
                )


if __name__ == "__main__":
    main()
