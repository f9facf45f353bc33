"""The link tree cuts a long page name from the left, so its file name stays (seen in
tmux at 80×24 on the Obsidian help vault: every row read `Getting started/Crea`)."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.pilot import Pilot

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.state.slice import fit_label, shared_starts, shorten_left, shorten_right
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from tests.bundles import write_pages

from .conftest import brain_for, settle

NULL_STYLE = Style()

FOLDER = "Getting started with the garden"
PAGES = {
    "Home": "# Home\n\n"
    + "".join(f"- [[{name}]]\n" for name in ("Create a vault", "Link notes", "Sync notes")),
    **{f"{FOLDER}/{name}": f"# {name}\n\nBack [[Home]].\n" for name in ("Create a vault",)},
    f"{FOLDER}/Link notes": "# Link notes\n",
    f"{FOLDER}/Sync notes": "# Sync notes\n",
}


def outgoing_rows(tree: LinkTree) -> int:
    """The rows under Outgoing (0 before the tree has any: it starts empty)."""
    return len(tree.root.children[0].children) if tree.root.children else 0


async def home_tree(pilot: Pilot[None], outgoing: int = 3) -> LinkTree:
    """The link tree once the start page's `outgoing` links (Home's three) are in it and
    drawn."""
    tree = pilot.app.screen.query_one(LinkTree)
    await settle(pilot, until=lambda: outgoing_rows(tree) == outgoing)
    await settle(pilot)
    return tree


def drawn_rows(tree: LinkTree) -> list[str]:
    return [tree.render_line(y).text.rstrip() for y in range(tree.size.height)]


async def test_tree_rows_keep_the_file_name_at_80_columns(tmp_path: Path) -> None:
    root = write_pages(tmp_path / "v", PAGES)
    app = make_app(brain_for(BundleSource(root)), start="Home")
    async with app.run_test(size=(80, 24)) as pilot:
        tree = await home_tree(pilot)
        rows = drawn_rows(tree)
        for name in ("Create a vault", "Link notes", "Sync notes"):
            assert any(f"…/{name} →" in row for row in rows), (name, rows)
        assert all(len(row) <= tree.size.width for row in rows)
    app = make_app(brain_for(BundleSource(root)), start="Home")
    async with app.run_test(size=(150, 45)) as pilot:  # wide enough: the whole name
        tree = await home_tree(pilot)
        assert any(f"{FOLDER}/Link notes →" in row for row in drawn_rows(tree))


async def test_a_wiki_s_folder_notes_show_their_titles_at_80_columns(tmp_path: Path) -> None:
    """A documentation wiki's every folder has its `index`: rows of `…/index` named none."""
    folders = ("frameworks/backend/alpha-framework", "frameworks/backend/beta-framework")
    pages = {
        "Home": "# Home\n\n" + "".join(f"- [[{folder}/index]]\n" for folder in folders),
        **{f"{folder}/index": f"# {folder.split('/')[-1].title()} docs\n" for folder in folders},
    }
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "v", pages))), start="Home")
    async with app.run_test(size=(80, 24)) as pilot:
        rows = drawn_rows(await home_tree(pilot, outgoing=2))
        assert any("Alpha-Framework docs →" in row for row in rows), rows
        assert any("Beta-Framework docs →" in row for row in rows), rows
        assert not any("…/index" in row for row in rows), rows


def test_fit_label_drops_the_title_then_cuts_the_slug_from_the_left() -> None:
    slug = "Getting started/Create a vault"
    label = Text.assemble("◉ ", slug, (" →3", "cyan"), ("  Create a vault", "dim"))
    assert fit_label(label, slug, 60).plain == label.plain
    assert fit_label(label, slug, 40).plain == f"◉ {slug} →3"
    assert fit_label(label, slug, 24).plain == "◉ …/Create a vault →3"
    assert fit_label(label, slug, 10).plain == "◉ Getting…"  # no room: cut at the end


