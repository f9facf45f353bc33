"""A Logseq graph's page names: what Logseq calls each page of the folder.

Logseq names a page by its file name, never by a heading, and writes in the name what
a file name cannot hold: `pages/Whiteboard___Object.md` is the page `Whiteboard/Object`
(a namespace), and `[[Whiteboard/Object]]` links to it. A page's first lines of
`key:: value` are its properties: `title::` names it instead of its file, `alias::`
gives it other names (`alias:: Whiteboard objects, [[Whiteboard object]]`), `tags::`
its tags. A journal, `journals/2022_07_09.md`, is called by its date as the graph
writes dates (`Jul 9th, 2022` by default), which is how other pages link to it.

So in a Logseq graph a page's title is that name (stated: it resolves links by the
`title` rule of SPEC §3, as Logseq resolves them, whatever the case), its aliases and
tags are the properties'. A YAML frontmatter (Logseq reads one too) still comes first.
The body is left as written: the properties stay on the page, and the links they hold
(`type:: [[Class]]`) stay links.

A folder is a Logseq graph when it holds `logseq/config.edn`, which every graph has.
Its `:file/name-format` says how a name became a file name (Logseq's own docs, page
"Filename format"): `:triple-lowbar` (new graphs since 0.8.9): `/` written `___`, other
characters percent-encoded; `:legacy` (a graph without the key): percent-encoded, and a
`.` read as `/` as older versions wrote it. `:journal/page-title-format` is the date
format of journal names (tokens below; another format keeps Logseq's default).
`:default-home {:page "Contents"}` is the page Logseq opens first; without it Logseq
opens the journals, so the explorer starts on the latest (`home_page`).

A block that other blocks reference, `((6380d82c-…))`, carries its id as a property
(`id:: 6380d82c-…`, under its bullet): `block_texts` reads each page's, so the explorer
can show a reference as the text it refers to.

The scan reads the names in the worker that reads the page (`LogseqGraph` travels with
the work); `BundleSource` reads the graph's settings when it lists the folder.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import unquote

from okf_explorer.core.logseq_macros import MacroCalls
from okf_explorer.core.pages import PAGE_INFO_FIELDS, Markup, Page
from okf_explorer.sources.folder.regular_files import read_head

__all__ = [
    "LOGSEQ_CONFIG",
    "LOGSEQ_FOLDER",
    "LogseqGraph",
    "block_texts",
    "logseq_graph",
]

LOGSEQ_CONFIG = os.path.join("logseq", "config.edn")
"""Every Logseq graph's settings file, relative to the graph's folder."""
LOGSEQ_FOLDER = "logseq/"
"""The slug prefix of Logseq's own folder (settings, `bak/` copies of pages): no pages."""
CONFIG_BYTES = 1 << 20
"""A settings file larger than this is not read (Logseq's is a few tens of KB)."""
DEFAULT_DATE_FORMAT = "MMM do, yyyy"
"""Logseq's journal title format when the graph states none."""
PROPERTY_LINES = 200
"""At most this many property lines are read at the top of a page."""

