"""What `e`, `T` and `S` write, without the screen: the slice as an export, the trail as
JSON, a slice or a trail as a page of the brain.

The slice exports as OKF edge JSON (`core.export.formats`), rendered a record at a
time and written atomically, or handed to the browser as a download under `web`.
The trail exports as `core.graph.trail` JSON (`{"generated", "edges"}`), written
atomically and read back before it counts. A page to save is planned first
(`SavePlan`: a `core.save` draft and the name offered), its name checked by the
brain's writer (`sources.writers.check_target`); the screen previews it, and only a
confirmed name is written, by `core.save.save_draft` (the CLI's `save` calls the
same). This very slice saved there before keeps its `generated.at`, so its bytes.
Everything here that touches disk or the source blocks: the screen runs it in a
worker.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import IO

from textual.notifications import SeverityLevel

from okf_explorer import __version__
from okf_explorer.core.atomic import atomic_write
from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.trail import TrailStep, generator, iso_now, trail_edges, trail_json
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.port import SaveResult
from okf_explorer.core.save import (
    PageDraft,
    SavedGraph,
    draft_page,
    save_draft,
    slice_graph,
    trail_graph,
)
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.state.navigator import View

# ------------------------------------------------------------------ the slice (`e`)
# The exporters load on the first `e`: they are not needed for the first paint.


def export_slice(
    edges: Sequence[Edge], view: View, directory: Path, forbidden_root: Path | None = None
) -> Path:
    """Write the slice as JSON into `directory` under the default export name.

    The name depends only on root, depth and direction, so exporting the same
    slice twice rewrites the same file with the same bytes. `forbidden_root`
    (the bundle folder) keeps the explorer from writing into the brain itself.
    Raises `ExportFailed`.
    """
    from okf_explorer.core.export.formats import default_export_name, render_pieces, write_export

    name = default_export_name(view.slug, view.depth, view.direction, "json")
    pieces = render_pieces(
        edges, "json", root=view.slug, depth=view.depth, direction=view.direction
    )
    return write_export(directory / name, pieces, forbidden_root=forbidden_root)


SPOOL_BYTES = 8 * 1024 * 1024
"""A download held in memory up to this size; a larger one in an unnamed temporary file."""


def slice_file(edges: Sequence[Edge], view: View) -> tuple[str, IO[bytes]]:
    """The export of the slice as (file name, its bytes in a file at offset 0): what
    the browser downloads under `okf-explorer web` (the same bytes `export_slice`
    writes). Rendered a record at a time, and spilled to an unnamed temporary file
    past `SPOOL_BYTES`, so a huge slice is never held whole; closing the file (the
    download does, when it ends) frees it."""
    from okf_explorer.core.export.formats import default_export_name, render_pieces, text_blocks

    pieces = render_pieces(
        edges, "json", root=view.slug, depth=view.depth, direction=view.direction
    )
    data: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115
    for block in text_blocks(pieces):
        data.write(block.encode("utf-8"))
    data.seek(0)
    return default_export_name(view.slug, view.depth, view.direction, "json"), data


# ------------------------------------------------------------------ the trail and pages

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def name_part(slug: str) -> str:
    """A slug as one safe name segment: `tables/orders` → `tables-orders`."""
    return _UNSAFE.sub("-", slug.replace("/", "-")).strip(".-")[:80] or "page"


@dataclass(frozen=True, slots=True)
class SavePlan:
    """A page about to be saved: what it holds (`slice` or `trail`), its draft (the
    text the preview shows, its idempotency key), and the name offered."""

    what: str
    draft: PageDraft
    default: str

    @property
    def text(self) -> str:
        return self.draft.text

    @property
    def key(self) -> str:
        return self.draft.key


class Saver:
    """Trail exports and pages saved from one explorer; remembers the last of each."""

    def __init__(self, brain: Brain, export_dir: Path) -> None:
        self.brain = brain
        self.export_dir = export_dir
        """Where the trail is exported (kept once the user picks another folder)."""
        self.last_trail_export: Path | None = None
        self.last_save: SaveResult | None = None

    # -- the trail as JSON -------------------------------------------------------------

    @staticmethod
    def trail_export(steps: Sequence[TrailStep]) -> tuple[str, str]:
        """(file name, JSON text) of the trail's export."""
        text = trail_json(trail_edges(steps), by=generator(__version__), at=iso_now())
        return f"okf-trail-{name_part(steps[0].to)}-{len(steps)}.json", text

    def write_trail(self, path: Path, text: str) -> None:
        """Write the export atomically, read back and parsed before it replaces `path`.
        Raises `OSError`. Blocking."""
        data = text.encode("utf-8")

        def verify(written: Path) -> None:
            read_back = written.read_bytes()
            if read_back != data or not isinstance(json.loads(read_back), dict):
                raise OSError(f"{path} differs when read back")

        atomic_write(path, data, verify=verify)
        self.last_trail_export = path

    # -- a page of the brain -----------------------------------------------------------

    def slice_plan(self, view: View, edges: Sequence[Edge]) -> SavePlan:
        graph = slice_graph([view.slug], list(edges), view.depth, view.direction, view.rels)
        default = f"slices/{name_part(view.slug)}-d{view.depth}-{view.direction}"
        return self._plan("slice", graph, default)

    def trail_plan(self, steps: Sequence[TrailStep]) -> SavePlan:
        graph = trail_graph([step.to for step in steps], trail_edges(steps))
        default = f"trails/{name_part(steps[0].to)}-{date.today().isoformat()}"
        return self._plan("trail", graph, default)

    def _plan(self, what: str, graph: SavedGraph, default: str) -> SavePlan:
        """The page as it would be written now (no request: titles come from the index)."""
        return SavePlan(what, draft_page(self.brain, graph), default)

    def check(self, slug: str) -> str:
        """The name the brain's writer would save as, or `ValueError` saying why not."""
        from okf_explorer.sources.factory import check_target

        return check_target(self.brain.source, slug)

    def save(self, plan: SavePlan, slug: str) -> SaveResult:
        """Write `plan` as page `slug` through the brain's writer (`core.save`, as the
        CLI's `save` does). Blocking."""
        from okf_explorer.sources.factory import writer_for

        result = save_draft(self.brain, plan.draft, slug, writer_for(self.brain.source))
        self.last_save = result
        return result


def save_notice(result: SaveResult) -> tuple[str, str, SeverityLevel]:
    """(title, text, severity) of the notification that says how a save went:
    `written: NAME · where`, or `refused: NAME · page exists; …`."""
    shown = f"{result.outcome}: {printable(result.slug)}"
    if result.outcome.saved:
        return "saved", f"{shown} · {printable(result.where)}", "information"
    return "not saved", f"{shown} · {printable(result.detail)}", "error"
