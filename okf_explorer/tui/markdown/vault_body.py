"""Textual's `Markdown` widget reading vault Markdown (`vault_markdown.vault_parser`).

`VaultMarkdown` swaps in block classes that draw inline text with our converter
(`vault_inline`: highlights, tags, footnote numbers, task boxes, embeds), callouts
(`CalloutQuote`: the type's glyph and tone, folded ones open on a click), and page
embeds (`EmbedBlock`: a collapsed preview the page pane fills in; a click unfolds it).
It finds headings and block ids for `[[Page#Heading]]` links (`block_for`).
"""

from __future__ import annotations

from typing import ClassVar

from markdown_it.token import Token
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Label, Markdown
from textual.widgets._markdown import (
    MarkdownBlock,
    MarkdownBlockQuote,
    MarkdownBullet,
    MarkdownH1,
    MarkdownH2,
    MarkdownH3,
    MarkdownH4,
    MarkdownH5,
    MarkdownH6,
    MarkdownHeader,
    MarkdownParagraph,
    MarkdownTableCellContents,
    MarkdownTableContent,
    MarkdownTD,
    MarkdownTH,
)

from okf_explorer.core import fast_paths
from okf_explorer.tui.markdown.anchors import heading_key, is_block_anchor
from okf_explorer.tui.markdown.embed_preview import embed_lines
from okf_explorer.tui.markdown.fast_list import (
    VaultBulletList,
    VaultOrderedList,
    block_ids,
    own_components_only,
)
from okf_explorer.tui.markdown.fast_table import VaultTable
from okf_explorer.tui.markdown.hanging import HangingContent
from okf_explorer.tui.markdown.inline import (
    WIDGET_STYLES,
    callout_title,
    callout_tone,
    inline_content,
)
from okf_explorer.tui.markdown.links import anchor_of_href, target_of_href
from okf_explorer.tui.markdown.parser import vault_parser

EMBED_PREVIEW_LINES = 3
"""Lines of an embedded page shown while its embed is collapsed."""
EMBED_OPEN_LINES = 40
"""Lines of an embedded page shown once its embed is unfolded (the rest: follow it)."""


NO_COMPONENTS = own_components_only
"""How a block that styles no part of its text itself is declared: Textual gives
each component class of each widget mounted a styles object of its own (a CSS match
per class per block: 102 of the 144 style matches of a typical first screen), while
our blocks' inline styles
(`.em`, `.strong`, `.s`, `.code_inline`) are the same everywhere in a body: they are
found on the `VaultMarkdown` the blocks are in (Textual looks a `.name` style up the
widget's ancestors), styled once a body."""


def _quiet(base: type[MarkdownBlock]) -> type[MarkdownBlock]:
    """`base` without component classes of its own (`NO_COMPONENTS`)."""
    return NO_COMPONENTS(type(f"Vault{base.__name__}", (base,), {}))


def _preset_classes(block: MarkdownBlock, *names: str) -> None:
    """Classes for a block not mounted yet: `add_class` would restyle the whole app
    for each (it cost ~14 ms a callout, more than drawing the page)."""
    if block.is_mounted:
        block.add_class(*names)
    else:
        block._classes.update(names)


class _VaultInline:
    """Inline text through `vault_inline`; a callout's title line gets its glyph.

    A plain mixin, put first: Textual inherits CSS along the first widget base only,
    so the block keeps its Textual class's look (`VaultParagraph` is a paragraph).
    """

    _token: Token
    title_text: Content = Content("")

    def _token_to_content(self, token: Token) -> Content:
        content = inline_content(token, WIDGET_STYLES)
        kind = self._token.meta.get("callout_title")
        if kind:
            _preset_classes(self, "callout-title")  # type: ignore[arg-type]
            self.title_text = content
            fold = str(self._token.meta.get("callout_fold", ""))
            return callout_title(kind, content, fold, folded=fold == "-")
        return content


@NO_COMPONENTS
class VaultParagraph(_VaultInline, MarkdownParagraph):
    pass


@NO_COMPONENTS
class VaultTH(_VaultInline, MarkdownTH):
    pass


@NO_COMPONENTS
class VaultTD(_VaultInline, MarkdownTD):
    pass


def _heading(base: type[MarkdownHeader]) -> type[MarkdownHeader]:
    return NO_COMPONENTS(type(f"Vault{base.__name__}", (_VaultInline, base), {}))


