"""`T`: the trail of pages visited, in order, each with the move that led to it.

`enter` (or a click) opens the page of a step, `x` exports the trail as JSON
(edge records in visit order with its provenance: `core.graph.trail`), `S` previews
it as a page to save into the brain; `T` or `escape` closes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from okf_explorer.core.graph.trail import TrailStep
from okf_explorer.core.graph.traverse import LINKS
from okf_explorer.core.text_safety import printable

TrailChoice = tuple[Literal["open", "export", "save"], str]
"""What the dialog was closed for: open a page (its slug), export or save the trail."""


def step_line(number: int, step: TrailStep) -> Text:
    """`3  ← tables/orders · back`: the step number, the page, and the move."""
    arrow = "" if step.frm is None else ("← " if step.how == "back" else "→ ")
    line = Text(f"{number:>3}  {arrow}{printable(step.to)}")
    line.append(f" · {printable(move_words(step))}", style="dim")
    return line


def move_words(step: TrailStep) -> str:
    """How a step was made, in words: `start`, `back`, `finder`, `by a link`,
    `by a backlink` (the page opened links to the one before it), `by derived_from`,
    `by a backlink (derived_from)`."""
    if step.how != "link":
        return step.how
    if step.direction == "in":
        return "by a backlink" if step.rel == LINKS else f"by a backlink ({step.rel})"
    return "by a link" if step.rel == LINKS else f"by {step.rel}"


class TrailDialog(ModalScreen[TrailChoice | None]):
    """Dismisses with `("open", slug)`, `("export", "")`, `("save", "")` or None."""

    DEFAULT_CSS = """
    TrailDialog { align: center middle; background: $background; }
    #trail-box {
        width: 72; max-width: 100%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    #trail-title { text-style: bold; padding: 0 0 1 0; }
    #trail-list { height: auto; max-height: 30; }
    #trail-hint { color: $text-muted; padding: 1 0 0 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close", id="close-trail"),
        Binding("T", "dismiss", "Close", show=False),
        Binding("x", "choose('export')", "Export", id="export-trail"),
        Binding("S", "choose('save')", "Save as page", id="save-trail"),
    ]

    def __init__(self, steps: Sequence[TrailStep]) -> None:
        super().__init__()
        self.steps = list(steps)

    def compose(self) -> ComposeResult:
        count = len(self.steps)
        with Vertical(id="trail-box"):
            title = f"Trail · {count} page{'s' if count != 1 else ''} visited"
            yield Static(title, id="trail-title", markup=False)
            yield OptionList(
                *(Option(step_line(n, step)) for n, step in enumerate(self.steps, start=1)),
                id="trail-list",
            )
            yield Static(
                "enter opens · x exports JSON · S saves as a page · T or escape closes",
                id="trail-hint",
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        if self.steps:
            options.highlighted = len(self.steps) - 1

    def action_choose(self, what: Literal["export", "save"]) -> None:
        if self.steps:
            self.dismiss((what, ""))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(("open", self.steps[event.option_index].to))