def test_fit_label_shows_a_folder_s_note_by_its_title_not_index_alone() -> None:
    slug = "frameworks/ai/langchain/index"
    label = Text(f"▶ {slug} →80  LangChain Docs")
    assert fit_label(label, slug, 22, title="LangChain Docs").plain == "▶ LangChain Docs →80"
    assert fit_label(label, slug, 30, title="LangChain Docs").plain == "▶ …/ai/langchain/index →80"
    assert fit_label(Text(f"▶ {slug} →80"), slug, 22).plain == "▶ …/index →80"  # no title


def test_fit_label_shows_the_title_when_not_even_the_file_name_fits() -> None:
    """80×24 on an LLM-written bundle: `…ks-on-aws-481179d7 →0` named nothing."""
    slug = "references/manage-data-recipients-for-opensharing-databricks-on-aws-073afd50"
    title = "Manage data recipients for OpenSharing"
    label = Text.assemble("◉ ", slug, (" →0", "cyan"), (f"  {title}", "dim"))
    assert fit_label(label, slug, 30, title=title).plain == "◉ Manage data recipients f… →0"
    assert fit_label(label, slug, 60, title=title).plain == f"◉ {title} →0"
    untitled = Text.assemble("◉ ", slug, (" →0", "cyan"))
    assert fit_label(untitled, slug, 30).plain == "◉ manage-data-recipients-f… →0"


def test_fit_label_never_takes_a_relation_for_the_page_s_name() -> None:
    """80×24 on a TTRPG vault: a backlink typed by the frontmatter key holding it read
    `└── description ←0`, the relation standing for the page it came from."""
    slug = "Pathfinder/2E/spells/level-9/summon-ancient-fleshforged"
    label = Text.assemble(slug, (" ←0", "cyan"), ("  description", "magenta"))
    assert fit_label(label, slug, 80).plain == label.plain
    assert fit_label(label, slug, 34).plain == "…/summon-ancient-fleshforged ←0"
    assert fit_label(label, slug, 26).plain == "summon-ancient-fleshfo… ←0"  # not the relation
    titled = Text.assemble(slug, (" ←0", "cyan"), ("  Ancient Fleshforged", "dim"))
    titled.append("  description", style="magenta")
    fitted = fit_label(titled, slug, 26, title="Ancient Fleshforged")
    assert fitted.plain == "Ancient Fleshforged ←0"


def test_fit_label_reads_a_cut_name_from_its_start() -> None:
    """80×24 on Foam's docs: a file name a few letters too long showed as
    `…mmended-extensions →0`; its title cut at the end reads as a name."""
    slug = "user/getting-started/recommended-extensions"
    title = "Recommended Extensions"
    label = Text.assemble("◉ ", slug, (" →0", "cyan"), (f"  {title}", "dim"))
    assert fit_label(label, slug, 24, title=title).plain == "◉ Recommended Extens… →0"
    assert fit_label(label, slug, 28, title=title).plain == "◉ …recommended-extensions →0"


def test_fit_label_reads_a_cut_file_name_from_its_start_without_a_title() -> None:
    """80×24 on a research vault whose titles are its file names: `…hoc polymorphism ←1`
    cut the name's start; a name is read from its start, titled or not."""
    slug = "Compiler/FP/Ad-hoc polymorphism"
    label = Text.assemble("▶ ", slug, (" ←1", "cyan"))
    assert fit_label(label, slug, 26).plain == "▶ …/Ad-hoc polymorphism ←1"
    assert fit_label(label, slug, 24).plain == "▶ Ad-hoc polymorphism ←1"
    assert fit_label(label, slug, 20).plain == "▶ Ad-hoc polymor… ←1"


