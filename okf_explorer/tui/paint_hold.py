"""One paint for a page opened: the screen's repaints held from the key until the new
page's body and its links are shown, `PAINT_HOLD` seconds at most.

Opening a page changes every pane a few milliseconds apart: the header and the pending
slice at once, then (from threads and workers) the slice, the body and the link tree.
Painted as they came, the screen was laid out and drawn two or three times, the first
time with the new page's header over the old page's body (on the sample brain at
150x45: a first paint of about 23 ms, then the full one of 40-50 ms). Held, it is laid
out and drawn once, when the body is there.

The page pane holds until its body is shown, the link tree until its links and their
suggestions are (`LinkTree.load`): Textual paints when no hold is left. Before the link
tree held, its links often came a frame after the body, and the new body was painted
beside the old page's links first. Holding both does not make a key faster end to end
(`enter` and `backspace` on the sample brain: the same medians, 87-100 ms, old and new
code alternating); it paints the page once, whole.

Textual holds the repaints (`App.batch_update`, its public API); callbacks waiting for a
refresh still run meanwhile. A page slower than `PAINT_HOLD` (a server far away) shows
what has come by then, and its spinner after that, as before.
"""

from __future__ import annotations

from contextlib import ExitStack

from textual.timer import Timer
from textual.widget import Widget

PAINT_HOLD = 0.1
"""Seconds the repaints may be held for one page: beyond, a person sees a pause."""


class PaintHold:
    """Repaints held while `widget` opens a page (`hold`), until `release` or
    `PAINT_HOLD` seconds, whichever comes first."""

    def __init__(self, widget: Widget) -> None:
        self._widget = widget
        self._held: ExitStack | None = None
        self._timer: Timer | None = None

    def hold(self) -> None:
        """Hold the repaints (already held: the first hold's time still counts)."""
        if self._held is not None or PAINT_HOLD <= 0:
            return
        held = ExitStack()
        held.enter_context(self._widget.app.batch_update())
        self._held = held
        self._timer = self._widget.set_timer(PAINT_HOLD, self.release)

    def release(self) -> None:
        """Paint what has changed (nothing held: nothing to do)."""
        held, self._held = self._held, None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if held is not None:
            held.close()
