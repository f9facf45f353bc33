"""Pages marked `visibility: private` are kept from `serve`'s callers, as gbrain keeps them
from every MCP caller (its `private-visibility`, 0.46.28): such a page reads exactly as a
page that does not exist, and no listing, search, resolution, orphan count, link or walk
names it. `serve --show-private` shows them. Against our own `serve` on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError
from okf_explorer.server.catalog import call_tool
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.gbrain.source import McpSource
from tests.bundles import write_bundle
from tests.mcp_server_fixture import ServerHandle, serve_bundle

SECRET = "notes/secret-plan"

PAGES = {
    "people/alice.md": "# Alice\n\nAlice works with [[people/bob]] on [[notes/secret-plan]].\n",
    "people/bob.md": (
        '---\nrelated: "[[notes/secret-plan]]"\n---\n# Bob\n\n'
        "Bob, a colleague, at [[Harbor Pier]].\n"
    ),
    "notes/secret-plan.md": (
        "---\nvisibility: private\ntags: [plan]\ntype: note\n---\n# Secret plan\n\n"
        "The zebracorn merger, with [[people/bob]] and [[notes/reached-only-here]].\n"
        "Ask [[Zebracorn Holdings]] first, then [[Harbor Pier]].\n"  # pages not yet written
    ),
    "notes/reached-only-here.md": "# Reached only here\n\nA page nothing else links to.\n",
    "notes/public-plan.md": "---\nvisibility: public\n---\n# Public plan\n\nNo secret.\n",
    # private, and named as a word the replies use (an edge record's `hemisphere`)
    "knowledge.md": "---\nvisibility: private\n---\n# Knowledge\n",
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_bundle(tmp_path_factory.mktemp("private"), PAGES)


@pytest.fixture(scope="module")
def hidden(root: Path) -> Iterator[ServerHandle]:
    with serve_bundle(root) as handle:
        yield handle


@pytest.fixture(scope="module")
def shown(root: Path) -> Iterator[ServerHandle]:
    with serve_bundle(root, options=("--show-private",)) as handle:
        yield handle


def answer(server: ServerHandle, tool: str, **arguments: Any) -> Any:
    """The tool's value, or its error payload."""
    source = McpSource(server.url, token=None, token_source="no token")
    try:
        return source.call_tool(tool, dict(arguments))
    except OkfError as error:
        return {"error": type(error).__name__, "message": str(error)}
    finally:
        source.close()


SLUG_KEYS = frozenset({"slug", "from_slug", "to_slug", "id", "resolved_slug"})


def named(value: Any) -> bool:
    """Whether a reply names the private page as a page (a row's slug, a listed slug) or
    quotes its words. Another page's own text may name it (Alice's `[[notes/secret-plan]]`),
    as gbrain answers that page's text as written."""
    if "zebracorn" in json.dumps(value).casefold() or "Secret plan" in json.dumps(value):
        return True
    if isinstance(value, str):
        return value == SECRET
    if isinstance(value, list):
        return any(named(item) for item in value)
    if isinstance(value, dict):
        return any(
            (key in SLUG_KEYS and item == SECRET) or (key not in SLUG_KEYS and named(item))
            for key, item in value.items()
            if key not in {"context", "chunk_text", "compiled_truth", "text", "content"}
        )
    return False


def test_a_private_page_reads_as_a_page_that_does_not_exist(hidden: ServerHandle) -> None:
    for tool, args in (
        ("get_page", {"slug": SECRET}),
        ("get_page", {"slug": "secret plan", "fuzzy": True}),
        ("fetch", {"id": SECRET}),
    ):
        private = answer(hidden, tool, **args)
        missing = answer(hidden, tool, **{k: "notes/no-such-page" for k in args if k != "fuzzy"})
        assert private["error"] == missing["error"], (tool, private)
        assert not named(private) or SECRET in args.get("slug", args.get("id", ""))
    assert answer(hidden, "get_tags", slug=SECRET) == []
    for tool in ("get_links", "get_backlinks", "traverse_graph"):
        assert answer(hidden, tool, slug=SECRET) == [], tool


