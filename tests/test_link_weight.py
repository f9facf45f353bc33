"""Link weights (`core.graph.best_paths`) on a real bundle stating a relation of every kind:
a stated relation weighs 1 whichever side states it; a page's body-link weights are
shares of its link mentions, so they add up to 1."""

from __future__ import annotations

import math
from pathlib import Path

from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.best_paths import body_shares
from okf_explorer.core.index.model import ResolvedLink
from okf_explorer.sources.folder.bundle import BundleSource
from tests.typed_bundle import make_typed_bundle


def test_stated_relations_weigh_one_and_body_shares_add_up_to_one(tmp_path: Path) -> None:
    brain = Brain(BundleSource(make_typed_bundle(tmp_path / "b")), cache_dir=False)
    weights = brain.link_weights()
    index = weights.index
    typed = 0
    for slug in index.pages:
        steps = weights.out_steps(slug)
        for step in steps:
            assert 0.0 < step.weight <= 1.0
            if step.rel != "links":
                typed += 1
                assert step.weight == 1.0
        body = [step.weight for step in steps if step.rel == "links"]
        shares = weights.shares(slug)
        assert all(weight in shares.values() for weight in body)
        if shares:
            assert math.isclose(sum(shares.values()), 1.0)
        for step in weights.in_steps(slug):  # an edge weighs the same walked either way
            assert step.weight == weights.weight(step.to, slug, step.rel)
    assert typed >= 5  # derived_from, resource, related_to, works_at (both sides), ...
    incoming = [s for s in weights.out_steps("people/bob") if s.to == "companies/acme"]
    assert [(s.rel, s.weight) for s in incoming] == [("works_at", 1.0)]  # stated by acme


def test_body_shares_count_mentions_after_resolution() -> None:
    links = [
        ResolvedLink("a", "a", "wiki", "exact", count=2),
        ResolvedLink("gone", "gone", "wiki", "dangling", count=1),
        ResolvedLink("x", "x", "wiki", "exact", rel="derived_from"),
        ResolvedLink("b", "b", "markdown", "path", count=1),
    ]
    assert body_shares(links) == {"a": 0.5, "gone": 0.25, "b": 0.25}
    assert body_shares([]) == {}
