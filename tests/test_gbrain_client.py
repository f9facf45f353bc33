"""Our MCP client against the real gbrain (tests/gbrain_peer.py) on a vault of our own
(`gbrain_client_corpus`: file names with spaces, capitals and dots, a private page),
and against our own `serve` where the same holds: the issue-12 fixes found against gbrain.

gbrain names the page of `devbox/introduction/The reason for being.md`
`devbox/introduction/the-reason-for-being` and keeps dots (`devbox/devbox.json`,
`devbox/release-notes-v1.2`); it hides `notes/Secret Plan.md` (`visibility: private`)
from remote callers.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.sources.factory import open_source
from okf_explorer.sources.gbrain import transport as mcp_transport
from okf_explorer.sources.gbrain.source import McpSource
from tests.gbrain_peer import GbrainPeer, GbrainStartFailed, start_peer, stop_gbrain
from tests.mcp_server_fixture import serve_bundle

CORPUS = Path(__file__).resolve().parent / "gbrain_client_corpus"

pytestmark = pytest.mark.gbrain


def source_of(peer: GbrainPeer) -> McpSource:
    source = open_source(peer.url, token_file=peer.token_file)
    assert isinstance(source, McpSource)
    return source


@pytest.fixture
def tool_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tools our client calls (and `tools/list`), in order, over any transport."""
    made: list[str] = []
    real = mcp_transport.JsonRpcTransport.request

    def spying(self: Any, method: str, params: Any = None) -> Any:
        made.append(params["name"] if method == "tools/call" else method)
        return real(self, method, params)

    monkeypatch.setattr(mcp_transport.JsonRpcTransport, "request", spying)
    return made


def test_scan_resolves_path_links_the_way_gbrain_names_pages(gbrain_peer) -> None:
    """`--scan` over gbrain: Markdown path links written against the files
    (`The%20reason%20for%20being.md`, `Release%20Notes%20v1.2.md`) find the server's
    pages instead of dangling, so existing pages are not shown as missing."""
    brain = Brain(source_of(gbrain_peer(CORPUS)), scan=True, cache_dir=False)
    try:
        links = {
            link.target: (link.to, link.exists) for link in brain.forward_links("zettelkasten")
        }
        reason = brain.forward_links("devbox/devbox.json")
    finally:
        brain.close()
    assert links == {
        "./devbox/introduction/The reason for being.md": (
            "devbox/introduction/the-reason-for-being",
            True,
        ),
        "devbox/devbox.json.md": ("devbox/devbox.json", True),
        "devbox/Release Notes v1.2.md": ("devbox/release-notes-v1.2", True),
        "notes/Daily Note": ("notes/daily-note", True),
        "people/alice": ("people/alice", True),
    }
    assert [(link.to, link.rule) for link in reason] == [
        ("devbox/introduction/the-reason-for-being", "slugified")
    ]


def test_cli_links_scan_prints_no_dangling_path(gbrain_peer, run) -> None:
    peer = gbrain_peer(CORPUS)
    status, out, err = run(
        "links", "devbox/devbox.json", "--scan", "--source", peer.url,
        "--token-file", str(peer.token_file),
    )  # fmt: skip
    assert (status, out, err) == (0, "devbox/introduction/the-reason-for-being\n", "")


def test_exact_slug_backlinks_need_one_get_page_and_no_listing(
    gbrain_peer, run, tool_calls: list[str]
) -> None:
    peer = gbrain_peer(CORPUS)
    status, out, _ = run(
        "links", "zettelkasten", "--backlinks", "--source", peer.url,
        "--token-file", str(peer.token_file),
    )  # fmt: skip
    assert status == 0
    assert out.splitlines() == [
        "devbox/introduction/the-reason-for-being",
        "notes/daily-note",
        "people/alice",
        "people/bob",
    ]
    assert "list_pages" not in tool_calls
    assert tool_calls.count("get_page") == 1
    assert tool_calls.count("get_backlinks") == 1


def test_a_name_that_is_not_a_slug_still_resolves(gbrain_peer, run) -> None:
    peer = gbrain_peer(CORPUS)
    status, out, _ = run(
        "links", "Alice Example", "--backlinks", "--source", peer.url,
        "--token-file", str(peer.token_file),
    )  # fmt: skip
    assert (status, out.splitlines()) == (0, ["people/bob", "zettelkasten"])


def test_exact_slug_backlinks_on_our_own_serve(run, tool_calls: list[str]) -> None:
    with serve_bundle(CORPUS) as server:
        status, out, _ = run("links", "people/alice", "--backlinks", "--source", server.url)
    # our `serve` hides the private page, as gbrain does (above)
    assert (status, out.splitlines()) == (0, ["Zettelkasten", "people/bob"])
    assert "list_pages" not in tool_calls
    assert tool_calls.count("get_page") == 1
    with serve_bundle(CORPUS, options=("--show-private",)) as server:
        status, out, _ = run("links", "people/alice", "--backlinks", "--source", server.url)
    assert (status, out.splitlines()) == (0, ["Zettelkasten", "notes/Secret Plan", "people/bob"])


