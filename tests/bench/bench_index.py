"""Benchmark: building the link index vs. a naive index-free BFS.

    /tmp/venv/bin/python tests/bench/bench_index.py                  # N = 1000, 10000
    /tmp/venv/bin/python tests/bench/bench_index.py --sizes 100000   # opt-in, takes minutes
    /tmp/venv/bin/python tests/bench/bench_index.py --sizes 10000 --repeat 5   # best of 5

Per size N, a bundle from `gen_bundle.generate(N, seed)` (kept under
`--workdir` and reused between runs). Each measurement runs in its own
subprocess: cold index build (empty disk cache), warm build (cache present,
nothing changed; a fresh process loading it, as at start-up), the peak RSS of
the build (`RUSAGE_CHILDREN` max-RSS after the build subprocess), and BFS
depth 10 over the index (the real `graph.traverse_with`) for `out`, `in` and
`both`, from two roots: `hub` (every generated page links to it) and a
typical page (`mid_degree_root`: the median total degree, chosen
deterministically from the index).

The naive baseline answers the same query, BFS depth 10 `both`, per root,
without an index, as a script would: each `out` hop reads the frontier's
files, each `in` hop reads every file; one regex pass per file read. From
`hub` its `in` pass ends after two hops (every page links to hub), so it reads
the corpus only ~4 times; from a typical page it reads it ~8 times: both rows
are printed, with cold/naive and warm/naive per root. On a shared machine pass
`--repeat K`: the cold build and the naive baseline then run K times, in turns,
the tables show the best of each, and the cold/naive ratio of every turn is
summed up below them (range and median). "Cold" means an empty
*index* cache; the OS page cache is warm (the bundle was just written or read),
which flatters the naive baseline. The naive baseline can be skipped above
`--naive-max` pages. Times are wall-clock with CPU seconds in brackets (process
plus its scan workers, so CPU can exceed wall time): on a shared, loaded
machine the CPU figures are the steadier ones.
"Cold index" ends when `build_index` returns the index, its cache written.
Not collected by pytest; never asserts timings.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_bundle import GENERATOR_VERSION, generate

HERE = Path(__file__).resolve()


# ---------------------------------------------------------------- children


def cpu_seconds() -> float:
    """CPU time of this process and its waited-for children (the scan workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def child_build(root: str, cache_dir: str) -> dict:
    """One index build against the cache folder (empty → cold, filled → warm)."""
    from okf_explorer.core.index.build import build_index
    from okf_explorer.core.index.store import IndexCache
    from okf_explorer.sources.folder.bundle import BundleSource

    source = BundleSource(root)
    cpu, start = cpu_seconds(), time.perf_counter()
    index = build_index(source, cache=IndexCache(cache_dir))
    elapsed, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    links = sum(len(links) for links in index.forward.values())
    return {
        "seconds": elapsed,
        "cpu": cpu,
        "pages": len(index.pages),
        "links": links,
        "self_maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


DIRECTIONS = ("out", "in", "both")


def mid_degree_root(index: object) -> str:
    """A typical page, chosen deterministically: among readable, non-reserved pages with
    at least one link in and one out (`hub` excluded), the median by total degree, ties
    broken by slug order."""
    pages, reverse, targets = index.pages, index.reverse, index.targets  # type: ignore[attr-defined]
    ranked = sorted(
        (len(reverse.get(slug, ())) + len(targets.get(slug, ())), slug)
        for slug, info in pages.items()
        if info.readable
        and not info.reserved
        and slug != "hub"
        and reverse.get(slug)
        and targets.get(slug)
    )
    return ranked[len(ranked) // 2][1]


def child_bfs(root: str, cache_dir: str) -> dict:
    """BFS depth 10 per root (`hub`, a mid-degree page) and direction over an index loaded
    from the warm cache; best of three."""
    from okf_explorer.core.graph.traverse import traverse_with
    from okf_explorer.core.index.build import build_index
    from okf_explorer.core.index.store import IndexCache
    from okf_explorer.sources.folder.bundle import BundleSource

    index = build_index(BundleSource(root), cache=IndexCache(cache_dir))
    result: dict = {"roots": ["hub", mid_degree_root(index)]}
    for start_node in result["roots"]:
        for direction in DIRECTIONS:
            best = best_cpu = float("inf")
            for _ in range(3):
                cpu, start = time.process_time(), time.perf_counter()
                edges = traverse_with(start_node, 10, direction, index.out_slugs, index.in_slugs)
                best = min(best, time.perf_counter() - start)
                best_cpu = min(best_cpu, time.process_time() - cpu)
                count = len(edges)
                del edges
            result[f"{start_node}|{direction}"] = {"seconds": best, "cpu": best_cpu, "edges": count}
    return result


_NAIVE_LINK = re.compile(r"(!?)\[\[([^\]|#\\]+)[^\]]*\]\]|\]\(<?([^)>]+?\.md)(?:#[^)>]*)?>?\)")


def child_naive(root: str, start_node: str) -> dict:
    """BFS depth 10 `both` from `start_node` with no index, as a script without one would:
    each `out` hop reads the frontier's files, each `in` hop reads every file; one regex
    pass per file read. Names are resolved with three dicts (exact, case-folded, basename)."""
    cpu, start = cpu_seconds(), time.perf_counter()
    slugs = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel = os.path.relpath(folder, root)
        for name in files:
            if name.endswith(".md") and not name.startswith("."):
                slugs.append(posixpath.normpath(posixpath.join(rel, name[:-3])))
    slugs.sort()
    exists = set(slugs)
    by_name: dict[str, str] = {}
    lower = {slug.lower(): slug for slug in slugs}
    for slug in sorted(slugs, key=lambda s: (s.count("/"), s)):
        by_name.setdefault(slug.rsplit("/", 1)[-1].lower(), slug)
    reads = 0

    def links_of(slug: str) -> list[str]:
        nonlocal reads
        reads += 1
        with open(os.path.join(root, slug + ".md"), encoding="utf-8") as handle:
            text = handle.read()
        found: dict[str, None] = {}
        for match in _NAIVE_LINK.finditer(text):
            if match.group(2) is not None:
                name = match.group(2).strip()
                node = lower.get(name.lower()) or by_name.get(name.lower(), name)
            else:
                path = unquote(match.group(3))
                base = "" if path.startswith("/") else posixpath.dirname(slug)
                node = posixpath.normpath(posixpath.join(base, path.lstrip("/")))[:-3]
            found[node] = None
        return list(found)

    edges = 0
    for direction in ("out", "in"):
        visited, frontier = {start_node}, [start_node]
        for _hop in range(10):
            nxt: dict[str, None] = {}
            if direction == "out":
                for node in frontier:
                    if node in exists:
                        for target in links_of(node):
                            edges += 1
                            nxt[target] = None
            else:
                wanted = set(frontier)
                for slug in slugs:
                    hits = wanted.intersection(links_of(slug))
                    edges += len(hits)
                    if hits:
                        nxt[slug] = None
            frontier = [node for node in nxt if node not in visited]
            visited.update(frontier)
            if not frontier:
                break
    return {
        "seconds": time.perf_counter() - start,
        "cpu": cpu_seconds() - cpu,
        "edges": edges,
        "reads": reads,
        "pages": len(slugs),
    }


# ---------------------------------------------------------------- parent


def run_child(kind: str, *args: str) -> tuple[dict, int]:
    """Run one measurement in a fresh interpreter; returns its result and max-RSS so far (KiB)."""
    out = subprocess.run(
        [sys.executable, str(HERE), "--child", kind, *args],
        check=True,
        capture_output=True,
        text=True,
    )
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return json.loads(out.stdout.strip().splitlines()[-1]), rss


def bundle_for(workdir: Path, n: int, seed: int) -> Path:
    root = workdir / f"bundle-{n}-{seed}-v{GENERATOR_VERSION}"
    marker = root / ".generated"
    if not marker.exists():
        generate(root, n, seed)
        marker.write_text("ok")
    return root


def cold_build(workdir: Path, root: Path) -> dict:
    """One cold build in a fresh interpreter with an empty cache folder."""
    cache_dir = tempfile.mkdtemp(prefix="okf-bench-cache-", dir=workdir)
    try:
        return run_child("build", str(root), cache_dir)[0]
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)


def measure(workdir: Path, n: int, seed: int, naive: bool, repeat: int = 1) -> dict:
    """One row; with `repeat` > 1, the cold build and the naive baseline run that many
    times, in turns, and the best of each is kept (the ratio of each turn is kept too)."""
    root = bundle_for(workdir, n, seed)
    cache_dir = tempfile.mkdtemp(prefix="okf-bench-cache-", dir=workdir)
    try:
        cold, rss = run_child("build", str(root), cache_dir)
        warm, _ = run_child("build", str(root), cache_dir)
        bfs, _ = run_child("bfs", str(root), cache_dir)
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)  # ~100 MB at 100k pages
    roots = bfs.pop("roots")
    turns: list[tuple[dict, dict]] = []
    for turn in range(repeat if naive else 0):
        again = cold if turn == 0 else cold_build(workdir, root)
        turns.append((again, {start: run_child("naive", str(root), start)[0] for start in roots}))
    if turns:
        cold = min((again for again, _ in turns), key=lambda result: result["seconds"])
    row = {
        "n": n,
        "pages": cold["pages"],
        "links": cold["links"],
        "cold": cold["seconds"],
        "cold_cpu": cold["cpu"],
        "warm": warm["seconds"],
        "warm_cpu": warm["cpu"],
        "rss_mb": rss / 1024,
        "build_self_rss_mb": cold["self_maxrss_kb"] / 1024,
        "roots": roots,
        "bfs": bfs,
    }
    if turns:
        row["naive"] = {
            start: min((base[start] for _, base in turns), key=lambda result: result["seconds"])
            for start in roots
        }
        row["turn_ratios"] = {
            start: [again["seconds"] / base[start]["seconds"] for again, base in turns]
            for start in roots
        }
    return row


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.3f}" if b else "—"


