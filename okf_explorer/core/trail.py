"""A trail: the pages a person visited, in order, with the move that led to each.

Every move is a `TrailStep`: from page, to page, the relation followed (`rel`),
which way the link points (`direction`: `out` when `frm` links to `to`, `in`
when `to` links to `frm`), and `how` the move was made: `link` (a link of the
page or a row of the slice), `back` / `forward` (history moves: they are moves
too, and say so), `finder` (the page finder), `jump` (anything else: a page
reached without a link between the two). A step without a link has `rel`
equal to its `how`, so the edge records still tell the moves apart.

The export (`trail_document`) is an object, not SPEC §5's bare list of edge
records: `{"generated": {"by", "at"}, "edges": [records…]}`. The slice export
format stays exactly as it is; a trail file carries its provenance beside the
records, which are SPEC §5 records in visit order, `hop` = step number.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from okf_explorer.core.export import edge_records
from okf_explorer.core.graph import Edge
from okf_explorer.core.text_safety import json_text

Move = Literal["link", "back", "forward", "finder", "jump", "start"]
TRAIL_CAP = 500
"""At most this many steps are kept; the oldest go first."""


@dataclass(frozen=True, slots=True)
class TrailStep:
    """One move: `frm` → `to` (`frm` is None for the first page of the trail)."""

    frm: str | None
    to: str
    rel: str
    direction: Literal["out", "in"] = "out"
    how: Move = "link"


@dataclass(slots=True)
class Trail:
    """The moves of one session, oldest first, capped at `TRAIL_CAP`."""

    steps: list[TrailStep] = field(default_factory=list)

    def record(self, step: TrailStep) -> None:
        """Add a move; a move to the page already last on the trail is not one."""
        if self.steps and self.steps[-1].to == step.to:
            return
        self.steps.append(step)
        del self.steps[:-TRAIL_CAP]

    @property
    def pages(self) -> list[str]:
        """The pages in visit order (a page seen twice appears twice)."""
        return [step.to for step in self.steps]

    def edges(self) -> list[Edge]:
        """The moves between pages as edges, in visit order, `hop` = step number."""
        return trail_edges(self.steps)


def trail_edges(steps: Iterable[TrailStep]) -> list[Edge]:
    """Edges for each step with a `frm`, numbered 1, 2, … in order."""
    edges: list[Edge] = []
    for step in steps:
        if step.frm is not None:
            edges.append(Edge.typed(step.frm, step.to, len(edges) + 1, step.direction, step.rel))
    return edges


def iso_now() -> str:
    """Now, local time, ISO 8601 with its offset, to the second."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


def generator(version: str) -> str:
    """`okf-explorer/<version>`, the `generated.by` of what we write."""
    return f"okf-explorer/{version}"


def trail_document(edges: Sequence[Edge], *, by: str, at: str) -> dict[str, Any]:
    """The trail export: provenance and the SPEC §5 records, in visit order."""
    return {"generated": {"by": by, "at": at}, "edges": edge_records(edges)}


def trail_json(edges: Sequence[Edge], *, by: str, at: str) -> str:
    """`trail_document` as JSON text ending with a newline."""
    return json_text(trail_document(edges, by=by, at=at), indent=2) + "\n"
