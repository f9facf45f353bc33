"""A page is drawn once, for the width it is shown at: a body a few rows too tall for
its pane is drawn beside the scrollbar from the start. Its margins (one row between two
paragraphs) and a wrapped header count: left out, the bench's `enter` on the sample
brain drew `tables/index` for the width without a scrollbar, then, the scrollbar come,
drew it again after a 50 ms wait (140-200 ms for the key)."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import VaultBody
from okf_explorer.tui.markdown.body import DrawnRows
from okf_explorer.tui.widgets.page.pane import PagePane

from .conftest import SIZE, brain_for, settle, write_bundle


def short_paragraphs(count: int) -> str:
    return "\n\n".join(f"Paragraph {number}." for number in range(count)) + "\n"


@pytest.mark.parametrize(
    ("title", "paragraphs"),
    [
        ("Short", 17),  # 33 rows, as many as there is room for, and a margin under them
        ("A title long enough to wrap " * 5, 16),  # the header wraps to three rows
    ],
    ids=["margins", "wrapped-header"],
)
async def test_a_page_taller_than_its_pane_is_drawn_once(
    tmp_path: Path, title: str, paragraphs: int
) -> None:
    page = f"---\ntitle: {title.strip()}\n---\n{short_paragraphs(paragraphs)}"
    root = write_bundle(tmp_path / "b", {"index.md": "[[tall]]\n", "tall.md": page})
    app = make_app(brain_for(BundleSource(root)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n", "enter")  # followed from a short page, as a reader does
        await settle(pilot)
        assert app.screen.query_one(PagePane).slug == "tall"
        pane = app.screen.query_one(PagePane)
        assert pane.max_scroll_y > 0  # it does not fit: the scrollbar is there
        body = pane.query_one(VaultBody)
        pieces = [child.piece for child in body.children if isinstance(child, DrawnRows)]
        assert pieces and all(piece.width == body.content_region.width for piece in pieces)
        assert all(piece.before is None for piece in pieces)  # never drawn for another width
