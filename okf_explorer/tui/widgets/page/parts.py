"""The next parts of a long page (`m`): `PartGrower` appends them to the page pane's body.

A huge body shows its first `RENDER_CHARS`; each `m` prepares the next part in a
thread and appends it (to the engine's `VaultBody`, or under `OKF_EXPLORER_PLAIN=1`
to the `Markdown` widget). Presses made while a part is drawn are counted, not dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

from textual.css.query import NoMatches
from textual.dom import DOMNode

from okf_explorer.core.pages import Page
from okf_explorer.tui.markdown import PreparedBody, VaultBody, VaultMarkdown


class GrowingPane(Protocol):
    """What `PartGrower` needs of the page pane."""

    page: Page | None
    end: int

    @property
    def truncated(self) -> bool: ...
    @property
    def is_attached(self) -> bool: ...
    def run_worker(
        self, work: Callable[[], Awaitable[None]], *, group: str, exit_on_error: bool
    ) -> object: ...
    def query_one(self, selector: str, expect_type: type[DOMNode]) -> DOMNode: ...
    def _prepare(
        self, page: Page, start: int, limit: int, room: int | None = None
    ) -> PreparedBody: ...
    def _shown_part(self, body: PreparedBody, final: bool = True) -> None: ...
    async def show_more(self, limit: int | None = None) -> bool: ...


class PartGrower:
    """Draws the next parts of the page `pane` shows, one at a time."""

    def __init__(self, pane: GrowingPane) -> None:
        self.pane = pane
        self.wanted = 0
        """`m` presses not yet drawn (each draws the next part of a long page)."""
        self._growing = False

    def want(self) -> None:
        """`m`: draw the next part, after those asked for before.

        The worker runs on the pane, which tells the screen when it ends: the screen
        reports a failure and refreshes the footer (`m` greys out on the last part).
        """
        self.wanted += 1
        if self.wanted == 1:
            self.pane.run_worker(self._grow, group="grow", exit_on_error=False)

    async def _grow(self) -> None:
        try:
            while self.wanted > 0 and await self.pane.show_more():
                self.wanted -= 1
        finally:
            self.wanted = 0

    async def show_more(self, limit: int) -> bool:
        """Append the next `limit` characters of a truncated body, after any part still
        being drawn; False if there is none."""
        pane = self.pane
        page = pane.page
        while self._growing and pane.page is page:
            await asyncio.sleep(0.01)
        if not pane.truncated or page is None or pane.page is not page:
            return False
        self._growing = True
        try:
            body = await asyncio.to_thread(pane._prepare, page, pane.end, limit)
            if pane.page is not page or not pane.is_attached:  # another page, or closing
                return False
            try:
                if body.pieces is not None:
                    await pane.query_one("#page-body", VaultBody).append(body.pieces)
                else:  # fast paths off: the Markdown widget shows every part
                    await pane.query_one("#page-markdown", VaultMarkdown).append(body.markdown)
            except NoMatches:  # the pane was taken down meanwhile: the app is closing
                return False
            pane._shown_part(body)
        finally:
            self._growing = False
        return True
