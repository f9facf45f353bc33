"""The finder's text mode (`ctrl+f`, or `#` in the page finder): hits with snippets,
`enter` opens the page scrolled to the hit."""

from __future__ import annotations

import asyncio
import threading
import time
from functools import partial
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual import events
from textual.command import CommandList, CommandPalette
from textual.widgets import Input, Label

from okf_explorer.core.search import text_index
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui import finder
from okf_explorer.tui.app import make_app
from okf_explorer.tui.collector_at_rest import REST
from okf_explorer.tui.markdown import DrawnRows
from okf_explorer.tui.widgets.page import pane as page_pane
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_bundle

from .conftest import SIZE, brain_for, settle

FOUND_BACKGROUND = "#d19a66"
"""`FOUND_STYLE`'s background."""
FILLER = "\n\n".join(f"Paragraph {i} says nothing in particular." for i in range(80))
PAGES = {
    "index.md": "# Home\n\nSee [[long]].\n",
    "long.md": f"# Long\n\n{FILLER}\n\nAt the very end the zebracorn appears.\n",
    "other.md": "# Other\n\nNo striped animals here.\n",
}


def hits(app) -> list[str]:  # type: ignore[no-untyped-def]
    lists = app.screen.query(CommandList)
    if not lists:
        return []
    options = lists.first()
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def listed(app, slug: str) -> bool:  # type: ignore[no-untyped-def]
    return any(slug in hit for hit in hits(app))


def explorer(tmp_path: Path):  # type: ignore[no-untyped-def]
    """The explorer on `PAGES`, at their `index`."""
    return make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", PAGES))), start="index")


async def enter_opens(pilot, app, slug: str) -> None:  # type: ignore[no-untyped-def]
    """`enter`, then until the page pane shows `slug`."""
    await pilot.press("enter")
    pane = app.screen.query_one(PagePane)
    await settle(pilot, until=lambda: pane.slug == slug)


async def typed(pilot, opener: str, text: str) -> None:  # type: ignore[no-untyped-def]
    """Once the explorer has settled: `opener` (`slash`, `ctrl+f`), then `text` key by key."""
    await settle(pilot)
    await pilot.press(opener)
    await pilot.pause()
    await pilot.press(*text)


async def opened_at_hit(pilot, app, query: str, slug: str) -> PagePane:  # type: ignore[no-untyped-def]
    """`ctrl+f`, `query`, `enter` on the first hit (`slug`), then until the page has
    scrolled to the hit."""
    await typed(pilot, "ctrl+f", query)
    await settle(pilot, until=lambda: len(hits(app)) > 0)
    await enter_opens(pilot, app, slug)
    pane = app.screen.query_one(PagePane)
    await settle(pilot, until=lambda: pane.shown is not None and pane.scroll_y > 0)
    return pane


async def test_ctrl_f_finds_text_and_opens_the_page_at_the_hit(tmp_path: Path) -> None:
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert CommandPalette.is_open(app)
        await pilot.press(*"zebracorn")
        await settle(pilot, until=lambda: len(hits(app)) > 0)
        assert "long" in hits(app)[0]
        await pilot.press("enter")
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None and pane.slug == "long")
        await settle(pilot, until=lambda: pane.scroll_y > 0)
        assert pane.scroll_y > 0  # scrolled down to the hit, not left at the top
        top, height = pane.scroll_y, pane.scrollable_content_region.height
        assert top + height >= pane.max_scroll_y  # the end of the page is in view


async def test_the_jump_goes_to_the_line_holding_most_of_the_words_searched(
    tmp_path: Path,
) -> None:
    """Obsidian Tasks' docs: `ctrl+f javascript operator` found `Combining Filters`, its
    snippet at the table of `Task operator | JavaScript operator`, and the page opened at
    its fifth line, the first to hold one of the words (`boolean operators`). The jump goes
    to the first line holding the most of them, as the snippet does."""
    page = (
        "# Combining\n\nJoin filters with boolean operators.\n\n"
        f"{FILLER}\n\n| Task operator | JavaScript operator |\n| --- | --- |\n"
        "| `OR` | `\\|\\|` |\n"
    )
    pages = {"index.md": "# Home\n\nSee [[combining]].\n", "combining.md": page}
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="index")
    async with app.run_test(size=SIZE) as pilot:
        pane = await opened_at_hit(pilot, app, "javascript operator", "combining")
        assert pane.scroll_y + pane.scrollable_content_region.height >= pane.max_scroll_y
        # every word searched is shown where it is, as a browser's find shows it
        assert found_text(pane) == ["operators", "operator", "JavaScript", "operator"]


