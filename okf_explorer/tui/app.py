"""The Textual app: reads its options and pushes the explorer screen (or, when the
brain cannot be opened, the screen that says why). `make_app` is the one factory the
CLI, the tests and the screenshot script use.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from multiprocessing import resource_tracker
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import App
from textual.binding import Binding, BindingType
from textual.command import CommandPalette, Provider
from textual.filter import LineFilter
from textual.notifications import SeverityLevel

from okf_explorer.core.brain import Brain
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.cells import TerminalWidths
from okf_explorer.tui.collector_at_rest import CollectorAtRest
from okf_explorer.tui.drawn_lines import LetGoOfClosedScreens
from okf_explorer.tui.fast_quit import QuickQuit, quick_driver
from okf_explorer.tui.finder import FIND_PROMPT, PageFinder
from okf_explorer.tui.screens.main import MainScreen
from okf_explorer.tui.settings import (
    NO_TERMINAL,
    NoTerminal,
    default_export_dir,
    has_terminal,
    web_driver_chosen,
)
from okf_explorer.tui.state.server_view import ServerComparison

if TYPE_CHECKING:
    from okf_explorer.sources.gbrain.source import McpSource

__all__ = ["ExplorerApp", "NoTerminal", "make_app"]


class ExplorerApp(CollectorAtRest, LetGoOfClosedScreens, QuickQuit, App[None]):
    """okf-explorer: browse a brain's pages and the links between them."""

    TITLE = "okf-explorer"
    COMMANDS: ClassVar[set[type[Provider]]] = {PageFinder}  # no system commands (SPEC §8 `/`)
    COMMAND_PALETTE_DISPLAY = "ctrl+p"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True, id="interrupt")
    ]

    def __init__(self, brain: Brain, explorer: partial[MainScreen], label: str) -> None:
        super().__init__(driver_class=quick_driver())  # quits at once (`tui.fast_quit`)
        self.brain, self.source_label, self._widths = brain, label, TerminalWidths()
        self._explorer = explorer
        """A fresh explorer screen each call (the first, and each retry after a failure)."""

    def on_mount(self) -> None:
        self.push_screen(self._explorer())

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's, then `TerminalWidths`: an emoji with a variation selector or a skin
        tone is drawn in the cells the layout gave it, in any terminal."""
        return [*super().get_line_filters(), self._widths]

    @on(MainScreen.SourceFailed)
    def _source_failed(self, message: MainScreen.SourceFailed) -> None:
        """Nothing could be shown: say why; `r` starts again on a fresh explorer."""
        from okf_explorer.tui.screens.source_error import SourceErrorScreen  # rarely needed

        if isinstance(self.screen, SourceErrorScreen):
            return

        def retry(again: bool | None) -> None:
            if again:
                self.switch_screen(self._explorer())

        self.push_screen(SourceErrorScreen(self.source_label, message.reason), retry)

    def run(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Run in the terminal; without one refuse (`NoTerminal`: the driver would write
        escape codes into a pipe and wait for keys forever); under `web`, a browser's."""
        if not kwargs.get("headless") and not web_driver_chosen() and not has_terminal():
            raise NoTerminal(NO_TERMINAL)
        return super().run(*args, **kwargs)

    async def action_quit(self) -> None:
        """`q` and `ctrl+c`: quit; at once when nothing is writing (`tui.fast_quit`)."""
        self.quit_at_once({worker.group for worker in self.workers if worker.is_running})
        await super().action_quit()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notification (screens' too) shows control characters as escapes:
        they name pages and paths, which may hold anything."""
        message, title = printable(message), printable(title)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def action_command_palette(self) -> None:
        """The palette is the page finder: it says so."""
        from okf_explorer.tui.dialogs.finder import FinderDialog

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(FinderDialog(placeholder=FIND_PROMPT, id="--command-palette"))


def make_app(
    brain: Brain,
    *,
    start: str | None = None,
    export_dir: Path | None = None,
    source_label: str | None = None,
    watch_files: bool = False,
    against: McpSource | None = None,
) -> ExplorerApp:
    """The app over `brain`, opening `start` (default: `core.graph.analysis` chooses).

    Exports (`e`) go to `export_dir` (default: `$OKF_EXPORT_DIR`, else the working
    directory). `source_label` overrides what the status line calls the source (the
    screenshot script uses it to keep machine paths out of the pictures). `watch_files`
    reloads pages saved in a folder source (live reload; the CLI turns it on, tests and
    scripts that wait for idle workers leave it off). `against` is the server a folder
    brain is compared with (`browse FOLDER --against URL`): each page's header and link
    tree show where the server disagrees.
    """
    # A running app's `sys.stderr` has `fileno()` -1: a process pool started later (a big
    # scan) could not launch the resource tracker ("bad value(s) in fds_to_keep"). Now, once.
    resource_tracker.ensure_running()
    label = source_label if source_label is not None else brain.label
    explorer = partial(
        MainScreen,
        brain,
        start=start,
        export_dir=export_dir if export_dir is not None else default_export_dir(),
        source_label=label,
        watch_files=watch_files,
        comparison=ServerComparison(brain, against),
    )
    return ExplorerApp(brain, explorer, label)
