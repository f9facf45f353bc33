"""Benchmark: does `search` find the page you mean? Labelled queries over real vaults.

Run: `.venv/bin/python tests/bench/bench_search_quality.py [VAULTS]` (VAULTS: the folder
holding the unpacked vaults, default `$OKF_VAULTS`; one of them is required). Not collected by
pytest: the vaults are third-party text and not in the repository; only our labels are
(`tests/search_sets/*.json`: each vault's name, folder and commit, our plain-word
questions with the slug of the page that answers each, and the slugs of pages whose
titles are searched).

For each vault it prints, per set, MRR@10 (the mean of 1/rank of the first answering
page in the top 10, 0 when none), hit@1 and hit@5 (and the p50 / p95 of those searches):

- `tune` / `held`: the plain-word questions at even / odd positions of the file (the
  tuning half, and the held-out half the targets are judged on);
- `titles`: each listed page's title (as the index reads it) searched as typed.

A vault on disk lacking any labelled page (another commit, or files lost unpacking it) is
not measured: the run says so and exits 1.

The ranking is the installed one: with the `meaning` extra, questions are ranked again
by word embeddings (`core.search.meaning`); `OKF_EXPLORER_MEANING=off` measures the
keyword ranking alone.

Then the pooled held-out figures, of every set but those marked `"pooled": false` (the
Japanese questions, written after issue 25's figures were set, count on their own).
Targets (issue 25): titles hit@1 >= 0.97 on each vault; held-out MRR@10 >= 0.70 and
hit@5 >= 0.85. Exits 1 when one is missed.

`--pick-titles N SEED` (re)chooses the title pages of each set: N pages at random
(`random.Random(SEED)`), readable, not reserved, whose title no other page of the vault
shares (ignoring case and separators: such a title names no one page), and writes their
slugs into the set's file. `--misses` prints each question missed at 5, with the top 3.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from okf_explorer.core.brain import Brain
from okf_explorer.core.search.find_rank import normalise
from okf_explorer.core.search.query import SearchSyntaxError
from okf_explorer.sources.folder.bundle import BundleSource

SETS = Path(__file__).resolve().parent.parent / "search_sets"
TOP = 10
TITLE_HIT1 = 0.97
HELD_MRR = 0.70
HELD_HIT5 = 0.85


@dataclass(frozen=True)
class Question:
    text: str
    answers: tuple[str, ...]


@dataclass
class Scores:
    """Ranks of the first answer (None: not in the top `TOP`)."""

    ranks: list[int | None]

    @property
    def mrr(self) -> float:
        return sum(1 / r for r in self.ranks if r) / max(1, len(self.ranks))

    def hit(self, at: int) -> float:
        return sum(1 for r in self.ranks if r and r <= at) / max(1, len(self.ranks))

    def line(self, name: str) -> str:
        return (
            f"  {name:<7} n={len(self.ranks):<4} MRR@10 {self.mrr:.3f}  hit@1 {self.hit(1):.3f}"
            f"  hit@5 {self.hit(5):.3f}"
        )


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def questions(labels: dict) -> tuple[list[Question], list[Question]]:
    """(tuning half, held-out half): even and odd positions of the file."""
    asked = [Question(q["q"], (q["slug"], *q.get("also", ()))) for q in labels["questions"]]
    return asked[0::2], asked[1::2]


def top(brain: Brain, query: str, count: int) -> list[str]:
    """The slugs of the first `count` hits; none when the query is refused (a miss)."""
    try:
        return [hit.slug for hit in brain.text_search().search(query, count)]
    except SearchSyntaxError:
        return []


LATENCIES: list[float] = []
"""Seconds of each labelled search (the index already built), for the p95 printed."""


def rank_of(brain: Brain, query: str, answers: Sequence[str]) -> int | None:
    start = time.perf_counter()
    found = top(brain, query, TOP)
    LATENCIES.append(time.perf_counter() - start)
    return next((i for i, slug in enumerate(found, 1) if slug in answers), None)


def score(brain: Brain, asked: Sequence[Question], misses: bool) -> Scores:
    ranks = []
    for question in asked:
        rank = rank_of(brain, question.text, question.answers)
        ranks.append(rank)
        if misses and (rank is None or rank > 5):
            first = top(brain, question.text, 3)
            print(f"    miss ({rank}): {question.text!r} -> {question.answers[0]}; top {first}")
    return Scores(ranks)


def title_scores(brain: Brain, slugs: Sequence[str], misses: bool) -> Scores:
    pages = brain.ensure_index().pages
    asked = [Question(pages[slug].title, (slug,)) for slug in slugs]
    return score(brain, asked, misses)


def absent(brain: Brain, labels: dict) -> list[str]:
    """The set's labelled slugs the vault on disk does not hold: another commit than the
    set's, or an unpacking that lost files (non-ASCII names): its figures would not be
    the set's."""
    pages = brain.ensure_index().pages
    answers = [s for q in labels["questions"] for s in (q["slug"], *q.get("also", ()))]
    return [slug for slug in (*answers, *labels["titles"]) if slug not in pages]


