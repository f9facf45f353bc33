"""Every non-UI fast path against the library path it shadows, in one run.

Run: `.venv/bin/python tests/bench/bench_fast_paths.py [--pages 10000] [--rounds 5]`
(a few minutes; not collected by pytest; never asserts timings).

Each row turns off **only that fast path** (its module's switch answers "plain"; the
others stay on), alternates fast and library runs so load on a shared machine hits both
alike, and prints the best of `--rounds` each (the median in brackets), their ratio and
the time saved. A fast path earns its keep (`core/fast_paths.py`) at >= 1.5x or >= 10 ms
a person feels, judged on the bests (what the work costs when nothing else runs: on a
shared machine the medians swing with the load); the last column says which rows pass.

- `fast_yaml`: `frontmatter.load_bounded` over every frontmatter block of the bundle;
- `gc_paused build` / `gc_paused walk`: a cold `build_index` (no cache) of the bundle, and a
  depth-10 `both` walk over a 100k-page power-law graph, with the cyclic collector paused
  or running (CPU);
- `freeze_survivors`: one full `gc.collect()` with the built index alive, frozen or not;
- `fast_httpx`: `import okf_explorer.sources.gbrain.source` in a fresh process;
- `word_vectors`: loading the word embeddings and ranking a first question again
  (`meaning.similarities`) in a fresh process, with the peak memory of each;
- `fast_calls`: one `get_page` a POST, and a batch of 20 a POST, against `serve`;
- `task_boxes`: parsing a page of 1,600 tasks (`- [ ] …`) with our task-box rule or
  mdit-py-plugins' task lists (`tui/markdown/parser.py`).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from bench_traverse import power_law_adjacency  # noqa: E402
from gen_bundle import GENERATOR_VERSION, generate  # noqa: E402

PLAIN = SimpleNamespace(enabled=lambda: False, PLAIN_ENV="OKF_EXPLORER_PLAIN")
"""A stand-in for `core.fast_paths` that answers "plain": one module's switch off."""

ROWS: list[tuple[str, str, list[float], list[float]]] = []


@contextlib.contextmanager
def switched_off(module: ModuleType | None) -> Iterator[None]:
    """Turn off the fast path of `module` only (None: leave every path on)."""
    if module is None:
        yield
        return
    if module.__name__ == "okf_explorer.core.fast_paths":
        with collector_left_on():
            yield
        return
    real = module.fast_paths
    module.fast_paths = PLAIN
    try:
        yield
    finally:
        module.fast_paths = real


@contextlib.contextmanager
def collector_left_on() -> Iterator[None]:
    """The collector's fast path off alone (`fast_paths.gc_paused`, `freeze_survivors`):
    `gc.disable` and `gc.freeze` do nothing meanwhile, so the collector runs as it would
    without them, while every other fast path stays on."""
    disable, freeze = gc.disable, gc.freeze
    gc.disable = gc.freeze = lambda: None  # type: ignore[assignment]
    try:
        yield
    finally:
        gc.disable, gc.freeze = disable, freeze


def pair(name: str, what: str, module: ModuleType, run: Callable[[], float], rounds: int) -> None:
    """`run`'s own measure with the fast path on, then off, alternating, `rounds` times each."""
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds):
        for off in (False, True):
            gc.collect()
            with switched_off(module if off else None):
                times[off].append(run())
    record(name, what, times[False], times[True])


def record(name: str, what: str, fast: list[float], library: list[float]) -> None:
    ROWS.append((name, what, fast, library))
    print(row_text(name, what, fast, library), flush=True)


def row_text(name: str, what: str, fast: list[float], library: list[float]) -> str:
    """One row: the best of each side (the median in brackets), ratio and time saved."""
    f, s = min(fast) * 1000, min(library) * 1000
    ratio, saved = s / f if f else float("inf"), s - f
    keep = "keep" if ratio >= 1.5 or saved >= 10 else "drop"
    return (
        f"{name:16} {what:38} fast {f:7.2f} ({statistics.median(fast) * 1000:.2f}) ms  "
        f"library {s:7.2f} ({statistics.median(library) * 1000:.2f}) ms  {ratio:5.2f}x  "
        f"saves {saved:6.1f} ms  {keep}"
    )