def test_no_listing_search_or_resolution_names_it(hidden: ServerHandle) -> None:
    listed = answer(hidden, "list_pages", limit=100)
    assert {row["slug"] for row in listed} == {
        "people/alice",
        "people/bob",
        "notes/reached-only-here",
        "notes/public-plan",  # only `private` hides a page
    }
    for tool, args in (
        ("search", {"query": "zebracorn"}),
        ("query", {"query": "zebracorn merger"}),
        ("search", {"query": "plan"}),
        ("resolve_slugs", {"partial": "secret"}),
        ("memory_navigate", {"op": "list"}),
        ("memory_navigate", {"op": "get", "slug": SECRET}),
    ):
        assert not named(answer(hidden, tool, **args)), (tool, args)
    orphans = answer(hidden, "find_orphans")
    assert not named(orphans) and orphans["total_pages"] == 4
    assert [row["slug"] for row in orphans["orphans"]] == [
        "notes/public-plan",
        "notes/reached-only-here",  # only the private page links to it
        "people/alice",
    ]


def test_no_link_or_walk_runs_to_or_through_it(hidden: ServerHandle) -> None:
    out = answer(hidden, "get_links", slug="people/alice")
    assert [row["to_slug"] for row in out] == ["people/bob"]
    back = answer(hidden, "get_backlinks", slug="people/bob")
    assert [row["from_slug"] for row in back] == ["people/alice"]
    assert answer(hidden, "get_backlinks", slug="notes/reached-only-here") == []
    for args in (
        {"slug": "people/alice", "depth": 3},
        {"slug": "people/alice", "depth": 3, "direction": "both"},
        {"slug": "people/bob", "depth": 2, "direction": "in"},
    ):
        walked = answer(hidden, "traverse_graph", **args)
        assert walked and not named(walked), args
        assert "notes/reached-only-here" not in json.dumps(walked)  # reached through it only
    for op in ("links", "backlinks", "traverse"):
        navigated = answer(hidden, "memory_navigate", op=op, slug="people/bob", depth=2)
        assert not named(navigated), op


def test_the_agents_own_tools_never_name_it(hidden: ServerHandle) -> None:
    """okf-explorer's own tools: a name of a private page is no page, a path never runs
    through one, and no row names one."""
    for tool, key, typed in (
        ("find_paths", "from", SECRET),
        ("explain_links", "slug", SECRET),
        ("find_mentions", "slug", SECRET),
        ("build_context", "slug", SECRET),
        ("best_paths", "roots", SECRET),
        ("explain_links", "slug", "secret plan"),  # by its title: no suggestion names it
    ):

        def refusal(name: str, tool: str = tool, key: str = key) -> str:
            args: dict[str, Any] = {key: [name] if key == "roots" else name}
            if tool == "find_paths":
                args["to"] = "people/bob"
            reply = answer(hidden, tool, **args)
            assert reply["error"] == "PageNotFound", reply
            return str(reply["message"]).replace(name, "NAME")

        assert refusal(typed) == refusal("notes/no-such-page"), (tool, typed)
    paths = answer(hidden, "find_paths", **{"from": "people/alice", "to": "people/bob"})
    assert paths and not named(paths)
    assert [edge["hemisphere"] for edge in paths[0]["edges"]] == ["knowledge"]  # kept whole
    none = answer(hidden, "find_paths", **{"from": "people/alice", "to": "notes/reached-only-here"})
    assert "no_path" in none["message"]  # its only path runs through the private page,
    assert "secret" not in none["message"]  # which the answer does not name among those avoided
    for tool, args in (
        ("best_paths", {"roots": ["people/alice"], "depth": 3}),
        ("explain_links", {"slug": "people/alice"}),
        ("graph_stats", {}),
        ("wanted_pages", {}),
        ("find_mentions", {"slug": "people/bob"}),
        ("build_context", {"slug": "people/alice", "depth": 2}),
        ("analyze", {}),
    ):
        assert not named(answer(hidden, tool, **args)), tool
    # a page both a private and a seen page want: wanted by the seen one alone
    wanted = answer(hidden, "wanted_pages")
    assert [(row["target"], row["referenced_by"]) for row in wanted["targets"]] == [
        ("Harbor Pier", 1)
    ]
    assert wanted["total"] == 1
    stats = answer(hidden, "graph_stats")
    assert stats["dangling"] == {"Harbor Pier": ["people/bob"]}
    assert stats["counts"]["dangling_targets"] == 1