async def test_the_jump_reads_a_line_with_the_one_after_it(tmp_path: Path) -> None:
    """The words searched stood on two rows (a sentence wrapped, a line break): each row
    held one, so the jump went to the first row holding any (`operator`, at the top)."""
    page = (
        "# Combining\n\nJoin filters with an operator.\n\n"
        f"{FILLER}\n\nWritten in JavaScript  \noperator by operator.\n"
    )
    pages = {"index.md": "# Home\n\nSee [[combining]].\n", "combining.md": page}
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="index")
    async with app.run_test(size=SIZE) as pilot:
        pane = await opened_at_hit(pilot, app, "javascript operator", "combining")
        assert pane.scroll_y + pane.scrollable_content_region.height >= pane.max_scroll_y


async def test_the_words_found_are_shown_in_a_wide_code_block_too(tmp_path: Path) -> None:
    """A code block wider than the pane scrolls sideways in a box of its own
    (`WideFence`): the words a search found were shown in the prose around it only."""
    code = "roaster.stop_batch(batch_id, reason=StopReason.OVERHEAT)  # when the drum is hot"
    page = f"# Guard\n\n{FILLER}\n\nThe drum guard:\n\n```python\n{code}\n```\n"
    pages = {"index.md": "# Home\n\nSee [[guard]].\n", "guard.md": page}
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", pages))), start="index")
    async with app.run_test(size=SIZE) as pilot:
        pane = await opened_at_hit(pilot, app, "overheat", "guard")
        assert found_text(pane) == ["OVERHEAT"]


def found_text(pane: PagePane) -> list[str]:
    """The words drawn in the style of what a search found, in reading order."""
    words = []
    for rows in pane.query(DrawnRows):
        for y in range(rows.size.height):
            strip = rows.render_line(y)
            words += [
                segment.text
                for segment in strip
                if segment.style is not None
                and segment.style.bgcolor is not None
                and segment.style.bgcolor.triplet is not None
                and segment.style.bgcolor.triplet.hex == FOUND_BACKGROUND
            ]
    return words


async def test_hash_in_the_page_finder_searches_text(tmp_path: Path) -> None:
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await typed(pilot, "slash", "#striped")
        await settle(pilot, until=lambda: any("other" in hit for hit in hits(app)))
        await enter_opens(pilot, app, "other")


async def test_bad_syntax_is_one_line_not_a_crash(tmp_path: Path) -> None:
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await typed(pilot, "ctrl+f", '"zebra')
        await settle(pilot, until=lambda: len(hits(app)) > 0)
        assert "bad search syntax" in hits(app)[0]


async def test_a_query_past_the_caps_notifies_and_finds_nothing(tmp_path: Path) -> None:
    """Issue 22 item 5: a pasted query of thousands of words is refused at once (a
    notification, and one line in the palette), not searched for seconds."""
    from textual.command import CommandInput

    from okf_explorer.core.search.query import MAX_QUERY_BYTES

    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+f")
        await pilot.pause()
        app.screen.query_one(CommandInput).value = " ".join(["zebracorn"] * 4000)
        await settle(pilot, until=lambda: len(hits(app)) > 0)
        assert "too long" in hits(app)[0]
        messages = [n.message for n in app._notifications]
        assert len(messages) == 1 and f"at most {MAX_QUERY_BYTES}" in messages[0]
        await pilot.press("space")  # the same refusal again: no second notification
        await settle(pilot)
        assert len(app._notifications) == 1


