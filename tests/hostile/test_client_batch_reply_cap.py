"""Issue 7, items 4/5 together: our `serve` caps the replies to one POST (16 MiB) and
refuses batch items past the cap; our client, which batches `get_page` calls, asks those
pages again one at a time, so a brain of large pages still scans whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.sources.factory import open_source
from tests.mcp_server_fixture import serve_bundle

PAGE_BYTES = 1_200_000  # 20 of them pass the server's 16 MiB per-POST reply cap


@pytest.mark.slow
def test_pages_refused_in_a_batch_for_size_are_fetched_alone(tmp_path: Path) -> None:
    root = tmp_path / "big"
    root.mkdir()
    filler = ("lorem ipsum " * (PAGE_BYTES // 12)) + "\n"
    for n in range(20):
        (root / f"p{n:02d}.md").write_text(f"[[p{(n + 1) % 20:02d}]]\n{filler}", encoding="utf-8")
    (root / "small-a.md").write_text("a\n", encoding="utf-8")
    (root / "small-b.md").write_text("b\n", encoding="utf-8")
    with serve_bundle(root) as server:
        source = open_source(server.url, timeout=30)
        try:
            assert len(source.get_pages(["small-a", "small-b"])) == 2  # batching works
            pages = source.get_pages([f"p{n:02d}" for n in range(20)])
        finally:
            source.close()
        assert [len(page.content) > PAGE_BYTES for page in pages] == [True] * 20
        assert "Reply too large" in server.stderr_text() or "too large" in server.stderr_text()
        brain = Brain(open_source(server.url, timeout=30), cache_dir=False)
        try:
            assert len(brain.pages()) == 22 and brain.backlinks("p00") == ["p19"]
        finally:
            brain.source.close()