def test_the_graphs_counts_are_those_of_the_pages_the_caller_sees(hidden: ServerHandle) -> None:
    """`graph_stats`, `build_context`, `analyze` and `best_paths` read the graph as if the private
    pages and their links did not exist: a count, a degree or a cut that counted them
    would tell the caller they are there."""
    stats = answer(hidden, "graph_stats")
    assert stats["counts"]["pages"] == 4  # alice, bob, reached-only-here, public-plan
    assert stats["counts"]["links"] == 2  # alice → bob, bob → Harbor Pier
    assert {row["slug"]: row["degree"] for row in stats["hubs"]["in"]} == {"people/bob": 1}
    assert "notes/reached-only-here" in stats["orphans"]  # linked only from the private page
    assert stats["dangling"] == {"Harbor Pier": ["people/bob"]}
    assert stats["counts"]["dangling_targets"] == 1
    # a budget the private page's entries would overflow (4 of them were cut)
    pack = answer(hidden, "build_context", slug="people/bob", depth=2, budget_chars=200)
    assert pack["cut"] == {"text_chars": 0, "neighbours": 0, "neighbours_by_hop": [0, 0]}
    near, far = pack["hops"]
    assert [row["slug"] for row in near["links_out"] + near["backlinks"]] == [
        "Harbor Pier",
        "people/alice",
    ]
    assert near["relations"] == {} and far["links_out"] == far["backlinks"] == []
    shape = answer(hidden, "analyze")  # communities made of the pages seen (none dropped)
    assert [(row["size"], row["pages"]) for row in shape["communities"]] == [
        (2, ["people/alice", "people/bob"])
    ]
    central = {row["slug"]: row["in_degree"] for row in shape["central"]}
    assert central["people/bob"] == 1 and central["notes/reached-only-here"] == 0


WALKED = {
    "start.md": "# Start\n\n[[hidden]] and [[step]].\n",
    "hidden.md": "---\nvisibility: private\n---\n# Hidden\n\n[[goal]]\n",
    "step.md": "# Step\n\n[[goal]]\n",
    "goal.md": "# Goal\n",
}


def test_a_walk_reaches_a_page_by_a_path_that_avoids_them(tmp_path: Path) -> None:
    """The best path to a page runs through a private page; another does not: the walk
    answers the other (it had left the page out), weighed as in the brain that never had
    the private page."""
    folder = write_bundle(tmp_path / "walk", WALKED)
    never = {**WALKED, "start.md": "# Start\n\n[[step]].\n"}
    del never["hidden.md"]
    never_brain = Brain(BundleSource(write_bundle(tmp_path / "never", never)), cache_dir=False)
    brain = Brain(BundleSource(folder), cache_dir=False)
    try:
        unwritten = call_tool(never_brain, "best_paths", {"roots": ["start"]}).value
        assert call_tool(brain, "best_paths", {"roots": ["start"]}).value == unwritten
        shown = call_tool(brain, "best_paths", {"roots": ["start"]}, show_private=True).value
        assert {row["slug"]: row["path"] for row in shown}["goal"][1] == "hidden"
        rows = call_tool(brain, "best_paths", {"roots": ["start"]}).value
        assert {row["slug"]: row["path"] for row in rows} == {
            "start": ["start"],
            "step": ["start", "step"],
            "goal": ["start", "step", "goal"],
        }
    finally:
        brain.close()
        never_brain.close()


def test_memory_navigate_walks_no_further_through_them(tmp_path: Path) -> None:
    """`memory_navigate`'s walk left out the edges to and from a private page, but walked on
    past it: a page reached only through one showed at hop 3 (`reached → leaf`)."""
    folder = write_bundle(
        tmp_path / "navigate",
        {
            "alice.md": "# Alice\n\n[[secret]] and [[bob]]\n",
            "secret.md": "---\nvisibility: private\n---\n# Secret\n\n[[reached]]\n",
            "reached.md": "# Reached\n\n[[leaf]]\n",
            "leaf.md": "# Leaf\n",
            "bob.md": "# Bob\n",
        },
    )
    brain = Brain(BundleSource(folder), cache_dir=False)
    try:
        args = {"op": "traverse", "slug": "alice", "depth": 3}
        walked = call_tool(brain, "memory_navigate", args).value
        assert [(edge["from"], edge["to"]) for edge in walked] == [("alice", "bob")]
        shown = call_tool(brain, "memory_navigate", args, show_private=True).value
        assert ("reached", "leaf") in [(edge["from"], edge["to"]) for edge in shown]
        links = {"op": "links", "slug": "alice"}
        assert call_tool(brain, "memory_navigate", links).value == ["bob"]
    finally:
        brain.close()


def test_serve_says_how_many_pages_it_keeps_back(hidden: ServerHandle, shown: ServerHandle) -> None:
    """The operator learns from the index line that callers do not see some pages."""
    said = "indexed 6 pages in "
    assert said in hidden.stderr_text() and said in shown.stderr_text()
    assert "· 2 private pages kept from callers (--show-private serves them)" in (
        hidden.stderr_text()
    )
    assert "· 2 private pages served (--show-private)" in shown.stderr_text()