async def test_rows_are_cut_again_when_the_scroll_bar_comes(tmp_path: Path) -> None:
    """A row drawn just before the tree grew a scroll bar kept its old cut, and Textual
    cropped it two cells short, without its `…` (a snapshot failed so under load): when
    the bar comes, every row is drawn again to the width beside it."""
    titled = {  # titles that say more than the file names, cut at the pane's edge
        slug: text.replace("# ", "# How to: ", 1) if slug.startswith(FOLDER) else text
        for slug, text in PAGES.items()
    }
    root = write_pages(tmp_path / "v", titled)
    app = make_app(brain_for(BundleSource(root)), start="Home")
    async with app.run_test(size=(80, 24)) as pilot:
        tree = await home_tree(pilot)
        assert not tree.show_vertical_scrollbar
        before = drawn_rows(tree)
        tree.show_vertical_scrollbar = True  # as Textual's layout sets it when rows grow
        room = tree.scrollable_content_region.width
        after = drawn_rows(tree)
        assert after != before
        for row in after:  # a row drawn wider than the room left would be cropped
            assert len(row) <= room, (row, room)


async def test_a_row_is_measured_as_wide_as_it_is_drawn(tmp_path: Path) -> None:
    """`get_label_width` measures without drawing (Textual measures every row: opening a
    page of 2,000 backlinks drew them all, 0.3-0.4 s of CPU): never less than
    `render_label` draws, never past the pane, and exact for a row that fits and for
    the groups; so the tree is as wide as its widest row, with no sideways scroll bar."""
    root = write_pages(tmp_path / "v", PAGES)
    for size in ((80, 24), (150, 45)):
        app = make_app(brain_for(BundleSource(root)), start="Home")
        async with app.run_test(size=size) as pilot:
            tree = await home_tree(pilot)
            first = tree.root.children[0].children[0]
            first.expand()  # its own links, one level down
            await settle(pilot, until=lambda first=first: len(first.children) >= 1)
            nodes, seen, cut = [tree.root], 0, 0
            while nodes:
                node = nodes.pop()
                nodes.extend(node.children)
                if node is tree.root:
                    continue
                drawn = tree.render_label(node, NULL_STYLE, NULL_STYLE)
                measured = tree.get_label_width(node)
                if "…" in drawn.plain:
                    cut += 1
                    assert drawn.cell_len <= measured <= tree.scrollable_content_region.width
                else:
                    assert measured == drawn.cell_len, (size, node.label)
                seen += 1
            assert seen >= 6
            assert cut >= (3 if size == (80, 24) else 0)
            await settle(pilot)
            assert not tree.show_horizontal_scrollbar


def test_a_chinese_title_is_cut_by_the_cells_it_takes() -> None:
    """80×24 on an LLM-kept Chinese wiki: `▶ VoxCPM 本地部署配置` lost its `→3`, the title
    cut by its characters when each takes two cells."""
    slug = "concepts/voxcpm-local-deployment"
    title = "VoxCPM 本地部署配置与快速运行示例"
    label = Text.assemble("◉ ", slug, (" →3", "cyan"), (f"  {title}", "dim"))
    for width in (16, 20, 24, 27):
        fitted = fit_label(label, slug, width, title=title)
        assert fitted.cell_len <= width and fitted.plain.endswith(" →3"), (width, fitted.plain)
    assert fit_label(label, slug, 24, title=title).plain == "◉ VoxCPM 本地部署配… →3"


async def test_a_typed_backlink_row_keeps_its_page_at_80_columns(tmp_path: Path) -> None:
    """80×24 on a TTRPG vault: a spell linking `Frightened` from its `description`
    property showed under Incoming as `└── description ←0`."""
    spell = "Pathfinder/2E/spells/level-9/summon-ancient-fleshforged"
    pages = {
        "Frightened": "# Frightened\n\nYou are scared.\n",
        spell: "---\ndescription: It leaves them [[Frightened]].\n---\nA spell.\n",
    }
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "v", pages))), start="Frightened")
    async with app.run_test(size=(80, 24)) as pilot:
        tree = pilot.app.screen.query_one(LinkTree)
        await settle(pilot, until=lambda: len(tree.root.children) > 1)
        await settle(pilot)
        [row] = [row for row in drawn_rows(tree) if "←0" in row]
        assert "summon-ancient-flesh" in row and "description" not in row, row


