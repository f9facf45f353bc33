"""Reading `traverse_graph` replies of every shape gbrain sends (pure logic: the rows
are real replies of gbrain 0.46.28, trimmed, and the both-direction edge form a remote
caller gets from 0.48.1 when it names no direction), and choosing the graph tools from
a tool list (gbrain's full surface, its reduced `starter` one, none)."""

from __future__ import annotations

from typing import Any

import pytest

from okf_explorer.core.errors import ProtocolError
from okf_explorer.core.port import ServerLink
from okf_explorer.sources.gbrain.payloads import link_rows
from okf_explorer.sources.gbrain.source import graph_for

CONTEXT = "# Zettelkasten A method. See [config](devbox/devbox.json.md)."

NODE_FORM = [
    {
        "slug": "zettelkasten",
        "title": "Zettelkasten",
        "type": "concept",
        "depth": 0,
        "links": [
            {"to_slug": "devbox/devbox.json", "link_type": "mentions"},
            {"to_slug": "notes/daily-note", "link_type": "wikilink_basename"},
        ],
    },
    {"slug": "devbox/devbox.json", "title": "devbox.json", "depth": 1, "links": []},
    {
        "slug": "notes/daily-note",
        "depth": 1,
        "links": [{"to_slug": "zettelkasten", "link_type": "mentions"}],
    },
]

EDGE_FORM_OUT = [
    {
        "from_slug": "zettelkasten",
        "to_slug": "devbox/devbox.json",
        "link_type": "mentions",
        "context": CONTEXT,
        "depth": 1,
    },
    {
        "from_slug": "zettelkasten",
        "to_slug": "notes/daily-note",
        "link_type": "wikilink_basename",
        "context": CONTEXT,
        "depth": 1,
    },
]

BOTH_DIRECTIONS = [  # 0.48.1, no direction given: edges into the page come back too
    {
        "from_slug": "notes/daily-note",
        "to_slug": "zettelkasten",
        "link_type": "mentions",
        "depth": 1,
    },
    *EDGE_FORM_OUT,
    {"from_slug": "notes/daily-note", "to_slug": "zettelkasten", "depth": 2},
]

WITH_DIRECTION = [  # rows that say their direction
    {**EDGE_FORM_OUT[0], "direction": "out"},
    {"from_slug": "zettelkasten", "to_slug": "people/alice", "depth": 1, "direction": "in"},
    {"from_slug": "people/alice", "to_slug": "zettelkasten", "depth": 1, "direction": "in"},
]


def described(links: list[ServerLink]) -> list[tuple[str, str, str | None]]:
    return [(str(link), link.rel, link.context) for link in links]


def test_node_form_gives_the_start_nodes_outgoing_links() -> None:
    assert described(link_rows(NODE_FORM, "zettelkasten", "out")) == [
        ("devbox/devbox.json", "links", None),
        ("notes/daily-note", "links", None),  # resolved by file name: no relation
    ]
    assert link_rows(NODE_FORM, "zettelkasten", "in") == []  # the node form is out only


def test_edge_form_gives_relation_and_context() -> None:
    assert described(link_rows(EDGE_FORM_OUT, "zettelkasten", "out")) == [
        ("devbox/devbox.json", "links", CONTEXT),
        ("notes/daily-note", "links", CONTEXT),
    ]


def test_both_direction_edges_are_split_by_side_one_hop_only() -> None:
    assert [str(x) for x in link_rows(BOTH_DIRECTIONS, "zettelkasten", "out")] == [
        "devbox/devbox.json",
        "notes/daily-note",
    ]
    assert [str(x) for x in link_rows(BOTH_DIRECTIONS, "zettelkasten", "in")] == [
        "notes/daily-note"
    ]


def test_a_rows_own_direction_must_agree() -> None:
    assert [str(x) for x in link_rows(WITH_DIRECTION, "zettelkasten", "out")] == [
        "devbox/devbox.json"
    ]
    assert [str(x) for x in link_rows(WITH_DIRECTION, "zettelkasten", "in")] == ["people/alice"]


def test_garbage_rows_are_skipped() -> None:
    rows: list[Any] = [None, "x", {"from_slug": "zettelkasten"}, {"links": "no", "slug": 3}]
    assert link_rows(rows, "zettelkasten", "out") == []


class Calls:
    def __init__(self, reply: Any) -> None:
        self.reply, self.made = reply, []

    def __call__(self, name: str, arguments: dict[str, Any]) -> Any:
        self.made.append((name, arguments))
        return self.reply


def test_full_surface_uses_get_links_and_get_backlinks() -> None:
    tools = frozenset({"get_page", "get_links", "get_backlinks", "traverse_graph"})
    graph = graph_for(Calls([]), "srv", tools)
    assert graph is not None and graph.ways == {"out": "get_links", "in": "get_backlinks"}
    assert not graph.reduced


def test_starter_surface_asks_traverse_graph_with_a_direction() -> None:
    calls = Calls(EDGE_FORM_OUT)
    graph = graph_for(calls, "srv", frozenset({"get_page", "get_backlinks", "traverse_graph"}))
    assert graph is not None and graph.reduced
    assert graph.ways == {"out": "traverse_graph", "in": "get_backlinks"}
    assert graph.links_out("zettelkasten") == ["devbox/devbox.json", "notes/daily-note"]
    assert calls.made == [
        ("traverse_graph", {"slug": "zettelkasten", "depth": 1, "direction": "out"})
    ]


@pytest.mark.parametrize(
    "tools", [frozenset({"get_page"}), frozenset({"get_links"}), frozenset({"get_backlinks"})]
)
def test_no_graph_without_a_way_to_ask_each_side(tools: frozenset[str]) -> None:
    assert graph_for(Calls([]), "srv", tools) is None


def test_a_reply_that_is_not_a_list_is_a_protocol_error() -> None:
    graph = graph_for(Calls({"oops": 1}), "srv", frozenset({"traverse_graph"}))
    assert graph is not None
    with pytest.raises(ProtocolError, match="traverse_graph"):
        graph.links_in("zettelkasten")
