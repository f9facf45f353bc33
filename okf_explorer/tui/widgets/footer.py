"""The footer, with `?` and `q` pinned to its right end so they show at every width.

Textual's footer cuts the keys that do not fit; the keys pinned here are docked
right instead, and of the others those that would not fit whole before them are left
out (`_drop_cut_keys`), never drawn cut (`o O`, `^x Cancel ind`). The command palette's own key
is not shown: `/` (Find) is in the footer already. The footer's key widgets are
Textual's `FooterKey`, which `textual.widgets` does not export: a pinned one is told
by its public `action`.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

PINNED = ("help", "app.quit")
"""The actions whose keys always show, at the right end."""
LAYOUT_TRIES = 10
"""Refreshes waited at most for newly composed keys to be laid out."""
COMPACT_BELOW = 100
"""Columns under which the footer drops the padding around each key."""


class PinnedFooter(Footer):
    """A `Footer` whose `PINNED` keys stay visible however narrow the terminal."""

    DEFAULT_CSS = """
    PinnedFooter > #footer-pinned {
        dock: right; width: auto; height: 1; padding-left: 1; background: $footer-background;
    }
    """

    def __init__(self) -> None:
        super().__init__(show_command_palette=False)
        self._showing: tuple[tuple[str, str, str, bool, str], ...] | None = None
        """What the keys on show say (key, action, label, enabled, tooltip), as last composed."""

    def bindings_changed(self, screen: Screen) -> None:
        """Textual re-mounts every key on each bindings update (a focus move, a page
        opened: ~30 widgets, tens of ms): only when what the footer shows has changed."""
        if self._bindings_ready and screen.app.app_focus:
            showing = tuple(
                (binding.key, binding.action, binding.description, enabled, tooltip)
                for (_, binding, enabled, tooltip) in screen.active_bindings.values()
                if binding.show
            )
            if showing == self._showing:
                return
            self._showing = showing
        super().bindings_changed(screen)

    def on_resize(self) -> None:
        """Under `COMPACT_BELOW` columns the keys lose their padding, so more of them fit."""
        self.compact = self.size.width < COMPACT_BELOW
        self._fit_keys()

    def _unpinned_keys(self) -> list[Widget]:
        return [key for key in self.children if key.id != "footer-pinned"]

    def _fit_keys(self) -> None:
        """Show every key, then, once laid out, leave out those that do not fit whole."""
        for key in self._unpinned_keys():
            key.display = True
        self.call_after_refresh(self._drop_cut_keys)

    def _drop_cut_keys(self, tries: int = LAYOUT_TRIES) -> None:
        """Hide the first key that ends past the pinned keys (or the footer) and all after
        it; keys not laid out yet (just composed) are looked at after the next refresh."""
        keys = self._unpinned_keys()
        pinned = [child for child in self.children if child.id == "footer-pinned"]
        laid_out = all(widget.region.width for widget in (*keys, *pinned) if widget.display)
        if not laid_out and tries > 0:
            self.call_after_refresh(self._drop_cut_keys, tries - 1)
            return
        limit = pinned[0].region.x if pinned else self.region.right
        cut = False
        for key in keys:
            cut = cut or key.region.right > limit
            if cut and key.display:
                key.display = False

    def compose(self) -> ComposeResult:
        pinned: list[Widget] = []
        for item in super().compose():
            if getattr(item, "action", None) in PINNED:  # a key (Textual's `FooterKey`)
                pinned.append(item)
            else:
                yield item
        if pinned:
            yield HorizontalGroup(*pinned, id="footer-pinned")
        self.call_after_refresh(self._drop_cut_keys)  # the new keys, once laid out
