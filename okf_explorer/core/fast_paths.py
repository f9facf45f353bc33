"""The one switch for okf-explorer's hand-written fast paths, the list of them all, and
the one that needs no module of its own: the cyclic collector paused while an index is
built or walked.

A fast path is our own replacement for a library's job (YAML, JSON-RPC, Markdown, the
collector, HTTP imports, word embeddings). One stays only while the same-run benchmark
shows it at least 1.5x faster or 10 ms sooner where a person waits
(`tests/bench/bench_fast_paths.py` for the non-UI ones); each has a test proving it
answers as the library does, and `OKF_EXPLORER_PLAIN=1` turns every one of them off, so
the library alone does the work (`.ci/run`'s plain pass runs the tests marked `plain`
that way).

`FAST_PATHS` names every module that reads the switch (tests/test_fast_path_list.py
holds the code to it, and ARCHITECTURE.md's table to it).

The collector (`gc_paused`, `freeze_survivors`): the index build and a deep traversal
each make hundreds of thousands of small, long-lived, acyclic objects (tuples, strings,
`PageInfo`s). Every 700 new objects the collector runs, and its older generations
re-walk everything allocated so far, so the work done by collections grows with what
has been built: `gc_paused` turns the collector off for such a build (refcounting still
frees every acyclic object). `freeze_survivors` moves what is alive into the permanent
generation, so no later full collection re-walks a finished index on the TUI's event
loop. Measured by `tests/bench/bench_fast_paths.py` against the same code with the
collector on, CPU time of the process (figures in `FAST_PATHS`): a depth-10 `both` walk
over a 100k-page power-law index about 1.8x; a cold build 35 ms sooner at 10k pages and
1.7x at 50k (the cost of the collector grows with what is alive); with the index alive
a full collection takes 3.8 ms at 10k pages and 31 ms at 50k unfrozen, under 0.01 ms
frozen.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
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
        "core/fast_paths.py",
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
        "core/search/word_vectors.py",
        "WordLlama's load (its configuration classes, a float32 copy of the whole matrix) "
        "and `embed`",
        "loading the embeddings and ranking a first question again: 93 vs 211 ms (2.3x), "
        "76 vs 121 MB peak (a one-shot `search` of a question, the first `ctrl+f`)",
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
    FastPath(
        "tui/markdown/parser.py",
        "mdit-py-plugins' task lists, which look back from every task for its list (a "
        "page's cost grows as its tasks squared)",
        "a page of 1,600 tasks parsed in 89 vs 265 ms (3.0x); 12,800 tasks 0.68 vs 14.4 s",
    ),
    FastPath(
        "tui/collector_at_rest.py",
        "Python's own schedule for full collections, which falls inside every sixth or seventh key",
        "`bench_keys.py --pace 0.4 --rounds 5` (105 keys 0.4 s apart), 2 runs each: full "
        "collections inside a key 0 vs 20-22 (9-85 ms each); worst key 108-118 vs 154-185 ms; "
        "obsidian-hub (6.5k pages, `--rounds 3`) 0 vs 16 (36-102 ms), worst key 253 vs 437 ms",
    ),
    FastPath(
        "tui/fast_quit.py",
        "Textual's wait for its input thread and the interpreter's teardown when `q` quits",
        "`q` to the shell prompt on a 6.5k-page vault, index built: best 52 vs 279 ms, "
        "median 59 vs 396 ms (`bench_quit.py`)",
    ),
)
"""Every fast path that stays, with its measured figure (fast vs library, best of 11 in
one `bench_fast_paths.py` run on the shared 2-core machine at load 1.6-1.9; the
Markdown engine's from `bench_body.py --each`, same run, load about 6)."""


@contextmanager
def gc_paused(*, freeze: bool = False) -> Iterator[None]:
    """Run the block with the cyclic collector off, if fast paths are on.

    Only the caller that turned it off turns it back on, so nested or concurrent
    users (threads) never re-enable it under each other. `freeze`: what is alive
    when the block ends goes to the permanent generation first (`gc.freeze`), for a
    block that builds something long-lived (an index): else the first allocation
    after it starts a collection that walks all it built (30-40 ms at 10k pages).
    """
    paused = enabled() and gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            if freeze:
                gc.freeze()
            gc.enable()


def freeze_survivors() -> None:
    """Move every live object to the permanent generation (`gc.freeze`), if fast paths are on."""
    if enabled():
        gc.freeze()
