"""Back/forward navigation across page opens.

Each entry is a whole view — page plus traversal settings — so going back
restores the depth and direction the user was looking at, not just the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from okf_explorer.core.graph.traverse import Direction, clamp_depth

Move = Literal["visit", "moved", "reload"]
"""How a page is opened: `visit` adds a history entry once the page loads; `moved`:
back/forward already moved it; `reload` shows the current entry again."""


@dataclass(frozen=True, slots=True)
class View:
    """What the main screen shows: a root page and how far/which way to walk;
    `rel`, when set, keeps the walk to edges of that relation. `backlinks` (key `b`)
    shows the depth-1 `in` slice as backlinks with the sentence around each link;
    a depth or direction change leaves it."""

    slug: str
    depth: int = 1
    direction: Direction = "out"
    rel: str | None = None
    backlinks: bool = False

    def with_depth(self, depth: int) -> View:
        return replace(self, depth=clamp_depth(depth), backlinks=False)

    def with_direction(self, direction: Direction) -> View:
        return replace(self, direction=direction, backlinks=False)

    def with_rel(self, rel: str | None) -> View:
        return replace(self, rel=rel)

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