_PROPERTY = re.compile(r"([A-Za-z0-9_?*.-]+)::[ \t]?(.*)")
_JOURNAL = re.compile(r"(\d{4})_(\d{2})_(\d{2})")
_DATE_TOKEN = re.compile(r"yyyy|MMMM|MMM|MM|EEEE|EEE|do|dd|d|'[^']*'|[A-Za-z]")
_KNOWN_TOKENS = frozenset({"yyyy", "MMMM", "MMM", "MM", "EEEE", "EEE", "do", "dd", "d"})
_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
"""Logseq writes dates in English whatever the machine's locale."""
_VALUE_PART = re.compile(r"(?:\[\[[^\]]*\]\]|[^,])+")
"""One comma-separated part of a property's value: a `[[link, with commas]]` stays whole."""
_NAME_FORMAT = re.compile(r":file/name-format\s+:([\w-]+)")
_TITLE_FORMAT = re.compile(r':journal/page-title-format\s+"([^"\n]*)"')
_BLOCK_ID = re.compile(
    r"[ \t]+id::[ \t]*([0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})[ \t]*"
)
_BULLET = re.compile(r"[ \t]*[-*+][ \t]+(?:#{1,6}[ \t]+)?(.*)")
BLOCK_LOOKBACK = 200
"""Lines looked back from a block's `id::` for its bullet (a block longer than that has
no text here)."""
_HOME = re.compile(r':default-home\s*\{[^{}]*?:page\s+"([^"\n]*)"')
_EDN_PIECE = re.compile(r'"(?:[^"\\]|\\.)*"|;[^\n]*|[^";]+|"', re.S)
"""A string, a comment, or a run of anything else (an unclosed `"` alone)."""
_MACROS = re.compile(r":macros\s*\{")
_MACRO_ENTRY = re.compile(r'[\s,]*"((?:[^"\\]|\\.)*)"[\s,]*"((?:[^"\\]|\\.)*)"', re.S)
MACROS_MOST = 500
"""Macros read from a graph's settings, at most."""
_HIDDEN = re.compile(r':hidden\s*\[((?:"(?:[^"\\]|\\.)*"|[^\]"])*)\]', re.S)
_EDN_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"', re.S)
HIDDEN_MOST = 1000
"""Hidden paths read from a graph's settings, at most (as `core.excluded` reads filters)."""


@dataclass(frozen=True, slots=True)
class PageNames:
    """What a Logseq page is called: `title`, other names, tags (empty: none stated)."""

    title: str
    aliases: tuple[str, ...]
    tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LogseqGraph:
    """How a Logseq graph names its pages: `file_format` is `triple-lowbar` or `legacy`,
    `date_format` the journal title format (supported tokens only), `home` the name of
    the page it opens first (None: the journals), `macros` its own macros."""

    file_format: str = "triple-lowbar"
    date_format: str = DEFAULT_DATE_FORMAT
    home: str | None = None
    macros: tuple[tuple[str, str], ...] = ()
    """`(name, template)` of the graph's own macros (`:macros`): `{{name a, b}}` shows the
    template, `$1` and `$2` as `a` and `b`."""
    hidden: tuple[str, ...] = ()
    """The folders and files the graph's settings hide (`:hidden ["/archived" "README.md"]`,
    paths from the graph's folder): Logseq leaves them out of the graph; here they are
    excluded files (`core.excluded`: out of search and mentions, links kept)."""

    @property
    def markup(self) -> Markup:
        """Logseq's Markdown (`sources.folder.dialect.Dialect`)."""
        return "logseq"

    @property
    def cache_tag(self) -> str:
        """How it names pages and what its macros say, in the folder's cache key
        (`Dialect`): search reads a page with its macros' templates (`MacrosFilled`)."""
        tag = f"logseq {self.file_format} {self.date_format}"
        if self.macros:
            tag += " macros " + hashlib.sha256(repr(self.macros).encode()).hexdigest()[:16]
        return tag

    def named_row(self, row: Sequence[Any], body: str) -> tuple[Any, ...]:
        """A `PageInfo` row of one of the graph's pages with its Logseq names (`Dialect`):
        a title stated in frontmatter stays; aliases and tags add to the frontmatter's."""
        names = self.page_names(row[_SLUG], body)
        fields = list(row)
        if not row[_TITLE_STATED]:
            fields[_TITLE], fields[_TITLE_STATED] = names.title, True
        fields[_ALIASES] = tuple(dict.fromkeys((*row[_ALIASES], *names.aliases)))
        fields[_TAGS] = tuple(dict.fromkeys((*row[_TAGS], *names.tags)))
        return tuple(fields)

    def named_page(self, page: Page) -> Page:
        """`page` with its Logseq names, as `named_row` (`Dialect`)."""
        if not page.readable:
            return page
        names = self.page_names(page.slug, page.content)
        return replace(
            page,
            title=page.title if page.title_stated else names.title,
            title_stated=True,
            aliases=tuple(dict.fromkeys((*page.aliases, *names.aliases))),
            tags=tuple(dict.fromkeys((*page.tags, *names.tags))),
        )

    def home_page(self, slugs: Sequence[str]) -> tuple[str, str] | None:
        """`(slug, why)` of the page the graph opens first (`Dialect`), among `slugs`: its
        `:default-home` page (its file's name, any case; one in `pages/` first, then the
        fewest folders), else its latest journal; None when it has neither."""
        if self.home is not None:
            wanted = self.home.casefold()
            named = [slug for slug in slugs if self.title_of_file(slug).casefold() == wanted]
            if named:
                best = min(
                    named, key=lambda slug: (not slug.startswith("pages/"), slug.count("/"), slug)
                )
                return best, f"Logseq home {self.home}"
        journals = [
            slug
            for slug in slugs
            if slug.startswith("journals/") and _JOURNAL.fullmatch(slug[len("journals/") :])
        ]
        if journals:
            return max(journals), "latest journal"
        return None

    def page_names(self, slug: str, body: str) -> PageNames:
        """The names of page `slug`, from its file name and the properties
        at the top of its `body` (frontmatter cut off)."""
        found = properties(body)
        titles = values(found.get("title", ""))
        title = titles[0] if titles else self.title_of_file(slug)
        return PageNames(title, values(found.get("alias", "")), values(found.get("tags", "")))

    def title_of_file(self, slug: str) -> str:
        """The page name Logseq reads from the file of `slug` (its last segment)."""
        folder, _, stem = slug.rpartition("/")
        if folder.rpartition("/")[2] == "journals" and (date := _journal_date(stem)):
            return format_date(date, self.date_format)
        if self.file_format == "triple-lowbar":
            return unquote(stem.replace("___", "/"))
        return unquote(stem.replace(".", "/"))


