"""`VaultMarkdown`: Textual's `Markdown` widget reading vault Markdown, the library path.

Under `OKF_EXPLORER_PLAIN=1` the page pane shows bodies in Textual's own `Markdown`
widget instead of the engine's `VaultBody`: the library builds its block widgets
(`Markdown.BLOCKS`, the public table of them) from the same vault parser, and the
classes here only add what vault Markdown needs, through the blocks' public methods
(`build_from_token`, `set_content`): inline text through the engine's converter
(highlights, tags, footnote numbers, task boxes, embeds inside a line), callouts
(`CalloutQuote`: the type's glyph and tone, folded ones open on a click), page
embeds (`MarkdownEmbed`: the same preview as the engine's `EmbedBlock`), and where
headings and block ids are for `[[Page#Heading]]` links (`block_for`). It is also
what `tests/tui/test_one_look.py` compares the engine's drawing with.
"""

from __future__ import annotations

from typing import Any, ClassVar

from markdown_it.token import Token
from textual import events
from textual.content import Content
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownBlock

from okf_explorer.tui.markdown.body import EMBED_CSS, EmbedView
from okf_explorer.tui.markdown.draw import STYLE_NAMES, STYLES_CSS
from okf_explorer.tui.markdown.inline import (
    TONE_COLORS,
    WIDGET_STYLES,
    callout_title,
    callout_tone,
    inline_content,
)
from okf_explorer.tui.markdown.links import heading_in_path, is_block_anchor
from okf_explorer.tui.markdown.parser import vault_parser


class _Anchored:
    """A block that knows its block id (`^id`), as the parser marks its open token.

    A plain mixin, put first: Textual inherits CSS along the first widget base only,
    so the block keeps its Textual class's look."""

    block_id: str | None = None

    def __init__(self, markdown: Markdown, token: Token, *args: Any, **kwargs: Any) -> None:
        self.block_id = str(token.meta["block_id"]) if token.meta.get("block_id") else None
        self.meta = dict(token.meta)
        super().__init__(markdown, token, *args, **kwargs)  # type: ignore[call-arg]


class _VaultInline(_Anchored):
    """Inline text through the engine's converter; a callout's title line gets its glyph."""

    text: Content = Content("")
    """The text as the page wrote it (a callout title: without its glyph)."""

    def build_from_token(self, token: Token) -> None:
        content = self.text = inline_content(token, WIDGET_STYLES)
        kind = self.meta.get("callout_title")
        if kind:
            self.add_class("callout-title", update=self.is_mounted)  # type: ignore[attr-defined]
            fold = str(self.meta.get("callout_fold", ""))
            content = callout_title(str(kind), content, fold, folded=fold == "-")
        self.set_content(content)  # type: ignore[attr-defined]


class _Heading(_VaultInline):
    """A heading block (any level)."""


def _vault(name: str, base: type[MarkdownBlock]) -> type[MarkdownBlock]:
    """Textual's block class for `name` with our additions."""
    if name in ("h1", "h2", "h3", "h4", "h5", "h6"):
        mixin: type = _Heading
    elif name in ("paragraph_open", "th_open", "td_open"):
        mixin = _VaultInline
    else:
        mixin = _Anchored
    return type(f"Vault{base.__name__}", (mixin, base), {})


class CalloutQuote(_Anchored, Markdown.BLOCKS["blockquote_open"]):  # type: ignore[misc]
    """A quote; a callout (`> [!tip]- Title`) is drawn in its type's tone, and a
    foldable one (`-` folded, `+` open) folds and unfolds on a click."""

    DEFAULT_CSS = "\n".join(
        [
            "CalloutQuote.callout { padding: 0 1; }",
            *(
                f"CalloutQuote.callout-{tone} {{ border-left: outer {color}; }}"
                for tone, color in TONE_COLORS.items()
            ),
            "CalloutQuote.-folded > * { display: none; }",
            "CalloutQuote.-folded > .callout-title { display: block; }",
            "CalloutQuote.callout > .callout-title { margin: 0; }",
        ]
    )

    def __init__(self, markdown: Markdown, token: Token) -> None:
        super().__init__(markdown, token)
        self.kind = str(token.meta.get("callout", ""))
        self.fold = str(token.meta.get("fold", ""))
        if self.kind:  # classes set before the block is mounted restyle nothing
            self.add_class("callout", f"callout-{callout_tone(self.kind)}", update=False)
        if self.fold == "-":
            self.add_class("-folded", update=False)

    @property
    def folded(self) -> bool:
        return self.has_class("-folded")

    def toggle_fold(self) -> None:
        """Fold or unfold a foldable callout (its title's `▸`/`▾` follows)."""
        if not self.fold:
            return
        self.toggle_class("-folded")
        for title in self.query_children(".callout-title").results(_VaultInline):
            title.set_content(callout_title(self.kind, title.text, self.fold, self.folded))  # type: ignore[attr-defined]

    def on_click(self, event: events.Click) -> None:
        if self.fold:
            event.stop()
            self.toggle_fold()


