"""The trail (`T`) and saving a trail or a slice as a page (`S`), for `MainScreen`.

`T` lists the pages visited (`TrailDialog`): `enter` opens one, `x` exports the
trail as JSON (`core.graph.trail`: `{"generated", "edges"}`) like `e` exports a slice
(atomically, never into the bundle; downloaded by the browser under `web`),
`S` previews it as a page. `S` on the explorer previews the slice on screen.
The preview (`SavePreview`) shows the exact page text and checks the name by the
writer's rules; confirming saves it in a worker through the brain's `PageWriter`
(`sources.factory`), and a notification says the outcome (`refused: NAME · page
exists; ...` for a page the save did not write, `unavailable: ... pending, request
ID` for a gbrain write not committed yet). A save that fails is a notification,
never a broken screen; a saved page is picked up by refreshing the index.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import Callable
from datetime import date
from functools import partial
from pathlib import Path

from textual.screen import Screen

from okf_explorer import __version__
from okf_explorer.core.atomic import atomic_write
from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError
from okf_explorer.core.export.saved_page import (
    SavedGraph,
    compose_page,
    earlier_at,
    idempotency_key,
    slice_graph,
    trail_graph,
)
from okf_explorer.core.graph.trail import TrailStep, generator, iso_now, trail_edges, trail_json
from okf_explorer.core.port import SaveResult
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.dialogs.export import ask_export_folder, inside
from okf_explorer.tui.dialogs.trail import TrailChoice, TrailDialog
from okf_explorer.tui.state.index_loader import IndexLoader
from okf_explorer.tui.state.navigator import Navigator
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def name_part(slug: str) -> str:
    """A slug as one safe name segment: `tables/orders` → `tables-orders`."""
    return _UNSAFE.sub("-", slug.replace("/", "-")).strip(".-")[:80] or "page"


class TrailControl:
    """`T` and `S`: show, export and save the trail; save the slice on screen."""

    def __init__(
        self,
        screen: Screen[None],
        brain: Brain,
        nav: Navigator,
        loader: IndexLoader,
        export_dir: Path,
    ) -> None:
        self.screen, self.brain, self.nav, self.loader = screen, brain, nav, loader
        self.export_dir = export_dir
        self.last_trail_export: Path | None = None
        self.last_save: SaveResult | None = None

    def steps(self) -> list[TrailStep]:
        """The trail's steps, each visit resolved as a link once the index is there."""
        return self.nav.trail.steps(self.brain.link_between if self.loader.ready else None)

    def show(self) -> None:
        """`T`: the trail in a dialog."""
        self.screen.app.push_screen(TrailDialog(self.steps()), self._chosen)

    def _chosen(self, choice: TrailChoice | None) -> None:
        if choice is None:
            return
        what, slug = choice
        if what == "open":
            self.nav.go(self.nav.open(slug), "visit", how="jump")
        elif what == "export":
            self.export_trail()
        else:
            self.save_trail()

    # -- export ------------------------------------------------------------------------

    def export_trail(self, folder: Path | None = None) -> None:
        """Write the trail's JSON into the export folder (asked for when that is the bundle)."""
        steps = self.steps()
        text = trail_json(trail_edges(steps), by=generator(__version__), at=iso_now())
        name = f"okf-trail-{name_part(steps[0].to)}-{len(steps)}.json"
        app = self.screen.app
        if app.is_web:  # the browser downloads it: nothing lands on the server
            app.deliver_text(io.StringIO(text), save_filename=name, mime_type="application/json")
            return
        folder = folder or self.export_dir
        root = self.brain.local_root
        if root is not None and inside(folder, root):
            ask_export_folder(self.screen, folder, root, self._export_in)
            return
        self.screen.run_worker(
            partial(self._write_export, folder / name, text), group="export", exit_on_error=False
        )

    def _export_in(self, folder: Path) -> None:
        self.export_dir = folder
        self.export_trail(folder)

    async def _write_export(self, path: Path, text: str) -> None:
        data = text.encode("utf-8")

        def verify(written: Path) -> None:
            read_back = written.read_bytes()
            if read_back != data or not isinstance(json.loads(read_back), dict):
                raise OSError(f"{path} differs when read back")

        try:
            await asyncio.to_thread(atomic_write, path, data, verify=verify)
        except OSError as error:
            reason = (error.strerror or str(error)).lower()
            self.screen.notify(f"cannot write {path}: {reason}", title="trail", severity="error")
            return
        self.last_trail_export = path
        self.screen.notify(f"saved {path}", title="trail export", markup=False)

    # -- save as a page ----------------------------------------------------------------

    def save_trail(self) -> None:
        steps = self.steps()
        graph = trail_graph([step.to for step in steps], trail_edges(steps))
        default = f"trails/{name_part(steps[0].to)}-{date.today().isoformat()}"
        self._preview("trail", graph, default)

    def save_slice(self) -> None:
        """`S`: preview the slice on screen as a page."""
        panel = self.screen.query_one(TraversalPanel)
        view = self.nav.current
        if view is None or panel.view != view or not panel.loaded:
            self.screen.notify("the slice is not shown yet", title="save", timeout=3)
            return
        graph = slice_graph([view.slug], panel.edges, view.depth, view.direction, view.rels)
        default = f"slices/{name_part(view.slug)}-d{view.depth}-{view.direction}"
        self._preview("slice", graph, default)

    def _preview(self, what: str, graph: SavedGraph, default: str) -> None:
        from okf_explorer.sources.factory import check_target
        from okf_explorer.tui.dialogs.save import SavePreview

        index = self.brain.index
        titles = None if index is None else {s: info.title for s, info in index.pages.items()}
        exists = None if index is None else index.pages.__contains__
        compose = partial(
            compose_page, graph, by=generator(__version__), titles=titles, exists=exists
        )
        key = idempotency_key(graph)
        text = compose(at=iso_now())
        check = partial(check_target, self.brain.source)
        dialog = SavePreview(what, text, default, self.brain.label, check)
        self.screen.app.push_screen(dialog, partial(self._confirmed, compose, text, key))

    def _confirmed(
        self, compose: Callable[..., str], text: str, key: str, slug: str | None
    ) -> None:
        if slug is None:
            self.screen.notify("not saved", title="save", timeout=2)
            return
        save = partial(self._save, slug, compose, text, key)
        self.screen.run_worker(save, group="save", exit_on_error=False)

    async def _save(self, slug: str, compose: Callable[..., str], text: str, key: str) -> None:
        """Write through the brain's writer in a thread; say the outcome, never raise.
        This very slice saved there before keeps its `generated.at`, so its bytes."""

        def write() -> SaveResult:
            from okf_explorer.sources.factory import writer_for

            writer = writer_for(self.brain.source)
            try:
                earlier = earlier_at(self.brain.source.get_page(slug).frontmatter, key)
            except OkfError:
                earlier = None
            page = compose(at=earlier) if earlier else text
            return writer.write_page(slug, page, idempotency_key=key)

        try:
            result = await asyncio.to_thread(write)
        except Exception as error:  # a writer is new code on a live screen: tell, go on
            detail = " ".join(str(error).split()) or type(error).__name__
            self.screen.notify(detail, title="not saved", severity="error", markup=False)
            return
        self.last_save = result
        shown = f"{result.outcome}: {printable(result.slug)}"
        if result.outcome.saved:
            self.screen.notify(f"{shown} · {printable(result.where)}", title="saved", markup=False)
            self.loader.refresh_soon()
        else:
            text = f"{shown} · {printable(result.detail)}"
            self.screen.notify(text, title="not saved", severity="error", markup=False)
