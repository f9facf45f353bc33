"""The real-gbrain fixture works: a page of the sample brain comes back over our own
MCP client, with gbrain's slug naming and its stored links."""

from __future__ import annotations

import pytest

from okf_explorer.sources.factory import open_source
from tests.gbrain_peer import (
    GbrainStartFailed,
    find_peer_dir,
    gbrain_source,
    peer_work,
    start_gbrain,
    stop_gbrain,
)

pytestmark = pytest.mark.gbrain


def test_get_page_over_our_client(gbrain_peer, sample_brain):
    url, token_file, pid = gbrain_peer(sample_brain)
    assert pid > 0 and token_file.is_file()
    source = open_source(url, token_file=token_file)
    try:
        page = source.get_page("tables/orders")
        assert page.slug == "tables/orders"
        assert "tables/orders" in {stub.slug for stub in source.enumerate()}
        assert "index" not in {stub.slug for stub in source.enumerate()}  # gbrain skips index.md
    finally:
        source.close()


def test_missing_snapshot_fails_with_a_clear_message(monkeypatch, tmp_path):
    monkeypatch.setenv("OKF_GBRAIN_PEER", str(tmp_path / "nowhere"))
    assert find_peer_dir() is None
    with pytest.raises(GbrainStartFailed, match="snapshot missing"):
        start_gbrain(tmp_path)


def test_an_unset_peer_variable_fails_and_names_it(monkeypatch, tmp_path):
    """Nothing outside the repository is found by guessing: only `$OKF_GBRAIN_PEER`."""
    monkeypatch.delenv("OKF_GBRAIN_PEER", raising=False)
    assert find_peer_dir() is None
    with pytest.raises(GbrainStartFailed, match=r"\$OKF_GBRAIN_PEER is not set"):
        start_gbrain(tmp_path)


def test_a_gbrain_checkout_serves_as_the_peer_too(gbrain_peer, sample_brain, monkeypatch):
    """`$OKF_GBRAIN_PEER` may name a gbrain checkout: here the source tree the peer
    folder's snapshot unpacked to, with its dependencies installed."""
    gbrain_peer(sample_brain)  # the snapshot is unpacked by now
    checkout = gbrain_source(peer_work())
    monkeypatch.setenv("OKF_GBRAIN_PEER", str(checkout))
    assert find_peer_dir() == checkout
    peer = start_gbrain(sample_brain)
    try:
        source = open_source(peer.url, token_file=peer.token_file)
        try:
            assert source.get_page("tables/orders").slug == "tables/orders"
        finally:
            source.close()
    finally:
        stop_gbrain(peer)
