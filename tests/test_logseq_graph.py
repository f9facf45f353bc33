"""A Logseq graph's pages are called as Logseq calls them (`sources.folder.logseq`):
seen on Logseq's own docs graph, where `[[Whiteboard/Object]]` (the file
`pages/Whiteboard___Object.md`) and names given by `alias::` dangled: 108 of its 583
dangling targets were pages."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.paths import PathQuery
from okf_explorer.core.links.tags import tags_as_links
from okf_explorer.core.pages import PageInfo
from okf_explorer.server.tools import call_tool
from okf_explorer.sources.folder import scan as parallel
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.folder.logseq import LogseqGraph, format_date, logseq_graph, values
from okf_explorer.sources.folder.pagefile import page_row as general_page_row
from tests.bundles import write_file as write

TRIPLE_LOWBAR = "{:meta/version 1\n :file/name-format :triple-lowbar}\n"


def garden(root: Path, config: str | None = TRIPLE_LOWBAR) -> None:
    """A small Logseq graph of our own (no config: the same files as a plain vault)."""
    if config is not None:
        write(root, "logseq/config.edn", config)
    write(
        root,
        "pages/Tools___Trowel.md",
        "alias:: hand trowel, [[Small spade]]\ntags:: kit, [[garden tools]]\n"
        "type:: [[Tool]]\n\n- A short blade for [[Planting]]\n",
    )
    write(root, "pages/Planting.md", "- Dig with the [[Tools/Trowel]]\n")
    write(root, "pages/Spring%3F.md", "title:: When is spring?\n\n- Ask the [[small spade]]\n")
    write(
        root,
        "pages/Diary.md",
        "- see [[Mar 5th, 2024]], [[when is spring?]] and [[Tools/Trowel]]\n",
    )
    write(root, "journals/2024_03_05.md", "- beans, with the [[hand trowel]]\n")
    write(root, "logseq/bak/pages/Planting/2024-03-05T10_00_00.md", "- an old copy\n")


def brain_of(root: Path) -> Brain:
    return Brain(BundleSource(root), cache_dir=False)


def links(brain: Brain, slug: str) -> list[tuple[str, str, str]]:
    return [(link.target, link.to, link.rule) for link in brain.forward_links(slug)]


def test_links_reach_pages_by_the_names_logseq_gives_them(tmp_path: Path) -> None:
    garden(tmp_path)
    brain = brain_of(tmp_path)
    assert links(brain, "pages/Planting") == [("Tools/Trowel", "pages/Tools___Trowel", "title")]
    assert links(brain, "journals/2024_03_05") == [("hand trowel", "pages/Tools___Trowel", "alias")]
    assert links(brain, "pages/Diary") == [
        ("Mar 5th, 2024", "journals/2024_03_05", "title"),
        ("when is spring?", "pages/Spring%3F", "title"),
        ("Tools/Trowel", "pages/Tools___Trowel", "title"),
    ]
    assert links(brain, "pages/Spring%3F") == [("small spade", "pages/Tools___Trowel", "alias")]
    # the properties stay on the page, and their links stay links
    assert ("Tool", "Tool", "dangling") in links(brain, "pages/Tools___Trowel")
    # and a `tags::` property's values are pages, plain or written as links
    assert brain.dangling() == {
        "Tool": ["pages/Tools___Trowel"],
        "garden tools": ["pages/Tools___Trowel"],
        "kit": ["pages/Tools___Trowel"],
    }


def test_a_pages_title_aliases_and_tags_are_logseqs(tmp_path: Path) -> None:
    garden(tmp_path)
    source = BundleSource(tmp_path)
    page = source.get_page("pages/Tools___Trowel")
    assert (page.title, page.title_stated) == ("Tools/Trowel", True)
    assert page.tags == ("kit", "garden tools")
    assert page.info().aliases == ("hand trowel", "Small spade")
    assert page.content.startswith("alias:: hand trowel")  # the body as written
    index = brain_of(tmp_path).ensure_index()
    assert index.pages["pages/Tools___Trowel"] == page.info()
    assert index.pages["journals/2024_03_05"].title == "Mar 5th, 2024"
    assert index.pages["pages/Spring%3F"].title == "When is spring?"
    assert brain_of(tmp_path).resolve_slug("tools/trowel") == "pages/Tools___Trowel"


def test_logseqs_own_folder_holds_no_pages(tmp_path: Path) -> None:
    garden(tmp_path)
    slugs = [stub.slug for stub in BundleSource(tmp_path).enumerate()]
    assert slugs == [
        "journals/2024_03_05",
        "pages/Diary",
        "pages/Planting",
        "pages/Spring%3F",
        "pages/Tools___Trowel",
    ]


def test_every_way_of_reading_a_page_names_it_alike(tmp_path: Path, monkeypatch) -> None:
    """The scan's fast path, its general path (`pagefile.page_row`, for any file the fast
    path leaves) and the worker processes give the same rows."""
    garden(tmp_path)
    source = BundleSource(tmp_path)
    stubs = source.enumerate()
    naming = logseq_graph(str(tmp_path))
    fast = sorted(source.scan_rows(stubs))
    general = sorted(
        general_page_row(str(tmp_path), s.slug, s.fingerprint, None, naming) for s in stubs
    )
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 2)
    monkeypatch.setattr(parallel, "CHUNK_SIZE", 2)
    in_workers = sorted(source.scan_rows(stubs))
    assert fast == general == in_workers
    assert PageInfo.from_row(fast[-1][0]).title == "Tools/Trowel"


def test_a_folder_without_logseq_settings_is_a_vault_as_before(tmp_path: Path) -> None:
    """`key:: value` lines are Dataview's inline fields in an Obsidian vault: no names."""
    garden(tmp_path, config=None)
    brain = brain_of(tmp_path)
    assert links(brain, "pages/Planting") == [("Tools/Trowel", "Tools/Trowel", "dangling")]
    assert links(brain, "journals/2024_03_05") == [("hand trowel", "hand trowel", "dangling")]
    info = brain.ensure_index().pages["pages/Tools___Trowel"]
    assert (info.title, info.aliases, info.tags) == ("Tools___Trowel", (), ())
    assert "logseq/bak/pages/Planting/2024-03-05T10_00_00" in brain.ensure_index().pages


