"""Filling `![[page]]` embeds of the page pane: each embed looks its page up in a
worker, and embeds that asked before the index was built ask again once it is."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.widget import Widget

from okf_explorer.core.brain import Brain
from okf_explorer.core.pages import Page
from okf_explorer.tui.markdown import WAITING_FOR_INDEX, EmbedView, embedded_text


class EmbedFiller:
    """Fills the embeds of the page `current()` shown by `pane`."""

    def __init__(self, pane: Widget, brain: Brain, current: Callable[[], Page | None]) -> None:
        self._pane, self._brain, self._current = pane, brain, current
        self._asked: list[EmbedView] = []
        """The embeds filled (or being filled) for the page shown."""

    def again(self) -> None:
        """The index is built: embeds that waited for it look their page up again."""
        for block in list(self._asked):
            attached = isinstance(block, Widget) and block.is_attached
            if attached and block.text is None and block.note == WAITING_FOR_INDEX:
                self.fill(block)

    def fill(self, block: EmbedView) -> None:
        """Look `block`'s page (or section) up off the loop and show it in the block."""
        page = self._current()
        self._asked = [asked for asked in self._asked if _attached(asked)]
        if block not in self._asked:
            self._asked.append(block)
        if block.target is None or page is None:
            block.fill(None, "✗ nothing to embed")
            return

        async def fill() -> None:
            text, note = await asyncio.to_thread(
                embedded_text, self._brain, page.slug, block.target or "", block.anchor
            )
            if self._current() is page and _attached(block):
                block.fill(text, note)

        self._pane.run_worker(fill, group="embeds", exit_on_error=False)


def _attached(block: EmbedView) -> bool:
    return isinstance(block, Widget) and block.is_attached
