"""The page model shared by every source, and the readings of a page they all share.

A `Page` is a whole page with its body; a `PageInfo` is what a listing or the
index keeps about a page without its body (cheap to hold for 100k pages). Every
source reads a page's reserved name, its `aliases` and its headings the same way:
`headings` is the one reading of ATX headings outside fenced code, for the scan (a
page's title is its first `# ` heading) and for `validate` (a log's `## ` dates). A
fence opens at a line starting with three backticks or tildes and closes at the next
line starting with the same three; a heading of level N is a line starting with N `#`
then a space or tab. An attribute block ending a heading (`{#usage .tab}`, as MkDocs,
Pandoc, kramdown and Hugo write a heading's id) is no part of its text
(`without_attributes`): the title, the drawn heading, the outline and the text index
all read it without.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from operator import itemgetter
from typing import Any, Literal

RESERVED_NAMES = frozenset({"index", "log"})
"""OKF reserved file names (without `.md`): pages too, marked as reserved."""


ErrorKind = Literal["undecodable", "malformed", "unreadable", "missing"]
"""Why a page has an `error`: its bytes are not UTF-8 (`undecodable`), its frontmatter
was ignored (`malformed`, the page stays readable), it could not be read (`unreadable`:
I/O, permissions, a server error) or it vanished (`missing`)."""

LASTING_ERROR_KINDS: frozenset[ErrorKind] = frozenset({"undecodable"})
"""Failures that are a property of a page's bytes: kept until the page changes
(the others may pass without it changing, so they are retried at every refresh)."""


def is_reserved(slug: str) -> bool:
    """True for OKF reserved files (`index`, `log`) at any folder level."""
    return slug.rsplit("/", 1)[-1] in RESERVED_NAMES


def title_says_more(slug: str, title: str | None) -> bool:
    """Whether `title` tells more than the slug's last part (`orders` · `Orders` does not)."""
    if not title:
        return False
    plain = slug.rsplit("/", 1)[-1].removesuffix(".md")
    return _loose(title) != _loose(plain)


def _loose(text: str) -> str:
    return text.casefold().replace("-", " ").replace("_", " ").strip()


def frontmatter_aliases(value: Any) -> tuple[str, ...]:
    """Frontmatter `aliases` (Obsidian): a string or a list of them, blanks dropped."""
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        return ()
    names = (str(item).strip() for item in items if isinstance(item, (str, int, float)))
    return tuple(dict.fromkeys(name for name in names if name))


_ATTRIBUTE = r"""(?:[#.][\w:-]+|[\w-]+=(?:"[^"\n]*"|'[^'\n]*'|[^\s'"{}]+))"""
_ATTRIBUTE_BLOCK = re.compile(rf"\{{[ \t]*+[#.][\w:-]+(?:[ \t]++{_ATTRIBUTE})*+[ \t]*+\}}")
"""An attribute block ending a heading: an `#id` or a `.class` first, then ids, classes
and `key=value` pairs (`{ #first-steps }`, `{#open-it .tab data-x="1 2"}`)."""
_ID = re.compile(r"(?<![\w\"'=])#([\w:-]+)")
"""An `#id` of an attribute block (not a `#` inside a quoted value)."""
_MDX_ID = re.compile(r"\{/\*[ \t]*+([\w:-]+)[ \t]*+\*/\}")
"""A heading's id as React's docs write it in MDX, a comment ending the heading
(`## Usage {/*usage*/}`: 2,663 headings of an LLM wiki that took in react.dev)."""


def without_attributes(heading: str) -> str:
    """A heading's text without the attribute block ending it (`split_attributes`)."""
    return split_attributes(heading)[0]