def logseq_graph(root: str) -> LogseqGraph | None:
    """The Logseq graph in folder `root` (how it names pages), or None when it is none (no
    `logseq/config.edn` file). Settings that cannot be read leave Logseq's defaults for
    a graph that states nothing (`legacy` file names)."""
    path = os.path.join(root, LOGSEQ_CONFIG)
    if not os.path.isfile(path):
        return None
    try:
        text = read_head(path, CONFIG_BYTES).decode("utf-8", "replace")
    except OSError:
        text = ""
    text = _uncommented(text)  # `;; :file/name-format :legacy` is a comment
    name_format = _NAME_FORMAT.search(text)
    title_format = _TITLE_FORMAT.search(text)
    date_format = title_format.group(1) if title_format else DEFAULT_DATE_FORMAT
    if not _date_format_known(date_format):
        date_format = DEFAULT_DATE_FORMAT
    file_format = "triple-lowbar" if name_format and name_format[1] == "triple-lowbar" else "legacy"
    home = _HOME.search(text)
    home_name = home.group(1).strip() or None if home else None
    return LogseqGraph(file_format, date_format, home_name, _macros(text), _hidden(text))


def _uncommented(edn: str) -> str:
    """`edn` without its `;` comments (a `;` inside a string is no comment)."""
    return "".join(piece for piece in _EDN_PIECE.findall(edn) if not piece.startswith(";"))


def _macros(edn: str) -> tuple[tuple[str, str], ...]:
    """The `:macros {"name" "template" …}` map of a graph's settings (comments out), as
    far as it reads as pairs of strings."""
    opened = _MACROS.search(edn)
    if opened is None:
        return ()
    found: list[tuple[str, str]] = []
    at = opened.end()
    while len(found) < MACROS_MOST and (entry := _MACRO_ENTRY.match(edn, at)):
        found.append((_edn_string(entry[1]).strip(), _edn_string(entry[2])))
        at = entry.end()
    return tuple(found)


def _hidden(edn: str) -> tuple[str, ...]:
    """The strings of the `:hidden [...]` vector of a graph's settings (comments out)."""
    vector = _HIDDEN.search(edn)
    if vector is None:
        return ()
    strings = _EDN_STRING.findall(vector[1])[:HIDDEN_MOST]
    return tuple(path for path in (_edn_string(inside).strip() for inside in strings) if path)


def _edn_string(inside: str) -> str:
    """The text an EDN string's inside (quotes off) stands for: `\\"`, `\\\\`, `\\n`."""
    if "\\" not in inside:
        return inside
    escapes = {"n": "\n", "t": "\t", "r": "\r"}
    return re.sub(r"\\(.)", lambda found: escapes.get(found[1], found[1]), inside, flags=re.S)


