"""Search over MCP: our `serve` offers gbrain's `search` tool (argument names, reply
shape), and a brain over an MCP source uses the server's search unless `--scan`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import InvalidParams, PageNotFound
from okf_explorer.sources.gbrain.source import McpSource
from tests.bundles import write_bundle
from tests.mcp_server_fixture import ServerHandle, serve_bundle

PAGES = {
    "people/alice.md": "---\ntype: person\n---\n# Alice\nAlice founded Acme and runs the kiln.\n",
    "companies/acme.md": "---\ntype: company\n---\n# Acme\nA pottery company with one kiln.\n",
    "notes/misc.md": "# Misc\nNothing about pottery here, only tea.\n",
    "notes/fired.md": "---\ntags: [kiln/log]\n---\n# Fired\nTwo loads this week.\n",
    "notes/glaze.md": (
        "# Glaze\nMix a [celadon glaze](https://example.com/glazes/celadon) by **weight**:"
        " see [[companies/acme|the firing room]] and <i>fire</i> it twice.\n"
    ),
    "notes/context.md": "# 笔记\n返回值上不同。上下文压缩在这里发生，上下文压力很大。\n",
}
GBRAIN_ROW_KEYS = {
    "slug", "page_id", "title", "type", "chunk_text", "chunk_source", "chunk_id",
    "chunk_index", "score", "stale", "source_id", "id",
}  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerHandle]:
    root = write_bundle(tmp_path_factory.mktemp("search-bundle"), PAGES)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OKF_EXPLORER_CACHE", str(tmp_path_factory.mktemp("server-cache")))
        with serve_bundle(root) as handle:
            yield handle


def mcp(url: str) -> McpSource:
    return McpSource(url, token=None, token_source="no token")


def test_serve_search_speaks_gbrains_shape(server: ServerHandle) -> None:
    source = mcp(server.url)
    try:
        rows = source.call_tool("search", {"query": "kiln", "limit": 5})
        assert [row["slug"] for row in rows] == ["companies/acme", "people/alice"] or [
            row["slug"] for row in rows
        ] == ["people/alice", "companies/acme"]
        assert all(set(row) == GBRAIN_ROW_KEYS for row in rows)
        assert all("kiln" in row["chunk_text"] for row in rows)
        assert rows[0]["score"] >= rows[1]["score"]
        typed = source.call_tool("search", {"query": "kiln", "types": ["person"]})
        assert [row["slug"] for row in typed] == ["people/alice"]
        # not our syntax: searched as plain words, never an error
        loose = source.call_tool("search", {"query": 'pottery "AND ('})
        assert {row["slug"] for row in loose} == {"companies/acme", "notes/misc"}
        capped = source.call_tool("search", {"query": "tea", "snippet_chars": 5})
        assert capped[0]["chunk_text"].endswith("… [truncated]")
    finally:
        source.close()


def test_serve_query_answers_as_gbrains_query(server: ServerHandle) -> None:
    """gbrain's `query` (its search for questions) is answered: the rows `search` gives,
    ranked alike, without `id` (gbrain's `query` rows carry none); an agent written for
    gbrain asked it and got `unknown tool`."""
    source = mcp(server.url)
    try:
        asked = {"query": "who runs the kiln", "limit": 5, "types": ["person"], "expand": True}
        rows = source.call_tool("query", asked)
        searched = source.call_tool("search", {key: asked[key] for key in ("query", "types")})
        assert [row["slug"] for row in rows] == [row["slug"] for row in searched]
        assert rows and all(set(row) == GBRAIN_ROW_KEYS - {"id"} for row in rows)
    finally:
        source.close()


def test_serve_fetches_a_search_result_by_its_id(server: ServerHandle) -> None:
    """Each search row's `id` is for `fetch` (OpenAI deep research's search/fetch pair, which
    gbrain offers): the page whole, its frontmatter first. The ids were given, `fetch` was
    unknown."""
    source = mcp(server.url)
    try:
        [row] = source.call_tool("search", {"query": "founded", "limit": 1})
        fetched = source.call_tool("fetch", {"id": row["id"]})
        assert fetched == {
            "id": "people/alice",
            "title": "Alice",
            "text": "---\ntype: person\n---\n\n# Alice\nAlice founded Acme and runs the kiln.\n",
            "url": "okf://page/default/people/alice",
            "metadata": {
                "type": "person",
                "source_id": "default",
                "updated_at": fetched["metadata"]["updated_at"],
                "tags": [],
            },
        }
        with pytest.raises(PageNotFound):
            source.call_tool("fetch", {"id": "people/nobody"})
        with pytest.raises(InvalidParams, match="Missing required parameter: id"):
            source.call_tool("fetch", {})
    finally:
        source.close()


def test_a_brain_over_mcp_uses_the_servers_search(server: ServerHandle) -> None:
    remote = Brain(mcp(server.url), cache_dir=False)
    try:
        searcher = remote.text_search()
        assert searcher.answered_by == "server"
        hits = searcher.search("pottery path:companies")
        assert [hit.slug for hit in hits] == ["companies/acme"]
        assert hits[0].hit_words() == ["pottery"]
        assert remote.index is None  # the server answered: no local scan was needed
    finally:
        remote.close()


def test_scan_uses_the_local_index(server: ServerHandle) -> None:
    remote = Brain(mcp(server.url), scan=True, cache_dir=False)
    try:
        searcher = remote.text_search()
        assert searcher.answered_by == "index"
        assert [hit.slug for hit in searcher.search("tea")] == ["notes/misc"]
        assert remote.index is not None
    finally:
        remote.close()


def test_cli_search_over_mcp(server: ServerHandle, run, tmp_path: Path) -> None:
    status, out, err = run("search", "kiln", "type:company", "--source", server.url)
    assert (status, err) == (0, "")
    assert out.startswith("companies/acme\t") and "«kiln»" in out


def test_the_same_snippet_as_text_from_serve_and_the_cli(server: ServerHandle, run) -> None:
    """Snippets are the page's text (no link, HTML or Markdown syntax), marked on words:
    the same in serve's `search` tool (unmarked), the CLI beside it, and a brain over
    MCP that cuts the server's rows itself."""
    source = mcp(server.url)
    try:
        [row] = source.call_tool("search", {"query": "celadon glaze", "limit": 1})
    finally:
        source.close()
    assert row["slug"] == "notes/glaze"
    text = row["chunk_text"]
    assert "celadon glaze by weight: see the firing room and fire it twice" in text
    for syntax in ("](", "https", "**", "[[", "<i>"):
        assert syntax not in text
    _, out, _ = run("search", "celadon glaze", "--json", "--source", str(server.root))
    [local] = [r for r in json.loads(out) if r["slug"] == "notes/glaze"]
    assert local["snippet"].replace("«", "").replace("»", "") == text
    assert "«celadon» «glaze»" in local["snippet"]
    remote = Brain(mcp(server.url), cache_dir=False)
    try:
        [hit] = [h for h in remote.text_search().search("celadon glaze") if h.slug == "notes/glaze"]
        assert "«celadon» «glaze»" in hit.marked() and "](" not in hit.marked()
    finally:
        remote.close()


