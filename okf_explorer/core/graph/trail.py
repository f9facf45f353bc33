"""A trail: the pages a person visited, in order, with the move that led to each.

The explorer records each move as a `TrailMove` (from, to, how); reading the
trail resolves each into a `TrailStep`: the relation followed (`rel`), which
way the link points (`direction`: `out` when `frm` links to `to`, `in` when
`to` links to `frm`), and `how`: `link` (a link of the page, a row of the
slice or of the link tree), `back` / `forward` (history moves: they are moves
too, and say so), `finder` (the page finder, a search hit), `jump` (a page
reached without a link between the two). A step without a link has `rel`
equal to its `how`, so the edge records still tell the moves apart.

The export (`trail_document`) is an object, not SPEC §5's bare list of edge
records: `{"generated": {"by", "at"}, "edges": [records…]}`. The slice export
format stays exactly as it is; a trail file carries its provenance beside the
records, which are SPEC §5 records in visit order, `hop` = step number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from okf_explorer.core.graph.traverse import LINKS, Edge, edge_records
from okf_explorer.core.text_safety import json_text

if TYPE_CHECKING:
    from okf_explorer.core.index.model import ResolvedLink

How = Literal["start", "visit", "link", "back", "forward", "finder", "jump"]
TRAIL_CAP = 500
"""At most this many moves are kept; the oldest go first."""

LinkBetween = Callable[[str, str], "ResolvedLink | None"]
"""`link_between(frm, to)`: the resolved link on page `frm` leading to `to`, if any."""


@dataclass(frozen=True, slots=True)
class TrailMove:
    """One move as the explorer saw it: `frm` (None for the first page) → `to`, `how`.

    `visit` is a page opened from the current one by any means that may have been a
    link (a body link, a row, the link tree); whether it was is asked when the trail
    is read (`resolve_steps`), once the index can say.
    """

    frm: str | None
    to: str
    how: How = "visit"


@dataclass(frozen=True, slots=True)
class TrailStep:
    """One move resolved: `frm` → `to` with the relation followed (`rel`)."""

    frm: str | None
    to: str
    rel: str
    direction: Literal["out", "in"] = "out"
    how: How = "link"


@dataclass(slots=True)
class Trail:
    """The moves of one session, oldest first, capped at `TRAIL_CAP`."""

    moves: list[TrailMove] = field(default_factory=list)

    def record(self, move: TrailMove) -> None:
        """Add a move; a move to the page already last on the trail is not one."""
        if self.moves and self.moves[-1].to == move.to:
            return
        self.moves.append(move)
        del self.moves[:-TRAIL_CAP]

    def drop_stand_in(self) -> None:
        """Forget the last move when it is the session's start: a page shown while the
        start was not yet known, which nobody chose (the start chosen next replaces it)."""
        if self.moves and self.moves[-1].how == "start":
            self.moves.pop()

    @property
    def pages(self) -> list[str]:
        """The pages in visit order (a page seen twice appears twice)."""
        return [move.to for move in self.moves]

    def steps(self, link_between: LinkBetween | None) -> list[TrailStep]:
        return resolve_steps(self.moves, link_between)


def resolve_steps(moves: Iterable[TrailMove], link_between: LinkBetween | None) -> list[TrailStep]:
    """Each move with the link it followed: a `visit` between two linked pages is a
    `link` (`out` when `frm` links to `to`, else `in`), other visits are `jump`s;
    `back`, `forward`, `finder` and `start` keep their name as their `rel`.
    Without `link_between` (no index yet) every visit is a `jump`."""
    steps: list[TrailStep] = []
    for move in moves:
        if move.frm is None or move.how != "visit" or link_between is None:
            how: How = "jump" if move.how == "visit" else move.how
            steps.append(TrailStep(move.frm, move.to, how, "out", how))
        elif (link := link_between(move.frm, move.to)) is not None:
            steps.append(TrailStep(move.frm, move.to, link.rel or LINKS, "out", "link"))
        elif (link := link_between(move.to, move.frm)) is not None:
            steps.append(TrailStep(move.frm, move.to, link.rel or LINKS, "in", "link"))
        else:
            steps.append(TrailStep(move.frm, move.to, "jump", "out", "jump"))
    return steps


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
