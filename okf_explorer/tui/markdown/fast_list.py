"""A Markdown list as one widget: what Textual's list widgets draw, a widget per list.

Textual's `MarkdownBulletList` mounts four widgets per item (a `Horizontal` holding a
`MarkdownBullet` and a `Vertical` of the item's blocks), about 1 ms each on a page's
first screen. A list whose items hold only paragraphs and such lists (most lists:
tasks, links, nested points) is drawn here by one widget instead: `HangingList` puts
each item's bullet in a column as wide as the bullet and wraps the item's text in
the width left, as the `Horizontal` does. Any other list (code, quotes, tables in an
item) keeps Textual's widgets, and so does every list under `OKF_EXPLORER_PLAIN=1`.
Equivalence with the library path is tested (`tests/tui/test_first_draw.py`: the
same screen, style for style). Measured with the table and quote fast paths
(`tests/bench/bench_body.py --open-only`): see `docs/performance.md`.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from rich.cells import cell_len
from rich.segment import Segment
from textual.app import ComposeResult
from textual.content import Content
from textual.css.styles import RulesMap
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widget import Widget
from textual.widgets._markdown import (
    MarkdownBlock,
    MarkdownBulletList,
    MarkdownList,
    MarkdownListItem,
    MarkdownOrderedList,
    MarkdownOrderedListItem,
    MarkdownParagraph,
)

from okf_explorer.core import fast_paths

BULLET = "vault-list--bullet"
"""The component class the bullets are drawn in (as Textual styles `MarkdownBullet`)."""
BULLET_CSS = f"""
    & > .{BULLET} {{ color: $text-primary; }}
    &:light > .{BULLET} {{ color: $text-secondary; }}
"""


W = TypeVar("W", bound=type[Widget])


def own_components_only(widget_class: W) -> W:
    """`widget_class` with only the component classes it names itself, none of its
    bases' (Textual's `Widget` drops the `inherit_component_classes` class keyword)."""
    widget_class._inherit_component_classes = False
    return widget_class


@dataclass(frozen=True)
class Row:
    """One line of an item's text: the bullet columns of the lists it is nested in
    (`lead`: their widths), its own `symbol` (a bullet, or blanks), together `indent`
    cells, then `text`, wrapped in the width left."""

    lead: tuple[int, ...]
    symbol: str
    indent: int
    text: Content

    @property
    def prefix(self) -> str:
        return " " * sum(self.lead) + self.symbol


class HangingList(Visual):
    """Rows of text, each wrapped to the width beside its bullet column."""

    def __init__(self, rows: list[Row], bullet_style: str) -> None:
        self.rows = rows
        self.bullet_style = bullet_style
        self.plain = "\n".join(row.prefix + row.text.plain for row in rows)
        self._heights: tuple[tuple[object, ...], int] = ((), 0)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return max((row.indent + row.text.cell_length for row in self.rows), default=0)

    def get_height(self, rules: RulesMap, width: int) -> int:
        overflow = rules.get("text_overflow", "fold")
        no_wrap = rules.get("text_wrap", "wrap") == "nowrap"
        key = (width, overflow, no_wrap)
        if self._heights[0] != key:
            height = sum(
                len(
                    row.text.without_spans._wrap_and_format(
                        max(1, width - row.indent), overflow=overflow, no_wrap=no_wrap
                    )
                )
                for row in self.rows
            )
            self._heights = (key, height)
        return self._heights[1]

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        if not width:
            return []
        get_rule = options.rules.get
        bullet = (style + options.get_style(self.bullet_style)).rich_style
        strips: list[Strip] = []
        for y, row in enumerate(self.rows):
            text = _selected(row, y, options)
            lines = text._wrap_and_format(
                max(1, width - row.indent),
                align=get_rule("text_align", "left"),
                overflow=get_rule("text_overflow", "fold"),
                no_wrap=get_rule("text_wrap", "wrap") == "nowrap",
                tab_size=8,
                post_style=options.post_style,
                get_style=options.get_style,
            )
            for number, line in enumerate(lines):
                line.x += len(row.prefix)  # offsets into the row as `plain` has it
                line.y = y
                segments, length = line.to_strip(style)
                # a segment per bullet column, as Textual's bullet widgets draw them
                symbol = row.symbol if number == 0 else " " * cell_len(row.symbol)
                head = [Segment(" " * column, bullet) for column in row.lead]
                head.append(Segment(symbol, bullet))
                strips.append(Strip([*head, *segments], row.indent + length))
        return strips[:height] if height is not None else strips


def _selected(row: Row, y: int, options: RenderOptions) -> Content:
    """The row's text with the selected part of it (if any) in the selection style."""
    if options.selection is None or options.selection_style is None:
        return row.text
    span = options.selection.get_span(y)
    if span is None:
        return row.text
    start, end = span
    end = len(row.prefix) + len(row.text) if end == -1 else end
    start, end = max(0, start - len(row.prefix)), max(0, end - len(row.prefix))
    return row.text.stylize(options.selection_style, start, end) if end > start else row.text


