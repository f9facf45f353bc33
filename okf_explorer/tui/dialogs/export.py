"""`e` from inside the brain: the export may not go into the bundle, so ask where.

The prompt is prefilled with the working folder's parent (or `~`, or the bundle's
parent) when that lies outside the bundle; `enter` saves there (atomically and
verified, as every export), `escape` saves nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Static

from okf_explorer.core.text_safety import printable


def inside(folder: Path, root: Path) -> bool:
    """Whether `folder` (symlinks resolved) is `root` or lies in it."""
    real, base = Path(os.path.realpath(folder)), Path(os.path.realpath(root))
    return real == base or base in real.parents


def suggested_folder(root: Path, working: Path | None = None) -> Path:
    """The first of the working folder's parent, `~`, the bundle's parent outside `root`."""
    working = working if working is not None else Path.cwd()
    for candidate in (working.parent, Path.home(), Path(os.path.realpath(root)).parent):
        if not inside(candidate, root):
            return candidate
    return Path(os.path.realpath(root)).parent


class ExportPathDialog(ModalScreen[Path | None]):
    """Dismisses with the folder typed (`~` expanded), or None (`escape`)."""

    DEFAULT_CSS = """
    ExportPathDialog { align: center middle; background: $background; }
    #export-box {
        width: 76; max-width: 100%; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    #export-why { padding: 0 0 1 0; }
    #export-hint { color: $text-muted; padding: 1 0 0 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="cancel-export"),
    ]

    def __init__(self, refused: Path, root: Path, suggestion: Path) -> None:
        super().__init__()
        self.refused, self.root, self.suggestion = refused, root, suggestion

    def compose(self) -> ComposeResult:
        why = (
            f"{printable(str(self.refused))} is inside the brain {printable(str(self.root))};"
            " the export may not change it. Save the slice in:"
        )
        with Vertical(id="export-box"):
            yield Static(why, id="export-why", markup=False)
            yield Input(value=str(self.suggestion), id="export-folder")
            yield Static("enter saves · escape cancels", id="export-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        typed = event.value.strip()
        self.dismiss(Path(typed).expanduser() if typed else None)


def ask_export_folder(
    widget: Widget, refused: Path, root: Path, save_in: Callable[[Path], None]
) -> None:
    """Ask for a folder outside `root` (`refused` lies in it); `save_in` it, or say the
    slice was not saved (`escape`)."""

    def chosen(folder: Path | None) -> None:
        if folder is None:
            widget.notify("not saved", title="export")
        else:
            save_in(folder)

    widget.app.push_screen(ExportPathDialog(refused, root, suggested_folder(root)), chosen)