def table(rows: list[dict]) -> str:
    """Two tables: the index itself, then the query per root against the naive baseline.
    Wall-clock seconds, CPU seconds in brackets (process plus scan workers)."""
    lines = [
        "| N pages | links | cold index | warm index | peak RSS |",
        "|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['pages']:,} | {r['links']:,} | {r['cold']:.2f} s [{r['cold_cpu']:.2f}] "
            f"| {r['warm']:.3f} s [{r['warm_cpu']:.3f}] | {r['rss_mb']:.0f} MB |"
        )
    lines += [
        "",
        "| N pages | root | BFS d10 out | BFS d10 in | BFS d10 both (edges) "
        "| naive d10 both (files read) | cold/naive | warm/naive |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        for start in r["roots"]:
            cells = [f"{r['bfs'][f'{start}|{d}']['seconds']:.3f} s" for d in DIRECTIONS]
            cells[2] += f" ({r['bfs'][f'{start}|both']['edges']:,})"
            base = r.get("naive", {}).get(start)
            if base:
                naive = f"{base['seconds']:.2f} s [{base['cpu']:.2f}] ({base['reads']:,})"
                cold = (
                    f"{_ratio(r['cold'], base['seconds'])} [{_ratio(r['cold_cpu'], base['cpu'])}]"
                )
                warm = (
                    f"{_ratio(r['warm'], base['seconds'])} [{_ratio(r['warm_cpu'], base['cpu'])}]"
                )
            else:
                naive, cold, warm = "skipped", "—", "—"
            lines.append(
                f"| {r['pages']:,} | `{start}` | {' | '.join(cells)} | {naive} | {cold} | {warm} |"
            )
    for r in rows:
        for start, ratios in r.get("turn_ratios", {}).items():
            if len(ratios) > 1:
                lines.append(
                    f"\n{r['pages']:,} pages, `{start}`: cold/naive of each of {len(ratios)} "
                    f"turns {min(ratios):.3f}–{max(ratios):.3f} (median "
                    f"{sorted(ratios)[len(ratios) // 2]:.3f})"
                )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="Index build benchmark (see module docstring).")
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated page counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "okf-bench")
    parser.add_argument(
        "--naive-max",
        type=int,
        default=100_000,
        help="skip the naive baseline above this many pages",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="cold builds and naive baselines per size, in turns; the best of each is shown",
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        fn = {"build": child_build, "bfs": child_bfs, "naive": child_naive}[kind]
        print(json.dumps(fn(*rest)))
        return
    args.workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for n in (int(size) for size in args.sizes.split(",")):
        rows.append(measure(args.workdir, n, args.seed, n <= args.naive_max, max(1, args.repeat)))
        print(json.dumps(rows[-1]), file=sys.stderr)
    print(table(rows))


if __name__ == "__main__":
    main()
