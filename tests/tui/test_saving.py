"""`Saver` (`tui.state.saving`): what `T` and `S` save, with no screen at all, on a real
bundle in a tmp dir: the trail as JSON, a slice saved as a page, and what it says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from okf_explorer.core.graph.trail import Trail, TrailMove
from okf_explorer.core.port import SaveOutcome
from okf_explorer.core.save import saved_key
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.state.navigator import View
from okf_explorer.tui.state.saving import Saver, name_part, save_notice

from .conftest import brain_for


def test_a_slice_is_planned_then_saved_once_and_never_over_another_page(
    small_bundle: Path, tmp_path: Path
) -> None:
    brain = brain_for(BundleSource(small_bundle))
    brain.ensure_index()
    saver = Saver(brain, tmp_path)
    view = View("index")
    plan = saver.slice_plan(view, brain.traverse("index", 1, "out"))
    assert plan.what == "slice" and plan.default == "slices/index-d1-out"
    assert plan.text.startswith("---\n") and "- [Alpha page](/alpha.md)\n" in plan.text
    assert not (small_bundle / "slices").exists()  # planning writes nothing

    with pytest.raises(ValueError):
        saver.check("../out")
    result = saver.save(plan, saver.check(plan.default))
    assert result.outcome is SaveOutcome.WRITTEN and saver.last_save is result
    saved = (small_bundle / "slices/index-d1-out.md").read_text()
    assert saved == plan.text and saved_key(saved) == plan.key
    title, text, severity = save_notice(result)
    assert (title, severity) == ("saved", "information") and text.startswith("written: slices/")

    again = saver.slice_plan(view, brain.traverse("index", 1, "out"))
    assert saver.save(again, plan.default).outcome is SaveOutcome.UNCHANGED
    assert (small_bundle / "slices/index-d1-out.md").read_text() == saved

    refused = saver.save(again, "alpha")
    assert refused.outcome is SaveOutcome.REFUSED
    assert save_notice(refused)[0::2] == ("not saved", "error")
    assert "Alpha links" in (small_bundle / "alpha.md").read_text()


def test_the_trail_exports_as_json_read_back_before_it_counts(
    small_bundle: Path, tmp_path: Path
) -> None:
    saver = Saver(brain_for(BundleSource(small_bundle)), tmp_path)
    trail = Trail()
    trail.record(TrailMove(None, "index", "start"))
    trail.record(TrailMove("index", "alpha", "finder"))
    steps = trail.steps(None)
    name, text = saver.trail_export(steps)
    assert name == "okf-trail-index-2.json"
    saver.write_trail(tmp_path / name, text)
    assert saver.last_trail_export == tmp_path / name
    exported = json.loads((tmp_path / name).read_text())
    assert [(edge["from"], edge["to"]) for edge in exported["edges"]] == [("index", "alpha")]
    plan = saver.trail_plan(steps)
    assert plan.what == "trail" and plan.default.startswith("trails/index-")


def test_name_part_keeps_a_slug_to_one_safe_segment() -> None:
    assert name_part("tables/orders") == "tables-orders"
    assert name_part("../..") == "page"
