"""A page's links as the explorer lists them: the edges of the link tree, and `b`'s
backlinks, each with the sentence around its link.

The link tree: `outgoing_links` and `incoming_links` read the brain (blocking: run
them in a worker); `tui.widgets.graph.link_tree` turns their `TreeLink`s into
`LinkNode` tree nodes.

Backlinks (`b`): which pages link here comes from the depth-1 `in` slice; what each
one says around its link comes from the server (gbrain keeps a `context` per link)
or, when it has none, from the linking page's text through the core grammar's spans
(`core.links.spans`). Reading those pages is blocking: `read_backlinks` runs in a
worker, a screenful at a time, so a hub with 10,000 backlinks shows its first rows
at once; `BacklinkLayout` lays their rows out for the table's width.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from rich.text import Text

from okf_explorer.core.audit.model import Difference
from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError
from okf_explorer.core.fast_paths import gc_paused
from okf_explorer.core.graph.traverse import LINKS, Edge
from okf_explorer.core.index.model import ResolvedLink
from okf_explorer.core.links.grammar import LinkKind
from okf_explorer.core.links.spans import LeadsHere, LinkContext, link_contexts, told_context
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.state.slice import (
    ELLIPSIS,
    SharedStart,
    Titles,
    fallback_name,
    page_cell,
    page_width,
    shared_starts,
    shorten_right,
)

Side = Literal["out", "in"]


@dataclass(slots=True)
class LinkNode:
    """What a tree node stands for. `loaded` turns True once its children are fetched."""

    slug: str
    side: Side
    exists: bool = True
    readable: bool = True
    loaded: bool = False
    link: ResolvedLink | None = None
    """The resolved link this node stands for, when the brain handed it over (outgoing)."""
    rel: str = LINKS
    group: bool = False
    """A heading that groups a side's links of relation `rel`, not a page."""
    mention: str | None = None
    """For a page under Mentions: the sentence naming the page (the subtitle shows it)."""
    implied: bool = False
    """An implied inverse edge (`core.graph.implied`): shown dimmed, marked."""
    suggested: str | None = None
    """For a page under Suggested: why a link is suggested (the subtitle shows it)."""
    difference: Difference | None = None
    """How the server disagrees with the text on this link (`server_view`), if it does."""


@dataclass(frozen=True, slots=True)
class TreeLink:
    """One edge the tree shows: the page at the other end, the edge's relation, whether
    the page exists, and the link the page states for it (outgoing), if any."""

    slug: str
    rel: str = LINKS
    exists: bool = True
    link: ResolvedLink | None = None
    implied: bool = False


def outgoing_links(brain: Brain, slug: str, implied: bool = False) -> list[TreeLink]:
    """The edges leaving `slug` (its own links, and relations other pages state from its
    side), each with the link behind it when `slug` states it, then, with `implied`, the
    implied inverse edges (`core.graph.implied`). Blocking: run in a worker."""
    stated = {(link.to, link.rel): link for link in brain.forward_links(slug) if not link.incoming}
    index = brain.index
    found = []
    for node, rel in brain.out_edges(slug):
        link = stated.get((node, rel))
        exists = link.exists if link is not None else index is None or index.exists(node)
        found.append(TreeLink(node, rel, exists, link))
    if implied:
        implied_out = brain.implied_edges(slug, "out")
        found += [TreeLink(node, rel, implied=True) for node, rel in implied_out]
    return found


def links_elsewhere(brain: Brain, slug: str) -> bool:
    """Whether `slug` links to another page that exists (True when that cannot be told):
    a start page that does not is a dead end for a newcomer (`StatusBar.start_links_nowhere`)."""
    index = brain.index
    try:
        edges = brain.out_edges(slug)
    except OkfError:
        return True
    return any(node != slug and (index is None or index.exists(node)) for node, _ in edges)


def incoming_links(brain: Brain, slug: str, implied: bool = False) -> list[TreeLink]:
    """The edges into `slug`, slug order, once per (page, relation), then, with `implied`,
    the implied inverse edges (never backlinks: listed after them, marked). Blocking:
    run in a worker."""
    found = [TreeLink(node, rel) for node, rel in dict.fromkeys(brain.in_edges(slug))]
    if implied:
        implied_in = brain.implied_edges(slug, "in")
        found += [TreeLink(node, rel, implied=True) for node, rel in implied_in]
    return found


# ------------------------------------------------------------------ backlinks (`b`)

CONTEXTS_PER_PAGE = 3
"""Sentences shown per linking page; more are counted on a last line."""
PAGE_SHARE = 0.35
"""The share of the backlinks table the linking page's name takes at most."""
LINK_STYLE = "bold underline"
"""How the link is marked in its sentence."""


@dataclass(frozen=True, slots=True)
class Backlink:
    """A page linking to the root: the sentence around each of its links (`contexts`),
    or why there is none (`note`: a frontmatter relation, an unreadable page)."""

    page: str
    contexts: tuple[LinkContext, ...] = ()
    note: str | None = None


