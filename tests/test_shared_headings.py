"""A heading many pages open with names none of them (issue 24, item 4: titles).

A 13k-page student vault opens its daily notes with `# Todo` (347 of them) and its notes
on a theorem or a term with `# Definition` (162), `# Theorem` (155), `# Example`, then the
note's parts: the finder listed 347 pages called "Todo", and `Hardware/Maxterm` was
"Definition" in the header, the trees and `get --json`, where Obsidian and the vault's
published site call it "Maxterm". A first heading that `SHARED_HEADING` or more pages open
with is a section's name, not a title: each such page is named by its file name. What a
page reads of its own heading is kept (`PageInfo.heading_title`), so a title follows the
count as pages come and go, in the link index's cache and the text index alike.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.index.build import SHARED_HEADING
from okf_explorer.sources.folder.bundle import BundleSource


def note(root: Path, name: str, heading: str, frontmatter: str = "") -> None:
    path = root / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{frontmatter}# {heading}\nSome words about {name}.\n# Example\nMore.\n")


def titles(root: Path, cache: Path | bool = False) -> dict[str, str]:
    brain = Brain(BundleSource(root), cache_dir=cache)
    try:
        return {slug: info.title for slug, info in brain.ensure_index().pages.items()}
    finally:
        brain.close()


def test_a_heading_many_pages_open_with_names_none_of_them(tmp_path: Path) -> None:
    for day in range(1, SHARED_HEADING + 1):
        note(tmp_path, f"Daily/2025-01-0{day}", "Todo")
    note(tmp_path, "Math/Maxterm", "Definition")
    note(tmp_path, "Math/Minterm", "definition ")  # the same heading, as a finder compares
    note(tmp_path, "Rare", "A title of its own")
    note(tmp_path, "Stated", "Todo", "---\ntitle: Todo\n---\n")  # stated: always the title
    named = titles(tmp_path)
    assert [named[f"Daily/2025-01-0{day}"] for day in (1, 5)] == ["2025-01-01", "2025-01-05"]
    assert named["Math/Maxterm"] == "Definition"  # two pages: below the count, a title
    assert named["Rare"] == "A title of its own"
    assert named["Stated"] == "Todo"
    for more in ("Math/Literal", "Math/Clause", "Math/Term"):
        note(tmp_path, more, "Definition")
    named = titles(tmp_path)
    assert named["Math/Maxterm"] == "Maxterm" and named["Math/Minterm"] == "Minterm"


def test_titles_follow_the_count_as_pages_come_and_go(tmp_path: Path) -> None:
    """Through the disk cache: the pages that did not change keep their heading, so a
    title comes back when the count falls again, and the text index's titles follow."""
    vault, cache = tmp_path / "v", tmp_path / "cache"
    for name in ("a", "b", "c", "d"):
        note(vault, name, "Definition")
    assert set(titles(vault, cache).values()) == {"Definition"}
    note(vault, "e", "Definition")
    assert titles(vault, cache) == {"a": "a", "b": "b", "c": "c", "d": "d", "e": "e"}
    brain = Brain(BundleSource(vault), cache_dir=cache)
    try:
        assert [hit.title for hit in brain.text_search().search("words about a")][:1] == ["a"]
    finally:
        brain.close()
    (vault / "e.md").unlink()
    assert set(titles(vault, cache).values()) == {"Definition"}
    brain = Brain(BundleSource(vault), cache_dir=cache)
    try:
        assert {hit.title for hit in brain.text_search().search("words")} == {"Definition"}
    finally:
        brain.close()


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OKF_EXPLORER_CACHE", os.fspath(tmp_path / "cache"))


@pytest.mark.usefixtures("own_cache")
def test_a_page_reads_the_same_title_everywhere(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    """`get --json` named the page by its heading while the finder, `links` and `search`
    named it by its file name: one title, whichever face asks."""
    vault = tmp_path / "v"
    for day in range(1, SHARED_HEADING + 1):
        note(vault, f"2025-01-0{day}", "Todo")
    status, out, _ = run("get", "--source", os.fspath(vault), "2025-01-03", "--json")
    assert status == 0 and json.loads(out)["title"] == "2025-01-03"
    brain = Brain(BundleSource(vault))
    try:
        assert brain.page("2025-01-03").title == "Todo"  # no index yet: as the file reads
        brain.ensure_index()
        assert brain.page("2025-01-03").title == "2025-01-03"
        assert {row.title for row in brain.findables()} == {
            f"2025-01-0{day}" for day in range(1, SHARED_HEADING + 1)
        }
    finally:
        brain.close()


def test_serve_names_the_page_as_the_index_does(tmp_path: Path) -> None:
    """`serve`'s `get_page` and `fetch` read one file and never wait for the index (a
    first build of a 35k-page wiki outlasts a client's 10 s); once it is built they name
    the page as every other tool does."""
    from okf_explorer.server.tools import call_tool

    for day in range(1, SHARED_HEADING + 1):
        note(tmp_path, f"2025-01-0{day}", "Todo")
    brain = Brain(BundleSource(tmp_path), cache_dir=False)
    try:
        first = call_tool(brain, "get_page", {"slug": "2025-01-02"})
        assert first.value["title"] == "Todo"  # as the file reads
        assert brain.index is None  # the call built nothing
        brain.ensure_index()
        for name, args in (("get_page", {"slug": "2025-01-02"}), ("fetch", {"id": "2025-01-02"})):
            reply = call_tool(brain, name, args)
            assert reply.value["title"] == "2025-01-02"
    finally:
        brain.close()
