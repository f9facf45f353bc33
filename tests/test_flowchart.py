"""A Mermaid flowchart drawn as text (`core.diagrams.flowchart`): exact drawings of what Mermaid
writes, what stays as written, and a property: every link drawn joins its two boxes."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.diagrams.flowchart import MOST_NODES, flowchart


def drawn(source: str) -> str:
    drawing = flowchart(source)
    assert drawing is not None, source
    return "\n".join(drawing.lines)


def test_a_decision_with_texts_on_its_links_flows_down():
    source = """flowchart TD
    A[Notes arrive] --> B{Worth keeping?}
    B -->|yes| C[Write a page]
    B -->|no| D[Drop them]"""
    assert drawn(source) == "\n".join(
        [
            "         ┌──────────────┐",
            "         │ Notes arrive │",
            "         └──────┬───────┘",
            "                │",
            "                ▼",
            "        ╱────────────────╲",
            "        │ Worth keeping? │",
            "        ╲───────┬────────╱",
            "                │",
            "            ╭───┴──╮",
            "            │      │",
            "           yes     no",
            "            │      │",
            "       ╭────╯      ╰─────╮",
            "       ▼                 ▼",
            "┌──────────────┐   ┌───────────┐",
            "│ Write a page │   │ Drop them │",
            "└──────────────┘   └───────────┘",
        ]
    )


def test_a_chain_flows_right_and_links_that_meet_share_an_arrowhead():
    assert drawn("graph LR; A --> B --> C") == "\n".join(
        [
            "┌───┐  ┌───┐  ┌───┐",
            "│ A ├─►│ B ├─►│ C │",
            "└───┘  └───┘  └───┘",
        ]
    )
    grouped = flowchart("graph LR\n  A & B --> C\n  subgraph Inputs\n    A\n    B\n  end")
    assert grouped is not None
    assert grouped.lines == (
        "┌───┐",
        "│ A ├─╮",
        "└───┘ │  ┌───┐",
        "      ╰┬►│ C │",
        "┌───┐  │ └───┘",
        "│ B ├──╯",
        "└───┘",
    )
    assert grouped.notes == ("▢ Inputs: A, B",)
    # where a drawing too wide for its room is best cut: between boxes, where links run
    assert sorted(grouped.open_columns) == [5, 6, 7, 8]


def test_bottom_to_top_points_up_and_open_or_dotted_links_draw_as_mermaid_draws_them():
    source = "graph BT\n  root(Root) --- leaf[[Leaf]]\n  leaf -.-> other"
    assert drawn(source) == "\n".join(
        [
            "┌───────┐",
            "│ other │",
            "└───────┘",
            "    ▲",
            "    ┆",
            " ┌──┴───┐",
            " │ Leaf │",
            " └──┬───┘",
            "    │",
            "    │",
            " ╭──┴───╮",
            " │ Root │",
            " ╰──────╯",
        ]
    )


def test_wide_characters_and_line_breaks_keep_the_boxes_square():
    assert drawn("graph TD\n  甲[知識ベース] --> B[Wiki<br/>page]") == "\n".join(
        [
            "┌────────────┐",
            "│ 知識ベース │",
            "└─────┬──────┘",
            "      │",
            "      ▼",
            "   ┌──────┐",
            "   │ Wiki │",
            "   │ page │",
            "   └──────┘",
        ]
    )


def test_what_mermaid_writes_around_a_flowchart_is_read():
    # quoted texts, texts written inside a link, classes, hyphens in names, comments,
    # styles, clicks and a configuration block
    texts = drawn(
        "%%{init: {'theme': 'dark'}}%%\n"
        'graph TD\n  A["Say (hi)"] -- greets --> B([Bob]):::person\n'
        '  B --text--> C{{Hex}}\n  C -.->|"dot"| my-flag>Flag]\n'
        "  %% a comment\n  style A fill:#f00\n  click A callback\n  classDef person fill:#0f0"
    )
    for shown in ("│ Say (hi) │", "greets", "│ Bob │", "text", "│ Hex │", "dot", "│ Flag │"):
        assert shown in texts
    assert "%%" not in texts and "fill" not in texts and "person" not in texts
    assert drawn("graph TD\n  A --> B\n  B --> A").count("▲") == 1  # a cycle, turned once


def test_a_link_from_a_node_to_itself_is_given_under_the_drawing():
    """A quantitative finance wiki's Markov chains (`S1 -->|0.9| S1`, a hidden Markov
    model's regimes) stayed as written: each loop is now a line under the drawing, as a
    group is."""
    chain = flowchart(
        "graph LR\n  S1((Bull)) -->|0.9| S1\n  S1 -->|0.1| S2((Bear))\n  S2 --> S2\n  S2 ~~~ S2"
    )
    assert chain is not None
    assert chain.notes == ("↻ Bull — 0.9", "↻ Bear")  # a hidden one (`~~~`) is not drawn
    assert "0.9" not in "\n".join(chain.lines) and "0.1" in "\n".join(chain.lines)


def test_what_it_does_not_draw_whole_stays_as_written():
    for source in (
        "sequenceDiagram\n  A->>B: hi",
        "graph TD\n  subgraph one\n  A --> B",  # a group never closed
        "graph TD\n  A --> B\n  end",
        "graph TD\n  A ==> B ~> C",  # a statement it does not read
        "graph TD\n  A[unclosed --> B",
        "graph TD",
        "graph TD\n" + "\n".join(f"  n{i} --> n{i + 1}" for i in range(MOST_NODES + 1)),
    ):
        assert flowchart(source) is None, source


# --- every link drawn joins its two boxes ------------------------------------------------

_WAYS = {
    "─": "lr", "│": "ud", "╭": "dr", "╮": "dl", "╰": "ur", "╯": "ul", "├": "udr",
    "┤": "udl", "┬": "lrd", "┴": "lru", "┼": "udlr", "┄": "lr", "┆": "ud",
    "▼": "ud", "▲": "ud", "►": "lr", "◄": "lr",
}  # fmt: skip
_STEP = {"u": (0, -1), "d": (0, 1), "l": (-1, 0), "r": (1, 0)}
_BACK = {"u": "d", "d": "u", "l": "r", "r": "l"}


def _boxes(rows: list[str], names: list[str]) -> dict[str, set[tuple[int, int]]]:
    """Each node's box cells, found by its name's line (`│ n3 │`, a side may be a joint)."""
    boxes = {}
    for name in names:
        found = [
            (y, m) for y, row in enumerate(rows) for m in re.finditer(rf"[│├┤] {name} [│├┤]", row)
        ]
        assert len(found) == 1, (name, rows)
        y, match = found[0]
        boxes[name] = {(x, y + dy) for x in range(match.start(), match.end()) for dy in (-1, 0, 1)}
    return boxes


def _joined(rows: list[str], box: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The line cells reached from `box`: a line leaves a box through a joint of its
    border (`┬`) or meets it with an arrowhead, and goes on cell to cell where both
    cells' glyphs point at each other."""

    def at(x: int, y: int) -> str:
        return rows[y][x] if 0 <= y < len(rows) and 0 <= x < len(rows[y]) else " "

    start = set()
    for x, y in box:
        for way, (dx, dy) in _STEP.items():
            cell = (x + dx, y + dy)
            if cell in box:
                continue
            glyph = at(*cell)
            if _BACK[way] in _WAYS.get(glyph, ""):
                start.add(cell)
    seen, todo = set(start), list(start)
    while todo:
        x, y = todo.pop()
        for way in _WAYS.get(at(x, y), ""):
            dx, dy = _STEP[way]
            cell = (x + dx, y + dy)
            if cell not in seen and _BACK[way] in _WAYS.get(at(*cell), ""):
                seen.add(cell)
                todo.append(cell)
    return seen


