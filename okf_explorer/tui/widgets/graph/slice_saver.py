"""Saving a slice of the traversal panel (`e`): to a file, or as a browser download.

A `SliceSaver` belongs to one widget (the panel): it asks for a folder when the
export folder lies inside the brain, writes in a worker on the screen (whose one
handler reports failures), and under `okf-explorer web` offers the file instead.
"""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path

from textual.widget import Widget

from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.tui.dialogs.export import ask_export_folder, inside
from okf_explorer.tui.state.history import View


class SliceSaver:
    """Saves slices for `owner` into `export_dir` (kept once the user picks another)."""

    def __init__(self, owner: Widget, brain: Brain, export_dir: Path) -> None:
        self.owner, self.brain, self.export_dir = owner, brain, export_dir
        self.last_export: Path | None = None
        self.last_download: str | None = None
        """Under `okf-explorer web`: the name of the last export offered as a download."""

    def save(self, view: View, edges: list[Edge]) -> None:
        root = self.brain.local_root
        if root is not None and inside(self.export_dir, root):
            ask_export_folder(
                self.owner, self.export_dir, root, partial(self._save_in, view, edges)
            )
            return
        write = partial(self._write, view, list(edges))
        self.owner.screen.run_worker(write, group="export", exclusive=True, exit_on_error=False)

    def _save_in(self, view: View, edges: list[Edge], folder: Path) -> None:
        self.export_dir = folder  # kept: a later `e` saves there without asking
        self.save(view, edges)

    async def _write(self, view: View, edges: list[Edge]) -> None:
        from okf_explorer.tui.state.slice_export import (
            export_slice,  # not needed for the first paint
        )

        if self.owner.app.is_web:  # the browser downloads it: nothing lands on the server
            await self._offer_download(view, edges)
            return
        root = self.brain.local_root
        path = await asyncio.to_thread(export_slice, edges, view, self.export_dir, root)
        self.last_export = path
        self.owner.notify(f"saved {path}", title="export", markup=False)

    async def _offer_download(self, view: View, edges: list[Edge]) -> None:
        from okf_explorer.tui.state.slice_export import slice_file

        name, data = await asyncio.to_thread(slice_file, edges, view)
        app = self.owner.app
        app.deliver_binary(data, save_filename=name, mime_type="application/json")
        self.last_download = name
        self.owner.notify(f"download {name}", title="export", markup=False)
