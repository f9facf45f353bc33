"""The traversal row cap keeps exactly the rows an uncapped walk puts first (gbrain's
`LIMIT` under its `ORDER BY depth`), whatever the graph and the cap."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.server import walk

NODES = [f"p{i}" for i in range(8)]

graphs = st.dictionaries(
    keys=st.sampled_from(NODES),
    values=st.lists(st.sampled_from(NODES), unique=True, max_size=5).map(tuple),
    max_size=8,
)


def reverse_of(out: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    back: dict[str, list[str]] = {}
    for frm, targets in out.items():
        for to in targets:
            back.setdefault(to, []).append(frm)
    return {node: tuple(froms) for node, froms in back.items()}


@settings(max_examples=200, deadline=None)
@given(
    graphs,
    st.sampled_from(NODES),
    st.integers(min_value=1, max_value=10),
    st.sampled_from(["out", "in", "both"]),
    st.integers(min_value=0, max_value=40),
)
def test_capped_edge_rows_are_the_first_rows(
    out: dict[str, tuple[str, ...]], root: str, depth: int, direction: str, limit: int
) -> None:
    back = reverse_of(out)

    def edges(limit: int | None) -> list[dict[str, object]]:
        return walk.edge_rows(
            root,
            depth,
            direction,
            lambda s: out.get(s, ()),
            lambda s: back.get(s, ()),
            lambda frm, to, rel: f"{frm}>{to} {rel}",
            limit,
        )

    assert edges(limit) == edges(None)[:limit]


@settings(max_examples=200, deadline=None)
@given(
    graphs,
    st.sampled_from(NODES),
    st.integers(min_value=1, max_value=10),
    st.integers(min_value=0, max_value=40),
)
def test_capped_node_rows_are_the_first_rows(
    out: dict[str, tuple[str, ...]], root: str, depth: int, limit: int
) -> None:
    def nodes(limit: int | None) -> list[dict[str, object]]:
        return walk.node_rows(
            root, depth, lambda s: out.get(s, ()), lambda s: (s.upper(), None), limit
        )

    assert nodes(limit) == nodes(None)[:limit]
