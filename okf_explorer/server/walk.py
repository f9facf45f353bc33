"""gbrain's `traverse_graph` semantics (GBRAIN_PROTOCOL §4), which differ from SPEC §4.

gbrain walks *simple paths* (a path never revisits a node) and reports one row
per distinct (slug, depth), so a slug reachable at several path lengths
repeats. Both reply forms follow from one set: the (node, depth) pairs
reachable from the root by a simple path of exactly that length.

- node form: a row per pair with depth ≤ D, listing every outgoing link;
- edge form: for each pair (x, d) with d < D, every edge of x at depth d + 1,
  including edges back into nodes already on the path (the root too).

Enumerating simple paths is exponential on dense graphs, so the exact walk has
a step budget; past it the walk falls back to levels of nodes reachable by any
walk that does not return to the root (a superset, cheap to compute). Rows
are ordered by depth, then slug(s), as gbrain's SQL does. With a `limit`, only
the first rows in that order are built (gbrain's `LIMIT` under its `ORDER BY`),
so a capped reply costs the rows it returns, not the whole walk.

A walk over a big, dense brain can take many seconds: given `cancel`, it asks it
every few hundred steps (and at every node of a level) and raises `Cancelled`
when it answers True (`serve` stopping).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from okf_explorer.core.errors import Cancelled
from okf_explorer.core.graph.traverse import DEPTH_CAP
from okf_explorer.core.port import CancelCheck, relation_of
from okf_explorer.server.shapes import gbrain_link_type

Neighbours = Callable[[str], Sequence[str]]
STEP_BUDGET = 200_000
CHECK_EVERY = 256
DEFAULT_DEPTH = 5


def gbrain_depth(value: int | None) -> int:
    """gbrain's clamp: unset or 0 → 5, negative → 1, above 10 → 10."""
    if value is None or value == 0:
        return DEFAULT_DEPTH
    return max(1, min(DEPTH_CAP, value))


class _OverBudget(Exception):
    pass


def _never() -> bool:
    return False


def _stop_if(cancel: CancelCheck) -> None:
    if cancel():
        raise Cancelled("the walk")


def reachable_pairs(
    root: str,
    depth: int,
    neighbours: Neighbours,
    budget: int = STEP_BUDGET,
    cancel: CancelCheck = _never,
) -> list[tuple[str, int]]:
    """(node, d) for every node reachable from `root` by a simple path of length d ≤ depth."""
    try:
        return _simple_path_pairs(root, depth, neighbours, budget, cancel)
    except _OverBudget:
        return _walk_pairs(root, depth, neighbours, cancel)


def _simple_path_pairs(
    root: str, depth: int, neighbours: Neighbours, budget: int, cancel: CancelCheck
) -> list[tuple[str, int]]:
    found: dict[tuple[str, int], None] = {(root, 0): None}
    path: list[str] = [root]
    on_path = {root}
    steps = 0
    stack: list[tuple[Sequence[str], int]] = [(neighbours(root), 0)]
    while stack:
        options, index = stack[-1]
        if index >= len(options) or len(path) > depth:
            stack.pop()
            on_path.discard(path.pop())
            continue
        stack[-1] = (options, index + 1)
        node = options[index]
        if node in on_path:
            continue
        steps += 1
        if steps > budget:
            raise _OverBudget
        if not steps % CHECK_EVERY:
            _stop_if(cancel)
        found[(node, len(path))] = None
        path.append(node)
        on_path.add(node)
        stack.append((neighbours(node) if len(path) <= depth else (), 0))
    return list(found)


def _walk_pairs(
    root: str, depth: int, neighbours: Neighbours, cancel: CancelCheck
) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = [(root, 0)]
    level = [root]
    for hop in range(1, depth + 1):
        reached: dict[str, None] = {}
        for node in level:
            _stop_if(cancel)
            reached.update(dict.fromkeys(neighbours(node)))
        reached.pop(root, None)
        following = list(reached)
        found.extend((node, hop) for node in following)
        level = following
        if not level:
            break
    return found


def node_rows(
    root: str,
    depth: int,
    out: Neighbours,
    describe: Callable[[str], tuple[str, str | None]],
    limit: int | None = None,
    cancel: CancelCheck = _never,
) -> list[dict[str, Any]]:
    """Node form: `{slug, title, type, depth, links: [{to_slug, link_type}]}`;
    the first `limit` rows when given."""
    pairs = reachable_pairs(root, depth, out, cancel=cancel)
    pairs.sort(key=lambda pair: (pair[1], pair[0]))
    rows = []
    for slug, hop in pairs[:limit]:
        _stop_if(cancel)
        title, kind = describe(slug)
        links = [
            {"to_slug": str(to), "link_type": gbrain_link_type(relation_of(to))} for to in out(slug)
        ]
        rows.append({"slug": slug, "title": title, "type": kind, "depth": hop, "links": links})
    return rows


def edge_rows(
    root: str,
    depth: int,
    direction: str,
    out: Neighbours,
    into: Neighbours,
    context: Callable[[str, str, str], str],
    limit: int | None = None,
    cancel: CancelCheck = _never,
) -> list[dict[str, Any]]:
    """Edge form: `{from_slug, to_slug, link_type, context, depth}`, links as stored.

    `in` walks from a page to the pages linking to it, `both` to either; the
    row always names the link in its own direction (from the linking page).
    With `limit`, the first `limit` rows: edges are gathered a depth at a time
    and deeper levels are skipped once enough are in hand. Neighbours may be
    `ServerLink`s carrying their relation; as in gbrain, rows are distinct per
    (from, to, depth), the first relation seen naming the row.
    """

    def oriented(node: str) -> list[tuple[str, str, str]]:
        """(neighbour, from, to) for every link to follow out of `node`."""
        found: list[tuple[str, str, str]] = []
        if direction in ("out", "both"):
            found.extend((n, node, n) for n in out(node))
        if direction in ("in", "both"):
            found.extend((n, n, node) for n in into(node))
        return found

    def step(node: str) -> list[str]:
        return list(dict.fromkeys(n for n, _, _ in oriented(node)))

    pairs = sorted(reachable_pairs(root, depth - 1, step, cancel=cancel), key=lambda pair: pair[1])
    keys: dict[tuple[str, str, int], str] = {}
    for index, (node, hop) in enumerate(pairs):
        level_starts = index == 0 or pairs[index - 1][1] != hop
        if limit is not None and level_starts and len(keys) >= limit:
            break
        _stop_if(cancel)
        for neighbour, frm, to in oriented(node):
            keys.setdefault((str(frm), str(to), hop + 1), relation_of(neighbour))
    ordered = sorted(keys, key=lambda key: (key[2], key[0], key[1]))[:limit]
    rows = []
    for count, (frm, to, hop) in enumerate(ordered):
        if not count % CHECK_EVERY:
            _stop_if(cancel)
        rel = keys[(frm, to, hop)]
        rows.append(
            {
                "from_slug": frm,
                "to_slug": to,
                "link_type": gbrain_link_type(rel),
                "context": context(frm, to, rel),
                "depth": hop,
            }
        )
    return rows