async def test_ctrl_f_reads_the_text_while_the_query_is_typed(tmp_path: Path) -> None:
    """Opening the text finder fills the text index at once, in a thread, so the first
    search does not wait for every body to be read after the query is typed (on a
    5.7k-page bundle the first search waited about 2 s, the palette busy)."""
    brain = brain_for(BundleSource(write_bundle(tmp_path / "b", PAGES)))
    app = make_app(brain, start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not brain.text_search().filled  # nothing searched yet: nothing read
        await pilot.press("ctrl+f")
        await settle(pilot)  # nothing typed
        assert brain.text_search().filled


async def test_the_word_embeddings_load_while_the_person_reads_not_while_keys_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The embeddings a search ranks with load in a thread once no key has come for
    `REST` seconds, so the first `ctrl+f` waits for nothing (it took 0.2 s loading them):
    never between keys pressed one after another."""
    brain = brain_for(BundleSource(write_bundle(tmp_path / "b", PAGES)))
    search = brain.text_search()
    loads: list[float] = []

    def note_the_load(load=search.prepare_meaning) -> None:  # type: ignore[no-untyped-def]
        loads.append(time.monotonic())
        load()

    monkeypatch.setattr(search, "prepare_meaning", note_the_load)
    app = make_app(brain, start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, until=lambda: app.screen.loader.ready)
        pressed: list[float] = []
        for _ in range(12):  # 0.6 s of keys, twice the rest
            await pilot.press("down")
            pressed.append(time.monotonic())
            await asyncio.sleep(0.05)
        await settle(pilot, until=lambda: bool(loads))
        await settle(pilot)
    assert len(loads) == 1  # once a session
    before = [at for at in pressed if at < loads[0]]
    assert before and loads[0] - before[-1] >= REST  # after a rest, never between keys


@pytest.mark.parametrize(("notice_at", "told"), [(3, True), (4, False)])
async def test_a_long_first_fill_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, notice_at: int, told: bool
) -> None:
    """On a 35k-page wiki the first `ctrl+f` read the pages for 20-35 s over a blank list:
    a fill of `FILL_NOTICE_PAGES` pages or more says it has started and that the first
    search waits for it, the status line how far it is; a shorter one says nothing (here
    3 pages). Its end is no second toast: beside the first, still up, it read "…the first
    search waits for it" and "Full-text search is ready." at once."""
    monkeypatch.setattr(finder, "FILL_NOTICE_PAGES", notice_at)
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+f")
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        if told:
            assert messages == [
                "Reading 3 pages for full-text search and mentions, once: the first search"
                " waits for it."
            ]
        else:
            assert messages == []
        await pilot.press("escape", "ctrl+f")  # filled: nothing more to say
        await settle(pilot)
        assert len(app._notifications) == len(messages)


async def test_the_empty_list_says_how_far_a_long_first_fill_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 35k-page wiki's first `ctrl+f` showed a blank list while the pages were read (a
    toast only): the list itself says so and how far the fill is, as it goes, and the row
    goes when it is done, nothing typed (what may be typed is listed then). The bodies
    come only when the test lets them (a slow disk, on demand): the first, then the rest."""
    monkeypatch.setattr(finder, "FILL_NOTICE_PAGES", 3)
    monkeypatch.setattr(text_index, "PROGRESS_STEP", 1)
    source = BundleSource(write_bundle(tmp_path / "b", PAGES))
    first, rest = threading.Event(), threading.Event()
    read_bodies = source.map_bodies

    def slow_disk(*args, **kwargs):  # type: ignore[no-untyped-def]
        first.wait(20)
        rows = read_bodies(*args, **kwargs)
        yield next(rows)
        rest.wait(20)
        yield from rows

    monkeypatch.setattr(source, "map_bodies", slow_disk)
    brain = brain_for(source)
    app = make_app(brain, start="other")  # no name another page says: no mentions to fill

    def row(read: int) -> list[str]:
        return [
            f"Reading 3 pages for full-text search, once: {read} read\n"
            "a search typed now waits for it, then shows its hits"
        ]

    async with app.run_test(size=SIZE) as pilot:
        try:
            await settle(pilot)
            assert brain.text_search().reading == finder.NOT_BEGUN  # due, not begun
            await pilot.press("ctrl+f")
            await settle(pilot, until=lambda: bool(hits(app)))
            assert hits(app) == row(0)
            first.set()
            await settle(pilot, until=lambda: hits(app) == row(1))
            await settle(pilot, until=lambda: reading(app) == "reading text 1/3 ·")
        finally:
            first.set()
            rest.set()
        await settle(pilot, lambda: brain.text_search().filled and reading(app) is None)
        syntax_only = [f"{finder.SYNTAX_ROW}\n{finder.SYNTAX_HELP}"]
        await settle(pilot, lambda: brain.text_search().filled and hits(app) == syntax_only)
        assert brain.text_search().reading is None  # nothing to wait for
        assert app.screen.query_one(Input).value == ""


async def test_ctrl_f_with_nothing_typed_says_what_may_be_typed(tmp_path: Path) -> None:
    """`ctrl+f` with a filled index listed nothing before anything was typed, and Textual's
    palette stays hidden until its providers have listed: with no row at all it noticed
    their end at its next 0.1 s look, so `ctrl+f` came 120-135 ms after the key against
    `/`'s 25-40 (`tests/bench/bench_keys.py`). Its one row says what may be typed."""
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+f")
        await settle(pilot)  # the text index filled
        assert hits(app) == [f"{finder.SYNTAX_ROW}\n{finder.SYNTAX_HELP}"]
        await pilot.press("enter")  # the row opens nothing: the palette closes
        await settle(pilot)
        assert not CommandPalette.is_open(app)


