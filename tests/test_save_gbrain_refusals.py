"""Issue 22 §1 against the real gbrain: `save` never overwrites a page it did not write.

Each case is the CLI end to end through a counting proxy, on a write-scoped server.
After a refusal the page must be byte for byte what it was: the full `get_page`
reply text (content, `content_hash`, `updated_at`, tags) and the page's version
history (`get_versions`: an upsert would have snapshotted the old row), and no
`put_page` may have reached the server at all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from okf_explorer.sources.gbrain.transport import JsonRpcTransport
from tests.conftest import SAMPLE_BRAIN
from tests.gbrain_peer import GbrainPeer, write_token_file

pytestmark = pytest.mark.gbrain

CLIENT_CORPUS = Path(__file__).resolve().parent / "gbrain_client_corpus"


def raw_tool_text(peer: GbrainPeer, token_file: Path, name: str, arguments: dict[str, Any]) -> str:
    """The exact `content[0].text` a tool answers (no decoding: byte-for-byte compare)."""
    transport = JsonRpcTransport(
        peer.url,
        label=peer.url,
        token=token_file.read_text().strip(),
        token_source="test",
        timeout=30.0,
        pool_size=1,
    )
    try:
        result = transport.request("tools/call", {"name": name, "arguments": arguments})
    finally:
        transport.close()
    return str(result["content"][0]["text"])


def page_state(peer: GbrainPeer, token_file: Path, slug: str) -> tuple[str, str]:
    """The page as the server holds it: its full `get_page` reply and its versions."""
    page = raw_tool_text(peer, token_file, "get_page", {"slug": slug, "include_content": True})
    versions = raw_tool_text(peer, token_file, "get_versions", {"slug": slug})
    return page, versions


def refused_one_line(err: str, url: str, slug: str) -> bool:
    return err == f"okf-explorer: refused: page exists; choose another --as ({url}#{slug})\n"


@pytest.fixture
def sample_writer(gbrain_peer) -> GbrainPeer:
    """The sample brain in a real gbrain, its token able to write."""
    return gbrain_peer(SAMPLE_BRAIN, token_scopes="read write")


@pytest.fixture
def client_writer(gbrain_peer) -> GbrainPeer:
    return gbrain_peer(CLIENT_CORPUS, write_token=True)


def test_a_human_page_with_tags_is_refused_and_untouched(sample_writer, counting_proxy, run):
    peer = sample_writer
    before = page_state(peer, peer.token_file, "tables/customers")
    assert '"tags"' in before[0] and '"pii"' in before[0]  # the page the issue names
    proxy = counting_proxy(peer.url)
    argv = ("save", "--source", proxy.url, "--token-file", str(peer.token_file))
    status, out, err = run(*argv, "tables/orders", "--as", "tables/customers")
    assert (status, out) == (1, "")
    assert refused_one_line(err, proxy.url, "tables/customers"), err
    assert proxy.count("put_page") == 0
    assert page_state(peer, peer.token_file, "tables/customers") == before


def test_a_page_without_tags_is_refused_and_untouched(client_writer, counting_proxy, run):
    peer = client_writer
    token = write_token_file(peer)
    before = page_state(peer, token, "people/alice")
    assert json.loads(before[0])["tags"] == []
    proxy = counting_proxy(peer.url)
    argv = ("save", "--source", proxy.url, "--token-file", str(token), "--json")
    status, out, err = run(*argv, "zettelkasten", "--as", "people/alice")
    record = json.loads(out)
    assert (status, record["outcome"], record["attempts"]) == (1, "refused", 0), record
    assert record["detail"].startswith("page exists; choose another --as")
    assert err.startswith("okf-explorer: refused: page exists") and err.count("\n") == 1
    assert proxy.count("put_page") == 0
    assert page_state(peer, token, "people/alice") == before


def test_another_slice_under_the_same_name_is_refused(client_writer, counting_proxy, run):
    peer = client_writer
    token = write_token_file(peer)
    proxy = counting_proxy(peer.url)
    argv = ("save", "--source", proxy.url, "--token-file", str(token))
    status, out, err = run(*argv, "zettelkasten", "--as", "slices/refusal-x")
    assert (status, err) == (0, ""), err
    assert out.startswith("written\tslices/refusal-x\t")
    assert proxy.count("put_page") == 1
    first = page_state(peer, token, "slices/refusal-x")
    status, out, err = run(*argv, "zettelkasten", "--depth", "2", "--as", "slices/refusal-x")
    assert (status, out) == (1, "")
    assert refused_one_line(err, proxy.url, "slices/refusal-x"), err
    assert proxy.count("put_page") == 1  # the second slice sent nothing
    assert page_state(peer, token, "slices/refusal-x") == first
    status, out, _ = run(*argv, "zettelkasten", "--as", "slices/refusal-x")
    assert (status, out.split("\t")[0]) == (0, "unchanged")  # the first slice is still ours
    assert page_state(peer, token, "slices/refusal-x") == first