def properties(body: str) -> dict[str, str]:
    """The `key:: value` lines at the top of `body` (keys in lower case; the first of a
    key kept), up to the first other line."""
    found: dict[str, str] = {}
    for count, line in enumerate(body.splitlines()):
        matched = _PROPERTY.fullmatch(line.rstrip())
        if matched is None or count >= PROPERTY_LINES:
            break
        found.setdefault(matched[1].lower(), matched[2].strip())
    return found


def values(text: str) -> tuple[str, ...]:
    """The names of a property's value: comma-separated, each written plain, `[[as a
    link]]` (which may hold commas) or `#as-a-tag`; blanks and repeats dropped."""
    names: list[str] = []
    for part in _VALUE_PART.findall(text):
        name = part.strip().removeprefix("#").strip()
        if name.startswith("[[") and name.endswith("]]"):
            name = name[2:-2].strip()
        if name:
            names.append(name)
    return tuple(dict.fromkeys(names))


def block_texts(slug: str, body: str, frontmatter: str = "") -> tuple[tuple[str, str], ...]:
    """`(id, text)` of each block of page `slug` that carries an `id::`: the id in lower
    case, the text of the block's first line (its bullet and heading marks left out).
    The shape `BodyMapper.map_bodies` makes rows of."""
    if "id::" not in body:
        return ()
    lines = body.splitlines()
    found: list[tuple[str, str]] = []
    for at, line in enumerate(lines):
        block_id = _BLOCK_ID.fullmatch(line)
        if block_id is None:
            continue
        for back in range(at - 1, max(-1, at - 1 - BLOCK_LOOKBACK), -1):
            if bullet := _BULLET.fullmatch(lines[back]):
                found.append((block_id[1].lower(), bullet[1].strip()))
                break
    return tuple(found)


def format_date(date: datetime.date, pattern: str) -> str:
    """`date` written in Logseq's date `pattern` (`MMM do, yyyy` → `Jul 9th, 2022`)."""

    def token(found: re.Match[str]) -> str:
        part = found[0]
        if part.startswith("'"):
            return part[1:-1]
        return {
            "yyyy": f"{date.year:04d}",
            "MMMM": _MONTHS[date.month - 1],
            "MMM": _MONTHS[date.month - 1][:3],
            "MM": f"{date.month:02d}",
            "EEEE": _DAYS[date.weekday()],
            "EEE": _DAYS[date.weekday()][:3],
            "do": f"{date.day}{_ordinal(date.day)}",
            "dd": f"{date.day:02d}",
            "d": str(date.day),
        }.get(part, part)

    return _DATE_TOKEN.sub(token, pattern)


def _date_format_known(pattern: str) -> bool:
    """Whether every letter token of `pattern` is one `format_date` writes."""
    return all(
        part.startswith("'") or part in _KNOWN_TOKENS for part in _DATE_TOKEN.findall(pattern)
    )


def _ordinal(day: int) -> str:
    if day in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _journal_date(stem: str) -> datetime.date | None:
    matched = _JOURNAL.fullmatch(stem)
    if matched is None:
        return None
    try:
        return datetime.date(int(matched[1]), int(matched[2]), int(matched[3]))
    except ValueError:
        return None


_SLUG = PAGE_INFO_FIELDS.index("slug")
_TITLE = PAGE_INFO_FIELDS.index("title")
_TITLE_STATED = PAGE_INFO_FIELDS.index("title_stated")
_ALIASES = PAGE_INFO_FIELDS.index("aliases")
_TAGS = PAGE_INFO_FIELDS.index("tags")


@dataclass(frozen=True, slots=True)
class MacrosFilled:
    """`make(slug, body, frontmatter)` given the body with the graph's own `macros` called
    in it as their templates (`core.logseq_macros`): what the full-text index makes of a
    Logseq page, so that search finds and quotes what the page pane shows; sent to the
    processes that read the bodies."""

    make: Callable[[str, str, str], Any]
    macros: tuple[tuple[str, str], ...]

    def __call__(self, slug: str, body: str, block: str) -> Any:
        return self.make(slug, MacroCalls(dict(self.macros))(body), block)
