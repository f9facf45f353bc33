"""A page as the text index stores it: its fields, weighed apart, and its names.

A search ranks a word in a page's title above the same word in its body, so the
index keeps a page's text in fields (`FIELDS`, the columns of the FTS5 table, which
`core.search.ranking` weighs): its **title**; its other **names** (frontmatter
aliases, and the file name with `-` and `_` read as spaces); its **headings**; its
**summary** (the frontmatter `description`); its **body** as text
(`core.search.plain_text.index_text`: links as their text, no URLs, comments or
tags); its other **properties**' values (`property_text`: the frontmatter as written, not
parsed, without the keys other fields hold or that are filters: a vault's
`author: [[Kevin Kelly]]` finds the book by its author's name, as Obsidian's search reads
the whole file). Every field is `spaced` for scripts written without spaces
(`core.search.words`). `keys` are the page's names as "the page called X" compares
them (`core.search.find_rank.page_names`).

Pure and picklable: a folder's worker processes build the documents of the pages they
read (`DocumentMaker`, `core.port.BodyMapper`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from okf_explorer.core.pages import Markup, PageInfo
from okf_explorer.core.search.find_rank import page_names
from okf_explorer.core.search.plain_text import (
    CODE_CLOSE,
    CODE_OPEN,
    heading_text,
    index_text,
    logseq_visible,
)
from okf_explorer.core.search.words import spaced

FIELDS = ("title", "names", "headings", "summary", "body", "properties")
"""The columns of the text index, in order (`core.search.ranking` weighs them)."""
BODY_COLUMN = FIELDS.index("body")
PROPERTIES_COLUMN = FIELDS.index("properties")
NOT_PROPERTIES = frozenset(
    {"title", "aliases", "alias", "description", "tags", "tag", "type", "cssclasses", "cssclass"}
)
"""Frontmatter keys whose values `properties` leaves out: held by another field, filters
(`tag:`, `type:`), or how Obsidian styles a note."""
_KEY = re.compile(r"([^\s#:\-\[{\]}'\"][^:\n]*?):(?:[ \t]+|$)")
"""A YAML key at the start of a line (`key:` then a space or the end)."""
_ITEM = re.compile(r"(?:-[ \t]+)+")
"""A YAML list item's dash (or several, a list in a list)."""
_BLOCK_MARK = re.compile(r"[|>][+-]?[0-9]?[ \t]*\Z")
"""A block scalar's indicator (`|`, `>-`): the text is on the lines under it."""
_NO_VALUE = frozenset({"", "[]", "{}", "~", "null"})

HIT_OPEN, HIT_CLOSE = "\x02", "\x03"
"""What marks a hit inside a snippet: never part of indexed text."""
_MARKS = (HIT_OPEN, HIT_CLOSE, CODE_OPEN, CODE_CLOSE, "\x00")
"""The hit marks, `index_text`'s code marks and NULs (SQLite text may not hold NULs; a
page holding a mark would be shown wrong): `_clean` reads each as a space."""
_MARKERS = str.maketrans(dict.fromkeys(_MARKS, " "))


Document = tuple[tuple[str, str, str, str, str, str], tuple[str, ...], str]
"""One page's row of the text index, `(columns, keys, markdown)`: `columns` in `FIELDS`
order, `keys` its normalised names (distinct), `markdown` its body as written (hit marks
and NULs taken out). A plain tuple: the worker processes that make the rows send them
back pickled, and a tuple of strings pickles in half the time of a dataclass (the
`tests/bench/bench_search.py` fill: rows of 10k pages, 48 → 24 ms to pickle)."""


def document(
    info: PageInfo, body: str, frontmatter: str = "", markup: Markup = "markdown"
) -> Document:
    """The text index's row of page `info` whose body (frontmatter cut off) is `body` and
    whose frontmatter block, as written, is `frontmatter`; a Logseq page (`markup`) is
    read without what Logseq never shows (`plain_text.logseq_visible`)."""
    body = _clean(body)
    seen = logseq_visible(body) if markup == "logseq" else body
    file_name = info.slug.rsplit("/", 1)[-1]
    names = "\n".join([*info.aliases, file_name.replace("-", " ").replace("_", " ")])
    columns = (
        spaced(_clean(info.title)),
        spaced(_clean(names)),
        spaced(heading_text(seen)),
        spaced(_clean(info.description or "")),
        spaced(after_title_heading(index_text(seen), info.title)),
        spaced(index_text(_clean(property_text(frontmatter)))),
    )
    keys = tuple(dict.fromkeys(key for _, key in page_names(info.slug, info.title, info.aliases)))
    return columns, keys, body


@dataclass(frozen=True, slots=True)
class DocumentMaker:
    """`document` of the page of `slug`, one of `pages`, given its body: sent to the
    processes that read the bodies."""

    pages: Mapping[str, PageInfo]
    markup: Markup = "markdown"

    def __call__(self, slug: str, body: str, frontmatter: str = "") -> Document:
        return document(self.pages[slug], body, frontmatter, self.markup)


_OPENING_HEADING = re.compile(r"\s*#{1,6}[ \t]+([^\n]*)\n")
"""A body's opening heading line, as `index_text` keeps it (with its `#` marks)."""


def after_title_heading(text: str, title: str) -> str:
    """`text` (a body as `index_text` reads it) without its opening heading when that
    heading is the page's `title`: an OKF page's body often opens by repeating it
    (`## Delta Lake Time Travel`), and the title is a field of its own. Every hit shows
    its title above its snippet, and FTS5 cut the snippet from the fragment around
    that heading: with the heading left out of the snippet after, a Japanese page's
    showed the sentence under it, `本ペ«ージ»` for a search of `エージェント`, where the
    next one held the word whole. Unchanged when nothing else would be left; text that
    merely starts with the title is kept."""
    heading = _OPENING_HEADING.match(text)
    if (
        heading is None
        or " ".join(heading.group(1).split()).casefold() != " ".join(title.split()).casefold()
    ):
        return text
    rest = text[heading.end() :]
    return rest if rest.strip() else text


def property_text(frontmatter: str) -> str:
    """The values of a frontmatter block as written, one line each, without its keys and
    without the values of `NOT_PROPERTIES` keys: read line by line, not parsed (the YAML
    of many pages is not worth parsing again, and a block that does not parse still has
    words). A value keeps its quotes and brackets; `index_text` reads its links as their
    text and its URLs as their host."""
    if not frontmatter:
        return ""
    kept: list[str] = []
    skipping = False
    for line in frontmatter.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        top = not line[0].isspace() and not stripped.startswith("-")
        value = _ITEM.sub("", stripped, count=1) if stripped.startswith("-") else stripped
        key = _KEY.match(value)
        if key is not None:
            if top:
                skipping = key.group(1).strip().lower() in NOT_PROPERTIES
            value = value[key.end() :]
        if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        if skipping or value in _NO_VALUE or _BLOCK_MARK.match(value):
            continue
        kept.append(value)
    return "\n".join(kept)


def _clean(text: str) -> str:
    """`text` without the snippet's hit marks, `index_text`'s code marks and NULs."""
    if any(mark in text for mark in _MARKS):
        return text.translate(_MARKERS)
    return text
