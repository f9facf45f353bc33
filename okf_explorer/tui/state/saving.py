"""What `T` and `S` save, without the screen: the trail as JSON, a slice or a trail as
a page of the brain.

The trail exports as `core.graph.trail` JSON (`{"generated", "edges"}`), written
atomically and read back before it counts, like `e` exports a slice. A page to
save is planned first (`SavePlan`: a `core.save` draft and the name offered), its name
checked by the brain's writer (`sources.writers.check_target`); the screen previews
it, and only a confirmed name is written, by `core.save.save_draft` (the CLI's
`save` calls the same). This very slice saved there before keeps its
`generated.at`, so its bytes. Everything
here that touches disk or the source blocks: the screen runs it in a worker.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from textual.notifications import SeverityLevel

from okf_explorer import __version__
from okf_explorer.core.atomic import atomic_write
from okf_explorer.core.brain import Brain
from okf_explorer.core.export.saved_page import SavedGraph, slice_graph, trail_graph
from okf_explorer.core.graph.trail import TrailStep, generator, iso_now, trail_edges, trail_json
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.port import SaveResult
from okf_explorer.core.save import PageDraft, draft_page, save_draft
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.state.navigator import View

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
