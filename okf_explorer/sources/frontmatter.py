"""Turning the bytes of one Markdown file into a `Page`: decoding, frontmatter read
within fixed bounds, title.

Pure functions with no I/O of their own, so the bundle source can run them in
worker processes. Choices where the SPEC is silent:

- Frontmatter is a leading `---` line, YAML, and a closing `---` (or `...`)
  line. Without a closing line there is no frontmatter: the whole text is body.
- Malformed YAML, or YAML that is not a mapping (a list, a scalar), keeps the
  page: `frontmatter` is `{}`, `error` says why in one line, and the body is the
  text after the block. So does frontmatter over the bounds (size, nesting, alias
  expansion, an alias inside its own anchor: below).
- `tags` may be a list or a string; a string is split on commas (Obsidian's
  `tags: a, b`), and a leading `#` is dropped from each tag.
- `updated_at` is always the file's modification time, ISO-8601 UTC to the
  microsecond (`2024-05-01T12:00:00.123456Z`); a frontmatter `updated` stays in
  `frontmatter` for display. So it changes whenever the file does (an MCP client's
  cache keyed by it is never stale), and pages written at different moments get
  different stamps, which gbrain's `updated_after` paging needs.
- A UTF-8 byte-order mark is dropped; invalid UTF-8 makes the page unreadable.

**YAML within bounds.** Frontmatter comes from whoever wrote the files, so a few
hundred bytes must not cost gigabytes: YAML aliases can repeat an anchored node, and
chained anchors (`b: &b [*a, *a, ...]`, `c: &c [*b, *b, ...]`) grow exponentially (the
"billion laughs"); an alias inside its own anchor (`a: &a [*a]`) makes a structure
that contains itself, on which every consumer recurses forever.

`load_bounded` therefore composes the YAML node graph first (PyYAML shares one node
per anchor, so this costs the size of the text), measures it without recursion, and
only then builds Python values, refusing a block that is too large
(`MAX_FRONTMATTER_BYTES`), nests too deeply (`MAX_FRONTMATTER_DEPTH`), refers to
itself, or whose aliases would add more than `MAX_ALIAS_EXPANSION` values. A refusal
is a `FrontmatterRefused` whose message is the one-line reason. The commonest
frontmatter, a flat mapping of one-line values, is read without the library
(`fast_yaml.load_flat`, a fast path); libyaml's C loader reads the rest.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from itertools import islice
from typing import Any

import yaml

from okf_explorer.core.dataview import QUERY_MARK, inline_queries, page_fields
from okf_explorer.core.links.reading import is_template_placeholder, reading_text
from okf_explorer.core.okf.meta import summary as okf_summary
from okf_explorer.core.pages import (
    ErrorKind,
    Page,
    PageInfo,
    frontmatter_aliases,
    is_private,
    is_reserved,
    placed_headings,
    without_attributes,
)
from okf_explorer.sources.fast_yaml import load_flat

_CLOSING_FENCE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)


UNDECODABLE = "not valid UTF-8"
"""How the reason of a page that is not UTF-8 begins (its kind is `undecodable`)."""


class Undecodable(ValueError):
    """The bytes are not valid UTF-8; the message is the user-facing reason."""


def decode(data: bytes) -> str:
    """UTF-8 text of a file, or `Undecodable` naming the first bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = data[error.start]
        raise Undecodable(f"{UNDECODABLE} (byte 0x{bad:02x} at offset {error.start})") from None
    return text[1:] if text.startswith("\ufeff") else text


def split_frontmatter(text: str) -> tuple[dict[str, Any], str, str | None]:
    """`(frontmatter, body, error)` of a page's text (see the module docstring)."""
    block, body = parts_of(text)
    frontmatter, error = read_block(block)
    return frontmatter, body, error


def read_block(block: str) -> tuple[dict[str, Any], str | None]:
    """`(frontmatter, error)` of a frontmatter block as written (`parts_of`)."""
    if not block:  # none, or empty
        return {}, None
    try:
        data = load_bounded(block)
    except FrontmatterRefused as error:
        return {}, f"frontmatter ignored: {error}"
    except yaml.YAMLError as error:
        return {}, "frontmatter ignored: " + _yaml_reason(error, block)
    except (ValueError, TypeError, RecursionError) as error:  # e.g. an impossible date
        return {}, f"frontmatter ignored: invalid YAML ({error})"
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"a {type(data).__name__}"
        return {}, f"frontmatter ignored: it is {kind}, not a mapping"
    return data, None


