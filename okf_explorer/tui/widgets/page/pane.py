"""The page pane: a header of frontmatter fields over the rendered Markdown body.

The body is prepared (linkified, parsed, drawn) in a thread by the vault Markdown
engine (`tui.markdown`), and only mounted on the event loop: a `VaultBody` of a few
pieces of drawn rows, so a 200-item index page mounts in a few milliseconds and does
not make every later relayout slow (under `OKF_EXPLORER_PLAIN=1`, Textual's
`Markdown` widget shows it instead: `VaultMarkdown`, mounted the first time a body needs
it: mounted but hidden, its style names were worked out again at every focus change).

Three helpers below the pane each keep one of its jobs, with the state it needs:

- `PartGrower`: a huge body shows its first `RENDER_CHARS` with a line saying how much
  of it is shown; `more` (key `m`, or a click on that line) appends the next part,
  prepared in a thread; presses made while a part is drawn are counted, not dropped.
- `AnchorScroller`: `scroll_to_anchor` scrolls to a heading or block id
  (`[[Page#Heading]]`, `[[Page#^block]]`, the `o` outline) in whichever widget shows
  the body, and scrolls there again over the next frames, while widgets mounted just
  before reach their height.
- `EmbedFiller`: each `![[page]]` embed looks its page up in a worker, and embeds that
  asked before the index was built ask again once it is.

A body prepared is kept (`PreparedBodies`, the last 8), so back to a page, or a link
followed twice, shows it without parsing it again. A page over `LONG_CHARS` shows a
first screen drawn for the pane (`first_screen_chars`), then the rest of its first
part; the whole part at once when a heading or a search hit in it is asked for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from okf_explorer.core.bases import is_base_name
from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import (
    AuthError,
    OkfError,
    PageNotFound,
    PageUnreadable,
    SourceUnavailable,
)
from okf_explorer.core.links.grammar import LinkKind
from okf_explorer.core.okf.meta import sources_of
from okf_explorer.core.pages import COMMONMARK_BREAKS, LineBreaks, Markup, Page
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.failures import ReportsWorkers
from okf_explorer.tui.markdown import (
    FILE_SCHEME,
    LONG_CHARS,
    NOTHING_THERE,
    RENDER_CHARS,
    TAG_SCHEME,
    WAITING_FOR_INDEX,
    BodyCursor,
    DrawnRows,
    EmbedView,
    Heading,
    PreparedBodies,
    PreparedBody,
    VaultBody,
    VaultMarkdown,
    anchor_of_href,
    block_refs,
    dialect_fields,
    embedded_text,
    heading_named,
    is_block_anchor,
    kind_of_href,
    more_line,
    prepare_body,
    target_of_href,
)
from okf_explorer.tui.marks import RESERVED_LEGEND
from okf_explorer.tui.paint_hold import PaintHold
from okf_explorer.tui.state.navigator import Move, View
from okf_explorer.tui.widgets.page.header import (
    HeaderShown,
    PageHeader,
    header_links,
    is_deprecated,
)

FATAL_AT_START = (SourceUnavailable, AuthError)
"""Errors that, before any page was shown, mean the brain cannot be opened at all."""
CHOSEN_SPACES = "chosen with L: a single newline is a space, paragraphs flow to the pane"
CHOSEN_BREAKS = "chosen with L: a single newline breaks the line"
"""What `?`, the header's tooltip and a notification say of a rule chosen with `L`."""
SPINNER_DELAY = 0.15
"""Seconds a page load may take before the pane shows a loading spinner."""
FIRST_SCREEN_CHARS = 24_000
"""A long page's first screen is drawn from this much of it at most; the rest of its
first part (`RENDER_CHARS`) follows in the background, so a 2 MB page shows at once."""
FIRST_SCREEN_LEAST = 4_000
"""…and from this much at least (`first_screen_chars`)."""
CHARS_PER_CELL = 3
"""Characters of Markdown a first screen reads per cell of the pane (`first_screen_chars`):
link targets and marks are written but not shown."""
BODY_PADDING = 4
"""Columns of the body's padding (two each side, as Textual's `Markdown` has)."""
FILL_DELAY = 0.2
"""Seconds the rest of a long page's first part waits before it is prepared: its
thread competes for the interpreter lock, so it lets the first screen's layouts
(the body, then the scrollbar it brings) finish first."""
SCROLL_SETTLE = 0.5
"""Seconds over which a scroll to a heading or block is made again (`_settle_scroll`)."""


