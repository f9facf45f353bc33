"""The link tree: a page's outgoing and incoming links, expandable one hop at a time,
grouped by relation when a side holds more than one (SPEC §5 `rel`)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from rich.text import Text
from textual import on, work
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from okf_explorer.core.audit.model import Difference
from okf_explorer.core.audit.page import PageView
from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError, PageNotFound, PageUnreadable
from okf_explorer.core.graph.suggested import Suggestion
from okf_explorer.core.graph.traverse import LINKS
from okf_explorer.core.links.look_alikes import differences
from okf_explorer.core.okf.filter import NO_FILTER
from okf_explorer.core.pages import title_says_more
from okf_explorer.core.search.mentions import Mention, Mentions
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.failures import ReportsWorkers
from okf_explorer.tui.finder import FillNotice
from okf_explorer.tui.marks import LINKS_LEGEND, row_badge
from okf_explorer.tui.paint_hold import PaintHold
from okf_explorer.tui.state.page_links import (
    LinkNode,
    Side,
    TreeLink,
    incoming_links,
    outgoing_links,
)
from okf_explorer.tui.state.server_view import ServerComparison, explanation, mark, shorten
from okf_explorer.tui.state.slice import IMPLIED_MARK, fit_label
from okf_explorer.tui.widgets.fitted_tree import FittedTree

AMBIGUOUS_MARK = "≟"
"""Marks a link that several pages matched at its rule (see the subtitle for them)."""

SUGGESTED = 10
"""Pages the Suggested section lists at most (the best by shared neighbours)."""
NODE_LIMIT = 500
"""Pages listed at most per side of the tree: a hub page with tens of thousands of
links would otherwise add as many nodes on the event loop. The traversal panel and
the export (`e`) still hold them all."""


def _heading(side: str, items: Sequence[TreeLink]) -> str:
    """`Outgoing (4)`; `Incoming (3 + 1 implied)` while implied edges are shown (they
    are never counted as links or backlinks)."""
    implied = sum(1 for item in items if item.implied)
    stated = len(items) - implied
    return f"{side} ({stated} + {implied} implied)" if implied else f"{side} ({stated})"


def _note_rest(parent: TreeNode[LinkNode], count: int) -> None:
    if count > NODE_LIMIT:
        rest = count - NODE_LIMIT
        parent.add_leaf(Text(f"… {rest} more (see the traversal panel)", style="dim italic"))


READING_LINKS = "reading links…"
"""What the tree says while a page's links are read, after a line saying why there were none."""


