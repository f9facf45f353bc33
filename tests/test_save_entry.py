"""The one entry point for saving a slice or a trail as a page (`core.save`,
issue 23 "faces are skins"): the CLI and the TUI draft and save through it, on a real
folder bundle and its `FolderWriter`."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.core import save
from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.port import SaveOutcome, same_slice
from okf_explorer.core.save import compose_page, idempotency_key, saved_key
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.folder.write import FolderWriter
from tests.bundles import write_bundle

FILES = {
    "index.md": "# Home\n\n* [Orders](tables/orders.md)\n",
    "tables/orders.md": "---\ntype: Table\ntitle: Orders\n---\nSee [[customers]] and [[ghost]].\n",
    "tables/customers.md": "---\ntype: Table\ntitle: Customers\n---\nBack to [[orders]].\n",
    "notes/a.md": "---\ntype: Note\n---\nAbout [[orders]].\n",
}
EARLY, LATE = "2026-01-01T00:00:00+00:00", "2027-06-30T12:00:00+00:00"


@pytest.fixture
def brain(tmp_path: Path):
    opened = Brain(BundleSource(write_bundle(tmp_path / "brain", FILES)))
    yield opened
    opened.close()


def files(brain: Brain) -> dict[str, bytes]:
    root = brain.local_root
    assert root is not None
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.md"))}


def test_a_slice_of_several_roots_keeps_each_edge_once_and_names_pages_by_title(
    brain: Brain,
) -> None:
    graph = save.slice_of(brain, ["tables/orders", "tables/customers"], 1, "out")
    assert graph.roots == ("tables/orders", "tables/customers")
    assert graph.edges == (
        Edge("tables/orders", "tables/customers", 1, "out"),
        Edge("tables/orders", "ghost", 1, "out"),
        Edge("tables/customers", "tables/orders", 1, "out"),
    )
    draft = save.draft_page(brain, graph, at=EARLY)
    assert draft.key == idempotency_key(graph) == saved_key(draft.text)
    assert "[Customers](/tables/customers.md)" in draft.text and "- ghost (missing)" in draft.text
    pages = brain.ensure_index().pages
    titles = {slug: info.title for slug, info in pages.items()}
    assert draft.text == compose_page(
        graph, by=draft.by, at=EARLY, titles=titles, exists=pages.__contains__
    )


def test_a_trail_follows_links_either_way_and_jumps_otherwise(brain: Brain) -> None:
    graph = save.trail_of(brain, ["tables/customers", "tables/orders", "index", "notes/a"])
    assert graph.kind == "Trail"
    assert [(e.frm, e.to, e.direction, e.rel) for e in graph.edges] == [
        ("tables/customers", "tables/orders", "out", "links"),
        ("tables/orders", "index", "in", "links"),
        ("index", "notes/a", "out", "jump"),
    ]


def test_a_draft_is_written_as_it_reads_then_the_same_slice_is_unchanged(brain: Brain) -> None:
    root = brain.local_root
    assert root is not None
    graph = save.slice_of(brain, ["tables/orders"], 1, "out")
    first = save.save_draft(
        brain, save.draft_page(brain, graph, at=EARLY), "s/o", FolderWriter(root)
    )
    assert (first.outcome, first.slug) == (SaveOutcome.WRITTEN, "s/o")
    written = (root / "s" / "o.md").read_bytes()
    assert written.decode() == save.draft_page(brain, graph, at=EARLY).text

    # Drafted again later: the page there carries this slice, so its time is reused and
    # the bytes are the same (a writer comparing content finds it identical).
    again = save.save_draft(
        brain, save.draft_page(brain, graph, at=LATE), "s/o", FolderWriter(root)
    )
    assert (again.outcome, again.detail) == (SaveOutcome.UNCHANGED, same_slice(True))
    assert (root / "s" / "o.md").read_bytes() == written


def test_another_page_at_the_name_is_refused_and_kept(brain: Brain) -> None:
    root = brain.local_root
    assert root is not None
    before = files(brain)
    draft = save.draft_page(brain, save.slice_of(brain, ["tables/orders"], 1, "out"))
    result = save.save_draft(brain, draft, "tables/customers", FolderWriter(root))
    assert result.outcome == SaveOutcome.REFUSED
    assert files(brain) == before


def test_a_bad_name_raises_before_anything_is_read_or_written(
    brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = brain.local_root
    assert root is not None
    before = files(brain)
    draft = save.draft_page(brain, save.slice_of(brain, ["tables/orders"], 1, "out"))

    def no_read(slug: str) -> None:
        raise AssertionError(f"read {slug} for a name that cannot be saved")

    monkeypatch.setattr(brain, "page", no_read)
    for bad in ("../x", "index", "a//b"):
        with pytest.raises(ValueError, match="bad page name"):
            save.save_draft(brain, draft, bad, FolderWriter(root))
    assert files(brain) == before


def test_the_command_line_saves_through_the_entry_point(
    brain: Brain, run, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real = save.save_draft

    def spy(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(save, "save_draft", spy)
    status, out, err = run(
        "save", "--source", str(brain.local_root), "tables/orders", "--as", "s/x"
    )
    assert (status, err, calls) == (0, "", ["s/x"])
    assert out.startswith("written\ts/x\t")
