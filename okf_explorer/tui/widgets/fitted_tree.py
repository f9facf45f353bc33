"""A tree whose rows are cut to its pane, with a `…`, instead of scrolling sideways.

Textual's `Tree` draws a row as long as its label and scrolls the tree sideways when one is
wider than the pane; a name cut by the pane's edge shows no sign of it. A `FittedTree`
asks its subclass to cut each row to the cells left beside its guides (`fit`), and measures
rows by that cut, so the tree is never wider than the pane. The link tree cuts a page's
path from the left so its file name stays; the page tree cuts a file name at its end. A
name cut at its end is read beside its siblings' (`sibling_starts`): the start they share
is left out where the cut would show nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from rich.style import Style
from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from okf_explorer.tui.state.slice import SharedStart, shared_starts

EntryT = TypeVar("EntryT")

TOGGLE = Style.from_meta({"toggle": True})
"""What a `Tree` row's expand icon carries: a click on it toggles the node (Textual's
`Tree` draws its icons so, and reads the click's `toggle` meta)."""


class FittedTree(Tree[EntryT]):
    """A `Tree` whose rows `fit` cuts to the pane (subclasses say how)."""

    _width_for: tuple[object, int] | None = None
    """The last `_rows_width`, and what it was worked out for (Textual may measure
    rows while the tree is made)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._starts: WeakKeyDictionary[TreeNode[EntryT], tuple[int, dict[str, SharedStart]]]
        self._starts = WeakKeyDictionary()
        """`sibling_starts` by parent, forgotten with it (a tree cleared)."""

    def name_cut_at_end(self, node: TreeNode[EntryT]) -> str | None:
        """The name `node`'s row shows when `fit` cuts it at its end (None: none), read
        beside its siblings' (`sibling_starts`)."""
        return None

    def sibling_starts(self, node: TreeNode[EntryT]) -> Mapping[str, SharedStart]:
        """The starts the names of `node` and its siblings share (`shared_starts` of
        their `name_cut_at_end`), so that rows alike to the cut (`Frontier Explorat…`
        five times) show what differs. Worked out once per parent and child count."""
        parent = node.parent
        if parent is None:
            return {}
        children = parent.children
        found = self._starts.get(parent)
        if found is None or found[0] != len(children):
            names = (self.name_cut_at_end(child) for child in children)
            found = self._starts[parent] = (len(children), shared_starts(n for n in names if n))
        return found[1]

    def cuts(self, node: TreeNode[EntryT]) -> bool:
        """Whether `node`'s row is cut by `fit` (else Textual draws it whole)."""
        return True

    def fit(self, node: TreeNode[EntryT], label: Text, width: int) -> Text:
        """`label`, `node`'s, cut to `width` cells."""
        raise NotImplementedError

    def render_label(self, node: TreeNode[EntryT], base_style: Style, style: Style) -> Text:
        """Textual's row, with the label cut by `fit` (Textual cuts a row at its end)."""
        label = node.label
        label = Text(label) if isinstance(label, str) else label
        icon, width = self._room(node)
        if width > 0 and self.cuts(node):
            label = self.fit(node, label, width)
        label = label.copy()
        label.stylize(style)
        return Text.assemble((icon, base_style + TOGGLE), label)

    def get_label_width(self, node: TreeNode[EntryT]) -> int:
        """The cells `render_label` draws, without drawing it: Textual measures every
        row of the tree for its width (a page with 2,000 backlinks: 2,000 rows drawn to
        be measured, 0.3-0.4 s of CPU on opening it). A row that `fit` cuts is its
        label's width or the room left, whichever is less (a cut may draw a cell or two
        less: the tree is then that much wider than its widest row, never wider than
        the pane)."""
        icon, width = self._room(node)
        if width <= 0 or not self.cuts(node):
            return super().get_label_width(node)
        label = node.label
        return len(icon) + min(label.cell_len if isinstance(label, Text) else len(label), width)

    def _room(self, node: TreeNode[EntryT]) -> tuple[str, int]:
        """`node`'s toggle icon, and the cells left for its label beside its guides."""
        depth, parent = 0, node.parent
        while parent is not None and parent is not self.root:
            depth, parent = depth + 1, parent.parent
        icon = (self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE) * node.allow_expand
        return icon, self._rows_width() - depth * self.guide_depth - len(icon)

    def _rows_width(self) -> int:
        """The cells a row may take (`scrollable_content_region`'s width, worked out
        again only when the tree's region or scroll bars change: Textual works it out
        from the styles on every call, and a tree of 2,000 rows asked 2,000 times)."""
        key = (self.region, self.show_vertical_scrollbar, self.show_horizontal_scrollbar)
        if self._width_for is None or self._width_for[0] != key:
            self._width_for = (key, self.scrollable_content_region.width)
        return self._width_for[1]

    def watch_show_vertical_scrollbar(self) -> None:
        """Rows are cut to the width beside the scroll bar (`render_label`), and Textual
        keeps a drawn row until the tree's own width changes, which the bar coming or
        going does not: every row is drawn again (else a row drawn just before the bar
        came was cut by Textual, without its `…`)."""
        nodes = [self.root]
        while nodes:
            node = nodes.pop()
            node.refresh()
            nodes.extend(node.children)
