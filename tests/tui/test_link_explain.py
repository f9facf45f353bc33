"""The TUI explains links (SPEC §3): ambiguous links are marked in the link tree and
the highlighted one lists its candidates; body links follow the core resolver,
reference definitions included."""

from __future__ import annotations

from pathlib import Path

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.graph.link_tree import AMBIGUOUS_MARK, LinkTree
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SIZE, brain_for, settle, write_bundle

PAGES = {
    "Sync/plans.md": "Read [[Security]] and [[lint]].\n\n[lint]: tools/lint.md\n",
    "Sync/Security.md": "# Sync security\n",
    "Publish/Security.md": "# Publish security\n",
    "Sync/tools/lint.md": "# The lint tool\n",
    "lint.md": "# A page named lint at the root\n",
}


async def test_ambiguous_link_is_marked_and_lists_its_candidates(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path / "brain", PAGES)
    app = make_app(brain_for(BundleSource(bundle)), start="Sync/plans")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(LinkTree)
        await settle(pilot, until=lambda: tree.slug == "Sync/plans")
        outgoing = tree.root.children[0]
        labels = [str(child.label) for child in outgoing.children]
        assert labels[0].startswith(f"{AMBIGUOUS_MARK} Sync/Security")
        assert not labels[1].startswith(AMBIGUOUS_MARK)
        tree.focus()
        await pilot.press("down")
        await settle(pilot)
        assert tree.link_info == (
            "Sync/plans → [[Security]] · rule basename · ambiguous: Sync/Security, Publish/Security"
        )
        await pilot.press("down")
        await settle(pilot)
        assert tree.link_info == "Sync/plans → [[lint]] · rule refdef"


async def test_body_link_follows_the_reference_definition(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path / "brain", PAGES)
    app = make_app(brain_for(BundleSource(bundle)), start="Sync/plans")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await settle(pilot, until=lambda: app.screen.loader.ready)
        pane = app.screen.query_one(PagePane)
        pane.post_message(PagePane.LinkFollowed("lint", None, "wiki"))
        await settle(pilot)
        assert app.screen.history.current.slug == "Sync/tools/lint"


async def test_a_dangling_link_with_look_alike_characters_names_the_page_it_looks_like(
    tmp_path: Path,
) -> None:
    """Seen on an LLM-written security vault: `[[CWE‑788]]` (a non-breaking hyphen)
    dangled beside the page `CWE-788`, and nothing said why. It still dangles, as in
    Obsidian; the subtitle names the page and the characters that differ."""
    pages = {
        "cve/CVE-1.md": "Weakness: [[CWE‑788]], see [[SEV\u00a0SNP]] and [[Nowhere]].\n",
        "concepts/CWE-788.md": "# CWE-788\n",
        "concepts/SEV SNP.md": "# SEV SNP\n",
    }
    bundle = write_bundle(tmp_path / "brain", pages)
    app = make_app(brain_for(BundleSource(bundle)), start="cve/CVE-1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(LinkTree)
        await settle(pilot, until=lambda: tree.slug == "cve/CVE-1")
        outgoing = tree.root.children[0]
        assert [child.data.exists for child in outgoing.children] == [False, False, False]
        tree.focus()
        seen = []
        for _ in outgoing.children:
            await pilot.press("down")
            await settle(pilot)
            seen.append(tree.link_info)
    assert seen == [
        "cve/CVE-1 → [[CWE‑788]] · rule dangling · looks like concepts/CWE-788, but writes"
        ' U+2011 NON-BREAKING HYPHEN for "-"',
        "cve/CVE-1 → [[SEV\u00a0SNP]] · rule dangling · looks like concepts/SEV SNP, but writes"
        ' U+00A0 NO-BREAK SPACE for " "',
        "cve/CVE-1 → [[Nowhere]] · rule dangling",
    ]
