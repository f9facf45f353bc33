"""The first page chosen as a person would (the status line names the rule), and the
page tree (`f`) as a second way in; at 80×24 and 150×45."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import Label

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.screens.main import MainScreen
from okf_explorer.tui.widgets.page.pane import PagePane
from okf_explorer.tui.widgets.page_tree import PageTree, folder_tree
from okf_explorer.tui.widgets.status_bar import NO_WAY_ON, StatusBar

from .conftest import brain_for, settle, write_bundle

SIZES = [(80, 24), (150, 45)]
FOAM_LIKE = {
    "docs/404.md": "# Page not found!\n",
    "docs/index.md": "# Foam docs\n\nSee [[features]].\n",
    "docs/features.md": "# Features\n",
    "README.md": "# Foam\n\nRead [[docs/index]].\n",
}
NO_HOME = {
    "fleeting/a note.md": "# A note\n",
    "topics/hub.md": "# Hub\n",
    "topics/x.md": "[[hub]]\n",
    "topics/y.md": "[[hub]] and [[x]]\n",
}


def foam_app(tmp_path: Path):  # type: ignore[no-untyped-def]
    return make_app(brain_for(BundleSource(write_bundle(tmp_path / "foam", FOAM_LIKE))))


async def tree_opened(pilot):  # type: ignore[no-untyped-def]
    """The explorer settled, then `f`: its screen, page pane and page tree."""
    await settle(pilot)
    screen = pilot.app.screen
    await pilot.press("f")
    await settle(pilot)
    return screen, screen.query_one(PagePane), screen.query_one(PageTree)


def seen(widget) -> bool:  # type: ignore[no-untyped-def]
    """Whether a person sees `widget`: displayed, not covered by the page tree (`visible`),
    and on the screen (the closed page tree waits just off its right edge)."""
    region = widget.region
    return bool(
        widget.display and widget.visible and region.width and region.x < widget.screen.size.width
    )


def start_rule(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#status-start").content)


def shown_slug(app) -> str | None:  # type: ignore[no-untyped-def]
    page = app.screen.query_one(PagePane).page
    return page.slug if page is not None else None


@pytest.mark.parametrize("size", SIZES)
async def test_a_root_readme_beats_docs_404(tmp_path: Path, size: tuple[int, int]) -> None:
    app = foam_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert shown_slug(app) == "README"
        assert start_rule(app) == "start: root README ·"


async def test_docs_index_when_the_root_has_no_home_page(tmp_path: Path) -> None:
    files = {key: value for key, value in FOAM_LIKE.items() if key != "README.md"}
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "b", files))), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert shown_slug(app) == "docs/index"
        assert start_rule(app) == "start: docs/index ·"
        await pilot.press("tab")  # the user moves on: the rule is no longer news
        app.screen.open_page("docs/features")
        await settle(pilot, lambda: shown_slug(app) == "docs/features")
        assert not app.screen.query_one("#status-start").has_class("shown")


async def test_most_backlinks_once_the_index_knows_them(tmp_path: Path) -> None:
    app = make_app(
        brain_for(BundleSource(write_bundle(tmp_path / "b", NO_HOME))), watch_files=False
    )
    async with app.run_test(size=(150, 45)) as pilot:
        await settle(pilot, lambda: shown_slug(app) == "topics/hub")
        await settle(pilot)
        assert start_rule(app) == "start: most backlinks (2) ·"
        assert app.screen.history.current.slug == "topics/hub"


@pytest.mark.parametrize("size", SIZES)
async def test_a_readme_linking_nowhere_gives_way_to_the_hub(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """A Korean ML vault's README is a title and a dot: the explorer opened on an empty
    page beside a hub of 81 backlinks. The README shows first (the listing knows no
    links), then the index moves the start to the hub (`HUB_BACKLINKS` or more), and the
    status line says why."""
    linkers = {f"notes/n{number}.md": "[[hub]]\n" for number in range(5)}
    files = {"README.md": "# My-Vault\n.\n", **NO_HOME, **linkers}
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "v", files))), watch_files=False)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, lambda: shown_slug(app) == "topics/hub")
        await settle(pilot)
        assert start_rule(app) == "start: most backlinks (7) ·"
        assert not app.screen.query_one("#status-hint", Label).display
        # the README stood in for the start: back does not lead to it (an Italian vault's
        # backspace on its first screen opened the README it never chose), nor the trail
        assert not app.screen.history.can_go_back
        assert app.screen.nav.trail.pages == ["topics/hub"]
        await pilot.press("backspace")
        await settle(pilot)
        assert shown_slug(app) == "topics/hub"


async def test_the_start_is_no_page_the_vault_excludes(tmp_path: Path) -> None:
    """A 35k-page LLM-kept wiki excludes its raw sources from Obsidian (`userIgnoreFilters`),
    and they hold its pages most linked to (1,632 backlinks): without a home page, the
    start would have been a raw source. Obsidian makes excluded pages less noticeable: the
    start is chosen among the others."""
    raw = {f"_sources/doc{number}.md": "[[_sources/syntax]]\n" for number in range(6)}
    files = {
        ".obsidian/app.json": '{"userIgnoreFilters": ["_sources/"]}',
        "_sources/syntax.md": "# Syntax\n",
        **raw,
        **NO_HOME,
    }
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "v", files))), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, lambda: shown_slug(app) == "topics/hub")
        await settle(pilot)
        assert start_rule(app) == "start: most backlinks (2) ·"


async def test_start_flag_names_no_rule(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path / "foam", FOAM_LIKE)
    app = make_app(brain_for(BundleSource(bundle)), start="docs/404", watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert shown_slug(app) == "docs/404"
        assert not app.screen.query_one(StatusBar).query_one("#status-start").has_class("shown")


@pytest.mark.parametrize("size", SIZES)
async def test_f_shows_the_page_tree_and_enter_opens_a_page(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = foam_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        tree = screen.query_one(PageTree)
        assert not seen(tree) and not tree.can_focus
        await pilot.press("f")
        await settle(pilot)
        assert seen(tree) and tree.has_focus
        assert tree.selected_slug == "README"  # the cursor starts on the current page
        assert [str(node.label) for node in tree.root.children] == ["docs/ 3", "README  Foam"]
        await pilot.press("up", "space", "down", "down")  # open docs/, go to its second page
        await settle(pilot)
        assert tree.selected_slug == "docs/features"
        await pilot.press("enter")
        await settle(pilot, lambda: shown_slug(app) == "docs/features")
        assert seen(tree) == (size[0] >= 100)  # a narrow screen gives the page its room back
        if seen(tree):
            await pilot.press("f")
            await settle(pilot)
            assert not seen(tree) and not tree.can_focus


def test_folder_tree_nests_folders_and_counts_pages() -> None:
    top = folder_tree([("a/b/c", "C"), ("a/d", "D"), ("e", "E")])
    assert list(top.folders) == ["a"] and top.pages == [("e", "E")]
    assert top.folders["a"].count() == 2
    assert top.folders["a"].folders["b"].pages == [("a/b/c", "C")]


def test_the_tree_lists_names_as_a_file_explorer_does() -> None:
    """Slug order put `Chapter 10` before `Chapter 2` and every capital before `apple`;
    Obsidian's file explorer, which a vault's owner knows, does neither."""
    names = ["Chapter 10", "Chapter 2", "Zebra", "apple", "README", "Éclair", "02 intro", "1 go"]
    top = folder_tree([(f"book/{name}", name) for name in names] + [("Zoo/x", "x"), ("art/y", "y")])
    assert [slug.rsplit("/", 1)[-1] for slug, _ in top.folders["book"].pages] == [
        "1 go", "02 intro", "apple", "Chapter 2", "Chapter 10", "Éclair", "README", "Zebra",
    ]  # fmt: skip
    assert list(top.folders) == ["art", "book", "Zoo"]


async def test_the_page_tree_shows_chapters_in_number_order(tmp_path: Path) -> None:
    pages = {f"Course/Chapter {n}.md": f"# Chapter {n}\n" for n in (1, 2, 10, 11)}
    root = write_bundle(tmp_path / "v", {**pages, "Course/appendix.md": "A\n", "home.md": "H\n"})
    app = make_app(brain_for(BundleSource(root)), start="home", watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        tree = app.screen.query_one(PageTree)
        await pilot.press("up", "space")  # open Course/
        await settle(pilot)
        course = tree.root.children[0]
        assert [str(node.label).split()[:2] for node in course.children] == [
            ["appendix"], ["Chapter", "1"], ["Chapter", "2"], ["Chapter", "10"], ["Chapter", "11"],
        ]  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("readme", "hinted"), [("Clone me from GitHub.\n", True), ("See [[b]].\n", False)]
)
async def test_a_start_page_that_links_nowhere_points_at_the_ways_in(
    tmp_path: Path, readme: str, hinted: bool, size: tuple[int, int]
) -> None:
    """A README written for GitHub links to no page of the vault, and no page has a
    backlink to start from instead: once the index says so, the status line names `f`
    and `/`, whole at 80 columns too (it was cut after `no links:`; there the rule's name
    gives way to it, and the index state stays); a README that links in says nothing
    more. Opening another page drops the hint with the rule."""
    bundle = write_bundle(
        tmp_path / "vault-with-a-long-name",
        {"README.md": readme, "a.md": "A, alone.\n", "b.md": "B, alone.\n"},
    )
    app = make_app(brain_for(BundleSource(bundle)), watch_files=False)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        start = str(app.screen.query_one("#status-start", Label).content)
        assert start.startswith("start: root README")
        hint = app.screen.query_one("#status-hint", Label)
        assert hint.display is hinted
        if hinted:
            assert str(hint.content) == NO_WAY_ON
            assert hint.region.width >= cell_len(NO_WAY_ON)  # drawn whole
            assert hint.region.right <= app.size.width
        state = app.screen.query_one("#status-index", Label)  # still on the line
        assert state.region.right <= app.size.width and state.region.width >= len("indexed ")
        await pilot.press("/")
        await pilot.press(*"a.md", "enter")
        await settle(pilot)
        assert not hint.display


@pytest.mark.parametrize("size", SIZES)
async def test_the_page_tree_takes_the_room_it_needs(tmp_path: Path, size: tuple[int, int]) -> None:
    """Under 100 columns `f` gives the tree the whole width (the panes come back with a
    page chosen); `z` on the tree zooms it to the whole screen, not 34 columns."""
    app = foam_app(tmp_path)
    width = size[0]
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        tree, page = screen.query_one(PageTree), screen.query_one(PagePane)
        await pilot.press("f")
        await settle(pilot)
        if width < 100:
            assert tree.outer_size.width == width
            assert page.region.width == 0  # not squeezed: out of the way
        await pilot.press("z")
        await settle(pilot)
        assert screen.zoomed is tree
        assert tree.outer_size.width == width
        await pilot.press("z")
        await settle(pilot)
        assert screen.zoomed is None


@pytest.mark.parametrize("size", SIZES)
async def test_the_page_tree_opens_with_the_page_in_its_middle(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """A page far down a folder of 120 (a security vault's `concepts/`, 3,000 pages):
    `f` put its row on the tree's last line, with none of the pages after it. It comes to
    the middle; a page already in view leaves the tree where it was."""
    pages = {f"concepts/page {n:03}.md": f"# Page {n:03}\n" for n in range(120)}
    pages["concepts/page 090.md"] = "# Page 090\n\n[[page 003]]\n"
    root = write_bundle(tmp_path / "b", pages)
    app = make_app(brain_for(BundleSource(root)), start="concepts/page 090")
    async with app.run_test(size=size) as pilot:
        screen, _, tree = await tree_opened(pilot)
        height = tree.scrollable_content_region.height
        assert tree.cursor_node is not None and tree.cursor_node.data.slug == "concepts/page 090"
        assert abs(tree.cursor_line - tree.scroll_y - height // 2) <= 1
        await pilot.press("f")
        await settle(pilot)
        screen.open_page("concepts/page 091")  # in view: the tree stays where it was
        await settle(pilot)
        top = tree.scroll_y
        await pilot.press("f")
        await settle(pilot)
        assert tree.cursor_node is not None and tree.cursor_node.data.slug == "concepts/page 091"
        assert tree.scroll_y == top


@pytest.mark.parametrize("size", [(150, 45), (121, 30), (100, 30)])
async def test_on_a_wide_screen_the_tree_lies_over_the_links_and_nothing_resizes(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """On a wide screen `f` lays the tree over the link column, exactly: the page keeps
    its width and place (its lines are not drawn again), the links theirs (covered: not
    drawn, no focus); `f` again uncovers them as they were."""
    app = foam_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        page, links = screen.query_one(PagePane), screen.query_one("#graph-column")
        before, sizes = (page.region, links.region), (page.size, links.size)
        await pilot.press("f")
        await settle(pilot)
        tree = screen.query_one(PageTree)
        assert tree.region == before[1]
        assert page.size == sizes[0]  # the page is not drawn again
        assert page.region == before[0] and seen(page)
        assert not seen(links) and seen(tree)
        for _ in range(3):  # the panes a person can reach: the page and the tree, not the links
            await pilot.press("tab")
            assert page.has_focus
            await pilot.press("tab")
            assert tree.has_focus
        await pilot.press("f")
        await settle(pilot)
        assert (page.region, links.region) == before
        assert (page.size, links.size) == sizes
        assert seen(links) and not seen(tree)


async def test_z_on_the_page_beside_the_tree_fills_the_screen(tmp_path: Path) -> None:
    """The width the page keeps beside the tree is let go while it is zoomed, and comes
    back with the tree after the zoom."""
    async with foam_app(tmp_path).run_test(size=(150, 45)) as pilot:
        screen, page, tree = await tree_opened(pilot)
        beside = page.outer_size.width
        page.focus()
        await pilot.press("z")
        await settle(pilot)
        assert screen.zoomed is page and page.outer_size.width == 150
        assert tree.region.width == 0
        await pilot.press("z")
        await settle(pilot)
        assert page.outer_size.width == beside and tree.region.width > 0


async def test_the_tree_open_across_a_resize_takes_the_room_each_width_gives(
    tmp_path: Path,
) -> None:
    """Narrowed under 100 columns with the tree open, the tree takes the whole width;
    widened again, the page comes back beside it, and the tree lies over the links."""
    async with foam_app(tmp_path).run_test(size=(150, 45)) as pilot:
        screen, page, tree = await tree_opened(pilot)
        assert seen(page) and seen(tree)
        await pilot.resize_terminal(80, 24)
        await settle(pilot, until=lambda: not seen(page))
        assert tree.outer_size.width == 80 and seen(tree)
        await pilot.resize_terminal(150, 45)
        await settle(pilot, until=lambda: seen(page))
        assert tree.outer_size == screen.query_one("#graph-column").outer_size


async def test_f_on_the_zoomed_tree_closes_it_and_brings_the_panes_back(tmp_path: Path) -> None:
    async with foam_app(tmp_path).run_test(size=(150, 45)) as pilot:
        screen, page, tree = await tree_opened(pilot)
        await pilot.press("z")
        await settle(pilot)
        assert screen.zoomed is tree and page.region.width == 0
        await pilot.press("f")
        await settle(pilot)
        assert screen.zoomed is None and not seen(tree)
        assert seen(page) and page.has_focus


@pytest.mark.parametrize("key", ["d", "b", "w"])
async def test_a_key_for_the_links_under_the_tree_closes_it(tmp_path: Path, key: str) -> None:
    """With the page tree over the link column, a key that changes or focuses what the
    column shows (`d`, `b`, `w`) closes the tree, so what it did is seen."""
    async with foam_app(tmp_path).run_test(size=(150, 45)) as pilot:
        screen, _, tree = await tree_opened(pilot)
        links = screen.query_one("#graph-column")
        assert seen(tree) and not seen(links)
        await pilot.press(key)
        await settle(pilot)
        assert not screen.tree_open and not seen(tree) and seen(links)
        assert not _covered_focus(screen)


def _covered_focus(screen) -> bool:  # type: ignore[no-untyped-def]
    focused = screen.focused
    return focused is not None and not all(
        node.visible for node in focused.ancestors_with_self if hasattr(node, "visible")
    )


LOGSEQ_GRAPH = {
    "README.md": "# My graph\n",
    "pages/Contents.md": "- [[Garden]]\n",
    "pages/Garden.md": "- beds\n",
    "journals/2024_03_04.md": "- sowed\n",
    "journals/2024_03_05.md": "- watered [[Garden]]\n",
}


@pytest.mark.parametrize(
    ("config", "slug", "rule"),
    [
        ('{:default-home {:page "contents"}}', "pages/Contents", "start: Logseq home contents ·"),
        ("{:meta/version 1}", "journals/2024_03_05", "start: latest journal ·"),
    ],
)
async def test_a_logseq_graph_opens_where_logseq_opens_it(
    tmp_path: Path, config: str, slug: str, rule: str
) -> None:
    """Its `:default-home` page, else its latest journal (Logseq opens the journals),
    not the README the folder also holds."""
    root = write_bundle(tmp_path / "graph", {**LOGSEQ_GRAPH, "logseq/config.edn": config})
    app = make_app(brain_for(BundleSource(root)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert shown_slug(app) == slug
        assert start_rule(app) == rule


@pytest.mark.parametrize("size", SIZES)
async def test_a_page_tree_row_too_long_is_cut_with_a_mark_not_scrolled(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """A 13k-page Zettelkasten at 100×40: `Integration by Partial Fraction Decompos` ran
    off the pane's edge without a sign, and the tree scrolled sideways. A row too long
    loses its title, then the end of its name, marked `…`; no row is wider than the pane."""
    name = "Integration by Partial Fraction Decomposition of a Rational Function " * 2
    name = name.strip()
    pages = {
        "Home.md": f"# Home\n\n[[{name}]]\n",
        f"{name}.md": "# Theorem in long words that say more than nothing at all\n",
        "Short.md": "# A short page with a long title that says more than its name, far more "
        "than fits beside it in any pane a terminal of 150 columns gives the tree\n",
    }
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "v", pages))), start="Home")
    async with app.run_test(size=size) as pilot:
        _, _, tree = await tree_opened(pilot)
        room = tree.scrollable_content_region.width
        rows = [tree.render_line(y).text.rstrip() for y in range(tree.size.height)]
        [long_row] = [row for row in rows if "Integration" in row]
        assert long_row.endswith("…") and "Theorem" not in long_row, long_row
        assert all(cell_len(row) <= room for row in rows), rows
        assert not tree.show_horizontal_scrollbar
        [short_row] = [row for row in rows if "Short" in row]
        assert "Short  A short page" in short_row and short_row.endswith("…")  # title cut


def test_a_dendron_hierarchy_nests_by_its_dots() -> None:
    """In a Dendron workspace a note sits under the note its name continues, in its folder;
    a note with nothing under it is a page; a missing parent (a stub) still nests."""
    pages = [
        ("vault/dendron", "Dendron"),
        ("vault/dendron.tutorial", "Getting Started"),
        ("vault/dendron.tutorial.vaults", "Vaults"),
        ("vault/dendron.faq", "FAQ"),
        ("vault/recipes.bread.rye", "Rye"),  # no `recipes` nor `recipes.bread` note
        ("vault/root", "Root"),
        ("v2.0 notes", "Release"),  # outside a folder, dots nest too
        ("vault/dendron..odd", "Odd"),  # an empty part nests nothing
    ]
    vault = folder_tree(pages, dotted=True).folders["vault"]
    assert vault.pages == [("vault/root", "Root")] and list(vault.notes) == ["dendron", "recipes"]
    dendron = vault.notes["dendron"]
    assert dendron.page == ("vault/dendron", "Dendron") and dendron.count() == 4
    assert dendron.pages == [("vault/dendron.faq", "FAQ"), ("vault/dendron..odd", "Odd")]  # by name
    assert dendron.notes["tutorial"].pages == [("vault/dendron.tutorial.vaults", "Vaults")]
    stub = vault.notes["recipes"]
    assert stub.page is None and stub.notes["bread"].page is None and stub.count() == 1
    assert vault.count() == 7
    flat = folder_tree(pages).folders["vault"]  # any other folder: by folders alone
    assert not flat.notes and len(flat.pages) == 7


DENDRON = {
    "dendron.yml": "version: 5\nworkspace:\n  vaults:\n    - fsPath: vault\n",
    "vault/root.md": "# Root\n",
    "vault/dendron.md": "---\ntitle: Dendron\n---\nSee [[dendron.tutorial.vaults]].\n",
    "vault/dendron.tutorial.md": "---\ntitle: Getting Started\n---\nStart.\n",
    "vault/dendron.tutorial.vaults.md": "---\ntitle: Vaults\n---\nVaults.\n",
    "vault/dendron.faq.md": "---\ntitle: FAQ\n---\nAsked.\n",
}


@pytest.mark.parametrize("size", SIZES)
async def test_the_page_tree_of_a_dendron_workspace_is_its_hierarchy(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Seen on Dendron's own docs (1,012 notes in one folder, listed flat): the tree shows
    Dendron's hierarchy, the cursor on the page shown, deep in it."""
    root = write_bundle(tmp_path / "site", DENDRON)
    app = make_app(brain_for(BundleSource(root)), start="vault/dendron.tutorial.vaults")
    async with app.run_test(size=size) as pilot:
        _, _, tree = await tree_opened(pilot)
        assert tree.selected_slug == "vault/dendron.tutorial.vaults"
        [vault] = tree.root.children
        assert [str(node.label) for node in vault.children] == ["dendron 3", "root"]
        [tutorial, faq] = vault.children[0].children
        assert (str(tutorial.label), str(faq.label)) == ("tutorial  Getting Started 1", "faq")
        assert [str(node.label) for node in tutorial.children] == ["vaults"]
        await pilot.press("up", "up")  # onto `dendron`, a page with notes under it
        await settle(pilot)
        assert tree.selected_slug == "vault/dendron"
        await pilot.press("enter")
        await settle(pilot, lambda: shown_slug(app) == "vault/dendron")


async def test_page_tree_rows_that_start_alike_show_what_differs(tmp_path: Path) -> None:
    """An agent's wiki of a rulebook names every section `sword-world-rpg-complete-edition-
    section-…`: at 80×24 the page tree's rows, cut at their end, all read the same. The
    start the names in a folder share is left out where the cut would show nothing more."""
    stem = "sword-world-rpg-complete-edition-section-chapter-14-"
    ends = ("magical-item-list", "ancient-magic-list", "spirit-magic-list")
    pages = {
        "Home.md": "# Home\n\n" + "".join(f"[[{stem}{end}]]\n" for end in ends),
        **{f"rules/{stem}{end}.md": f"# {stem}{end}\n" for end in ends},
    }
    app = make_app(brain_for(BundleSource(write_bundle(tmp_path / "v", pages))), start="Home")
    async with app.run_test(size=(60, 24)) as pilot:
        _, _, tree = await tree_opened(pilot)
        folder = next(node for node in tree.root.children if str(node.label).startswith("rules"))
        folder.expand()
        await settle(pilot)
        rows = [tree.render_line(y).text.rstrip() for y in range(tree.size.height)]
        shown = [row for row in rows if "magic" in row or "item" in row]
        assert len(shown) == 3, rows
        for end in ends:
            assert any(f"…{end[:10]}" in row for row in shown), (end, shown)
