"""Scaling of the link parser on adversarial input, and throughput of the resolver.

Run: `/tmp/venv/bin/python tests/bench/bench_links.py [--max-mb 8]`

For each adversarial shape it prints the parse time at 1, 2, 4, 8 MB and the
ratio to the 1 MB case: linear parsing shows ratios near 1, 2, 4, 8 (a
quadratic parser would show 4, 16, 64). Times are CPU times, best of two.
It then times a realistic corpus (pages of ~1.3 KB with a few links) and
`SlugResolver.resolve` calls.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from okf_explorer.core.links import SlugResolver, extract_links

MB = 1_000_000

SHAPES: dict[str, Callable[[int], str]] = {
    "brackets [[[[": lambda n: "[" * n,
    "unclosed wiki [[aaaa": lambda n: "[[" + "a" * n,
    "unclosed dest [a](": lambda n: "[a](" * (n // 4),
    "unclosed alias [[a|": lambda n: "[[a|" * (n // 4),
    "nested [[a][a]...": lambda n: "[" + "[a]" * (n // 3),
    "unclosed title": lambda n: '[x](a.md "' * (n // 10),
    "escapes \\[\\[": lambda n: "\\[" * (n // 2),
    "fences ```": lambda n: "```\n[[a]]\n```\n" * (n // 14),
    "unclosed fence": lambda n: "```\n" + "[[a]] " * (n // 6),
    "backtick runs": lambda n: (
        "[x] " + "".join("`" * (i % 97 + 1) + " [y] " for i in range(n // 55))
    ),
    "one backtick run": lambda n: "[" + "`" * n + "]",
    "ref definitions": lambda n: "[r]: a.md\n[r]\n" * (n // 14),
    "one long line of links": lambda n: "see [[page]] and [d](x.md) " * (n // 27),
}


def _time(func: Callable[[], object], repeat: int = 1) -> float:
    """Best CPU time of `repeat` runs (CPU time, so other load on a shared machine
    distorts the ratios less than wall-clock time would)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        func()
        best = min(best, time.process_time() - start)
    return best


def bench_scaling(max_mb: int) -> None:
    sizes = [s for s in (1, 2, 4, 8) if s <= max_mb]
    print(f"{'shape':26s}" + "".join(f"{s:>5d} MB (ratio)" for s in sizes))
    for name, make in SHAPES.items():
        times = []
        for size in sizes:
            text = make(size * MB)
            times.append(_time(lambda text=text: extract_links(text), repeat=2))
        cells = "".join(f"{t * 1000:8.0f} ms ({t / times[0]:4.1f})" for t in times)
        print(f"{name:26s}{cells}")


def _page(rng: random.Random, slugs: list[str]) -> str:
    words = ["the", "of", "and", "a", "to", "in", "is", "for", "data", "table", "orders"]
    parts = []
    for _ in range(300):
        parts.append(rng.choice(words))
        if rng.random() < 0.015:
            parts.append(f"[[{rng.choice(slugs).rsplit('/', 1)[-1]}]]")
        if rng.random() < 0.005:
            parts.append(f"[see](/{rng.choice(slugs)}.md)")
    return " ".join(parts) + "\n\n```\ncode [[not a link]]\n```\n"


def bench_corpus(pages: int) -> None:
    rng = random.Random(7)
    slugs = [f"folder{i % 50}/page-{i}" for i in range(pages)]
    texts = [_page(rng, slugs) for _ in range(2000)]
    total_bytes = sum(map(len, texts))
    elapsed = _time(lambda: [extract_links(t) for t in texts])
    per_page = elapsed / len(texts)
    print(
        f"\nparse: {len(texts)} pages of ~{total_bytes // len(texts)} B: "
        f"{per_page * 1e6:.0f} µs/page, {total_bytes / elapsed / MB:.1f} MB/s "
        f"→ ~{per_page * pages:.1f} s for {pages} pages"
    )
    titles = {s: s.rsplit("/", 1)[-1].replace("-", " ").title() for s in slugs}
    build = _time(lambda: SlugResolver(slugs, titles))
    resolver = SlugResolver(slugs, titles)
    targets = [
        (rng.choice(slugs).rsplit("/", 1)[-1], "wiki")
        if i % 3
        else (f"/{rng.choice(slugs)}.md", "markdown")
        for i in range(500_000)
    ]
    targets[::7] = [("Missing Page", "wiki")] * len(targets[::7])
    elapsed = _time(lambda: [resolver.resolve(t, "folder1/page-1", k) for t, k in targets])
    print(
        f"resolver: built for {pages} slugs in {build:.2f} s; "
        f"{len(targets)} resolves in {elapsed:.2f} s ({elapsed / len(targets) * 1e6:.1f} µs each)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-mb", type=int, default=8, help="largest adversarial size (1-8)")
    parser.add_argument("--pages", type=int, default=100_000, help="corpus size for the resolver")
    args = parser.parse_args()
    bench_scaling(args.max_mb)
    bench_corpus(args.pages)


if __name__ == "__main__":
    main()
