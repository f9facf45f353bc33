"""The records of an audit (`core.audit.compare`): what each side states, and a difference.
Also how the server names the folder's pages (`choose_naming`, `server_names`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from okf_explorer.core.audit.gbrain_model import gbrain_slug, import_skip_reason
from okf_explorer.core.links.typed import LINKS

Side = Literal["files", "server", "both"]
Naming = Literal["gbrain", "as-is"]


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


def choose_naming(file_slugs: Iterable[str], server_slugs: Iterable[str]) -> Naming:
    """How the server names the folder's pages, from the listing: `gbrain` when its
    naming and import rules predict which files are on the server better than the
    slugs as they are (a tie keeps them as they are)."""
    slugs = list(file_slugs)
    on_server = set(server_slugs)
    as_is = sum(slug in on_server for slug in slugs)
    gbrain = sum(
        (gbrain_slug(slug) in on_server) == (import_skip_reason(slug + ".md") is None)
        for slug in slugs
    )
    return "gbrain" if gbrain > as_is else "as-is"


def server_names(file_slugs: Iterable[str], naming: Naming) -> dict[str, str]:
    """Our slug → the server's name of that page."""
    if naming == "as-is":
        return {slug: slug for slug in file_slugs}
    return {slug: gbrain_slug(slug) or slug for slug in file_slugs}


def skip_reason(path: str, naming: Naming) -> str | None:
    """Why the server's import leaves out the file at `path` (gbrain naming only)."""
    return import_skip_reason(path) if naming == "gbrain" else None
