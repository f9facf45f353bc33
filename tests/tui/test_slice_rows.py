"""Readable slices, as pure functions: slugs cut from the left, titles beside them,
`from` once per group, `both` rows by hop, column widths, the sentence of a backlink."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.links.spans import link_contexts
from okf_explorer.tui.state.page_links import (
    MIN_CONTEXT,
    Backlink,
    backlink_layout,
    backlink_rows,
    context_cell,
)
from okf_explorer.tui.state.slice import (
    FIXED_COLUMNS,
    SharedStart,
    column_widths,
    display_order,
    group_starts,
    leaves_start_out,
    page_cell,
    shared_starts,
    shorten_left,
    shorten_right,
    slice_row,
    slice_shared_starts,
)


def test_slugs_are_cut_from_the_left_so_the_file_name_stays() -> None:
    slug = "01_literature/Engineering/AI"
    assert shorten_left(slug, 40) == slug
    assert shorten_left(slug, 16) == "…/Engineering/AI"
    assert shorten_left(slug, 10) == "…/AI"
    assert shorten_left("a/very-long-file-name", 8) == "…le-name"
    assert shorten_left(slug, 1) == "…" and shorten_left(slug, 0) == ""


def test_a_title_shows_beside_its_slug_when_it_says_more() -> None:
    assert page_cell("tables/orders", "Orders", 40).plain == "tables/orders"  # says nothing new
    cell = page_cell("tables/orders", "analytics.orders", 40)
    assert cell.plain == "tables/orders  analytics.orders"
    assert cell.spans and cell.spans[0].style == "dim"
    narrow = page_cell("01_literature/Engineering/AI", "Artificial intelligence notes", 30)
    assert narrow.plain.startswith("…/Engineering/AI  Artif") and len(narrow.plain) <= 30
    assert page_cell("y/x/long-name-here", "A long title", 16).plain == "…/long-name-here"
    # not even the file name fits: the title names the page, not `…g-name-here`
    assert page_cell("x/long-name-here", "A long title", 12).plain == "A long title"
    notion = "Projects 8a3c2e11f0b54f3a9c1d2e3f4a5b6c7d/Roadmap f1e2d3c4b5a697887766554433221100"
    assert page_cell(notion, "Roadmap", 20).plain == "Roadmap"
    # no title: the file name, read from its start (it was `…7887766554433221100`)
    assert page_cell(notion, None, 20).plain == "Roadmap f1e2d3c4b5a…"


def test_a_folder_s_note_shows_its_folder_or_its_title_not_its_file_name_alone() -> None:
    """A documentation wiki of 14k pages holds 1,540 `index` pages: `…/index` names none."""
    slug = "frameworks/ai/langchain/index"
    assert page_cell(slug, "LangChain Docs", 16).plain == "LangChain Docs"  # was `…/index`
    assert page_cell(slug, "LangChain Docs", 22).plain == "…/ai/langchain/index"  # `…/index  L…`
    assert page_cell(slug, "LangChain Docs", 30).plain == "…/langchain/index  LangChain …"
    assert page_cell(slug, None, 16).plain == "…/index"  # no title: the file name, as before
    assert page_cell("docs/guides/README", "Guides", 10).plain == "Guides"
    assert page_cell("y/x/long-name-here", "A long title", 16).plain == "…/long-name-here"


def test_from_is_written_once_per_group() -> None:
    edges = [Edge("r", "a", 1, "out"), Edge("r", "b", 1, "out"), Edge("a", "c", 2, "out")]
    starts = group_starts(edges, [0, 1, 2])
    assert starts == [True, False, True]
    rows = [
        slice_row(e, shows_from=s, from_width=10, to_width=10, title=lambda _: None)
        for e, s in zip(edges, starts, strict=True)
    ]
    assert [str(row[2]) for row in rows] == ["r", "", "a"]
    assert [str(row[3]) for row in rows] == ["a", "b", "c"]


def test_from_names_a_folder_s_note_by_its_title_and_never_shows_a_title_beside_it() -> None:
    """The `from` of a documentation wiki's rows read `…/index` group after group."""
    titles = {"frameworks/ai/langchain/index": "LangChain Docs", "tables/orders": "Orders table"}
    edge = Edge("frameworks/ai/langchain/index", "x", 1, "out")
    row = slice_row(edge, shows_from=True, from_width=10, to_width=10, title=titles.get)
    assert str(row[2]) == "LangChain…"
    wide = slice_row(edge, shows_from=True, from_width=40, to_width=10, title=titles.get)
    assert str(wide[2]) == "frameworks/ai/langchain/index"  # the slug fits: no title beside
    orders = Edge("tables/orders", "x", 1, "out")
    plain = slice_row(orders, shows_from=True, from_width=10, to_width=10, title=titles.get)
    assert str(plain[2]) == "…/orders"  # the file name names the page: as before


