"""Named SVG snapshots of vault Markdown on our own vault (`vault_fixture`).

Regenerate after an intended change with
`pytest tests/tui/test_vault_snapshots.py --snapshot-update`, and look at the SVGs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import EmbedBlock, VaultBody
from okf_explorer.tui.widgets.page.pane import SCROLL_SETTLE, PagePane

from .conftest import brain_for, settle
from .vault_fixture import write_vault

Steps = Callable[[Pilot[None]], Awaitable[None]]


async def _embeds_filled(pilot: Pilot[None]) -> None:
    pane = pilot.app.screen.query_one(PagePane)
    await settle(pilot, lambda: all(e.text is not None for e in pane.query(EmbedBlock)))


async def _open_tip(pilot: Pilot[None]) -> None:
    await _embeds_filled(pilot)
    tip = pilot.app.screen.query_one(PagePane).query_one(VaultBody).callouts()[1]
    tip.toggle()


async def _cursor_on_folded_tip(pilot: Pilot[None]) -> None:
    await _embeds_filled(pilot)
    # the header's three tags, the body's two, a link in the first callout, the folded tip
    await pilot.press("n", "n", "n", "n", "n", "n", "n")
    target = pilot.app.screen.query_one(PagePane).cursor.current
    assert target is not None and target.kind == "callout"


async def _outline(pilot: Pilot[None]) -> None:
    await pilot.press("o", "down", "down")


async def _wide(pilot: Pilot[None]) -> None:
    pilot.app.screen.query_one(PagePane).scroll_to_anchor("Wide things")
    await pilot.pause(SCROLL_SETTLE + 0.1)  # the scroll is made again while blocks settle


async def _nothing(pilot: Pilot[None]) -> None:
    await _embeds_filled(pilot)


SHOTS: list[tuple[str, str, Steps]] = [
    ("reading-notes", "Reading Notes", _nothing),
    ("tip-unfolded", "Reading Notes", _open_tip),
    ("cursor-on-folded-tip", "Reading Notes", _cursor_on_folded_tip),
    ("okf-footnotes", "metrics/churn", _nothing),
    ("outline", "Mother of All Demos", _outline),
    ("long-page-wide-blocks", "Handbook", _wide),
]


@pytest.mark.parametrize(("name", "start", "steps"), SHOTS, ids=[shot[0] for shot in SHOTS])
def test_vault(snap_compare, tmp_path: Path, name: str, start: str, steps: Steps) -> None:  # type: ignore[no-untyped-def]
    root = write_vault(tmp_path / "vault")
    app = make_app(brain_for(BundleSource(root)), start=start, source_label="test vault")

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await steps(pilot)
        await settle(pilot)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


DIAGRAMS_PAGE = """# Ingest

How a source becomes pages:

```mermaid
flowchart TD
    A[Raw source] --> B{Already known?}
    B -->|yes| C[Update its page]
    B -->|no| D[Write a new page]
    C & D --> E[(Index and log)]
```

Then the log is read back:

```mermaid
sequenceDiagram
    participant A as Agent
    participant W as Wiki
    A->>W: read log.md
    W-->>A: the last ten entries
    Note right of W: newest first
```
"""


def test_mermaid_diagrams(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A Mermaid flowchart and a sequence diagram drawn in the page, as Obsidian draws them
    (`core.diagrams`): the page read down to its end by keyboard (`n` focuses it)."""
    root = tmp_path / "vault"
    root.mkdir()
    (root / "Ingest.md").write_text(DIAGRAMS_PAGE, encoding="utf-8")
    app = make_app(brain_for(BundleSource(root)), start="Ingest", source_label="test vault")

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("n", "end")
        await pilot.pause(SCROLL_SETTLE + 0.1)
        await settle(pilot)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)
