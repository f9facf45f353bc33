"""OKF v0.2 in the explorer, on our own bundle (`okf_bundle`): live source links in the
header, the attested computation block, glyphs in the link tree and traversal rows,
the `f` filter, and the glyph legend in `?` help."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import RadioSet, SelectionList, Static

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.marks import OKF_LEGEND
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import PagePane
from okf_explorer.tui.widgets.row_table import RowTable
from tests.okf_bundle import write_okf_bundle

from .conftest import SIZE, RecordingBrowser, brain_for, settle

pytestmark = pytest.mark.plain  # pages shown by Textual's Markdown in the plain pass

CHURN = "metrics/churn"


def okf_app(tmp_path: Path, start: str):  # type: ignore[no-untyped-def]
    return make_app(brain_for(BundleSource(write_okf_bundle(tmp_path / "okf"))), start=start)


def click_target(app, text: str) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """The screen offset of a clickable header span whose action names `text`."""
    region = app.screen.query_one("#page-header").region
    for y in range(region.y, region.bottom):
        for x in range(region.x, region.right):
            action = app.screen.get_style_at(x, y).meta.get("@click", "")
            if text in action:
                return x, y
    raise AssertionError(f"no clickable {text!r} in the header")


async def test_a_source_that_is_a_concept_opens_its_page_on_click(
    tmp_path: Path, window_browser: RecordingBrowser
) -> None:
    app = okf_app(tmp_path, "metrics/churn")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = str(app.screen.query_one("#page-header").content).replace("\xa0", " ")
        assert "Billing table — → tables/billing.md  [billing]" in header
        assert "Churn policy — https://wiki.example.org/finance/churn-policy" in header
        assert "all queries in project finance-prod" in header  # a scope: shown, not a link
        await pilot.click(offset=click_target(app, "churn-policy"))
        await settle(pilot, lambda: bool(window_browser.opened))
        assert window_browser.urls == ["https://wiki.example.org/finance/churn-policy"]
        await pilot.click(offset=click_target(app, "tables/billing.md"))
        await settle(pilot, lambda: app.screen.query_one(PagePane).slug == "tables/billing")
        assert app.screen.history.current.slug == "tables/billing"


async def test_sources_are_in_the_links_dialog_and_enter_follows_them(tmp_path: Path) -> None:
    app = okf_app(tmp_path, "metrics/churn")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        dialog = app.screen
        labels = [link.label for link in dialog.links]
        assert labels[:2] == ["source: Billing table", "source: Churn policy"]
        assert dialog.links[0].slug == "tables/billing" and dialog.links[0].exists
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen.query_one(PagePane).slug == "tables/billing")


async def test_an_attested_computation_shows_its_contract_and_failing_verdict(
    tmp_path: Path,
) -> None:
    app = okf_app(tmp_path, "computations/churn-rate")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = str(app.screen.query_one("#page-header").content).replace("\xa0", " ")
        assert "attested computation runtime bigquery" in header
        assert "parameters month: date (required), region: string" in header
        assert "computation references/churn_rate.sql" in header  # a .sql file: no link
        assert "executor → tables/billing.md · receipt job_id, executed_sql, result" in header
        assert "attester references/attesters/sql_equality.py" in header
        assert "✗ attestation failed (verdict: fail)" in header
        assert "reason: executed SQL differs from the sanctioned computation" in header
        assert "◐ machine-confirmed" in header and "● stable" in header
        assert "runtime:" not in header  # not repeated as a plain key below


async def test_an_incomplete_contract_is_shown_not_dropped(tmp_path: Path) -> None:
    root = write_okf_bundle(tmp_path / "okf")
    (root / "computations" / "broken.md").write_text(
        "---\ntype: Attested Computation\ntitle: Broken\nattester: {verdict: passed}\n---\n",
        encoding="utf-8",
    )
    app = make_app(brain_for(BundleSource(root)), start="computations/broken")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = str(app.screen.query_one("#page-header").content).replace("\xa0", " ")
        assert "attested computation runtime ?" in header
        assert "✓ attested (verdict: passed)" in header
        assert "✗ contract incomplete: no runtime (REQUIRED for an Attested Computation)" in header
        assert "✗ contract incomplete: attester without a resource" in header


def tree_labels(app) -> list[str]:  # type: ignore[no-untyped-def]
    outgoing = app.screen.query_one(LinkTree).root.children[0]
    return [node.label.plain for node in outgoing.children]


def to_cells(app) -> list[str]:  # type: ignore[no-untyped-def]
    table = app.screen.query_one("#traversal-table", RowTable)
    return [str(table.row(row).cells[3]) for row in range(table.row_count)]


async def test_rows_carry_status_trust_and_staleness_glyphs(tmp_path: Path) -> None:
    app = okf_app(tmp_path, "index")
    async with app.run_test(size=SIZE) as pilot:
        panel = app.screen.query_one(TraversalPanel)
        await settle(
            pilot, lambda: panel.filled and len(app.screen.query_one(LinkTree).root.children) == 2
        )
        await settle(pilot, lambda: len(tree_labels(app)) == 3)
        assert tree_labels(app)[0].startswith("✎◉⚠ metrics/churn →")  # draft, human, stale
        assert tree_labels(app)[1].startswith("◐ computations/churn-rate →")
        assert tree_labels(app)[2].startswith("notes/plain →")  # a plain note: no glyph
        slugs = [cell.split("  ")[0] for cell in to_cells(app)]  # titles follow the slugs
        assert slugs == ["✎◉⚠ metrics/churn", "◐ computations/churn-rate", "notes/plain"]
        await pilot.press("plus")
        await settle(pilot, lambda: panel.filled and panel.view.depth == 2)
        cells = dict(zip(panel.row_slugs, to_cells(app), strict=True))  # slugs cut from the left
        assert cells["tables/billing_old"].startswith("⊘○ ")
        assert cells["tables/billing"].startswith("◉ ")


async def test_f_filters_the_tree_and_the_slice_as_the_cli_does(tmp_path: Path) -> None:
    app = okf_app(tmp_path, "index")
    async with app.run_test(size=SIZE) as pilot:
        panel = app.screen.query_one(TraversalPanel)
        await settle(pilot, lambda: panel.filled)
        await pilot.press("plus", "plus")
        await settle(pilot, lambda: panel.filled and panel.view.depth == 3)
        await pilot.press("F")
        await settle(pilot)
        statuses = app.screen.query_one(SelectionList)
        statuses.select("stable")
        await settle(pilot, lambda: panel.filled and len({e.to for e in panel.edges}) == 3)
        edges = {(edge.frm, edge.to, edge.hop) for edge in panel.edges}
        assert edges == {  # as `links index --depth 3 --status stable --json`
            ("index", "computations/churn-rate", 1),
            ("index", "notes/plain", 1),
            ("computations/churn-rate", "tables/billing", 2),
        }
        radio = app.screen.query_one(RadioSet)
        radio.query("RadioButton")[2].value = True  # ≥ human-reviewed
        await settle(pilot, lambda: panel.filled and not panel.edges)
        await pilot.press("x")
        await settle(pilot, lambda: panel.filled and len({e.to for e in panel.edges}) == 5)
        statuses.select("draft")
        await pilot.press("escape")
        await settle(pilot, lambda: panel.filled and {e.to for e in panel.edges} == {CHURN})
        info = str(app.screen.query_one("#traversal-info").content)
        assert "filter status draft" in info
        assert [label.split(" ")[1] for label in tree_labels(app)] == ["metrics/churn"]


async def test_help_lists_the_glyphs_and_the_filter_key(tmp_path: Path) -> None:
    app = okf_app(tmp_path, "index")
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert str(app.screen.query_one("#help-okf-legend").content) == OKF_LEGEND
        keys = str(app.screen.query_one("#help-keys", Static).content).splitlines()
        assert any(re.fullmatch(r"F +Filter by OKF status and trust", line) for line in keys)


async def test_a_url_in_a_link_field_shows_as_an_external_reference(
    tmp_path: Path, window_browser: RecordingBrowser
) -> None:
    """`source: https://…` (and a mail address) in a typed-link field is no page edge:
    the header shows it as an external reference (↗), a click opens it outside, and the
    `l` dialog lists it."""
    root = tmp_path / "refs"
    (root / "references").mkdir(parents=True)
    (root / "references" / "guide.md").write_text(
        "---\ntitle: Guide\nsource: https://docs.example.com/guide/\n"
        "related: [someone@example.com, '[[other]]']\n---\n# Guide\n\nA reference page.\n"
    )
    (root / "other.md").write_text("# Other\n")
    app = make_app(brain_for(BundleSource(root)), start="references/guide")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = str(app.screen.query_one("#page-header").content).replace("\xa0", " ")
        assert "source ↗ https://docs.example.com/guide/" in header
        assert "related ↗ someone@example.com, [[other]]" in header
        await pilot.click(offset=click_target(app, "docs.example.com"))
        await settle(pilot, lambda: bool(window_browser.opened))
        assert window_browser.urls == ["https://docs.example.com/guide/"]
        await pilot.press("l")
        await settle(pilot)
        labels = [link.label for link in app.screen.links]
        assert "source: https://docs.example.com/guide/" in labels
        assert "related: someone@example.com" in labels