def first_screen_chars(width: int, height: int) -> int:
    """How much of a long page its first screen is drawn from, in a pane `width` by
    `height` cells: `CHARS_PER_CELL` a cell, within `FIRST_SCREEN_LEAST` and
    `FIRST_SCREEN_CHARS` (a pane not laid out yet: the most). Drawing 24 KB took 90-130 ms
    where a 150x45 terminal's page pane shows about 3 KB."""
    if width <= 0 or height <= 0:
        return FIRST_SCREEN_CHARS
    return min(FIRST_SCREEN_CHARS, max(FIRST_SCREEN_LEAST, width * height * CHARS_PER_CELL))


class PagePane(ReportsWorkers, VerticalScroll, can_focus=True):
    """Loads and shows one page. Clicking a link posts `LinkFollowed`; the screen resolves it.
    `n` / `N` move a cursor over the header's links, then the body's links, foldable
    callouts, embeds and wide code blocks (`BodyCursor`; the screen routes them here from
    the other panes), `enter` follows, folds or wraps what it is on, `left` / `right`
    scroll a wide code block sideways; `space` pages down (`shift+space` up, where
    the terminal tells it from `space`), as a pager and a browser do."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "cursor(1)", "Next link"),
        Binding("N", "cursor(-1)", "Previous link", show=False),
        Binding("enter", "cursor_enter", "Follow / fold", show=False),
        Binding("left", "slide(-1)", "Code left", show=False),
        Binding("right", "slide(1)", "Code right", show=False),
        Binding("space", "page_down", "Page down", show=False),  # as a pager
        Binding("shift+space", "page_up", "Page up", show=False),
    ]

    DEFAULT_CSS = """
    PagePane { padding: 0 1; }
    PagePane > #page-header { margin: 1 0 0 0; padding: 0 1; border-left: thick $accent; }
    PagePane > #page-header.deprecated { border-left: thick $error; }
    PagePane > #page-error { color: $error; margin: 1 0; display: none; }
    PagePane.failed > #page-error { display: block; }
    PagePane.failed > #page-body { display: none; }
    PagePane > #page-markdown { display: none; }
    PagePane.plain > #page-markdown { display: block; }
    PagePane.plain > #page-body { display: none; }
    PagePane.failed > #page-markdown { display: none; }
    PagePane > .page-more { display: none; color: $text-warning; margin: 1 0 0 0; }
    PagePane.truncated > .page-more { display: block; }
    PagePane.failed > .page-more { display: none; }
    """

    class LinkFollowed(Message):
        """A body link was clicked: `target` is the raw link target (written as a
        `kind` link), `url` an external URL, `anchor` the heading or `^block` it
        points into."""

        def __init__(
            self,
            target: str | None,
            url: str | None = None,
            kind: LinkKind = "wiki",
            anchor: str | None = None,
        ) -> None:
            super().__init__()
            self.target = target
            self.url = url
            self.kind: LinkKind = kind
            self.anchor = anchor

    class TagFollowed(Message):
        """A tag was followed (the header's or the body's): list the pages so tagged."""

        def __init__(self, tag: str) -> None:
            super().__init__()
            self.tag = tag

    class Opened(Message):
        """The source answered for `view` (its page, or why not): it is the current page
        now. Posted before the body is drawn."""

        def __init__(self, view: View, move: Move) -> None:
            super().__init__()
            self.view, self.move = view, move

    class BodyShown(Message):
        """The body is on screen (what `m` and `l` apply to has changed)."""

    def __init__(self, brain: Brain, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.brain = brain
        self.opened_once = False
        """Whether any page (or its failure) was ever shown."""
        self._spinner_for: object | None = None
        self.slug: str | None = None
        self.page: Page | None = None
        self.error: str | None = None
        self.shown: Page | None = None
        """The page whose body is on screen (`page` is set first, while it renders)."""
        self.end = 0
        """Characters of the body on screen (less than its length when truncated)."""
        self.links: list[tuple[str, str]] = []
        """(label, href) of the links on screen, in order of appearance: the header's
        (`header_links`: sources, contract resources), then the body's."""
        self.header = HeaderShown(self)
        self.paint_hold = PaintHold(self)
        self.headings: list[Heading] = []
        """(level, text) of the headings on screen, in order (the `o` outline)."""
        self.line_breaks = COMMONMARK_BREAKS
        """How a single newline reads on the pages shown (the brain's rule, asked as a
        body is prepared, or the reader's, `breaks_chosen`): the header's tooltip and `?`
        say it."""
        self.breaks_chosen: LineBreaks | None = None
        """The rule the reader chose with `L` for the session (None: the brain's)."""
        self.markup: Markup = "markdown"
        """The dialect the pages shown are written in (`Brain.markup`, asked likewise)."""
        self._end_of_first_screen: float | None = None
        """Where `end` took the view while the page was filling (`_fill_rest`)."""
        self._place_wanted: str | None = None
        """The page a place is to be scrolled to in, once shown (`expect_place`)."""
        self.prepared = PreparedBodies()
        """The bodies prepared last (`_prepare`): a page shown again is not drawn again."""
        self.anchor_scroll = AnchorScroller(self)
        self.parts = PartGrower(self)
        self.embeds = EmbedFiller(self, brain, lambda: self.page)

    def compose(self) -> ComposeResult:
        header = PageHeader(id="page-header")
        yield header
        yield Static(id="page-error")
        yield Static(id="page-more", classes="page-more")  # seen at once
        body = VaultBody(id="page-body")
        self.cursor = BodyCursor(body, header)
        yield body
        yield Static(id="page-more-end", classes="page-more")  # seen where the text stops

    @work(group="page", exclusive=True, exit_on_error=False)
    async def load(self, view: View, move: Move) -> None:
        """Open `view`'s page in a worker; a newer load replaces an older one."""
        await self.open(view, move)

    async def open(self, view: View, move: Move, missing_ok: bool = False) -> bool:
        """Read `view`'s page from the brain and show it, or say why it cannot be shown.

        False (and nothing changed) when `missing_ok` and the page does not exist.
        A page that fails to load is opened anyway, its failure shown. Raises
        `FATAL_AT_START` errors while nothing was ever shown: the brain cannot be opened.
        """
        # The spinner only for a slow source: on a local page it would just flicker,
        # and mounting then pruning it costs a frame.
        self.paint_hold.hold()  # one paint when the body is there (`tui.paint_hold`)
        token = object()
        self._spinner_for = token if move != "reload" else None
        spinner = self.set_timer(SPINNER_DELAY, lambda: self._spin(token))
        try:
            page = await asyncio.to_thread(self.brain.page, view.slug)
        except (PageNotFound, PageUnreadable) as error:
            if missing_ok and isinstance(error, PageNotFound):
                return False
            self._opened(view, move)
            self.show_failure(view.slug, str(error))
        except OkfError as error:
            if not self.opened_once and isinstance(error, FATAL_AT_START):
                raise
            # The page is the current entry (back returns to where the user was); the
            # pane says why it is empty, and `r` loads it again.
            self._opened(view, move)
            self.show_failure(view.slug, f"Could not load {view.slug}: {error} · r retries")
            self.notify(str(error), title="source", severity="error", markup=False)
        else:
            kept = self.scroll_y if move == "reload" and self.slug == view.slug else None
            self._opened(view, move)
            await self.show_page(page)
            if kept:  # a reload (`r`, a file saved) keeps the place the reader was at
                self.call_after_refresh(partial(self.scroll_to, y=kept, animate=False))
            self.post_message(self.BodyShown())
        finally:
            spinner.stop()
            if self._spinner_for is token:
                self._spinner_for = None
            self.loading = False
            self.paint_hold.release()
        return True

    def _opened(self, view: View, move: Move) -> None:
        self.opened_once = True
        self.post_message(self.Opened(view, move))

    def _spin(self, token: object) -> None:
        """The page load `token` is still running (a stopped timer may still fire)."""
        if self._spinner_for is token:
            self.loading = True

    async def show_page(self, page: Page) -> None:
        """Render `page`; frontmatter fields go in the header, the body below it."""
        self.slug, self.page, self.error = page.slug, page, None
        self.shown = None  # until the body is on screen (`truncated` reads it)
        self._end_of_first_screen = None
        self.cursor.show(None)
        self.remove_class("failed")
        self.links, self.end = header_links(page), 0  # sources first, then the body's
        self.headings = []
        header = self.query_one("#page-header", Static)
        self.header.show(page)
        header.set_class(is_deprecated(page.frontmatter), "deprecated")
        self.border_subtitle = RESERVED_LEGEND if page.reserved else ""
        if not page.readable:
            self._fail(page.error or "this page cannot be read")
        # A place asked for in the page (a heading, a search hit) may be past a first
        # screen: the whole first part is drawn at once. Both are taken once it is shown
        # (a newer load of the page may cancel this one while it prepares).
        place_wanted = self.anchor_scroll.expects(page.slug) or self._place_wanted == page.slug
        short = len(page.content) <= LONG_CHARS or place_wanted
        first = RENDER_CHARS if short else first_screen_chars(self.size.width, self.size.height)
        room = self.size.height - self.header.rows - 1 if self.size.height else None
        limit = min(first, RENDER_CHARS)
        body = await asyncio.to_thread(self._prepare, page, 0, limit, room)
        if self.page is not page:
            return  # another page came in while this one was being prepared
        drawn = self.query_one("#page-body", VaultBody)
        header.tooltip = f"line breaks: {self.line_breaks.why}"
        self.set_class(not body.drawn, "plain")
        if body.pieces is not None:
            await drawn.show(body.pieces)
            if (markdown := self._plain_markdown()) is not None and markdown.source:
                await markdown.update("")
        else:
            await drawn.show(None)
            markdown = await self._markdown_widget()
            markdown.breaks = self.line_breaks.hard
            await markdown.update(body.markdown)
        filled = body.end >= min(RENDER_CHARS, body.total)
        self._shown_part(body, final=filled)
        self.scroll_home(animate=False)
        self.shown = page
        if not filled:  # the rest of the first part, once the first screen is laid out
            self.set_timer(FILL_DELAY, lambda: self._fill(page, RENDER_CHARS - body.end))
        self._place_wanted = None
        if (anchor := self.anchor_scroll.take_pending(page.slug)) is not None:
            self.call_after_refresh(partial(self.scroll_to_anchor, anchor))

    def _fill(self, page: Page, limit: int) -> None:
        if self.page is page and self.is_attached:
            self.run_worker(self._fill_rest(page, limit), group="fill")

    async def _fill_rest(self, page: Page, limit: int) -> None:
        """The rest of a long page's first part, after its first screen; a view that
        `end` took to the first screen's end, not moved since, goes on to the end."""
        await self.show_more(limit)
        at_end, self._end_of_first_screen = self._end_of_first_screen, None
        if self.page is page and at_end is not None and self.scroll_target_y == at_end:
            self.call_after_refresh(partial(self.scroll_end, animate=False))

    def action_scroll_end(self) -> None:
        """`end`: the end of the page (of a page still filling, once filled: `_fill_rest`)."""
        filling = self.filling
        super().action_scroll_end()
        self._end_of_first_screen = self.max_scroll_y if filling else None

    @property
    def filling(self) -> bool:
        """Whether the rest of a long page's first part is still to come (`FILL_DELAY`)."""
        return self.shown is not None and self.truncated and not self.has_class("truncated")

    def _prepare(self, page: Page, start: int, limit: int, room: int | None = None) -> PreparedBody:
        """Part of `page` drawn as wide as the body is: the pane's width less the body's
        padding, and less the scrollbar's when the body is taller than `room` rows
        (None: a later part, or a pane not laid out, is taken to overflow)."""
        width = self.content_region.width - BODY_PADDING
        width = width if width > 0 else 80
        scrollbar = self.styles.scrollbar_size_vertical
        self.line_breaks = breaks = self.breaks_chosen or self.brain.line_breaks()
        self.markup = markup = self.brain.markup()
        # What the body is prepared from: a body kept is shown again as it is (not a
        # Logseq page's: it shows other pages' blocks, which change without it).
        kept_here = markup != "logseq"
        key = (page.slug, page.content, repr(page.frontmatter), start, limit, width)
        key += (scrollbar, room, breaks.hard, markup)
        if kept_here and (kept := self.prepared.get(key)) is not None:
            return kept
        refs = block_refs(page.content) if markup == "logseq" else set()
        blocks = self.brain.block_texts(refs) if refs else None
        macros = self.brain.macros() if markup == "logseq" else None
        body = prepare_body(
            page.content,
            start,
            limit,
            sources_of(page.frontmatter),
            width,
            scrollbar,
            room,
            breaks.hard,
            markup,
            blocks,
            dialect_fields(page.frontmatter, page.content, markup),
            page.slug,
            macros,
        )
        if kept_here:
            self.prepared.keep(key, body)
        return body

    def expect_anchor(self, slug: str, anchor: str) -> None:
        """Scroll to `anchor` once `slug` is the next page shown (a followed link)."""
        self.anchor_scroll.pending = (slug, anchor)

    def expect_place(self, slug: str) -> None:
        """A place in `slug`, the next page shown, is to be scrolled to once it is drawn
        (a search hit): its whole first part is drawn at once, not a first screen."""
        self._place_wanted = slug

    def scroll_to_anchor(self, anchor: str) -> bool:
        """Scroll to a heading or `^block` (`AnchorScroller.to_anchor`); False if none."""
        return self.anchor_scroll.to_anchor(anchor, self.headings)

    def scroll_to_heading(self, index: int) -> bool:
        """Scroll to the `index`-th heading of the body (the `o` outline's order)."""
        return self.anchor_scroll.to_heading(index)

    @property
    def truncated(self) -> bool:
        """Whether part of the page's body is not on screen yet."""
        return (
            self.shown is not None and self.page is not None and self.end < len(self.page.content)
        )

    def action_cursor(self, step: int) -> None:
        """`n` / `N`: the cursor to the next (`step` 1) or previous (-1) link, foldable
        callout or embed; from what is visible when it is elsewhere (`BodyCursor.move`),
        scrolling to show it."""
        self.focus()
        if self.shown is None or not self.drawn:
            return  # no body drawn by the engine (a failure, or `OKF_EXPLORER_PLAIN=1`)
        body = self.query_one("#page-body", VaultBody)
        height = self.scrollable_content_region.height
        top = round(self.scroll_y) - body.virtual_region.y
        target = self.cursor.move(step, top, top + height)
        if target is None:
            where = "on this page" if not self.cursor.targets() else NOTHING_THERE[step > 0]
            more = " · m draws more" if step > 0 and self.truncated else ""
            if where == "on this page" and (header := len(header_links(self.shown))):
                where, more = "in the body", f" · l lists the header's {header}"
            what = "no link, foldable callout, page embed or wide code block"
            self.notify(f"{what} {where}{more}", timeout=2)
            return
        y = body.virtual_region.y + self.cursor.y(target)
        if not round(self.scroll_y) <= y < round(self.scroll_y) + height:
            # now, not after the next refresh: an `n` pressed meanwhile must find the
            # cursor in view, or it starts again from the top of the old view
            self.scroll_to(y=max(0, y - height // 3), animate=False, immediate=True)

    def action_cursor_enter(self) -> None:
        """`enter`: follow the link the cursor is on (into history, as a click), or
        fold or unfold its callout or embed."""
        target = self.cursor.activate()
        if target is not None and target.kind == "link":
            self.follow(target.href)

    def action_slide(self, step: int) -> None:
        """`right` / `left`: scroll the wide code block the cursor is on sideways."""
        code = self.cursor.code()
        if code is not None:
            code.slide(step)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`enter` is the pane's only while the cursor is on something (else the
        screen's: open the selected page), `left` / `right` while it is on a wide code
        block."""
        if action == "cursor_enter":
            return self.cursor.find() is not None
        if action == "slide":
            return self.cursor.code() is not None
        return True

    def title_again(self) -> None:
        """Head the page with its title as the index names it, now that the index is in
        (`Brain.titled`): the first page is read before it."""
        page = self.header.page
        if page is not None and (titled := self.brain.titled(page)) is not page:
            self.header.show(titled)

    def toggle_line_breaks(self) -> LineBreaks:
        """`L`: a single newline reads the other way from the brain's rule for the rest of
        the session, or by the brain's rule again; the rule now applied (the page is shown
        again by its caller). A wiki hard-wrapped at 80 columns, read in a pane of 71, ran
        ragged under the vault's rule: each line wrapped, then broke (`so its users` /
        `become RHBK users…`); a bundle's lines meant as breaks ran together under
        CommonMark."""
        rule = self.brain.line_breaks()
        if self.breaks_chosen is not None:
            self.breaks_chosen = None
            return rule
        why = CHOSEN_SPACES if rule.hard else CHOSEN_BREAKS
        self.breaks_chosen = LineBreaks(not rule.hard, why)
        return self.breaks_chosen

    def toggle_properties(self) -> None:
        """`p`: show long frontmatter values in full, or folded again."""
        self.header.toggle_properties()
        self.cursor.show_again()

    def show_badge(self, slug: str, line: Text) -> None:
        """Show `line` under `slug`'s header (now, if it is on screen; else when it is)."""
        self.header.show_badge(slug, line)

    @property
    def header_folded(self) -> bool:
        """Whether the folded header cuts a value short (`p` applies)."""
        return self.header.folded

    def on_resize(self) -> None:
        """A pane that became short (or tall again) folds (or unfolds) the header."""
        if self.header.refit():
            self.cursor.show_again()  # on the header's link as shown now
            self.post_message(self.BodyShown())  # whether `p` applies may have changed

    def want_more(self) -> None:
        """`m`: draw the next part of a long page (`PartGrower.want`)."""
        self.parts.want()

    @property
    def more_wanted(self) -> int:
        """`m` presses not yet drawn."""
        return self.parts.wanted

    async def show_more(self, limit: int | None = None) -> bool:
        """Append the next part of a truncated body (`PartGrower.show_more`)."""
        return await self.parts.show_more(limit or RENDER_CHARS)

    def _shown_part(self, body: PreparedBody, final: bool = True) -> None:
        """Take note of a part on screen; `final`: the last one before the pane says
        how much is shown (a first screen still being completed is not)."""
        self.end = body.end
        self.links.extend(body.links)
        self.headings.extend(body.headings)
        self.set_class(body.truncated and final, "truncated")
        if body.truncated and final:
            for line in self.query(".page-more").results(Static):
                line.update(more_line(body.end, body.total, RENDER_CHARS))

    def resize_is_final(self) -> None:
        """The pane's next width comes from a key (`z`), in one step: the body redraws
        for it at once (`VaultBody.resize_is_final`)."""
        self.query_one("#page-body", VaultBody).resize_is_final()

    @property
    def drawn(self) -> bool:
        """Whether the body is drawn by the engine (`VaultBody`; fast paths on), not by
        Textual's `Markdown` widget."""
        return not self.has_class("plain")

    def show_failure(self, slug: str, reason: str) -> None:
        """The page could not be loaded: say why where its body would be."""
        self.slug, self.page, self.shown = slug, None, None
        self.links, self.end = [], 0  # no body: nothing to list (`l`) or grow (`m`)
        header = self.query_one("#page-header", Static)
        header.update(Text.assemble((printable(slug), "bold")))
        header.remove_class("deprecated")
        self.border_subtitle = ""
        self._fail(reason)

    def _plain_markdown(self) -> VaultMarkdown | None:
        """The `Markdown` widget, if a body needed it (fast paths off)."""
        return next(self.query("#page-markdown").results(VaultMarkdown), None)

    async def _markdown_widget(self) -> VaultMarkdown:
        """The `Markdown` widget, mounted under the body the first time."""
        found = self._plain_markdown()
        if found is None:
            found = VaultMarkdown(id="page-markdown")
            await self.mount(found, after="#page-body")
        return found

    def _fail(self, reason: str) -> None:
        self.error = reason
        self.query_one("#page-error", Static).update(Text(f"✗ {printable(reason)}"))
        self.add_class("failed")

    @on(VaultMarkdown.LinkClicked)
    @on(VaultBody.LinkClicked)
    @on(PageHeader.LinkClicked)
    def _link_clicked(
        self, event: VaultMarkdown.LinkClicked | VaultBody.LinkClicked | PageHeader.LinkClicked
    ) -> None:
        event.stop()
        self.follow(event.href)

    def follow(self, href: str) -> None:
        """Post `LinkFollowed` for `href` as a click on it does (the `l` dialog too);
        `[[#Heading]]` scrolls this page; an attachment is only named; a tag posts
        `TagFollowed`."""
        if href.startswith(TAG_SCHEME):
            self.post_message(self.TagFollowed(href[len(TAG_SCHEME) :]))
            return
        target, anchor = target_of_href(href), anchor_of_href(href)
        if href.startswith(FILE_SCHEME):
            self.notify(f"attachment: {printable(href[len(FILE_SCHEME) :])}", markup=False)
        elif target is not None and is_base_name(target):
            self.notify(
                f"base: {printable(target)} (its view is the table drawn here)", markup=False
            )
        elif target is None and anchor is not None and not href.startswith(("http", "mailto")):
            if not self.scroll_to_anchor(anchor):
                self.notify(f"no heading {printable(anchor)} here", markup=False)
        else:
            url = None if target else href
            self.post_message(self.LinkFollowed(target, url, kind_of_href(href), anchor))

    @on(DrawnRows.Redrawn)
    def _redrawn(self, event: DrawnRows.Redrawn) -> None:
        event.stop()
        self.cursor.show_again()

    @on(EmbedView.Wanted)
    def _embed_wanted(self, event: EmbedView.Wanted) -> None:
        event.stop()
        self.embeds.fill(event.block)

    def embeds_again(self) -> None:
        """The index is built: embeds that waited for it look their page up again."""
        self.embeds.again()


