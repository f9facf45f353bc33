"""Benchmark: `okf-explorer audit` of a generated folder (default 2,000 pages) against
our own `serve` (target ≤ 10 s) and against the real gbrain (target ≤ 30 s), both on
loopback. Not collected by pytest.

Run: `.venv/bin/python tests/bench/bench_audit.py [pages] [--no-gbrain]`. Prints the
edges on each side, the counts per cause, and the wall time of the audit alone (the
servers' start, and gbrain's import and link extraction, are timed apart).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from okf_explorer.sources.audit_gather import run_audit
from okf_explorer.sources.factory import open_source
from tests.bench.gen_bundle import generate
from tests.gbrain_peer import start_gbrain, stop_gbrain
from tests.mcp_server_fixture import serve_bundle


def timed_audit(label: str, folder: Path, url: str, token_file: Path | None) -> None:
    source = open_source(url, token_file=token_file, timeout=60)
    try:
        started = time.perf_counter()
        run = run_audit(folder, source)  # type: ignore[arg-type]  (an MCP URL)
        took = time.perf_counter() - started
    finally:
        source.close()
    causes = Counter(d.cause for d in run.differences)
    phases = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in run.seconds.items())
    print(
        f"{label}: audit {took:.1f} s ({phases}); files {run.files_edges} edges, server "
        f"{run.server_edges} edges; {dict(sorted(causes.items()))}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", type=int, nargs="?", default=2000)
    parser.add_argument("--no-gbrain", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "bundle"
        generate(folder, args.pages)
        started = time.perf_counter()
        with serve_bundle(folder) as server:
            print(f"our serve: started in {time.perf_counter() - started:.1f} s")
            timed_audit("our serve", folder, server.url, None)
        if args.no_gbrain:
            return
        started = time.perf_counter()
        peer = start_gbrain(folder, timeout=600)
        print(f"gbrain: import + extract + start {time.perf_counter() - started:.1f} s")
        try:
            timed_audit("gbrain", folder, peer.url, peer.token_file)
        finally:
            stop_gbrain(peer)


if __name__ == "__main__":
    main()
