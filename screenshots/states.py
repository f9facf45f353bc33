"""The explorer's named states on the sample brain: one table for the README screenshots
(`screenshots/make.py`) and the snapshot tests (`tests/tui/test_snapshots.py`).

A state is a name, a terminal size, a start page, whether the source is down, and
the steps that reach it; `play` runs the steps, settling after each one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from textual.app import App
from textual.command import CommandList
from textual.pilot import Pilot
from textual.widgets import Input

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import SourceUnavailable
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import ExplorerApp, make_app

SAMPLE = Path(__file__).resolve().parent.parent / "okf_explorer" / "sample_brain"
DOWN_URL = "http://127.0.0.1:8792/mcp"

Settle = Callable[[Pilot[None], Callable[[], bool] | None], Awaitable[None]]


@dataclass(frozen=True)
class Press:
    """Press these keys."""

    keys: tuple[str, ...]


@dataclass(frozen=True)
class Focus:
    """Focus the widget matching this selector (a click would move the cursor)."""

    selector: str


@dataclass(frozen=True)
class Until:
    """Wait until this holds of the app."""

    holds: Callable[[App[None]], bool]


Step = Press | Focus | Until


@dataclass(frozen=True)
class State:
    """One named state: `name` is the screenshot's file stem and the snapshot's id."""

    name: str
    steps: tuple[Step, ...] = ()
    start: str | None = None
    down: bool = False
    size: tuple[int, int] = (120, 40)


def _palette_filled(app: App[None]) -> bool:
    return app.screen.query_one(CommandList).option_count >= 5


def _error_shown(app: App[None]) -> bool:
    return type(app.screen).__name__ == "SourceErrorScreen"


def _stats_shown(app: App[None]) -> bool:
    return getattr(app.screen, "stats", None) is not None


def _graph_drawn(app: App[None]) -> bool:
    return getattr(app.screen.query_one("#graph"), "drawing", None) is not None


def _page_found(app: App[None]) -> bool:
    return app.screen.query_one(CommandList).option_count >= 1


def _paths_found(app: App[None]) -> bool:
    return bool(getattr(app.screen.query_one("#paths"), "loaded", False))


def _mentions_shown(app: App[None]) -> bool:
    tree = app.screen.query_one("#link-tree")
    return any(str(node.label).startswith("Mentions") for node in tree.root.children)  # type: ignore[attr-defined]


def _walk_at_depth_3(app: App[None]) -> bool:
    view = app.screen.query_one("#walk")
    settings = getattr(view, "settings", None)
    return bool(getattr(view, "loaded", False)) and settings is not None and settings.depth == 3


STATES: tuple[State, ...] = (
    State("start"),
    State(
        "orders-depth-2-both",
        (Press(("plus", "d", "d")), Focus("#traversal-table"), Press(("down", "down", "down"))),
        start="tables/orders",
    ),
    State(
        "backlinks",
        (Press(("b",)), Focus("#link-tree"), Press(("down", "space"))),
        start="tables/orders",
    ),
    State(
        "backlinks-context",
        (Press(("b",)), Focus("#traversal-table"), Press(("down",))),
        start="tables/orders",
        size=(150, 45),
    ),
    State("backlinks-context-80x24", (Press(("b",)),), start="tables/orders", size=(80, 24)),
    State("help", (Press(("question_mark",)),)),
    State("legend", (Press(("question_mark",)),), size=(150, 45)),
    State("find-page", (Press(("slash",)), Press(tuple("orders")), Until(_palette_filled))),
    State("source-error", (Until(_error_shown),), down=True),
    State("stats", (Press(("s",)), Until(_stats_shown))),
    State("search-text", (Press(("ctrl+f",)), Press(tuple("refund")), Until(_palette_filled))),
    State(
        "mentions",
        (Until(_mentions_shown), Focus("#link-tree"), Press(("down",) * 12)),
        start="glossary/channel",
    ),
    State("graph-panel", (Press(("plus", "g")), Until(_graph_drawn)), start="glossary/channel"),
    State(
        "graph-80x24",
        (Press(("d", "d", "g")), Until(_graph_drawn), Press(("right", "down"))),
        start="metrics/revenue",
        size=(80, 24),
    ),
    State(
        "graph-150x45",
        (Press(("d", "d", "plus", "g")), Until(_graph_drawn), Press(("left",))),
        start="metrics/revenue",
        size=(150, 45),
    ),
    State("narrow-80x24", start="tables/orders", size=(80, 24)),
    State("page-tree", (Press(("f",)),), start="tables/orders"),
    State(
        "paths",
        (
            Press(("M", "slash")),
            Press(tuple("weekly-revenue")),
            Until(_page_found),
            Press(("enter", "P")),
            Until(_paths_found),
            Press(("down", "down")),
        ),
        start="teams/roastery-ops",
    ),
    State(
        "walk",
        (Press(("w", "plus", "plus")), Until(_walk_at_depth_3), Press(("down", "down"))),
        start="tables/orders",
    ),
)
SCREENSHOTS = tuple(
    state
    for state in STATES
    if state.name not in ("stats", "backlinks-context-80x24", "legend", "page-tree")
)
"""The states shown in the README (`screenshots/*.svg`)."""


class DownSource(BundleSource):
    """The sample brain with its source gone, for the error screen."""

    def enumerate(self):  # type: ignore[no-untyped-def]
        raise SourceUnavailable(f"the brain at {DOWN_URL} is unreachable")

    def get_page(self, slug: str):  # type: ignore[no-untyped-def]
        self.enumerate()  # the start page is read before the listing: it fails the same way

    @property
    def label(self) -> str:
        return DOWN_URL


def state_app(state: State, sample: Path = SAMPLE) -> ExplorerApp:
    """A fresh app on the sample brain (no disk cache) ready to `play` `state`."""
    source = DownSource(sample) if state.down else BundleSource(sample)
    label = None if state.down else "sample brain"
    brain = Brain(source, cache_dir=False)
    # No live reload: the pictures are of a folder nobody edits, and idle means idle.
    return make_app(brain, start=state.start, source_label=label, watch_files=False)


async def play(pilot: Pilot[None], state: State, settle: Settle) -> None:
    """Run `state`'s steps, settling after each; input cursors stop blinking."""
    app = pilot.app
    await settle(pilot, None)
    for step in state.steps:
        if isinstance(step, Press):
            await pilot.press(*step.keys)
            await settle(pilot, None)
        elif isinstance(step, Focus):
            app.screen.query_one(step.selector).focus()
            await settle(pilot, None)
        else:
            await settle(pilot, partial(step.holds, app))
    for field in app.screen.query(Input):
        field.cursor_blink = False
    await settle(pilot, None)
