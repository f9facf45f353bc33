"""Gather both sides of an audit (`core.audit.compare`): the folder's graph through our one
resolver, the server's through `list_pages` (paged) and `get_backlinks` (or
`get_links`) of every page, in JSON-RPC batches, `concurrency` POSTs in flight on the
client's keep-alive pool. (`traverse_graph` cannot answer many pages at once safely:
gbrain walks every path, with a per-path visited set, so deep walks explode on dense
graphs; and its rows lack `link_source` and source ids.)

The server's page bodies are fetched only for the pages whose differences need
them (`AuditRun.server_text`, one `get_page` each, remembered).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from okf_explorer.core.audit.compare import compare
from okf_explorer.core.audit.files import files_side
from okf_explorer.core.audit.model import (
    Difference,
    FilesSide,
    Naming,
    ServerSide,
    StoredLink,
    choose_naming,
)
from okf_explorer.core.errors import OkfError, PageNotFound, ProtocolError
from okf_explorer.core.index.build import build_index
from okf_explorer.core.pages import Page
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.gbrain.source import McpSource

LIST_LIMIT = 100
"""`list_pages` rows asked per call (gbrain clamps remote callers to 100)."""
BATCH = 20
"""`get_links` calls per JSON-RPC batch (one POST): fewer round trips, and a batch the
server answers in well under the request timeout."""
MAX_LISTED = 1_000_000
"""Past this many listed pages the audit stops (a server that never stops listing)."""


@dataclass
class AuditRun:
    """What an audit gathered and found. `files_edges` / `server_edges` count distinct
    (page, target) pairs on each side, self-links left out (pages named as the server
    names them; the files' count includes links from pages the server skips)."""

    naming: Naming
    files: FilesSide
    server: ServerSide
    differences: list[Difference] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    """Wall time of each phase: `server` (listing, links), `files`, `compare`."""

    @property
    def files_edges(self) -> int:
        return len({(x.page, x.target) for x in self.files.links if x.page != x.target})

    @property
    def server_edges(self) -> int:
        return len({(x.page, x.target) for x in self.server.links if x.page != x.target})


def run_audit(folder: Path, server: McpSource, *, concurrency: int = 4) -> AuditRun:
    """Read `folder` and `server`, and compare them (`core.audit.compare.compare`)."""
    started = time.perf_counter()
    if not {"get_links", "get_backlinks"} & server.tools():
        raise ProtocolError(
            f"{server.label} offers no get_links tool (nor get_backlinks): the audit needs"
            " the server's stored links"
        )
    pages = list_server_pages(server)
    stored = server_links(server, list(pages), concurrency)
    listed = time.perf_counter()
    files_source = BundleSource(folder)
    try:
        index = build_index(files_source, cache=False)
        readable = [slug for slug, info in index.pages.items() if info.readable]
        read = {slug: _page(files_source, slug) for slug in readable}
    finally:
        files_source.close()
    texts = {slug: page.content if page else "" for slug, page in read.items()}
    private = frozenset(
        slug
        for slug, page in read.items()
        if page is not None and page.frontmatter.get("visibility") == "private"
    )
    naming = choose_naming(index.pages, pages)
    files = files_side(index, texts, naming, private)
    side = ServerSide(pages=pages, links=stored)
    run = AuditRun(naming, files, side)
    read = time.perf_counter()
    run.differences = compare(files, side, server_text=_ServerTexts(server))
    done = time.perf_counter()
    run.seconds = {"server": listed - started, "files": read - listed, "compare": done - read}
    return run


def list_server_pages(server: McpSource) -> dict[str, str | None]:
    """Every page the server lists, slug → `source_id` (None when it says none)."""
    pages: dict[str, str | None] = {}
    offset = 0
    while offset < MAX_LISTED:
        rows = server.call_tool(
            "list_pages", {"limit": LIST_LIMIT, "offset": offset, "sort": "slug"}
        )
        if not isinstance(rows, list):
            raise ProtocolError(f"{server.label} answered list_pages with no list")
        fresh = 0
        for row in rows:
            if isinstance(row, dict) and isinstance(row.get("slug"), str):
                fresh += row["slug"] not in pages
                pages[row["slug"]] = _text(row.get("source_id"))
        if not rows or not fresh:
            return pages
        offset += len(rows)
    raise ProtocolError(f"{server.label} listed more than {MAX_LISTED} pages")


def server_links(server: McpSource, slugs: list[str], concurrency: int) -> list[StoredLink]:
    """Every edge the server stores into (or out of) the pages `slugs`: `get_backlinks`
    of each page when the server has that tool, else `get_links` (the same rows; on
    gbrain 0.46.28 a remote `get_links` costs about 3 s on a 2,000-page brain, a
    `get_backlinks` about 30 ms), skipping the pages gbrain's `find_orphans` names (one
    cheap call). `BATCH` calls per POST, `concurrency` POSTs in flight."""
    tool = "get_backlinks" if "get_backlinks" in server.tools() else "get_links"
    if tool == "get_backlinks":
        orphans = _orphans(server)
        slugs = [slug for slug in slugs if slug not in orphans]

    def links_of(chunk: list[str]) -> list[StoredLink]:
        found: list[StoredLink] = []
        for rows in server.call_tools(tool, [{"slug": slug} for slug in chunk]):
            if not isinstance(rows, list):
                raise ProtocolError(f"{server.label} answered {tool} with no list")
            found += [link for row in rows if (link := _stored(row)) is not None]
        return found

    chunks = [slugs[i : i + BATCH] for i in range(0, len(slugs), BATCH)]
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        return [link for links in pool.map(links_of, chunks) for link in links]


def _orphans(server: McpSource) -> set[str]:
    """Pages no page links to, from gbrain's `find_orphans` (pseudo pages included), so
    their `get_backlinks` (always empty) is not asked; empty when there is no such tool."""
    if "find_orphans" not in server.tools():
        return set()
    answer = server.call_tool("find_orphans", {"include_pseudo": True})
    rows = answer.get("orphans") if isinstance(answer, dict) else None
    if not isinstance(rows, list):
        return set()
    return {
        row["slug"] for row in rows if isinstance(row, dict) and isinstance(row.get("slug"), str)
    }


def _stored(row: object) -> StoredLink | None:
    if not isinstance(row, dict):
        return None
    page, target = _text(row.get("from_slug")), _text(row.get("to_slug"))
    if not page or not target:
        return None
    return StoredLink(
        page=page,
        target=target,
        link_type=_text(row.get("link_type")) or "mentions",
        link_source=_text(row.get("link_source")),
        target_source=_text(row.get("to_source_id")),
    )


def _page(source: BundleSource, slug: str) -> Page | None:
    try:
        return source.get_page(slug)
    except OkfError:
        return None


class _ServerTexts:
    """`server_text` for `compare`: one `get_page` per page asked, remembered."""

    def __init__(self, server: McpSource) -> None:
        self._server = server
        self._seen: dict[str, str | None] = {}
        self._lock = threading.Lock()

    def __call__(self, slug: str) -> str | None:
        with self._lock:
            if slug not in self._seen:
                try:
                    self._seen[slug] = self._server.get_page(slug).content
                except PageNotFound:
                    self._seen[slug] = None
            return self._seen[slug]


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
