"""The `?` help: every key of the explorer, read from its bindings so it never goes stale."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from okf_explorer.tui.marks import HELP_LEGEND, OKF_LEGEND

KEY_NAMES = {
    "plus": "+", "minus": "-", "slash": "/", "question_mark": "?", "backspace": "backspace",
    "alt+left": "alt+←", "alt+right": "alt+→", "shift+tab": "shift+tab", "ctrl+x": "ctrl+x",
}  # fmt: skip


HINT = (
    "space expands a link-tree node · escape closes\n"
    "e saves into $OKF_EXPORT_DIR if set, else the working folder\n"
    "(inside the brain: it asks for another folder)"
)


LONGER = {
    "page_links": "Links in page (follow one)",
    "page_cursor(1)": "Next link, callout or embed (enter follows or folds)",
    "page_cursor(-1)": "Previous link, callout or embed",
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
            table: DataTable[str] = DataTable(id="help-keys", cursor_type="none", show_cursor=False)
            table.can_focus = False  # the box takes the keys, so `down` scrolls it
            table.add_columns("key", "action")
            table.add_rows(self.rows)
            yield table
            yield Static("What the marks mean", id="help-legend-title")
            legend: DataTable[str] = DataTable(
                id="help-legend", cursor_type="none", show_cursor=False, show_header=False
            )
            legend.can_focus = False
            legend.add_columns("mark", "meaning")
            legend.add_rows(HELP_LEGEND)
            yield legend
            yield Static(OKF_LEGEND, id="help-okf-legend", markup=False)
            yield Static(HINT, id="help-hint", markup=False)
            if self.reading:
                yield Static(self.reading, id="help-reading", markup=False)
