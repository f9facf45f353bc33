"""How a failure reaches the reader: a source error as it says, anything else as a bug.

Widgets run their I/O in their own workers, and Textual tells only the widget that
runs a worker when it ends (`Worker.StateChanged` does not bubble). A widget that
mixes in `ReportsWorkers` passes each end up as `WorkerEnded`, so the screen's one
handler turns every failure into a notification (`notice`) and refreshes the footer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message
from textual.worker import Worker, WorkerState

from okf_explorer.core.errors import OkfError
from okf_explorer.tui.settings import EXPORT_DIR_ENV

if TYPE_CHECKING:
    from textual.dom import DOMNode

    _Node = DOMNode
else:
    _Node = object


def reason(error: BaseException | None) -> str:
    """One line: a source error's own words, else `unexpected error: …`."""
    return str(error) if isinstance(error, OkfError) else f"unexpected error: {error!r}"


def notice(error: BaseException | None, group: str = "") -> tuple[str, str]:
    """(title, text) of the notification for a failed worker of `group` (or the loader)."""
    if group == "export":
        return "export", f"{reason(error)} (set {EXPORT_DIR_ENV} to export elsewhere)"
    return ("source" if isinstance(error, OkfError) else "bug"), reason(error)


class ReportsWorkers(_Node):
    """Mixed into a widget (or screen) that runs its own workers: each one that ends,
    done or failed, is posted up as `WorkerEnded` (a cancelled one says nothing)."""

    class WorkerEnded(Message):
        """A worker of the widget that posted this ended (`worker.state` says how)."""

        def __init__(self, worker: Worker[object]) -> None:
            super().__init__()
            self.worker = worker

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state in (WorkerState.SUCCESS, WorkerState.ERROR):
            self.post_message(ReportsWorkers.WorkerEnded(event.worker))
