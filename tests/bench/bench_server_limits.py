"""Benchmark: what one hostile request costs `serve` (issue 7 item 5).

Run: `.venv/bin/python tests/bench/bench_server_limits.py [pages] [--seed S] [--batch N]`
(default 1,000 pages, a batch of 20). Not collected by pytest. Generates a bundle
(`gen_bundle.py`), starts the server (`tests/mcp_server_fixture.py`), then sends one
`traverse_graph hub depth 10 both` and a batch of N of them, and prints for each the
reply size, the wall time, and the server's peak and current RSS (`/proc/PID/status`).
Before the caps the batch of 20 on 1,000 pages gave a 292 MB reply and a 1.26 GB peak.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.gen_bundle import generate
from tests.mcp_server_fixture import serve_bundle

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
ARGUMENTS = {"slug": "hub", "depth": 10, "direction": "both"}


def memory_mb(pid: int) -> tuple[float, float]:
    """(peak, current) resident memory of `pid`, in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value
    return int(fields["VmHWM"].split()[0]) / 1024, int(fields["VmRSS"].split()[0]) / 1024


def traversal(request_id: int) -> dict[str, Any]:
    params = {"name": "traverse_graph", "arguments": ARGUMENTS}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def measure(label: str, url: str, pid: int, body: Any) -> None:
    started = time.perf_counter()
    reply = httpx.post(url, json=body, headers=HEADERS, timeout=600)
    seconds = time.perf_counter() - started
    errors = reply.text.count('"error":{"code"')
    peak, now = memory_mb(pid)
    print(
        f"{label:<28} HTTP {reply.status_code}  {len(reply.content) / 1e6:7.1f} MB  "
        f"{seconds:6.2f} s  {errors:3d} refused  peak RSS {peak:6.0f} MB  now {now:5.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("pages", type=int, nargs="?", default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="okf-bench-limits-") as work:
        root = Path(work) / "bundle"
        generate(root, args.pages, args.seed)
        with serve_bundle(root) as server:
            assert server.process is not None
            pid = server.process.pid
            peak, now = memory_mb(pid)
            print(
                f"{args.pages} pages; server after start-up: peak {peak:.0f} MB, now {now:.0f} MB"
            )
            measure("one traversal", server.url, pid, traversal(1))
            batch = [traversal(i) for i in range(args.batch)]
            measure(f"batch of {args.batch} traversals", server.url, pid, batch)


if __name__ == "__main__":
    main()