def split_attributes(heading: str) -> tuple[str, str | None]:
    """A heading's text without the attribute block ending it (`_ATTRIBUTE_BLOCK`, or
    MDX's comment naming its id, `_MDX_ID`), and the block's `#id` if it names one. The
    block is read from the heading's last `{`: a line of thousands of braces or blanks
    costs its length."""
    text = heading.rstrip()
    if not text.endswith("}"):
        return heading, None
    start = text.rfind("{")
    if text.endswith("*/}") and (mdx := _MDX_ID.fullmatch(text, start)) is not None:
        return text[:start].rstrip(), mdx[1]
    block = _ATTRIBUTE_BLOCK.fullmatch(text, start)
    if block is None:
        return heading, None
    found = _ID.search(block[0])
    return text[:start].rstrip(), found[1] if found else None


def heading_with_id(body: str, wanted: str) -> str | None:
    """The text of the first heading of `body` whose attribute block gives it the id
    `wanted` (`## Open it {#open-it}`: a link to `#open-it` names it), or None."""
    if "{" not in body:
        return None
    for _, _, heading in placed_headings(body):
        text, found = split_attributes(heading)
        if found == wanted:
            return text
    return None


_HEADING_OR_FENCE = re.compile(
    r"^(?:(?P<fence>```|~~~)|(?P<marks>#{1,6})[ \t]+(?P<text>[^\r\n]*))", re.M
)


def has_tag(tags: Sequence[str], wanted: str) -> bool:
    """Whether a page of `tags` has the tag `wanted`, as Obsidian's search (`tag:`) and
    bases (`hasTag`) match one: with or without its `#`, in any case, and a tag
    holds its nested tags (`inbox` matches `inbox/to-read`)."""
    wanted = wanted.lstrip("#").lower()
    nested = f"{wanted}/"
    return any((tag := own.lower()) == wanted or tag.startswith(nested) for own in tags)


def headings(body: str, level: int) -> Iterator[str]:
    """The text of each level-`level` heading of `body` outside fenced code, stripped."""
    return (text for found, text in leveled_headings(body) if found == level)


PRIVATE = "private"
"""The `visibility` value that keeps a page from remote callers (gbrain's, exactly)."""


def is_private(frontmatter: Mapping[str, Any] | None) -> bool:
    """Whether a page of this frontmatter says `visibility: private`: gbrain hides such a
    page from every remote caller, as if it did not exist (only this exact value does;
    any other, or none, is visible)."""
    return frontmatter is not None and frontmatter.get("visibility") == PRIVATE


def leveled_headings(body: str) -> Iterator[tuple[int, str]]:
    """(level, text) of each heading of `body` outside fenced code, in order, stripped."""
    return ((level, text) for _, level, text in placed_headings(body))


def placed_headings(body: str) -> Iterator[tuple[int, int, str]]:
    """(offset, level, text) of each heading of `body` outside fenced code, in order,
    stripped: `offset` is where its line starts."""
    in_fence: str | None = None
    for match in _HEADING_OR_FENCE.finditer(body):
        fence = match.group("fence")
        if fence is not None:
            if in_fence is None:
                in_fence = fence
            elif fence == in_fence:
                in_fence = None
        elif in_fence is None:
            yield match.start(), len(match.group("marks")), match.group("text").strip()


