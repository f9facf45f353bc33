"""The dialogs the explorer's keys open (links, outline, filter, stats, text search, help).

`MainScreen` owns one `ExplorerDialogs` and its `action_*` methods call it; each dialog
module is imported when its key is first pressed (not needed for the first paint).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from textual.binding import BindingType
from textual.screen import Screen

from okf_explorer.core.brain import Brain
from okf_explorer.tui.state.index_loader import IndexLoader
from okf_explorer.tui.state.navigator import Navigator
from okf_explorer.tui.state.server_view import server_note
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.page.pane import PagePane


class ExplorerDialogs:
    """Opens the explorer's dialogs over `screen` and applies what they return."""

    def __init__(
        self, screen: Screen[None], brain: Brain, nav: Navigator, loader: IndexLoader
    ) -> None:
        self.screen, self.brain, self.nav, self.loader = screen, brain, nav, loader

    def page_links(self) -> None:
        """List the body's links (in order of appearance) in a dialog; `enter` follows one."""
        from okf_explorer.tui.dialogs.links import LinksDialog, body_links

        pane = self.screen.query_one(PagePane)
        if pane.links and pane.slug is not None:
            links = body_links(pane.links, self.nav.resolve)
            tree = self.screen.query_one(LinkTree)
            view = tree.view if tree.view is not None and tree.view.slug == pane.slug else None
            # once the tree loaded this page the brain knows which graph answers (no call)
            loaded = tree.slug == pane.slug and self.loader.ready
            if view is not None or (loaded and self.brain.answered_by == "server"):
                links = [
                    replace(link, server=server_note(self.brain, pane.slug, link.slug, view))
                    if link.slug is not None and link.exists
                    else link
                    for link in links
                ]
            dialog = LinksDialog(pane.slug, links)
            self.screen.app.push_screen(dialog, lambda chosen: chosen and pane.follow(chosen.href))

    def okf_filter(self) -> None:
        """Keep the link tree and the traversal panel to OKF statuses and a trust tier."""
        from okf_explorer.tui.dialogs.filter import FilterDialog

        self.screen.app.push_screen(FilterDialog(self.nav.okf_filter, self.nav.filter_graph))

    def outline(self) -> None:
        """The page's headings; `enter` scrolls to one."""
        from okf_explorer.tui.dialogs.outline import OutlineDialog

        pane = self.screen.query_one(PagePane)
        if pane.headings and pane.slug is not None:
            dialog = OutlineDialog(pane.slug, pane.headings)
            self.screen.app.push_screen(dialog, lambda at: at is None or pane.scroll_to_heading(at))

    def search_text(self) -> None:
        """The finder in text mode: full-text search with snippets (`tui.text_finder`)."""
        from textual.command import CommandPalette

        from okf_explorer.tui.text_finder import PLACEHOLDER, TextFinder

        app = self.screen.app
        if not CommandPalette.is_open(app):
            app.push_screen(CommandPalette(providers=[TextFinder], placeholder=PLACEHOLDER))

    def stats(self, open_page: Callable[[str], None]) -> None:
        """Counts, hubs, orphans, dead ends and dangling targets; `enter` opens a page."""
        from okf_explorer.tui.dialogs.stats import StatsDialog

        self.screen.app.push_screen(StatsDialog(self.brain), lambda slug: slug and open_page(slug))

    def help(self, bindings: list[BindingType]) -> None:
        from okf_explorer.tui.dialogs.help import HelpDialog

        self.screen.app.push_screen(HelpDialog(bindings))
