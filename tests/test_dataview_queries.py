"""Dataview's inline queries of a page's own fields, shown as their values
(`core.dataview`): a vault of 841 spell pages is written as `` # `=this.name` `` over
`` **Range** `=this.range` `` lines, every value in the frontmatter. Without them read,
each page was titled `=this.name` and its body a screen of code spans."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.dataview import inline_queries, page_fields
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.frontmatter import info_fields, page_from_text, split_frontmatter
from okf_explorer.tui.markdown import dialect_fields
from tests.bundles import write_pages

SPELL = """---
name: Glimmer
traditions: [arcane, occult]
range: 30 feet
heightened: null
basic: false
cast on: 2024-03-05
Due Date: 2024-03-06 14:05:00
effect: >
  A spark dazzles the target.

  **Critical Failure** The target is [[Dazzled]] for 1 minute.
---
# `=this.name`
**Traditions** `=this.traditions` · **Range** `=this.range`

`=this.effect`

| Range | `=this.effect` |
|---|---|
| near | far |
"""

SLUG = "spells/level-1/glimmer"


def shown(text: str, fields: dict[str, object] | None = None) -> str:
    frontmatter, body, _ = split_frontmatter(text)
    return inline_queries(body, page_fields(frontmatter, body) if fields is None else fields, SLUG)


def test_a_query_of_the_page_s_own_field_reads_as_its_value() -> None:
    body = shown(SPELL)
    assert body.startswith("# Glimmer\n**Traditions** arcane, occult · **Range** 30 feet\n")
    # a value of several paragraphs keeps them where its span stands alone on its line
    assert "\nA spark dazzles the target.\n**Critical Failure** The target is [[Dazzled]]" in body
    # and is one line inside a line, so the table holds
    assert (
        "| Range | A spark dazzles the target. **Critical Failure** The target is [[Dazzled]]"
        " for 1 minute. |" in body
    )


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("`=this.heightened`", "-"),  # nothing, as Dataview shows a null
        ("`=this.basic`", "false"),
        ("`=this.cast on`", "`=this.cast on`"),  # a space ends a name: no query
        ("`=this.cast-on`", "March 05, 2024"),  # Dataview's key for `cast on`
        ("`=this.due-date`", "2:05 PM - March 06, 2024"),
        ("`= this.RANGE `", "30 feet"),  # names read as Dataview reads them
        ("`=this.file.name` in `=this.file.folder`", "glimmer in spells/level-1"),
        ("`=this.file.link`", "[[spells/level-1/glimmer|glimmer]]"),
        ("`=this.missing` `=this.range + 1` `=date(today)`", None),  # left as written
        ("```\n`=this.range`\n```\n", None),  # in a fenced block
        ("``=this.range``", "30 feet"),  # a span of two backticks
    ],
)
def test_what_a_query_shows(written: str, expected: str | None) -> None:
    fields = page_fields(split_frontmatter(SPELL)[0], "")
    assert inline_queries(written, fields, SLUG) == (expected or written)


def test_values_dataview_shows_as_text() -> None:
    fields = {"when": date(2026, 12, 4), "at": datetime(2026, 12, 4, 0, 30), "n": 3}
    fields |= {"list": ["a", None, 2], "map": {"a": 1}, "nested": {"deep": "yes"}}
    queries = "`=this.when`|`=this.at`|`=this.n`|`=this.list`|`=this.map`|`=this.nested.deep`"
    assert inline_queries(queries, fields, "x") == (
        "December 04, 2026|12:30 AM - December 04, 2026|3|a, -, 2|`=this.map`|yes"
    )


def test_inline_fields_are_fields_too_and_the_frontmatter_wins() -> None:
    body = "Mood:: calm\n[rating:: 9] and `code:: not a field`\n`=this.mood` `=this.rating`"
    assert inline_queries(body, page_fields({}, body), "x").endswith("calm 9")
    assert "`=this.code`" in inline_queries("`=this.code`", page_fields({}, body), "x")
    assert inline_queries("`=this.mood`", page_fields({"mood": "wry"}, body), "x") == "wry"


def test_the_title_of_a_page_headed_by_a_query_is_the_value() -> None:
    row, _, _ = info_fields(SLUG, SPELL, 0, "f")
    assert row[1] == "Glimmer"
    assert page_from_text(SLUG, SPELL, 0, "f").title == "Glimmer"
    no_field = SPELL.replace("name: Glimmer\n", "")
    assert page_from_text(SLUG, no_field, 0, "f").title == "=this.name"  # as Dataview shows it


def test_a_page_without_queries_is_drawn_as_written() -> None:
    assert dialect_fields({"name": "x"}, "Plain `code` here.", "markdown") is None
    assert dialect_fields({"name": "x"}, "`=this.name`", "logseq") is None


def test_search_finds_and_quotes_the_values(tmp_path: Path) -> None:
    """The full-text index reads a page as the page pane shows it: `Traditions` quoted
    with its value, and `this` no word of every page written so."""
    pages = {SLUG: SPELL, "other": "# Other\n\nNothing about spells.\n"}
    brain = Brain(BundleSource(write_pages(tmp_path / "vault", pages)), cache_dir=False)
    [hit] = brain.text_search().search("traditions")
    assert hit.slug == SLUG and "«Traditions» arcane, occult · Range 30 feet" in hit.marked()
    assert brain.text_search().search("this") == []
    assert [hit.slug for hit in brain.text_search().search("glimmer")] == [SLUG]  # its title
