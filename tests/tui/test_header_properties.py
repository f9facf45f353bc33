"""The page header's properties as a reader sees them in Obsidian's Properties view."""

from __future__ import annotations

from dataclasses import replace

from okf_explorer.core.okf import meta as okf_meta
from okf_explorer.sources.frontmatter import page_from_text
from okf_explorer.tui.widgets.page.header import Room, built_header, page_header

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


TEMPLATED = (
    "---\naliases: [Bessie Index]\nconfidence: \ncreated: 2025-09-06\nepistemic: \n"
    "purpose: \nsee_also: []\nstatus: \ntags: []\ntitle: Complete Index\ntype: index\n"
    "uid: \nlinks:\n  - \nversion: 1\n---\n\n## Complete Index\n\nThe text.\n"
)


def test_properties_left_empty_are_named_on_one_line_after_the_others() -> None:
    """A 2,565-note vault's template leaves a dozen keys blank (`confidence:`, `purpose:`,
    `uid:`, …): each was a row of its own with nothing after its name, nine rows above the
    text on every note. They are named together on the header's last line."""
    page = page_from_text("Complete Index", TEMPLATED, 0, "f")
    rows = page_header(page, unfold=True).plain.splitlines()
    assert rows[1:] == [
        "type index",
        "created 2025-09-06",
        "aliases Bessie Index",
        "version 1",
        "(empty) confidence, epistemic, purpose, see_also, status, uid, links",
    ], rows


def test_a_status_left_empty_is_no_okf_status_nor_trust() -> None:
    """The same template's `status:` made every note an OKF concept, `● stable ·
    ○ unverified` under its title, on a vault that says nothing of either."""
    page = page_from_text("Complete Index", TEMPLATED, 0, "f")
    badges = page_header(page, unfold=True).plain.splitlines()[1]
    assert badges == "type index"
    assert okf_meta.stated_status(page.frontmatter) is None
    assert not okf_meta.is_okf_concept(page.frontmatter)
    assert okf_meta.status_of(page.frontmatter) == "stable"  # what OKF reads for none
    assert okf_meta.summary(page.frontmatter) == (None, None, None)
    stated = page_from_text("x", "---\nstatus: Draft\n---\nBody.\n", 0, "f")
    assert okf_meta.stated_status(stated.frontmatter) == "draft"
    assert okf_meta.is_okf_concept(stated.frontmatter)
    assert page_header(stated).plain.splitlines()[1].startswith("✎")


def test_a_fold_never_hides_a_key_it_takes_the_same_row_to_count() -> None:
    """The title and badges stay whatever the room: under them, `… 1 more property · p
    shows them` would take the row of the one key it hides."""
    page = page_from_text("x", "---\ntype: note\nowner: tomas\n---\nBody.\n", 0, "f")
    whole = page_header(page).plain
    assert whole == "x\ntype note\nowner tomas"
    assert page_header(page, room=Room(1, 80)).plain == whole
    two = page_from_text("x", "---\ntype: note\nowner: tomas\nsize: 2\n---\nBody.\n", 0, "f")
    assert page_header(two, room=Room(1, 80)).plain.endswith("… 2 more properties · p shows them")
