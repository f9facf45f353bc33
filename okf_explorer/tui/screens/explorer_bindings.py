"""The keys of the explorer (SPEC §8): what `MainScreen` binds, in footer order, and
when each applies (`KeyRules`, behind its `check_action`).

The actions behind the keys are `MainScreen`'s `action_*` methods.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding, BindingType
from textual.widget import Widget

from okf_explorer.tui.state.index_loader import IndexLoader
from okf_explorer.tui.state.navigator import Navigator
from okf_explorer.tui.widgets.page.pane import PagePane

PANES = ("#page-pane", "#link-tree", "#traversal-table")
"""`tab` / `shift+tab` move the focus through these, in this order."""


PATHS_TABLE = "#path-table"
"""Takes the traversal table's turn while the path view shows in its place (`P`)."""


def next_pane(focused: Widget | None, step: int) -> str:
    """The selector of the pane `step` panes after the `focused` one (or the first)."""
    ids = [pane.lstrip("#") for pane in PANES]
    here = focused.id if focused is not None else None
    if here == PATHS_TABLE.lstrip("#"):
        here = "traversal-table"
    position = ids.index(here) if here in ids else -step
    chosen = PANES[(position + step) % len(PANES)]
    if chosen == "#traversal-table" and focused is not None and _paths_shown(focused):
        return PATHS_TABLE
    return chosen


def _paths_shown(widget: Widget) -> bool:
    views = widget.screen.query("#paths")
    return bool(views) and bool(views.first().display)


EXPLORER_BINDINGS: list[BindingType] = [
    # Footer order: keys that apply on every page first, keys that come and go (`⌫ Back`
    # after the first page, `- Depth-` past depth 1, `m` on a long page) after them. A
    # key that stops applying is hidden, so one that came first pushed the rest along
    # and, at 80 columns, `l Links` off the footer right after a page was opened.
    # `enter` is not shown at all: it applied only while a row was highlighted.
    Binding("enter", "open_selected", "Open", show=False, id="open"),
    Binding("d", "cycle_direction", "Direction", id="direction"),
    Binding("b", "backlinks", "Backlinks", id="backlinks"),
    Binding("l", "page_links", "Links", id="page-links"),
    Binding("plus", "deeper", "Depth+", key_display="+", id="deeper"),
    Binding("slash", "find", "Find", key_display="/", id="find"),
    Binding("ctrl+p", "find", "Find", show=False, id="find-alt"),
    Binding("ctrl+f", "search_text", "Search", id="search-text"),
    Binding("g", "toggle_graph", "Graph", id="graph"),
    Binding("w", "walk", "Walk", show=False, id="walk"),
    Binding("f", "toggle_tree", "Pages", id="page-tree"),
    Binding("F", "okf_filter", "Filter", show=False, id="okf-filter"),
    Binding("e", "export", "Export", id="export"),
    Binding("s", "stats", "Stats", id="stats"),
    Binding("r", "reload", "Reload", id="reload"),
    Binding("minus", "shallower", "Depth-", key_display="-", id="shallower"),
    Binding("backspace", "back", "Back", id="back"),
    Binding("alt+left", "back", "Back", show=False, id="back-alt"),
    Binding("alt+right", "forward", "Forward", id="forward"),
    Binding("t", "cycle_relation", "Relation", show=False, id="relation"),
    Binding("m", "more_of_page", "More of page", id="more-of-page"),
    Binding("o", "outline", "Outline", id="outline"),
    Binding("p", "toggle_properties", "All properties", show=False, id="properties"),
    Binding("z", "zoom", "Zoom pane", show=False, id="zoom"),
    Binding("M", "mark_path_from", "Mark path start", show=False, id="mark-path-from"),
    Binding("P", "paths", "Paths", show=False, id="paths"),
    Binding("E", "edit", "Edit in $EDITOR", show=False, id="edit"),
    Binding("T", "trail", "Trail", show=False, id="trail"),
    Binding("S", "save_page", "Save slice as a page", show=False, id="save-page"),
    Binding("ctrl+x", "cancel_index", "Cancel indexing", id="cancel-index"),
    Binding("tab", "next_pane", "Next pane", show=False, id="next-pane"),
    Binding("shift+tab", "next_pane(-1)", "Previous pane", show=False, id="previous-pane"),
    Binding("question_mark", "help", "Help", key_display="?", id="help"),
    Binding("q", "app.quit", "Quit", id="quit"),
]


class KeyRules:
    """Which keys apply now (greyed out otherwise), and whether that has changed."""

    def __init__(
        self,
        nav: Navigator,
        loader: IndexLoader,
        page: Callable[[], PagePane],
    ) -> None:
        self._footer_state: tuple[bool, ...] = ()
        self.rules: dict[str, Callable[[], bool]] = {
            "back": lambda: nav.history.can_go_back,
            "forward": lambda: nav.history.can_go_forward,
            "deeper": lambda: nav.deeper() is not None,
            "shallower": lambda: nav.shallower() is not None,
            "cycle_direction": lambda: nav.current is not None,
            "backlinks": lambda: nav.current is not None,
            "cycle_relation": lambda: nav.next_relation(loader.relations()) is not None,
            # `export` stays lit while a new slice is walked (a press then waits for
            # it), so the footer does not blink on every depth or direction key.
            "export": lambda: nav.current is not None and loader.ready,
            "page_links": lambda: bool(page().links),
            "more_of_page": lambda: page().truncated,
            "toggle_properties": lambda: page().header_folded,
            "outline": lambda: bool(page().headings),
            "stats": lambda: loader.ready,  # computed from the index, never forcing a build
            "cancel_index": lambda: loader.running,  # shown only while a build runs
            "open_selected": lambda: nav.selected() is not None,
            "trail": lambda: bool(nav.trail.moves),
            "save_page": lambda: nav.current is not None and loader.ready,
        }

    @staticmethod
    def action_of(key: str) -> str | None:
        """The action `key` is bound to, if any."""
        for binding in EXPLORER_BINDINGS:
            if isinstance(binding, Binding) and key in binding.key.split(","):
                return binding.action
        return None

    def applies(self, action: str) -> bool:
        """False greys the key out; a key without a rule always applies."""
        rule = self.rules.get(action)
        return True if rule is None else rule()

    def changed(self) -> bool:
        """Whether what applies differs from the last call: the footer is refreshed
        only then. Textual's footer re-mounts every key on each refresh (~50 ms on a
        loaded machine): refreshing after every page load or slice made the loop
        stall and the footer flicker. The keys never move (greyed, not hidden).
        """
        keys = [binding for binding in EXPLORER_BINDINGS if isinstance(binding, Binding)]
        state = tuple(self.applies(binding.action) for binding in keys)
        if state == self._footer_state:
            return False
        self._footer_state = state
        return True