@dataclass(frozen=True, slots=True)
class PageInfo:
    """What is known about a page without its body.

    `fingerprint` changes whenever the page changes (mtime, size and ctime of a file,
    `updated_at` on a server); the index cache compares it. `error` is why the
    page is unreadable (`readable` False) or why its frontmatter was ignored
    (`readable` True); `error_kind` says which kind of failure that is.
    `tags_known` is False when `tags` is empty only because the source did not
    say (gbrain's `list_pages` rows carry no tags): show it as unknown, not as
    "no tags". `title_stated` is True when the page states its title
    (frontmatter `title`, or a server's listing), False when `title` only comes
    from the first heading or the file name: only a stated title resolves links
    (SPEC §3). `aliases` are the frontmatter `aliases` (and a Logseq page's
    `alias::`). `okf_status`, `okf_trust` and `okf_stale_after` are the page's OKF
    v0.2 lifecycle and trust summary (`core.okf.meta.summary`, read by the source):
    None for a page that states no OKF trust key, so listings, filters and rows need
    no body. `heading_title` is the title the page's first heading gives
    (`sources.frontmatter.first_heading`) when it states none, else None: `title` is it,
    unless many pages open with the same heading (`core.index.build.SHARED_HEADING`), then
    the file name; kept so that a title follows the count as other pages come and go.
    `private` is True when its frontmatter says `visibility: private` (`is_private`).

    `to_row` / `from_row` give the fields as one plain tuple, in field order:
    the shape scan workers and the disk cache use (`row_of` builds one without a
    `PageInfo`; `slug_of_row` and `fingerprint_of_row` read one).
    """

    slug: str
    title: str
    type: str | None = None
    tags: tuple[str, ...] = ()
    updated_at: str | None = None
    reserved: bool = False
    readable: bool = True
    error: str | None = None
    fingerprint: str = ""
    description: str | None = None
    tags_known: bool = True
    error_kind: ErrorKind | None = None
    aliases: tuple[str, ...] = ()
    title_stated: bool = False
    okf_status: str | None = None
    okf_trust: str | None = None
    okf_stale_after: str | None = None
    heading_title: str | None = None
    private: bool = False

    def to_row(self) -> tuple[Any, ...]:
        """Every field as a plain tuple, in field order (see `from_row`)."""
        return (
            self.slug,
            self.title,
            self.type,
            self.tags,
            self.updated_at,
            self.reserved,
            self.readable,
            self.error,
            self.fingerprint,
            self.description,
            self.tags_known,
            self.error_kind,
            self.aliases,
            self.title_stated,
            self.okf_status,
            self.okf_trust,
            self.okf_stale_after,
            self.heading_title,
            self.private,
        )

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> PageInfo:
        """The inverse of `to_row`; a row of another length raises `ValueError`."""
        if len(row) != PAGE_INFO_ROW_LENGTH:
            raise ValueError(f"a PageInfo row has {PAGE_INFO_ROW_LENGTH} fields, not {len(row)}")
        return cls(*row)

    @staticmethod
    def row_of(
        slug: str,
        title: str,
        type: str | None = None,
        tags: tuple[str, ...] = (),
        updated_at: str | None = None,
        reserved: bool = False,
        readable: bool = True,
        error: str | None = None,
        fingerprint: str = "",
        description: str | None = None,
        tags_known: bool = True,
        error_kind: ErrorKind | None = None,
        aliases: tuple[str, ...] = (),
        title_stated: bool = False,
        okf_status: str | None = None,
        okf_trust: str | None = None,
        okf_stale_after: str | None = None,
        heading_title: str | None = None,
        private: bool = False,
    ) -> tuple[Any, ...]:
        """`PageInfo(...).to_row()` without building the `PageInfo` (a scan's per-page path)."""
        return (
            slug,
            title,
            type,
            tags,
            updated_at,
            reserved,
            readable,
            error,
            fingerprint,
            description,
            tags_known,
            error_kind,
            aliases,
            title_stated,
            okf_status,
            okf_trust,
            okf_stale_after,
            heading_title,
            private,
        )


PAGE_INFO_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PageInfo))
"""The field names of `PageInfo`, in row order."""
PAGE_INFO_ROW_LENGTH = len(PAGE_INFO_FIELDS)
"""How many values `PageInfo.to_row` gives."""
slug_of_row: Callable[[Sequence[Any]], str] = itemgetter(PAGE_INFO_FIELDS.index("slug"))
"""The `slug` of a `PageInfo.to_row()` row, without decoding the row."""
fingerprint_of_row: Callable[[Sequence[Any]], str] = itemgetter(
    PAGE_INFO_FIELDS.index("fingerprint")
)
"""The `fingerprint` of a `PageInfo.to_row()` row, without decoding the row."""


