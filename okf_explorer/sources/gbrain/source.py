"""`McpSource`: a gbrain-compatible MCP server (gbrain itself, or our own `serve`) as a
`PageSource`.

The wire is `transport.JsonRpcTransport`; replies are decoded by `payloads`; scans run
`get_page` batches on a bounded thread pool (below). Choices where the SPEC is silent
(GBRAIN_PROTOCOL.md says why):

- `enumerate` pages through `list_pages` with `sort: "slug"`, `limit: 100` and an
  `offset` that advances by the rows received. It stops at an empty page, or at a
  page shorter than the longest one seen so far, so a server with a cap below 100
  is paged correctly too (one extra cheap call on small brains). A server that
  ignores `offset` (the same slugs come back) is a `ProtocolError`, not a loop,
  and so is one that never stops listing new slugs: past `MAX_LISTED_PAGES`
  (1,000,000) the listing is refused, not truncated, so no command works on a
  silently partial brain.
  The result is re-sorted by code point. `slugs_with_tag` pages the same way with
  the server's `tag` filter (gbrain's rows carry no tags to filter locally).
- Stub fingerprints are `updated_at` (see `payloads.stub_of`); the shared index
  builder keys its cache by `cache_key` (the URL without credentials) and rescans
  only pages whose fingerprint changed.
- `scan` sends `get_page` calls as JSON-RPC batches when the server accepts them
  (gbrain and our `serve` do; a server that refuses one gets single calls from then
  on), `concurrency` POSTs in flight. A page-level error (`page_not_found`) makes an
  unreadable entry; anything else raises (the engine decides).
- A scan needs links, not the display text: it asks `get_page` without
  `include_content` (gbrain then skips re-serialising the frontmatter as YAML, and
  sends less) and joins `compiled_truth` + `timeline`. A page whose timeline and
  remaining text both hold links is fetched again with `content` in the same
  worker (`payloads.split_is_exact`), so forward-link order stays exact.
  `get_page` / `get_pages` (display) always ask for `content`.
- `wanted_targets()` (`WantedListing`) pages through the server's `wanted_pages` when
  it lists one (gbrain's since 2026, our `serve`): the link targets without a page and
  a sample of the pages that want them, where the index would scan every body.
- `server_graph()` is offered when `tools/list` has a way to ask each side
  (`graph_for`, `McpServerGraph`): `get_links` / `get_backlinks` answer one page each
  (the full tool list: gbrain's default `full` surface, our own `serve`); on gbrain's
  reduced `starter` surface, which lists `get_backlinks` and `traverse_graph` but no
  `get_links`, outgoing links come from `traverse_graph` at depth 1 with `direction:
  "out"` (incoming ones the same way with `"in"` when `get_backlinks` is missing too);
  we always pass `direction`, and read whatever shape comes back
  (`payloads.link_rows`). A server with neither way for a side has no usable graph
  (None: the engine scans bodies instead). Like gbrain's own graph, answers hold
  existing targets only and one row per (from, to, relation); we keep the server's
  row order and drop repeats.

Scanning many pages (`scan_concurrently`): a cold scan is bounded by the server's
throughput (GBRAIN_PROTOCOL.md §8): what helps is fewer round trips (JSON-RPC batches of
up to `BATCH_PAGES` calls per POST, when the server accepts them) and a few requests in
flight, not many threads. The pool holds `concurrency` workers; each takes one chunk of
stubs at a time. Chunks are small enough that every worker gets one on a small scan.

Cancellation is polled every 50 ms; once the scan stops (cancelled, failed, or the
caller stopped iterating) workers that have not started return at once.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from okf_explorer.core.errors import (
    Cancelled,
    OkfError,
    PageNotFound,
    PageUnreadable,
    ProtocolError,
)
from okf_explorer.core.pages import Page, PageInfo, is_reserved
from okf_explorer.core.port import (
    CancelCheck,
    PageStub,
    ProgressCallback,
    ScannedPage,
    ServerGraph,
    ServerLink,
    WantedTarget,
    scan_one,
)
from okf_explorer.sources.gbrain.payloads import (
    Side,
    ToolDecoder,
    link_rows,
    page_of,
    plain_rows,
    relation_of_type,
    split_is_exact,
    stub_of,
    wanted_of,
)
from okf_explorer.sources.gbrain.transport import JsonRpcTransport

if TYPE_CHECKING:
    import httpx

    from okf_explorer.core.audit.model import ServerImporter

__all__ = ["McpServerGraph", "McpSource", "relation_of_type"]

log = logging.getLogger(__name__)

PagePayload = dict[str, Any] | PageNotFound | PageUnreadable

PAGE_SIZE = 100
"""gbrain silently clamps remote `list_pages` limits to 100."""

WANTED_PAGE = 100
"""gbrain's most `wanted_pages` rows per call."""

