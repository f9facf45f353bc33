"""The audit of a folder against the gbrain-compatible server loaded from it
(`core.audit.compare`, judged through gbrain's importer, `sources.gbrain.importer.GBRAIN`):
both sides gathered, then compared. `compare`, `choose_naming` and `server_names` are
the core's, with that model.

The folder's side (`files_side`) is its link index through our one resolver, pages named
as the server names them; the server's is `list_pages` (paged) and `get_backlinks` (or
`get_links`) of every page, in JSON-RPC batches, `concurrency` POSTs in flight on the
client's keep-alive pool. (`traverse_graph` cannot answer many pages at once safely:
gbrain walks every path, with a per-path visited set, so deep walks explode on dense
graphs; and its rows lack `link_source` and source ids.)

The server's copies of pages (`ServedPages`) are read only for the pages whose
differences need them, in `get_page` batches, and remembered. A link target the
server does not list is asked for too: a server that follows gbrain's slug aliases
(a renamed page keeps its inbound links) answers it with the page's new slug, and
the audit compares that link under the new name.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from okf_explorer.core.audit import compare as audit
from okf_explorer.core.audit import model as audit_model
from okf_explorer.core.audit.model import (
    Difference,
    FileLink,
    FilePage,
    FilesSide,
    Naming,
    ServedPage,
    ServerSide,
    StoredLink,
)
from okf_explorer.core.errors import OkfError, ProtocolError
from okf_explorer.core.index.build import build_index
from okf_explorer.core.index.model import LinkIndex
from okf_explorer.core.pages import Page, is_private
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.gbrain.importer import GBRAIN
from okf_explorer.sources.gbrain.source import McpSource

LIST_LIMIT = 100
"""`list_pages` rows asked per call (gbrain clamps remote callers to 100)."""
BATCH = 20
"""`get_links` calls per JSON-RPC batch (one POST): fewer round trips, and a batch the
server answers in well under the request timeout."""
MAX_LISTED = 1_000_000
"""Past this many listed pages the audit stops (a server that never stops listing)."""
PAGE_BATCH = BATCH
"""`get_page` calls per JSON-RPC batch when reading the server's copies of pages."""
MAX_RENAMES_ASKED = 10_000
"""Past this many names the server lacks, the audit does not ask which were renamed."""


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
    settings: dict[str, bool | None] = field(default_factory=dict)
    """How the server extracted links, as the evidence says (None: unknown)."""
    evidence: dict[str, tuple[int, int]] = field(default_factory=dict)
    """setting → (edges that say it is on, edges that say it is off)"""
    renamed: dict[str, str] = field(default_factory=dict)
    """Link targets the server renamed (a slug alias) → their new slug."""
    gbrain: bool = False
    """Whether the server is gbrain (its name, or gbrain's page naming)."""

    @property
    def files_edges(self) -> int:
        return len({(x.page, x.target) for x in self.files.links if x.page != x.target})

    @property
    def server_edges(self) -> int:
        return len({(x.page, x.target) for x in self.server.links if x.page != x.target})


def compare(files: FilesSide, server: ServerSide, **options: Any) -> list[Difference]:
    """`core.audit.compare.compare` through gbrain's importer (its `options` too)."""
    return audit.compare(files, server, GBRAIN, **options)


def choose_naming(file_slugs: Iterable[str], server_slugs: Iterable[str]) -> Naming:
    """`core.audit.model.choose_naming` against gbrain's naming."""
    return audit_model.choose_naming(file_slugs, server_slugs, GBRAIN)


def server_names(file_slugs: Iterable[str], naming: Naming) -> dict[str, str]:
    """`core.audit.model.server_names` with gbrain's naming."""
    return audit_model.server_names(file_slugs, naming, GBRAIN)


def run_audit(folder: Path, server: McpSource, *, concurrency: int = 4) -> AuditRun:
    """Read `folder` and `server`, and compare them (`core.audit.compare.compare`)."""
    started = time.perf_counter()
    if not {"get_links", "get_backlinks"} & server.tools():
        raise ProtocolError(
            f"{server.label} offers no get_links tool (nor get_backlinks): the audit needs"
            " the server's stored links"
        )
    listing = list_server_pages(server)
    pages = listing.pages
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
        slug for slug, page in read.items() if page is not None and is_private(page.frontmatter)
    )
    stated = {
        slug: (page.frontmatter, page.type) for slug, page in read.items() if page is not None
    }
    errors = {
        slug: page.error
        for slug, page in read.items()
        if page is not None and page.error_kind == "malformed" and page.error
    }
    first_lines = {slug: _first_line(folder / (slug + ".md"), text) for slug, text in texts.items()}
    naming = choose_naming(index.pages, pages)
    files = files_side(index, texts, naming, private, stated, errors, first_lines)
    side = ServerSide(pages=pages, links=stored, titles=listing.titles, types=listing.types)
    run = AuditRun(naming, files, side)
    read_at = time.perf_counter()
    served = ServedPages(server)
    run.renamed = served.renamed(({x.target for x in files.links} | set(files.pages)) - set(pages))
    run.differences, ran = audit.run_compare(
        files, side, GBRAIN, server_text=served, prefetch=served.prefetch, renamed=run.renamed
    )
    run.settings, run.evidence = ran.settings, ran.evidence
    run.gbrain = naming == GBRAIN.name or server.transport.server_info.get("name") == "gbrain"
    done = time.perf_counter()
    run.seconds = {"server": listed - started, "files": read_at - listed, "compare": done - read_at}
    return run


