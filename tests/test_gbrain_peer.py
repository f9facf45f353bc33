"""The real-gbrain fixture works: a page of the sample brain comes back over our own
MCP client, with gbrain's slug naming and its stored links."""

from __future__ import annotations

import pytest

from okf_explorer.sources.factory import open_source
from tests.gbrain_peer import (
    GbrainStartFailed,
    blank_brain,
    find_peer_dir,
    gbrain_source,
    peer_work,
    start_gbrain,
    stop_gbrain,
)

pytestmark = pytest.mark.gbrain


def test_start_sh_alone_serves_a_page_over_our_client(sample_brain):
    """start.sh as a person runs it (its own init, import and extract; the fixture's
    brains are copies of a blank one instead)."""
    blank_brain()  # Bun and gbrain's dependencies installed, one process at a time
    peer = start_gbrain(sample_brain)
    try:
        assert peer.pid > 0 and peer.token_file.is_file()
        source = open_source(peer.url, token_file=peer.token_file)
        try:
            page = source.get_page("tables/orders")
            assert page.slug == "tables/orders"
            slugs = {stub.slug for stub in source.enumerate()}
            assert "tables/orders" in slugs
            assert "index" not in slugs  # gbrain skips index.md
        finally:
            source.close()
    finally:
        stop_gbrain(peer)


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


def test_a_gbrain_checkout_serves_as_the_peer_too(sample_brain, monkeypatch):
    """`$OKF_GBRAIN_PEER` may name a gbrain checkout: here the source tree the peer
    folder's snapshot unpacked to, with its dependencies installed."""
    blank_brain()  # the snapshot is unpacked and its dependencies installed by now
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