def pick_titles(brain: Brain, count: int, seed: int) -> list[str]:
    pages = brain.ensure_index().pages
    named: dict[str, list[str]] = {}
    for slug, info in pages.items():
        named.setdefault(normalise(info.title), []).append(slug)
    eligible = sorted(
        slug
        for slug, info in pages.items()
        if info.readable and not info.reserved and len(named[normalise(info.title)]) == 1
    )
    return sorted(random.Random(seed).sample(eligible, min(count, len(eligible))))


def main(argv: list[str]) -> int:
    if {"-h", "--help"} & set(argv):
        print(__doc__)
        return 0
    misses = "--misses" in argv
    argv = [a for a in argv if a != "--misses"]
    pick = None
    if argv[:1] == ["--pick-titles"]:
        pick, argv = (int(argv[1]), int(argv[2])), argv[3:]
    folder = argv[0] if argv else os.environ.get("OKF_VAULTS")
    if not folder or not Path(folder).is_dir():
        print("usage: bench_search_quality.py VAULTS (or set $OKF_VAULTS)", file=sys.stderr)
        return 2
    vaults = Path(folder)
    failed: list[str] = []
    held_all: list[int | None] = []
    for path in sorted(SETS.glob("*.json")):
        labels = load(path)
        root = vaults / labels["vault"] / labels["root"]
        if not root.is_dir():
            print(f"{path.stem}: no {root}, skipped (fetch {labels['vault']} @ {labels['commit']})")
            continue
        brain = Brain(BundleSource(root), cache_dir=False)
        try:
            if pick is not None:
                labels["titles"] = pick_titles(brain, *pick)
                path.write_text(json.dumps(labels, ensure_ascii=False, indent=2) + "\n")
            print(f"{path.stem} ({labels['vault']} @ {labels['commit']}, "
                  f"{len(brain.ensure_index().pages)} pages)")  # fmt: skip
            if missing := absent(brain, labels):
                print(f"  {len(missing)} labelled pages are not in {root} (first: {missing[0]}):"
                      f" unpack {labels['vault']} @ {labels['commit']} there")  # fmt: skip
                failed.append(f"{path.stem} vault")
                continue
            brain.text_search().text_index()  # built before the searches are timed
            tune, held = questions(labels)
            LATENCIES.clear()
            held_scores = score(brain, held, misses)
            if tune or held:  # a set may hold titles only (Japanese: `obsidian-help-ja`)
                print(score(brain, tune, misses).line("tune"))
                print(held_scores.line("held"))
            titles = title_scores(brain, labels["titles"], misses)
            print(titles.line("titles"))
            p50, p95 = statistics.median(LATENCIES), statistics.quantiles(LATENCIES, n=20)[-1]
            print(f"  search p50 {p50 * 1000:.1f} ms  p95 {p95 * 1000:.1f} ms")
            if labels.get("pooled", True):
                held_all += held_scores.ranks
            if titles.hit(1) < TITLE_HIT1:
                failed.append(f"{path.stem} titles hit@1")
        finally:
            brain.close()
    pooled = Scores(held_all)
    print("held-out, all vaults")
    print(pooled.line("held"))
    if pooled.mrr < HELD_MRR:
        failed.append("held-out MRR@10")
    if pooled.hit(5) < HELD_HIT5:
        failed.append("held-out hit@5")
    if failed:
        print("MISSED: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