@pytest.mark.parametrize("tool", ["search", "query"])
def test_search_rows_carry_what_gbrains_carry(gbrain_peer, tool: str) -> None:
    """Our `serve`'s `search` and `query` rows hold no key the real gbrain's lack, and
    `id` exactly where gbrain puts one (its `search`, for the search/fetch pair; not its
    `query`), so a client reading gbrain's rows reads ours."""
    peer = source_of(gbrain_peer(CORPUS))
    try:
        theirs = peer.call_tool(tool, {"query": "alice", "limit": 3})
    finally:
        peer.close()
    with serve_bundle(CORPUS) as server:
        ours_source = McpSource(server.url, token=None, token_source="no token")
        try:
            ours = ours_source.call_tool(tool, {"query": "alice", "limit": 3})
        finally:
            ours_source.close()
    assert theirs and ours
    assert all(set(row) <= set(theirs[0]) for row in ours)
    assert all(("id" in row) == ("id" in theirs[0]) for row in ours)


def test_fetch_answers_in_gbrains_shape(gbrain_peer) -> None:
    """`fetch` (the search/fetch pair): the same keys as the real gbrain's, in `metadata`
    too, and the page's body (gbrain writes the type and title it infers into the
    frontmatter it serves: `type: person`, `title: Bob`)."""
    peer = source_of(gbrain_peer(CORPUS))
    try:
        theirs = peer.call_tool("fetch", {"id": "people/bob"})
    finally:
        peer.close()
    with serve_bundle(CORPUS) as server:
        ours_source = McpSource(server.url, token=None, token_source="no token")
        try:
            ours = ours_source.call_tool("fetch", {"id": "people/bob"})
        finally:
            ours_source.close()
    assert list(ours) == list(theirs) and list(ours["metadata"]) == list(theirs["metadata"])
    assert (ours["id"], ours["title"]) == (theirs["id"], theirs["title"])
    assert theirs["text"].strip().endswith(ours["text"].strip())


def test_lookups_answer_in_gbrains_shape(gbrain_peer) -> None:
    """`get_tags`, `resolve_slugs` and `find_orphans` give what the real gbrain gives, key
    for key, and the same answers where the two read the pages alike."""
    calls = [
        ("get_tags", {"slug": "people/alice"}),
        ("get_tags", {"slug": "people/nobody"}),
        ("resolve_slugs", {"partial": "alic"}),
        ("find_orphans", {}),
    ]
    peer = source_of(gbrain_peer(CORPUS))
    try:
        theirs = [peer.call_tool(name, args) for name, args in calls]
    finally:
        peer.close()
    with serve_bundle(CORPUS) as server:
        ours_source = McpSource(server.url, token=None, token_source="no token")
        try:
            ours = [ours_source.call_tool(name, args) for name, args in calls]
        finally:
            ours_source.close()
    assert ours[:3] == theirs[:3] == [[], [], ["people/alice"]]
    assert list(ours[3]) == list(theirs[3])
    assert all(list(row) == list(theirs[3]["orphans"][0]) for row in ours[3]["orphans"])


def test_private_page_is_hidden_by_gbrain(gbrain_peer) -> None:
    """gbrain hides `visibility: private` pages from remote callers: they are not
    listed, not fetched, and no stored link shows them."""
    source = source_of(gbrain_peer(CORPUS))
    brain = Brain(source, cache_dir=False)
    try:
        assert "notes/secret-plan" not in {stub.slug for stub in source.enumerate()}
        nodes = {edge.to for edge in brain.traverse("zettelkasten", 3, "both")}
    finally:
        brain.close()
    assert "notes/secret-plan" not in nodes and nodes


@pytest.fixture(scope="module")
def starter_peer() -> Iterator[GbrainPeer]:
    """gbrain serving its reduced `starter` tool list (no `get_links`)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(os.environ, "GBRAIN_MCP_FORCE_SURFACE", "starter")
        try:
            peer = start_peer(CORPUS)
        except GbrainStartFailed as error:
            pytest.fail(str(error), pytrace=False)
    yield peer
    stop_gbrain(peer)


def test_starter_surface_answers_from_traverse_graph(gbrain_peer, starter_peer) -> None:
    """Without `get_links`, outgoing links come from `traverse_graph`: the same walk
    as on gbrain's full tool list, answered by the server (no body scan)."""
    starter = source_of(starter_peer)
    assert "get_links" not in starter.tools() and "traverse_graph" in starter.tools()
    full = source_of(gbrain_peer(CORPUS))
    walks = []
    for source in (starter, full):
        brain = Brain(source, cache_dir=False)
        try:
            assert brain.answered_by == "server"
            edges = brain.traverse("zettelkasten", 2, "both")
            walks.append(sorted((e.frm, e.to, e.hop, e.direction, e.rel) for e in edges))
            assert brain.index is None
        finally:
            brain.close()
    assert walks[0] == walks[1] and walks[0]
