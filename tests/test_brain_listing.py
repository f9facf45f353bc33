"""`Brain.label` and `Brain.list_pages`: what the TUI asks instead of the source."""

from __future__ import annotations

from pathlib import Path

from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.bundle import BundleSource


def test_label_and_listing_come_from_the_source_without_an_index(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "index.md").write_text("---\ntitle: Home\n---\nhi\n", encoding="utf-8")
    (tmp_path / "notes" / "a.md").write_text("# A\n", encoding="utf-8")
    source = BundleSource(tmp_path)
    brain = Brain(source, cache_dir=False)
    assert brain.label == source.label
    # a folder listing knows no titles before the scan: the slug stands in
    assert sorted(brain.list_pages()) == [("index", "index"), ("notes/a", "notes/a")]
    assert brain.index is None  # listing never builds the index