def linking_pages(edges: Sequence[Edge]) -> list[str]:
    """The pages of a depth-1 `in` slice, each once, in slice order."""
    return list(dict.fromkeys(edge.to for edge in edges))


@dataclass(frozen=True, slots=True)
class BacklinkStart:
    """What `b` shows first: the depth-1 `in` slice, its linking pages, and the first
    of them read (`first`), so the first paint costs one trip to a thread."""

    edges: list[Edge]
    pages: list[str]
    by_page: dict[str, list[Edge]]
    first: list[Backlink]


def start_backlinks(
    brain: Brain, root: str, rels: Sequence[str] | None, size: int
) -> BacklinkStart:
    """Walk `root`'s direct backlinks and read the first `size` linking pages. Blocking."""
    edges = brain.traverse(root, 1, "in", rels)
    pages = linking_pages(edges)
    by_page = edges_by_page(edges)
    return BacklinkStart(edges, pages, by_page, read_backlinks(brain, root, pages[:size], by_page))


def edges_by_page(edges: Sequence[Edge]) -> dict[str, list[Edge]]:
    """The edges of a depth-1 `in` slice, by linking page."""
    by_page: dict[str, list[Edge]] = {}
    for edge in edges:
        by_page.setdefault(edge.to, []).append(edge)
    return by_page


def read_backlinks(
    brain: Brain, root: str, pages: Sequence[str], by_page: Mapping[str, Sequence[Edge]]
) -> list[Backlink]:
    """Each of `pages` with the sentences around its links to `root`. Blocking.

    With the cyclic collector paused (`gc_paused`): reading a thousand pages allocates
    enough to start full collections over the whole explorer's heap, 50-250 ms each
    with the GIL held, which the event loop would wait for."""
    with gc_paused():
        return [_backlink(brain, root, page, by_page.get(page, ())) for page in pages]


def _backlink(brain: Brain, root: str, page: str, edges: Sequence[Edge]) -> Backlink:
    told = [edge.context for edge in edges if edge.context]
    if told:  # the server keeps the sentence of each link (gbrain's `context`)
        return Backlink(page, tuple(told_context(text, root) for text in dict.fromkeys(told)))
    try:
        content = brain.link_text(page)
    except OkfError as error:
        return Backlink(page, note=f"cannot read it: {error}")
    found = link_contexts(content, _leads_to(brain, page, root))
    if found:
        return Backlink(page, tuple(found))
    typed = sorted({edge.rel for edge in edges if edge.rel != LINKS})
    if typed:
        return Backlink(page, note="frontmatter: " + ", ".join(typed))
    return Backlink(page, note="no sentence found")


def _leads_to(brain: Brain, page: str, root: str) -> LeadsHere:
    """`leads_here(target, kind)` for the links of `page`, by the core resolver. Not
    through the index's resolved links: on a warm start those are built on first use
    (~0.3 s for 10k pages), and they keep one target per page reached."""

    def leads_here(target: str, kind: LinkKind) -> bool:
        try:
            return brain.resolve_link(page, target, kind, definitions=False).node == root
        except OkfError:
            return False

    return leads_here


COMMENT_MARK = "in a comment · "
"""Before the sentence of a link inside an Obsidian comment (`%% … %%`): it counts in
the graph, as in Obsidian, but the page does not show it."""


