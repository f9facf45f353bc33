"""A Dendron workspace's links name the note last, `[[label|note]]` (`core.links.dendron`):
seen on Dendron's own site vault, where 1,044 of 3,435 wiki links were written so and
834 link targets dangled (86 after), each link to its label."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from okf_explorer.core.brain import Brain
from okf_explorer.core.links.dendron import dendron_as_written, dendron_links
from okf_explorer.server.tools import call_tool
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown.dendron import dendron_markdown
from okf_explorer.tui.markdown.links import dendron_section, embedded_text
from okf_explorer.tui.widgets.page.header import epoch_text
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_file as write
from tests.tui.conftest import settle
from tests.tui.test_line_breaks import body_text

EVENTS = (
    "---\nid: x1\ntitle: Events\n---\n"
    "Join the [[Office Hours|community.events.office-hours]] or read the "
    "[[docs|dendron://garden.site/garden.tools#trowel]].\n\n"
    "![[dendron://garden.site/garden.tools]]\n\n"
    "See [[garden]] and `[[not|a.link]]`.\n"
)


def workspace(root: Path, *, settings: bool = True) -> Path:
    """A Dendron workspace of our own: settings at its root, notes in `vault/`."""
    if settings:
        write(root, "dendron.yml", "version: 5\nworkspace:\n  vaults:\n    - fsPath: vault\n")
    write(root, "vault/community.events.md", EVENTS)
    write(
        root,
        "vault/community.events.office-hours.md",
        "---\ntitle: Office Hours\ndesc: Tea and talk\n---\n## Summary\n\n{{fm.desc}}, weekly.\n",
    )
    write(root, "vault/garden.tools.md", "---\ntitle: Tools\n---\n## Trowel\n")
    write(root, "vault/garden.md", "---\ntitle: Garden\n---\nBeds.\n")
    return root / "vault"


def links(brain: Brain, slug: str) -> list[tuple[str, str, str]]:
    return [(link.target, link.to, link.rule) for link in brain.forward_links(slug)]


@pytest.mark.parametrize("given", ["vault", "workspace"])
def test_a_link_reaches_the_note_it_names_last(tmp_path: Path, given: str) -> None:
    """The folder given may be the workspace's vault (settings one folder up) or the
    workspace itself."""
    vault = workspace(tmp_path / "ws")
    folder = vault if given == "vault" else vault.parent
    prefix, rule = ("", "exact") if given == "vault" else ("vault/", "basename")
    brain = Brain(BundleSource(folder), cache_dir=False)
    assert links(brain, f"{prefix}community.events") == [
        ("community.events.office-hours", f"{prefix}community.events.office-hours", rule),
        ("garden.tools", f"{prefix}garden.tools", rule),
        ("garden", f"{prefix}garden", rule),
    ]
    assert brain.dangling() == {}
    assert brain.markup() == "dendron"


def test_outside_a_dendron_workspace_the_label_is_the_target(tmp_path: Path) -> None:
    brain = Brain(BundleSource(workspace(tmp_path / "ws", settings=False)), cache_dir=False)
    assert ("Office Hours", "community.events.office-hours", "title") in links(
        brain, "community.events"
    )
    assert "docs" in brain.dangling()


async def test_the_explorer_shows_the_label_and_follows_the_note(tmp_path: Path) -> None:
    app = make_app(
        Brain(BundleSource(workspace(tmp_path / "ws")), cache_dir=False), start="community.events"
    )
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        text = body_text(pane)
        assert "Join the Office Hours or read the docs." in text
        assert "community.events.office-hours" not in text
        assert "[[not|a.link]]" in text  # code stays code
        app.screen.open_page("community.events.office-hours")
        await settle(pilot, lambda: pane.page is not None and pane.page.slug.endswith("hours"))
        await settle(pilot)
        assert "Tea and talk, weekly." in body_text(pane)


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("{{fm.desc}}", "Tea"),
        ("{{ fm.custom.day }}", "3"),
        ("`{{fm.desc}}` {{fm.missing}} {{fm.tags}} {{#if fm.desc}}", None),
        ("```\n{{fm.desc}}\n```\n", None),
    ],
)
def test_a_notes_variables_read_as_its_frontmatter(written: str, shown: str | None) -> None:
    fields = {"desc": "Tea", "custom": {"day": 3}, "tags": ["a"]}
    assert dendron_markdown(written, fields) == (shown or written)


async def test_a_vault_opens_at_its_root_note_with_dates_a_person_reads(tmp_path: Path) -> None:
    """Dendron opens a vault at `root`, and stamps notes `created: 1604237102230`
    (milliseconds): the header shows the moment."""
    vault = workspace(tmp_path / "ws")
    write(vault, "root.md", "---\ntitle: Root\ncreated: 1604237102230\n---\n[[garden]]\n")
    app = make_app(Brain(BundleSource(vault), cache_dir=False))
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        assert pane.page is not None and pane.page.slug == "root"
        assert str(app.screen.query_one("#status-start").content) == "start: Dendron root ·"
        header = str(app.screen.query_one("#page-header", Static).render())
        assert "created 2020-11-01 13:25 UTC" in header


SITE_SETTINGS = {
    "publishing": "publishing:\n  siteHierarchies: [garden, community]\n  siteIndex: community\n",
    "older site": "site:\n  siteIndex: community\n",
    "hierarchies": "publishing:\n  siteHierarchies:\n    - community\n    - garden\n",
}


@pytest.mark.parametrize("settings", SITE_SETTINGS.values(), ids=SITE_SETTINGS)
async def test_a_workspace_opens_where_its_published_site_opens(
    tmp_path: Path, settings: str
) -> None:
    """Dendron's own docs: their `root` note holds one link, to `dendron.yml`; the site
    they publish opens at `dendron` (`publishing.siteIndex`; unset, the first of its
    `siteHierarchies`)."""
    vault = workspace(tmp_path / "ws")
    write(vault.parent, "dendron.yml", "version: 5\n" + settings)
    write(vault, "root.md", "---\ntitle: Root\n---\n[dendron.yml](../dendron.yml)\n")
    write(vault, "community.md", "# Community\n\n[[community.events]]\n")
    app = make_app(Brain(BundleSource(vault.parent), cache_dir=False))
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        assert pane.page is not None and pane.page.slug == "vault/community"
        assert str(app.screen.query_one("#status-start").content) == "start: Dendron site index ·"


@pytest.mark.parametrize(
    "settings",
    ["publishing:\n  siteIndex: nowhere\n", "publishing: [", "publishing:\n  siteIndex: root\n"],
)
def test_a_site_index_that_names_no_note_leaves_the_root_note(
    tmp_path: Path, settings: str
) -> None:
    vault = workspace(tmp_path / "ws")
    write(vault.parent, "dendron.yml", settings)
    write(vault, "root.md", "---\ntitle: Root\n---\nThe top.\n")
    source = BundleSource(vault.parent)
    slugs = [stub.slug for stub in source.enumerate()]
    assert source.home_page(slugs) == ("vault/root", "Dendron root")


@pytest.mark.parametrize(
    ("name", "value", "shown"),
    [
        ("created", 1604237102230, "2020-11-01 13:25 UTC"),
        ("Updated", 1604237102, "2020-11-01 13:25 UTC"),
        ("created", 42, None),
        ("created", True, None),
        ("created", "1604237102230", None),
        ("title", 1604237102230, None),
        ("date", 9999999999999, None),
    ],
)
def test_a_time_stamp_reads_as_a_moment(name: str, value: object, shown: str | None) -> None:
    assert epoch_text(name, value) == shown


def test_serve_quotes_a_link_as_the_page_writes_it(tmp_path: Path) -> None:
    brain = Brain(BundleSource(workspace(tmp_path / "ws")), cache_dir=False)
    rows = call_tool(brain, "get_backlinks", {"slug": "community.events.office-hours"}).value
    assert [row["context"] for row in rows] == [
        "Join the [[Office Hours|community.events.office-hours]] or read the "
        "[[docs|garden.tools#trowel]]."
    ]


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("[[Label|a.b]]", "[[a.b|Label]]"),
        ("![[dendron://v.x/a.b#h]]", "![[a.b#h]]"),
        ("| [[Label\\|a.b]] |", "| [[a.b\\|Label]] |"),
        ("\\[[not|link]] `[[in|code]]`\n```\n[[in|fence]]\n```\n", None),
        ("[[plain]] [md](a.md)", None),
    ],
)
def test_dendron_links_read_as_ours_and_back(written: str, read: str | None) -> None:
    assert dendron_links(written) == (read or written)
    if "dendron://" not in written:
        assert dendron_as_written(dendron_links(written)) == written


KEEPING = (
    "Before any heading.\n\n"
    "## Summary\n\nBees in boxes.\n\n"
    "### Box 1.1\n\nThe first box. ^firstbox\n\n"
    "## Harvest\n\nIn autumn.\n\n"
    "### Jars 2.2\n\nGlass jars.\n"
)


@pytest.mark.parametrize(
    ("anchor", "shown"),
    [
        ("summary", "## Summary\n\nBees in boxes.\n\n### Box 1.1\n\nThe first box. ^firstbox"),
        ("summary,1:#*", "Bees in boxes."),
        ("summary:#*", "## Summary\n\nBees in boxes."),
        ("summary:#^firstbox", "## Summary\n\nBees in boxes.\n\n### Box 1.1\n\nThe first box."),
        ("summary:#jars-22", KEEPING[KEEPING.index("## Summary") : KEEPING.index("\n\nGlass")]),
        ("harvest:#^end", "## Harvest\n\nIn autumn.\n\n### Jars 2.2\n\nGlass jars."),
        ("^begin", "Before any heading."),
        ("^firstbox", "The first box."),
        ("summary,x", None),
        ("nowhere:#*", None),
        ("harvest:#summary", None),  # an end before its start
        ("summary:#^nowhere", None),
    ],
)
def test_a_note_references_range_reads_as_dendron_reads_it(anchor: str, shown: str | None) -> None:
    """Dendron's own docs embed 180 ranges such as `![[dendron.ref.cli#installation,1:#*]]`
    (the section without its heading, up to the next heading): each showed "✗ no section
    installation,1:#*" (26 of 529 sections with an anchor found; 438 now, the rest name
    headings their notes no longer hold)."""
    assert dendron_section(KEEPING, anchor) == shown


async def test_a_note_reference_with_a_range_shows_its_text(tmp_path: Path) -> None:
    vault = workspace(tmp_path / "ws")
    write(vault, "keeping.md", "---\ntitle: Keeping\n---\n" + KEEPING)
    brain = Brain(BundleSource(vault), cache_dir=False)
    brain.ensure_index()
    shown = embedded_text(brain, "garden", "keeping", "summary,1:#*")
    assert shown == ("Bees in boxes.", "")
