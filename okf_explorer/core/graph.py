"""The graph engine (SPEC §4): depth clamping, breadth-first traversal and edges.

`traverse_with` is the pure BFS over two neighbour functions, so the same walk
runs over the local index or a server's stored graph.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

Direction = Literal["out", "in", "both"]
DIRECTIONS: tuple[Direction, ...] = ("out", "in", "both")
DEPTH_CAP = 10


class Edge(NamedTuple):
    """One edge of a traversal: `(frm, to, hop, direction)`.

    For `in` edges `frm` is the page walked from and `to` the page linking to it.
    """

    frm: str
    to: str
    hop: int
    direction: Literal["out", "in"]


def clamp_depth(value: object) -> int:
    """An int in [1, DEPTH_CAP]; anything that is not an int (bools included) → 1."""
    if isinstance(value, bool) or not isinstance(value, int):
        return 1
    return max(1, min(DEPTH_CAP, value))
