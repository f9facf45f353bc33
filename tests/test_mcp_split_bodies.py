"""Scans read gbrain's split body (`compiled_truth` + `timeline`) instead of asking for
`content`, and fetch a page again whole only where the split could reorder its links."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.links import extract_links
from okf_explorer.server.shapes import split_timeline
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.gbrain.payloads import split_is_exact
from okf_explorer.sources.gbrain.source import McpSource
from tests.bundles import write_pages
from tests.mcp_server_fixture import serve_bundle

pytestmark = pytest.mark.plain

URL = "http://gbrain.test/mcp"

BODIES = {
    "plain": "see [[a]] then [[b]]\n",
    "tl-end": "intro [[a]]\n\n## Timeline\n- met [[c]]\n",
    "tl-no-links": "intro [[a]]\n\n## Timeline\n- nothing\n\n## After\nthen [[b]]\n",
    "tl-middle": "intro [[a]]\n\n## Timeline\n- met [[c]]\n\n## After\nthen [[b]] and [[c]]\n",
    "tl-first": "## Timeline\n- met [[c]]\n\n## After\nno links here\n",
    "a": "",
    "b": "",
    "c": "",
}
REORDERABLE = {"tl-end", "tl-middle"}


class SplitGbrain:
    """gbrain's `get_page` in memory: the split body always, `content` only when asked."""

    def __init__(self, bodies: dict[str, str]) -> None:
        self.bodies = bodies
        self.page_calls: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        messages = json.loads(request.content)
        replies = [self.reply(m) for m in (messages if isinstance(messages, list) else [messages])]
        replies = [r for r in replies if r is not None]
        if not replies:
            return httpx.Response(202)
        text = "".join(f"event: message\ndata: {json.dumps(r)}\n\n" for r in replies)
        return httpx.Response(200, text=text, headers={"content-type": "text/event-stream"})

    def reply(self, message: dict[str, Any]) -> dict[str, Any] | None:
        if "id" not in message:
            return None
        if message["method"] == "initialize":
            result: Any = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}}
        else:
            result = {"content": [{"type": "text", "text": self.tool(message["params"])}]}
        return {"result": result, "jsonrpc": "2.0", "id": message["id"]}

    def tool(self, params: dict[str, Any]) -> str:
        arguments = params["arguments"]
        if params["name"] == "list_pages":
            offset = arguments.get("offset", 0)
            slugs = sorted(self.bodies)[offset : offset + 100]
            return json.dumps([{"slug": s, "title": s, "updated_at": "2026-01-01"} for s in slugs])
        self.page_calls.append(arguments)
        slug = arguments["slug"]
        truth, timeline = split_timeline(self.bodies[slug])
        page = {"slug": slug, "title": slug, "compiled_truth": truth, "timeline": timeline}
        if arguments.get("include_content"):
            page["content"] = self.bodies[slug]
        page["updated_at"] = "2026-01-01"
        return json.dumps(page)


def test_scan_asks_without_content_and_refetches_only_reorderable_pages() -> None:
    server = SplitGbrain(BODIES)
    source = McpSource(URL, token=None, token_source="no token",
                       http_transport=httpx.MockTransport(server))  # fmt: skip
    scanned = {s.info.slug: s for s in source.scan(source.enumerate())}
    for slug, body in BODIES.items():
        assert scanned[slug].links == tuple(extract_links(body)), slug
    plain = sorted(c["slug"] for c in server.page_calls if "include_content" not in c)
    whole = sorted(c["slug"] for c in server.page_calls if c.get("include_content") is True)
    assert plain == sorted(BODIES)
    assert whole == sorted(REORDERABLE)
    # Display reads still ask for the canonical text.
    server.page_calls.clear()
    assert source.get_page("tl-middle").content == BODIES["tl-middle"]
    assert server.page_calls == [{"slug": "tl-middle", "include_content": True}]


@pytest.mark.parametrize(
    ("payload", "exact"),
    [
        ({"content": "x", "compiled_truth": "[[a]]", "timeline": "## Timeline\n[[b]]"}, True),
        ({"compiled_truth": "[[a]]", "timeline": ""}, True),
        ({"compiled_truth": "no brackets", "timeline": "## Timeline\n[[b]]"}, True),
        ({"compiled_truth": "[[a]]", "timeline": "## Timeline\n[not a link]"}, True),
        ({"compiled_truth": "[[a]]", "timeline": "## Timeline\n[b](b.md)"}, False),
        ({"compiled_truth": "[x](a.md)", "timeline": "## Timeline\n![[b]]"}, False),
        ({"compiled_truth": "only the truth [[a]]"}, True),
        ({"slug": "a", "title": "A"}, False),  # a body only sent as `content`
    ],
)
def test_split_is_exact(payload: dict[str, Any], exact: bool) -> None:
    assert split_is_exact(payload) is exact


def test_scanned_forward_links_keep_page_order_over_our_server(tmp_path: Path) -> None:
    """Against `serve`: pages whose timeline sits mid-page scan to the folder's links."""
    pages = {
        f"p{i}": f"# P{i}\nfirst [[p{(i + 1) % 6}]]\n\n## Timeline\n- [[p{(i + 2) % 6}]]\n\n"
        f"## Notes\nthen [[p{(i + 3) % 6}]] and [[p{(i + 2) % 6}]]\n"
        for i in range(6)
    }
    pages["q"] = "---\ntags: [x]\n---\n## Timeline\n- [[p1]]\n\n## After\n[[p0]]\n"
    root = write_pages(tmp_path / "brain", pages)
    folder = Brain(BundleSource(root))
    with serve_bundle(root) as server:
        source = McpSource(server.url, token=None, token_source="no token")
        remote = Brain(source, scan=True, cache_dir=False)
        for slug in pages:
            assert [link.to for link in remote.forward_links(slug)] == [
                link.to for link in folder.forward_links(slug)
            ], slug
        remote.close()
