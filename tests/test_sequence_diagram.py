"""A Mermaid sequence diagram drawn as text (`core.diagrams.sequence`): an exact drawing
of what Mermaid writes, what stays as written, and a property: every message drawn once,
between its participants' lines."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.diagrams import drawing
from okf_explorer.core.diagrams.sequence import (
    MOST_EVENTS,
    MOST_PARTICIPANTS,
    MOST_STATEMENT,
    sequence_diagram,
)


def test_messages_notes_and_blocks_are_drawn_as_mermaid_draws_them():
    source = """sequenceDiagram
    autonumber
    participant U as User
    actor A as Agent
    U->>+A: ask
    A->>A: plan
    loop each source
        A-->>-U: a page
    end
    Note left of U: reads
    U-xA: stop
    U<<->>A: both"""
    drawn = sequence_diagram(source)
    assert drawn is not None and drawn == drawing(source)
    assert drawn.lines == (
        "       ┌──────┐    ┌───────┐",
        "       │ User │    │ Agent │",
        "       └──┬───┘    └───┬───┘",
        "          │   1. ask   │",
        "          ├───────────►│",
        "          │            ├──╮ 2. plan",
        "          │            ├◄─╯",
        "loop each source ┄┄┄┄┄┄┼┄┄┄┄┄┄┄┄┄┄┄",
        "          │ 3. a page  │",
        "          │◄┄┄┄┄┄┄┄┄┄┄┄┤",
        "┄┄┄┄┄┄┄┄┄┄┼┄┄┄┄┄┄┄┄┄┄┄┄┼┄┄┄┄┄┄┄┄┄┄┄",
        "┌───────┐ │            │",
        "│ reads │ │            │",
        "└───────┘ │            │",
        "          │  4. stop   │",
        "          ├───────────×│",
        "          │  5. both   │",
        "          ├◄──────────►│",
        "          │            │",
    )
    # cut only where no box stands: between the two boxes, and right of them
    assert sorted(drawn.open_columns) == [15, 16, 17, 18, *range(28, 35)]


def test_notes_over_participants_and_open_arrows():
    drawn = sequence_diagram(
        "sequenceDiagram\n  participant C as Client\n  participant S as Server\n"
        "  Note over C,S: Discovery\n  C--)S: notifications/cancelled"
    )
    assert drawn is not None
    assert drawn.lines[3:8] == (
        "   ┌──────────────────────────────┐",
        "   │ Discovery                    │",
        "   └──────────────────────────────┘",
        "     │ notifications/cancelled  │",
        "     ├┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄›│",
    )


def test_what_it_does_not_draw_whole_stays_as_written():
    for source in (
        "sequenceDiagram\n  A->>B: hi\n  loop forever\n  A->>B: again",  # never closed
        "sequenceDiagram\n  A->>B: hi\n  end",
        "sequenceDiagram\n  A => B: hi",  # not an arrow Mermaid has
        "sequenceDiagram\n  Note left of A,B: two",
        "sequenceDiagram\n  create participant C",
        "sequenceDiagram\n  A->>B: " + "x" * MOST_STATEMENT,
        "sequenceDiagram\n"
        + "\n".join(f"  p{i}->>p{i + 1}: hi" for i in range(MOST_PARTICIPANTS + 1)),
        "sequenceDiagram\n" + "\n".join("  A->>B: hi" for _ in range(MOST_EVENTS + 1)),
        "classDiagram\n  A <|-- B",
    ):
        assert sequence_diagram(source) is None and drawing(source) is None, source


@st.composite
def conversations(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, str]]]:
    """2-6 participants and 1-12 messages of every arrow, some in blocks or with notes."""
    count = draw(st.integers(2, 6))
    names = [f"P{i}" for i in range(count)]
    messages = draw(
        st.lists(
            st.tuples(st.integers(0, count - 1), st.integers(0, count - 1)), min_size=1, max_size=12
        )
    )
    arrows = ["->>", "-->>", "->", "-->", "-x", "--x", "-)", "--)"]
    lines = ["sequenceDiagram", *(f"  participant {name}" for name in names)]
    written = []
    for number, (start, end) in enumerate(messages):
        arrow = draw(st.sampled_from(arrows))
        if draw(st.booleans()):
            lines.append(f"  Note over {names[start]}: n{number}z")
        lines.append(f"  {names[start]}{arrow}{names[end]}: m{number}q")
        written.append((start, end, arrow))
    if draw(st.booleans()):
        lines[count + 1 : count + 1] = ["  loop again"]
        lines.append("  end")
    return "\n".join(lines), written


@settings(max_examples=150, deadline=None)
@given(conversations())
def test_each_message_is_drawn_once_between_its_participants_lines(
    conversation: tuple[str, list[tuple[int, int, str]]],
) -> None:
    source, written = conversation
    drawn = sequence_diagram(source)
    assert drawn is not None, source
    rows = list(drawn.lines)
    text = "\n".join(rows)
    lines = [x for x, char in enumerate(rows[2]) if char == "┬"]  # each participant's
    for number, (start, end, arrow) in enumerate(written):
        assert text.count(f"m{number}q") == 1, text
        (row,) = [y for y, line in enumerate(rows) if f"m{number}q" in line]
        if start == end:
            assert rows[row].index(f"m{number}q") > lines[start], text
            continue
        under = rows[row + 1]
        low, high = sorted((lines[start], lines[end]))
        drawn_between = under[low + 1 : high]
        assert drawn_between and all(char in "─┄┼►◄×›" for char in drawn_between), text
        heads = re.sub(r"[─┄┼]", "", drawn_between)
        if arrow.endswith((">>", "x", ")")):
            assert len(heads) == 1, text
        else:
            assert heads == "", text
