"""Issue 24 item 9: `l` lists every link of the page, not only those of the part drawn.

A 1.5 MB index (the LLM-written knowledge base's `index.md`: 6,064 links to 5,120
concepts) is drawn 200 KB at a time, and `l` listed the 1,580 links of that part while
the link tree counted 5,120 targets. Now the drawn part's links come as drawn and the
rest of the page's by the link grammar, so both count the same pages; links inside a
`%%` comment (counted in the graph, hidden on the page) are listed, marked."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from okf_explorer.core.links import extract_links
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.links import ROWS_AT_ONCE, BodyLink, LinksDialog
from okf_explorer.tui.markdown import RENDER_CHARS
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_pages

from .conftest import brain_for, settle


def big_index(concepts: int = 5120, repeats: int = 944) -> str:
    """~1.5 MB: a bullet per concept (`[Name](/concepts/name.md) - a description`), then a
    second list linking some of them again, as the knowledge base's index does."""
    words = "a description long enough to make the page as heavy as the real index is " * 3
    lines = [
        f"* [Concept {n}](/concepts/concept-{n}.md) - {words}, {n} times over and more.\n"
        for n in range(concepts)
    ]
    again = [f"* see [[concepts/concept-{n * 5}|concept {n * 5}]] again\n" for n in range(repeats)]
    return (
        "# Knowledge Bundle\n\n## Concepts\n\n"
        + "".join(lines)
        + "\n## Again\n\n"
        + "".join(again)
        + "\n%% Later: [[concepts/hidden-one]] %%\n"
    )


@pytest.mark.slow  # a 1.5 MB page: ~10 s on a loaded 2-core machine
async def test_l_lists_every_link_of_a_huge_page(tmp_path: Path) -> None:
    text = big_index()
    assert len(text) > 1_400_000
    pages = {"index": text, "concepts/concept-4096": "# Four thousand and ninety-six\n"}
    root = write_pages(tmp_path / "kb", pages)
    app = make_app(brain_for(BundleSource(root)), start="index")
    async with app.run_test(size=(150, 45)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None and not pane.filling)
        assert pane.truncated and pane.end <= RENDER_CHARS  # only the first part is drawn
        await pilot.press("l")
        await settle(pilot, lambda: isinstance(app.screen, LinksDialog))
        dialog = app.screen
        assert isinstance(dialog, LinksDialog)
        targets = {link.target for link in dialog.links}
        assert targets == {link.target for link in extract_links(text)}
        assert len({link.slug for link in dialog.links}) == 5120 + 1  # pages, as the tree
        assert len(dialog.links) == 5120 + 944 + 1  # each (label, href) once
        (hidden,) = [link for link in dialog.links if link.target == "concepts/hidden-one"]
        assert hidden.comment and "in a comment" in hidden.row().plain
        options = dialog.query_one(OptionList)  # listed a part at a time: it stays responsive
        assert options.option_count == ROWS_AT_ONCE
        hint = str(dialog.query_one("#links-hint", Static).render())
        assert f"{ROWS_AT_ONCE} of {len(dialog.links):,} listed" in hint
        options.highlighted = ROWS_AT_ONCE - 1
        await pilot.press("down")  # at the end of what is listed: the next part
        assert options.option_count == 2 * ROWS_AT_ONCE and options.highlighted == ROWS_AT_ONCE
        await pilot.press(*"concept 4096")
        await settle(pilot)
        assert [link.label for link in dialog.shown] == ["Concept 4096"]
        await pilot.press("enter")
        await settle(pilot, lambda: pane.slug == "concepts/concept-4096" or pane.error)
        assert pane.slug == "concepts/concept-4096"


def test_a_row_says_each_thing_once() -> None:
    """`fsmo-roles  fsmo-roles → entities/fsmo-roles` and `sources: kb:x` then `kb:x`
    again: at 80 columns each such row took two lines for one name."""
    assert BodyLink(
        "fsmo-roles", "fsmo-roles", "fsmo-roles", "entities/fsmo-roles"
    ).row().plain == ("fsmo-roles → entities/fsmo-roles")
    assert BodyLink("FSMO", "fsmo-roles", "fsmo-roles", "entities/fsmo-roles").row().plain == (
        "FSMO  fsmo-roles → entities/fsmo-roles"
    )
    assert BodyLink("sources: kb:x", "kb:x", None).row().plain == "sources: kb:x"
    assert BodyLink("", "https://x.test/a", None).row().plain == "https://x.test/a"
