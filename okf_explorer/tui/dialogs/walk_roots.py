"""`a` in the walk view: more roots for the walk, typed as `slug`, `tag:T` or `type:T`.

Several at once are separated by commas (`tables/orders, tag:finance`); `enter`
adds them (each resolved like a name typed anywhere: SPEC §3), `escape` adds none.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


def root_specs(typed: str) -> list[str]:
    """The comma-separated root specs of `typed`, trimmed, blanks dropped."""
    return [spec.strip() for spec in typed.split(",") if spec.strip()]


class WalkRootsDialog(ModalScreen[list[str] | None]):
    """Dismisses with the root specs typed, or None (`escape` or nothing typed)."""

    DEFAULT_CSS = """
    WalkRootsDialog { align: center middle; background: $background; }
    #walk-roots-box {
        width: 76; max-width: 100%; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    #walk-roots-hint { color: $text-muted; padding: 1 0 0 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="cancel-walk-roots"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="walk-roots-box"):
            yield Static("Add roots to the walk:", markup=False)
            yield Input(placeholder="slug, tag:T, type:T", id="walk-roots")
            yield Static(
                "commas separate several · enter adds · escape cancels",
                id="walk-roots-hint",
                markup=False,
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(root_specs(event.value) or None)