class LinkTree(ReportsWorkers, FittedTree[LinkNode]):
    """Outgoing (n) / Incoming (n) for the current page.

    A node's children are fetched from the brain when it is first expanded, in a
    worker, so a server source is asked only for what the user looks at.
    `enter` on a page node posts `PageChosen`; `space` expands it. The border's
    subtitle tells how the highlighted page is linked: the raw target as written,
    and the resolution rule that matched it (SPEC §3), e.g. `[[Orders]] · rule title`.
    A link that several pages matched at its rule is marked `AMBIGUOUS_MARK` in
    the tree, and the subtitle of the highlighted one lists the candidates
    (`ambiguous: a/x, b/x`), the chosen page first.

    With a `comparison` (a server to compare the text with: `server_view`), each
    link the server lacks is marked `−`, one only the server holds `+` (added as a
    node when the answering graph lacks it), one it types otherwise `≠`; the
    subtitle of the highlighted one says the cause and the fix, and what the server
    said of the link (`link_source`, `context`) when its graph answered.
    """

    DEFAULT_CSS = """
    LinkTree { padding: 0 1; overflow-x: hidden; }
    """
    """Rows are cut to the pane (`render_label`): no sideways scrolling."""

    class ViewShown(Message):
        """The server's view of `slug` (`server_view`) is marked in the tree."""

        def __init__(self, slug: str, view: PageView) -> None:
            super().__init__()
            self.slug, self.view = slug, view

    class PageChosen(Message):
        """The user chose a page in the tree (`enter` or a click)."""

        def __init__(self, slug: str, exists: bool = True) -> None:
            super().__init__()
            self.slug = slug
            self.exists = exists

    def __init__(self, brain: Brain, *, id: str | None = None) -> None:
        super().__init__("links", id=id)
        self.brain = brain
        self.show_root = False
        self.auto_expand = False
        self.slug: str | None = None
        self.link_info = ""
        """How the highlighted page is linked (also the border's subtitle)."""
        self._shown: tuple[str, list[TreeLink], list[TreeLink]] | None = None
        """What `show_links` last showed."""
        self._mentions: tuple[str, list[Mention]] | None = None
        """The mentions shown under the current tree, if any (`show_mentions`)."""
        self._mentions_root: TreeNode[LinkNode] = self.root
        self._suggested: tuple[str, list[Suggestion]] | None = None
        """The suggestions shown under the current tree, if any (`show_suggested`)."""
        self._suggested_root: TreeNode[LinkNode] = self.root
        self.comparison: ServerComparison | None = None
        """Marks links where the text and the server disagree, when set."""
        self.view: PageView | None = None
        self.okf_filter = NO_FILTER
        """`F`: only pages that pass (see `core.okf.filter`); counts are of those."""
        self.implied = False
        """`i`: the implied inverse edges too, after the stated ones, dimmed and marked."""
        self.paint_hold = PaintHold(self)

    def load(self, slug: str) -> None:
        """Fetch `slug`'s one-hop links and show them (a newer load replaces an older one).

        A tree that says why it has no links (`waiting for the index…`) says at once that
        they are being read: the status line says `indexed` from the same moment. The
        screen is painted once, when the links are there with the page's body
        (`tui.paint_hold`)."""
        if self._shown is None:
            self.show_pending(slug, READING_LINKS)
        self.paint_hold.hold()
        self._load(slug)

    @work(group="links", exclusive=True, exit_on_error=False)
    async def _load(self, slug: str) -> None:
        try:
            try:
                outgoing, incoming, suggested = await asyncio.to_thread(self._read, slug)
            except OkfError as error:
                self.show_pending(slug, str(error))
                if isinstance(error, (PageNotFound, PageUnreadable)):
                    return
                raise
            self.show_links(slug, outgoing, incoming)
            self.show_suggested(slug, suggested)
        finally:
            self.paint_hold.release()
        if self.comparison is not None:
            view = await self.comparison.view(slug)
            if view is not None and self.slug == slug:
                self.show_view(view)
        if self.brain.index is not None:  # never force an index build for these
            try:
                # found by the text index: a first fill of thousands of pages takes
                # seconds, and says so (a 35k-page wiki's took 12-60 s, unsaid)
                notice = FillNotice(self)
                mentions = await asyncio.to_thread(self.brain.unlinked_mentions, slug, notice)
            except (PageNotFound, PageUnreadable):
                return  # the index moved on meanwhile; the next load shows them
            if self.slug == slug:
                self.show_mentions(slug, mentions)

    def _read(self, slug: str) -> tuple[list[TreeLink], list[TreeLink], list[Suggestion]]:
        """`slug`'s outgoing and incoming links and its suggested links (none without an
        index: never force an index build for these), read off the loop in one go: each
        hop back to the loop waits for the paint in progress. Unlinked mentions, slow on
        a large vault (tens of milliseconds), are read after."""
        try:
            outgoing = outgoing_links(self.brain, slug, self.implied)
        except PageUnreadable:
            outgoing = []  # its links are unknown; who links to it still is
        incoming = incoming_links(self.brain, slug, self.implied)
        if self.brain.index is None:
            return outgoing, incoming, []
        try:
            return outgoing, incoming, self.brain.suggested_links(slug, SUGGESTED)
        except (PageNotFound, PageUnreadable):
            return outgoing, incoming, []  # the index moved on meanwhile

    def show_mentions(self, slug: str, mentions: Mentions) -> None:
        """A third section, Mentions (n): pages naming `slug`'s page without linking it
        (`core.search.mentions`); shown when there is at least one, before Suggested,
        saying how many pages were read when not all that hold a name were."""
        found = mentions.found
        if self._mentions is not None:  # the tree was kept (`show_links`): replace them
            if self._mentions == (slug, found):
                return
            self._mentions_root.remove()
            self._mentions = None
        if not found:
            return
        self._mentions = (slug, list(found))
        before = self._suggested_root if self._suggested is not None else None
        label = f"Mentions ({len(found)})"
        if mentions.partial:
            label += f" · {mentions.checked:,} of {mentions.holding:,} pages read"
        root = self.root.add(label, LinkNode(slug, "in", loaded=True), before=before)
        self._mentions_root = root
        for mention in found[:NODE_LIMIT]:
            data = LinkNode(mention.slug, "in", loaded=True, mention=mention.marked())
            label = Text.assemble(
                printable(mention.slug), "  ", (printable(mention.sentence), "dim")
            )
            root.add_leaf(label, data)
        _note_rest(root, len(found))
        root.expand()

    def show_suggested(self, slug: str, suggested: Sequence[Suggestion]) -> None:
        """A last section, Suggested (n): pages `slug` probably should link to, sharing
        many neighbours with it (`Brain.suggested_links`); shown when there is one."""
        if self._suggested is not None:  # the tree was kept (`show_links`): replace them
            if self._suggested == (slug, list(suggested)):
                return
            self._suggested_root.remove()
            self._suggested = None
        if not suggested:
            return
        self._suggested = (slug, list(suggested))
        root = self.root.add(f"Suggested ({len(suggested)})", LinkNode(slug, "out", loaded=True))
        self._suggested_root = root
        for suggestion in suggested:
            why = f"{suggestion.reason}, score {suggestion.score:g}"
            data = LinkNode(suggestion.to, "out", loaded=True, suggested=why)
            root.add_leaf(Text.assemble(printable(suggestion.to), "  ", (why, "dim")), data)
        root.expand()

    def show_view(self, view: PageView) -> None:
        """Mark the outgoing links the server lacks or types otherwise, and add the ones
        only the server holds (`server_view`)."""
        if self.view is not None:  # the tree was kept (`show_links`): already marked
            return
        self.view = view
        if len(self.root.children) < 2:
            return
        out_root, in_root = self.root.children[:2]  # Mentions, if shown, comes third
        out_diffs = {**view.differs, **view.adds, **view.lacks}
        self._mark_side(out_root, "out", out_diffs)
        self._mark_side(in_root, "in", view.into)
        self.post_message(self.ViewShown(view.slug, view))

    def _mark_side(
        self, side_root: TreeNode[LinkNode], side: Side, found: Mapping[str, Difference]
    ) -> None:
        """Mark the side's page nodes with their difference; a difference on a page the
        side does not list (an edge only the other graph holds) is added, marked."""
        pages = [n for n in side_root.children if n.data is not None and not n.data.group]
        for group in (n for n in side_root.children if n.data is not None and n.data.group):
            pages.extend(n for n in group.children if n.data is not None)
        listed: set[str] = set()
        for node in pages:
            assert node.data is not None
            listed.add(node.data.slug)
            difference = found.get(node.data.slug)
            if difference is not None:
                node.data.difference = difference
                node.set_label(mark(Text.assemble(node.label), difference))
        index = self.brain.index
        for slug, difference in found.items():
            if slug not in listed and difference.side != "both":
                where = "server only" if difference.side == "server" else "text only"
                exists = index is None or index.exists(slug)
                data = LinkNode(slug, side, exists, difference=difference, loaded=True)
                label = Text.assemble(printable(slug), (f"  {where}", "dim"))
                side_root.add_leaf(mark(label, difference), data)

    def show_links(
        self, slug: str, outgoing: Sequence[TreeLink], incoming: Sequence[TreeLink]
    ) -> None:
        """Replace the tree with `slug`'s one-hop links; the same links again (a reload
        that changed nothing here, under the same `F` filter) keep the tree, its open
        nodes and its cursor."""
        outgoing, incoming = self.kept(outgoing), self.kept(incoming)
        shown = (slug, list(outgoing), list(incoming))
        if shown == self._shown:
            return
        self._shown = shown
        self._mentions = None
        self._suggested = None
        self.slug, self.view = slug, None
        self.link_info = ""
        self.border_subtitle = LINKS_LEGEND
        self.clear()
        out_root = self.root.add(_heading("Outgoing", outgoing), LinkNode(slug, "out", loaded=True))
        self._add_links(out_root, slug, "out", outgoing)
        in_root = self.root.add(_heading("Incoming", incoming), LinkNode(slug, "in", loaded=True))
        self._add_links(in_root, slug, "in", incoming)
        out_root.expand()
        in_root.expand()
        self.move_cursor(out_root)

    def kept(self, items: Sequence[TreeLink]) -> Sequence[TreeLink]:
        """`items` whose page passes `okf_filter` (all without a filter)."""
        index = self.brain.index
        if not self.okf_filter.active or index is None:
            return items
        return [item for item in items if self.okf_filter.passes(index.pages.get(item.slug))]

    def _add_links(
        self, parent: TreeNode[LinkNode], slug: str, side: Side, items: Sequence[TreeLink]
    ) -> None:
        """`items` under `parent` (at most `NODE_LIMIT`), under a heading per relation
        when they hold more than one."""
        shown = items[:NODE_LIMIT]
        rels = list(dict.fromkeys(item.rel for item in items))
        if len(rels) < 2:
            for item in shown:
                self._add_page(parent, item, side, grouped=False)
        else:
            for rel in rels:
                total = sum(1 for item in items if item.rel == rel)
                heading = Text.assemble((printable(rel), "bold magenta"), f" ({total})")
                group = parent.add(heading, LinkNode(slug, side, loaded=True, rel=rel, group=True))
                for item in shown:
                    if item.rel == rel:
                        self._add_page(group, item, side, grouped=True)
                group.expand()
        _note_rest(parent, len(items))

    def show_pending(self, slug: str, reason: str) -> None:
        """No links yet (index still building, or the source failed): say why."""
        self.slug, self._shown = slug, None
        self.clear()
        self.link_info = ""
        self.border_subtitle = ""
        self.root.add_leaf(Text(printable(reason), style="dim italic"))

    def _add_page(
        self, parent: TreeNode[LinkNode], item: TreeLink, side: Side, *, grouped: bool
    ) -> None:
        slug, exists = item.slug, item.exists
        info = self.brain.index.pages.get(slug) if self.brain.index is not None else None
        readable = exists and (info is None or info.readable)
        data = LinkNode(
            slug, side, exists=exists, readable=readable, link=item.link, rel=item.rel,
            implied=item.implied,
        )  # fmt: skip
        count = self.brain.known_degree(slug, side) if exists else 0
        label = self._label(data, count)
        if item.rel != LINKS and not grouped:
            label.append(f"  {printable(item.rel)}", style="magenta")
        if item.implied:
            label = Text.assemble((IMPLIED_MARK, "dim"), label, ("  implied", "dim italic"))
            label.stylize("dim")
        parent.add(label, data, allow_expand=readable and count != 0)

    def _label(self, data: LinkNode, count: int | None) -> Text:
        """The node's line; `count` None: not known without asking the graph (a server's
        answer for that page comes when it is expanded), so no count is shown. Names show
        control characters as escapes (`printable`)."""
        slug = printable(data.slug)
        if not data.exists:
            return Text.assemble(("✗ missing ", "bold red"), (slug, "red"))
        if not data.readable:
            return Text.assemble(("⚠ unreadable ", "bold yellow"), slug)
        index = self.brain.index
        info = index.pages.get(data.slug) if index is not None else None
        arrow = "→" if data.side == "out" else "←"
        label = Text.assemble(
            row_badge(info), slug, (f" {arrow}{count}", "cyan") if count is not None else ""
        )
        if data.link is not None and data.link.ambiguous:
            label = Text.assemble((f"{AMBIGUOUS_MARK} ", "bold yellow"), label)
        if (title := self._title_shown(data)) is not None:
            label.append(f"  {title}", style="dim")
        return label

    def _title_shown(self, data: LinkNode) -> str | None:
        """The title a page's row shows after its slug: only one that says more than the
        file name (not `Redis  Redis`), never on a mention's row (its sentence follows)."""
        index = self.brain.index
        info = index.pages.get(data.slug) if index is not None else None
        if info is None or data.mention is not None or not title_says_more(data.slug, info.title):
            return None
        return printable(info.title)

    def cuts(self, node: TreeNode[LinkNode]) -> bool:
        """A page's row is cut (`fit`); a group's (`Outgoing (3)`) is drawn whole."""
        return node.data is not None and not node.data.group

    def fit(self, node: TreeNode[LinkNode], label: Text, width: int) -> Text:
        """A page's row cut so its file name stays (`fit_label`), as the traversal rows
        are; a mention's row goes on with its sentence, not a title."""
        data = node.data
        assert data is not None  # `cuts`
        return fit_label(
            label,
            printable(data.slug),
            width,
            title=self._title_shown(data),
            shared=self.sibling_starts(node),
        )

    def name_cut_at_end(self, node: TreeNode[LinkNode]) -> str | None:
        """What `fit_label` cuts at its end when the slug cannot name the page: the title
        shown, else the file name."""
        data = node.data
        if data is None or data.group:
            return None
        return self._title_shown(data) or printable(data.slug).rsplit("/", 1)[-1]

    @on(Tree.NodeExpanded)
    def _expanded(self, event: Tree.NodeExpanded[LinkNode]) -> None:
        data = event.node.data
        if data is not None and not data.loaded:
            data.loaded = True
            event.node.add_leaf(Text("loading…", style="dim italic"))
            self._load_children(event.node)

    @work(group="link-tree", exit_on_error=False)
    async def _load_children(self, node: TreeNode[LinkNode]) -> None:
        """One more hop under `node`, fetched off the event loop."""
        data = node.data
        assert data is not None
        fetch = outgoing_links if data.side == "out" else incoming_links
        try:
            children = await asyncio.to_thread(fetch, self.brain, data.slug, self.implied)
        except BaseException:
            data.loaded = False
            node.remove_children()
            raise
        node.remove_children()
        self._add_links(node, data.slug, data.side, self.kept(children))

    @on(Tree.NodeHighlighted)
    def _highlighted(self, event: Tree.NodeHighlighted[LinkNode]) -> None:
        self.link_info = printable(self.link_summary(event.node))
        # Text: `[[` is not markup; on a heading the legend says what `→n`/`←n` mean.
        self.border_subtitle = Text(self.link_info) if self.link_info else LINKS_LEGEND

    def link_summary(self, node: TreeNode[LinkNode]) -> str:
        """How `node`'s page is linked to its parent: `from → [[target]] · rule R`, with
        `rel R` for a typed edge."""
        data, parent = node.data, node.parent
        if data is not None and data.mention is not None:
            return f"{data.slug}: {data.mention} · not linked"
        if data is not None and data.suggested is not None:
            return f"{data.slug}: {data.suggested} · not linked"
        if data is None or data.group or parent is None or parent.data is None:
            return ""
        if parent is self.root:
            return ""
        frm, to = (
            (parent.data.slug, data.slug) if data.side == "out" else (data.slug, parent.data.slug)
        )
        parts = [self._stated(data, frm, to)]
        stored = self.brain.server_link(frm, to, data.rel)
        if stored is not None and stored.link_source:
            parts.append(f"server: {stored.link_source}")
        if data.difference is not None:
            parts.append(explanation(data.difference))
        if stored is not None and stored.context:
            parts.append(f"“{shorten(stored.context)}”")
        return " · ".join(parts)

    def _stated(self, data: LinkNode, frm: str, to: str) -> str:
        """`from → [[target]] · rule R` of the link behind a node (see `link_summary`)."""
        typed = [] if data.rel == LINKS else [f"rel {data.rel}"]
        if data.implied:
            return " · ".join([f"{frm} → {to}", *typed, "implied: the inverse of a stated edge"])
        link = data.link if data.side == "out" else None
        index = self.brain.index
        if link is None and index is not None:
            link = next(
                (
                    item
                    for item in index.forward.get(frm, ())
                    if item.to == to and item.rel == data.rel and not item.incoming
                ),
                None,
            )
        if link is None:
            return " · ".join([f"{frm} → {to}", *typed])
        parts = [f"{frm} → {link.written}", *typed, f"rule {link.rule}"]
        if link.ambiguous:
            parts.append("ambiguous: " + ", ".join(link.candidates))
        if not link.exists and index is not None and (like := self.brain.look_alike(frm, link)):
            parts.append(f"looks like {like}, but writes " + ", ".join(differences(link.target)))
        if link.count > 1:
            parts.append(f"×{link.count}")
        return " · ".join(parts)

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected[LinkNode]) -> None:
        event.stop()
        data = event.node.data
        if data is not None and not data.group and event.node.parent is not self.root:
            self.post_message(self.PageChosen(data.slug, data.exists))

    @property
    def selected_slug(self) -> str | None:
        """The page under the cursor, or None on a root or message line."""
        node = self.cursor_node
        if node is None or node.data is None or node.data.group or node.parent is self.root:
            return None
        return node.data.slug