def test_both_rows_come_by_hop_so_direct_backlinks_are_never_behind_the_cap() -> None:
    out = [Edge("r", f"o{i}", 1, "out") for i in range(3)]
    deep = [Edge("o0", f"d{i}", 2, "out") for i in range(50)]
    back = [Edge("r", f"i{i}", 1, "in") for i in range(4)]
    edges = [*out, *deep, *back, Edge("i0", "x", 2, "in")]
    shown = [edges[at] for at in display_order(edges, "both", 8)]
    assert [(e.hop, e.direction) for e in shown] == [(1, "out")] * 3 + [(1, "in")] * 4 + [
        (2, "out")
    ]
    assert display_order(edges, "out", 3) == [0, 1, 2]


def test_columns_share_the_width() -> None:
    for frm, to, width in [(40, 60, 62), (30, 80, 134), (60, 60, 46), (5, 90, 70)]:
        from_width, to_width = column_widths(frm, to, width)
        room = width - FIXED_COLUMNS
        assert from_width + to_width <= room
        assert to_width >= (room * 3) // 5  # the page each row leads to takes most
    assert column_widths(10, 20, 134) == (10, 20)


def test_the_sentence_around_a_link_reads_as_the_page_renders_it() -> None:
    text = (
        "# Orders\n"
        "Intro. The table is fed by [[pipelines/daily|the nightly build]] at six. Next one.\n"
        "- see [[x]] here\n"
        "`[[pipelines/daily]]` is code\n"
        "| a | [[pipelines/daily\\|daily]] |\n"
        "> quoted [Daily](pipelines/daily.md) too\n"
    )
    wanted = {"pipelines/daily", "pipelines/daily.md"}
    found = link_contexts(text, lambda target, kind: target in wanted)
    assert [c.text for c in found] == [
        "The table is fed by the nightly build at six.",
        "a │ daily",
        "quoted Daily too",
    ]
    assert [c.link for c in found] == ["the nightly build", "daily", "Daily"]


def test_a_context_cell_keeps_the_link_in_view_and_marks_it() -> None:
    (context,) = link_contexts(
        "x " * 60 + "see [[t|the target]] and " + "y " * 60, lambda t, k: t == "t"
    )
    cell = context_cell(context, 30)
    assert len(cell.plain) == 30 and "the target" in cell.plain
    assert cell.plain.startswith("…") and cell.plain.endswith("…")
    (span,) = cell.spans
    assert cell.plain[span.start : span.end] == "the target"


def test_backlink_rows_group_sentences_under_their_page() -> None:
    found = link_contexts("a [[r]] b. c [[r]] d.", lambda t, k: t == "r")
    rows = backlink_rows(
        Backlink("p/q", tuple(found)), page_width=10, context_width=20, title=lambda _: None
    )
    assert [(str(page), str(line)) for page, line in rows] == [("p/q", "a r b."), ("", "c r d.")]
    noted = backlink_rows(
        Backlink("p", note="frontmatter: derived_from"),
        page_width=5,
        context_width=30,
        title=lambda _: None,
    )
    assert [str(line) for _, line in noted] == ["frontmatter: derived_from"]


def test_a_narrow_backlinks_table_stacks_each_sentence_under_its_page() -> None:
    """At 80 columns the panel is ~46 wide: two columns left the sentence ~20
    characters (`…/index  Comp…`); stacked, the sentence gets the whole width (here
    two columns would leave it 33)."""
    sentence = "The orders table is fed by the nightly build."
    (context,) = link_contexts(
        sentence.replace("the nightly", "[[r|the nightly]]"), lambda t, k: True
    )
    backlink = Backlink("notes/deep/folder/alpha", (context,))
    edges = [Edge("r", "notes/deep/folder/alpha", 1, "in")]
    narrow = backlink_layout(edges, 54, lambda _: "Alpha note")  # a row beside the scroll bar
    assert narrow.stacked and [width for _, width in narrow.columns] == [52]
    rows = [str(cell) for (cell,) in narrow.rows(backlink, lambda _: "Alpha note")]
    assert rows == ["notes/deep/folder/alpha  Alpha note", "  " + sentence]
    assert narrow.sentence(backlink, 0) == narrow.sentence(backlink, 1) == sentence
    wide = backlink_layout(edges, 108, lambda _: "Alpha note")
    assert not wide.stacked and wide.columns[1][1] >= MIN_CONTEXT
    (row,) = wide.rows(backlink, lambda _: "Alpha note")
    assert str(row[1]) == sentence and wide.sentence(backlink, 0) == sentence


