"""The keys of the explorer (SPEC §8): what `MainScreen` binds, in footer order.

Data only: the actions behind them are `MainScreen`'s `action_*` methods, and its
`check_action` greys out what does not apply now.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

from okf_explorer.core.graph import Direction

NEXT_DIRECTION: dict[Direction, Direction] = {"out": "in", "in": "both", "both": "out"}
"""`d` cycles the traversal direction in this order."""

PANES = ("#page-pane", "#link-tree", "#traversal-table")
"""`tab` / `shift+tab` move the focus through these, in this order."""

EXPLORER_BINDINGS: list[BindingType] = [
    Binding("enter", "open_selected", "Open", id="open"),
    Binding("backspace", "back", "Back", id="back"),
    Binding("alt+left", "back", "Back", show=False, id="back-alt"),
    Binding("alt+right", "forward", "Forward", id="forward"),
    Binding("plus", "deeper", "Depth+", key_display="+", id="deeper"),
    Binding("minus", "shallower", "Depth-", key_display="-", id="shallower"),
    Binding("d", "cycle_direction", "Direction", id="direction"),
    Binding("b", "backlinks", "Backlinks", id="backlinks"),
    Binding("t", "cycle_relation", "Relation", show=False, id="relation"),
    Binding("e", "export", "Export", id="export"),
    Binding("l", "page_links", "Links", id="page-links"),
    Binding("m", "more_of_page", "More of page", id="more-of-page"),
    Binding("slash", "find", "Find", key_display="/", id="find"),
    Binding("ctrl+p", "find", "Find", show=False, id="find-alt"),
    Binding("s", "stats", "Stats", id="stats"),
    Binding("r", "reload", "Reload", id="reload"),
    Binding("ctrl+x", "cancel_index", "Cancel indexing", id="cancel-index"),
    Binding("tab", "next_pane", "Next pane", show=False, id="next-pane"),
    Binding("shift+tab", "previous_pane", "Previous pane", show=False, id="previous-pane"),
    Binding("question_mark", "help", "Help", key_display="?", id="help"),
    Binding("q", "app.quit", "Quit", id="quit"),
]
