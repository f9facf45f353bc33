"""gbrain's current shapes where ours mirror its tools (issue 26 §9), and the pinned
0.46.28's when an old client asks the old way.

- `traverse_graph` (gbrain v0.48.1, "remote callers default to bidirectional edges"):
  with neither `direction` nor `link_type`, a remote call walks `both` ways and gets
  `GraphPath[]` edge rows, at depth 2 when `depth` is left to default too; an explicit
  `direction` pins a shape (the edge rows, as 0.46.28 gives them). A server started with
  `--gbrain-shapes 0.46.28` gives 0.46.28's node form and depths.
- `get_backlinks` with `group: "page"`: one row per referring page, newest first,
  `{rows, total, truncated, cursor, coverage}`; `type` and `limit` filter and cut the
  link rows; without them, 0.46.28's link rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.server.tools import GBRAIN_PINNED, call_tool
from okf_explorer.sources.folder.bundle import BundleSource
from tests.test_server_tools import LINK_KEYS, make_bundle

pytestmark = pytest.mark.plain


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    opened = Brain(BundleSource(make_bundle(tmp_path_factory.mktemp("current"))), cache_dir=False)
    opened.ensure_index()
    yield opened
    opened.close()


def ok(brain: Brain, name: str, *, shapes: str | None = None, **args: Any) -> Any:
    extra = {} if shapes is None else {"shapes": shapes}
    reply = call_tool(brain, name, args, **extra)
    assert not reply.is_error, reply.text
    return json.loads(reply.text)


def err(brain: Brain, name: str, **args: Any) -> dict[str, Any]:
    reply = call_tool(brain, name, args)
    assert reply.is_error, reply.text
    return json.loads(reply.text)


def edges(rows: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    return [(row["from_slug"], row["to_slug"], row["depth"]) for row in rows]


# -- traverse_graph ------------------------------------------------------------------------


def test_a_call_without_direction_walks_both_ways_at_depth_2(brain: Brain) -> None:
    rows = ok(brain, "traverse_graph", slug="cycle-a")
    assert list(rows[0]) == ["from_slug", "to_slug", "link_type", "context", "depth"]
    assert edges(rows) == [
        ("cycle-a", "cycle-b", 1),
        ("cycle-c", "cycle-a", 1),
        ("cycle-a", "cycle-b", 2),
        ("cycle-b", "cycle-c", 2),
        ("cycle-c", "cycle-a", 2),
    ]
    assert rows == ok(brain, "traverse_graph", slug="cycle-a", direction="both", depth=2)


def test_a_given_depth_or_link_type_keeps_the_both_ways_default(brain: Brain) -> None:
    deep = ok(brain, "traverse_graph", slug="chain/c05", depth=3)
    assert deep == ok(brain, "traverse_graph", slug="chain/c05", direction="both", depth=3)
    assert {row["depth"] for row in deep} == {1, 2, 3}
    typed = ok(brain, "traverse_graph", slug="chain/c05", link_type="mentions")
    assert typed == ok(
        brain, "traverse_graph", slug="chain/c05", link_type="mentions", direction="both", depth=2
    )
    assert max(row["depth"] for row in typed) == 2


@pytest.mark.parametrize(("depth", "deepest"), [(None, 5), (0, 5), (-3, 5), (2, 2), (99, 10)])
def test_an_explicit_direction_pins_the_edge_rows(
    brain: Brain, depth: int | None, deepest: int
) -> None:
    args = {"slug": "chain/c00", "direction": "out"}
    rows = ok(brain, "traverse_graph", **args, **({} if depth is None else {"depth": depth}))
    assert [row["depth"] for row in rows] == list(range(1, deepest + 1))


def test_the_pinned_shapes_give_the_node_form(brain: Brain) -> None:
    rows = ok(brain, "traverse_graph", slug="cycle-a", shapes=GBRAIN_PINNED)
    assert [(r["slug"], r["depth"]) for r in rows] == [
        ("cycle-a", 0),
        ("cycle-b", 1),
        ("cycle-c", 2),
    ]
    assert list(rows[0]) == ["slug", "title", "type", "depth", "links"]
    chain = ok(brain, "traverse_graph", slug="chain/c00", depth=-3, shapes=GBRAIN_PINNED)
    assert [r["depth"] for r in chain] == [0, 1]
    typed = ok(brain, "traverse_graph", slug="cycle-a", link_type="links", shapes=GBRAIN_PINNED)
    assert edges(typed)[:1] == [("cycle-a", "cycle-b", 1)]
    assert all(row["from_slug"] != "cycle-c" or row["depth"] > 1 for row in typed)  # out only


# -- get_backlinks group: "page" -----------------------------------------------------------

PAGE_ROW = [
    "slug", "source_id", "title", "type", "canonical_type", "date", "date_source", "preview",
]  # fmt: skip


def test_backlinks_grouped_by_page_newest_first(brain: Brain) -> None:
    page = ok(brain, "get_backlinks", slug="people/alice", group="page")
    assert list(page) == ["rows", "total", "truncated", "cursor", "coverage"]
    assert [row["slug"] for row in page["rows"]] == ["people/bob", "companies/acme"]
    assert all(list(row) == PAGE_ROW for row in page["rows"])
    bob = page["rows"][0]
    assert (bob["title"], bob["type"], bob["canonical_type"]) == ("Bob", "person", "person")
    assert bob["date"] == brain.ensure_index().pages["people/bob"].updated_at
    assert bob["date_source"] == "updated_at" and bob["source_id"] == "default"
    assert bob["preview"] == "Bob works with [Alice](alice.md)."
    assert (page["total"], page["truncated"], page["cursor"]) == (2, False, None)
    assert page["coverage"] == {"state": "complete", "pending_pages": 0, "last_pass_at": None}
    untyped = ok(brain, "get_backlinks", slug="cycle-a", group="page")["rows"]
    assert [(r["slug"], r["type"], r["canonical_type"]) for r in untyped] == [
        ("cycle-c", None, "untyped")
    ]


def test_a_page_of_backlinks_continues_with_its_cursor(brain: Brain) -> None:
    first = ok(brain, "get_backlinks", slug="people/alice", group="page", limit=1)
    assert [r["slug"] for r in first["rows"]] == ["people/bob"]
    assert first["truncated"] and first["total"] == 2 and first["cursor"]
    rest = ok(brain, "get_backlinks", slug="people/alice", group="page", cursor=first["cursor"])
    assert [r["slug"] for r in rest["rows"]] == ["companies/acme"] and rest["cursor"] is None
    unknown = ok(brain, "get_backlinks", slug="nope", group="page")
    assert (unknown["rows"], unknown["total"]) == ([], 0)


def test_type_and_limit_filter_and_cut_the_link_rows(brain: Brain) -> None:
    people = ok(brain, "get_backlinks", slug="people/alice", type="person")
    assert [row["from_slug"] for row in people] == ["people/bob"]
    assert list(people[0]) == LINK_KEYS
    assert len(ok(brain, "get_backlinks", slug="people/alice", limit=1)) == 1
    grouped = ok(brain, "get_backlinks", slug="people/alice", group="page", type="company")
    assert [row["slug"] for row in grouped["rows"]] == ["companies/acme"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"group": "pages"}, 'get_backlinks: group must be "page".'),
        ({"cursor": "abc"}, 'get_backlinks: cursor needs group: "page".'),
        (
            {"group": "page", "cursor": "not-ours"},
            "get_backlinks: cursor is not one this tool returned.",
        ),
        ({"group": "page", "limit": 0}, "get_backlinks: limit must be an integer from 1 to 500."),
        ({"type": "spaceship"}, 'get_backlinks: unknown type "spaceship".'),
    ],
)
def test_backlink_paging_errors(brain: Brain, args: dict[str, Any], message: str) -> None:
    answer = err(brain, "get_backlinks", slug="people/alice", **args)
    assert answer["error"] == "invalid_params" and answer["message"] == message
