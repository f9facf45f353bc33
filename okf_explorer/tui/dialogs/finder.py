"""The finder's palette (`/`, `ctrl+p`, `ctrl+f`): Textual's command palette, whose
`enter` opens the best hit of what is typed.

Pressed before the search of the last key has ended (on a 35k-page vault a page
ranking takes 150-500 ms), `enter` waits for that search (at most `ENTER_WAIT`), then
opens its first hit; Textual's palette would open the top of the list the key before
left, or nothing (the list not shown yet), the palette staying open. An option moved
to with the arrows is opened as it is. The hits come from the providers of
`tui.finder`.

The wait is a Textual interval timer, and a stopped one may still tick once: its sleep
skips waits under half a millisecond, so on a loaded machine the cancel lands a tick
late. Each `enter` therefore holds a token of its own, and a tick whose token is no
longer current does nothing: two selections would dismiss twice, the second closing the
main screen under the palette.

Letters typed in one burst with the key that opens it (or ahead of it while a large vault
keeps the app busy) come before its input has the focus. The keys that open it act as
they arrive (priority bindings), so those letters come to the palette itself, not to the
pane under it, and the palette types them into its input, in order.

With nothing typed, the palette lists again when `watched()` (optional) changes: `ctrl+f`'s
list says how far the text index's first fill is (`tui.finder.TextFinder.discover`), and
the row goes once it is done. It looks every `WATCH_STEP` seconds while the value is not
None, by the message the palette lists on (`Input.Changed`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual import events, on
from textual.command import CommandList, CommandPalette
from textual.timer import Timer
from textual.widgets import Input
from textual.worker import WorkerState

ENTER_WAIT = 5.0
"""How long (seconds) an `enter` pressed during a search waits for its hits."""
ENTER_WAIT_STEP = 0.02
"""How often (seconds) a waiting `enter` looks whether the search has ended."""
WATCH_STEP = 0.5
"""How often (seconds) the palette looks whether `watched()` changed."""


class FinderDialog(CommandPalette):
    """The command palette whose `enter` opens the best hit of what is typed (see the
    module doc)."""

    _pending: Timer | None = None
    _watching: Timer | None = None
    _enter: object | None = None
    """The token of the `enter` still waiting for its search (see the module doc)."""

    def __init__(
        self,
        *args: Any,
        query: str = "",
        watched: Callable[[], object | None] | None = None,
        **kwargs: Any,
    ) -> None:
        """Textual's palette, `query` typed in it as it opens (a followed tag's `tag:x`);
        with nothing typed, listed again when `watched()` changes (see the module doc)."""
        super().__init__(*args, **kwargs)
        self._first_query = query
        self._watched = watched
        self._seen: object | None = None

    def on_key(self, event: events.Key) -> None:
        """A letter that came to the palette, not to its input, was typed before the input
        had the focus (see the module doc): it goes after what is typed."""
        if event.is_printable and event.character:
            event.stop()
            self.query_one(Input).insert_text_at_cursor(event.character)

    def on_mount(self) -> None:
        if self._first_query:
            typed = self.query_one(Input)
            typed.value = self._first_query
            typed.cursor_position = len(self._first_query)
        if self._watched is not None:
            self._seen = self._watched()
            if self._seen is not None:  # None: nothing will change (a filled index)
                self._watching = self.set_interval(WATCH_STEP, self._look_again)

    def _look_again(self) -> None:
        """List again, nothing typed, when the watched value changed; stop once it is
        None."""
        assert self._watched is not None  # the timer runs only with one
        value = self._watched()
        if value == self._seen:
            return
        self._seen = value
        if value is None and self._watching is not None:
            self._watching.stop()
        typed = self.query_one(Input)
        if not typed.value:
            typed.post_message(Input.Changed(typed, ""))

    @on(Input.Submitted)
    def _open_best(self, event: Input.Submitted) -> None:
        options = self.query_one(CommandList)
        if options.highlighted not in (None, 0):
            return  # moved to with the arrows: the palette opens it
        event.prevent_default()
        event.stop()
        self._stop_waiting()
        deadline = time.monotonic() + ENTER_WAIT
        enter = self._enter = object()

        def when_searched() -> None:
            if self._enter is not enter:
                return  # a late tick of a stopped wait
            if self._searching() and time.monotonic() < deadline:
                return
            self._stop_waiting()
            if options.option_count:
                options.highlighted = 0
                options.action_select()

        when_searched()
        if self._searching():
            self._pending = self.set_interval(ENTER_WAIT_STEP, when_searched)

    @on(Input.Changed)
    def _typed_on(self) -> None:
        self._stop_waiting()  # an enter before more keys: the keys win

    def _searching(self) -> bool:
        """Whether a search of this palette is still gathering hits."""
        return any(
            worker.node is self and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
            for worker in self.app.workers
        )

    def _stop_waiting(self) -> None:
        self._enter = None
        if self._pending is not None:
            self._pending.stop()
            self._pending = None