async def test_ctrl_f_lists_the_searches_that_opened_a_page_and_enter_searches_again(
    tmp_path: Path,
) -> None:
    """Before anything is typed, `ctrl+f` lists this session's searches that opened a
    page, the latest first, each once; `enter` searches the latest again (its hits
    listed, as typed)."""
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        for query, slug in (("zebracorn", "long"), ("striped", "other"), ("zebracorn", "long")):
            await typed(pilot, "ctrl+f", query)
            await settle(pilot, until=partial(listed, app, slug))
            await enter_opens(pilot, app, slug)
        await typed(pilot, "ctrl+f", "")
        await settle(pilot, until=lambda: len(hits(app)) == 3)
        assert [hit.split("\n")[0] for hit in hits(app)] == [
            "zebracorn",
            "striped",
            finder.SYNTAX_ROW,
        ]
        await pilot.press("enter")
        await settle(pilot, until=lambda: any("long" in hit for hit in hits(app)))
        assert app.screen.query_one(Input).value == "zebracorn"
        await enter_opens(pilot, app, "long")


def test_recent_searches_keep_the_latest_first_each_once_and_so_many() -> None:
    searches = finder.RecentSearches()
    for query in ("a", " b ", "", "a", *(f"q{i}" for i in range(20))):
        searches.add(query)
    assert len(searches.queries) == finder.RECENT_SEARCH_LIMIT
    assert searches.queries[:2] == ["q19", "q18"]
    searches.add("q15")
    assert searches.queries[:2] == ["q15", "q19"]
    assert searches.queries.count("q15") == 1


def reading(app) -> str | None:  # type: ignore[no-untyped-def]
    """What the status line says of a text index fill (None: nothing, not shown)."""
    main = next(screen for screen in app.screen_stack if screen.query("#status-reading"))
    label = main.query_one("#status-reading", Label)
    return str(label.content) if label.has_class("shown") else None