FRONTIER = (
    "Metacognitive Knowledge and Thinking Tools",
    "Knowledge Domain Completeness",
    "Knowledge Retrieval Patterns",
    "Ephemeral and Event-Based Knowledge",
)


async def test_names_that_start_alike_show_what_differs_at_80_columns(tmp_path: Path) -> None:
    """80×24 on an agent-kept Quartz vault: a seed page links to dozens of `Frontier
    Exploration - …` pages, and the link tree's rows all read `Frontier Explora… →4`,
    the table's `Frontier Exploratio…`. The start they share is left out where the cut
    would show nothing more (`…Metacognitive K… →1`)."""
    names = [f"Frontier Exploration - {name}" for name in FRONTIER]
    pages = {
        "Seed": "# Seed\n\n" + "".join(f"- [[{name}]]\n" for name in names),
        **{name: f"# {name}\n\nBack to [[Seed]].\n" for name in names},
    }
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "v", pages))), start="Seed")
    async with app.run_test(size=(80, 24)) as pilot:
        tree = await home_tree(pilot, outgoing=4)
        rows = [row for row in drawn_rows(tree) if "→" in row and "Outgoing" not in row]
        assert len(rows) == 4, rows
        assert len(set(rows)) == 4, rows
        for row, own in zip(rows, ("Metacog", "Domain", "Retriev", "Ephemeral"), strict=True):
            assert f"…{own}" in row, rows
        panel = pilot.app.screen.query_one(TraversalPanel)
        await settle(pilot, lambda: panel.filled)
        cells = [str(panel.table.row(n).cells[3]) for n in range(4)]
        assert len(set(cells)) == 4, cells  # `Frontier Exploration - Me…` where it fits


def test_a_mention_s_sentence_goes_on_beside_a_name_cut_to_what_differs() -> None:
    """80×24 on Dendron's site: mentions of `root` from its changelog's pages showed
    `…1-x`, `…2-x` and 20 empty cells each; the sentence now goes on in them."""
    names = [f"changelog.past-versions.0-{n}-x" for n in (1, 2, 3)]
    slug = f"vault/{names[0]}"
    label = Text.assemble(slug, "  ", ("rename would fail if a backlink existed", "dim"))
    fitted = fit_label(label, slug, 24, shared=shared_starts(names)).plain
    assert fitted == "…1-x  rename would fail…"


def test_a_name_cut_beside_a_zero_width_joiner_keeps_its_cut_mark() -> None:
    """Rich counts the character after a zero-width joiner (`👨‍💻`) as no cell: a cut
    that kept the joiner and put `…` after it drew no mark, a cell short."""
    cut = shorten_right("abc\u200ddef", 4)
    assert cut.endswith("…") and not cut.endswith("\u200d…") and cell_len(cut) == 4
    cut = shorten_left("abc\u200ddef", 4)
    assert not cut.startswith("…\u200d") and cell_len(cut) == 4  # `…\u200ddef` hid `d`


def test_names_are_cut_by_the_cells_rich_counts() -> None:
    """U+26A0 with the emoji selector is two cells and a Chinese character two: cut by
    each character's own width, or by characters, such names ran a cell or three past
    the width given (found by fuzzing names, as Chinese LLM-written wikis write them)."""
    warned = "\u26a0\ufe0f/x" + "字hbjacdé" * 3
    for width in range(2, 30):
        assert cell_len(shorten_right(warned, width)) <= width
        assert cell_len(shorten_left(warned, width)) <= width
    slug = "字中h-hdd字eh__"
    for width in range(1, 20):
        assert fit_label(Text(f"▶ {slug} →3"), slug, width).cell_len <= width, width
