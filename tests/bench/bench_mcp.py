"""Benchmark: backlinks of `hub` over MCP, five ways, against our own `serve` on loopback.

Run: `/tmp/venv/bin/python tests/bench/bench_mcp.py [pages] [--seed S] [--repeat R]`
(default 2,000 pages). Not collected by pytest. It generates a bundle where every page
links to `hub` (`gen_bundle.py`), serves it, warms the server's own index, then times:

  (a)  the straightforward client: page through `list_pages`, one `get_page` per page
       in sequence, parse the bodies, collect the pages linking to `hub`;
  (b)  ours, forced body scan, cold cache: `Brain(McpSource, scan=True).backlinks("hub")`;
  (b') the same with the index cache from (b) present (re-list, nothing changed);
  (c)  ours through the server's stored graph (`get_backlinks`): a fresh `Brain` on a
       new connection, as one CLI run pays it (initialize, tools/list, the root's
       get_page, get_backlinks);
  (c') the same on an open, initialised connection, as the TUI asks for a new page
       (the root's get_page, get_backlinks);
  (d)  one raw `get_backlinks` call on an open connection.

(a) and (b) run once (they are long); (b'), (c), (c') and (d) report the median of `--repeat`
runs. All answers are checked against each other before the table is printed. For (a) and
(b) it also prints the CPU seconds the client (this process) and the server subprocess
spent (Linux `/proc`), which says where a scan's time goes when both share two cores.
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
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from okf_explorer.core.brain import Brain  # noqa: E402
from okf_explorer.core.links import SlugResolver, extract_links  # noqa: E402
from okf_explorer.sources.frontmatter import split_frontmatter  # noqa: E402
from okf_explorer.sources.gbrain.source import McpSource  # noqa: E402
from tests.bench.gen_bundle import generate  # noqa: E402
from tests.mcp_server_fixture import serve_bundle  # noqa: E402

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


class NaiveClient:
    """What a first MCP client looks like: one request at a time, no cache."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.Client(headers=HEADERS, timeout=30.0)
        self.ids = 0
        self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "naive", "version": "0"}})  # fmt: skip
        self.http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"})

    def rpc(self, method: str, params: dict[str, Any]) -> Any:
        self.ids += 1
        body = {"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params}
        response = self.http.post(self.url, json=body)
        response.raise_for_status()
        for line in response.text.splitlines():
            if line.startswith("data:"):
                return json.loads(line[5:])["result"]
        return response.json()["result"]

    def tool(self, name: str, arguments: dict[str, Any]) -> Any:
        result = self.rpc("tools/call", {"name": name, "arguments": arguments})
        return json.loads(result["content"][0]["text"])

    def close(self) -> None:
        self.http.close()


def naive_backlinks(url: str, target: str) -> list[str]:
    client = NaiveClient(url)
    rows: list[dict[str, Any]] = []
    while True:
        page = client.tool("list_pages", {"sort": "slug", "limit": 100, "offset": len(rows)})
        rows += page
        if len(page) < 100:
            break
    slugs = [row["slug"] for row in rows]
    resolver = SlugResolver(slugs, {row["slug"]: row["title"] for row in rows})
    found = []
    for slug in slugs:
        page = client.tool("get_page", {"slug": slug, "include_content": True})
        _, body, _ = split_frontmatter(page["content"])
        links = extract_links(body)
        if any(resolver.resolve(link.target, slug, link.kind).slug == target for link in links):
            found.append(slug)
    client.close()
    return found


def raw_backlinks(client: NaiveClient, target: str) -> list[str]:
    rows = client.tool("get_backlinks", {"slug": target})
    return sorted({row["from_slug"] for row in rows})


def ours(url: str, target: str, *, scan: bool, cache: Path | bool) -> list[str]:
    brain = Brain(McpSource(url, token=None, token_source="no token"), scan=scan, cache_dir=cache)
    try:
        return brain.backlinks(target)
    finally:
        brain.close()


def server_cpu(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far (0 where /proc is missing)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def with_cpu(
    fn: Callable[[], Any], pid: int, cpu: dict[str, tuple[float, float]], name: str
) -> Callable[[], Any]:
    """`fn`, recording (client, server) CPU seconds of its last run under `name`."""

    def run() -> Any:
        client, server = time.process_time(), server_cpu(pid)
        answer = fn()
        cpu[name] = (time.process_time() - client, server_cpu(pid) - server)
        return answer

    return run


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """Median wall time in seconds over `repeat` runs, and the last answer."""
    times, answer = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        answer = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="?", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-mcp-") as work:
        root, cache = Path(work) / "bundle", Path(work) / "client-cache"
        root.mkdir()
        generate(root, args.pages, args.seed)
        os.environ["OKF_EXPLORER_CACHE"] = str(Path(work) / "server-cache")
        with serve_bundle(root) as server:
            url = server.url
            warm_up, _ = timed(lambda: NaiveClient(url).tool("get_backlinks", {"slug": "hub"}))
            raw = NaiveClient(url)
            connected = McpSource(url, token=None, token_source="no token")
            pid = server.process.pid if server.process else 0
            cpu: dict[str, tuple[float, float]] = {}
            naive = with_cpu(lambda: naive_backlinks(url, "hub"), pid, cpu, "(a)")
            cold = with_cpu(lambda: ours(url, "hub", scan=True, cache=cache), pid, cpu, "(b)")
            rows = [
                ("(a) list_pages + sequential get_page + parse", *timed(naive)),
                ("(b) ours, --scan, cold cache", *timed(cold)),
                ("(b') ours, --scan, warm cache",
                 *timed(lambda: ours(url, "hub", scan=True, cache=cache), args.repeat)),
                ("(c) ours, fast path, new connection (CLI)",
                 *timed(lambda: ours(url, "hub", scan=False, cache=False), args.repeat)),
                ("(c') ours, fast path, open connection (TUI)",
                 *timed(lambda: Brain(connected, cache_dir=False).backlinks("hub"), args.repeat)),
                ("(d) one raw get_backlinks, open connection",
                 *timed(lambda: raw_backlinks(raw, "hub"), args.repeat)),
            ]  # fmt: skip
            connected.close()
            raw.close()
    report(rows, args.pages, warm_up, cpu)


def report(
    rows: list[tuple[str, float, list[str]]],
    pages: int,
    warm_up: float,
    cpu: dict[str, tuple[float, float]],
) -> None:
    answers = {name: sorted(answer) for name, _, answer in rows}
    scans = [answers[name] for name, _, _ in rows[:3]]
    fast = [answers[name] for name, _, _ in rows[3:]]
    if scans.count(scans[0]) != 3 or fast.count(fast[0]) != 3:
        raise SystemExit("answers differ between approaches: " + json.dumps(
            {name: len(found) for name, found in answers.items()}))  # fmt: skip
    if set(fast[0]) - set(scans[0]):
        raise SystemExit("the server lists backlinks that the bodies do not contain")
    base = {name: seconds for name, seconds, _ in rows}
    a, d = base[rows[0][0]], base[rows[5][0]]
    print(f"\n{pages} pages, backlinks of `hub` ({len(scans[0])} pages link to it); "
          f"server index warm-up {warm_up:.2f} s\n")  # fmt: skip
    print("| approach | time | vs (a) | vs (d) |")
    print("|---|---:|---:|---:|")
    for name, seconds, _ in rows:
        print(f"| {name} | {_fmt(seconds)} | {a / seconds:.1f}× faster | {seconds / d:.1f}× |")
    print(f"\ntargets: (b) ≥ 10× faster than (a): cold {a / base[rows[1][0]]:.1f}×, "
          f"warm {a / base[rows[2][0]]:.1f}×; (c) within 2× of (d): new connection "
          f"{base[rows[3][0]] / d:.2f}×, open connection {base[rows[4][0]] / d:.2f}×")  # fmt: skip
    for name, (client, server) in cpu.items():
        print(f"{name} CPU seconds: client {client:.2f}, server {server:.2f}")


def _fmt(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


if __name__ == "__main__":
    main()
