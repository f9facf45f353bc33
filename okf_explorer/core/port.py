"""The `PageSource` protocol: the one seam between the engine and where pages live.

Sources are synchronous and thread-safe: the CLI calls them directly, the TUI
from thread workers, the server from its worker threads. A source that talks
to a network may use concurrency inside `scan`.

Optional capabilities are declared here too, each a runtime-checkable protocol
a caller tests with `isinstance` (never `getattr(source, ...)`): `RowScanner`
(plain scan rows), `TagListing` (a server-side tag filter), `LocalFolder` (the
pages are files under a folder), `BodyReader` (bodies in bulk, for the text
index), `ServerSearch` (the server's own full-text search), `PageFiles` (the
file of one page), `ReservedFiles` (whether `index`/`log` pages are OKF reserved
files). `server_graph()` is a method of every source (None when it
has no stored graph).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from okf_explorer.core.links import RawLink, extract_links
from okf_explorer.core.links.grammar import RawTuple
from okf_explorer.core.links.typed import frontmatter_links
from okf_explorer.core.pages import Page, PageInfo

ProgressCallback = Callable[[int, int], None]
"""Called as `progress(done, total)` while a scan runs."""

CancelCheck = Callable[[], bool]
"""Returns True when the caller wants long work to stop (then `Cancelled` is raised)."""


@dataclass(frozen=True, slots=True)
class PageStub:
    """A cheap listing entry: enough to decide whether a cached scan is still valid.

    `info` is filled when the listing already knows title/type (a server's
    `list_pages`); a folder listing leaves it None and the scan fills it. An empty
    `fingerprint` is not known yet (`UnstampedListing`): the scan records the one of
    the file it reads.
    """

    slug: str
    fingerprint: str
    info: PageInfo | None = None


PageRow = tuple[tuple[Any, ...], tuple[RawTuple, ...]]
"""A `ScannedPage` as plain values (`ScannedPage.to_row`): the `PageInfo.to_row()` and
the `RawLink.to_row()` of each link. Cheap to pickle between processes."""


@dataclass(frozen=True, slots=True)
class ScannedPage:
    """What the index keeps of one page: its summary and its raw link targets.

    `to_row` / `from_row` give it as a `PageRow`: what scan workers send back
    (`RowScanner`)."""

    info: PageInfo
    links: tuple[RawLink, ...]

    def to_row(self) -> PageRow:
        """The page as plain values (see `PageRow`)."""
        return self.info.to_row(), tuple([link.to_row() for link in self.links])

    @classmethod
    def from_row(cls, row: PageRow) -> ScannedPage:
        """The inverse of `to_row`."""
        info, links = row
        return cls(PageInfo.from_row(info), tuple(map(RawLink.from_row, links)))


class ServerLink(str):
    """A slug from a server's stored graph, carrying what the server said of the link.

    `rel` is the relation (gbrain's `link_type`; its generic `mentions` is our
    `links`), `link_source` where the server found the link (`markdown`,
    `frontmatter`, ...) and `context` the text around it. A `str`, so a graph
    may answer plain slugs (then the relation is `links`).
    """

    rel: str = "links"
    link_source: str | None = None
    context: str | None = None

    def __new__(
        cls,
        slug: str,
        rel: str = "links",
        link_source: str | None = None,
        context: str | None = None,
    ) -> ServerLink:
        link = super().__new__(cls, slug)
        link.rel, link.link_source, link.context = rel, link_source, context
        return link


def relation_of(slug: str) -> str:
    """The relation of a server graph's answer: a `ServerLink`'s `rel`, else `links`."""
    return slug.rel if isinstance(slug, ServerLink) else "links"


@runtime_checkable
class ServerGraph(Protocol):
    """A source's own stored link graph (gbrain's `get_links` / `get_backlinks`).

    It answers with existing slugs only (servers drop dangling targets) and
    collapses duplicate mentions; the engine says so where it shows them. Its
    answers may be `ServerLink`s, which carry the link's relation and context.
    """

    def links_out(self, slug: str) -> list[str]: ...

    def links_in(self, slug: str) -> list[str]: ...


@runtime_checkable
class PageSource(Protocol):
    """Where pages come from."""

    @property
    def label(self) -> str:
        """What to show the user: a folder path, or a URL without credentials."""
        ...

    @property
    def cache_key(self) -> str:
        """Stable identity for the on-disk index cache (absolute path or URL)."""
        ...

    def enumerate(self) -> list[PageStub]:
        """Every page, in slug (code-point) order. Raises `SourceUnavailable`."""
        ...

    def get_page(self, slug: str) -> Page:
        """One whole page. Raises `PageNotFound`, `PageUnreadable`, `SourceUnavailable`."""
        ...

    def scan(
        self,
        stubs: Sequence[PageStub],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[ScannedPage]:
        """Read and parse these pages, yielding one `ScannedPage` each (any order).

        An unreadable page yields an info with `readable=False` and no links;
        only a failure of the whole source raises.
        """
        ...

    def server_graph(self) -> ServerGraph | None:
        """The source's stored link graph, or None when it has none."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class RowScanner(Protocol):
    """A source that can scan into plain rows, skipping a million small objects per 100k
    pages: each row is a `PageRow` (`ScannedPage.to_row()`, built without the
    `ScannedPage`). `build_index` prefers it to `scan`."""

    def scan_rows(
        self,
        stubs: Sequence[PageStub],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[PageRow]: ...


@runtime_checkable
class LinkResolvingScanner(Protocol):
    """A source whose scan workers also resolve each page's links as they read it
    (`build_index` passes a `core.index.build.LinkPass`, a picklable callable, and
    prefers this to `scan_rows`): each readable page with links comes with what
    `resolve(slug, links)` returned for it, any other with None."""

    def scan_resolving(
        self,
        stubs: Sequence[PageStub],
        resolve: Callable[[str, tuple[RawTuple, ...]], Any],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[tuple[PageRow, Any]]: ...


@runtime_checkable
class UnstampedListing(Protocol):
    """A source that can list its pages without their fingerprints, more cheaply than
    `enumerate` (a folder: no `stat` per file). For a build with nothing to compare
    fingerprints against (no previous index, no cache): its scan stamps each page
    with the fingerprint of the file as it reads it."""

    def enumerate_unstamped(self) -> list[PageStub]:
        """`enumerate`, every stub's `fingerprint` empty."""
        ...


@runtime_checkable
class TagListing(Protocol):
    """A source that filters its own listing by tag (gbrain's `list_pages` `tag`): for
    listings whose rows carry no tags (`PageInfo.tags_known` False)."""

    def slugs_with_tag(self, tag: str) -> list[str]:
        """Slugs of the pages tagged `tag`, code-point order."""
        ...


@runtime_checkable
class LocalFolder(Protocol):
    """A source whose pages are `.md` files below one local folder."""

    @property
    def local_root(self) -> Path:
        """The real (symlink-resolved) absolute folder."""
        ...


@runtime_checkable
class BodyReader(Protocol):
    """A source that reads many page bodies (text without frontmatter) cheaply: what
    the full-text index is filled from. Others are read with `get_page`."""

    def read_bodies(self, slugs: Sequence[str]) -> Iterator[tuple[str, str]]:
        """`(slug, body)` of each readable page of `slugs`, in any order; unreadable or
        missing pages are skipped. Only a failure of the whole source raises."""
        ...


@runtime_checkable
class ServerSearch(Protocol):
    """A source whose server searches its own pages' text (gbrain's `search` tool)."""

    def search_pages(
        self, query: str, limit: int, types: Sequence[str] | None = None
    ) -> list[dict[str, Any]] | None:
        """The server's rows (gbrain's reply shape: `slug`, `title`, `type`,
        `chunk_text`, `score`, ...), or None when the server has no search tool."""
        ...


@runtime_checkable
class PageFiles(Protocol):
    """A source whose pages are files a person may edit (the TUI's `E` opens one)."""

    def page_file(self, slug: str) -> Path:
        """The file of `slug`; `PageNotFound` for a slug no listing could produce."""
        ...


@runtime_checkable
class ReservedFiles(Protocol):
    """A source that knows whether its `index` / `log` pages are OKF reserved files.

    They are in an OKF bundle; in a plain vault (Foam, Obsidian) they are ordinary
    pages. A source without this capability (a server) has them reserved by name.
    """

    def okf_reserved(self) -> bool:
        """True when pages named `index` / `log` are OKF reserved files."""
        ...


def scan_one(page: Page) -> ScannedPage:
    """The scan result of one page already read: parse its links if readable."""
    if not page.readable:
        return ScannedPage(info=page.info(), links=())
    typed = frontmatter_links(page.frontmatter, page.type)
    links = (*extract_links(page.content), *map(RawLink.from_row, typed))
    return ScannedPage(info=page.info(), links=links)
