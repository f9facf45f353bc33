"""`o`: the page's outline (its headings, indented by level) to scroll to one.

`up`/`down` move, `enter` (or a click) scrolls the page to the heading, `o` or
`escape` closes: the key toggles the outline.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from okf_explorer.core.text_safety import printable


class OutlineDialog(ModalScreen[int | None]):
    """Dismisses with the chosen heading's index, or None."""

    DEFAULT_CSS = """
    OutlineDialog { align: center middle; background: $background; }
    #outline-box {
        width: 60; max-width: 100%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    #outline-title { text-style: bold; padding: 0 0 1 0; }
    #outline-list { height: auto; max-height: 30; }
    #outline-hint { color: $text-muted; padding: 1 0 0 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close", id="close-outline"),
        Binding("o", "dismiss", "Close", show=False),
    ]

    def __init__(self, slug: str, headings: Sequence[tuple[int, str]]) -> None:
        super().__init__()
        self.slug = slug
        self.headings = list(headings)

    def compose(self) -> ComposeResult:
        top = min((level for level, _ in self.headings), default=1)
        with Vertical(id="outline-box"):
            yield Static(f"Outline of {printable(self.slug)}", id="outline-title", markup=False)
            yield OptionList(
                *(
                    Option(Text("  " * (level - top) + printable(text or "(untitled)")))
                    for level, text in self.headings
                ),
                id="outline-list",
            )
            yield Static("enter scrolls there · o or escape closes", id="outline-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        if self.headings:
            options.highlighted = 0

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_index)
