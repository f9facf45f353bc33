"""The finder (`/`) ranks the obvious answer first, shows title and folder, and says
"Find a page"."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from textual import events
from textual.command import CommandInput, CommandList, CommandPalette

from okf_explorer.core.brain import Brain
from okf_explorer.core.search.find_rank import Findable, NameRanker, rank_pages
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.finder import ENTER_WAIT_STEP, FinderDialog
from okf_explorer.tui.finder import DISCOVERY_LIMIT, FIND_PROMPT
from okf_explorer.tui.screens.main import MainScreen
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_pages

from .conftest import brain_for, settle


def options(app) -> list[str]:  # type: ignore[no-untyped-def]
    commands = app.screen.query_one(CommandList)
    return [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]


@pytest.mark.parametrize("size", [(80, 24), (150, 45)])
async def test_orders_puts_tables_orders_first(sample_brain: Path, size: tuple[int, int]) -> None:
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.pause()
        assert CommandPalette.is_open(app)
        assert app.screen.query_one(CommandInput).placeholder == FIND_PROMPT == "Find a page…"
        await pilot.press(*"orders")
        await settle(pilot, lambda: len(options(app)) >= 5)
        first, second = options(app)[:2]
        assert first.startswith("orders  analytics.orders")
        assert "tables/ · file name exact" in first
        assert "glossary/" in second
        assert "adr-001-one-orders-table" not in "".join(options(app)[:5])
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen.query_one(PagePane).slug == "tables/orders")


async def test_a_path_the_resolver_knows_comes_first(sample_brain: Path) -> None:
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*"/tables/stores.md")
        await settle(pilot, lambda: len(options(app)) >= 1)
        assert "what the name resolves to" in options(app)[0]
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen.query_one(PagePane).slug == "tables/stores")


async def test_the_empty_finder_lists_recent_pages_then_hubs(sample_brain: Path) -> None:
    """Before anything is typed: where the reader has been (latest first, the page shown
    now left out), then the pages with most backlinks, not the alphabet."""
    app = make_app(brain_for(BundleSource(sample_brain)), start="tables/stores", watch_files=False)
    async with app.run_test(size=(150, 45)) as pilot:
        await settle(pilot)
        for slug in ("tables/orders", "glossary/revenue", "metrics/revenue"):
            app.screen.open_page(slug)
            await settle(pilot, lambda slug=slug: app.screen.query_one(PagePane).slug == slug)
        await pilot.press("slash")
        await settle(pilot, lambda: len(options(app)) >= 8)
        shown = [option.split("\n")[0].split()[0] for option in options(app)]
        assert shown[:3] == ["glossary/revenue", "tables/orders", "tables/stores"]
        assert "recent" in options(app)[0]
        # then the hubs, most backlinks first, each page once
        # (metrics/revenue, 17 backlinks, is the page shown; tables/orders, 34, was recent)
        assert shown[3:7] == [
            "pipelines/orders_daily",
            "tables/order_items",
            "pipelines/customer_dedup",
            "teams/data-platform",
        ]
        assert "14 backlinks" in options(app)[3]
        assert len(shown) == len(set(shown))


async def test_the_empty_finder_offers_the_first_fifty(tmp_path: Path) -> None:
    """A big brain's empty finder lists 50 pages, the most linked-to first: Textual
    measures every listed option as the finder opens (200 cost obsidian-hub's `/` 18 ms);
    every page is one keystroke away by name, or in the page tree (`f`)."""
    pages = {f"p{n:03}": "".join(f"[[p{k:03}]] " for k in range(n % 7)) for n in range(120)}
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", pages))), start="p000")
    async with app.run_test(size=(150, 45)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await settle(pilot, lambda: len(options(app)) >= 50)
        await settle(pilot)
        shown = [option.split("\n")[0].split()[0] for option in options(app)]
        assert len(shown) == DISCOVERY_LIMIT == 50
        assert "backlinks" in options(app)[0]  # hubs first: nothing was visited before
        await pilot.press(*"p119")
        await settle(pilot, lambda: bool(options(app)) and options(app)[0].startswith("p119"))


async def test_typing_never_piles_up_rankings(
    sample_brain: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a 35k-page vault a ranking takes 150-500 ms in a thread that cannot be stopped:
    `fsmo-roles` typed at 80 ms a key ranked every prefix, several at once, and the
    last hits came about 2 s after the last key. Now one ranking runs at a time, and after
    it only the latest query (keys here 50 ms apart, each ranking made to take 0.2 s)."""
    ranked: list[str] = []
    running: list[str] = []

    def slow(self, query, pages, limit=None):  # type: ignore[no-untyped-def]
        running.append(query)
        assert len(running) == 1, running  # never two at once
        time.sleep(0.2)
        ranked.append(query)
        running.remove(query)
        return rank_pages(query, pages, limit)

    monkeypatch.setattr(NameRanker, "rank", slow)
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await settle(pilot, lambda: CommandPalette.is_open(app))
        palette_input = app.screen.query_one(CommandInput)
        for char in "orders":  # as a person types: the keys do not wait for the app
            palette_input.post_message(events.Key(char, char))
            await asyncio.sleep(0.05)
        await settle(pilot, lambda: bool(ranked) and ranked[-1] == "orders" and options(app))
        assert ranked[0] == "o" and len(ranked) <= 3, ranked
        assert options(app)[0].startswith("orders  analytics.orders")


def slow_ranking(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The queries (added to the set returned) whose page ranking takes 0.3 s more: a
    search still running when `enter` comes."""
    slow_for: set[str] = set()
    rank = NameRanker.rank

    def slow(self, query, pages, limit=None):  # type: ignore[no-untyped-def]
        if query in slow_for:
            time.sleep(0.3)
        return rank(self, query, pages, limit)

    monkeypatch.setattr(NameRanker, "rank", slow)
    return slow_for


async def test_enter_during_a_search_opens_the_best_hit_of_what_is_typed(
    sample_brain: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`enter` right after the last key took the top of the list the key before had
    left (or nothing, the palette staying open): `order` then `s` and `enter` opened
    the glossary's *Order*, not `tables/orders`."""
    slow_for = slow_ranking(monkeypatch)
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"order")
        await settle(pilot, lambda: bool(options(app)) and options(app)[0].startswith("order"))
        assert "glossary/" in options(app)[0]
        slow_for.add("orders")
        await pilot.press("s", "enter")
        await settle(pilot, lambda: not CommandPalette.is_open(app))
        await settle(pilot)
        assert app.screen.query_one(PagePane).slug == "tables/orders"


async def test_a_late_tick_of_the_enter_wait_opens_nothing_more(
    sample_brain: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual's interval timer may tick once more after it is stopped (its sleep skips
    waits under 0.5 ms, so on a loaded machine the cancel lands a tick late). Such a tick
    selected the hit a second time; the palette dismissed twice and the second closed the
    main screen (the `NoMatches: PagePane` flake). Here every tick of the wait runs twice."""
    slow_for = slow_ranking(monkeypatch)
    every = FinderDialog.set_interval

    def ticking_twice(self, interval, callback=None, **options):  # type: ignore[no-untyped-def]
        if interval == ENTER_WAIT_STEP and callback is not None:
            tick = callback

            def callback() -> None:
                tick()
                tick()

        return every(self, interval, callback, **options)

    monkeypatch.setattr(FinderDialog, "set_interval", ticking_twice)
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"order")
        await settle(pilot, lambda: bool(options(app)) and options(app)[0].startswith("order"))
        slow_for.add("orders")
        await pilot.press("s", "enter")
        await settle(pilot, lambda: not CommandPalette.is_open(app))
        await settle(pilot)
        assert isinstance(app.screen, MainScreen), app.screen_stack
        assert app.screen.query_one(PagePane).slug == "tables/orders"


async def test_enter_on_a_hit_moved_to_opens_that_hit(sample_brain: Path) -> None:
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"orders")
        await settle(pilot, lambda: len(options(app)) >= 2)
        await pilot.press("down", "enter")
        await settle(pilot, lambda: not CommandPalette.is_open(app))
        await settle(pilot)
        assert app.screen.query_one(PagePane).slug == "glossary/orders"


async def test_the_finder_offers_pages_only_never_textuals_system_commands(
    sample_brain: Path,
) -> None:
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for query in ("quit", "theme", "keys", "screenshot"):
            await pilot.press("slash", *query)
            await settle(pilot)
            assert not any(
                word in line.lower()
                for line in options(app)
                for word in ("quit the application", "change theme", "save screenshot")
            ), options(app)
            await pilot.press("escape")
            await settle(pilot, lambda: not CommandPalette.is_open(app))


async def test_enter_with_no_hit_keeps_the_finder_open(sample_brain: Path) -> None:
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"zzqqxx", "enter")
        await settle(pilot)
        assert CommandPalette.is_open(app)
        await pilot.press("escape", "escape")
        await settle(pilot, lambda: not CommandPalette.is_open(app))
        assert app.screen.query_one(PagePane).slug == "index"


async def test_a_hit_beside_the_scrollbar_keeps_its_where_and_why(tmp_path: Path) -> None:
    """At 80 columns a hit whose name and title fill the line without the list's scrollbar
    keeps its title on its row once the scrollbar comes, cut short, and its folder and
    reason on the next (it wrapped, and Textual, which counted its lines before the
    scrollbar, drew two of three)."""
    title = "Опционные Греки, Волатильность и Хеджирование"  # 45 cells
    pages = {f"finance/option-{n:02}": f"# Option {n}\n" for n in range(30)}
    pages["finance/option-greeks-and-volatility"] = f"# {title}\n"
    app = make_app(brain_for(BundleSource(write_pages(tmp_path, pages))), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*"option")
        await settle(pilot, lambda: len(options(app)) >= 31)
        commands = app.screen.query_one(CommandList)
        assert commands.show_vertical_scrollbar
        at = next(i for i, text in enumerate(options(app)) if "greeks" in text)
        commands.highlighted = at  # scrolled into view
        await settle(pilot)
        drawn = [strip.text for strip in commands.render_lines(commands.region.reset_offset)]
        start = next(i for i, line in enumerate(drawn) if "option-greeks-and-volatility" in line)
        assert f"option-greeks-and-volatility  {title[:20]}" in drawn[start]
        assert drawn[start].rstrip().endswith("…")  # cut short: 45 cells do not fit
        assert "finance/ · file name prefix" in drawn[start + 1]


async def test_the_pages_a_vault_excludes_come_last_and_say_so(tmp_path: Path) -> None:
    """Obsidian's "Excluded files" make a page "less noticeable" in its Quick Switcher:
    here it comes after every other match, and says why."""
    root = write_pages(
        tmp_path / "wiki",
        {
            "_sources/recycle-bin": "# Recycle Bin\n",
            "_sources/recycle-bin-2": "# Recycle Bin\n",
            "entities/bin-recycling": "# Recycling bins\n\n[[recycle-bin]] [[recycle-bin-2]]\n",
        },
    )
    (root / ".obsidian").mkdir()
    (root / ".obsidian" / "app.json").write_text('{"userIgnoreFilters": ["_sources/"]}')
    app = make_app(brain_for(BundleSource(root)), watch_files=False)
    async with app.run_test(size=(150, 45)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*"recycl")
        await settle(pilot, lambda: len(options(app)) >= 3)
        shown = options(app)
        assert shown[0].startswith("bin-recycling")
        assert "excluded in the vault's settings" not in shown[0]
        assert all("excluded in the vault's settings" in option for option in shown[1:3])


async def test_the_finder_s_names_are_read_with_the_index_not_at_the_first_slash(
    sample_brain: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The names of a 14k-page wiki take 85 ms to read: the index build reads them, so the
    first `/` lists at once."""
    made: list[str] = []
    original = Brain.findables

    def counted(brain: Brain) -> list[Findable]:
        found = original(brain)
        made.extend(page.slug for page in found)
        return found

    monkeypatch.setattr(Brain, "findables", counted)
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, until=lambda: app.screen.loader.ready)
        read_with_the_index = len(made)
        assert read_with_the_index == len(app.screen.loader.pages)
        await pilot.press("slash")
        await settle(pilot, until=lambda: len(options(app)) > 0)
        await pilot.press(*"orders")
        await settle(pilot, until=lambda: "orders" in options(app)[0])
    assert len(made) == read_with_the_index  # nothing read again


@pytest.mark.parametrize("opener", [("slash", "/"), ("ctrl+f", None)])
async def test_letters_typed_in_one_burst_with_the_opening_key_are_typed_into_the_finder(
    sample_brain: Path, opener: tuple[str, str | None]
) -> None:
    """Found by pasting `/refund` into tmux: the finder opened empty. Keys that come
    before the finder has its focus (typed ahead while the app is busy, or in one burst)
    went to the screen under it, then found no binding, and were lost."""
    app = make_app(brain_for(BundleSource(sample_brain)), watch_files=False)
    async with app.run_test(size=(150, 45)) as pilot:
        await settle(pilot)
        assert app._driver is not None
        key, character = opener
        for pressed in [events.Key(key, character), *(events.Key(c, c) for c in "refund")]:
            pressed.set_sender(app)
            app._driver.send_message(pressed)  # one burst: no wait between the keys
        await settle(pilot, lambda: CommandPalette.is_open(app))
        await settle(pilot, lambda: app.screen.query_one(CommandInput).value == "refund")
        typed = app.screen.query_one(CommandInput)
        assert typed.cursor_position == len("refund")
        assert app.screen.focused is typed
