"""What an audit (`core.audit.compare`) works with: the records of what each side
states and of a difference, and the model of the server's importer it reasons through.

The audit explains why the graph a server stores differs from the one the files state
by running the server's own import and link extraction on the same text. That model
is knowledge of one server (gbrain's is `sources.gbrain.importer`), so the core only
declares what it needs of it (`ServerImporter`): how it names the page of a file and
which files it skips (`choose_naming`, `server_names` and `skip_reason` use those), how
it files page names in its file-name index, what it reads as code, how it reads a
frontmatter field, and the edges its extractor proposes for a page (`LinkReader`,
`Candidate`), each with the settings it needs (`GLOBAL_BASENAME`,
`INCLUDE_FRONTMATTER`) so the audit can judge it under the settings it decided. A
source whose server was loaded by such an importer offers the model (`ImportedServer`:
the explorer's per-page view asks it); `sources.audit_gather` passes it to a whole audit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from okf_explorer.core.links.typed import LINKS

Side = Literal["files", "server", "both"]
Naming = str
"""How the server names the folder's pages: `AS_IS` (its slugs are ours) or the name of
the importer whose naming it follows (`ServerImporter.name`, e.g. `gbrain`)."""
AS_IS = "as-is"


@dataclass(frozen=True, slots=True)
class FileLink:
    """One resolved edge the files state, pages named as the server names them.
    `written` is the target as written; `rule`, `ambiguous` and `candidates` come
    from our resolver (SPEC §3); `rel` is `links` for a body link."""

    page: str
    target: str
    written: str
    kind: str
    rule: str
    rel: str = LINKS
    ambiguous: bool = False


@dataclass(frozen=True, slots=True)
class FilePage:
    """One file: `path` relative to the folder, `text` its body without frontmatter,
    `skipped` why the server's import leaves it out (None: it should be there),
    `private` whether it says `visibility: private` (gbrain hides it from remote callers),
    `frontmatter` and `page_type` as the file states them."""

    path: str
    text: str = ""
    skipped: str | None = None
    private: bool = False
    frontmatter: Mapping[str, Any] = field(default_factory=dict)
    page_type: str | None = None
    twin: str | None = None
    """The other file that maps to the same server slug (the one `skipped` here, or the
    one that kept it)."""
    frontmatter_error: str | None = None
    """Why the frontmatter is not valid YAML (gbrain's import skips such a file)."""
    first_line: int = 1
    """The file's line number of the body's first line (after the frontmatter)."""


@dataclass(frozen=True, slots=True)
class ServedPage:
    """A page as the server holds it (`get_page`): `slug` as it answered (another one
    when it followed a slug alias), `text` the body its extractor reads (compiled
    truth, a newline, timeline), its stored `frontmatter` and `page_type`."""

    slug: str
    text: str
    frontmatter: Mapping[str, Any] = field(default_factory=dict)
    page_type: str | None = None
    whole: bool = True
    """False when only the body is known (its frontmatter edges cannot be judged)."""


@dataclass(frozen=True, slots=True)
class StoredLink:
    """One edge the server stores (a `get_links` row)."""

    page: str
    target: str
    link_type: str = "mentions"
    link_source: str | None = "markdown"
    target_source: str | None = None


@dataclass(frozen=True, slots=True)
class FilesSide:
    pages: Mapping[str, FilePage]
    links: list[FileLink]


@dataclass(frozen=True, slots=True)
class ServerSide:
    pages: Mapping[str, str | None]
    """slug → source_id"""
    links: list[StoredLink]
    titles: Mapping[str, str] = field(default_factory=dict)
    """slug → title (from the listing: gbrain matches frontmatter names to titles)"""
    types: Mapping[str, str] = field(default_factory=dict)
    """slug → page type (from the listing: some frontmatter fields apply by type)"""


@dataclass(frozen=True, slots=True)
class Difference:
    """One difference. `side` is where the edge or page is: `files` (the server lacks
    it), `server` (the files lack it) or `both` (relations differ). `target` is None
    for a page-level difference."""

    page: str
    target: str | None
    written: str | None
    cause: str
    side: Side
    fix: str

    def to_json(self) -> dict[str, str | None]:
        return {
            "page": self.page,
            "target": self.target,
            "written": self.written,
            "cause": self.cause,
            "side": self.side,
            "fix": self.fix,
        }


# -- the server's importer, as the audit needs it --------------------------------

Setting = Literal["global_basename", "include_frontmatter"]
GLOBAL_BASENAME: Setting = "global_basename"
"""The setting `link_resolution.global_basename` (bare `[[name]]` by file name)."""
INCLUDE_FRONTMATTER: Setting = "include_frontmatter"
"""`gbrain extract links --include-frontmatter` (frontmatter fields become edges)."""
Origin = Literal["link", "prose", "field"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One edge the importer's extractor proposes for a page: `page` → `target` (before
    the existence check), its `link_source`, the settings it `needs`, and its `origin`:
    a written link (`written` as captured, `start`/`end` its span), a prose span, or the
    frontmatter `field` and its `written` value (with the `link_type` it gives)."""

    page: str
    target: str
    link_source: str
    origin: Origin
    written: str
    needs: frozenset[str] = frozenset()
    start: int = -1
    end: int = -1
    field: str | None = None
    link_type: str | None = None

    @property
    def pair(self) -> tuple[str, str]:
        return self.page, self.target


def made_with(candidate: Candidate, settings: Mapping[str, bool | None]) -> bool | None:
    """Whether the importer makes `candidate` under `settings` (setting → on, off or
    unknown): True, False, or None when it depends on a setting that is unknown."""
    states = [settings.get(need) for need in candidate.needs]
    if any(state is False for state in states):
        return False
    return None if any(state is None for state in states) else True


class LinkReader(Protocol):
    """The importer's link extractor over one server's pages (`ServerImporter.reader`)."""

    slugs: frozenset[str]
    """The server's pages."""

    def holds(self, candidate: Candidate) -> bool:
        """Whether the server stores `candidate` once proposed (both its pages exist)."""
        ...

    def by_file_name(self, name: str) -> list[str]:
        """The pages its file-name lookup answers for `name`."""
        ...

    def candidates(
        self,
        page: str,
        text: str,
        *,
        frontmatter: Mapping[str, Any] | None = None,
        page_type: str | None = None,
    ) -> list[Candidate]:
        """Every edge the extractor proposes for `page` whose body is `text` (and whose
        frontmatter and type are these), with the settings each needs."""
        ...


class ServerImporter(Protocol):
    """A model of the importer that loaded a server from a folder, and of its link
    extractor: what the audit runs to tell why an edge is on one side only."""

    @property
    def name(self) -> str:
        """Its name, which is also its naming (`Naming`): `gbrain`."""
        ...

    def page_name(self, path: str) -> str:
        """The slug it gives the file at `path` (relative; `.md` optional), or empty."""
        ...

    def skip_reason(self, path: str) -> str | None:
        """Why its import leaves out the file at `path` (relative, with `.md`), or None."""
        ...

    def file_name_keys(self, name: str) -> tuple[str, ...]:
        """The keys its file-name index files the last segment of `name` under."""
        ...

    def reader(self, slugs: frozenset[str], titles: Mapping[str, str]) -> LinkReader:
        """Its link extractor over the server's pages `slugs` (with their `titles`)."""
        ...

    def code_spans(self, text: str) -> list[tuple[int, int]]:
        """`(start, end)` of every stretch of `text` its extractor blanks as code."""
        ...

    def field_value(self, written: str) -> str:
        """The page name a frontmatter value `written` states, as it reads it."""
        ...

    def field_stating(self, frontmatter: Mapping[str, Any], rel: str, written: str) -> str:
        """The frontmatter field that states `written` with relation `rel` (else `rel`)."""
        ...


@runtime_checkable
class ImportedServer(Protocol):
    """A source whose server an importer loaded from files, with a model of it."""

    def importer(self) -> ServerImporter: ...


def choose_naming(
    file_slugs: Iterable[str], server_slugs: Iterable[str], importer: ServerImporter
) -> Naming:
    """How the server names the folder's pages, from the listing: the importer's name
    when its naming and import rules predict which files are on the server better than
    the slugs as they are (a tie keeps them as they are: `AS_IS`)."""
    slugs = list(file_slugs)
    on_server = set(server_slugs)
    as_is = sum(slug in on_server for slug in slugs)
    imported = sum(
        (importer.page_name(slug) in on_server) == (importer.skip_reason(slug + ".md") is None)
        for slug in slugs
    )
    return importer.name if imported > as_is else AS_IS


def server_names(
    file_slugs: Iterable[str], naming: Naming, importer: ServerImporter
) -> dict[str, str]:
    """Our slug → the server's name of that page."""
    if naming == AS_IS:
        return {slug: slug for slug in file_slugs}
    return {slug: importer.page_name(slug) or slug for slug in file_slugs}


def skip_reason(path: str, naming: Naming, importer: ServerImporter) -> str | None:
    """Why the server's import leaves out the file at `path` (the importer's naming only)."""
    return importer.skip_reason(path) if naming != AS_IS else None
