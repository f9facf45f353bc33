"""The one switch for okf-explorer's hand-written fast paths, and the list of them all.

A fast path is our own replacement for a library's job (YAML, JSON-RPC, Markdown, the
collector, HTTP imports). One stays only while the same-run benchmark shows it at least
1.5x faster or 10 ms sooner where a person waits (`tests/bench/bench_fast_paths.py` for
the non-UI ones); each has a test proving it answers as the library does, and
`OKF_EXPLORER_PLAIN=1` turns every one of them off, so the library alone does the work
(`.ci/run`'s plain pass runs the tests marked `plain` that way).

`FAST_PATHS` names every module that reads the switch (tests/test_fast_path_list.py
holds the code to it, and ARCHITECTURE.md's table to it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

PLAIN_ENV = "OKF_EXPLORER_PLAIN"
"""Set to anything but empty or `0` to use the plain library paths only."""


def enabled() -> bool:
    """Whether fast paths may be used (read at call time, so tests can flip it)."""
    return os.environ.get(PLAIN_ENV, "") in ("", "0")


@dataclass(frozen=True)
class FastPath:
    """One fast path: the module that reads the switch (under `okf_explorer/`), what it
    does instead of the library, and the same-run figure that keeps it."""

    module: str
    replaces: str
    measured: str


FAST_PATHS: tuple[FastPath, ...] = (
    FastPath(
        "sources/fast_yaml.py",
        "PyYAML for frontmatter that is a flat mapping of one-line values",
        "5,000 blocks of the 10k bundle: 26 vs 110 ms (4.2x)",
    ),
    FastPath(
        "core/fast_gc.py",
        "the cyclic collector during builds and walks, and re-walking a loaded index",
        "depth-10 walk of 100k pages 511 vs 919 ms CPU (1.8x); cold build 168 vs 203 ms CPU "
        "at 10k pages, 1.16 vs 1.98 s at 50k (1.7x); a full collection with the index alive "
        "3.8 ms at 10k pages, 31 ms at 50k, vs 0",
    ),
    FastPath(
        "sources/gbrain/fast_httpx.py",
        "`import httpx` with its command line (rich, click, pygments)",
        "importing the MCP source: 87 vs 114 ms (27 ms, every MCP command)",
    ),
    FastPath(
        "server/fast_calls.py",
        "the MCP SDK's per-request session for a plain `tools/call`",
        "one `get_page` a POST 0.82 vs 1.43 ms (1.7x); a batch of 20 3.5 vs 20.4 ms (5.8x)",
    ),
    FastPath(
        "tui/markdown/prepare.py",
        "Textual's `Markdown` widget (a widget per block) for every page body: the vault "
        "engine draws rows in its look (lists, tables and callouts as one piece each)",
        "a short page's first screen 28.7 vs 121.5 ms CPU (4.2x; 3.0-8.2x over six kinds); "
        "a 200-item index shown in 130 vs 2,255 ms, a 1 MB page's first part 172 vs 3,547 ms",
    ),
)
"""Every fast path that stays, with its measured figure (fast vs library, best of 11 in
one `bench_fast_paths.py` run on the shared 2-core machine at load 1.6-1.9; the
Markdown engine's from `bench_body.py --each`, same run, load about 6)."""
