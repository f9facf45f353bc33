"""Shown when the source cannot be reached at start: the reason and a way to retry."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from okf_explorer.core.text_safety import printable
from okf_explorer.tui.widgets.footer import PinnedFooter, pin_footer


class SourceErrorScreen(Screen[bool]):
    """Dismisses with True when the user asks to retry (`r`); `q` quits."""

    CSS_PATH = "source_error.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "retry", "Retry", id="retry"),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    def __init__(self, source_label: str, reason: str) -> None:
        super().__init__()
        self.source_label = source_label
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="error-box"):
            yield Static("Cannot open the brain", id="error-title")
            yield Static(printable(self.source_label), id="error-source", markup=False)
            yield Static(printable(self.reason), id="error-reason", markup=False)
            yield Static("Press r to try again, q to quit.", id="error-hint")
        yield PinnedFooter()

    def on_mount(self) -> None:
        pin_footer(self)

    def action_retry(self) -> None:
        self.dismiss(True)