def files_side(
    index: LinkIndex,
    texts: Mapping[str, str],
    naming: Naming,
    private: frozenset[str] = frozenset(),
    frontmatter: Mapping[str, tuple[Mapping[str, Any], str | None]] | None = None,
    errors: Mapping[str, str] | None = None,
    first_lines: Mapping[str, int] | None = None,
) -> FilesSide:
    """The files' side of an audit from the folder's link index: readable pages keyed by
    the server's name (`naming`), `texts` their bodies (slug → body without
    frontmatter), and every resolved, existing edge, typed ones included (an incoming
    relation runs from its target to the page stating it). Dangling links are left
    out: a server never stores them. When two files map to one server slug, the first
    keeps it and the other is a page `skipped` under its own slug. `private` holds the
    slugs of pages marked `visibility: private`; `frontmatter` each page's frontmatter
    and type (slug → (frontmatter, type)), for what gbrain reads there; `errors` why a
    page's frontmatter is not valid YAML (slug → reason); `first_lines` the file line of
    each body's first line (line numbers in fixes are the file's)."""
    names = server_names(index.pages, naming)
    stated = frontmatter or {}
    twins: set[str] = set()
    """Files skipped for another of the same slug: their links stay theirs (the page's
    own difference stands for them); links to them reach the slug's page."""
    pages: dict[str, FilePage] = {}
    for slug, info in index.pages.items():
        if not info.readable:
            continue
        name = names[slug]
        path = slug + ".md"
        skipped = audit_model.skip_reason(path, naming, GBRAIN)
        if skipped is None and name in pages:  # the first file keeps the slug
            kept = pages[name]
            reason = f"two files map to the slug {name} (also {kept.path})"
            pages[name] = replace(kept, twin=path)
            pages[slug] = FilePage(
                path=path, text=texts.get(slug, ""), skipped=reason, twin=kept.path
            )
            twins.add(slug)
            continue
        fields, page_type = stated.get(slug, ({}, None))
        pages[name] = FilePage(
            path=path,
            text=texts.get(slug, ""),
            skipped=skipped,
            private=slug in private,
            frontmatter=fields,
            page_type=page_type,
            frontmatter_error=(errors or {}).get(slug),
            first_line=(first_lines or {}).get(slug, 1),
        )
    links: list[FileLink] = []
    for slug, resolved in index.forward.items():
        for link in resolved:
            if not link.exists or slug not in names or link.to not in names:
                continue
            frm, to = (link.to, slug) if link.incoming else (slug, link.to)
            links.append(
                FileLink(
                    page=frm if frm in twins else names[frm],
                    target=names[to],
                    written=link.target,
                    kind=link.kind,
                    rule=link.rule,
                    rel=link.rel,
                    ambiguous=link.ambiguous,
                )
            )
    return FilesSide(pages=pages, links=links)


@dataclass
class Listing:
    """What `list_pages` says of every page: slug → `source_id` (None when it says
    none), title and type."""

    pages: dict[str, str | None] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)


def list_server_pages(server: McpSource) -> Listing:
    """Every page the server lists (`Listing`)."""
    listing = Listing()
    pages = listing.pages
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
                slug = row["slug"]
                fresh += slug not in pages
                pages[slug] = _text(row.get("source_id"))
                if (title := _text(row.get("title"))) is not None:
                    listing.titles[slug] = title
                if (kind := _text(row.get("type"))) is not None:
                    listing.types[slug] = kind
        if not rows or not fresh:
            return listing
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


def _first_line(path: Path, body: str) -> int:
    """The line of the file at `path` where `body` (its text after the frontmatter) starts."""
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return 1
    return raw.count("\n", 0, len(raw) - len(body)) + 1 if raw.endswith(body) else 1


def _page(source: BundleSource, slug: str) -> Page | None:
    try:
        return source.get_page(slug)
    except OkfError:
        return None


class ServedPages:
    """`server_text` for `compare`: the server's copy of each page asked, read in
    `get_page` batches (`prefetch`) and remembered; None for a page it lacks."""

    def __init__(self, server: McpSource) -> None:
        self._server = server
        self._seen: dict[str, ServedPage | None] = {}
        self._lock = threading.Lock()

    def __call__(self, slug: str) -> ServedPage | None:
        self.prefetch([slug])
        return self._seen.get(slug)

    def prefetch(self, slugs: Iterable[str]) -> None:
        """Read the pages of `slugs` not read yet, `PAGE_BATCH` a request."""
        with self._lock:
            wanted = [slug for slug in dict.fromkeys(slugs) if slug not in self._seen]
            for at in range(0, len(wanted), PAGE_BATCH):
                chunk = wanted[at : at + PAGE_BATCH]
                answers = self._server.get_pages(chunk, content=False)
                for slug, page in zip(chunk, answers, strict=True):
                    self._seen[slug] = (
                        ServedPage(page.slug, page.content, page.frontmatter, page.type)
                        if isinstance(page, Page)
                        else None
                    )

    def renamed(self, slugs: Iterable[str]) -> dict[str, str]:
        """Of `slugs` (pages the server does not list), those it answers with another
        page (it followed a slug alias): slug → the page's slug now."""
        wanted = sorted(slugs)[:MAX_RENAMES_ASKED]
        self.prefetch(wanted)
        return {
            slug: page.slug
            for slug in wanted
            if (page := self._seen.get(slug)) is not None and page.slug != slug
        }


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