# ------------------------------------------------------------------ the pane's helpers


class PartGrower:
    """Draws the next parts of the page `pane` shows, one at a time."""

    def __init__(self, pane: PagePane) -> None:
        self.pane = pane
        self.wanted = 0
        """`m` presses not yet drawn (each draws the next part of a long page)."""
        self._growing = False

    def want(self) -> None:
        """`m`: draw the next part, after those asked for before.

        The worker runs on the pane, which tells the screen when it ends: the screen
        reports a failure and refreshes the footer (`m` greys out on the last part).
        """
        self.wanted += 1
        if self.wanted == 1:
            self.pane.run_worker(self._grow, group="grow", exit_on_error=False)

    async def _grow(self) -> None:
        try:
            while self.wanted > 0 and await self.pane.show_more():
                self.wanted -= 1
        finally:
            self.wanted = 0

    async def show_more(self, limit: int) -> bool:
        """Append the next `limit` characters of a truncated body, after any part still
        being drawn; False if there is none."""
        pane = self.pane
        page = pane.page
        while self._growing and pane.page is page:
            await asyncio.sleep(0.01)
        if not pane.truncated or page is None or pane.page is not page:
            return False
        self._growing = True
        try:
            body = await asyncio.to_thread(pane._prepare, page, pane.end, limit)
            if pane.page is not page or not pane.is_attached:  # another page, or closing
                return False
            try:
                if body.pieces is not None:
                    await pane.query_one("#page-body", VaultBody).append(body.pieces)
                else:  # fast paths off: the Markdown widget shows every part
                    await pane.query_one("#page-markdown", VaultMarkdown).append(body.markdown)
            except NoMatches:  # the pane was taken down meanwhile: the app is closing
                return False
            pane._shown_part(body)
        finally:
            self._growing = False
        return True