MAX_LISTED_PAGES = 1_000_000
"""The most pages a listing may hold (10,000 `list_pages` calls of 100); a server that
lists more is taken to be paging forever, and the listing fails with one clear line."""


class McpSource:
    """Pages of a gbrain-compatible MCP server at `url` (an `http(s)://…/mcp` endpoint).

    `token_source` says where the token came from (`--token-file F`, `$GBRAIN_TOKEN`)
    so an `AuthError` can name it; the token itself never appears in any message,
    log line or repr. `http_transport` lets tests inject faults (`httpx.MockTransport`).
    Thread-safe: one keep-alive connection pool shared by every caller.
    """

    def __init__(
        self,
        url: str,
        *,
        token: str | None,
        token_source: str,
        timeout: float = 10.0,
        concurrency: int = 8,
        http_transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._token_source = token_source
        self._concurrency = max(1, int(concurrency))
        self._rpc = JsonRpcTransport(
            url,
            token=token,
            token_source=token_source,
            timeout=timeout,
            pool_size=self._concurrency + 2,
            transport=http_transport,
        )
        self._label = self._rpc.label
        self._decoder = ToolDecoder(self._label, token_source, self._rpc.scrub)
        self._tools: frozenset[str] | None = None
        self._tools_lock = threading.Lock()
        self._batching: bool | None = None  # None until the server has been tried

    def __repr__(self) -> str:
        return f"McpSource({self._label!r}, token_source={self._token_source!r})"

    @property
    def label(self) -> str:
        return self._label

    @property
    def cache_key(self) -> str:
        return self._label

    @property
    def transport(self) -> JsonRpcTransport:
        """The JSON-RPC endpoint under this source (its session and token), for a writer."""
        return self._rpc

    # -- tools ----------------------------------------------------------------------------

    def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        """The decoded JSON payload of one `tools/call`, or the typed error it reports."""
        result = self._rpc.request("tools/call", {"name": name, "arguments": arguments})
        return self._decoder.payload(name, arguments, result)

    def call_tools(self, name: str, arguments: Sequence[dict[str, Any]]) -> list[Any]:
        """The decoded payloads of several calls of tool `name`, in order: one JSON-RPC
        batch when the server takes batches (gbrain and our `serve` do), else one call
        each. An item the batch could not answer is asked again alone; errors raise."""
        if len(arguments) > 1 and self._batching is not False:
            calls = [("tools/call", {"name": name, "arguments": args}) for args in arguments]
            try:
                results = self._rpc.request_batch(calls)
            except ProtocolError as error:
                if self._batching:
                    raise
                log.debug("%s; sending one request a call", error)
                self._batching = False
            else:
                self._batching = True
                return [
                    self.call_tool(name, args)
                    if isinstance(result, ProtocolError)
                    else self._decoder.payload(name, args, result)
                    for args, result in zip(arguments, results, strict=True)
                ]
        return [self.call_tool(name, args) for args in arguments]

    def tools(self) -> frozenset[str]:
        """Names the server lists in `tools/list` (fetched once, following `nextCursor`)."""
        with self._tools_lock:
            if self._tools is None:
                names: set[str] = set()
                params: dict[str, Any] = {}
                for _ in range(100):
                    result = self._rpc.request("tools/list", params or None)
                    tools = result.get("tools") if isinstance(result, dict) else None
                    if not isinstance(tools, list):
                        raise ProtocolError(f"{self._label} answered tools/list unexpectedly")
                    names.update(t["name"] for t in tools if isinstance(t, dict) and "name" in t)
                    cursor = result.get("nextCursor")
                    if not cursor:
                        break
                    params = {"cursor": cursor}
                self._tools = frozenset(names)
            return self._tools

    # -- PageSource -----------------------------------------------------------------------

    def enumerate(self) -> list[PageStub]:
        """Every page, code-point slug order (see the module docstring for the paging)."""
        stubs = self._listed({})
        return [stubs[slug] for slug in sorted(stubs)]

    def slugs_with_tag(self, tag: str) -> list[str]:
        """Slugs of the pages tagged `tag`, by the server's own `list_pages` filter
        (paged like `enumerate`), code-point order: gbrain's listing rows carry no
        tags, so filtering them locally would find nothing."""
        return sorted(self._listed({"tag": tag}))

    def _listed(self, filters: dict[str, Any]) -> dict[str, PageStub]:
        """slug → stub of every `list_pages` row matching `filters`, all pages of it.

        Raises `ProtocolError` for a server that pages forever: a page that adds no new
        slug (offset ignored), or more than `MAX_LISTED_PAGES` slugs in all.
        """
        stubs: dict[str, PageStub] = {}
        unversioned = f"unversioned:{time.time_ns()}"
        offset = longest = 0
        while True:
            arguments = {**filters, "sort": "slug", "limit": PAGE_SIZE, "offset": offset}
            rows = self.call_tool("list_pages", arguments)
            if not isinstance(rows, list):
                raise ProtocolError(f"{self._label} answered list_pages with something unexpected")
            fresh = 0
            for row in rows:
                stub = stub_of(row, unversioned)
                if stub is not None and stub.slug not in stubs:
                    stubs[stub.slug] = stub
                    fresh += 1
            if rows and fresh == 0:
                raise ProtocolError(f"{self._label} repeats list_pages rows (offset ignored?)")
            if len(stubs) > MAX_LISTED_PAGES:
                raise ProtocolError(
                    f"{self._label} lists more than {MAX_LISTED_PAGES:,} pages, the most"
                    " okf-explorer reads (a server that pages forever?)"
                )
            if not rows or len(rows) < longest:
                return stubs
            longest = max(longest, len(rows))
            offset += len(rows)

    def get_page(self, slug: str) -> Page:
        result = self._rpc.request("tools/call", _get_page_params(slug))
        return self._decoder.page(slug, result)

    def get_pages(self, slugs: Sequence[str], *, content: bool = True) -> list[PageOutcome]:
        """Several pages, in order: each a `Page` or its page-level error (not raised).

        One POST (a JSON-RPC batch) when the server accepts batches, else one request
        a page. Source-level failures raise. `content=False` is for scans: bodies
        joined from the split shape, exact in links and their order (see the module
        docstring); pages where the split could reorder links are fetched again whole.
        """
        payloads = self._page_payloads(slugs, content)
        outcomes: list[PageOutcome] = []
        again: list[int] = []
        for slug, payload in zip(slugs, payloads, strict=True):
            if isinstance(payload, dict):
                if not content and not split_is_exact(payload):
                    again.append(len(outcomes))
                payload = page_of(payload, slug)
            outcomes.append(payload)
        if again:
            whole = self.get_pages([slugs[i] for i in again], content=True)
            for position, outcome in zip(again, whole, strict=True):
                outcomes[position] = outcome
        return outcomes

    def _page_payloads(self, slugs: Sequence[str], content: bool) -> list[PagePayload]:
        if len(slugs) > 1 and self._batching is not False:
            calls = [("tools/call", _get_page_params(slug, content)) for slug in slugs]
            try:
                results = self._rpc.request_batch(calls)
                payloads = [
                    self._payload(slug, r, content) for slug, r in zip(slugs, results, strict=True)
                ]
            except ProtocolError as error:
                if self._batching:
                    raise
                log.debug("%s; sending one request a page", error)
                self._batching = False
            else:
                self._batching = True
                return payloads
        return [self._payload(slug, None, content) for slug in slugs]

    def _payload(self, slug: str, result: Any, content: bool) -> PagePayload:
        """One `get_page` object from a batch `result` (fetched alone when None), or its
        page-level error.

        A batch item the server answered with a JSON-RPC error (our `serve` refuses the
        items past its per-POST reply cap) is asked again alone; only that answer counts.
        """
        if isinstance(result, ProtocolError):
            result = None
        elif isinstance(result, OkfError):
            raise result
        try:
            if result is None:
                result = self._rpc.request("tools/call", _get_page_params(slug, content))
            return self._decoder.page_payload(slug, result)
        except (PageNotFound, PageUnreadable) as error:
            return error

    def scan(
        self,
        stubs: Sequence[PageStub],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[ScannedPage]:
        """Fetch and parse pages concurrently (see `scan_concurrently`); yields in any order."""
        if stubs:
            self._rpc.ensure_initialized()
        fetch = functools.partial(self.get_pages, content=False)
        return scan_concurrently(fetch, stubs, self._concurrency, progress, cancel)

    def read_bodies(self, slugs: Sequence[str]) -> Iterator[tuple[str, str]]:
        """Bodies of these pages, `BODY_BATCH` a request (`BodyReader`); pages the server
        does not give are skipped."""
        slugs = list(slugs)
        for start in range(0, len(slugs), BODY_BATCH):
            chunk = slugs[start : start + BODY_BATCH]
            for slug, outcome in zip(chunk, self.get_pages(chunk), strict=True):
                if isinstance(outcome, Page) and outcome.readable:
                    yield slug, outcome.content

    def search_pages(
        self, query: str, limit: int, types: Sequence[str] | None = None
    ) -> list[dict[str, Any]] | None:
        """The server's `search` rows (`ServerSearch`), or None when it lists no `search`
        tool. Only `search` is ever called: `query`, `think` and `synthesize` may spend
        the user's money on a language model."""
        if "search" not in self.tools():
            return None
        arguments: dict[str, Any] = {"query": query, "limit": limit}
        if types:
            arguments["types"] = list(types)
        rows = self.call_tool("search", arguments)
        if not isinstance(rows, list):
            raise ProtocolError(f"{self._label} answered search unexpectedly")
        return [row for row in rows if isinstance(row, dict) and isinstance(row.get("slug"), str)]

    def wanted_targets(self) -> list[WantedTarget] | None:
        """The server's link targets that have no page (`WantedListing`: gbrain's
        `wanted_pages`, paged `WANTED_PAGE` rows at a time), or None when it lists no
        such tool. No page body is read: what would take a scan of every page."""
        if "wanted_pages" not in self.tools():
            return None
        found: list[WantedTarget] = []
        offset: int | None = 0
        calls = 0
        while offset is not None:
            reply = self.call_tool("wanted_pages", {"limit": WANTED_PAGE, "offset": offset})
            if not isinstance(reply, dict) or not isinstance(reply.get("targets"), list):
                raise ProtocolError(f"{self._label} answered wanted_pages unexpectedly")
            found += [wanted for row in reply["targets"] if (wanted := wanted_of(row))]
            following = reply.get("next_offset")
            if following is not None and (not isinstance(following, int) or following <= offset):
                raise ProtocolError(f"{self._label} pages wanted_pages backwards")
            calls += 1
            # Pages are counted, not only rows: a server sending empty or unreadable
            # pages with a next offset would otherwise be asked forever.
            if len(found) > MAX_LISTED_PAGES or calls > MAX_LISTED_PAGES // WANTED_PAGE + 1:
                raise ProtocolError(f"{self._label} lists wanted pages without end")
            offset = following
        return found

    def importer(self) -> ServerImporter:
        """The model of the importer that loaded the server (`ImportedServer`), for the
        audit: gbrain's (our own `serve` names pages as they are, which the audit tells
        from the listing)."""
        from okf_explorer.sources.gbrain.importer import GBRAIN

        return GBRAIN

    def server_graph(self) -> ServerGraph | None:
        """The server's stored graph from the graph tools it lists (`graph_for`), or None
        when it lists no way to ask one side."""
        return graph_for(self.call_tool, self._label, self.tools())

    def close(self) -> None:
        self._rpc.close()


# -- the stored graph ------------------------------------------------------------

CallTool = Callable[[str, dict[str, Any]], Any]
LINK_TOOL: dict[Side, str] = {"out": "get_links", "in": "get_backlinks"}
TRAVERSE = "traverse_graph"


def graph_for(call_tool: CallTool, label: str, tools: frozenset[str]) -> McpServerGraph | None:
    """The graph the server's `tools` allow, or None when a side has no tool."""
    ways: dict[Side, str] = {}
    for side in ("out", "in"):
        if LINK_TOOL[side] in tools:
            ways[side] = LINK_TOOL[side]
        elif TRAVERSE in tools:
            ways[side] = TRAVERSE
        else:
            return None
    return McpServerGraph(call_tool, label, ways)


class McpServerGraph:
    """The server's stored link graph (see the module docstring)."""

    def __init__(self, call_tool: CallTool, label: str, ways: dict[Side, str]) -> None:
        self._call = call_tool
        self._label = label
        self.ways = dict(ways)
        """Which tool answers each side (`get_links`, `get_backlinks`, `traverse_graph`)."""

    @property
    def reduced(self) -> bool:
        """True when a side is answered by `traverse_graph` (a reduced tool list)."""
        return TRAVERSE in self.ways.values()

    def links_out(self, slug: str) -> list[str]:
        return self._answer("out", slug)

    def links_in(self, slug: str) -> list[str]:
        return self._answer("in", slug)

    def _answer(self, side: Side, slug: str) -> list[str]:
        tool = self.ways[side]
        if tool == TRAVERSE:
            arguments: dict[str, Any] = {"slug": slug, "depth": 1, "direction": side}
        else:
            arguments = {"slug": slug}
        rows = self._call(tool, arguments)
        if not isinstance(rows, list):
            raise ProtocolError(f"{self._label} answered {tool} with something unexpected")
        found = link_rows(rows, slug, side) if tool == TRAVERSE else plain_rows(rows, side)
        links: dict[tuple[str, str], ServerLink] = {}
        for link in found:
            links.setdefault((str(link), link.rel), link)
        return list(links.values())


# -- reading pages, one or many -------------------------------------------------

BODY_BATCH = 50
"""Pages per batch request when the text index reads bodies."""


def _get_page_params(slug: str, content: bool = True) -> dict[str, Any]:
    """`get_page` arguments; without content as gbrain's default (the flag left out)."""
    arguments: dict[str, Any] = (
        {"slug": slug, "include_content": True} if content else {"slug": slug}
    )
    return {"name": "get_page", "arguments": arguments}


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