def test_cells_with_chinese_names_are_measured_in_cells() -> None:
    """A Chinese or Japanese character takes two cells: a cell cut by characters ran past
    its column and pushed the row out of line."""
    slug, title = "概念/本地部署配置与快速运行示例", "VoxCPM 本地部署配置"
    for width in range(6, 40):
        for cell in (page_cell(slug, title, width), page_cell(slug, None, width)):
            assert cell.cell_len <= width, (width, cell.plain)
    assert shorten_right("本地部署配置", 7) == "本地部…"
    assert shorten_left("概念/本地部署", 11) == "…/本地部署"


def test_from_reads_a_cut_file_name_from_its_start() -> None:
    """80×24 on a research vault: the root in the from column read `…ll Tricks`."""
    edge = Edge("Compiler/FP/Haskell/Haskell Tricks", "b", 1, "out")
    row = slice_row(edge, shows_from=True, from_width=10, to_width=10, title=lambda _: None)
    assert str(row[2]) == "Haskell T…"
    row = slice_row(edge, shows_from=True, from_width=17, to_width=10, title=lambda _: None)
    assert str(row[2]) == "…/Haskell Tricks"


FRONTIER = [
    "Frontier Exploration - Metacognitive Knowledge and Thinking Tools",
    "Frontier Exploration - Knowledge Domain Completeness",
    "Frontier Exploration - Knowledge Retrieval Patterns",
    "Graph Visualization",
]


def test_names_that_start_alike_share_their_start_to_a_word_s_end() -> None:
    """A bundle written by an agent names dozens of pages `Frontier Exploration - …`;
    daily notes share their month (`2024-05-`). The start shared ends after a word, and
    a name another begins with whole (`Graph` beside `Graph Layout`) shares none."""
    starts = shared_starts([*FRONTIER, "2024-05-01 Standup", "2024-05-02 Standup", "Graph"])
    assert starts[FRONTIER[0]] == SharedStart(len("Frontier Exploration - "), 23)
    assert starts[FRONTIER[1]] == SharedStart(len("Frontier Exploration - Knowledge "), 33)
    assert starts["2024-05-01 Standup"] == SharedStart(len("2024-05-"), 9)
    assert "Graph" not in starts and "Graph Visualization" not in starts
    assert shared_starts(["Orders", "Ordering"]) == {}  # no word in common


def test_a_name_cut_to_what_others_start_with_too_shows_its_own_part() -> None:
    """80×24 on that bundle: five rows of the link tree read `Frontier Explora… →4`."""
    starts = shared_starts(FRONTIER)
    cut = [shorten_right(name, 17, starts.get(name)) for name in FRONTIER[:3]]
    assert cut == ["…Metacognitive K…", "…Domain Complete…", "…Retrieval Patte…"]
    # Where the cut already shows what differs, the name is cut as before.
    assert shorten_right(FRONTIER[0], 40, starts[FRONTIER[0]]) == FRONTIER[0][:39] + "…"
    alike = shared_starts(["Orders Daily Build", "Orders build is late"])
    assert shorten_right("Orders Daily Build", 10, alike["Orders Daily Build"]) == "Orders Da…"
    assert shorten_right(FRONTIER[0], 2, starts[FRONTIER[0]]) == "F…"  # no room to say more


def test_table_cells_leave_out_the_start_the_column_shares() -> None:
    edges = [Edge(frm="Seed", to=name, hop=1, direction="out") for name in FRONTIER]
    starts = slice_shared_starts(edges, range(len(edges)), lambda slug: None)
    cells = [page_cell(name, None, 20, shared=starts).plain for name in FRONTIER]
    assert cells == [
        "…Metacognitive Know…",
        "…Domain Completeness",
        "…Retrieval Patterns",
        "Graph Visualization",
    ]
    row = slice_row(
        edges[1], shows_from=True, from_width=8, to_width=20, title=lambda s: None, shared=starts
    )
    assert row[3].plain == "…Domain Completeness"


NAME_PARTS = st.sampled_from(["Frontier", "Exploration", "-", "2024-05-", "知识", "a", "b", " "])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(NAME_PARTS, min_size=1, max_size=8).map("".join), min_size=1, max_size=8),
    st.integers(min_value=0, max_value=40),
)
def test_a_name_cut_beside_others_never_passes_its_width(names: list[str], width: int) -> None:
    """Whatever start the names share, a cut name takes at most `width` cells, a name that
    fits is shown whole, and a start left out is marked `…` where it was."""
    starts = shared_starts(names)
    for name in names:
        shared = starts.get(name)
        assert shared is None or (0 < shared.word < len(name) and shared.word <= shared.common)
        cut = shorten_right(name, width, shared)
        assert cell_len(cut) <= width
        if cell_len(name) <= width:
            assert cut == name
        elif shared is not None and leaves_start_out(name, width, shared):
            assert cut.startswith("…")
