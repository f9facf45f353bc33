"""`F`: keep the link tree and the traversal panel to OKF statuses and a minimum trust
tier (`core.okf.filter`, the semantics of the CLI's `--status` / `--min-trust`).

Statuses are a checklist (none ticked: any status), the tier a radio set; every
change applies at once, behind the dialog. `x` clears both, `escape` or `F` closes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import RadioButton, RadioSet, SelectionList, Static

from okf_explorer.core.okf.filter import OkfFilter
from okf_explorer.core.okf.meta import STATUS_GLYPHS, STATUSES, TRUST_GLYPHS, TRUST_ORDER

ANY_TIER = "any trust"


class FilterDialog(ModalScreen[None]):
    """Calls `apply` with the new filter on every change."""

    DEFAULT_CSS = """
    FilterDialog { align: center middle; background: $background 60%; }
    #filter-box {
        width: 56; max-width: 100%; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    #filter-title { text-style: bold; padding: 0 0 1 0; }
    #filter-statuses { height: auto; margin: 0 0 1 0; }
    #filter-trust { width: 100%; }
    #filter-hint { color: $text-muted; padding: 1 0 0 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,F", "dismiss", "Close", id="close-filter"),
        Binding("x", "clear", "Clear", id="clear-filter"),
    ]

    def __init__(self, current: OkfFilter, apply: Callable[[OkfFilter], None]) -> None:
        super().__init__()
        self.current = current
        self._apply = apply

    def compose(self) -> ComposeResult:
        with Vertical(id="filter-box"):
            yield Static("Filter pages by OKF status and trust", id="filter-title")
            statuses: SelectionList[str] = SelectionList(
                *(
                    (f"{STATUS_GLYPHS[name]} {name}", name, name in self.current.statuses)
                    for name in STATUSES
                ),
                id="filter-statuses",
            )
            statuses.border_title = "status (none ticked: any)"
            yield statuses
            with RadioSet(id="filter-trust"):
                chosen = self.current.min_trust or "unverified"
                for tier in TRUST_ORDER:
                    label = ANY_TIER if tier == "unverified" else f"≥ {TRUST_GLYPHS[tier]} {tier}"
                    yield RadioButton(label, value=tier == chosen, name=tier)
            yield Static("space ticks · tab moves · x clears · escape closes", id="filter-hint")

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()

    def chosen(self) -> OkfFilter:
        """The filter the dialog shows now."""
        statuses = frozenset(self.query_one(SelectionList).selected)
        pressed = self.query_one(RadioSet).pressed_button
        tier = pressed.name if pressed is not None else None
        return OkfFilter(statuses, None if tier in (None, "unverified") else tier)  # type: ignore[arg-type]

    @on(SelectionList.SelectedChanged)
    @on(RadioSet.Changed)
    def _changed(self) -> None:
        new = self.chosen()
        if new != self.current:
            self.current = new
            self._apply(new)

    def action_clear(self) -> None:
        self.query_one(SelectionList).deselect_all()
        self.query_one(RadioSet).query(RadioButton).first().value = True
