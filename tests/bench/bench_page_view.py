"""Benchmark: the audit's per-page view of a server brain (`core.audit.page`), what the
explorer computes for each page it opens over a server with a stored graph.

Run: `.venv/bin/python tests/bench/bench_page_view.py [pages] [links]`. Not collected
by pytest. A synthetic brain of `pages` server slugs, one page stating `links` links
(every third one by file name, a few names shared by two folders) of which the
server stores two thirds plus a few of its own. Prints the one-off file-name table,
the best of five views through `PageAuditor`, and (up to 20,000 pages) the same view
with `compare` given every page, which the auditor must equal.
"""

from __future__ import annotations

from timing import best, numbers

from okf_explorer.core.audit.page import PageAuditor, compare_page
from okf_explorer.core.index.model import ResolvedLink
from okf_explorer.core.port import ServerLink
from okf_explorer.sources.gbrain.importer import GBRAIN


def brain(pages: int, links: int) -> tuple[list[str], list[ResolvedLink], list[str]]:
    slugs = [f"notes/p{i:06d}" for i in range(pages)]
    slugs += [f"archive/p{i:06d}" for i in range(1, links, 7)]  # shared file names
    stated = [
        ResolvedLink(f"p{i:06d}", f"notes/p{i:06d}", "wiki", "basename")
        if i % 3
        else ResolvedLink(f"notes/p{i:06d}", f"notes/p{i:06d}", "wiki", "exact")
        for i in range(1, links + 1)
    ]
    stored: list[str] = [
        ServerLink(f"notes/p{i:06d}", "links", "markdown") for i in range(1, links + 1) if i % 3
    ]
    stored += [ServerLink(f"notes/p{i:06d}", "links", "manual") for i in range(links, links + 5)]
    return slugs, stated, stored


def main() -> None:
    pages, links = numbers(__doc__, ("pages", 100_000), ("links", 40))
    slugs, stated, stored = brain(pages, links)
    auditor = PageAuditor(slugs, GBRAIN)
    table = best(1, lambda: auditor.relevant("notes/p000000", [], []))
    view = auditor.compare("notes/p000000", "text", stated, stored)
    per_view = best(5, lambda: auditor.compare("notes/p000000", "text", stated, stored))
    print(f"{len(slugs):,} pages, {links} links stated, {len(stored)} stored: {view.summary}")
    print(f"file-name table (once per index): {table * 1000:.0f} ms")
    print(f"one page view: {per_view * 1000:.1f} ms")
    if len(slugs) <= 20_000:
        args = ("notes/p000000", "text", stated, stored, slugs, GBRAIN)
        full = compare_page(*args)
        every = best(1, lambda: compare_page(*args))
        print(f"compare over every page: {every * 1000:.0f} ms; same view: {full == view}")


if __name__ == "__main__":
    main()
