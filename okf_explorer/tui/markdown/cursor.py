"""`n` / `N`: a cursor over the links, foldable callouts, embeds and wide code blocks
of a drawn body, and the links of the page header above it.

Without a mouse, a folded callout or an embed could not be opened, a link could be
followed only through the `l` list, and a code block wider than the pane could not be
scrolled to the end of its lines. The cursor goes through them in reading order:
the header's links (a vault's `categories: [[Books]]`, a bundle's sources), then the
body's pieces top to bottom, a piece's rows top to bottom, a row's links left to
right; a foldable callout comes before the links inside it (its title row) and, folded,
hides them; an embedded base comes before the links of its table (its pages). It is a
`Target`, found again by its place (`Target.key`) once its piece is redrawn (a fold, a
resize, a part appended), and shown by the piece (`DrawnRows.mark` on the link's text,
the callout's title or the code's first line, the embed's `-cursor` class,
`EmbedView.mark` on a base's link).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from textual.geometry import Region
from textual.style import Style

from okf_explorer.tui.markdown.body import (
    Callout,
    DrawnRows,
    EmbedBlock,
    Mark,
    VaultBody,
    WideFence,
)
from okf_explorer.tui.markdown.draw import Row

TargetKind = Literal["link", "callout", "embed", "code"]

NOTHING_THERE = {True: "below", False: "above"}
"""Where `n` (True) / `N` (False) found nothing more, to say so."""

_CLICK = re.compile(r"link\((.+)\)\Z", re.DOTALL)
"""A link's click action as the engine writes it (`inline.py`: `link('okf:page')`)."""


class LinkLines(Protocol):
    """Links shown above the body, outside it (the page header's): the cursor visits
    them first. A mark is `(row, start, end)` with `start` / `end` offsets in its whole
    text."""

    @property
    def is_attached(self) -> bool: ...

    @property
    def virtual_region(self) -> Region: ...

    @property
    def links(self) -> tuple[object, list[tuple[str, tuple[Mark, ...]]]]:
        """(what changes when they are shown again, each link's href and marks)."""
        ...

    def mark(self, marks: Sequence[Mark]) -> None: ...


@dataclass(frozen=True, eq=False, slots=True)
class Target:
    """Something the cursor can be on: a link (`href`), a foldable callout (the
    `index`-th block of its piece) or an embed, at `row` of its piece `widget` (or of
    the header's lines)."""

    kind: TargetKind
    widget: DrawnRows | EmbedBlock | LinkLines
    row: int = 0
    marks: tuple[Mark, ...] = ()
    """Where it shows on the piece's rows (a link: its text, a callout: its title)."""
    href: str = ""
    index: int = 0
    """A callout: its block's index in the piece; a link: its order among the piece's."""

    @property
    def key(self) -> tuple[object, str, int]:
        """The same target in a redrawn piece has the same key."""
        return (self.widget, self.kind, self.index)

    @property
    def y(self) -> int:
        """Rows from the top of its piece's container (the body's; the header's pane's)."""
        if isinstance(self.widget, WideFence):
            return self.widget.top + self.row
        return self.widget.virtual_region.y + self.row


def href_of(style: object) -> str | None:
    """The href a link's style follows on a click, or None (not a link)."""
    if not isinstance(style, Style) or not style.meta:
        return None
    click = style.meta.get("@click")
    found = _CLICK.match(click) if isinstance(click, str) else None
    if found is None:
        return None
    try:
        href = ast.literal_eval(found.group(1))
    except (ValueError, SyntaxError):
        return None
    return href if isinstance(href, str) else None


def link_marks(rows: Sequence[Row]) -> list[tuple[str, tuple[Mark, ...]]]:
    """(href, where its text is) of each link drawn on `rows`, in reading order; a link
    wrapped over rows is one (its parts on consecutive rows, the later ones starting a
    row)."""
    links: list[tuple[str, list[Mark]]] = []
    for number, row in enumerate(rows):
        plain = row.content.plain
        for span in sorted(row.content.spans, key=lambda span: span.start):
            href = href_of(span.style)
            if href is None or span.end <= span.start:
                continue
            mark = (number, span.start, span.end)
            if links and links[-1][0] == href:
                last = links[-1][1][-1]
                touching = last[0] == number and span.start <= last[2]
                above = rows[last[0]].content.plain.rstrip() if last[0] < number else ""
                wrapped = (
                    last[0] == number - 1
                    and last[2] >= len(above)
                    and not plain[row.lead : span.start].strip()
                )
                if touching or wrapped:
                    links[-1][1].append(mark)
                    continue
            links.append((href, [mark]))
    return [(href, tuple(marks)) for href, marks in links]


def targets_of(widget: DrawnRows | EmbedBlock) -> list[Target]:
    """The targets of one piece, in reading order."""
    if isinstance(widget, EmbedBlock):
        found_in_embed = [Target("embed", widget, 0, href=widget.href)]
        if widget.is_base:  # its rows are a table of pages: each link is a target
            for order, (href, marks) in enumerate(link_marks(widget.shown_rows()), 1):
                found_in_embed.append(Target("link", widget, marks[0][0], marks, href, order))
        return found_in_embed
    drawing = widget.drawing
    if isinstance(widget, WideFence):  # on its first line of code (the box's first row)
        first = drawing.rows[1].content.plain.rstrip() if len(drawing.rows) > 1 else ""
        return [Target("code", widget, 1, ((1, 2, max(3, len(first))),))]
    found: list[tuple[tuple[int, int], Target]] = []
    for first, _end, index in drawing.folds:
        row = drawing.rows[first] if first < len(drawing.rows) else None
        title = (first, row.lead, len(row.content.plain.rstrip())) if row is not None else None
        target = Target("callout", widget, first, (title,) if title else (), index=index)
        found.append(((first, -1), target))
    for order, (href, marks) in enumerate(link_marks(drawing.rows)):
        row, start, _ = marks[0]
        found.append(((row, start), Target("link", widget, row, marks, href, order)))
    found.sort(key=lambda pair: pair[0])
    return [target for _, target in found]


