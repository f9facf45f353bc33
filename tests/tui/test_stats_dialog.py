"""`s`: the stats dialog, driven with real keys on the sample brain."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual.widgets import OptionList, Static

from okf_explorer.core.errors import SourceUnavailable
from okf_explorer.core.graph.analysis import BrainStats, LookAlike
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.stats import CutLine, StatsDialog, stats_rows
from okf_explorer.tui.screens.main import MainScreen
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SIZE, GatedSource, brain_for, settle


def lines(dialog: StatsDialog) -> list[str]:
    """The list's lines whole, as the CLI prints them (it shows them cut to its width)."""
    assert dialog.query_one(OptionList).option_count == len(dialog.rows)
    return [str(line) for line, _ in dialog.rows]


def stats_lines(dialog: StatsDialog) -> list[str]:
    """The stats' own lines: the communities and bridges come after them, when computed
    (tests/tui/test_graph_shape.py)."""
    shown = lines(dialog)
    cut = next((i for i, line in enumerate(shown) if line.startswith("communities (")), None)
    return shown[:cut]


async def open_stats(pilot) -> StatsDialog:  # type: ignore[no-untyped-def]
    app = pilot.app
    await pilot.press("s")
    await settle(pilot, until=lambda: isinstance(app.screen, StatsDialog) and app.screen.stats)
    return app.screen