async def test_a_long_first_fill_for_mentions_says_so_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 35k-page wiki: the first page opened with a name to look for read 16k pages into
    the text index for its Mentions, 12-60 s of work nothing on screen told of."""
    monkeypatch.setattr(finder, "FILL_NOTICE_PAGES", 3)
    pages = {
        "zebracorn.md": "# Zebracorn\n\nA striped horse.\n",
        "notes/a.md": "A zebracorn was seen.\n",
        "notes/b.md": "Nothing here.\n",
    }
    brain = brain_for(BundleSource(write_bundle(tmp_path / "b", pages)))
    app = make_app(brain, start="zebracorn")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: brain.text_search().filled)
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert len(messages) == 1
        assert messages[0].startswith("Reading 3 pages for full-text search and mentions")
        assert reading(app) is None  # done: the status line says nothing more of it


CHINESE = {
    "index.md": "# 首页\n\n见 [[notes]]。\n",
    "notes.md": (
        "# 同步笔记\n\nObsidian 将笔记存储在本地设备上，因此即使在离线状态下也能随时访问。"
        "如果需要在多台设备上访问笔记，则需要设置同步服务。\n"
    ),
}


def list_rows(app) -> list[str]:  # type: ignore[no-untyped-def]
    options = app.screen.query_one(CommandList)
    height = options.scrollable_content_region.height
    return [options.render_line(y).text.rstrip() for y in range(height)]


@pytest.mark.parametrize("pasted", [False, True], ids=["typed", "pasted"])
async def test_a_chinese_snippet_wraps_between_its_characters_not_after_a_latin_word(
    tmp_path: Path, pasted: bool
) -> None:
    """Textual wraps at spaces only: the run of Chinese after `Obsidian` went whole to the
    next row, `Obsidian` alone on its own. Pasted, the query's one search comes before the
    palette's list was ever laid out."""
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", CHINESE))), start="index")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+f")
        await pilot.pause()
        if pasted:
            app.screen.query_one(Input).post_message(events.Paste("同步"))
        else:
            await pilot.press(*"同步")
        await settle(pilot, until=lambda: len(hits(app)) > 0)
        await pilot.pause()
        rows = [row.strip() for row in list_rows(app) if row.strip()]
        assert rows[0] == "notes  同步笔记"
        assert rows[1].startswith("Obsidian 将笔记存储在本地设备上")
        assert all(cell_len(row) <= 76 for row in rows)
        snippet = "".join(rows[1:]).replace(" ", "")  # cut by FTS5 after so many words
        assert snippet == (
            "Obsidian将笔记存储在本地设备上，因此即使在离线状态下也能随时访问。"
            "如果需要在多台设备上访问笔记，则需要设置同…"
        )


async def test_a_name_no_page_has_is_offered_as_a_text_search(tmp_path: Path) -> None:
    """`/` then words no page is called: not "No matches found" (a dead end, seen with
    Chinese words on a wiki whose titles are English), but one entry whose `enter` opens
    the text finder with them typed, and its hit opens the page holding them."""
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await typed(pilot, "slash", "zebracorn")
        await settle(pilot, until=lambda: len(hits(app)) > 0)
        assert [hit.splitlines()[0] for hit in hits(app)] == ["Search the text for zebracorn"]
        await pilot.press("enter")
        await settle(pilot, until=lambda: any("long" in hit for hit in hits(app)))
        assert app.screen.query_one(Input).value == "zebracorn"
        await enter_opens(pilot, app, "long")


@pytest.mark.parametrize("query", ["other", "oth", "the"])
async def test_a_name_some_page_has_is_not_offered_as_a_text_search(
    tmp_path: Path, query: str
) -> None:
    """A name that is the query, starts with it or holds it: the names alone."""
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await typed(pilot, "slash", query)
        await settle(pilot, until=lambda: len(hits(app)) > 0)
        assert not any("Search the text" in hit for hit in hits(app))


async def test_a_name_matched_only_loosely_is_offered_as_a_text_search_after_it(
    tmp_path: Path,
) -> None:
    """`kerberos` in a vault with no page of that name but ninety mentioning it listed
    `Kerberoasting` and `Raspberry Pi OS` (letters in order) and nothing else: the names
    matched so come first, then the text search."""
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await typed(pilot, "slash", "oter")
        await settle(pilot, until=lambda: len(hits(app)) > 1)
        assert [hit.splitlines()[0] for hit in hits(app)] == [
            "other  Other",
            "Search the text for oter",
        ]