def test_a_legacy_graph_reads_dots_and_percent_signs(tmp_path: Path) -> None:
    """A graph whose settings state no `:file/name-format` writes names the old way; a
    commented-out setting is no setting."""
    garden(tmp_path, config="{;; :file/name-format :triple-lowbar\n :meta/version 1}\n")
    write(tmp_path, "pages/Seeds.Beans.md", "- [[Seeds/Beans]] and [[Seeds/Peas]]\n")
    write(tmp_path, "pages/Seeds%2FPeas.md", "- green\n")
    brain = brain_of(tmp_path)
    assert links(brain, "pages/Seeds.Beans") == [
        ("Seeds/Beans", "pages/Seeds.Beans", "title"),
        ("Seeds/Peas", "pages/Seeds%2FPeas", "title"),
    ]
    assert brain.ensure_index().pages["pages/Tools___Trowel"].title == "Tools___Trowel"


def test_journals_are_named_in_the_graphs_date_format(tmp_path: Path) -> None:
    config = TRIPLE_LOWBAR[:-2] + '\n :journal/page-title-format "yyyy-MM-dd EEE"}\n'
    garden(tmp_path, config=config)
    write(tmp_path, "pages/Log.md", "- [[2024-03-05 Tue]]\n")
    assert links(brain_of(tmp_path), "pages/Log") == [
        ("2024-03-05 Tue", "journals/2024_03_05", "title")
    ]
    day = datetime.date(2024, 3, 1)
    assert format_date(day, "MMM do, yyyy") == "Mar 1st, 2024"
    assert format_date(day, "EEEE, MMMM d 'of' yyyy") == "Friday, March 1 of 2024"
    assert format_date(datetime.date(2024, 3, 12), "do") == "12th"
    assert format_date(datetime.date(2024, 3, 22), "do") == "22nd"


def test_a_date_format_with_tokens_we_do_not_write_keeps_logseqs_default(tmp_path: Path) -> None:
    write(tmp_path, "logseq/config.edn", '{:journal/page-title-format "yyyy QQQ"}')
    assert logseq_graph(str(tmp_path)) == LogseqGraph("legacy", "MMM do, yyyy")


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("a, b", ("a", "b")),
        ("Block, [[Blocks]]", ("Block", "Blocks")),
        ("[[Smith, John]], #tag, #[[two words]], , a", ("Smith, John", "tag", "two words", "a")),
        ("", ()),
    ],
)
def test_a_propertys_value_is_read_as_logseq_writes_names(written: str, names: tuple) -> None:
    assert values(written) == names


def test_a_folder_that_becomes_a_graph_is_read_again(tmp_path: Path) -> None:
    """The index cache of a Logseq graph is its own: unchanged files are not taken
    from the cache of the plain vault the folder was."""
    vault, cache = tmp_path / "vault", tmp_path / "cache"
    garden(vault, config=None)
    before = Brain(BundleSource(vault), cache_dir=cache).ensure_index()
    assert before.pages["pages/Tools___Trowel"].title == "Tools___Trowel"
    write(vault, "logseq/config.edn", TRIPLE_LOWBAR)
    after = Brain(BundleSource(vault), cache_dir=cache).ensure_index()
    assert after.pages["pages/Tools___Trowel"].title == "Tools/Trowel"
    assert len(os.listdir(cache)) >= 2


TAGGED = (
    "- sow the peas #Planting and oil the #[[Tools/Trowel]].\n"
    "- ## Not a tag\n- `#code` is code, a#b is a word, [[Planting#Depth]] a heading\n"
)


