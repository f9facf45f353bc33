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

import pytest

from tests.conftest import SAMPLE_BRAIN
from tests.gbrain_peer import GbrainPeer, page_state, raw_tool_text, write_token_file

pytestmark = pytest.mark.gbrain

CLIENT_CORPUS = Path(__file__).resolve().parent / "gbrain_client_corpus"


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


def test_a_saved_slice_a_person_edited_is_unchanged_and_keeps_the_edit(
    client_writer, counting_proxy, run
):
    """The slice's page carries this save's key but a person's edit: the same save
    again is `unchanged` (exit 0, the detail says the content differs), nothing sent,
    the edit kept byte for byte."""
    peer = client_writer
    token = write_token_file(peer)
    proxy = counting_proxy(peer.url)
    argv = ("save", "--source", proxy.url, "--token-file", str(token), "--json")
    status, out, _ = run(*argv, "zettelkasten", "--as", "slices/edited-x")
    assert (status, json.loads(out)["outcome"]) == (0, "written"), out
    key = json.loads(out)["idempotency_key"]
    saved = json.loads(raw_tool_text(peer, token, "get_page", {"slug": "slices/edited-x"}))
    assert saved["frontmatter"]["idempotency_key"] == key
    edited = (  # the person keeps the key; the edit goes straight to the server
        f'---\ntype: Slice\ntitle: {json.dumps(saved["title"])}\nidempotency_key: "{key}"\n---\n'
        f"{saved['compiled_truth']}\n\nA note by hand.\n"
    )
    raw_tool_text(peer, token, "put_page", {"slug": "slices/edited-x", "content": edited})
    before = page_state(peer, token, "slices/edited-x")
    assert "A note by hand." in before[0]
    status, out, err = run(*argv, "zettelkasten", "--as", "slices/edited-x")
    record = json.loads(out)
    assert (status, record["outcome"], record["attempts"], err) == (0, "unchanged", 0, ""), out
    assert record["detail"] == (
        "the same slice is already saved there (content differs from this save: left as it is)"
    )
    assert proxy.count("put_page") == 1  # the first save only
    assert page_state(peer, token, "slices/edited-x") == before
