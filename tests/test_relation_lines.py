"""A Basic Memory note's relation lines are typed edges (`core.links.relation_lines`).

Seen on a 771-note Korean vault kept by Claude through Basic Memory: every note ends with
`## Relations` and items of a type, a link and a context in parentheses; 2,389 links so
typed (`part_of`, `contains`, `relates_to`, `uses`, `calls`, …) were plain links, one
relation, in the link tree, walks and exports. The notes below are ours, in the same shape.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.brain import Brain
from okf_explorer.core.links.grammar import extract_link_tuples, reference_link_tuples
from okf_explorer.core.links.relation_lines import relation_values
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_bundle

pytestmark = pytest.mark.plain

NOTE = """---
title: Trowel
type: tool
permalink: garden/trowel
---
# Trowel

A hand tool, kept beside [[Seed Tray]].

## Observations
- [use] Digs small holes #garden (spring)

## Relations
- part_of [[Garden Kit]]
- uses [[Seed Tray]] (to fill it)
- "made from" [[Steel]]
- Related: [[Spade]]
- sharpened_by [[Whetstone|the stone]] (weekly (in spring))
- see [[Spade]] and then [[Rake]]
- [x] [[Rake]]
- next:: [[Hoe]]
- [[Fork]]

```
- part_of [[In Code]]
```
"""


def typed(text: str, relation_lines: bool = True) -> list[tuple[str, str]]:
    """(target, relation) of each link of `text`, as the index keeps them."""
    rows = extract_link_tuples(text, relation_lines=relation_lines)
    return [(row[0], row[4]) for row in rows]


def test_a_relation_line_types_its_link_as_basic_memory_reads_it() -> None:
    assert typed(NOTE) == [
        ("Seed Tray", "links"),  # the prose mention: a link of its own
        ("Spade", "links"),  # `see [[Spade]] and then [[Rake]]` runs on: prose
        ("Rake", "links"),  # a task is no relation type
        ("Fork", "links"),  # no type before the link
        ("Garden Kit", "part_of"),
        ("Seed Tray", "uses"),
        ("Steel", "made-from"),  # a quoted type may hold spaces: a relation as a key is
        ("Spade", "related"),
        ("Whetstone", "sharpened_by"),  # one balanced context, nested or not
        ("Hoe", "next"),  # an inline field is the field's
    ]


def test_a_note_basic_memory_did_not_write_keeps_plain_links() -> None:
    """`- Uses [[x]]` in an ordinary vault is prose (64 items of three public vaults
    begin `- The [[…`)."""
    plain = typed(NOTE.replace("permalink", "perma"), relation_lines=False)
    assert {relation for _, relation in plain} == {"links", "next"}


def test_a_context_that_is_not_one_group_is_prose() -> None:
    text = "- uses [[A]] (one) and (two)\n- uses [[B]] (open\n- uses [[C]]   \n"
    assert typed(text) == [("A", "links"), ("B", "links"), ("C", "uses")]
    assert relation_values("- uses [[C]]\n") == [("uses", 7, 12)]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["- ", "1. ", "uses ", '"made of" ', "[[a]]", "[[b|B]]", " (c)", "(", ")", "\n",
             "\n\n", "next:: ", "[x] ", "`", "```\n", "\\", "x", " "]
        ),
        max_size=30,
    ).map("".join)
)  # fmt: skip
def test_the_fast_scan_and_the_reference_agree_on_relation_lines(text: str) -> None:
    fast = extract_link_tuples(text, relation_lines=True)
    assert fast == reference_link_tuples(text, relation_lines=True)
    # typing a link never adds or loses one of its mentions
    mentions: dict[str, int] = {}
    for row in extract_link_tuples(text):
        mentions[row[0]] = mentions.get(row[0], 0) + row[2]
    for row in fast:
        mentions[row[0]] = mentions.get(row[0], 0) - row[2]
    assert set(mentions.values()) <= {0}


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_bundle(
        tmp_path / "v",
        {
            "tools/Trowel.md": NOTE,
            "Garden Kit.md": "---\npermalink: garden-kit\n---\n- contains [[Trowel]]\n",
            "Seed Tray.md": "# Seed Tray\n- part_of [[Garden Kit]]\n",  # no permalink
            "Steel.md": "Steel.\n",
        },
    )


def test_relation_lines_are_edges_of_their_type_in_the_index(vault: Path) -> None:
    brain = Brain(BundleSource(vault), cache_dir=False)
    edges = brain.ensure_index().out_edges("tools/Trowel")
    assert ("Garden Kit", "part_of") in edges and ("Seed Tray", "uses") in edges
    assert ("Steel", "made-from") in edges and ("Seed Tray", "links") in edges
    assert brain.ensure_index().out_edges("Garden Kit") == [("tools/Trowel", "contains")]
    assert brain.ensure_index().out_edges("Seed Tray") == [("Garden Kit", "links")]


def test_rel_keeps_a_walk_to_a_relation_line(vault: Path, run) -> None:  # type: ignore[no-untyped-def]
    status, out, err = run("links", "tools/Trowel", "--rel", "part_of", "--source", str(vault))
    assert (status, out) == (0, "Garden Kit\n"), err
    status, out, _ = run(
        "export", "Garden Kit", "--source", str(vault), "--format", "jsonl", "--depth", "1"
    )
    records = [json.loads(line) for line in out.splitlines()]
    assert ("Garden Kit", "tools/Trowel", "contains") in [
        (r["from"], r["to"], r["rel"]) for r in records
    ]