def test_serve_show_private_serves_them(shown: ServerHandle) -> None:
    page = answer(shown, "get_page", slug=SECRET)
    assert page["slug"] == SECRET and page["frontmatter"]["visibility"] == "private"
    out = answer(shown, "get_links", slug="people/alice")
    assert [row["to_slug"] for row in out] == ["people/bob", SECRET]
    assert [hit["slug"] for hit in answer(shown, "search", query="zebracorn")] == [SECRET]


def test_a_page_made_private_is_hidden_at_once(root: Path, tmp_path: Path) -> None:
    """A page that says `visibility: private` after the index was built is hidden from the
    next call on (the index is read again when its file changed)."""
    folder = write_bundle(tmp_path / "later", PAGES)
    brain = Brain(BundleSource(folder), cache_dir=False)
    try:
        assert not call_tool(brain, "get_page", {"slug": "people/bob"}).is_error
        bob = folder / "people/bob.md"
        bob.write_text("---\nvisibility: private\n---\n# Bob\n", encoding="utf-8")
        brain.refresh()
        reply = call_tool(brain, "get_page", {"slug": "people/bob"})
        assert reply.is_error and reply.value["error"] == "page_not_found"
        assert not call_tool(brain, "get_page", {"slug": "people/bob"}, show_private=True).is_error
    finally:
        brain.close()


def test_get_page_hides_a_private_page_without_waiting_for_the_index(tmp_path: Path) -> None:
    """`get_page` and `fetch` read one file and never wait for the index (a first build of
    a big wiki outlasts a client's timeout): they read the privacy from that file."""
    folder = write_bundle(tmp_path / "cold", PAGES)
    brain = Brain(BundleSource(folder), cache_dir=False)
    try:
        for name, args in (("get_page", {"slug": SECRET}), ("fetch", {"id": SECRET})):
            reply = call_tool(brain, name, args)
            assert reply.is_error and reply.value["error"] == "page_not_found", name
        assert not call_tool(brain, "get_page", {"slug": "people/bob"}).is_error
        assert brain.index is None  # no call built it
    finally:
        brain.close()


GBRAIN_CORPUS = Path(__file__).resolve().parent / "gbrain_corpus"
GBRAIN_PRIVATE = "notes/private-plan"


@pytest.mark.gbrain
def test_the_real_gbrain_and_our_serve_keep_the_same_page_back(gbrain_peer) -> None:
    """The same corpus, one of its pages private, asked the same questions of the real
    gbrain and of our `serve`: neither names that page, and both answer `get_page` of it
    as of a page that does not exist."""
    peer = gbrain_peer(GBRAIN_CORPUS)
    calls: tuple[tuple[str, dict[str, Any]], ...] = (
        ("get_page", {"slug": GBRAIN_PRIVATE}),
        ("get_links", {"slug": "notes/beta-notes"}),
        ("get_backlinks", {"slug": "notes/beta-notes"}),
        ("list_pages", {"limit": 100}),
        ("resolve_slugs", {"partial": "private"}),
        ("search", {"query": "kept to ourselves"}),
        ("traverse_graph", {"slug": "notes/beta-notes", "depth": 2, "direction": "both"}),
    )

    def replies(source: McpSource) -> list[Any]:
        found = []
        for tool, args in calls:
            try:
                found.append(source.call_tool(tool, dict(args)))
            except OkfError as error:
                found.append({"error": type(error).__name__})
        return found

    theirs_source = McpSource(
        peer.url, token=peer.token_file.read_text().strip(), token_source="file"
    )
    try:
        theirs = replies(theirs_source)
    finally:
        theirs_source.close()
    with serve_bundle(GBRAIN_CORPUS) as server:
        ours_source = McpSource(server.url, token=None, token_source="no token")
        try:
            ours = replies(ours_source)
        finally:
            ours_source.close()
    assert theirs[0] == ours[0] == {"error": "PageNotFound"}
    for (tool, _), mine, gbrains in zip(calls, ours, theirs, strict=True):
        for reply in (mine, gbrains):
            slugs = {row.get(key) for row in _rows(reply) for key in SLUG_KEYS}
            assert GBRAIN_PRIVATE not in slugs, tool
            assert "Kept to ourselves" not in json.dumps(reply), tool
    assert ours[3] and theirs[3]  # the listing answers, without it


def _rows(reply: Any) -> list[dict[str, Any]]:
    if isinstance(reply, list):
        return [row if isinstance(row, dict) else {"slug": row} for row in reply]
    return []
