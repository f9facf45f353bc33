"""Property tests (hypothesis): text cut or wrapped to a width never takes more cells
than Rich counts for it, whatever the names hold.

Found by fuzzing names as vaults write them (Chinese, emoji with the selector, zero-width
joiners, combining marks): the local graph raised `IndexError` on a name holding a
joiner, tree rows cut by characters ran past the pane, and rows of Chinese text holding
U+26A0 with the selector were drawn a cell wider than the pane.
"""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.text import Text

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.tui.cells import RunCells
from okf_explorer.tui.markdown.cjk_wrap import cjk_cuts
from okf_explorer.tui.state.slice import fit_label, shorten_left, shorten_right
from okf_explorer.tui.widgets.graph.graph_layout import lay_out

ALPHABET = "ab/-_ 中文字é\u0301\u26a0\ufe0f\u200d\U0001f5c2\U0001f468"
names = st.text(alphabet=ALPHABET, min_size=1, max_size=40).map(
    lambda name: name.strip("/ ") or "x"
)
widths = st.integers(min_value=1, max_value=90)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET + "\u200d\ufe0f", max_size=60))
def test_a_run_counted_a_character_at_a_time_is_counted_as_rich_counts_it(text: str) -> None:
    """`RunCells` (the wrapper's and the cuts' count, one character at a time) against
    Rich's count of the whole run, at every length."""
    run, total = RunCells(), 0
    for end, char in enumerate(text, start=1):
        total += run.add(char)
        assert total == cell_len(text[:end]), text[:end]


@settings(max_examples=300, deadline=None)
@given(names, widths)
def test_a_name_cut_fits_its_width(name: str, width: int) -> None:
    assert cell_len(shorten_right(name, width)) <= width
    assert cell_len(shorten_left(name, width)) <= width


@settings(max_examples=300, deadline=None)
@given(names, st.one_of(st.none(), names), widths)
def test_a_link_tree_row_fits_its_width(slug: str, title: str | None, width: int) -> None:
    label = Text.assemble("▶ ", slug, (" →3", "cyan"), (f"  {title or 'links'}", "dim"))
    assert fit_label(label, slug, width, title=title).cell_len <= width


@settings(max_examples=200, deadline=None)
@given(st.lists(names, min_size=1, max_size=8).map(" ".join), st.integers(2, 60))
def test_each_row_of_wrapped_text_fits_its_width(text: str, width: int) -> None:
    starts = [0, *cjk_cuts(text, width), len(text)]
    for start, end in pairwise(starts):
        row = text[start:end].rstrip(" ")
        assert cell_len(row) <= width or len(row) == 1, (row, width)


@settings(max_examples=150, deadline=None)
@given(
    names,
    st.lists(st.tuples(names, st.sampled_from(["out", "in"])), min_size=1, max_size=12),
    st.integers(16, 160),
    st.integers(3, 30),
)
def test_every_row_of_the_graph_is_as_wide_as_the_drawing(
    root: str, linked: list[tuple[str, str]], width: int, height: int
) -> None:
    edges = [Edge(root, name, 1, way) for name, way in linked if name != root]
    layout = lay_out(root, edges, lambda slug: True, width=width, height=height)
    assert {cell_len(line) for line in layout.lines} == {layout.width}
