"""Benchmark: `serve`'s fast paths against the SDK / library path they shadow, same run.

Run: `.venv/bin/python tests/bench/bench_server_paths.py [pages] [--seed S] [--rounds R]`
(default 2,000 pages). Not collected by pytest.

* `fast_calls` (plain `tools/call` without the SDK's per-request session) against the
  SDK path, on one server: the same call with `_meta` in its params goes through the
  SDK (as tests/test_server_http.py uses), so the two differ by nothing else. Calls
  alternate between the two, so load on the machine hits both alike.
* `fast_json.fast_pretty` against `json.dumps(indent=2)`, in-process on the values of
  real replies, alone and as part of the whole tool call (`call_tool`).

Prints medians and the ratio SDK / fast (library / fast) for each.
"""

from __future__ import annotations

import argparse
import json
import os
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
from okf_explorer.core.brain import Brain
from okf_explorer.server import fast_json, tools
from okf_explorer.server.shapes import ContextCache
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bench.gen_bundle import generate
from tests.mcp_server_fixture import serve_bundle

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def request(rid: int, name: str, args: dict[str, Any], via_sdk: bool) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, "arguments": args}
    if via_sdk:
        params["_meta"] = {"progressToken": rid}  # not plain: the SDK answers it
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}


def paired(
    label: str, rounds: int, fast: Callable[[], Any], slow: Callable[[], Any], slow_name: str
) -> None:
    """Alternate `fast` and `slow`; print both medians and slow / fast."""
    times: dict[str, list[float]] = {"fast": [], "slow": []}
    for _ in range(rounds):
        for key, action in (("fast", fast), ("slow", slow)):
            started = time.perf_counter()
            action()
            times[key].append(time.perf_counter() - started)
    f, s = statistics.median(times["fast"]), statistics.median(times["slow"])
    print(f"{label}: fast {f * 1000:.2f} ms, {slow_name} {s * 1000:.2f} ms, ratio {s / f:.2f}x")


def bench_calls(root: Path, slugs: list[str], rounds: int) -> None:
    with serve_bundle(root) as server, httpx.Client(timeout=300) as http:

        def post(body: Any) -> bytes:
            reply = http.post(server.url, content=json.dumps(body), headers=HEADERS)
            assert reply.status_code == 200, reply.text
            return reply.content

        def same(name: str, args: dict[str, Any]) -> None:
            fast = post(request(1, name, args, False))
            assert fast == post(request(1, name, args, True)), f"{name}: replies differ"

        one = {"slug": slugs[10]}
        same("get_page", one)
        paired(
            "tools/call get_page, 1 a POST",
            rounds,
            lambda: post(request(1, "get_page", one, False)),
            lambda: post(request(1, "get_page", one, True)),
            "SDK",
        )
        batch = slugs[20:40]
        paired(
            "tools/call get_page, batch of 20 a POST",
            max(5, rounds // 5),
            lambda: post([request(i, "get_page", {"slug": s}, False) for i, s in enumerate(batch)]),
            lambda: post([request(i, "get_page", {"slug": s}, True) for i, s in enumerate(batch)]),
            "SDK",
        )
        scan = slugs[:200]
        with ThreadPoolExecutor(8) as pool:
            paired(
                "tools/call get_page, 200 single calls 8 in flight",
                max(3, rounds // 30),
                lambda: list(
                    pool.map(lambda s: post(request(1, "get_page", {"slug": s}, False)), scan)
                ),
                lambda: list(
                    pool.map(lambda s: post(request(1, "get_page", {"slug": s}, True)), scan)
                ),
                "SDK",
            )
        hub = {"slug": "hub"}
        same("get_backlinks", hub)
        paired(
            "tools/call get_backlinks hub (warm)",
            max(5, rounds // 10),
            lambda: post(request(1, "get_backlinks", hub, False)),
            lambda: post(request(1, "get_backlinks", hub, True)),
            "SDK",
        )


def bench_json(root: Path, slugs: list[str], rounds: int) -> None:
    brain = Brain(BundleSource(root))
    try:
        brain.ensure_index()
        cases = {
            "get_page": ("get_page", {"slug": slugs[10], "include_content": True}),
            "list_pages 100": ("list_pages", {"limit": 100}),
            "get_backlinks hub": ("get_backlinks", {"slug": "hub"}),
            "traverse_graph hub depth 2 in": (
                "traverse_graph",
                {"slug": "hub", "depth": 2, "direction": "in"},
            ),
        }
        library = fast_json.fast_pretty.__globals__["json"]
        for label, (name, args) in cases.items():
            value = tools.call_tool(brain, name, args, contexts=CONTEXTS).value

            def std(value: Any = value) -> str:
                return library.dumps(value, ensure_ascii=False, indent=2)

            assert fast_json.fast_pretty(value) == std()
            paired(
                f"pretty JSON of {label}",
                rounds,
                lambda value=value: fast_json.fast_pretty(value),
                std,
                "json.dumps",
            )
            paired(
                f"whole call_tool {label}",
                max(5, rounds // 4),
                lambda name=name, args=args: _call(brain, name, args, fast=True),
                lambda name=name, args=args: _call(brain, name, args, fast=False),
                "json.dumps",
            )
    finally:
        brain.close()


CONTEXTS = ContextCache()  # as the server keeps one: link contexts are read once


def _call(brain: Brain, name: str, args: dict[str, Any], *, fast: bool) -> str:
    os.environ["OKF_EXPLORER_PLAIN"] = "0" if fast else "1"
    try:
        return tools.call_tool(brain, name, args, contexts=CONTEXTS).text
    finally:
        os.environ.pop("OKF_EXPLORER_PLAIN", None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", type=int, nargs="?", default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=200)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="okf-bench-paths-") as tmp:
        root = Path(tmp) / "bundle"
        os.environ["OKF_EXPLORER_CACHE"] = str(Path(tmp) / "cache")
        slugs = sorted(generate(root, options.pages, options.seed))
        bench_calls(root, slugs, options.rounds)
        bench_json(root, slugs, options.rounds)


if __name__ == "__main__":
    main()
