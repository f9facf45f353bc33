"""The preview before a slice or a trail is saved as a page into the brain.

Shows the page text exactly as it would be written and the page name, which
can be edited; `enter` in the name (or `ctrl+s`) saves, `escape` saves nothing.
A name the brain's writer cannot take (`sources.factory.check_target`: for gbrain
also an upper-case or percent-encoded name) is said in the dialog, not saved.
Nothing is sent to the brain while the preview is open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static, TextArea

from okf_explorer.core.save import check_new_slug
from okf_explorer.core.text_safety import printable


class SaveDialog(ModalScreen[str | None]):
    """Dismisses with the page name to save as (checked), or None."""

    DEFAULT_CSS = """
    SaveDialog { align: center middle; background: $background; }
    #save-box {
        width: 90; max-width: 100%; height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    #save-title { text-style: bold; }
    #save-text { height: 1fr; }
    #save-error { color: $error; height: auto; }
    #save-hint { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="cancel-save"),
        Binding("ctrl+s", "save", "Save", id="confirm-save"),
    ]

    def __init__(
        self,
        what: str,
        text: str,
        slug: str,
        where: str,
        check: Callable[[str], str] = check_new_slug,
    ) -> None:
        super().__init__()
        self.what, self.text, self.slug, self.where = what, text, slug, where
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="save-box"):
            title = f"Save the {self.what} as a page of {printable(self.where)}"
            yield Static(title, id="save-title", markup=False)
            yield TextArea(self.text, read_only=True, id="save-text", soft_wrap=False)
            yield Static("page name:", markup=False)
            yield Input(value=self.slug, id="save-slug")
            yield Static("", id="save-error", markup=False)
            yield Static("enter (or ctrl+s) saves · escape cancels", id="save-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def action_save(self) -> None:
        typed = self.query_one(Input).value
        try:
            self.dismiss(self.check(typed))
        except ValueError as error:
            self.query_one("#save-error", Static).update(str(error))