def test_a_tag_is_a_link_in_a_logseq_graph(tmp_path: Path) -> None:
    """`#tag` and `#[[two words]]` link to their pages, as in Logseq; the sentence around
    such a link is found as for any other (a path's hop, a backlink)."""
    garden(tmp_path)
    write(tmp_path, "pages/Week.md", TAGGED)
    brain = brain_of(tmp_path)
    assert links(brain, "pages/Week") == [
        ("Planting", "pages/Planting", "basename"),
        ("Tools/Trowel", "pages/Tools___Trowel", "title"),
    ]
    [(_, hops)] = brain.explained_paths(PathQuery("pages/Week", "pages/Planting", k=1))
    assert hops[0].context == "sow the peas #Planting and oil the #Tools/Trowel."
    assert "[[Planting|#Planting]]" in brain.link_text("pages/Week")
    # `serve`'s link rows carry the same sentence
    reply = call_tool(brain, "get_backlinks", {"slug": "pages/Planting"})
    rows = [row for row in reply.value if row["from_slug"] == "pages/Week"]
    assert [row["context"] for row in rows] == ["sow the peas #Planting and oil the #Tools/Trowel."]


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("sow #garden.", "sow [[garden|#garden]]."),
        ("**Removal of #tags**: gone", "**Removal of [[tags|#tags]]**: gone"),
        ("_a #seed_, ~~an #old~~, ==a #new==", "_a [[seed|#seed]]_, ~~an [[old|#old]]~~, ==a"),
        ("learn #c++ today", "learn [[c++|#c++]] today"),
    ],
)
def test_a_tag_ends_before_the_emphasis_around_it(written: str, read: str) -> None:
    assert tags_as_links(written).startswith(read)


def test_a_tag_is_a_tag_in_any_other_folder(tmp_path: Path) -> None:
    garden(tmp_path, config=None)
    write(tmp_path, "pages/Week.md", TAGGED)
    brain = brain_of(tmp_path)
    # `#[[x]]` holds the link `[[x]]`, as Obsidian reads it; `#Planting` is no link
    assert links(brain, "pages/Week") == [
        ("Tools/Trowel", "Tools/Trowel", "dangling"),
        ("Planting", "pages/Planting", "basename"),
    ]
    assert brain.link_text("pages/Week") == TAGGED


WARNING = (
    "- #+BEGIN_WARNING\n  Water the beds before sowing\n  #+END_WARNING\n"
    "- Sow the peas\n  id:: 11111111-2222-3333-4444-555555555555\n"
    "  created-at:: 1609230242742\n  query-properties:: [:page :block]\n"
)


@pytest.mark.parametrize("logseq", [True, False])
def test_search_reads_a_logseq_page_as_logseq_shows_it(tmp_path: Path, logseq: bool) -> None:
    """What Logseq never shows (a block's `id::`, the marks around an admonition) is
    neither a hit nor a snippet's text; in any other folder it is text as written."""
    garden(tmp_path, config=TRIPLE_LOWBAR if logseq else None)
    write(tmp_path, "pages/Week.md", WARNING)
    search = brain_of(tmp_path).text_search()
    [hit] = [hit for hit in search.search("water beds") if hit.slug == "pages/Week"]
    assert ("BEGIN_WARNING" in hit.snippet) is not logseq
    assert bool(search.search("11111111")) is not logseq
    assert bool(search.search("1609230242742")) is not logseq  # Logseq hides `created-at::`
    assert bool(search.search("query properties")) is not logseq


def test_the_files_a_graph_hides_are_out_of_search(tmp_path: Path) -> None:
    """`:hidden` in the graph's settings: Logseq ignores those folders and files. Seen on
    Logseq's docs graph, which hides its `README.md`, `LICENSE.md` and `script` folder:
    they answered searches. Here they are excluded files (`core.excluded`): out of search,
    still pages a link reaches."""
    config = (
        ';; :hidden ["pages"] is a comment\n'
        '{:file/name-format :triple-lowbar\n :hidden ["script" "/archived" "README.md"]}\n'
    )
    garden(tmp_path, config)
    write(tmp_path, "README.md", "# About\n\nHow to hoe a furrow in this garden.\n")
    write(tmp_path, "script/hoe.md", "- hoe the furrows\n")
    write(tmp_path, "archived/Old rows.md", "- a furrow, as we dug it\n")
    write(tmp_path, "pages/Notes.md", "- one furrow a row; see [[README]]\n")
    assert logseq_graph(str(tmp_path)).hidden == ("script", "/archived", "README.md")
    brain = Brain(BundleSource(tmp_path), cache_dir=False)
    search = brain.text_search()
    assert sorted(hit.slug for hit in search.search("furrow")) == ["pages/Notes"]
    everything = sorted(hit.slug for hit in search.search("furrow", everything=True))
    assert everything == ["README", "archived/Old rows", "pages/Notes", "script/hoe"]
    assert brain.backlinks("README") == ["pages/Notes"]  # still a page a link reaches
    write(tmp_path / "bare", "logseq/config.edn", "{}")
    assert logseq_graph(str(tmp_path / "bare")) == LogseqGraph(file_format="legacy")
