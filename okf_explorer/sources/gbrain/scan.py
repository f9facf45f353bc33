"""Scanning many pages of an MCP server: batches of `get_page` on a bounded thread pool.

A cold scan is bounded by the server's throughput (GBRAIN_PROTOCOL.md §8): what
helps is fewer round trips (JSON-RPC batches of up to `BATCH_PAGES` calls per POST,
when the server accepts them) and a few requests in flight, not many threads. The
pool holds `concurrency` workers; each takes one chunk of stubs at a time. Chunks
are small enough that every worker gets one on a small scan.

Cancellation is polled every 50 ms; once the scan stops (cancelled, failed, or the
caller stopped iterating) workers that have not started return at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import replace

from okf_explorer.core.errors import Cancelled, PageNotFound, PageUnreadable
from okf_explorer.core.pages import Page, PageInfo, is_reserved
from okf_explorer.core.port import (
    CancelCheck,
    PageStub,
    ProgressCallback,
    ScannedPage,
    scan_one,
)

BATCH_PAGES = 20
POLL_S = 0.05

PageOutcome = Page | PageNotFound | PageUnreadable
FetchPages = Callable[[Sequence[str]], list[PageOutcome]]
"""Fetches pages by slug: a `Page`, or the page-level error, per slug, in order;
source-level failures raise."""


def scan_concurrently(
    fetch: FetchPages,
    stubs: Sequence[PageStub],
    concurrency: int,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> Iterator[ScannedPage]:
    """`PageSource.scan` over `fetch`: yields as chunks complete (any order)."""
    todo = list(stubs)
    total = len(todo)
    if total == 0:
        return
    size = max(1, min(BATCH_PAGES, -(-total // concurrency)))
    chunks = iter([todo[i : i + size] for i in range(0, total, size)])
    stopped = threading.Event()
    pending: set[Future[list[ScannedPage]]] = set()
    done = 0
    executor = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="okf-mcp-scan")
    try:
        while True:
            if cancel is not None and cancel():
                raise Cancelled("scan")
            while len(pending) < concurrency:
                chunk = next(chunks, None)
                if chunk is None:
                    break
                pending.add(executor.submit(_scan_chunk, fetch, chunk, stopped))
            if not pending:
                return
            finished, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for future in finished:
                for scanned in future.result():
                    if cancel is not None and cancel():
                        raise Cancelled("scan")
                    done += 1
                    yield scanned
                    if progress is not None:
                        progress(done, total)
    finally:
        stopped.set()
        for future in pending:
            future.cancel()
        executor.shutdown(wait=False, cancel_futures=True)


def _scan_chunk(
    fetch: FetchPages, chunk: list[PageStub], stopped: threading.Event
) -> list[ScannedPage]:
    if stopped.is_set():
        raise Cancelled("scan")
    outcomes = fetch([stub.slug for stub in chunk])
    return [_scanned(stub, outcome) for stub, outcome in zip(chunk, outcomes, strict=True)]


def _scanned(stub: PageStub, outcome: PageOutcome) -> ScannedPage:
    """The index entry of one page; its fingerprint is the listing's, so the cache
    compares like with like on the next run."""
    if isinstance(outcome, Page):
        scanned = scan_one(outcome)
        if scanned.info.fingerprint == stub.fingerprint:
            return scanned
        return ScannedPage(replace(scanned.info, fingerprint=stub.fingerprint), scanned.links)
    info = PageInfo(
        slug=stub.slug,
        title=stub.info.title if stub.info else stub.slug.rsplit("/", 1)[-1],
        type=stub.info.type if stub.info else None,
        reserved=is_reserved(stub.slug),
        readable=False,
        error=str(outcome),
        fingerprint=stub.fingerprint,
        error_kind=outcome.kind if isinstance(outcome, PageUnreadable) else "missing",
    )
    return ScannedPage(info, ())