@NO_COMPONENTS
class CalloutQuote(MarkdownBlockQuote):
    """A quote; a callout (`> [!tip]- Title`) is drawn in its type's tone, and a
    foldable one (`-` folded, `+` open) folds and unfolds on a click.

    A quote of paragraphs only (most quotes and callouts) draws them itself, one
    under the other as Textual's paragraph widgets would, instead of mounting them:
    a widget a paragraph was half the cost of a callout on a page's first screen
    (a fast path: off under `OKF_EXPLORER_PLAIN=1`; tested against the library's
    widgets in `tests/tui/test_first_draw.py`)."""

    DEFAULT_CSS = """
    CalloutQuote.callout { border-left: outer #61afef; padding: 0 1; }
    CalloutQuote.callout-good { border-left: outer #98c379; }
    CalloutQuote.callout-warn { border-left: outer #e5c07b; }
    CalloutQuote.callout-bad { border-left: outer #e06c75; }
    CalloutQuote.-folded > * { display: none; }
    CalloutQuote.-folded > .callout-title { display: block; }
    CalloutQuote.callout > .callout-title { margin: 0; }
    """

    def __init__(self, markdown: Markdown, token: Token, *args: object, **kwargs: object) -> None:
        super().__init__(markdown, token, *args, **kwargs)  # type: ignore[arg-type]
        self.kind = str(token.meta.get("callout", ""))
        self.fold = str(token.meta.get("fold", ""))
        self.paragraphs: list[MarkdownParagraph] = []
        """The paragraphs this quote draws itself (none: its blocks are mounted)."""
        self.block_ids: frozenset[str] = frozenset()
        """Block ids (`^id`) of `paragraphs`, which `VaultMarkdown.block_for` finds here."""
        if self.kind:
            _preset_classes(self, "callout", f"callout-{callout_tone(self.kind)}")
        if self.fold == "-":
            _preset_classes(self, "-folded")

    def compose(self) -> ComposeResult:
        simple = self._blocks and all(isinstance(b, MarkdownParagraph) for b in self._blocks)
        if not (simple and fast_paths.enabled()):
            yield from super().compose()
            return
        self.paragraphs = list(self._blocks)
        self.block_ids = frozenset(block_ids(self))
        self._blocks.clear()
        self._draw()

    def _draw(self) -> None:
        """Draw `paragraphs` (a folded callout: its title only)."""
        self._content = Content("\n").join(p._content for p in self.paragraphs)
        shown = self.paragraphs[:1] if self.folded else self.paragraphs
        self.update(Content("\n").join(p._content for p in shown))

    @property
    def folded(self) -> bool:
        return self.has_class("-folded")

    def toggle_fold(self) -> None:
        """Fold or unfold a foldable callout (its title's `▸`/`▾` follows)."""
        if not self.fold:
            return
        self.toggle_class("-folded")
        titles = [p for p in self.paragraphs if p.has_class("callout-title")]
        for title in [*titles, *self.query_children(".callout-title").results(VaultParagraph)]:
            content = callout_title(self.kind, title.title_text, self.fold, self.folded)
            if title.is_mounted:
                title.set_content(content)
            else:
                title._content = content
        if self.paragraphs:
            self._draw()

    def on_click(self, event: events.Click) -> None:
        if self.fold:
            event.stop()
            self.toggle_fold()


@NO_COMPONENTS
class EmbedBlock(MarkdownBlock):
    """`![[page#section]]` alone on a line: the page's name, then a few lines of it
    (filled in by the page pane: `Wanted`); a click unfolds more, or folds it again."""

    DEFAULT_CSS = """
    EmbedBlock {
        border-left: outer $secondary; padding: 0 1; margin: 0 0 1 0; color: $text-muted;
    }
    """

    class Wanted(Message):
        """An embed is on screen and waits for its page (`target`, section `anchor`)."""

        def __init__(self, block: EmbedBlock) -> None:
            super().__init__()
            self.block = block

    def __init__(self, markdown: Markdown, token: Token) -> None:
        super().__init__(markdown, token)
        self.href = str(token.meta.get("href", ""))
        self.label = str(token.meta.get("label", "")) or self.href
        self.target = target_of_href(self.href)
        self.anchor = anchor_of_href(self.href)
        self.text: str | None = None
        self.note = "loading…"
        self.open = False

    def on_mount(self) -> None:
        self.show()
        # asked for once the page is drawn: reading it must not delay the first screen
        self.call_after_refresh(self.post_message, self.Wanted(self))

    def fill(self, text: str | None, note: str = "") -> None:
        """The embedded text (or None, and `note` says why there is none)."""
        self.text, self.note = text, note
        self.show()

    def show(self) -> None:
        head = Content.assemble(("↳ ", "bold"), (self.label, "bold underline"))
        lines = embed_lines(self.text or "", blank_lines=self.open)
        limit = EMBED_OPEN_LINES if self.open else EMBED_PREVIEW_LINES
        body = Content("\n").join(lines[:limit])
        if self.text is None:
            hint = self.note
        elif len(lines) > limit:
            hint = "▸ click to unfold" if not self.open else "… follow the link for the rest"
        else:
            hint = "▾ click to fold" if self.open else ""
        parts = [head, body] if lines else [head]
        if hint:
            parts.append(Content.styled(hint, "italic"))
        self.update(HangingContent.of(Content("\n").join(parts)))  # a quote keeps its bar

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if event.y == 0:  # the name line follows the link
            self.post_message(Markdown.LinkClicked(self._markdown, self.href))
            return
        self.open = not self.open
        self.show()


