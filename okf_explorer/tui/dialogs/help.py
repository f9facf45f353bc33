"""The `?` help: every key of the explorer, read from its bindings so it never goes stale."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from okf_explorer.tui.markdown import HangingContent
from okf_explorer.tui.marks import HELP_LEGEND, OKF_LEGEND

KEY_NAMES = {
    "plus": "+", "minus": "-", "slash": "/", "question_mark": "?", "backspace": "backspace",
    "alt+left": "alt+←", "alt+right": "alt+→", "shift+tab": "shift+tab", "ctrl+x": "ctrl+x",
}  # fmt: skip


GUTTER = 2
"""Cells between the two columns of a `two_columns` table."""

HINT = (
    "space expands a link-tree node, pages the page down · escape closes\n"
    "← → scroll the wide code block the page cursor (n) is on\n"
    "e saves into $OKF_EXPORT_DIR if set, else the working folder\n"
    "(inside the brain: it asks for another folder)"
)


LONGER = {
    "page_links": "Links in page (follow one)",
    "page_cursor(1)": "Next link, callout, embed or wide code (enter follows, wraps or folds)",
    "page_cursor(-1)": "Previous link, callout, embed or wide code",
    "cycle_relation": "Relation filter (cycles)",
    "toggle_implied": "Implied inverse edges (down for up, employs for works_at): on / off",
    "cycle_direction": "Direction: out, in, both, neighbourhood",
    "backlinks": "Backlinks with their sentences (b again: back)",
    "okf_filter": "Filter by OKF status and trust",
    "mark_path_from": "Mark this page: paths start here",
    "paths": "Paths from the marked page to this one (P again: back)",
    "walk": "Walk: best paths by link weight (w: back)",
    "trail": "Trail of pages visited (open, export x, save S)",
    "save_page": "Save the slice as a page of the brain (preview first)",
}
"""Help texts longer than the footer has room for, by action."""


def key_label(key: str) -> str:
    return KEY_NAMES.get(key, key)


def two_columns(
    rows: Sequence[tuple[str, str]], heading: tuple[str, str] | None = None
) -> HangingContent:
    """`rows` as two columns, the second wrapped under itself where the dialog is narrow
    (a `DataTable` cut its lines at 80 columns, and took about 20 ms more to open)."""
    width = max(len(left) for left, _ in [*rows, *([heading] if heading else [])]) + GUTTER
    lines = [left.ljust(width) + right for left, right in rows]
    parts: list[str | tuple[str, str]] = []
    if heading:
        parts += [(heading[0].ljust(width) + heading[1], "bold"), "\n"]
    return HangingContent.of(Content.assemble(*parts, "\n".join(lines)), hang=width)


def key_rows(bindings: Sequence[Binding]) -> list[tuple[str, str]]:
    """(keys, description) per action; keys that share an action are joined by `, `."""
    rows: dict[str, tuple[list[str], str]] = {}
    for binding in bindings:
        description = LONGER.get(binding.action, binding.description)
        keys, _ = rows.setdefault(binding.action, ([], description))
        keys.extend(key_label(key.strip()) for key in binding.key.split(","))
        if binding.show and binding.description:
            rows[binding.action] = (keys, description)
    return [(", ".join(keys), description) for keys, description in rows.values()]


class HelpDialog(ModalScreen[None]):
    """A modal listing every key; any of `escape`, `?`, `q` closes it."""

    CSS_PATH = "help.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "dismiss", "Close", id="close-help"),
    ]

    def __init__(self, bindings: Sequence[Binding], reading: str = "") -> None:
        super().__init__()
        self.rows = key_rows(bindings)
        self.reading = reading
        """How this brain's pages read (`line breaks: …`), under the keys."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):  # scrolls (down, pgdn) where it does not fit
            yield Static("Keys", id="help-title")
            yield Static(two_columns(self.rows, heading=("key", "action")), id="help-keys")
            yield Static("What the marks mean", id="help-legend-title")
            yield Static(two_columns(HELP_LEGEND), id="help-legend")
            yield Static(OKF_LEGEND, id="help-okf-legend", markup=False)
            yield Static(HINT, id="help-hint", markup=False)
            if self.reading:
                yield Static(self.reading, id="help-reading", markup=False)