def list_rows(block: MarkdownList, lead: tuple[int, ...] = ()) -> list[Row] | None:
    """The rows of `block` (nested in lists whose bullet columns are `lead` wide), or
    None when an item holds anything but paragraphs and such lists, or starts with no
    paragraph."""
    rows: list[Row] = []
    indent = sum(lead)
    for symbol, item in _symbols(block):
        width = indent + cell_len(symbol)
        children = item._blocks
        if not children or not isinstance(children[0], MarkdownParagraph):
            return None
        head = symbol
        for child in children:
            if isinstance(child, MarkdownParagraph):
                for line in child._content.split(allow_blank=True):
                    rows.append(Row(lead, head, width, line))
                    head = " " * cell_len(symbol)
            elif isinstance(child, MarkdownList):
                nested = list_rows(child, (*lead, cell_len(symbol)))
                if nested is None:
                    return None
                rows.extend(nested)
            else:
                return None
    return rows


def _symbols(block: MarkdownList) -> list[tuple[str, MarkdownListItem]]:
    """(bullet, item) per item, as Textual's list widgets number and mark them."""
    items = [child for child in block._blocks if isinstance(child, MarkdownListItem)]
    if not isinstance(block, MarkdownOrderedList):
        return [(item.bullet, item) for item in items]
    start = 1
    if items and isinstance(items[0], MarkdownOrderedListItem):
        with suppress(ValueError):
            start = int(items[0].bullet)
    size = max((len(f"{number}. ") for number in range(start, start + len(items))), default=0)
    return [(f"{number}. ".rjust(size + 1), item) for number, item in enumerate(items, start)]


def block_ids(block: MarkdownBlock) -> set[str]:
    """The `^id` block ids of the blocks inside `block` (not mounted: one widget draws them)."""
    found: set[str] = set()
    for child in block._blocks:
        if block_id := child._token.meta.get("block_id"):
            found.add(str(block_id))
        found |= block_ids(child)
    return found


class _OneWidget:
    """Draws the list itself when `list_rows` can (its items' blocks are not mounted)."""

    _blocks: list[MarkdownBlock]
    _content: Content
    block_ids: frozenset[str] = frozenset()
    """Block ids (`^id`) of the items' paragraphs, which `VaultMarkdown.block_for` finds here."""

    def compose(self) -> ComposeResult:
        rows = list_rows(self) if fast_paths.enabled() else None  # type: ignore[arg-type]
        if rows is None:
            yield from super().compose()  # type: ignore[misc]
            return
        self.block_ids = frozenset(block_ids(self))  # type: ignore[arg-type]
        self._blocks.clear()
        visual = HangingList(rows, f".{BULLET}")
        self._content = Content("\n").join(Content(row.prefix) + row.text for row in rows)
        self.update(visual)  # type: ignore[attr-defined]

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        if isinstance(self.render(), HangingList):  # type: ignore[attr-defined]
            return selection.extract(self._content.plain), "\n"
        return super().get_selection(selection)  # type: ignore[misc]


@own_components_only
class VaultBulletList(_OneWidget, MarkdownBulletList):
    COMPONENT_CLASSES: ClassVar[set[str]] = {BULLET}
    DEFAULT_CSS = f"VaultBulletList {{ {BULLET_CSS} }}"


@own_components_only
class VaultOrderedList(_OneWidget, MarkdownOrderedList):
    COMPONENT_CLASSES: ClassVar[set[str]] = {BULLET}
    DEFAULT_CSS = f"VaultOrderedList {{ {BULLET_CSS} }}"