class VaultMarkdown(Markdown):
    """`Markdown` with the vault parser and block classes; the blocks' inline styles
    are its component classes (`NO_COMPONENTS`), as Textual's `Markdown` CSS styles them."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"em", "strong", "s", "code_inline"}
    DEFAULT_CSS = """
    VaultMarkdown {
        &:ansi > .code_inline { background: ansi_default !important; }
        &:dark > .code_inline { background: $warning 10%; color: $text-warning 95%; }
        &:light > .code_inline { background: $error 5%; color: $text-error 95%; }
        & > .em { text-style: italic; }
        & > .strong { text-style: bold; }
        & > .s { text-style: strike; }
    }
    """

    BLOCKS: ClassVar[dict[str, type[MarkdownBlock]]] = {
        **{name: _quiet(block) for name, block in Markdown.BLOCKS.items()},
        "h1": _heading(MarkdownH1),
        "h2": _heading(MarkdownH2),
        "h3": _heading(MarkdownH3),
        "h4": _heading(MarkdownH4),
        "h5": _heading(MarkdownH5),
        "h6": _heading(MarkdownH6),
        "paragraph_open": VaultParagraph,
        "blockquote_open": CalloutQuote,
        "bullet_list_open": VaultBulletList,
        "ordered_list_open": VaultOrderedList,
        "table_open": VaultTable,
        "th_open": VaultTH,
        "td_open": VaultTD,
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, parser_factory=vault_parser, open_links=False)

    def on_mount(self) -> None:
        """Add the CSS of every widget class a body mounts now, in one go. Textual adds
        a class's CSS when its first widget mounts and parses the stylesheet again
        each time: five times while the first page's first screen was drawn."""
        stylesheet = self.app.stylesheet
        for widget_class in BODY_WIDGETS:
            # the class's CSS, read as `Widget._post_register` reads it
            for source, css, tie_breaker, scope in object.__new__(widget_class)._get_default_css():
                stylesheet.add_source(
                    css, read_from=source, is_default_css=True, tie_breaker=tie_breaker, scope=scope
                )

    def unhandled_token(self, token: Token) -> MarkdownBlock | None:
        if token.type == "vault_embed":
            return EmbedBlock(self, token)
        return None

    def headers(self) -> list[MarkdownHeader]:
        """Every heading block in the order of the body (in quotes and lists too)."""
        return list(self.query(MarkdownHeader))

    def block_for(self, anchor: str) -> MarkdownBlock | None:
        """The heading (by its text) or block (`^id`) `anchor` names, first in order."""
        if is_block_anchor(anchor):
            wanted = anchor[1:]
            for block in self.query(MarkdownBlock):
                if block._token.meta.get("block_id") == wanted:
                    return block
                if wanted in getattr(block, "block_ids", ()):  # in a list or quote drawn as one
                    return block
            return None
        key = heading_key(anchor)
        for header in self.query(MarkdownHeader):
            if heading_key(header._content.plain) == key:
                return header
        return None


BODY_WIDGETS: tuple[type[Widget], ...] = (
    *VaultMarkdown.BLOCKS.values(),
    EmbedBlock,
    MarkdownTableContent,
    MarkdownTableCellContents,
    MarkdownBullet,
    Horizontal,
    Vertical,
    Label,
)
"""The widget classes a body may mount (their CSS is added when the body is)."""
