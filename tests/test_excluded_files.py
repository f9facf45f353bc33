"""A vault's Obsidian "Excluded files" (`userIgnoreFilters`) are kept out of search as
Obsidian keeps them (`core.excluded`): seen on an LLM-kept wiki of 35k pages whose 30k
raw source documents, excluded in its settings, answered every search first."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.excluded import Excluded, excluded_files
from okf_explorer.core.search.find_rank import Findable, rank_pages
from okf_explorer.server.tools import call_tool
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.finder import first_offer
from tests.bundles import write_file as write

FILTERS = ["_sources/", "AGENTS.md", "/draft-\\d+/", "/[unclosed/"]


def wiki(root: Path, filters: object = FILTERS) -> Path:
    """A small LLM-kept wiki of our own: its pages, and the raw sources it excludes."""
    if filters is not None:
        write(root, ".obsidian/app.json", json.dumps({"userIgnoreFilters": filters}))
    write(root, "entities/recycle-bin.md", "# Recycle Bin\n\nRestores deleted objects.\n")
    write(root, "entities/restore.md", "# Restore\n\nUse the Recycle Bin to restore.\n")
    write(root, "_sources/qa/recycle-bin-question.md", "# Recycle bin question\n\nRecycle Bin?\n")
    write(root, "notes/draft-12.md", "# Old notes\n\nThe recycle bin, draft.\n")
    write(root, "AGENTS.md", "# Agents\n\nNever empty the Recycle Bin.\n")
    return root


def brain_of(root: Path) -> Brain:
    return Brain(BundleSource(root), cache_dir=False)


def slugs(hits) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(hit.slug for hit in hits)


def test_the_settings_read_as_obsidian_writes_them() -> None:
    excluded = excluded_files(FILTERS)
    assert excluded.prefixes == ("_sources/", "AGENTS.md")
    assert [p.pattern for p in excluded.patterns] == ["draft-\\d+"]  # a bad one left out
    assert excluded("_sources/qa/x") and excluded("AGENTS") and excluded("notes/draft-12")
    assert not excluded("entities/x") and not excluded("notes/draft") and not excluded("_sourcesx")
    assert not excluded_files("_sources/") and not excluded_files(None) and not Excluded()


def test_search_leaves_out_the_excluded_pages(tmp_path: Path) -> None:
    brain = brain_of(wiki(tmp_path / "wiki"))
    search = brain.text_search()
    assert slugs(search.search("recycle bin")) == ["entities/recycle-bin", "entities/restore"]
    assert slugs(search.search('"recycle bin" OR draft')) == [
        "entities/recycle-bin",
        "entities/restore",
    ]
    assert slugs(search.search("recycle bin", everything=True)) == [
        "AGENTS",
        "_sources/qa/recycle-bin-question",
        "entities/recycle-bin",
        "entities/restore",
        "notes/draft-12",
    ]
    # serve's `search` tool leaves them out too
    rows = call_tool(brain, "search", {"query": "recycle bin"}).value
    assert sorted(row["slug"] for row in rows) == ["entities/recycle-bin", "entities/restore"]
    # a page named exactly by the query, excluded, is left out as well
    assert slugs(search.search("Agents")) == []


def test_a_vault_without_the_setting_searches_every_page(tmp_path: Path) -> None:
    search = brain_of(wiki(tmp_path / "wiki", filters=None)).text_search()
    assert len(search.search("recycle bin")) == 5


def test_the_command_line_says_excluded_to_keep_them(tmp_path: Path) -> None:
    from okf_explorer.cli import main

    root = str(wiki(tmp_path / "wiki"))

    def run(*argv: str) -> list[str]:
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            assert main(["--source", root, "search", *argv]) == 0
        return sorted(line.split("\t")[0] for line in out.getvalue().splitlines())

    assert run("recycle", "bin") == ["entities/recycle-bin", "entities/restore"]
    assert len(run("recycle", "bin", "--excluded")) == 5


def test_unlinked_mentions_leave_out_the_excluded_pages(tmp_path: Path) -> None:
    brain = brain_of(wiki(tmp_path / "wiki"))
    assert [m.slug for m in brain.unlinked_mentions("entities/recycle-bin").found] == [
        "entities/restore"
    ]


@pytest.mark.parametrize("query", ["recycle", "rcb"])
def test_the_finder_lists_the_excluded_pages_last(query: str) -> None:
    pages = [
        Findable("_sources/qa/recycle-bin", "Recycle Bin", backlinks=50, excluded=True),
        Findable("entities/recycle-bin-faq", "Recycle Bin FAQ", backlinks=1),
    ]
    assert [hit.slug for hit in rank_pages(query, pages)] == [
        "entities/recycle-bin-faq",
        "_sources/qa/recycle-bin",
    ]
    offered = [page.slug for page, _ in first_offer([], pages, 10)]
    assert offered == ["entities/recycle-bin-faq", "_sources/qa/recycle-bin"]


def test_the_excluded_pages_are_read_for_search_only_when_asked(tmp_path: Path) -> None:
    """Filling the text index leaves them out (a 35k-page wiki excluding its 30k raw
    sources: its first search 11.5-12.0 s → 7.4-7.5 s); a search of `everything` reads
    them, and later searches keep them while they are unchanged."""
    root = wiki(tmp_path / "wiki")
    search = brain_of(root).text_search()
    raw = "_sources/qa/recycle-bin-question"
    assert search.text_index().body("entities/restore") is not None
    assert search.text_index().body(raw) is None
    assert raw in slugs(search.search("question", everything=True))
    assert search.text_index().body(raw) is not None
    assert slugs(search.search("question")) == []  # held, and still left out
    assert search.text_index().body(raw) is not None
