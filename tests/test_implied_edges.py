"""Implied inverse edges (issue 27 §2): where a relation has a known inverse (gbrain's
schema-pack verbs, Breadcrumbs' up/down and next/prev), the inverse edge is there to walk
with `--implied` (the TUI's `i`), marked, never exported unless asked, never a backlink.

In the shape vault: `garden/rose` and `garden/tulip` state `up` to `garden/water` (so
water is implied `down` to both), `garden/tulip` `next:: [[garden/rose]]` (rose `prev`
tulip), `garden/compost` `same:: tulip` (tulip `same` compost), `kitchen/yeast`
`prev:: [[kitchen/flour]], [[nowhere]]` (flour `next` yeast; a missing page implies
nothing), people ann and bob `works_at:: [[companies/acme]]` (acme `employs` both).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.implied import INVERSES, inverse_of
from okf_explorer.sources.folder.bundle import BundleSource
from tests.shape_vault import make_shape_vault

pytestmark = pytest.mark.plain


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return make_shape_vault(tmp_path / "vault")


def brain_of(vault: Path) -> Brain:
    return Brain(BundleSource(vault), cache_dir=False)


def test_the_inverse_table_reads_both_ways() -> None:
    assert inverse_of("up") == "down" and inverse_of("down") == "up"
    assert inverse_of("next") == "prev" and inverse_of("prev") == "next"
    assert inverse_of("same") == "same"
    assert inverse_of("works_at") == "employs" and inverse_of("employs") == "works_at"
    assert inverse_of("invested_in") == "investor_of"
    assert inverse_of("links") is None and inverse_of("derived_from") is None
    assert all(INVERSES[INVERSES[rel]] == rel for rel in INVERSES)


def test_implied_edges_of_a_page_both_ways(vault: Path) -> None:
    brain = brain_of(vault)
    assert brain.implied_edges("garden/water", "out") == [
        ("garden/rose", "down"),
        ("garden/tulip", "down"),
    ]
    assert brain.implied_edges("garden/rose", "out") == [("garden/tulip", "prev")]
    assert brain.implied_edges("garden/tulip", "out") == [("garden/compost", "same")]
    assert brain.implied_edges("kitchen/flour", "out") == [("kitchen/yeast", "next")]
    assert brain.implied_edges("companies/acme", "out") == [
        ("people/ann", "employs"),
        ("people/bob", "employs"),
    ]
    assert brain.implied_edges("people/ann", "in") == [("companies/acme", "employs")]
    assert brain.implied_edges("kitchen/yeast", "in") == [("kitchen/flour", "next")]
    assert brain.implied_edges("notes/lonely", "out") == []


def test_a_traversal_walks_implied_edges_only_when_asked_and_marks_them(vault: Path) -> None:
    brain = brain_of(vault)
    assert brain.traverse("companies/acme", 2, "out") == []
    edges = brain.traverse("companies/acme", 2, "out", implied=True)
    assert [(e.frm, e.to, e.hop, e.rel, e.implied) for e in edges] == [
        ("companies/acme", "people/ann", 1, "employs", True),
        ("companies/acme", "people/bob", 1, "employs", True),
        ("people/ann", "garden/rose", 2, "links", False),
        ("people/ann", "companies/acme", 2, "works_at", False),
        ("people/ann", "people/bob", 2, "mentor", False),
        ("people/bob", "companies/acme", 2, "works_at", False),
    ]
    only = brain.traverse("garden/water", 1, "out", rels=["down"], implied=True)
    assert [(e.to, e.rel, e.implied) for e in only] == [
        ("garden/rose", "down", True),
        ("garden/tulip", "down", True),
    ]
    back = brain.traverse("people/ann", 1, "in", implied=True)
    assert [(e.to, e.rel, e.implied) for e in back] == [
        ("garden/rose", "links", False),
        ("companies/acme", "employs", True),
    ]


def test_implied_edges_are_never_backlinks(vault: Path) -> None:
    brain = brain_of(vault)
    assert brain.backlinks("people/ann") == ["garden/rose"]
    assert brain.backlinks("garden/rose") == [
        "garden/compost", "garden/soil", "garden/tulip", "garden/water", "people/ann"
    ]  # fmt: skip
    assert brain.stats().links == brain_of(vault).stats().links


def test_links_and_export_take_implied_only_when_asked(vault: Path, run) -> None:
    source = ("--source", str(vault))
    assert run("links", "companies/acme", *source) == (0, "", "")
    status, out, err = run("links", "companies/acme", "--implied", *source)
    assert (status, out) == (0, "people/ann\npeople/bob\n"), err
    assert json.loads(run("export", "companies/acme", "--depth", "2", *source)[1]) == []
    status, out, _ = run("links", "companies/acme", "--implied", "--json", *source)
    assert json.loads(out) == [
        {"type": "edge", "hemisphere": "knowledge", "from": "companies/acme",
         "to": "people/ann", "rel": "employs", "direction": "out", "hop": 1, "implied": True},
        {"type": "edge", "hemisphere": "knowledge", "from": "companies/acme",
         "to": "people/bob", "rel": "employs", "direction": "out", "hop": 1, "implied": True},
    ]  # fmt: skip
    status, out, _ = run(
        "export", "garden/water", "--implied", "--rel", "down", "--format", "dot", *source
    )
    assert '"garden/water" -> "garden/rose" [hop=1, direction="out", rel="down", ' in out
    assert 'label="down (implied)", style=dashed' in out
    status, out, _ = run(
        "export", "garden/water", "--implied", "--rel", "down", "--format", "mermaid", *source
    )
    assert '-.->|"1 down (implied)"|' in out


def test_walk_takes_implied_edges_when_asked(vault: Path, run) -> None:
    source = ("--source", str(vault))
    assert run("walk", "--root", "companies/acme", *source)[1] == (
        "1.000\t0\tcompanies/acme\tvia companies/acme\n"
    )
    status, out, err = run("walk", "--root", "companies/acme", "--implied", "--depth", "1", *source)
    assert status == 0 and out.splitlines() == [
        "1.000\t0\tcompanies/acme\tvia companies/acme",
        "1.000\t1\tpeople/ann\tvia companies/acme →(employs, implied 1.000) people/ann",
        "1.000\t1\tpeople/bob\tvia companies/acme →(employs, implied 1.000) people/bob",
    ], err
