"""Walks by relation (issue 27 §4, seed 003): `walk --rel R` follows only those relations,
parallel typed edges between two pages stay separate edges with their own weights, and
each hop says which relation it took.

In the shape vault, `garden/tulip` links `garden/rose` in prose (one of three body-link
mentions: weight 1/3) and types it `next:: [[garden/rose]]` (a stated relation: 1.0);
`garden/tulip` states `up: "[[garden/water]]"` (1.0) and links `garden/soil` (1/3).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.best_paths import path_text
from okf_explorer.sources.folder.bundle import BundleSource
from tests.shape_vault import make_shape_vault

pytestmark = pytest.mark.plain


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return make_shape_vault(tmp_path / "vault")


def hops(brain: Brain, root: str, **options: object) -> dict[str, str]:
    return {row.slug: path_text(row) for row in brain.walk([root], **options)}  # type: ignore[arg-type]


def test_parallel_typed_edges_keep_their_own_weights(vault: Path) -> None:
    weights = Brain(BundleSource(vault), cache_dir=False).link_weights()
    steps = [(s.to, s.rel, round(s.weight, 3)) for s in weights.out_steps("garden/tulip")]
    assert ("garden/rose", "links", 0.333) in steps
    assert ("garden/rose", "next", 1.0) in steps


def test_rel_keeps_the_walk_to_those_relations(vault: Path) -> None:
    brain = Brain(BundleSource(vault), cache_dir=False)
    assert hops(brain, "garden/tulip", depth=1) == {
        "garden/tulip": "garden/tulip",
        "garden/rose": "garden/tulip →(next 1.000) garden/rose",  # the heavier parallel edge
        "garden/water": "garden/tulip →(up 1.000) garden/water",
        "garden/soil": "garden/tulip →(0.333) garden/soil",
        "garden/compost": "garden/tulip →(0.333) garden/compost",
    }
    assert hops(brain, "garden/tulip", depth=1, rels=["links"]) == {
        "garden/tulip": "garden/tulip",
        "garden/rose": "garden/tulip →(0.333) garden/rose",
        "garden/soil": "garden/tulip →(0.333) garden/soil",
        "garden/compost": "garden/tulip →(0.333) garden/compost",
    }
    assert hops(brain, "garden/tulip", depth=3, rels=["next", "up"]) == {
        "garden/tulip": "garden/tulip",
        "garden/rose": "garden/tulip →(next 1.000) garden/rose",
        "garden/water": "garden/tulip →(up 1.000) garden/water",
    }
    assert hops(brain, "garden/water", depth=1, direction="in", rels=["up"]) == {
        "garden/water": "garden/water",
        "garden/rose": "garden/water ←(up 1.000) garden/rose",
        "garden/tulip": "garden/water ←(up 1.000) garden/tulip",
    }


def test_walk_rel_on_the_command_line(vault: Path, run) -> None:
    status, out, err = run(
        "walk", "--root", "garden/tulip", "--rel", "next", "--rel", "up", "--source", str(vault)
    )
    assert status == 0, err
    assert out.splitlines() == [
        "1.000\t0\tgarden/tulip\tvia garden/tulip",
        "1.000\t1\tgarden/rose\tvia garden/tulip →(next 1.000) garden/rose",
        "1.000\t1\tgarden/water\tvia garden/tulip →(up 1.000) garden/water",
    ]
    status, out, _ = run(
        "walk", "--root", "garden/tulip", "--rel", "links", "--depth", "1", "--json",
        "--source", str(vault),
    )  # fmt: skip
    rows = json.loads(out)
    assert {edge["rel"] for row in rows for edge in row["edges"]} == {"links"}


def test_walk_rel_the_graph_lacks_notes_it(vault: Path, run) -> None:
    status, out, err = run("walk", "--root", "garden/tulip", "--rel", "upp", "--source", str(vault))
    assert (status, out) == (0, "1.000\t0\tgarden/tulip\tvia garden/tulip\n")
    assert "upp" in err and "relation" in err