def wall(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def cpu(action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


# ------------------------------------------------------------------ in-process


def bench_yaml(root: Path, rounds: int) -> None:
    from bench_yaml import blocks_of

    from okf_explorer.sources import fast_yaml
    from okf_explorer.sources.frontmatter import load_bounded

    blocks = blocks_of(root)

    def load_all() -> None:
        for block in blocks:
            with contextlib.suppress(Exception):
                load_bounded(block)

    pair(
        "fast_yaml",
        f"{len(blocks):,} frontmatter blocks",
        fast_yaml,
        lambda: wall(load_all),
        rounds,
    )


def bench_build(root: Path, rounds: int) -> None:
    from okf_explorer.core import fast_paths
    from okf_explorer.core.index.build import build_index
    from okf_explorer.sources.folder.bundle import BundleSource

    pages = len(list(root.rglob("*.md")))

    def build() -> object:
        return build_index(BundleSource(root), cache=False)

    pair(
        "gc_paused build",
        f"cold build, {pages:,} pages (CPU)",
        fast_paths,
        lambda: cpu(build),
        rounds,
    )

    bench_walk(rounds)

    index = build()  # alive from here on, as in the explorer

    def full_pass() -> float:
        gc.unfreeze()
        gc.collect()
        fast_paths.freeze_survivors()
        return wall(gc.collect)

    pair(
        "freeze_survivors",
        f"full gc pass, {pages:,}-page index alive",
        fast_paths,
        full_pass,
        rounds,
    )
    gc.unfreeze()
    del index


def bench_walk(rounds: int) -> None:
    from okf_explorer.core import fast_paths
    from okf_explorer.core.graph.traverse import traverse_with

    out, reverse = power_law_adjacency(100_000, 7)

    def walk() -> object:
        return traverse_with(
            "pages/p000500", 10, "both", lambda s: out.get(s, ()), lambda s: reverse.get(s, ())
        )

    what = "depth-10 both walk, 100k pages (CPU)"
    pair("gc_paused walk", what, fast_paths, lambda: cpu(walk), rounds)


# ------------------------------------------------------------------ processes


def child_ms(code: str, env: dict[str, str]) -> dict[str, float]:
    """Run `code` in a fresh interpreter; it prints a JSON object of timings."""
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_httpx(rounds: int) -> None:
    code = """
import json, time
start = time.perf_counter()
import okf_explorer.sources.gbrain.source
print(json.dumps({"import": time.perf_counter() - start}))
"""
    # fast_httpx acts at import time, so its switch is the environment variable (no
    # other fast path runs while importing).
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds * 3):
        for plain in (False, True):
            env = dict(os.environ, OKF_EXPLORER_PLAIN="1" if plain else "0")
            times[plain].append(child_ms(code, env)["import"])
    record("fast_httpx", "import the MCP source (fresh process)", times[False], times[True])


def bench_vectors(rounds: int) -> None:
    code = """
import json, resource, time
start = time.perf_counter()
from okf_explorer.core.search import meaning
meaning.similarities("can I get my money back", ["Refund policy", "Keyboard shortcuts"])
took = time.perf_counter() - start
print(json.dumps({"first": took, "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
    # word_vectors reads its switch as the model loads, in a fresh process each time.
    times: dict[bool, list[float]] = {False: [], True: []}
    peaks: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds * 3):
        for plain in (False, True):
            env = dict(os.environ, OKF_EXPLORER_PLAIN="1" if plain else "0")
            env.pop("OKF_EXPLORER_MEANING", None)
            child = child_ms(code, env)
            times[plain].append(child["first"])
            peaks[plain].append(child["mb"])
    what = "load + first question (fresh process)"
    record("word_vectors", what, times[False], times[True])
    print(f"  peak memory of the process: {min(peaks[False]):.0f} vs {min(peaks[True]):.0f} MB")


def bench_calls(root: Path, slugs: list[str], rounds: int) -> None:
    import httpx

    from tests.mcp_server_fixture import serve_bundle

    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

    def request(rid: int, slug: str, via_sdk: bool) -> dict[str, Any]:
        params: dict[str, Any] = {"name": "get_page", "arguments": {"slug": slug}}
        if via_sdk:
            params["_meta"] = {"progressToken": rid}  # not plain: the SDK answers it
        return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}

    with serve_bundle(root) as server, httpx.Client(timeout=300) as http:

        def post(body: Any) -> float:
            start = time.perf_counter()
            reply = http.post(server.url, content=json.dumps(body), headers=headers)
            took = time.perf_counter() - start
            assert reply.status_code == 200, reply.text
            return took

        post(request(1, slugs[10], False))  # the server's index is built
        for label, count, repeat in (("1 get_page a POST", 1, 40), ("20 get_page a POST", 20, 8)):
            times: dict[bool, list[float]] = {False: [], True: []}
            for _ in range(rounds * repeat):
                batch = slugs[20 : 20 + count]
                for via_sdk in (False, True):
                    body = [request(i, s, via_sdk) for i, s in enumerate(batch)]
                    times[via_sdk].append(post(body[0] if count == 1 else body))
            record("fast_calls", label, times[False], times[True])


def bench_tasks(rounds: int) -> None:
    from okf_explorer.tui.markdown import parser

    page = "- [ ] a thing to do, with [[a link]]\n" * 1600
    run = lambda: wall(lambda: parser.parse(page))  # noqa: E731
    pair("task_boxes", "a page of 1,600 tasks parsed", parser, run, rounds)


BENCHES = ("yaml", "build", "httpx", "vectors", "calls", "tasks")


def bundle(workdir: Path, pages: int) -> tuple[Path, list[str]]:
    root = workdir / f"bundle-{pages}-1-v{GENERATOR_VERSION}"
    if not (root / ".generated").exists():
        generate(root, pages, 1)
        (root / ".generated").write_text("ok")
    slugs = sorted(str(p.relative_to(root).with_suffix("")) for p in root.rglob("*.md"))
    return root, slugs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "okf-bench")
    parser.add_argument("--only", nargs="*", choices=BENCHES, default=list(BENCHES))
    args = parser.parse_args()
    big, _ = bundle(args.workdir, args.pages)
    small, small_slugs = bundle(args.workdir, 2000)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["OKF_EXPLORER_CACHE"] = str(Path(tmp) / "cache")
        runs = {
            "yaml": lambda: bench_yaml(big, args.rounds),
            "build": lambda: bench_build(big, args.rounds),
            "httpx": lambda: bench_httpx(args.rounds),
            "vectors": lambda: bench_vectors(args.rounds),
            "calls": lambda: bench_calls(small, small_slugs, args.rounds),
            "tasks": lambda: bench_tasks(args.rounds),
        }
        for name in args.only:
            runs[name]()
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end; summary:")
    for row in ROWS:
        print(row_text(*row))


if __name__ == "__main__":
    main()