class AnchorScroller:
    """Scrolls `pane` (holding a `#page-body` and a `#page-markdown`) to anchors and headings."""

    def __init__(self, pane: PagePane) -> None:
        self.pane = pane
        self.pending: tuple[str, str] | None = None
        """(slug, anchor) to scroll to once that page is shown (a followed link)."""
        self._settling: Timer | None = None

    def expects(self, slug: str) -> bool:
        """Whether an anchor is expected on `slug` (kept for `take_pending`)."""
        return self.pending is not None and self.pending[0] == slug

    def take_pending(self, slug: str) -> str | None:
        """The anchor expected on `slug`, if any; forgotten either way."""
        pending, self.pending = self.pending, None
        return pending[1] if pending is not None and pending[0] == slug else None

    @property
    def _drawn(self) -> bool:
        return not self.pane.has_class("plain")

    def to_anchor(self, anchor: str, headings: list[Heading]) -> bool:
        """Scroll the body to the heading (by its text, as Obsidian matches it) or the
        `^block` `anchor` names; False (nothing moves) when the page has none."""
        body = self.pane.query_one("#page-body", VaultBody)
        if is_block_anchor(anchor):
            if self._drawn:
                return self._scroll_drawn(partial(body.block_y, anchor[1:]))
            block = self.pane.query_one("#page-markdown", VaultMarkdown).block_for(anchor)
            return self._scroll_widget(block)
        page = self.pane.page
        texts = [text for _, text in headings]
        index = heading_named(anchor, texts, page.content if page is not None else "")
        return index is not None and self.to_heading(index)

    def to_heading(self, index: int) -> bool:
        """Scroll to the `index`-th heading of the body (the `o` outline's order)."""
        if self._drawn:
            body = self.pane.query_one("#page-body", VaultBody)
            return self._scroll_drawn(partial(body.heading_y, index))
        headers = list(self.pane.query_one("#page-markdown", VaultMarkdown).headers())
        return self._scroll_widget(headers[index] if 0 <= index < len(headers) else None)

    def _scroll_widget(self, widget: Widget | None) -> bool:
        """Scroll `widget` to the top (again over the next frames: see `_settle_scroll`)."""
        if widget is None:
            return False
        self._settle_scroll(lambda: self.pane.scroll_to_widget(widget, animate=False, top=True))
        return True

    def _scroll_drawn(self, locate: Callable[[], int | None]) -> bool:
        """Scroll to the row `locate` finds in the drawn body."""

        def scroll() -> None:
            y = locate()
            if y is not None:
                body_y = self.pane.query_one("#page-body", VaultBody).virtual_region.y
                self.pane.scroll_to(y=body_y + y, animate=False)

        if locate() is None:
            return False
        self._settle_scroll(scroll)
        return True

    def _settle_scroll(self, scroll: Callable[[], object]) -> None:
        """Run `scroll` now, after the next refresh, and every 50 ms for `SCROLL_SETTLE`
        seconds: blocks mounted just before (tables, embeds) take a few frames to reach
        their height, and a scroll made earlier stops short of its target."""
        if self._settling is not None:
            self._settling.stop()
        scroll()
        self.pane.call_after_refresh(scroll)
        self._settling = self.pane.set_interval(0.05, scroll, repeat=int(SCROLL_SETTLE / 0.05))


