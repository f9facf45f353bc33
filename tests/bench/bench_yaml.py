"""Benchmark: frontmatter loading with and without the `fast_yaml` fast path.

    .venv/bin/python tests/bench/bench_yaml.py [FOLDER ...] [--repeat 5]

Collects every frontmatter block of the given folders (default: the 10k-page
benchmark bundle from `gen_bundle`, made under the temp folder if missing),
then loads all of them with `frontmatter.load_bounded`, fast path on and off
(`OKF_EXPLORER_PLAIN`), in turns; prints the best time of each, how many
blocks the fast path answered, and the ratio. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from okf_explorer.core.fast_paths import PLAIN_ENV
from okf_explorer.sources.fast_yaml import load_flat
from okf_explorer.sources.frontmatter import load_bounded


def blocks_of(folder: Path) -> list[str]:
    """The text between the fences of every `.md` file's frontmatter under `folder`."""
    found = []
    for path in sorted(folder.rglob("*.md")):
        text = path.read_text("utf-8", errors="replace")
        if text.startswith("---\n") and (end := text.find("\n---", 3)) > 0:
            found.append(text[4 : end + 1])
    return found


def timed(blocks: list[str], plain: bool) -> float:
    os.environ[PLAIN_ENV] = "1" if plain else ""
    start = time.perf_counter()
    for block in blocks:
        with contextlib.suppress(Exception):  # malformed blocks cost what they cost
            load_bounded(block)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    folders = args.folders
    if not folders:
        from gen_bundle import GENERATOR_VERSION, generate

        root = Path(tempfile.gettempdir()) / "okf-bench" / f"bundle-10000-1-v{GENERATOR_VERSION}"
        if not (root / ".generated").exists():
            generate(root, 10000, 1)
            (root / ".generated").write_text("ok")
        folders = [root]
    for folder in folders:
        blocks = blocks_of(folder)
        os.environ[PLAIN_ENV] = ""
        answered = sum(load_flat(block) is not None for block in blocks)
        fast = plain = float("inf")
        for _ in range(args.repeat):
            fast = min(fast, timed(blocks, plain=False))
            plain = min(plain, timed(blocks, plain=True))
        print(
            f"{folder.name}: {len(blocks):,} blocks, fast path answered {answered:,}; "
            f"fast {fast * 1000:.1f} ms, library {plain * 1000:.1f} ms, "
            f"{plain / fast:.2f}x"
        )


if __name__ == "__main__":
    main()
