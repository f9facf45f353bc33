"""The page header shows every frontmatter key readably, OKF v0.2 fields first, with badges."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.page.header import SOURCE_ROWS
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SIZE, brain_for, settle, write_bundle


def header_text(app) -> str:  # type: ignore[no-untyped-def]
    """The page header as read on screen (its non-breaking spaces as spaces)."""
    return str(app.screen.query_one("#page-header").content).replace("\xa0", " ")


EVERY_FIELD = """---
zeta_custom: last of all
title: Net churn
type: metric
status: draft
verified: { by: human:rosa@example, at: 2026-03-01T10:00:00Z }
stale_after: 2020-06-01T00:00:00+02:00
tags: [finance, churn]
description: Customers lost minus customers won back.
sources:
  - id: billing-export
    resource: https://example.org/billing/export
    title: Billing export notes
    usage_count: 42
    last_modified: 2026-02-01T00:00:00Z
  - id: churn-base
    resource: /base.md
    title: Customer base
owner: team:growth
authors: [rosa, ari]
date: 2026-01-15
aliases: [churn]
generated: { by: writer-agent/1.0, at: 2026-02-20T22:53:05Z }
checklist: [one step, two steps, three steps, four steps, five steps, six steps, seven, eight,
  nine, ten, eleven, twelve, thirteen, fourteen]
