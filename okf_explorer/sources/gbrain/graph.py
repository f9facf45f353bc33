"""A gbrain-compatible server's stored link graph, from whichever graph tools it lists.

- `get_links` / `get_backlinks` answer one page each (the full tool list: gbrain's
  default `full` surface, our own `serve`).
- gbrain's reduced `starter` surface lists `get_backlinks` and `traverse_graph` but
  no `get_links`: outgoing links then come from `traverse_graph` at depth 1 with
  `direction: "out"` (and incoming ones the same way with `"in"` when
  `get_backlinks` is missing too). A server with neither way for a side has no
  usable graph (`graph_for` gives None: the engine scans bodies instead).
- `traverse_graph` has two reply shapes (GBRAIN_PROTOCOL.md §4): the *node* form
  (`{slug, depth, links: [{to_slug, link_type}]}`, without `direction` and
  `link_type` arguments) and the *edge* form (`{from_slug, to_slug, link_type,
  context, depth}`, rows possibly carrying a `direction`). From gbrain 0.48.1 a
  remote caller that gives neither argument gets edges of both directions, so
  we always pass `direction` and read any shape that comes back: the edges that
  leave (or reach) the page, one hop away, whatever else the reply holds.

Each answer is a `ServerLink` carrying the row's `link_type` as its relation
(gbrain's generic `mentions` and its `wikilink_basename`, or none, are `links`;
any other type passes through), and its `link_source` and `context` when the row has them. Like
gbrain's own graph, answers hold existing targets only and one row per (from, to,
relation); we keep the server's row order and drop repeats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal

from okf_explorer.core.errors import ProtocolError
from okf_explorer.core.port import ServerLink

Side = Literal["out", "in"]
CallTool = Callable[[str, dict[str, Any]], Any]

LINK_TOOL: dict[Side, str] = {"out": "get_links", "in": "get_backlinks"}
TRAVERSE = "traverse_graph"


PLAIN_TYPES = frozenset({"mentions", "wikilink_basename"})
"""gbrain's link types that state no relation: its generic `mentions`, and
`wikilink_basename` (a body `[[name]]` it resolved by file name)."""


def relation_of_type(link_type: object) -> str:
    """Our relation for a server's `link_type`: a type in `PLAIN_TYPES` (or no type) is a
    plain link, `links`; any other type passes through."""
    if not isinstance(link_type, str) or not link_type.strip() or link_type in PLAIN_TYPES:
        return "links"
    return link_type


def graph_for(call_tool: CallTool, label: str, tools: frozenset[str]) -> McpServerGraph | None:
    """The graph the server's `tools` allow, or None when a side has no tool."""
    ways: dict[Side, str] = {}
    for side in ("out", "in"):
        if LINK_TOOL[side] in tools:
            ways[side] = LINK_TOOL[side]
        elif TRAVERSE in tools:
            ways[side] = TRAVERSE
        else:
            return None
    return McpServerGraph(call_tool, label, ways)


class McpServerGraph:
    """The server's stored link graph (see the module docstring)."""

    def __init__(self, call_tool: CallTool, label: str, ways: dict[Side, str]) -> None:
        self._call = call_tool
        self._label = label
        self.ways = dict(ways)
        """Which tool answers each side (`get_links`, `get_backlinks`, `traverse_graph`)."""

    @property
    def reduced(self) -> bool:
        """True when a side is answered by `traverse_graph` (a reduced tool list)."""
        return TRAVERSE in self.ways.values()

    def links_out(self, slug: str) -> list[str]:
        return self._answer("out", slug)

    def links_in(self, slug: str) -> list[str]:
        return self._answer("in", slug)

    def _answer(self, side: Side, slug: str) -> list[str]:
        tool = self.ways[side]
        if tool == TRAVERSE:
            arguments: dict[str, Any] = {"slug": slug, "depth": 1, "direction": side}
        else:
            arguments = {"slug": slug}
        rows = self._call(tool, arguments)
        if not isinstance(rows, list):
            raise ProtocolError(f"{self._label} answered {tool} with something unexpected")
        found = link_rows(rows, slug, side) if tool == TRAVERSE else _plain_rows(rows, side)
        links: dict[tuple[str, str], ServerLink] = {}
        for link in found:
            links.setdefault((str(link), link.rel), link)
        return list(links.values())


def _plain_rows(rows: Iterable[Any], side: Side) -> Iterable[ServerLink]:
    """`get_links` / `get_backlinks` rows: the page at the other end of each."""
    key = "to_slug" if side == "out" else "from_slug"
    for row in rows:
        if isinstance(row, dict) and (link := _link(row, row.get(key))) is not None:
            yield link


def link_rows(rows: Iterable[Any], slug: str, side: Side) -> list[ServerLink]:
    """The one-hop neighbours of `slug` on `side` in a `traverse_graph` reply of any
    shape: node rows (the start node's `links`, outgoing only) or edge rows (those
    leaving `slug` for `out`, reaching it for `in`; a row's own `direction`, when it
    has one, must agree; rows deeper than one hop are skipped)."""
    found: list[ServerLink] = []
    for row in rows:
        if not isinstance(row, dict):
            continue
        if isinstance(row.get("links"), list):  # node form
            if side == "out" and row.get("slug") == slug and row.get("depth", 0) in (0, None):
                found.extend(
                    link
                    for item in row["links"]
                    if isinstance(item, dict)
                    if (link := _link(item, item.get("to_slug"))) is not None
                )
            continue
        if row.get("depth", 1) not in (1, None):
            continue
        direction = row.get("direction")
        if isinstance(direction, str) and direction in ("in", "out") and direction != side:
            continue
        near, far = ("from_slug", "to_slug") if side == "out" else ("to_slug", "from_slug")
        if row.get(near) == slug and (link := _link(row, row.get(far))) is not None:
            found.append(link)
    return found


def _link(row: dict[str, Any], other: object) -> ServerLink | None:
    if not isinstance(other, str) or not other:
        return None
    return ServerLink(
        other,
        relation_of_type(row.get("link_type")),
        _text(row.get("link_source")),
        _text(row.get("context")),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
