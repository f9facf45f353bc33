"""A fast path for long page bodies: a light Markdown renderer (off under `OKF_EXPLORER_PLAIN=1`).

Textual's `Markdown` widget mounts a widget per block (a 200-item list is ~600
widgets), so a long page costs hundreds of milliseconds to mount and every later
screen relayout (a status tick, the link tree filling in) pays for it again. Above
`LIGHT_BLOCKS` blocks the page pane renders the body to one `Content` (`LightBody`):
headings, lists, quotes, code, tables and rules keep their shape, code is highlighted
and table columns aligned (a block wider than the pane scrolls sideways:
`fast_render`), inline emphasis and code keep their style, vault Markdown reads as in
the `Markdown` widget (same parser and inline converter), and links stay clickable
(same `link(href)` action as the `Markdown` widget, reported as `LinkClicked`). What
it gives up: folding callouts (they show open) and embed previews (an embed is a
link line).

The prose is wrapped in the same thread (`wrap_piece`, Textual's own wrapper) and
shown by line-API widgets (`light_body`: a fixed height, `render_line` draws one
visible line), so neither mounting nor laying out a long body measures wrapped
text on the event loop, and a frame draws only the lines on screen. A width change
re-wraps in a thread; until then the old lines are shown, cut to the new width.
Textual's own line-API widgets did not fit: `Log` has no styles or links, `RichLog`
renders (wraps) what is written on the loop, a read-only `TextArea` has no link
actions and one language, and each is a scroll view of its own where the body
scrolls with the header above it in the page pane.

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
shows the headings, links, code lines and table cells the `Markdown` widget shows;
another that a `_Lines` draws (text, links, selection) what a `Static` draws.
With the line-API pieces, the worst event-loop stall while a 2 MB page opens and
fills in fell from 382-999 ms to 39-343 ms in one run (`--open-only`, load ~8).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it.token import Token
from textual.content import Content, Span
from textual.style import Style

from okf_explorer.core import fast_paths
from okf_explorer.core.fast_gc import gc_paused
from okf_explorer.core.okf.meta import Source
from okf_explorer.tui.markdown.fast_render import Heading as Heading
from okf_explorer.tui.markdown.fast_render import PreparedBody as PreparedBody
from okf_explorer.tui.markdown.fast_render import render_tokens, wrap_piece
from okf_explorer.tui.markdown.light_body import LightBody as LightBody
from okf_explorer.tui.markdown.links import LINK_SCHEME, linkify_body
from okf_explorer.tui.markdown.parser import is_page_embed, parse

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


def prepare_body(
    text: str,
    start: int = 0,
    limit: int = RENDER_CHARS,
    sources: Sequence[Source] = (),
    width: int = 80,
) -> PreparedBody:
    """Linkify and parse `text[start:]` up to about `limit` characters (cut at a break).

    `[^id]` references to the page's OKF `sources` (by `id`) get a footnote with the
    source's title and resource. The part is rendered to pieces (for a pane `width`
    columns wide, prose wrapped to it) when it has more than `LIGHT_BLOCKS` blocks,
    when the whole body is longer than `LIGHT_CHARS`, or when it is not the first
    part (it is appended to a light body); never under `OKF_EXPLORER_PLAIN=1` (then
    the `Markdown` widget shows every part).

    The cyclic collector is paused meanwhile (`gc_paused`): parsing a 200 KB part
    makes ~10^6 short-lived tokens, enough to start full collections that walk every
    object alive while holding the interpreter lock (100-240 ms event-loop stalls).
    """
    with gc_paused():
        return _prepare_body(text, start, limit, sources, width)


def _prepare_body(
    text: str, start: int, limit: int, sources: Sequence[Source], width: int
) -> PreparedBody:
    end = cut_point(text, start, limit)
    markdown = linkify_body(text[start:end]) + source_notes(text[start:end], sources)
    tokens = parse(markdown)
    blocks = sum(1 for token in tokens if token.nesting == 1 or token.type in _LEAVES)
    long = blocks > LIGHT_BLOCKS or len(text) > LIGHT_CHARS or start > 0
    links = _hrefs(tokens)
    if not (long and fast_paths.enabled()):
        headings = tuple(_headings(tokens))
        return PreparedBody(markdown, None, blocks, end, len(text), links, (), headings)
    rendered = render_tokens(tokens, width)
    pieces = rendered.pieces
    return PreparedBody(
        markdown,
        Content("\n").join(piece.content for piece in rendered.pieces),
        blocks,
        end,
        len(text),
        links,
        tuple(rendered.pieces),
        tuple((level, title) for level, title, _, _ in rendered.headings),
        tuple((piece, row) for _, _, piece, row in rendered.headings),
        tuple((name, piece, row) for name, (piece, row) in rendered.blocks.items()),
        tuple(None if piece.wide else wrap_piece(piece.content, width) for piece in pieces),
    )


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
    """(label, href) of every link (and page embed) in order of appearance."""
    found: list[tuple[str, str]] = []
    for token in tokens:
        if token.type == "vault_embed":
            found.append((f"↳ {token.meta.get('label', '')}", str(token.meta.get("href", ""))))
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
            elif is_page_embed(child):
                found.append((f"↳ {child.content}", str(child.attrs.get("src", ""))))
    return tuple(found)


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


_LEAVES = ("fence", "code_block", "hr", "html_block", "vault_embed")


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
