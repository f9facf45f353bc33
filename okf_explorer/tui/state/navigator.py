"""Where the explorer is and where each key takes it: the view on screen, the history
of views, the trail, and the transitions between views.

A `View` is a whole view (page plus traversal settings), so going back restores the
depth and direction the user was looking at, not just the page; `History` keeps them
as a browser does. Plain state, no widgets: every transition returns the `View` to
show next, or None when the key does not apply now (so the screen's `check_action`
asks the same methods the keys run). `back`/`forward` move the history at once, so a
burst of presses walks that many entries even while pages are still loading; a new
page joins the history only once the page pane says the source answered (`opened`),
a page that failed to load included, so the title, the panes and `back` all agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from okf_explorer.core.graph.trail import How, Trail, TrailMove
from okf_explorer.core.graph.traverse import DEPTH_CAP, Direction, clamp_depth

Move = Literal["visit", "moved", "reload", "start"]
"""How a page is opened: `visit` adds a history entry once the page loads; `moved`:
back/forward already moved it; `reload` shows the current entry again; `start`: the start
page, known once the index is, takes the place of the stand-in shown until then (back
never leads to a page nobody chose)."""


@dataclass(frozen=True, slots=True)
class View:
    """What the main screen shows: a root page and how far/which way to walk;
    `rel`, when set, keeps the walk to edges of that relation; `implied` (key `i`)
    walks the implied inverse edges too (`core.graph.implied`). `backlinks` (key `b`)
    shows the depth-1 `in` slice as backlinks with the sentence around each link;
    a depth or direction change leaves it."""

    slug: str
    depth: int = 1
    direction: Direction = "out"
    rel: str | None = None
    backlinks: bool = False
    implied: bool = False

    def with_depth(self, depth: int) -> View:
        return replace(self, depth=clamp_depth(depth), backlinks=False)

    def with_direction(self, direction: Direction) -> View:
        return replace(self, direction=direction, backlinks=False)

    def with_rel(self, rel: str | None) -> View:
        return replace(self, rel=rel)

    def with_implied(self, implied: bool) -> View:
        return replace(self, implied=implied)

    @property
    def rels(self) -> list[str] | None:
        """The relation filter as `Brain.traverse` takes it (None: every relation)."""
        return None if self.rel is None else [self.rel]


@dataclass(slots=True)
class History:
    """A browser-style history: `current`, with stacks behind and ahead of it."""

    current: View | None = None
    behind: list[View] = field(default_factory=list)
    ahead: list[View] = field(default_factory=list)

    @property
    def can_go_back(self) -> bool:
        return bool(self.behind)

    @property
    def can_go_forward(self) -> bool:
        return bool(self.ahead)

    def visit(self, view: View) -> None:
        """Open a new view; the old one goes behind and the forward stack is dropped."""
        if self.current is not None and self.current.slug != view.slug:
            self.behind.append(self.current)
            self.ahead.clear()
        self.current = view

    def update(self, view: View) -> None:
        """Change the settings of the current view (no new entry)."""
        self.current = view

    def back(self) -> View | None:
        if not self.behind or self.current is None:
            return None
        self.ahead.append(self.current)
        self.current = self.behind.pop()
        return self.current

    def forward(self) -> View | None:
        if not self.ahead or self.current is None:
            return None
        self.behind.append(self.current)
        self.current = self.ahead.pop()
        return self.current


NEXT_DIRECTION: dict[Direction, Direction] = {
    "out": "in",
    "in": "both",
    "both": "neighbourhood",
    "neighbourhood": "out",
}
"""`d` cycles the traversal direction in this order."""


class Navigator:
    """The history of views, the trail of pages opened, and the transitions between views."""

    def __init__(self) -> None:
        self.history = History()
        self.trail = Trail()
        """Every page opened, with how (`T`; `core.graph.trail`)."""
        self._before_backlinks: View | None = None
        """The settings `b` left, restored by `b` again."""
        self._how: How = "visit"

    @property
    def current(self) -> View | None:
        return self.history.current

    def open(self, slug: str) -> View:
        """`slug` seen with the current depth, direction and relation filter."""
        current = self.current
        return View(slug) if current is None else replace(current, slug=slug)

    def back(self) -> View | None:
        self._how = "back"
        return self.history.back()

    def forward(self) -> View | None:
        self._how = "forward"
        return self.history.forward()

    def deeper(self) -> View | None:
        current = self.current
        if current is None or current.depth >= DEPTH_CAP:
            return None
        return current.with_depth(current.depth + 1)

    def shallower(self) -> View | None:
        current = self.current
        return current.with_depth(current.depth - 1) if current and current.depth > 1 else None

    def next_direction(self) -> View | None:
        current = self.current
        return current.with_direction(NEXT_DIRECTION[current.direction]) if current else None

    def backlinks(self) -> View | None:
        """`b`: the page's direct backlinks with their sentences; `b` again restores
        the depth and direction it left (on the page shown now)."""
        current = self.current
        if current is None:
            return None
        if current.backlinks:
            previous = self._before_backlinks or View(current.slug)
            return replace(previous, slug=current.slug, backlinks=False)
        self._before_backlinks = current
        return View(current.slug, 1, "in", current.rel, backlinks=True, implied=current.implied)

    def next_relation(self, relations: list[str]) -> View | None:
        """Every relation → each relation of the graph in turn → every one; None when
        there is nothing to cycle through."""
        current = self.current
        if current is None or (current.rel is None and len(relations) <= 1):
            return None
        cycle: list[str | None] = [None, *relations]
        position = cycle.index(current.rel) if current.rel in cycle else 0
        return current.with_rel(cycle[(position + 1) % len(cycle)])

    def toggled_implied(self) -> View | None:
        """`i`: implied inverse edges walked (and shown) too, or no longer."""
        current = self.current
        return current.with_implied(not current.implied) if current else None

    def start_resolved(self, slug: str) -> View | None:
        """`--start NAME` resolved to `slug` once the index was built: the view to go to,
        unless the user has moved on meanwhile."""
        current = self.current
        if current is None or (not self.history.behind and current.slug != slug):
            return self.open(slug)
        return None

    # ------------------------------------------------------------------ moving

    def going(self, move: Move, how: How | None = None) -> None:
        """A page is being loaded: the trail will record `how` it was reached (default:
        a visit, or the back/forward just asked)."""
        if how is not None or move in ("visit", "start"):
            self._how = how or "visit"

    def opened(self, view: View, move: Move) -> None:
        """The source answered for `view`: a visit joins the history, the trail records it."""
        if move == "visit":
            self.history.visit(view)
        elif move == "start":
            self.history.update(view)
            self.trail.drop_stand_in()
        if move != "reload":
            moves = self.trail.moves
            frm = moves[-1].to if moves else None
            self.trail.record(TrailMove(frm, view.slug, self._how if frm else "start"))
        self._how = "visit"

    def change(self, view: View) -> None:
        """Same page, new traversal settings: no new history entry."""
        self.history.update(view)