class EmbedFiller:
    """Fills the embeds of the page `current()` shown by `pane`."""

    def __init__(self, pane: PagePane, brain: Brain, current: Callable[[], Page | None]) -> None:
        self._pane, self._brain, self._current = pane, brain, current
        self._asked: list[EmbedView] = []
        """The embeds filled (or being filled) for the page shown."""

    def again(self) -> None:
        """The index is built: embeds that waited for it look their page up again."""
        for block in list(self._asked):
            attached = isinstance(block, Widget) and block.is_attached
            if attached and block.text is None and block.note == WAITING_FOR_INDEX:
                self.fill(block)

    def fill(self, block: EmbedView) -> None:
        """Look `block`'s page (or section) up off the loop and show it in the block."""
        page = self._current()
        self._asked = [asked for asked in self._asked if _attached(asked)]
        if block not in self._asked:
            self._asked.append(block)
        block.breaks = self._pane.line_breaks.hard
        block.markup = self._pane.markup
        if block.target is None or page is None:
            block.fill(None, "✗ nothing to embed")
            return

        async def fill() -> None:
            text, note = await asyncio.to_thread(
                embedded_text,
                self._brain,
                page.slug,
                block.target or "",
                block.anchor,
                block.written,
            )
            if self._current() is page and _attached(block):
                block.fill(text, note)

        self._pane.run_worker(fill, group="embeds", exit_on_error=False)


def _attached(block: EmbedView) -> bool:
    return isinstance(block, Widget) and block.is_attached
