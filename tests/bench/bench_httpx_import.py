"""What `fast_httpx` saves: the start of a CLI run against an MCP brain.

Run: `.venv/bin/python tests/bench/bench_httpx_import.py [--runs 15]`

Alternating fast and plain (`OKF_EXPLORER_PLAIN=1`) runs of two fresh processes:
`import`: `import okf_explorer.sources.gbrain.source` (what any MCP source loads), and `cli`:
`okf-explorer --source http://127.0.0.1:9/mcp list` (refused at once: start-up,
imports and one failed connection, the fixed cost of every MCP command). Prints the
best and the median wall time of each. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CLI = str(Path(sys.executable).with_name("okf-explorer"))
COMMANDS = {
    "import": [sys.executable, "-c", "import okf_explorer.sources.gbrain.source"],
    "cli": [CLI, "--source", "http://127.0.0.1:9/mcp", "list"],
}


def wall(command: list[str], plain: bool) -> float:
    env = {**os.environ, "OKF_EXPLORER_PLAIN": "1" if plain else "0"}
    start = time.perf_counter()
    subprocess.run(command, env=env, capture_output=True, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    for name, command in COMMANDS.items():
        times: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(args.runs):
            for plain in (False, True):
                times[plain].append(wall(command, plain))
        fast, slow = times[False], times[True]
        fast_mid, slow_mid = statistics.median(fast), statistics.median(slow)
        print(
            f"{name:6} fast best {min(fast) * 1000:5.0f} ms median {fast_mid * 1000:5.0f}"
            f"  plain best {min(slow) * 1000:5.0f} ms median {slow_mid * 1000:5.0f}"
            f"  saves {1 - min(fast) / min(slow):4.0%} (best)"
            f" {1 - fast_mid / slow_mid:4.0%} (median)"
        )


if __name__ == "__main__":
    main()