def context_cell(context: LinkContext, width: int) -> Text:
    """The sentence on one line of `width`, cut around the link so the link shows; a
    link inside a comment says so first (`COMMENT_MARK`)."""
    if context.comment and width > 2 * len(COMMENT_MARK):
        plain = replace(context, comment=False)
        return Text(COMMENT_MARK, "dim italic") + context_cell(plain, width - len(COMMENT_MARK))
    text, start, end = printable(context.text), context.start, context.end
    if len(printable(context.text)) != len(context.text):  # controls shown as escapes
        return Text(shorten_right(text, width))
    if len(text) > width:
        keep_before = max(0, (width - (end - start)) // 2)
        left = max(0, min(start - keep_before, len(text) - width))
        cut_left, cut_right = left > 0, left + width < len(text)
        shown = text[left : left + width]
        start, end = start - left, end - left
        if cut_left:
            shown, start = ELLIPSIS + shown[1:], max(start, 1)
        if cut_right:
            shown = shown[:-1] + ELLIPSIS
            end = min(end, len(shown) - 1)
        text = shown
    cell = Text(text)
    if end > start:
        cell.stylize(LINK_STYLE, max(0, start), max(0, end))
    return cell


def backlink_rows(
    backlink: Backlink,
    *,
    page_width: int,
    context_width: int,
    title: Titles,
    shared: Mapping[str, SharedStart] | None = None,
) -> list[tuple[Text, Text]]:
    """The rows of one linking page: its name on the first (leaving out a start it
    `shared` with the other linking pages' names), a sentence on each."""
    name = page_cell(backlink.page, title(backlink.page), page_width, shared=shared)
    lines = _sentence_lines(backlink, context_width)
    return [(name if row == 0 else Text(""), line) for row, line in enumerate(lines)]


def _sentence_lines(backlink: Backlink, width: int) -> list[Text]:
    """A line per sentence (at most `CONTEXTS_PER_PAGE`, then a count), then the note."""
    lines: list[Text] = [context_cell(c, width) for c in backlink.contexts[:CONTEXTS_PER_PAGE]]
    if len(backlink.contexts) > CONTEXTS_PER_PAGE:
        more = len(backlink.contexts) - CONTEXTS_PER_PAGE
        lines.append(Text(f"+{more} more links", style="dim italic"))
    if backlink.note is not None:
        lines.append(Text(printable(backlink.note), style="dim italic"))
    return lines or [Text("")]


def backlinks_info(edges: Sequence[Edge], capped: bool, limit: int) -> str:
    """`N pages link here`, and whether the rows stop at `limit`."""
    pages = len(linking_pages(edges))
    line = f"{pages} {'page links' if pages == 1 else 'pages link'} here"
    return f"{line} · first {limit} rows shown" if capped else line


def full_sentence(backlink: Backlink, row: int) -> str:
    """What the info line says of sentence line `row` of `backlink`: the whole sentence."""
    if row < min(len(backlink.contexts), CONTEXTS_PER_PAGE):
        context = backlink.contexts[row]
        return (COMMENT_MARK if context.comment else "") + printable(context.text)
    return printable(backlink.note or "")


def backlink_widths(edges: Sequence[Edge], table_width: int, title: Titles) -> tuple[int, int]:
    """The backlinks table's (linked from, context) column widths for `table_width`."""
    room = _room(table_width)
    pages = linking_pages(edges)
    wanted = max([11, *(page_width(page, title(page)) for page in pages)])
    # The file names whole (`…/name`) where half the room allows, else the share.
    names = max([0, *(len(page.rsplit("/", 1)[-1]) + 2 for page in pages)])
    page = min(wanted, max(12, int(room * PAGE_SHARE), min(names, room // 2)))
    return page, max(8, room - page)


def _room(table_width: int) -> int:
    """The cells left for the text of the two columns in a row `table_width` wide
    (beside the table's scroll bar: `RowTable.row_width`), one of padding each side."""
    return max(20, table_width - 2 * 2)


@dataclass(frozen=True, slots=True)
class BacklinkLayout:
    """How the backlinks table is laid out for its width: two columns (linked from,
    context) when the sentences get at least `MIN_CONTEXT` characters, else one
    (`stacked`): each linking page on a row of its own, its sentences indented
    under it, so a narrow panel (an 80-column terminal) still reads them."""

    columns: tuple[tuple[str, int], ...]
    stacked: bool
    shared: Mapping[str, SharedStart] = field(default_factory=dict)
    """The starts the linking pages' names share (`slice.shared_starts`)."""

    def rows(self, backlink: Backlink, title: Titles) -> list[tuple[Text, ...]]:
        """The table rows of one linking page."""
        if not self.stacked:
            (_, page), (_, context) = self.columns
            return list(
                backlink_rows(
                    backlink,
                    page_width=page,
                    context_width=context,
                    title=title,
                    shared=self.shared,
                )
            )
        width = self.columns[0][1]
        name = page_cell(backlink.page, title(backlink.page), width, shared=self.shared)
        name.stylize("bold")
        lines = _sentence_lines(backlink, width - len(STACKED_INDENT))
        return [(name,), *((Text(STACKED_INDENT) + line,) for line in lines)]

    def sentence(self, backlink: Backlink, row: int) -> str:
        """The whole sentence of row `row` of `backlink`'s rows (its page's row: the first)."""
        return full_sentence(backlink, max(0, row - 1) if self.stacked else row)


MIN_CONTEXT = 40
"""Below this many characters for the sentences, the backlinks table stacks its rows."""
STACKED_INDENT = "  "
"""What a sentence is indented by under its page, in the stacked layout."""


def backlink_layout(edges: Sequence[Edge], table_width: int, title: Titles) -> BacklinkLayout:
    """The backlinks table's layout for `table_width` (see `BacklinkLayout`)."""
    page, context = backlink_widths(edges, table_width, title)
    shared = shared_starts(fallback_name(page, title(page)) for page in linking_pages(edges))
    if context >= MIN_CONTEXT:
        columns = (("linked from", page), ("context", context))
        return BacklinkLayout(columns, stacked=False, shared=shared)
    columns = (("linked from · context", _room(table_width) + 2),)
    return BacklinkLayout(columns, stacked=True, shared=shared)