"odd\\x1bkey": {nested: {deeper: [1, 2]}}
---
Churn fell [^billing-export].
"""


async def test_header_shows_every_key_readably_in_a_fixed_order(tmp_path: Path) -> None:
    root = write_bundle(
        tmp_path / "b",
        {
            "index.md": "[[churn]]\n",
            "churn.md": EVERY_FIELD,
            "base.md": "# Base\n",
        },
    )
    app = make_app(brain_for(BundleSource(root)), start="churn")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = header_text(app)
        assert "datetime" not in header and "{'" not in header and "['" not in header
        assert "✎ draft" in header and "◉ human-reviewed" in header
        assert "⚠ stale since 2020-06-01T00:00:00+02:00" in header
        assert "verified human:rosa@example at 2026-03-01T10:00:00Z" in header
        assert (
            "Billing export notes — https://example.org/billing/export  [billing-export]" in header
        )
        assert "Customer base — → /base.md  [churn-base]" in header
        assert "usage_count: 42, last_modified: 2026-02-01T00:00:00Z" in header
        assert "generated \n  by: writer-agent/1.0, at: 2026-02-20T22:53:05Z" in header
        assert "date 2026-01-15" in header and "authors rosa, ari" in header
        assert "… (9 more lines · p shows all)" in header  # the long checklist is folded
        assert "odd\\x1bkey" in header and "\x1b" not in header
        assert "    deeper: 1, 2" in header
        order = [
            "draft",
            "tags",
            "verified",
            "Customers lost",
            "sources",
            "owner",
            "authors",
            "date",
        ]
        order += ["aliases", "generated", "zeta_custom", "checklist", "odd"]
        places = [header.index(name) for name in order]
        assert places == sorted(places), list(zip(order, places, strict=True))


async def test_machine_verified_page_with_a_date_only_stale_after(tmp_path: Path) -> None:
    root = write_bundle(
        tmp_path / "b",
        {
            "base.md": "---\nverified: [{by: process:nightly}]\nstale_after: 2020-01-01\n---\nb\n",
            "old.md": "---\nverified: 2026-10-28\n---\nolder convention\n",
        },
    )
    app = make_app(brain_for(BundleSource(root)), start="base")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = header_text(app)
        assert "◐ machine-confirmed" in header
        assert "stale_after 2020-01-01 (ignored: not a time with an offset)" in header
        assert "stale since" not in header and "● stable" not in header  # no status key
        app.screen.open_page("old")  # type: ignore[attr-defined]
        await settle(pilot)
        header = header_text(app)
        assert "○ unverified" in header and "verified 2026-10-28" in header


async def test_plain_vault_note_shows_no_trust_badge(tmp_path: Path) -> None:
    root = write_bundle(tmp_path / "b", {"note.md": "---\naliases: [n]\n---\nplain\n"})
    app = make_app(brain_for(BundleSource(root)), start="note")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = header_text(app)
        assert "unverified" not in header and "aliases n" in header


async def test_p_unfolds_long_values_and_folds_them_again(tmp_path: Path) -> None:
    root = write_bundle(tmp_path / "b", {"churn.md": EVERY_FIELD, "short.md": "# Short\n"})
    app = make_app(brain_for(BundleSource(root)), start="churn")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def header() -> str:
            return header_text(app)

        assert "fourteen" not in header() and "more lines · p shows all)" in header()
        assert app.screen.check_action("toggle_properties", ())
        await pilot.press("p")
        await settle(pilot)
        assert "- fourteen" in header() and "more lines" not in header()
        await pilot.press("p")
        await settle(pilot)
        assert "fourteen" not in header()
        app.screen.open_page("short")  # type: ignore[attr-defined]
        await settle(pilot)
        assert not app.screen.check_action("toggle_properties", ())  # nothing folded


LONG_SOURCES = (
    "---\ntype: entity\nstatus: draft\nsources:\n"
    + "".join(
        f"  - web:https://raw.example.org/garden-provider/main/docs/resources/bed_{i}_layout"
        f"_and_watering.md (fetched 2026-06-16)\n"
        for i in range(13)
    )
    + "---\n# Beds\n\nThe text under the header.\n"
)


async def test_an_okf_concept_s_sources_fold_by_the_rows_they_take(tmp_path: Path) -> None:
    """An LLM wiki's concept listed 13 raw URLs as its sources: three rows each in a
    73-cell page pane, the header 38 rows high, its text two pages below. The sources
    now take about `SOURCE_ROWS` rows at the pane's width (every one at 150 cells where
    each fits on a row), then a line counting the rest; `p` shows them all, and a
    narrower pane folds them again."""
    root = write_bundle(tmp_path / "b", {"beds.md": LONG_SOURCES})
    app = make_app(brain_for(BundleSource(root)), start="beds")
    async with app.run_test(size=(80, 40)) as pilot:
        await settle(pilot)
        await pilot.press("z")  # the page pane alone: 76 cells for the header
        await settle(pilot)
        pane = app.screen.query_one(PagePane)

        def shown() -> int:
            return header_text(app).count("• web:")

        narrow = shown()
        assert 1 <= narrow < 13 and f"… ({13 - narrow} more sources · p shows all)" in (
            header_text(app)
        )
        assert pane.header.rows <= SOURCE_ROWS + 4  # title, badges, `sources`, `…`
        await pilot.press("p")
        await settle(pilot)
        assert shown() == 13 and "more sources" not in header_text(app)
        await pilot.press("p")
        await settle(pilot)
        assert shown() == narrow
        await pilot.resize_terminal(200, 40)
        await settle(pilot, until=lambda: shown() > narrow)
        assert shown() == SOURCE_ROWS and "… (1 more sources · p shows all)" in header_text(app)


async def test_a_page_titled_by_its_slug_names_it_once(tmp_path: Path) -> None:
    """A vault's `Readme.md` at the root, titled by its file name: `Readme`, not
    `Readme  Readme`; a page in a folder still shows where it is, its folder alone (a
    vault's `Bessie Complete Index  30_Library/200_projects/Bessie/Bessie Complete Index`
    took two rows at 80 columns to say the title twice)."""
    root = write_bundle(tmp_path / "v", {"Readme.md": "[[Notes/Books]]\n", "Notes/Books.md": "B\n"})
    app = make_app(brain_for(BundleSource(root)), start="Readme")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = str(app.screen.query_one("#page-header").content).splitlines()[0]
        assert first.strip() == "Readme"
        await pilot.press("n", "enter")
        await settle(pilot)
        first = str(app.screen.query_one("#page-header").content).splitlines()[0]
        assert first.replace("\xa0", " ").strip() == "Books  Notes/"


async def test_a_vaults_list_status_is_a_property_as_written(tmp_path: Path) -> None:
    """`status: ["[[Published]]"]` (a vault's property of links) is no OKF status: it
    shows as a property (its link as its text), never as a Python list (`? ['[[published]]']`)."""
    page = '---\nstatus:\n  - "[[Published]]"\nauthor: "[[Steph]]"\n---\nText.\n'
    root = write_bundle(tmp_path / "v", {"Clip.md": page, "Published.md": "P\n"})
    app = make_app(brain_for(BundleSource(root)), start="Clip")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = header_text(app)
        assert "['" not in header and "?" not in header
        assert "status Published" in header  # a link, shown as its text
        await pilot.press("l")
        await settle(pilot)
        await pilot.press("enter")  # `l` lists it too, and follows it
        await settle(pilot)
        assert app.screen.history.current.slug == "Published"


async def test_a_propertys_wiki_links_read_as_text_and_are_followed(tmp_path: Path) -> None:
    """A vault's properties of links (`categories: ["[[Trips]]"]`, as Obsidian's own
    vault template writes every note): shown as their text, visited by `n`, listed by `l`,
    followed."""
    page = '---\ncategories:\n  - "[[Trips]]"\nloc: "[[Kyoto|the old capital]], [[Nowhere]]"\n---\n'
    root = write_bundle(tmp_path / "v", {"Japan.md": page, "Trips.md": "T\n", "Kyoto.md": "K\n"})
    app = make_app(brain_for(BundleSource(root)), start="Japan")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = header_text(app)
        assert "categories Trips" in header and "loc the old capital, Nowhere" in header
        assert "[[" not in header
        pane = app.screen.query_one(PagePane)
        await pilot.press("n", "n")  # the body has none: `n` goes through the header's
        assert pane.cursor.current is not None
        assert pane.cursor.current.href == "okf:Kyoto"
        await pilot.press("N", "enter")
        await settle(pilot)
        assert app.screen.history.current.slug == "Trips"
        await pilot.press("backspace")
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        await pilot.press("enter")  # the first: categories: Trips
        await settle(pilot)
        assert app.screen.history.current.slug == "Trips"


async def test_sources_written_as_wiki_links_read_as_their_text_and_are_followed(
    tmp_path: Path,
) -> None:
    """A Japanese LLM-kept wiki lists its sources as links (`sources: ["[[sources/tools/x]]"]`):
    the header showed `→ [[sources/tools/x]]`, followed by nothing. Now as a link property
    shows its links: their text, visited by `n`, listed by `l`, followed."""
    page = '---\ntype: concept\nsources:\n  - "[[notes/acp|ACP notes]]"\n---\nBody.\n'
    root = write_bundle(tmp_path / "v", {"concept.md": page, "notes/acp.md": "# ACP\n"})
    app = make_app(brain_for(BundleSource(root)), start="concept")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = header_text(app)
        assert "• ACP notes" in header
        assert "[[" not in header and "→" not in header
        pane = app.screen.query_one(PagePane)
        await pilot.press("n")
        assert pane.cursor.current is not None
        assert pane.cursor.current.href == "okf:notes/acp"
        await pilot.press("l")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.history.current.slug == "notes/acp"


@pytest.mark.parametrize("size", [SIZE, (80, 24)])
async def test_frontmatter_that_is_not_read_is_said_in_the_header(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Seen in a public Obsidian vault's templates (`created: {{date}}`, a placeholder the
    template plugin fills, is a YAML mapping used as a key): the page showed a title and
    nothing else, as if it had no properties; `get --json` said why, the explorer did not."""
    write_bundle(
        tmp_path,
        {"book-template.md": "---\ncategories: [Books]\ncreated: {{date}}\n---\n"},
    )
    app = make_app(brain_for(BundleSource(tmp_path)), start="book-template", watch_files=False)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        header = str(app.screen.query_one("#page-header").render()).replace("\n", " ")
        assert "⚠ frontmatter ignored: invalid YAML (found unhashable key at line 3)" in header


async def test_a_heading_many_pages_open_with_is_not_the_start_pages_title(
    tmp_path: Path,
) -> None:
    """A student vault's daily notes all open with `# Todo`: the start page, read before
    the index is built, was headed "Todo" until opened again; it is named by its file name
    once the index is in (`core.index.build.name_shared_headings`), as every other page."""
    days = {f"Daily/2025-01-0{day}.md": "# Todo\n- [ ] read\n" for day in range(1, 6)}
    root = write_bundle(tmp_path / "v", {**days, "Math/Maxterm.md": "# Definition\nA clause.\n"})
    app = make_app(brain_for(BundleSource(root)), start="Daily/2025-01-03", watch_files=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert header_text(app).splitlines()[0].split() == ["2025-01-03", "Daily/"]
        app.screen.open_page("Math/Maxterm")  # type: ignore[attr-defined]
        await settle(pilot)
        assert header_text(app).splitlines()[0].split() == ["Definition", "Math/Maxterm"]