LONG_NAMES = {
    "index.md": "# Home\n\n[[reference/directory/configure-certificate-enrollment-web-service]]\n",
    "reference/directory/configure-certificate-enrollment-web-service.md": (
        "# Configure the Certificate Enrollment Web Service role service in Windows Server\n\n"
        "The enrollment service hands out certificates over the web.\n"
    ),
    "reference/directory/enrollment.md": "# Enrollment\n\nEnrollment, in short.\n",
    "reference/directory/a-very-long-file-name-about-enrollment-that-runs-past-the-row.md": (
        "# Enrollment past the row\n\nEnrollment again.\n"
    ),
}


@pytest.mark.parametrize("opener", ["ctrl+f", "slash"])
async def test_each_hit_names_its_page_on_one_row(tmp_path: Path, opener: str) -> None:
    """A 35k-page wiki's long names and titles wrapped onto a second row at 80 columns:
    hits of three and four rows, each its own height. The first row is cut to the list's
    width: the title shortened while a few of its letters fit, else the name alone."""
    root = write_bundle(tmp_path / "b", LONG_NAMES)
    app = make_app(brain_for(BundleSource(root)), start="index")
    async with app.run_test(size=(80, 24)) as pilot:
        await typed(pilot, opener, "enrollment")
        await settle(pilot, until=lambda: len(hits(app)) >= 3)
        width = finder.snippet_width(app.screen)
        assert width is not None
        rows = [hit.split("\n")[0] for hit in hits(app)]
        assert all(cell_len(row) <= width for row in rows), rows
        assert any(row.endswith("…") and "web-service  Config" in row for row in rows), rows
        assert any(row.startswith("a-very-long") or "/a-very-long" in row for row in rows)


ISSUES = {
    "index.md": "# Kueue\n\n[[issue-804]] and [[issue-1874]].\n",
    "raw/github/kubernetes-sigs__kueue/issue-804.md": (
        "# Issue #804: Concurrent preemption within cohort\n\nOver-admission follows.\n"
    ),
    "raw/github/kubernetes-sigs__kueue/issue-1874.md": (
        "# Issue #1874: Reclaim within cohort\n\nPreemption with borrowing.\n"
    ),
}


async def test_a_hit_s_folders_give_way_to_its_title_at_80_columns(tmp_path: Path) -> None:
    """An agent's wiki of scraped issues at 80×24: every text hit read
    `raw/github/kubernetes-sigs__kueue/issue-804  Issue #804: Concurrent preem…`. The
    folders are cut from the left as far as the title needs, never the file name."""
    root = write_bundle(tmp_path / "b", ISSUES)
    app = make_app(brain_for(BundleSource(root)), start="index")
    async with app.run_test(size=(80, 24)) as pilot:
        await typed(pilot, "ctrl+f", "preemption within cohort")
        await settle(pilot, until=lambda: len(hits(app)) >= 1)
        rows = [hit.split("\n")[0] for hit in hits(app)]
        assert any(
            row.startswith("…/")
            and "issue-804  Issue #804: Concurrent preemption within cohort" in row
            for row in rows
        ), rows
    assert finder.hit_name("a/b/issue-1", "Title", None) == "a/b/issue-1"  # no width: whole
    assert finder.hit_name("a/b/issue-1", "Title", 40) == "a/b/issue-1"  # fits: whole
    cut = finder.hit_name("a/b/issue-1", "A title far longer than the row", 30)
    assert cut == "…/issue-1"  # never past the file name


async def test_a_hit_past_a_long_page_s_first_screen_is_scrolled_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page longer than `LONG_CHARS` shows a first screen, then the rest of its part;
    the hit, past that first screen, was not yet drawn when the jump looked for it, and
    the page stayed at its top. A hit asked for draws the whole first part at once."""
    monkeypatch.setattr(page_pane, "LONG_CHARS", 2_000)
    monkeypatch.setattr(page_pane, "FIRST_SCREEN_CHARS", 1_000)
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        pane = await opened_at_hit(pilot, app, "zebracorn", "long")
        assert pane.scroll_y > 0 and pane.end == len(pane.page.content)  # drawn whole
        assert pane.scroll_y + pane.scrollable_content_region.height >= pane.max_scroll_y
