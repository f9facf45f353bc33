"""A hostile ```` ```mermaid ```` block costs its length, not its square, and a drawing
too large to read is not drawn (`core.diagrams`, found by a review of the flowchart's first cut):
a link's text followed by 19,000 spaces took 6 s to read (a pattern's backtracking), a
line of 6,000 `#a;` entities 0.4 s, and 3,000 links among 100 nodes 5 s to lay out. A
sequence diagram's statement is read only up to 2,000 characters (its message pattern
would otherwise take the square of a run of spaces).

Growth is timed as in `test_link_scans_linear`: the same work at two sizes in one run."""

from __future__ import annotations

from okf_explorer.core.diagrams.flowchart import MOST_CELLS, MOST_LINKS, MOST_POINTS, flowchart
from okf_explorer.core.diagrams.sequence import MOST_STATEMENT, sequence_diagram
from tests.hostile.test_link_scans_linear import BOUND, growth


def test_a_links_text_is_looked_for_in_a_bounded_stretch() -> None:
    def read(size: int) -> None:
        assert flowchart("graph TD\nA -- a" + " " * size + "x") is None

    assert growth(read, 2_000) < BOUND


def test_entities_before_semicolons_cost_their_length() -> None:
    def read(size: int) -> None:
        assert flowchart("graph TD\n" + "#a;" * size) is None

    assert growth(read, 600) < BOUND


def test_a_flowchart_too_large_to_read_stays_as_written() -> None:
    too_many_links = "graph TD\n" + " --> ".join(f"n{i % 100}" for i in range(MOST_LINKS + 2))
    assert flowchart(too_many_links) is None
    hub = 90  # a chain of 90 and links from its first node to each: 4,000 points between
    spans = "\n".join(f"n0 --> n{i}" for i in range(2, hub))
    chain = "\n".join(f"n{i} --> n{i + 1}" for i in range(hub))
    assert hub * hub // 2 > MOST_POINTS and flowchart(f"graph TD\n{chain}\n{spans}") is None
    wide = "graph TD\n" + "a" * (MOST_CELLS // 8) + " --> b"  # a box as wide as 18,750 cells
    assert flowchart(wide) is None
    assert flowchart("graph TD\n" + "a" * 50 + " --> b") is not None


def test_a_sequence_diagrams_statements_cost_their_length() -> None:
    def read(size: int) -> None:
        assert sequence_diagram("sequenceDiagram\nA->>B" + " " * size) is None

    assert growth(read, 200) < BOUND
    long = "sequenceDiagram\n  participant " + "a " * MOST_STATEMENT
    assert sequence_diagram(long) is None