def test_filters_alone_list_their_pages_over_mcp(server: ServerHandle) -> None:
    """`search tag:kiln` lists the pages so tagged (a nested tag too), from our `serve`'s
    `search` tool and from a brain over the server (its own tag filter, `list_pages`)."""
    source = mcp(server.url)
    try:
        rows = source.call_tool("search", {"query": "tag:kiln"})
        assert [row["slug"] for row in rows] == ["notes/fired"]
        rows = source.call_tool("search", {"query": "type:person"})
        assert [row["slug"] for row in rows] == ["people/alice"]
        brain = Brain(source, cache_dir=False)
        assert [hit.slug for hit in brain.text_search().search("tag:kiln")] == ["notes/fired"]
    finally:
        source.close()


def test_a_chinese_word_is_marked_alike_over_mcp(server: ServerHandle, run) -> None:
    """A brain over MCP marks the server's rows itself: a Chinese word inside a run
    (no space around it) was never marked, since a word had to start a word. It is
    marked as the local index marks it: its pairs of characters, never one alone."""
    _, out, _ = run("search", "上下文压缩", "--json", "--source", str(server.root))
    [local] = [r for r in json.loads(out) if r["slug"] == "notes/context"]
    remote = Brain(mcp(server.url), cache_dir=False)
    try:
        [hit] = [h for h in remote.text_search().search("上下文压缩") if h.slug == "notes/context"]
    finally:
        remote.close()
    assert "«上下文压缩»" in local["snippet"] and "«上下文压»力" in local["snippet"]
    assert hit.marked() == local["snippet"]