@dataclass(frozen=True, slots=True)
class Page:
    """A whole page: SPEC §2 `{slug, title, type, tags, content, frontmatter, updated_at}`.

    `content` is the body without frontmatter. `frontmatter` is the parsed YAML
    mapping (empty when absent or malformed; then `error` says why and
    `error_kind` is `malformed`). `title_stated` is True when `title` was stated
    (frontmatter, a server), not taken from the first heading or the file name
    (see `PageInfo`). `okf_status`, `okf_trust` and `okf_stale_after` are what the
    source read of the frontmatter's OKF trust (`core.okf.meta.summary`, see
    `PageInfo`): the page model knows no OKF rules. `aliases` are other names the
    source read beside the frontmatter's `aliases` (a Logseq page's `alias::`).
    `heading_title`: the title its first heading gives, when it states none (`PageInfo`).
    """

    slug: str
    title: str
    content: str
    type: str | None = None
    tags: tuple[str, ...] = ()
    frontmatter: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    updated_at: str | None = None
    reserved: bool = False
    readable: bool = True
    error: str | None = None
    fingerprint: str = ""
    error_kind: ErrorKind | None = None
    title_stated: bool = False
    okf_status: str | None = None
    okf_trust: str | None = None
    okf_stale_after: str | None = None
    aliases: tuple[str, ...] = ()
    heading_title: str | None = None

    @property
    def description(self) -> str | None:
        value = self.frontmatter.get("description")
        return str(value) if value is not None else None

    def info(self) -> PageInfo:
        """The body-less summary of this page."""
        return PageInfo(
            slug=self.slug,
            title=self.title,
            type=self.type,
            tags=self.tags,
            updated_at=self.updated_at,
            reserved=self.reserved,
            readable=self.readable,
            error=self.error,
            fingerprint=self.fingerprint,
            description=self.description,
            error_kind=self.error_kind,
            aliases=tuple(
                dict.fromkeys(
                    (*frontmatter_aliases(self.frontmatter.get("aliases")), *self.aliases)
                )
            ),
            title_stated=self.title_stated,
            okf_status=self.okf_status,
            okf_trust=self.okf_trust,
            okf_stale_after=self.okf_stale_after,
            heading_title=self.heading_title,
            private=is_private(self.frontmatter),
        )

    def to_json(self) -> dict[str, Any]:
        """The page as `get --json` prints it (SPEC §2 keys, then our extras)."""
        return {
            "slug": self.slug,
            "title": self.title,
            "type": self.type,
            "tags": list(self.tags),
            "content": self.content,
            "frontmatter": _jsonable(self.frontmatter),
            "updated_at": self.updated_at,
            "reserved": self.reserved,
            "readable": self.readable,
            "error": self.error,
        }


@dataclass(frozen=True, slots=True)
class LineBreaks:
    """How a single newline inside a paragraph reads on a brain's pages: a line break
    (`hard`: Obsidian's default in a vault, where `Plugin ID: x` / `Links: y` are
    written on lines of their own) or a space (CommonMark: an OKF bundle, a vault with
    Obsidian's "Strict line breaks" on, a server's pages). `why` says which and why,
    in a few words (the page header's tooltip shows it)."""

    hard: bool
    why: str


COMMONMARK_BREAKS = LineBreaks(False, "CommonMark: a single newline is a space")
"""The rule where a source states none."""

Markup = Literal["markdown", "logseq", "dendron", "silverbullet"]
"""How a brain's pages are written: Markdown with Obsidian's extensions; Logseq's
Markdown (tags are links, org-mode blocks, `{{embed [[page]]}}`, block properties),
which the explorer draws as Logseq shows it (`tui.markdown.logseq`); Dendron's (the
label of a link first); SilverBullet's (Lua expressions `${…}` among the text, drawn
as `tui.markdown.silverbullet` says). `core.links.dialects` reads their links as ours."""


def _jsonable(value: Any) -> Any:
    """YAML can produce dates and other non-JSON scalars; render them as strings."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)