def parts_of(text: str) -> tuple[str, str]:
    """`(frontmatter, body)` of a page's text as written, the YAML not parsed (the
    full-text index reads many pages): the block between the fences ("" when none) and
    the body after them."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return "", text
    start = text.index("\n") + 1
    closing = _CLOSING_FENCE.search(text, start)
    if closing is None:
        return "", text
    end = closing.end()
    body = text[end + 1 :] if text.startswith("\n", end) else text[end:]
    return text[start : closing.start()], body


@dataclass(frozen=True, slots=True)
class QueriesFilled:
    """`make(slug, body, frontmatter)` given the body as a reader reads it: Dataview's
    queries of the page's own fields as their values (`core.dataview`; the frontmatter
    block parsed only for a body that holds one). What the full-text index makes of a
    Markdown page, so that search finds and quotes what the page pane shows; sent to
    the processes that read the bodies."""

    make: Callable[[str, str, str], Any]

    def __call__(self, slug: str, body: str, block: str) -> Any:
        if QUERY_MARK in body:
            body = inline_queries(body, page_fields(read_block(block)[0], body), slug)
        return self.make(slug, body, block)


def _yaml_reason(error: yaml.YAMLError, block: str) -> str:
    """One line out of PyYAML's multi-line messages, with the line number (of the page:
    the block starts on its second), and how to mend the line when it is one of the
    usual slips (`_mending`)."""
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    mark = getattr(error, "problem_mark", None)
    if mark is None:
        return f"invalid YAML ({problem})"
    reason = f"invalid YAML ({problem} at line {mark.line + 2})"
    lines = block.split("\n", mark.line + 1)
    mending = _mending(lines[mark.line]) if mark.line < len(lines) else None
    return f"{reason}; {mending}" if mending else reason


_KEY_VALUE = re.compile(r"[ \t]*(?:-[ \t]+)?[^\s:#][^:\n]*:[ \t]+(?P<value>\S[^\n]*)")


def _mending(line: str) -> str | None:
    """How to mend a `key: value` line that YAML refused, for the slips a person (or a
    model writing a knowledge base) makes most: seen on an agent-kept vault, whose 46
    refused blocks were all a title holding `: `, starting with a backtick, or starting
    with a quoted word; and on template pages (`created: {{date}}`)."""
    found = _KEY_VALUE.match(line)
    if found is None:
        return None
    value = found["value"].rstrip()
    first = value[0]
    if first in "`@%":
        return f"quote the value: YAML cannot start one with {first}"
    if first in "\"'":
        close = value.find(first, 1)
        after = value[close + 1 :].strip() if close > 0 else ""
        if after and not after.startswith("#"):
            return "quote the whole value: its quoted start is followed by more text"
        return None
    if first in "{[":
        kind = "a mapping" if first == "{" else "a list"
        return f"quote the value: YAML reads a leading {first} as {kind}"
    if ": " in value:
        return "quote the value: YAML reads its ': ' as another key"
    return None


# -- YAML within bounds ----------------------------------------------------------

MAX_FRONTMATTER_BYTES = 256 * 1024
"""Largest frontmatter block (UTF-8 bytes between the fences) that is parsed.
Real frontmatter is a few hundred bytes; a larger block is ignored, with the
page kept and its error saying why."""

MAX_FRONTMATTER_DEPTH = 64
"""Deepest nesting of lists and mappings accepted in frontmatter (the top
mapping is level 1; counted after aliases are expanded)."""

MAX_ALIAS_EXPANSION = 10_000
"""Most values aliases may add to frontmatter once expanded: `x: &x [a, b]` then
`y: *x` adds 3 (the list and its two items). Ordinary reuse of an anchor stays
far below; an exponential alias chain goes over at once."""

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class FrontmatterRefused(ValueError):
    """The block is over one of the bounds; the message is the user-facing reason."""


def load_bounded(block: str) -> Any:
    """The value of one YAML document within the bounds, or `FrontmatterRefused`.

    Malformed YAML raises `yaml.YAMLError` as `yaml.load` would; an empty
    document is None.
    """
    check_size(block)
    flat = load_flat(block)  # the commonest shape, without the library (a fast path)
    if flat is not None:
        return flat
    loader = _Loader(block)  # a safe loader (C when available)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if "*" in block or _collection_bound(block) > MAX_FRONTMATTER_DEPTH:
            check_node_graph(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def check_size(block: str) -> None:
    """Refuse a block over `MAX_FRONTMATTER_BYTES` (UTF-8 bytes, counted only when
    the characters alone do not settle it)."""
    if len(block) > MAX_FRONTMATTER_BYTES or (
        4 * len(block) > MAX_FRONTMATTER_BYTES
        and len(block.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES
    ):
        raise FrontmatterRefused(f"it is larger than {MAX_FRONTMATTER_BYTES // 1024} KiB")


def check_node_graph(root: yaml.Node) -> None:
    """Refuse a composed node graph that refers to itself, nests deeper than
    `MAX_FRONTMATTER_DEPTH` or whose aliases expand beyond `MAX_ALIAS_EXPANSION`.

    One iterative post-order walk over the distinct nodes: each node's expanded
    size and height are computed once (an alias reuses them), so the cost is the
    size of the text, whatever the expansion.
    """
    sizes: dict[int, int] = {}  # id(node) -> values in its expansion (itself included)
    heights: dict[int, int] = {}  # id(node) -> levels of collections in its expansion
    open_nodes: set[int] = set()  # entered, not yet finished: the current path
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            open_nodes.discard(key)
            children = _children(node)
            size = 1 + sum(sizes[id(child)] for child in children)
            height = int(not isinstance(node, yaml.ScalarNode))
            height += max((heights[id(child)] for child in children), default=0)
            if height > MAX_FRONTMATTER_DEPTH:
                raise FrontmatterRefused(f"it nests deeper than {MAX_FRONTMATTER_DEPTH} levels")
            if size - len(sizes) - 1 > MAX_ALIAS_EXPANSION:  # a lower bound of the whole's
                raise FrontmatterRefused(
                    f"its aliases expand to more than {MAX_ALIAS_EXPANSION:,} values"
                )
            sizes[key], heights[key] = size, height
            continue
        if key in sizes:
            continue  # an alias of a finished node: measured already
        if key in open_nodes:
            raise FrontmatterRefused("an alias refers to the node that holds it")
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(_children(node)))


def _collection_bound(block: str) -> int:
    """An upper bound of the collections in a block without aliases, so of its depth:
    each list or mapping has an indicator of its own (`[`, `{`, `-`, `:` or `?`).
    Counting them is far cheaper than walking the nodes, and settles most blocks."""
    return sum(block.count(indicator) for indicator in "[{-:?")


def _children(node: yaml.Node) -> list[yaml.Node]:
    """The nodes directly inside a collection node (keys and values of a mapping)."""
    if isinstance(node, yaml.SequenceNode):
        return node.value
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


# -- the page -------------------------------------------------------------------


def first_heading(
    body: str, frontmatter: Mapping[str, Any] | None = None, slug: str = ""
) -> str | None:
    """The page's first heading outside fenced code that shows any text, as a reader sees
    it (`reading_text`: `[[a|the A]] **b**` → `the A b`; closing `#`s dropped), when it is
    a `# ` heading that opens the page; else None.

    A `# ` heading after another heading is a section, not the page's title: a vault's
    `Kevin Kelly.md` opening with `## Books` and ending with `# Clippings` is not the
    page called "Clippings" (four pages of the vaults tried read so; no other changed).
    So is one after text or code (`_shows_text`): a 13k-page Zettelkasten opens two pages
    in three with a sentence (`A cipher that can be computed by hand.`) and then heads
    its parts `# List`, `# Definition`, `# Installation`: 4,329 pages were called so;
    images, badges, comments and HTML tags above a title leave it the title. A heading
    that is a template placeholder (`{{title}}`) is no title either: None, so the file
    name names the page (a template is not the page called "{{title}}").

    Nor is the first of three (`SECTION_TITLES`) or more `# ` headings: such a page heads
    its parts at the first level, and the first of them is its first part (a 13k-page Zettelkasten's
    `Re-entrancy Attack` opens with `# Attack`, then `# Prevention`, `# Example`: 343 of its
    pages; a TTRPG vault's rules reference, `# Turns` first of 26). Of the vaults tried
    two other pages changed, each to a file name saying as much (`Obsidian2Mkdocs`).

    A Dataview query of the page's own field reads as its value (`core.dataview`): 841
    spell pages of a vault are headed `` # `=this.name` `` over a frontmatter `name: Fear`
    (`frontmatter` and `slug`: the page's)."""
    headings = placed_headings(body)
    for start, level, heading in headings:
        heading = without_attributes(_CLOSING_HASHES.sub("", heading).strip())
        if QUERY_MARK in heading:
            heading = inline_queries(heading, page_fields(frontmatter or {}, body), slug)
        if level == 1 and is_template_placeholder(heading):
            return None
        if title := reading_text(heading):
            if level != 1 or _shows_text(body[:start]):
                return None
            return None if _sections(body, start, headings) else title
    return None


def _sections(body: str, start: int, rest: Iterator[tuple[int, int, str]]) -> bool:
    """Whether the page's `# ` heading at `start` is the first of `SECTION_TITLES` or more
    (`rest`: its headings after that one). Most pages have no other line starting `# `:
    counted first, so only a page that may have enough is read for its headings."""
    wanted = SECTION_TITLES - 1
    if body.count("\n# ", start) + body.count("\n#\t", start) < wanted:
        return False
    return sum(islice((1 for _, level, _ in rest if level == 1), wanted)) == wanted


SECTION_TITLES = 3
"""A page with this many `# ` headings or more uses them as sections: none is its title."""


def _shows_text(markdown: str) -> bool:
    """Whether `markdown` shows a reader any text: lines holding only images (badges
    too: `[![build](b.svg)](url)`), embeds, HTML tags, comments, rules, empty headings or
    link definitions show none."""
    markdown = _COMMENTS.sub("", markdown) if "<!--" in markdown or "%%" in markdown else markdown
    return any(not _QUIET_LINE.match(line) for line in markdown.splitlines())


_COMMENTS = re.compile(r"<!--.*?-->|%%.*?%%", re.S)
"""HTML and Obsidian comments, closed (an unclosed one leaves its text as text)."""
_IMAGE = r"(?:\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)|!\[[^\]]*\]\([^)]*\)|!\[\[[^\]]*\]\])"
"""A linked image (a badge), an image, an embed."""
_QUIET_LINE = re.compile(
    rf"[ \t]*(?:(?:{_IMAGE}|</?[A-Za-z][^>]*>)[ \t]*)*$"  # images, embeds, tags
    r"|[ \t]*(?:[-*_][ \t]*){3,}$"  # a thematic break
    r"|#{1,6}(?:[ \t]+#*)?[ \t]*$"  # an empty heading
    r"|[ \t]{0,3}\[[^\]]+\]:[ \t]*\S"  # a link reference definition
)
"""A line that shows no text."""


_CLOSING_HASHES = re.compile(r"(?:^|(?<![ \t])[ \t]++)#+[ \t]*$")
"""A heading's closing sequence (`# Title ##`; `# C#` keeps its `#`). A run of blanks is
tried from its first only: from each, a heading of thousands cost their square."""


def as_text(value: Any) -> str | None:
    """A scalar frontmatter value as a string (dates as ISO-8601), None stays None."""
    if value is None:
        return None
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (dict, list)):
        return None
    return str(value)


def as_tags(value: Any) -> tuple[str, ...]:
    """`tags` as a tuple of strings, from a list or a comma-separated string; a string
    that is a list in brackets (`tags: "[okf, index]"`, a flow list quoted by an LLM
    writing 192 pages of an OKF bundle) is that list, not the tags `[okf` and `index]`
    (`validate` warns: `tags-not-list`)."""
    if value is None:
        return ()
    if isinstance(value, str):
        listed = value.strip()
        if len(listed) >= 2 and listed[0] == "[" and listed[-1] == "]":
            listed = listed[1:-1]
        items = listed.split(",")
    else:
        items = value if isinstance(value, (list, tuple)) else [value]
    tags = (str(item).strip().lstrip("#").strip() for item in items if item is not None)
    return tuple(tag for tag in tags if tag)


def mtime_iso(mtime_ns: int) -> str:
    """A file mtime as ISO-8601 UTC with a `Z`, to the microsecond (truncated, not
    rounded, so a stamp never claims a later time than the file's)."""
    global _LAST_SECOND
    seconds, nanos = divmod(mtime_ns, 1_000_000_000)
    known = _LAST_SECOND  # one tuple, replaced whole: safe across threads
    if known[0] == seconds:  # files written in the same second (a checkout, a sync)
        stamp = known[1]
    else:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
        _LAST_SECOND = (seconds, stamp)
    return f"{stamp}.{nanos // 1000:06d}Z"


_LAST_SECOND: tuple[int | None, str] = (None, "")
"""The last whole second `mtime_iso` formatted, with its text."""


def page_from_text(slug: str, text: str, mtime_ns: int, fingerprint: str) -> Page:
    """The `Page` of one decoded file."""
    frontmatter, body, error = split_frontmatter(text)
    stated = as_text(frontmatter.get("title"))
    heading = None if stated else first_heading(body, frontmatter, slug)
    title = stated or heading or slug.rsplit("/", 1)[-1]
    status, trust, stale_after = okf_summary(frontmatter)
    return Page(
        slug=slug,
        title=title,
        title_stated=bool(stated),
        heading_title=heading,
        content=body,
        type=as_text(frontmatter.get("type")),
        tags=as_tags(frontmatter.get("tags")),
        frontmatter=frontmatter,
        updated_at=mtime_iso(mtime_ns),
        reserved=is_reserved(slug),
        error=error,
        fingerprint=fingerprint,
        error_kind="malformed" if error is not None else None,
        okf_status=status,
        okf_trust=trust,
        okf_stale_after=stale_after,
    )


def info_fields(
    slug: str, text: str, mtime_ns: int, fingerprint: str
) -> tuple[tuple[Any, ...], str, dict[str, Any]]:
    """`(PageInfo row, body, frontmatter)` of one decoded file: what
    `page_from_text(...).info().to_row()` holds, without building a `Page` (the scan's
    per-page path)."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        frontmatter: dict[str, Any] = {}
        body, error = text, None
    else:
        frontmatter, body, error = split_frontmatter(text)
    aliases: tuple[str, ...] = ()
    stated = heading = None
    status, trust, stale_after = okf_summary(frontmatter)
    if frontmatter:
        stated = as_text(frontmatter.get("title"))
        heading = None if stated else first_heading(body, frontmatter, slug)
        title = stated or heading
        kind, tags = as_text(frontmatter.get("type")), as_tags(frontmatter.get("tags"))
        description = frontmatter.get("description")
        description = str(description) if description is not None else None
        aliases = frontmatter_aliases(frontmatter.get("aliases"))
    else:
        heading = title = first_heading(body, None, slug)
        kind, tags, description = None, (), None
    row = PageInfo.row_of(
        slug=slug,
        title=title or slug.rsplit("/", 1)[-1],
        type=kind,
        tags=tags,
        updated_at=mtime_iso(mtime_ns),
        reserved=is_reserved(slug),
        error=error,
        fingerprint=fingerprint,
        description=description,
        error_kind="malformed" if error is not None else None,
        aliases=aliases,
        title_stated=bool(stated),
        okf_status=status,
        okf_trust=trust,
        okf_stale_after=stale_after,
        heading_title=heading,
        private=is_private(frontmatter),
    )
    return row, body, frontmatter


def unreadable_page(
    slug: str, reason: str, mtime_ns: int, fingerprint: str, kind: ErrorKind = "unreadable"
) -> Page:
    """The `Page` of a file that could not be read or decoded (listed, no links)."""
    return Page(
        slug=slug,
        title=slug.rsplit("/", 1)[-1],
        content="",
        updated_at=mtime_iso(mtime_ns) if mtime_ns else None,
        reserved=is_reserved(slug),
        readable=False,
        error=reason,
        fingerprint=fingerprint,
        error_kind=kind,
    )
