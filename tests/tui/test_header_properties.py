"""The page header's properties as a reader sees them in Obsidian's Properties view."""

from __future__ import annotations

from dataclasses import replace

from okf_explorer.sources.frontmatter import page_from_text
from okf_explorer.tui.widgets.page.header import built_header, page_header

INDICATOR = (
    "---\ntags:\n  - math\naliases:\n  - Indicator RV\n"
    '"":\n'  # Obsidian's Properties view leaves an empty property behind
    "---\nA variable that is 0 or 1.\n"
)


def test_a_property_with_no_name_nor_value_shows_nothing() -> None:
    """A 13k-page student vault: `"":` in 1 page's frontmatter drew an empty `█` row and
    counted as one of the properties folded away."""
    page = page_from_text("Math/Indicator Random Variable", INDICATOR, 0, "f")
    rows = page_header(page, unfold=True).plain.splitlines()
    assert [(row.split() or [""])[0] for row in rows[1:]] == ["tags", "aliases"], rows
    named = page_from_text("x", '---\n"": kept\n---\nBody.\n', 0, "f")
    assert "kept" in built_header(named, unfold=True)[0].plain  # a value is shown


def test_a_note_of_many_tags_names_the_first_and_counts_the_rest() -> None:
    """A vault note's `#tags` are its tags: a note may hold hundreds, which filled the
    header line after line before its body."""
    text = "# Many\n\n" + " ".join(f"#topic-{n}" for n in range(40)) + "\n"
    page = page_from_text("Many", text, 0, "f")
    tagged = replace(page, tags=tuple(f"topic-{n}" for n in range(40)))
    header, folded = built_header(tagged)
    line = next(row for row in header.plain.splitlines() if row.startswith("tags "))
    assert line.startswith("tags topic-0, topic-1,")
    assert line.endswith("topic-11 +28 more · p shows them")
    assert folded  # so `p` is offered, and shows them all
    assert "topic-39" in built_header(tagged, unfold=True)[0].plain
