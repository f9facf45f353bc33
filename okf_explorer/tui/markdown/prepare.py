"""A page body made ready to show, off the event loop: a part of it linkified, parsed
and drawn (`prepare_body`, pure: the page pane runs it in a thread).

A huge body (a 10 MB page) is prepared `RENDER_CHARS` at a time, cut at a paragraph
break: the first part at once, each next part on request (`m`), so nothing of the
size of the page ever runs on the loop. A cut inside a fenced code block shows the
rest of that block as prose. With fast paths on (the default) the part is drawn by
the engine (`draw`) into the pieces `VaultBody` mounts; under `OKF_EXPLORER_PLAIN=1`
Textual's `Markdown` widget shows the linkified text instead (`VaultMarkdown`).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from markdown_it.token import Token
from textual.content import Content, Span
from textual.style import Style

from okf_explorer.core import fast_paths
from okf_explorer.core.bases import is_base_name
from okf_explorer.core.fast_paths import gc_paused
from okf_explorer.core.links.grammar import (
    HTML_COMMENT,
    OBSIDIAN_COMMENT,
    comment_ranges,
    mask_ranges,
    math_ranges,
    prose_ranges,
)
from okf_explorer.core.okf.meta import Source
from okf_explorer.core.pages import Markup
from okf_explorer.tui.markdown.body import Piece
from okf_explorer.tui.markdown.dialects import dialect_markdown
from okf_explorer.tui.markdown.draw import (
    Block,
    Embed,
    Fence,
    blocks_of,
    draw,
    margins,
    starts_folded,
)
from okf_explorer.tui.markdown.links import (
    FILE_SCHEME,
    LINK_SCHEME,
    WRITTEN_QUERIES,
    linkify_body,
    target_of_href,
)
from okf_explorer.tui.markdown.parser import is_page_embed, parse

RENDER_CHARS = 200_000
"""Characters of a body prepared at a time: above this the page pane shows the first
part and offers the next (`m`)."""
DATA_URI_CHARS = 1_000_000
"""How far past `RENDER_CHARS` a part goes on to end after an image written into the page
(`cut_point`): a 700 KB picture, parsed in about 0.4 s."""
LONG_CHARS = 16_000
"""A body longer than this shows a first screen first (`first_screen_chars` in the
page pane), then the rest of its first part (a 33 KB page of Obsidian's help took
240-300 ms to show whole, 120-150 ms to show its first screen)."""
PIECE_BLOCKS = 200
"""Top-level blocks a body piece holds at most (a piece is redrawn whole on a resize)."""
KEPT_BODIES = 8
"""Bodies `PreparedBodies` keeps: back (`backspace`) shows a page prepared before."""
KEPT_CHARS = 400_000
"""Characters of text the bodies `PreparedBodies` keeps may hold in all (a 200 KB part
drawn takes about 8 MB)."""

Heading = tuple[int, str]
"""(level, text) of a heading, in the order of the body."""


@dataclass(frozen=True, slots=True)
class PreparedBody:
    """A body (or the part of it up to `end`, of `total` characters) ready to show.

    `pieces` is what `VaultBody` mounts, drawn `width` wide (None under
    `OKF_EXPLORER_PLAIN=1`: `markdown` goes to Textual's `Markdown` widget); `links`
    are the part's (label, href) in order of appearance, `headings` its headings.
    """

    markdown: str
    end: int
    total: int
    links: tuple[tuple[str, str], ...] = ()
    headings: tuple[Heading, ...] = ()
    pieces: tuple[Piece, ...] | None = None

    @property
    def truncated(self) -> bool:
        return self.end < self.total

    @property
    def drawn(self) -> bool:
        """Whether the engine drew it (fast paths on)."""
        return self.pieces is not None

    def fresh(self) -> PreparedBody:
        """This body as first prepared, to show again: each piece its own copy (a piece
        shown keeps its folds and its drawings for other widths); the blocks and the
        drawings, never changed once made, are shared."""
        if self.pieces is None:
            return self
        pieces = (replace(piece, folded=set(piece.folded), before=None) for piece in self.pieces)
        return replace(self, pieces=tuple(pieces))


class PreparedBodies:
    """The last `KEPT_BODIES` bodies prepared, by what they were prepared from (the
    caller's key: the page's text and everything else `prepare_body` reads), so a
    page shown again (back, a link followed twice) is not parsed and drawn again.
    Safe to use from the threads that prepare."""

    def __init__(self) -> None:
        self._kept: OrderedDict[Hashable, PreparedBody] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> PreparedBody | None:
        """A fresh copy of the body kept under `key` (`PreparedBody.fresh`), if any and
        drawn as the fast paths' switch now says."""
        with self._lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
        if body is None or body.drawn != fast_paths.enabled():
            return None
        return body.fresh()

    def keep(self, key: Hashable, body: PreparedBody) -> None:
        """Keep `body` (as prepared: call before it is shown) under `key`, letting go
        of the bodies used longest ago past `KEPT_BODIES` or `KEPT_CHARS`."""
        if len(body.markdown) > KEPT_CHARS:
            return
        with self._lock:
            self._kept[key] = body.fresh()
            self._kept.move_to_end(key)
            held = sum(len(kept.markdown) for kept in self._kept.values())
            while len(self._kept) > KEPT_BODIES or held > KEPT_CHARS:
                _, gone = self._kept.popitem(last=False)
                held -= len(gone.markdown)


def prepare_body(
    text: str,
    start: int = 0,
    limit: int = RENDER_CHARS,
    sources: Sequence[Source] = (),
    width: int = 80,
    narrower: int = 0,
    room: int | None = None,
    breaks: bool = False,
    markup: Markup = "markdown",
    blocks: Mapping[str, str] | None = None,
    fields: Mapping[str, Any] | None = None,
    slug: str = "",
    macros: Mapping[str, str] | None = None,
) -> PreparedBody:
    """Linkify, parse and draw `text[start:]` up to about `limit` characters (cut at a
    break), `width` cells wide, or `narrower` cells less when its rows pass `room`
    (the pane's scrollbar then takes them: `None`, always). `breaks`: a single
    newline in a paragraph is a line break (the brain's rule: `Brain.line_breaks`);
    `markup`: the dialect the text is written in (`Brain.markup`): its links read as ours
    (`core.links.dialects`), and Logseq's Markdown drawn as Logseq shows it
    (`logseq.logseq_markdown`, with the text of the `blocks` it references and the
    graph's own `macros`), a Dendron
    note's variables as its frontmatter's `fields` (`dendron.dendron_markdown`), a
    Markdown page's Dataview queries of its own `fields` as their values (`slug`: the
    page's; `core.dataview.inline_queries`).

    `[^id]` references to the page's OKF `sources` (by `id`) get a footnote with the
    source's title and resource.

    The cyclic collector is paused meanwhile (`gc_paused`): parsing a 200 KB part
    makes ~10^6 short-lived tokens, enough to start full collections that walk every
    object alive while holding the interpreter lock (100-240 ms event-loop stalls).
    """
    with gc_paused():
        end = cut_point(text, start, limit)
        part = text[start:end]
        written = dialect_markdown(part, markup, blocks, fields, slug, macros)
        markdown = linkify_body(written)
        markdown += source_notes(part, sources)
        tokens = parse(markdown, breaks)
        as_written = _code_as_written(tokens, written, markdown)
        if as_written is not None:  # rare: parsed again rather than patched, for one text
            markdown, tokens = as_written, parse(as_written, breaks)
        links, headings = _hrefs(tokens), tuple(_headings(tokens))
        if not fast_paths.enabled():
            return PreparedBody(markdown, end, len(text), links, headings)
        blocks = blocks_of(tokens)
        pieces = body_pieces(blocks, width if room is not None else width - narrower)
        if room is not None and narrower and _rows(pieces) > room:
            pieces = body_pieces(blocks, width - narrower)
        return PreparedBody(markdown, end, len(text), links, headings, tuple(pieces))


def _code_as_written(tokens: Sequence[Token], written: str, linked: str) -> str | None:
    """`linked` with each indented code block's lines as written, not as `linkify_body`
    rewrote their wiki-links; None when no block holds one. The index counts links in
    indented lines (in vaults they are mostly nested lists: `core.links.grammar`), so
    they are rewritten; where CommonMark reads the lines as code (a tab-indented list
    under a heading, in a Korean ML vault), the block showed `[Apply MCP](<okf:Apply
    MCP>)` for `[[Apply MCP]]`. The rewrite keeps the lines, so a block's lines are the
    same lines of `written`."""
    written_lines, linked_lines = written.split("\n"), linked.split("\n")
    changed = False
    for token in tokens:
        if token.type != "code_block" or token.map is None:
            continue
        if LINK_SCHEME not in token.content and FILE_SCHEME not in token.content:
            continue
        first, end = token.map
        for number in range(first, min(end, len(written_lines))):
            if linked_lines[number] != written_lines[number]:
                linked_lines[number] = written_lines[number]
                changed = True
    return "\n".join(linked_lines) if changed else None


def body_pieces(blocks: Sequence[Block], width: int) -> list[Piece]:
    """Top-level `blocks` as the pieces of a body `width` wide: runs of blocks drawn as
    rows, each embed, each fence wider than the body (it scrolls sideways)."""
    width = max(1, width)
    pieces: list[Piece] = []
    run: list[Block] = []

    def flush() -> None:
        if not run:
            return
        folded = starts_folded(run)
        drawing = draw(run, width, folded, outer=False)
        margin = (margins(run[0])[0], margins(run[-1])[1])
        pieces.append(Piece(list(run), margin, width, drawing, folded=folded))
        run.clear()

    for block in blocks:
        if isinstance(block, Embed) or (
            isinstance(block, Fence) and not block.wrap and block.natural_width > width
        ):
            flush()
            wide = isinstance(block, Fence)
            pieces.append(Piece([block], margins(block), width, wide=wide))
        else:
            run.append(block)
            if len(run) >= PIECE_BLOCKS:
                flush()
    flush()
    return pieces


def _rows(pieces: Sequence[Piece]) -> int:
    """At least the rows `pieces` take laid out: their rows (an embed: one) and their
    margins, a margin between two pieces collapsed to the larger, as Textual lays them
    out. Left out, a page a few rows too tall for its pane was drawn for the width
    without a scrollbar, then drawn again once the scrollbar came (a key waited 50 ms
    more for it)."""
    taken, below = 0, 0
    for number, piece in enumerate(pieces):
        above, after = piece.margin
        taken += (above if number == 0 else max(above, below)) + (
            len(piece.drawing.rows) if piece.drawing else 1
        )
        below = after
    return taken + below


def source_notes(text: str, sources: Sequence[Source]) -> str:
    """Footnote definitions for the `[^id]` references of `text` that name a source
    (`sources[].id`) and are not defined in it: `title — resource` (a concept path
    is a link to the page; a URL stays a URL)."""
    if "[^" not in text:
        return ""
    notes: list[str] = []
    for source in sources:
        if not source.id or f"[^{source.id}]" not in text:
            continue
        if re.search(rf"^\[\^{re.escape(source.id)}\]:", text, re.MULTILINE):
            continue
        parts = [f"**{_escape(source.title)}**"] if source.title else []
        if source.kind == "url":
            parts.append(f"<{source.resource}>")
        elif source.kind == "path":
            parts.append(f"[{_escape(source.resource)}](<{LINK_SCHEME}{source.resource}>)")
        elif source.resource:
            parts.append(_escape(source.resource))
        notes.append(f"[^{source.id}]: " + " — ".join(parts or [_escape(source.id)]))
    return "\n\n" + "\n\n".join(notes) + "\n" if notes else ""


def _escape(text: str) -> str:
    return re.sub(r"([\\\[\]*_`<>|])", r"\\\1", text.replace("\n", " "))


def cut_point(text: str, start: int, limit: int) -> int:
    """Where a part that starts at `start` ends: the last blank line before the limit that
    no block goes on across (a fence, a comment, a `$$` block: `_spanning`),
    else such a line break, else (the part all one block) a line break past its half, else
    after the image written into the page (`![](data:…)`, a
    pasted screenshot's 200 KB of base64 on one line) the limit falls in, when it ends
    within `DATA_URI_CHARS` (parsing costs about 0.4 s a megabyte), else at the limit.

    A part is parsed on its own, so a cut inside a block breaks it: Foam's index holds a
    48 KB HTML table of contributors (no blank line in it), the first screen's part was cut
    at a line inside it, and the rest of the table was drawn as indented code, raw `<td>`s;
    a fence cut so lost its fence. A blank line ends an HTML block and a paragraph, and
    nothing else but the blocks `_spanning` finds goes on across one."""
    wanted = start + limit
    if wanted >= len(text):
        return len(text)
    spans = _spanning(text, start, wanted)
    for mark in ("\n\n", "\n"):
        position = text.rfind(mark, start, wanted)
        while position > start:
            inside = next((s for s, e in spans if s < position < e), None)
            if inside is None:
                return position + len(mark)
            position = text.rfind(mark, start, inside)
    position = text.rfind("\n", start, wanted)  # all of it one block: at least a line's end
    if position > start + limit // 2:
        return position + 1
    data = text.rfind("](data:", start, wanted)
    if data != -1 and text.find(")", data, wanted) == -1:
        closing = text.find(")", wanted, wanted + DATA_URI_CHARS)
        if closing != -1:
            return closing + 1
    return wanted


def _spanning(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(first, last character) of each block of `text[start:end]` that may go on across a
    blank line, as the page's readers find them (`core.links.grammar`): fenced code
    (`prose_ranges`: an unclosed fence runs to `end`), HTML and Obsidian comments
    (`comment_ranges`), dollar math (`math_ranges`: `$$` blocks). A comment or a `$$`
    block is one only once it closes: the text is read on to the closing mark after `end`
    nearest to it, as far as a part again."""
    reach = end
    for mark in (HTML_COMMENT[1], OBSIDIAN_COMMENT[1], "$$"):
        if (closing := text.find(mark, end, 2 * end - start)) != -1:
            reach = max(reach, closing + len(mark))
    part = text[start:reach]
    prose = prose_ranges(part)
    ends = [stop for _, stop in prose]
    starts = [begin for begin, _ in prose[1:]] + [len(part)]
    fences = [(after, before) for after, before in zip(ends, starts, strict=True) if after < before]
    masked = mask_ranges(part, fences)
    found = [*fences, *math_ranges(masked)]
    for marks in (HTML_COMMENT, OBSIDIAN_COMMENT):
        found += comment_ranges(masked, marks)
    return [
        (start + first, start + min(last, end - start))
        for first, last in found
        if first < end - start
    ]


def _hrefs(tokens: Sequence[Token]) -> tuple[tuple[str, str], ...]:
    """(label, href) of every link (and page embed) in order of appearance; a base's
    embed, or a Dataview query's, is none (no page to open: its rows are drawn in place)."""
    found: list[tuple[str, str]] = []
    for token in tokens:
        embed = str(token.meta.get("href", "")) if token.type == "vault_embed" else ""
        if embed and not _is_base_href(embed):
            found.append((f"↳ {token.meta.get('label', '')}", embed))
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
            elif is_page_embed(child) and not _is_base_href(src := str(child.attrs["src"])):
                found.append((f"↳ {child.content}", src))
    return tuple(found)


def _is_base_href(href: str) -> bool:
    return href in WRITTEN_QUERIES or is_base_name(target_of_href(href) or "")


def _headings(tokens: Sequence[Token]) -> list[Heading]:
    found: list[Heading] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and index + 1 < len(tokens):
            words = [
                child.content
                for child in tokens[index + 1].children or ()
                if child.type in ("text", "code_inline", "vault_tag")
            ]
            found.append((int(token.tag[1:]), re.sub(r"\s+", " ", "".join(words)).strip()))
    return found


def more_line(shown: int, total: int, part: int = RENDER_CHARS) -> Content:
    """`⚠ showing the first 195 KB of 9.6 MB · m shows the next 200 KB` (clickable).

    Sizes count characters of the page source (about bytes for most pages); `part`
    is how much the next `m` draws at most.
    """
    step = min(part, total - shown)
    head = f"⚠ showing the first {_size(shown)} of {_size(total)} · "
    action = f"m shows the next {_size(step)}"
    click = Style.from_meta({"@click": "screen.more_of_page"})
    return Content(head + action, [Span(len(head), len(head) + len(action), click)])


def _size(chars: int) -> str:
    if chars >= 1_000_000:
        return f"{chars / 1_000_000:.1f} MB"
    return f"{max(1, round(chars / 1000))} KB"