class MarkdownEmbed(EmbedView, MarkdownBlock):
    """An embed in a `VaultMarkdown` (the same preview as `VaultBody`'s `EmbedBlock`)."""

    DEFAULT_CSS = EMBED_CSS.format(name="MarkdownEmbed")

    def __init__(self, markdown: Markdown, token: Token) -> None:
        super().__init__(markdown, token)
        self.document = markdown
        href = str(token.meta.get("href", ""))
        written = token.meta.get("written")
        self.setup(href, str(token.meta.get("label", "")), written)

    def follow_embed(self) -> None:
        self.post_message(Markdown.LinkClicked(self.document, self.href))


class VaultMarkdown(Markdown):
    """`Markdown` with the vault parser and block classes; the body's style names
    (`STYLE_NAMES`, which an embed's preview rows use) are its component classes."""

    COMPONENT_CLASSES: ClassVar[set[str]] = set(STYLE_NAMES)
    DEFAULT_CSS = f"""
    VaultMarkdown {{ {STYLES_CSS} }}
    VaultMarkdown MarkdownList > Horizontal > Vertical > MarkdownHeader:first-child,
    VaultMarkdown MarkdownList > Horizontal > Vertical > MarkdownBlockQuote:first-child,
    VaultMarkdown MarkdownList > Horizontal > Vertical > MarkdownFence:first-child {{
        margin: 0 0 1 0;
    }}
    VaultMarkdown MarkdownBlockQuote > MarkdownBulletList:last-child,
    VaultMarkdown MarkdownBlockQuote > MarkdownOrderedList:last-child,
    VaultMarkdown MarkdownBlockQuote > MarkdownTable:last-child,
    VaultMarkdown MarkdownBlockQuote > MarkdownHorizontalRule:last-child {{
        margin: 0;
    }}
    VaultMarkdown > MarkdownFence {{ overflow-x: auto; scrollbar-size-horizontal: 1; }}
    VaultMarkdown MarkdownH3 {{ max-width: 100%; }}
    VaultMarkdown MarkdownTableContent > .cell,
    VaultMarkdown MarkdownTableContent > .header {{ text-overflow: fold; }}
    VaultMarkdown MarkdownBlockQuote > MarkdownFence:last-child,
    VaultMarkdown MarkdownBlockQuote > MarkdownBlockQuote:last-child {{
        margin: 1 0 0 0;
    }}
    """
    """The theme's styles; a fence wider than the body shows its scrollbar, which says
    it scrolls sideways (as the engine's `WideFence`), an H3 wraps, a word longer than
    its table column folds (as the engine draws them); a list item's first block (a
    heading, a quote, a fence: the blocks with a margin above) starts on its bullet's
    row (`draw._Pen.list` draws it so). The whole margin is set: a rule for its top
    alone zeroes the rest."""

    BLOCKS: ClassVar[dict[str, type[MarkdownBlock]]] = {
        **{name: _vault(name, block) for name, block in Markdown.BLOCKS.items()},
        "blockquote_open": CalloutQuote,
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, parser_factory=lambda: vault_parser(self.breaks), open_links=False)
        self.breaks = False
        """Whether a single newline in a paragraph is a line break (the brain's rule)."""

    def unhandled_token(self, token: Token) -> MarkdownBlock | None:
        if token.type == "vault_embed":
            return MarkdownEmbed(self, token)
        return None

    def headers(self) -> list[MarkdownBlock]:
        """Every heading block in the order of the body (in quotes and lists too)."""
        return [block for block in self.query(MarkdownBlock) if isinstance(block, _Heading)]

    def block_for(self, anchor: str) -> MarkdownBlock | None:
        """The heading (by its text, or its path: `Setup#Linux`) or block (`^id`) `anchor`
        names, first in order."""
        if is_block_anchor(anchor):
            wanted = anchor[1:]
            for block in self.query(MarkdownBlock):
                if isinstance(block, _Anchored) and block.block_id == wanted:
                    return block
            return None
        headers = self.headers()
        index = heading_in_path(anchor, [header.text.plain for header in headers])
        return headers[index] if index is not None else None