@st.composite
def flowcharts(draw: st.DrawFn) -> tuple[str, list[tuple[str, str]]]:
    """A flowchart of 2-9 nodes and 1-14 links, any direction, any kind of link."""
    count = draw(st.integers(2, 9))
    names = [f"n{i}" for i in range(count)]
    pairs = st.tuples(st.sampled_from(names), st.sampled_from(names)).filter(lambda p: p[0] != p[1])
    links = draw(st.lists(pairs, min_size=1, max_size=14, unique=True))
    direction = draw(st.sampled_from(["TD", "LR", "BT", "RL"]))
    arrows = draw(
        st.lists(
            st.sampled_from(["-->", "---", "-.->", "==>", "<-->"]),
            min_size=len(links),
            max_size=len(links),
        )
    )
    lines = [
        f"graph {direction}",
        *(f"  {a} {arrow} {b}" for (a, b), arrow in zip(links, arrows, strict=True)),
    ]
    return "\n".join(lines), links


@settings(max_examples=150, deadline=None)
@given(flowcharts())
def test_every_link_drawn_joins_its_two_boxes(chart: tuple[str, list[tuple[str, str]]]) -> None:
    source, links = chart
    drawing = flowchart(source)
    assert drawing is not None, source
    rows = list(drawing.lines)
    used = sorted({name for link in links for name in link})
    boxes = _boxes(rows, used)
    for start, end in links:
        assert _joined(rows, boxes[start]) & _joined(rows, boxes[end]), (
            start,
            end,
            "\n".join(rows),
        )


@settings(max_examples=100, deadline=None)
@given(flowcharts())
def test_each_links_text_is_drawn_once_and_never_cut(
    chart: tuple[str, list[tuple[str, str]]],
) -> None:
    source, links = chart
    head, *statements = source.split("\n")
    texted = [
        re.sub(r"(-->|---|-\.->|==>|<-->)", rf"\1|t{number}x|", line, count=1)
        for number, line in enumerate(statements)
    ]
    drawing = flowchart("\n".join([head, *texted]))
    assert drawing is not None
    text = "\n".join(drawing.lines)
    for number in range(len(links)):
        assert text.count(f"t{number}x") == 1, text
        (row,) = [line for line in drawing.lines if f"t{number}x" in line]
        start = row.index(f"t{number}x")
        assert not drawing.open_columns & set(range(start, start + 3))  # never cut there
