"""The footer: the keys that apply, in one line, with `?` and `q` pinned to its right end.

Textual's `Footer` is a widget per key, and mounts them all again on every bindings
update (a focus move, a page opened: ~30 widgets, 50 ms and a layout pass of the whole
screen per key press). This footer is one widget drawing one line: an update repaints
that line, only when what it shows has changed, and never changes the layout.

It draws the keys as Textual's footer does (the key bold, its description after it, a
disabled key dimmed, one key per action), with the `PINNED` keys at the right end so
they show at every width. Of the others, those that do not fit whole before the pinned
ones are left out (the first ones stay), never drawn cut (`o O`, `^x Cancel ind`).
Under `COMPACT_BELOW` columns the keys lose their padding, so more of them fit. The
key under the mouse is lit, and a click on a key presses it. The command palette's own
key is not shown: `/` (Find) is in the footer already.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget

PINNED = ("help", "app.quit")
"""The actions whose keys always show, at the right end."""
COMPACT_BELOW = 100
"""Columns under which the footer drops the padding around each key."""
PINNED_GAP = 1
"""Cells kept free before the pinned keys."""


@dataclass(frozen=True)
class FooterKey:
    """One key as the footer shows it."""

    key: str
    """The key's name, as pressed (`question_mark`)."""
    display: str
    """The key as shown (`?`)."""
    description: str
    action: str
    enabled: bool

    @property
    def pinned(self) -> bool:
        return self.action in PINNED

    def parts(self, compact: bool) -> tuple[str, str, str]:
        """The key, its description and the gap after them, as drawn: ` k desc `
        (compact: `k desc` and a one-cell gap)."""
        if compact:
            return self.display, f" {self.description}" if self.description else "", " "
        return f" {self.display} ", f"{self.description} " if self.description else "", ""

    def width(self, compact: bool) -> int:
        """The cells the key takes, its gap included."""
        return sum(cell_len(part) for part in self.parts(compact))


def pin_footer(screen: Screen) -> None:
    """Wire `screen`'s footer to what applies on it, now and at each bindings update
    (`Screen.bindings_updated_signal`): called by the screen, once mounted."""
    footer = screen.query_one(PinnedFooter)
    screen.bindings_updated_signal.subscribe(footer, footer.bindings_changed)
    footer.bindings_changed(screen)


class PinnedFooter(Widget, can_focus=False):
    """The keys that apply to the focused widget and the screen, one line at the bottom."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {"footer--key", "footer--description", "footer--hover"}
    DEFAULT_CSS = """
    PinnedFooter {
        dock: bottom; height: 1;
        color: $footer-foreground; background: $footer-background;
    }
    PinnedFooter > .footer--key {
        color: $footer-key-foreground; background: $footer-key-background; text-style: bold;
    }
    PinnedFooter > .footer--description {
        color: $footer-description-foreground; background: $footer-description-background;
    }
    PinnedFooter > .footer--hover { background: $block-hover-background; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.keys: tuple[FooterKey, ...] = ()
        """The keys that apply, in the screen's order (pinned ones included)."""
        self.hovered: FooterKey | None = None
        """The key under the mouse (lit)."""

    def bindings_changed(self, screen: Screen) -> None:
        """What applies on `screen` may have changed: redraw if it has (`pin_footer`)."""
        if not screen.app.app_focus:
            return  # the terminal lost the focus: Textual's footer waits too
        keys: dict[str, FooterKey] = {}
        for _, binding, enabled, _ in screen.active_bindings.values():
            if binding.show and binding.action not in keys:
                display = screen.app.get_key_display(binding)
                keys[binding.action] = FooterKey(
                    binding.key, display, binding.description, binding.action, enabled
                )
        shown = tuple(keys.values())
        if shown != self.keys:
            self.keys = shown
            self.refresh()

    @property
    def compact(self) -> bool:
        return self.size.width < COMPACT_BELOW

    def shown(self) -> list[FooterKey]:
        """The keys drawn at the footer's width: the first others that fit whole, then
        the pinned ones."""
        pinned = [key for key in self.keys if key.pinned]
        room = self.size.width - sum(key.width(self.compact) for key in pinned) - PINNED_GAP
        shown: list[FooterKey] = []
        for key in (key for key in self.keys if not key.pinned):
            room -= key.width(self.compact)
            if room < 0:
                break
            shown.append(key)
        return shown + pinned

    def placed(self) -> list[tuple[int, FooterKey]]:
        """The keys drawn, each with the cell it starts at."""
        shown = self.shown()
        left = [key for key in shown if not key.pinned]
        pinned = [key for key in shown if key.pinned]
        placed: list[tuple[int, FooterKey]] = []
        x = 0
        for key in left:
            placed.append((x, key))
            x += key.width(self.compact)
        x = self.size.width - sum(key.width(self.compact) for key in pinned)
        for key in pinned:
            placed.append((x, key))
            x += key.width(self.compact)
        return placed

    def key_at(self, x: int) -> FooterKey | None:
        """The key drawn at cell `x`, if any."""
        for start, key in self.placed():
            if start <= x < start + key.width(self.compact):
                return key
        return None

    def render(self) -> Text:
        key_style = self.get_component_rich_style("footer--key")
        description_style = self.get_component_rich_style("footer--description")
        line = Text(no_wrap=True, end="")
        for x, key in self.placed():
            line.append(" " * max(0, x - line.cell_len))
            shown_key, description, gap = key.parts(self.compact)
            look = Style(dim=True) if not key.enabled else Style()
            if key == self.hovered:
                look += self.get_component_rich_style("footer--hover")
            line.append(shown_key, key_style + look)
            line.append(description, description_style + look)
            line.append(gap)
        return line

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover(self.key_at(event.x))

    def on_leave(self) -> None:
        self._hover(None)

    def _hover(self, key: FooterKey | None) -> None:
        if key != self.hovered:
            self.hovered = key
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        """A click on a key presses it (a disabled one rings the bell)."""
        key = self.key_at(event.x)
        if key is not None:
            event.stop()
            if key.enabled:
                self.app.simulate_key(key.key)
            else:
                self.app.bell()
