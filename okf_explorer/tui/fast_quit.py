"""Quitting at once (`q`): the shell prompt back in tens of milliseconds (a fast path).

Measured from `q` to the prompt in tmux on a 6.5k-page vault: 360-430 ms, of which
Textual's own shutdown is ~20 ms. The rest: Textual's Linux driver waits for its
input thread, which polls the terminal every 100 ms and once more after it is told to
stop (100-200 ms), then the interpreter tears down the index, millions of objects
(100-200 ms). Two changes, both off with `OKF_EXPLORER_PLAIN=1`:

- `QuickQuitDriver`: once the app is quitting, the driver stops listening (mouse
  reporting off, `SIGWINCH` back to its default, the input thread told to stop) without
  waiting for the thread. Only then: a suspend for `$EDITOR` (`E`) still waits, so the
  old thread never reads the editor's keys.
- `end_process`: `browse` ends the process with `os._exit` once `App.run` has returned
  (the terminal is restored by then) and output is flushed, when nothing that writes
  was running at `q` (`QuickQuit.quick`) and no thread but Textual's input thread is
  left: saves, exports, the search index and thread workers run in asyncio's default
  executor, which `asyncio.run` waits for before `App.run` returns; an index build (it
  writes the cache) makes the quit take the ordinary way, and so does any other thread
  still alive (it may be writing).
"""

from __future__ import annotations

import os
import signal
import sys
import threading

from textual.drivers.linux_driver import LinuxDriver

from okf_explorer.core import fast_paths
from okf_explorer.tui.settings import web_driver_chosen

MOUSE_OFF = "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"
"""What Textual writes to stop mouse reporting (the modes it turned on)."""
WRITING_GROUPS = frozenset({"index", "save", "export"})
"""Worker groups that write (the index cache, pages, exports): a quit waits for them."""
INPUT_THREAD = "textual-input"
"""The name of Textual's input thread, told to stop and not waited for."""


class QuickQuit:
    """Mixed into the app: `quitting` once `q` was pressed, `quick` when the process may
    end at once (fast paths on, nothing writing)."""

    quitting = False
    quick = False

    def quit_at_once(self, busy_groups: set[str]) -> None:
        """`q` was pressed while workers of `busy_groups` ran."""
        self.quitting = True
        self.quick = fast_paths.enabled() and not (busy_groups & WRITING_GROUPS)


class QuickQuitDriver(LinuxDriver):
    """Textual's Linux driver that, when its app is quitting, does not wait for its input
    thread to notice (see the module doc)."""

    def __init__(self, app, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(app, **kwargs)
        self.quitting_app = app

    def disable_input(self) -> None:
        if not (isinstance(self.quitting_app, QuickQuit) and self.quitting_app.quick):
            super().disable_input()
            return
        try:
            if not self.exit_event.is_set():
                signal.signal(signal.SIGWINCH, signal.SIG_DFL)
                self.write(MOUSE_OFF)
                self.exit_event.set()  # the thread ends at its next poll; nobody waits
        except Exception:  # as Textual's own: a terminal gone already is no failure
            pass


def quick_driver() -> type[QuickQuitDriver] | None:
    """The driver of a session in a terminal; None (Textual's own) under `web` (the
    browser drives it) and on Windows (no Linux driver)."""
    return QuickQuitDriver if not web_driver_chosen() and sys.platform != "win32" else None


def end_process(app: QuickQuit, status: int) -> None:
    """After `App.run`: end the process now if the quit was quick (else return)."""
    if app.quick and not threads_that_may_write():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def threads_that_may_write() -> list[threading.Thread]:
    """Threads other than the main one and Textual's input thread that are still alive."""
    return [
        thread
        for thread in threading.enumerate()
        if thread is not threading.main_thread()
        and thread.name != INPUT_THREAD
        and not thread.daemon
        and thread.is_alive()
    ]
