"""`okf-explorer save` into the real gbrain (issue 13 §3), through a counting proxy:
a dry run sends no write (only the reads the slice needs), a save is `written` and
read back, the same slice saved again is `unchanged` with no `put_page`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gbrain_peer import GbrainPeer, write_token_file

pytestmark = pytest.mark.gbrain

CORPUS = Path(__file__).resolve().parent / "gbrain_client_corpus"


@pytest.fixture
def peer(gbrain_peer) -> GbrainPeer:
    return gbrain_peer(CORPUS, write_token=True)


def test_save_into_gbrain_dry_run_then_written_then_unchanged(peer, counting_proxy, run) -> None:
    proxy = counting_proxy(peer.url)
    token = str(write_token_file(peer))
    argv = ("save", "--source", proxy.url, "--token-file", token, "zettelkasten")
    status, out, err = run(*argv, "--as", "trails/zk-slice", "--dry-run")
    assert (status, err) == (0, "")
    assert out.startswith("---\ntype: Slice\n")
    assert proxy.count("put_page") == 0
    assert "trails/zk-slice" not in json.dumps([c.arguments for c in proxy.calls])

    status, out, err = run(*argv, "--as", "trails/zk-slice", "--json")
    first = json.loads(out)
    assert (status, first["outcome"], err) == (0, "written", ""), first
    assert proxy.count("put_page") == 1

    status, out, err = run(*argv, "--as", "trails/zk-slice", "--json")
    second = json.loads(out)
    assert (status, second["outcome"], second["attempts"]) == (0, "unchanged", 0), second
    assert second["idempotency_key"] == first["idempotency_key"]
    assert proxy.count("put_page") == 1