class BodyCursor:
    """Where the cursor is in a `VaultBody` (and the `header` above it), and its moves;
    the page pane runs it."""

    def __init__(self, body: VaultBody, header: LinkLines | None = None) -> None:
        self.body = body
        self.header = header
        self.current: Target | None = None
        self._cache: dict[DrawnRows | EmbedBlock, tuple[object, list[Target]]] = {}
        self._header_cache: tuple[object, list[Target]] = (None, [])

    def targets(self) -> list[Target]:
        """Every target of the header and the body shown, in reading order (each piece's
        are read again only once it is redrawn)."""
        found = self._header_targets()
        cache: dict[DrawnRows | EmbedBlock, tuple[object, list[Target]]] = {}
        for widget in self.body.readable():
            drawing = widget.drawing if isinstance(widget, DrawnRows) else _embed_shown(widget)
            cached = self._cache.get(widget)
            if cached is None or cached[0] is not drawing:
                cached = (drawing, targets_of(widget))
            cache[widget] = cached
            found += cached[1]
        self._cache = cache
        return found

    def _header_targets(self) -> list[Target]:
        header = self.header
        if header is None or not header.is_attached:
            return []
        shown, links = header.links
        if self._header_cache[0] is not shown:
            made = [
                Target("link", header, marks[0][0], marks, href, order)
                for order, (href, marks) in enumerate(links)
            ]
            self._header_cache = (shown, made)
        return list(self._header_cache[1])

    def y(self, target: Target) -> int:
        """Rows from the body's top to `target` (a header's: above it, negative)."""
        if target.widget is self.header:
            return target.y - self.body.virtual_region.y
        return target.y

    def find(self) -> Target | None:
        """The target the cursor is on, as the body now draws it (None: none, or it is
        gone: another page, a part redrawn without it)."""
        if self.current is None or not self.current.widget.is_attached:
            return None
        key = self.current.key
        return next((target for target in self.targets() if target.key == key), None)

    def move(self, step: int, top: int, bottom: int) -> Target | None:
        """Move `step` (1: next, -1: previous) from the cursor if it is between rows `top`
        and `bottom` of the body (what is visible), else from what is visible: the first
        target from its top (`n`), the last before its bottom (`N`). None: nothing there
        (the cursor stays)."""
        targets = self.targets()
        key = self.current.key if self.current is not None else None
        here = next((n for n, target in enumerate(targets) if target.key == key), None)
        rows = [self.y(target) for target in targets]
        if here is not None and top <= rows[here] < bottom:
            pick = here + step
        elif step > 0:
            pick = next((n for n, y in enumerate(rows) if y >= top), len(targets))
        else:
            below = [n for n, y in enumerate(rows) if y < bottom]
            pick = below[-1] if below else -1
        if not 0 <= pick < len(targets):
            return None
        self.show(targets[pick])
        return targets[pick]

    def show(self, target: Target | None) -> None:
        """Put the cursor on `target` (None: take it off the page)."""
        old, self.current = self.current, target
        if old is not None and (target is None or old.widget is not target.widget):
            _unmark(old.widget)
        if target is None:
            return
        if isinstance(target.widget, EmbedBlock) and target.kind == "embed":
            target.widget.add_class("-cursor")
            target.widget.mark(())
        else:
            if isinstance(target.widget, EmbedBlock):  # a link of a base's table
                target.widget.remove_class("-cursor")
            target.widget.mark(target.marks)

    def show_again(self) -> None:
        """Its piece was redrawn (`DrawnRows.Redrawn`): mark where the cursor is now."""
        self.show(self.find())

    def activate(self) -> Target | None:
        """`enter` on a callout or an embed: fold or unfold it; on a wide code block: wrap
        its lines or let them run on (the cursor stays on it). The target, as it was
        before (a link: the caller follows it)."""
        target = self.find()
        if target is None:
            return None
        if target.kind == "code" and isinstance(target.widget, WideFence):
            target.widget.toggle_wrap()
            self.show_again()
        elif target.kind == "callout" and isinstance(target.widget, DrawnRows):
            Callout(target.widget, target.index).toggle()
            self.show_again()
        elif target.kind == "embed" and isinstance(target.widget, EmbedBlock):
            target.widget.toggle()
        return target

    def code(self) -> WideFence | None:
        """The wide code block the cursor is on, if it is on one (`left` / `right`)."""
        target = self.find()
        if target is not None and isinstance(target.widget, WideFence):
            return target.widget
        return None


def _unmark(widget: DrawnRows | EmbedBlock | LinkLines) -> None:
    if isinstance(widget, EmbedBlock):
        widget.remove_class("-cursor")
    widget.mark(())


def _embed_shown(widget: EmbedBlock) -> object:
    """What an embed's targets change with: a base's rows as shown (the same list until
    they change), any other's href."""
    return widget.shown_rows() if widget.is_base else widget.href
