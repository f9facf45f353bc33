"""A fast path for long page bodies: a light Markdown renderer (off under `OKF_EXPLORER_PLAIN=1`).

Textual's `Markdown` widget mounts a widget per block (a 200-item list is ~600
widgets), so a long page costs hundreds of milliseconds to mount and every later
screen relayout (a status tick, the link tree filling in) pays for it again. Above
`LIGHT_BLOCKS` blocks the page pane renders the body to one `Content`, shown in a
few screenful-sized `Static` chunks (`LightBody`): headings, lists, quotes, code,
tables and rules keep their shape, inline emphasis and code keep their style, and
links stay clickable (same `link(href)` action as the `Markdown` widget, reported
as `LinkClicked`). What it gives up: syntax highlighting in code blocks and column
alignment in tables.

`prepare_body` is pure (no widget), so the page pane runs it in a thread. A huge
body (a 10 MB page) is rendered `RENDER_CHARS` at a time, cut at a paragraph break:
the first part at once, each next part on request (`m`), each rendered off the event
loop and appended as new chunks, so nothing O(page size) ever runs on the loop.
A cut inside a fenced code block shows the rest of that block as prose.

Measured by `tests/bench/bench_body.py` against the `Markdown` widget (fast paths
off), headless at 120×40, two runs on a shared machine: showing a 200-item index page
takes 0.17-0.23 s instead of 2.0-2.5 s (saves 91-92 %), a 50 KB handbook 0.24-0.45 s
instead of 5.1-5.7 s (92-95 %), the first 200 KB of a 1 MB page 0.6-1.0 s instead of
45-51 s (98-99 %); a later relayout with the index or handbook shown costs 25-30 ms
instead of 93-196 ms (71-86 %). A property test checks that it
shows the headings, links, code lines and table cells the `Markdown` widget shows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token
from textual.containers import Vertical
from textual.content import Content, Span
from textual.message import Message
from textual.style import Style
from textual.widgets import Static

from okf_explorer.core import fast_paths
from okf_explorer.tui.body_links import linkify_body

LIGHT_BLOCKS = 120
"""Blocks (paragraphs, list items, headings, code blocks, table rows...) above which
a body is drawn by `LightBody`: below it the `Markdown` widget mounts in well under
100 ms on a loaded machine."""

RENDER_CHARS = 200_000
"""Characters of a body rendered at a time: above this the page pane shows the first
part and offers the next (`m`)."""

LIGHT_CHARS = 50_000
"""Bodies longer than this always use `LightBody`: the `Markdown` widget's cost grows
with text length too (one giant paragraph or code block)."""

INLINE_STYLES = {"em": "italic", "strong": "bold", "s": "strike"}


@dataclass(frozen=True, slots=True)
class PreparedBody:
    """A body (or the part `start:end` of it) ready to show.

    `light` (with its screenful `chunks`) is set when the part is drawn by
    `LightBody`; `links` are the part's hrefs in order of appearance.
    """

    markdown: str
    light: Content | None
    blocks: int
    end: int = 0
    total: int = 0
    links: tuple[tuple[str, str], ...] = ()
    chunks: tuple[Content, ...] = ()

    @property
    def truncated(self) -> bool:
        return self.end < self.total


def prepare_body(text: str, start: int = 0, limit: int = RENDER_CHARS) -> PreparedBody:
    """Linkify and parse `text[start:]` up to about `limit` characters (cut at a break).

    The part is rendered as one `Content` when it has more than `LIGHT_BLOCKS`
    blocks, when the whole body is longer than `LIGHT_CHARS`, or when it is not the
    first part (it is appended to a light body); never under `OKF_EXPLORER_PLAIN=1`
    (then the `Markdown` widget shows every part).
    """
    end = cut_point(text, start, limit)
    markdown = linkify_body(text[start:end])
    tokens = MarkdownIt("gfm-like").parse(markdown)
    blocks = sum(1 for token in tokens if token.nesting == 1 or token.type in _LEAVES)
    long = blocks > LIGHT_BLOCKS or len(text) > LIGHT_CHARS or start > 0
    light_needed = long and fast_paths.enabled()
    light = render_tokens(tokens) if light_needed else None
    chunks = tuple(split_chunks(light)) if light is not None else ()
    return PreparedBody(markdown, light, blocks, end, len(text), _hrefs(tokens), chunks)


def cut_point(text: str, start: int, limit: int) -> int:
    """Where a part that starts at `start` ends: a paragraph break, else a line break."""
    wanted = start + limit
    if wanted >= len(text):
        return len(text)
    for mark in ("\n\n", "\n"):
        position = text.rfind(mark, start, wanted)
        if position > start + limit // 2:
            return position + len(mark)
    return wanted


def _hrefs(tokens: Sequence[Token]) -> tuple[tuple[str, str], ...]:
    """(label, href) of every link in order of appearance."""
    found: list[tuple[str, str]] = []
    for token in tokens:
        label: list[str] | None = None
        href = ""
        for child in token.children or ():
            if child.type == "link_open":
                label, href = [], str(child.attrs.get("href", ""))
            elif child.type == "link_close" and label is not None:
                found.append(("".join(label).strip(), href))
                label = None
            elif label is not None and child.type in ("text", "code_inline"):
                label.append(child.content)
    return tuple(found)


def split_chunks(content: Content) -> list[Content]:
    """`content` cut into `CHUNK_LINES`-line pieces (what `LightBody` mounts)."""
    lines = content.split("\n")
    return [
        Content("\n").join(lines[start : start + CHUNK_LINES])
        for start in range(0, len(lines), CHUNK_LINES)
    ]


_LEAVES = ("fence", "code_block", "hr", "html_block")


class LightBody(Vertical):
    """A long body as a few `Static` chunks; a click on a link posts `LinkClicked`.

    Chunks, not one widget: Textual renders a widget whole once any of it is
    visible, and only visible widgets are rendered, so a 400-line body costs the
    first frame ~`CHUNK_LINES` lines of rendering, and the rest as it scrolls in.
    """

    DEFAULT_CSS = """
    LightBody { height: auto; padding: 1 0; }
    LightBody > _Chunk { height: auto; }
    """

    class LinkClicked(Message):
        def __init__(self, href: str) -> None:
            super().__init__()
            self.href = href

    async def show(self, content: Content | Sequence[Content] | None) -> None:
        """Replace the body with `content` (or its prepared chunks; None: empty)."""
        await self.remove_children()
        if content is not None:
            await self.append(content)

    async def append(self, content: Content | Sequence[Content]) -> None:
        """Add `content` (or its prepared chunks) after what is shown."""
        chunks = split_chunks(content) if isinstance(content, Content) else content
        await self.mount_all([_Chunk(chunk) for chunk in chunks])


CHUNK_LINES = 40
"""Lines per chunk of a long body: about one screenful."""


class _Chunk(Static):
    """Part of a long body; its links run `link(href)` here (the action's namespace)."""

    def action_link(self, href: str) -> None:
        self.post_message(LightBody.LinkClicked(href))


def render_tokens(tokens: list[Token]) -> Content:
    """markdown-it block tokens → one `Content`, a line per paragraph/item/row."""
    return _Renderer().run(tokens)


class _Renderer:
    """Walks the token stream keeping list nesting, quote depth and the pending item marker."""

    def __init__(self) -> None:
        self.lines: list[Content] = []
        self.lists: list[list[int]] = []  # per open list: [next number] or [-1] for bullets
        self.quote = 0
        self.marker: str | None = None
        self.heading: int | None = None
        self.row: list[Content] | None = None

    def run(self, tokens: list[Token]) -> Content:
        for token in tokens:
            self._token(token)
        while self.lines and not self.lines[-1].plain:
            self.lines.pop()
        return Content("\n").join(self.lines)

    def _prefix(self) -> str:
        indent = "  " * max(0, len(self.lists) - 1)
        if self.marker is not None:
            marker, self.marker = self.marker, None
            return "▌ " * self.quote + indent + marker
        width = 2 if not self.lists else (3 if self.lists[-1][0] < 0 else 4)
        return "▌ " * self.quote + indent + (" " * width if self.lists else "")

    def _token(self, token: Token) -> None:
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            start = int(token.attrs.get("start", 1) or 1) if kind == "ordered_list_open" else -1
            self.lists.append([start])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self.lists.pop()
        elif kind == "list_item_open":
            number = self.lists[-1][0]
            self.marker = "• " if number < 0 else f"{number}. ".ljust(4)
            if number >= 0:
                self.lists[-1][0] += 1
        elif kind == "blockquote_open":
            self.quote += 1
        elif kind == "blockquote_close":
            self.quote -= 1
        elif kind == "heading_open":
            self.heading = int(token.tag[1:])
        elif kind == "heading_close":
            self.heading = None
        elif kind == "tr_open":
            self.row = []
        elif kind == "tr_close":
            self._line(Content(" │ ").join(self.row or []))
            self.row = None
        elif kind == "inline":
            self._inline(token)
        elif kind in ("fence", "code_block"):
            for line in token.content.rstrip("\n").split("\n"):
                self._line(Content.styled(line, "dim"))
        elif kind == "hr":
            self._line(Content.styled("─" * 40, "dim"))
        elif kind == "html_block":
            self._line(Content(token.content.rstrip("\n")))
        if token.level == 0 and token.nesting <= 0 and kind != "inline":
            self.lines.append(Content(""))  # a blank line after each top-level block

    def _inline(self, token: Token) -> None:
        content = inline_content(token)
        if self.row is not None:
            self.row.append(content)
            return
        if self.heading is not None:
            content = content.stylize("bold underline" if self.heading <= 2 else "bold")
        self._line(content)

    def _line(self, content: Content) -> None:
        self.lines.append(Content(self._prefix()) + content)


def inline_content(token: Token) -> Content:
    """An inline token → `Content`, as Textual's `Markdown` does (links get `@click`)."""
    parts: list[str] = []
    spans: list[Span] = []
    opened: list[tuple[str | Style, int]] = []
    position = 0

    def add(text: str) -> None:
        nonlocal position
        parts.append(text)
        position += len(text)

    for child in token.children or ():
        kind = child.type
        if kind == "text":
            add(re.sub(r"\s+", " ", child.content))
        elif kind == "softbreak":
            add(" ")
        elif kind == "hardbreak":
            add("\n")
        elif kind == "code_inline":
            spans.append(Span(position, position + len(child.content), "reverse"))
            add(child.content)
        elif kind in ("link_open", "image"):
            href = str(child.attrs.get("href" if kind == "link_open" else "src", ""))
            opened.append((Style.from_meta({"@click": f"link({href!r})"}), position))
            if kind == "image":
                add(f"🖼 {child.content}")
                style, start = opened.pop()
                spans.append(Span(start, position, style))
        elif kind.endswith("_open"):
            opened.append((INLINE_STYLES.get(kind[: -len("_open")], ""), position))
        elif kind.endswith("_close") and opened:
            style, start = opened.pop()
            if style:
                spans.append(Span(start, position, style))
        elif kind == "html_inline":
            add(child.content)
    return Content("".join(parts), spans)
