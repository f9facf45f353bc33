"""Benchmark: `walk` from 10 roots at depth 3 on a 10k-page bundle (issue 13: ≤ 200 ms warm).

    .venv/bin/python tests/bench/bench_walk.py [--pages 10000] [--seed 1] [--workdir DIR]

The bundle comes from `gen_bundle.generate` (kept under `--workdir`, reused). The index is
built once (disk cache in the workdir), then, in this one process:

- `first walk`: the first weighted walk over a fresh `Brain` loaded from the warm disk
  cache (pays for the link objects the warm load leaves lazy, and for the weights);
- `walk out` / `walk both`: `Brain.walk` from the 10 roots, depth 3, min weight 0
  (every link followed: the most work), best of 5, weights already worked out;
- `walk out ≥0.1`: the same with `--min-weight 0.1`;
- baseline: the plain SPEC §4 BFS (`Brain.traverse`) depth 3 `out` from each of the 10
  roots, best of 5, and the ratio walk / baseline.

Roots: every 1000th page in slug order (deterministic). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_bundle import GENERATOR_VERSION, generate
from timing import best

from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.bundle import BundleSource


def bundle_for(workdir: Path, n: int, seed: int) -> Path:
    root = workdir / f"bundle-{n}-{seed}-v{GENERATOR_VERSION}"
    marker = root / ".generated"
    if not marker.exists():
        generate(root, n, seed)
        marker.write_text("ok")
    return root


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "okf-bench")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    root = bundle_for(args.workdir, args.pages, args.seed)
    cache = args.workdir / "walk-cache"
    started = time.perf_counter()
    Brain(BundleSource(root), cache_dir=cache).ensure_index()
    print(f"{args.pages} pages: index ready in {time.perf_counter() - started:.2f} s")

    brain = Brain(BundleSource(root), cache_dir=cache)
    index = brain.ensure_index()  # warm load from the disk cache
    slugs = list(index.pages)
    roots = slugs[:: max(1, len(slugs) // 10)][:10]
    started = time.perf_counter()
    rows = brain.walk(roots, 3)
    print(f"first walk (warm-loaded index, weights not yet worked out): "
          f"{(time.perf_counter() - started) * 1000:.0f} ms, {len(rows)} pages")  # fmt: skip

    baseline = best(5, lambda: [brain.traverse(r, 3, "out") for r in roots])
    edges = sum(len(brain.traverse(r, 3, "out")) for r in roots)
    print(f"baseline BFS depth 3 out x10 roots: {baseline * 1000:.1f} ms ({edges} edges)")
    for label, direction, minimum in [
        ("walk out", "out", 0.0),
        ("walk both", "both", 0.0),
        ("walk out ≥0.1", "out", 0.1),
    ]:
        took = best(5, lambda d=direction, m=minimum: brain.walk(roots, 3, m, d))  # type: ignore[misc]
        count = len(brain.walk(roots, 3, minimum, direction))  # type: ignore[arg-type]
        print(
            f"{label:14} depth 3 x10 roots: {took * 1000:6.1f} ms, {count} pages, "
            f"{took / baseline:.1f}x the baseline"
        )


if __name__ == "__main__":
    main()
