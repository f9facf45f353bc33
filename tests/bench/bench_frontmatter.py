"""Frontmatter parsing: what libyaml's C loader costs on real frontmatter.

Run: `.venv/bin/python tests/bench/bench_frontmatter.py [--rounds 5]`

Three corpora of real-shaped frontmatter blocks:

- `sample brain`: every block of `okf_explorer/sample_brain` (flat keys, flow tag
  lists, dates, a few block lists of words);
- `okf bundle`: OKF pages with title/type/tags/description/status/verified and a
  `sources` list of mappings;
- `synthetic`: the benchmark bundle's blocks (`gen_bundle.py`: title, type, tags, date).

Per block (best of `--rounds`, CPU µs) it times `bounded`: `load_bounded` (what
`split_frontmatter` runs: yaml.CSafeLoader plus the bounds checks), `c`: a bare
`yaml.load(..., CSafeLoader)`, and `python`: `yaml.safe_load` (pure-Python PyYAML).

Why there is no hand-written YAML parser: the subset parser `sources/fastyaml.py`
(deleted with this script's first version) measured, against `bounded`, 1.33× faster
on the sample brain (1.32-1.34× over three runs), 0.80× (slower: it gave up and fell
back) on OKF bundles, and 3.2× only on the synthetic bundle's four-key blocks; the
rule is to prefer the C loader when it is within 1.5× on real frontmatter.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from okf_explorer.sources import frontmatter
from okf_explorer.sources.frontmatter import split_frontmatter

SAMPLE = Path(__file__).resolve().parents[2] / "okf_explorer" / "sample_brain"


def sample_blocks() -> list[str]:
    """The frontmatter blocks of the sample brain (between the fences)."""
    blocks = []
    for path in sorted(SAMPLE.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        if text.startswith("---\n"):
            blocks.append(text[4 : text.index("\n---", 3) + 1])
    return blocks


def okf_blocks(count: int, seed: int = 1) -> list[str]:
    """OKF-bundle-shaped blocks with `sources` as a list of mappings."""
    rng = random.Random(seed)
    words = ["orders", "revenue", "cafe", "roast", "batch", "metric", "churn", "webshop"]
    blocks = []
    for i in range(count):
        tags = ", ".join(rng.sample(words, 3))
        sources = "".join(
            f"  - title: {rng.choice(words).title()} export {j}\n"
            f"    url: https://example.com/{rng.choice(words)}/{i}-{j}\n"
            f"    retrieved: 2026-0{1 + j}-1{i % 10}\n"
            for j in range(rng.randint(1, 3))
        )
        blocks.append(
            f"title: {rng.choice(words).title()} {i}\n"
            f"type: {rng.choice(['table', 'metric', 'decision', 'person'])}\n"
            f"tags: [{tags}]\n"
            f"description: How the {rng.choice(words)} numbers are built, and who owns them.\n"
            f"status: {rng.choice(['active', 'draft', 'deprecated'])}\n"
            f"verified: 2026-1{i % 3}-0{1 + i % 9}\n"
            f"sources:\n{sources}"
        )
    return blocks


def synthetic_blocks(count: int) -> list[str]:
    """The shape `gen_bundle.py` writes on about half its pages."""
    kinds = ["note", "table", "person"]
    return [
        f"title: Page {i} graph index\ntype: {kinds[i % 3]}\n"
        f"tags: [t{i % 7}, t{i % 11}]\nupdated: 2024-0{1 + i % 9}-1{i % 10}\n"
        for i in range(count)
    ]


def bounded(block: str) -> Any:
    return frontmatter.load_bounded(block)


def c_loader(block: str) -> Any:
    return yaml.load(block, Loader=yaml.CSafeLoader)


def per_block(parse: Callable[[str], Any], blocks: list[str], rounds: int) -> float:
    """Best-of-`rounds` CPU µs per block."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for block in blocks:
            parse(block)
        best = min(best, time.process_time() - start)
    return best / len(blocks) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"libyaml C loader: {hasattr(yaml, 'CSafeLoader')}")
    corpora = {
        "sample brain": sample_blocks() * 40,
        "okf bundle": okf_blocks(2000),
        "synthetic": synthetic_blocks(2000),
    }
    for name, blocks in corpora.items():
        for block in blocks[:200]:  # the paths agree before they are timed
            assert bounded(block) == c_loader(block) == yaml.safe_load(block), block
        fast = per_block(bounded, blocks, args.rounds)
        bare = per_block(c_loader, blocks, args.rounds)
        python = per_block(yaml.safe_load, blocks, args.rounds)
        whole = per_block(lambda b: split_frontmatter(f"---\n{b}---\nbody"), blocks, args.rounds)
        print(
            f"{name:13} {len(blocks):5} blocks  bounded {fast:6.1f} µs  c {bare:6.1f} µs  "
            f"python {python:6.1f} µs  split_frontmatter {whole:6.1f} µs"
        )


if __name__ == "__main__":
    main()