async def test_s_shows_the_stats_and_enter_opens_an_orphan(sample_brain: Path) -> None:
    app = make_app(brain_for(BundleSource(sample_brain)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = await open_stats(pilot)
        counts = str(dialog.query_one("#stats-counts", Static).content)
        assert counts.splitlines() == [
            "pages 59 · readable 59 · unreadable 0 · reserved 12",
            "links 400 · dangling targets 4 · ambiguous links 1",
        ]
        shown = lines(dialog)
        assert shown[:2] == ["hubs by links in (10)", "  35  tables/orders"]
        orphans = shown.index("orphans (1)")
        assert shown[orphans + 1 : orphans + 5] == [
            "  glossary/legacy-pos",
            "dead ends (1)",
            "  glossary/sku",
            "dangling targets (4)",
        ]
        assert shown[orphans + 5 : orphans + 7] == [
            "  ✗ Supplier Scorecard",
            "      ← dashboards/index",
        ]
        options = dialog.query_one(OptionList)
        assert options.has_focus and dialog.slugs[options.highlighted] == "tables/orders"
        # Headings are skipped: the orphan is the 21st page listed (after 2 × 10 hubs).
        await pilot.press(*["down"] * 20)
        assert dialog.slugs[options.highlighted] == "glossary/legacy-pos"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.query_one(PagePane).slug == "glossary/legacy-pos"
        assert app.screen.history.current.slug == "glossary/legacy-pos"


async def test_escape_closes_and_the_key_waits_for_the_index(small_bundle: Path) -> None:
    source = GatedSource(small_bundle)
    app = make_app(brain_for(source), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, until=lambda: source.scan_started.is_set() and screen.loader.running)
        assert not screen.check_action("stats", ())  # greyed: it never forces a build
        await pilot.press("s")
        assert app.screen is screen
        source.gate.set()
        await settle(pilot, until=lambda: screen.loader.ready)
        dialog = await open_stats(pilot)
        assert stats_lines(dialog) == [
            "hubs by links in (3)",
            "  2  alpha",
            "  2  beta",
            "  1  index",
            "hubs by links out (4)",
            "  2  index",
            "  1  alpha",
            "  1  beta",
            "  1  notes/gamma",
            "orphans (1)",
            "  notes/gamma",
            "dead ends (0)",
            "dangling targets (1)",
            "  ✗ ghost",
            "      ← alpha",
        ]
        await pilot.press("escape")
        assert app.screen is screen
        assert screen.history.current.slug == "alpha"


async def test_a_failure_is_said_in_the_dialog(small_bundle: Path) -> None:
    brain = brain_for(BundleSource(small_bundle))
    app = make_app(brain)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def broken() -> None:
            raise SourceUnavailable("the brain is unreachable (test)")

        brain.stats = broken  # type: ignore[method-assign]
        await pilot.press("s")
        counts = app.screen.query_one("#stats-counts", Static)
        await settle(pilot, until=lambda: str(counts.content) != "computing…")
        assert str(counts.content) == "could not compute the stats: the brain is unreachable (test)"
        assert lines(app.screen) == []


async def test_a_long_slug_is_cut_from_the_left_so_its_count_and_file_name_share_a_line(
    tmp_path: Path,
) -> None:
    """At 80 columns a 35k-page vault's hubs (`_sources/…/windows-commands/command-line-
    syntax-key`) wrapped, each count alone on a line above a slug broken mid-word."""
    deep = "_sources/windows-server/_raw/windowsserverdocs/administration/windows-commands"
    (tmp_path / deep).mkdir(parents=True)
    (tmp_path / deep / "command-line-syntax-key.md").write_text("# Syntax key\n")
    for n in range(3):
        (tmp_path / f"page-{n}.md").write_text(f"[[{deep}/command-line-syntax-key]]\n")
    app = make_app(brain_for(BundleSource(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        dialog = await open_stats(pilot)
        options = dialog.query_one(OptionList)
        drawn = [options.render_line(y).text.rstrip() for y in range(4)]
        assert drawn[0] == "hubs by links in (1)"
        assert drawn[1].startswith("  3  …/")
        assert drawn[1].endswith("/windows-commands/command-line-syntax-key")
        assert drawn[2] == "hubs by links out (3)"  # the next line: nothing wrapped
        assert lines(dialog)[1] == f"  3  {deep}/command-line-syntax-key"  # as the CLI prints
        await pilot.resize_terminal(50, 24)  # the lines are cut again for the narrower list
        await settle(pilot, until=lambda: dialog.cut_at < 50)
        drawn = [options.render_line(y).text.rstrip() for y in range(3)]
        assert drawn[1] == "  3  …/command-line-syntax-key"
        assert drawn[2] == "hubs by links out (3)"


def test_a_cut_line_keeps_the_file_name_and_puts_a_long_tail_below_under_the_label() -> None:
    """A bridge's `splits …` after a slug as wide as the line went below it at the
    left edge, and cutting it once raised (`Text` has no `lstrip`)."""
    console = Console(width=40, color_system=None, legacy_windows=False)
    slug = "reference/sharepoint/server/SharePointServer"
    line = CutLine(Text("  "), slug, tail=Text("  splits 24833 + 11 + 8 + 2×7 + 6 + 5 + 13×4"))
    with console.capture() as captured:
        console.print(line)
    assert [drawn.rstrip() for drawn in captured.get().splitlines()] == [
        "  …/sharepoint/server/SharePointServer",
        "    splits 24833 + 11 + 8 + 2×7 + 6 + 5",
        "    + 13×4",
    ]
    with console.capture() as captured:
        console.print(CutLine(Text("  "), "a/b", tail=Text("  splits 3 + 1")))
    assert [drawn.rstrip() for drawn in captured.get().splitlines()] == ["  a/b  splits 3 + 1"]
    assert str(line) == f"  {slug}  splits 24833 + 11 + 8 + 2×7 + 6 + 5 + 13×4"


def test_the_look_alike_targets_have_a_section_whose_rows_open_the_page() -> None:
    """A dangling target that names a page but for look-alike characters (`stats`' last
    section) is listed with the page it looks like and what differs; `enter` opens the
    page. No such target: no heading."""
    like = LookAlike("CWE‑788", "concepts/CWE-788", ('U+2011 NON-BREAKING HYPHEN for "-"',))
    stats = BrainStats(
        pages=2, readable=2, unreadable=0, reserved=0, links=1, dangling_targets=1,
        ambiguous_links=0, hubs_in=(), hubs_out=(), orphans=(), dead_ends=(),
        dangling=(("CWE‑788", ("cve/one",)),), look_alikes=(like,),
    )  # fmt: skip
    rows = [(str(line), slug) for line, slug in stats_rows(stats)]
    assert rows[-2:] == [
        ("dangling targets that look like pages (1)", None),
        (
            '  ≈ CWE‑788 → concepts/CWE-788  (U+2011 NON-BREAKING HYPHEN for "-")',
            "concepts/CWE-788",
        ),
    ]
    plain = dataclasses.replace(stats, look_alikes=())
    assert not any("look like" in str(line) for line, _ in stats_rows(plain))


def test_a_page_s_title_follows_its_slug_where_a_few_of_its_letters_fit() -> None:
    """An LLM-written bundle's hubs read `content/concepts/term-agent-skills`,
    `tool-3x-ui`, …: the title says which page, after the slug, cut at its end (wide
    characters counted as two cells); left out where the slug itself is cut."""
    slug = "content/concepts/term-agent-skills"

    def drawn(width: int) -> str:
        console = Console(width=width, color_system=None, legacy_windows=False)
        line = CutLine(Text("  42  "), slug, title="Agent Skills（代理技能包）")
        with console.capture() as captured:
            console.print(line)
        return captured.get().rstrip("\n").rstrip()

    assert drawn(80) == f"  42  {slug}  Agent Skills（代理技能包）"
    assert drawn(57) == f"  42  {slug}  Agent Skills（…"
    assert drawn(56) == f"  42  {slug}  Agent Skills…"  # not half a wide character
    assert drawn(44) == f"  42  {slug}"  # not even five cells of it
    assert drawn(30).startswith("  42  …/")
    stats = BrainStats(
        pages=2, readable=2, unreadable=0, reserved=0, links=1, dangling_targets=0,
        ambiguous_links=0, hubs_in=((slug, 1),), hubs_out=(("index", 1),), orphans=(),
        dead_ends=(), dangling=(), look_alikes=(),
    )  # fmt: skip
    titles = {slug: "Agent Skills", "index": "Index"}
    rows = [line for line, _ in stats_rows(stats, title=titles.get)]
    shown = [line.title for line in rows if isinstance(line, CutLine)]
    assert shown == ["Agent Skills", ""]  # `index` says no more than its file name
