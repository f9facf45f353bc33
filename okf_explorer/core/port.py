"""The port: what the engine needs of where pages live, declared in the core and
implemented by the adapters in `sources/`.

`PageSource` is the one seam every source implements. Sources are synchronous and
thread-safe: the CLI calls them directly, the TUI from thread workers, the server
from its worker threads. A source that talks to a network may use concurrency
inside `scan`. `server_graph()` is a method of every source (None when it has no
stored graph: `ServerGraph`).

Optional capabilities are runtime-checkable protocols a caller tests with
`isinstance` (never `getattr(source, ...)`), one per thing a caller really needs:
`Folder` (the pages are files below a local folder: everything only a folder
offers), `TagListing` (a server-side tag filter), `BodyReader` (bodies in bulk, for
the text index; `BodyMapper`: made into its rows where they are read), `PageMapper`
(whole pages checked where they are read, for `validate`), `ServerSearch`
(the server's own full-text search), `WantedListing` (the server's own list of link
targets that have no page). The audit declares
the one it needs beside its model of a server's importer (`core.audit.model.ImportedServer`).

The write port is here too, beside the read one, since the same adapters implement
it: `PageWriter` saves a page back into a brain (a trail or a slice, issue 13) and
says exactly what happened. Reads are fail-open, writes are fail-closed. A
`SaveResult` is one of:

- `written`: the page was written **and read back identical** (verified);
- `unchanged`: the name already holds a page carrying this save's idempotency
  key (this slice, saved before), so nothing was written, whatever its bytes: a
  page a person edited since, or another run of the slice wrote, is left as it
  is (`same_slice` says whether its content is this save's);
- `refused`: the brain said no (auth, scope, policy), or the name holds a page
  this save did not write (`PAGE_EXISTS`): a save never replaces what it did not
  write; never retried;
- `conflict`: the brain refused to create the page because one was there, yet a
  re-read finds none (it came and went under us); nothing was written;
- `unavailable`: the brain could not be reached, or accepted the write without
  committing it yet (the detail names the pending request); nothing is known to
  be written;
- `failed`: anything else (a write that did not read back identical, a bad reply).

The idempotency key is derived from the content (roots, depth, direction,
edges) by the caller and reused on every retry of one save, so saving the same
slice twice yields one page, not two. Every writer only ever creates a page:
what is already at the name is `unchanged` (this key) or `refused` (anything else).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

from okf_explorer.core.excluded import Excluded
from okf_explorer.core.links import RawLink, extract_links
from okf_explorer.core.links.grammar import RawTuple
from okf_explorer.core.links.typed import frontmatter_links
from okf_explorer.core.pages import LineBreaks, Markup, Page, PageInfo

_Made = TypeVar("_Made")

ProgressCallback = Callable[[int, int], None]
"""Called as `progress(done, total)` while a scan runs."""

CancelCheck = Callable[[], bool]
"""Returns True when the caller wants long work to stop (then `Cancelled` is raised)."""


@dataclass(frozen=True, slots=True)
class PageStub:
    """A cheap listing entry: enough to decide whether a cached scan is still valid.

    `info` is filled when the listing already knows title/type (a server's
    `list_pages`); a folder listing leaves it None and the scan fills it. An empty
    `fingerprint` is not known yet (`Folder.enumerate_unstamped`): the scan records the one of
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
    (`Folder.scan_resolving`)."""

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
class StatesHome(Protocol):
    """A source whose own settings name the page to open first (a Logseq graph's
    `:default-home`, else its latest journal, as Logseq opens it; a Dendron vault's
    `root` note)."""

    def home_page(self, slugs: Sequence[str]) -> tuple[str, str] | None:
        """`(slug, why)` of that page among `slugs` (the listing), or None: none stated,
        or none of `slugs`. `why` is a few words for the status line."""
        ...


@runtime_checkable
class StatesExcluded(Protocol):
    """A source whose settings exclude pages from search (a vault's Obsidian "Excluded
    files", `core.excluded`)."""

    def excluded(self) -> Excluded:
        """Which pages are excluded (an empty `Excluded`: none)."""
        ...


@runtime_checkable
class HoldsBlocks(Protocol):
    """A source whose pages' blocks can be referenced by id (a Logseq graph's
    `((6380d82c-…))`)."""

    def block_texts(self, ids: Collection[str]) -> dict[str, str]:
        """The text of each block of `ids` (any case) found on a page, by id in lower
        case. Blocking: the first call reads every page."""
        ...


@runtime_checkable
class HoldsBases(Protocol):
    """A source holding Obsidian bases (`.base` files of YAML: `core.bases`), which its
    pages embed by name (`![[Books.base]]`): a vault."""

    def read_base(self, name: str) -> object:
        """The YAML of the base `name` names (a path from the folder, or a file name
        anywhere in it), loaded within bounds; `core.bases.BaseError` says why it
        cannot be (none found, too large, not YAML)."""
        ...

    def parse_base(self, text: str) -> object:
        """A base written in a page (a ```` ```base ```` block), loaded as `read_base`
        loads a file."""
        ...


@runtime_checkable
class StatesTasksFilter(Protocol):
    """A source whose Tasks plugin settings name a global filter (a vault's
    `.obsidian/plugins/obsidian-tasks-plugin/data.json`): only a checklist item holding it
    is a task to a ```` ```tasks ```` block (`core.bases.tasks_query`)."""

    def tasks_global_filter(self) -> str:
        """The global filter (`#task`), or "" when none is set."""
        ...


@runtime_checkable
class StatesMarkup(Protocol):
    """A source that knows its pages are written in another dialect than Markdown (a
    Logseq graph); any other's are Markdown."""

    def markup(self) -> Markup:
        """The dialect its pages are written in."""
        ...


@runtime_checkable
class NamesFolders(Protocol):
    """A source whose notes app opens a folder by its name (a Foam workspace: `[[projects]]`
    is `projects/index.md` when no note is called `projects`); any other's does not."""

    def wiki_folders(self) -> bool:
        """Whether a wiki name matching no page may name a folder (`SlugResolver`)."""
        ...


def wiki_folders(source: object) -> bool:
    """Whether `source` says its wiki names may name folders (`NamesFolders`)."""
    return isinstance(source, NamesFolders) and source.wiki_folders()


@runtime_checkable
class StatesMacros(Protocol):
    """A source whose pages may call macros its settings define (a Logseq graph's
    `:macros`, `{{name args}}`); any other's have none."""

    def macros(self) -> dict[str, str]:
        """Each macro's template (`$1`, `$2` the arguments), by name."""
        ...


@runtime_checkable
class StatesLineBreaks(Protocol):
    """A source that knows how a single newline in its pages' paragraphs reads (a folder:
    its kind, and a vault's own `.obsidian/app.json`); any other is read as CommonMark."""

    def line_breaks(self) -> LineBreaks:
        """The rule its pages are written for."""
        ...


@runtime_checkable
class Folder(Protocol):
    """A source whose pages are `.md` files below one local folder (a bundle or vault):
    everything only a folder offers, as one capability.

    - `local_root`: the real folder (exports never write into it; the TUI watches it);
    - `page_file`: the file of a page, which a person may edit (the TUI's `E`);
    - `okf_reserved`: whether its `index` / `log` pages are OKF reserved files (they are
      in an OKF bundle; in a plain vault, Foam or Obsidian, they are ordinary pages; a
      source that is no folder has them reserved by name);
    - `enumerate_unstamped`: a listing without fingerprints, cheaper than `enumerate`
      (no `stat` per file), for a build with nothing to compare fingerprints against
      (no previous index, no cache): its scan stamps each page as it reads it;
    - `scan_resolving`: a scan in plain rows (a `PageRow` per page, skipping a million
      small objects per 100k pages) whose workers also resolve each page's links as
      they read it: `build_index` passes a `core.index.build.LinkPass` (a picklable
      callable), and each readable page with links comes with what
      `resolve(slug, links)` returned for it, any other with None.
    """

    @property
    def local_root(self) -> Path:
        """The real (symlink-resolved) absolute folder."""
        ...

    def page_file(self, slug: str) -> Path:
        """The file of `slug`; `PageNotFound` for a slug no listing could produce."""
        ...

    def okf_reserved(self) -> bool:
        """True when pages named `index` / `log` are OKF reserved files."""
        ...

    def enumerate_unstamped(self) -> list[PageStub]:
        """`enumerate`, every stub's `fingerprint` empty."""
        ...

    def scan_resolving(
        self,
        stubs: Sequence[PageStub],
        resolve: Callable[[str, tuple[RawTuple, ...]], Any],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[tuple[PageRow, Any]]: ...


@runtime_checkable
class TagListing(Protocol):
    """A source that filters its own listing by tag (gbrain's `list_pages` `tag`): for
    listings whose rows carry no tags (`PageInfo.tags_known` False)."""

    def slugs_with_tag(self, tag: str) -> list[str]:
        """Slugs of the pages tagged `tag`, code-point order."""
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
class BodyMapper(Protocol):
    """A source that turns many page bodies into rows where it reads them (a folder's in
    worker processes): what the full-text index is filled from first."""

    def map_bodies(
        self, slugs: Sequence[str], make: Callable[[str, str, str], _Made]
    ) -> Iterator[tuple[str, _Made]]:
        """`(slug, make(slug, body, frontmatter))` of each readable page of `slugs`, in
        any order (`read_bodies`'s pages; `frontmatter`: its block as written, unparsed,
        "" when it has none); `make` is picklable and pure."""
        ...


@runtime_checkable
class PageMapper(Protocol):
    """A source that turns many whole pages into results where it reads them (a folder's
    in worker processes): what `validate` checks a large bundle with."""

    def map_pages(
        self, slugs: Sequence[str], make: Callable[[Page], _Made]
    ) -> Iterator[tuple[str, _Made]]:
        """`(slug, make(page))` of each page of `slugs` that `get_page` would return, in
        any order; a page it would raise for is skipped (ask `get_page` for the error).
        `make` is picklable and pure."""
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


@dataclass(frozen=True, slots=True)
class WantedTarget:
    """A link target that has no page yet (a dangling target), as the index or a
    server's `wanted_pages` knows it.

    `referenced_by` counts the distinct pages linking to it; `origins` names them in
    slug order (all of them from the index; a server gives a sample). `link_types`
    are the relations the links state (`links` for a body link), `existing_matches`
    pages whose file name equals a bare-name target (a server may know some; from the
    index there are none, since such a page would have resolved the link). The times
    are a server's (`first_seen`, `last_checked`), None when the index answers.
    """

    target: str
    referenced_by: int
    origins: tuple[str, ...] = ()
    link_types: tuple[str, ...] = ()
    existing_matches: tuple[str, ...] = ()
    first_seen: str | None = None
    last_checked: str | None = None


@runtime_checkable
class WantedListing(Protocol):
    """A source whose server lists the link targets it has no page for (gbrain's
    `wanted_pages`): dangling targets without a body scan."""

    def wanted_targets(self) -> list[WantedTarget] | None:
        """Every wanted target, most-referenced first (then by name), or None when the
        server has no such tool."""
        ...


def scan_one(page: Page) -> ScannedPage:
    """The scan result of one page already read: parse its links if readable."""
    if not page.readable:
        return ScannedPage(info=page.info(), links=())
    typed = frontmatter_links(page.frontmatter, page.type)
    links = (*extract_links(page.content), *map(RawLink.from_row, typed))
    return ScannedPage(info=page.info(), links=links)


# -- the write port --------------------------------------------------------------

PAGE_EXISTS = "page exists; choose another --as"
"""The refusal every writer gives for a name that holds a page this save did not write."""

SAME_SLICE = "the same slice is already saved there"
"""The `unchanged` every writer gives for a name holding a page with this save's key."""


def same_slice(identical: bool) -> str:
    """The `unchanged` detail: the slice is there, and whether its content is this
    save's (else a person's edit or another run's bytes, kept as they are)."""
    state = "identical" if identical else "content differs from this save: left as it is"
    return f"{SAME_SLICE} ({state})"


class SaveOutcome(StrEnum):
    """What a save did; only `written` and `unchanged` mean the page is there."""

    WRITTEN = "written"
    UNCHANGED = "unchanged"
    REFUSED = "refused"
    CONFLICT = "conflict"
    UNAVAILABLE = "unavailable"
    FAILED = "failed"

    @property
    def saved(self) -> bool:
        """True when the page now holds the bytes that were asked for (verified)."""
        return self in (SaveOutcome.WRITTEN, SaveOutcome.UNCHANGED)


@dataclass(frozen=True)
class SaveResult:
    """The outcome of one save, with a one-line reason a person can read.

    `where` names the page written (a file path or `URL#slug`, never a token);
    `attempts` counts the write requests made (0 for `unchanged` and dry runs).
    """

    outcome: SaveOutcome
    slug: str
    where: str
    detail: str = ""
    attempts: int = 0


@runtime_checkable
class PageWriter(Protocol):
    """A brain that can take a page: a folder bundle, or a server's `put_page`."""

    def write_page(self, slug: str, text: str, *, idempotency_key: str) -> SaveResult:
        """Write `text` as page `slug`, verify it by reading it back, say what happened.

        Never raises for a failure of the brain (that is an outcome); raises only
        for a programming error such as an invalid slug (`ValueError`).
        """
        ...
