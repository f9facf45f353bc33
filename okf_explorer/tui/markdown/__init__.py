"""The vault Markdown engine: what a page body reads as, and the widgets that show it.

The rest of the TUI imports it from here (see README.md in this folder): `prepare_body`
(in a thread) makes a body ready, `VaultBody` shows it as the engine draws it, or
`VaultMarkdown` (Textual's `Markdown` widget) under `OKF_EXPLORER_PLAIN=1`; the link
helpers read the hrefs a click or the `l` dialog gives.
"""

from okf_explorer.tui.markdown.body import (
    CURSOR_STYLE,
    DrawnRows,
    EmbedBlock,
    EmbedView,
    VaultBody,
    WideFence,
    row_strip,
)
from okf_explorer.tui.markdown.cursor import NOTHING_THERE, BodyCursor, Target
from okf_explorer.tui.markdown.dialects import dialect_fields
from okf_explorer.tui.markdown.draw import Row, wrapped
from okf_explorer.tui.markdown.hanging import HangingContent
from okf_explorer.tui.markdown.links import (
    FILE_SCHEME,
    LINK_SCHEME,
    TAG_SCHEME,
    WAITING_FOR_INDEX,
    anchor_into,
    anchor_of_href,
    embedded_text,
    heading_in_path,
    heading_named,
    is_block_anchor,
    kind_of_href,
    linkify_body,
    section_of,
    span_link,
    target_of_href,
)
from okf_explorer.tui.markdown.logseq import block_refs
from okf_explorer.tui.markdown.plain import CalloutQuote, MarkdownEmbed, VaultMarkdown
from okf_explorer.tui.markdown.prepare import (
    LONG_CHARS,
    RENDER_CHARS,
    Heading,
    PreparedBodies,
    PreparedBody,
    more_line,
    prepare_body,
)

__all__ = [
    "CURSOR_STYLE",
    "FILE_SCHEME",
    "LINK_SCHEME",
    "LONG_CHARS",
    "NOTHING_THERE",
    "RENDER_CHARS",
    "TAG_SCHEME",
    "WAITING_FOR_INDEX",
    "BodyCursor",
    "CalloutQuote",
    "DrawnRows",
    "EmbedBlock",
    "EmbedView",
    "HangingContent",
    "Heading",
    "MarkdownEmbed",
    "PreparedBodies",
    "PreparedBody",
    "Row",
    "Target",
    "VaultBody",
    "VaultMarkdown",
    "WideFence",
    "anchor_into",
    "anchor_of_href",
    "block_refs",
    "dialect_fields",
    "embedded_text",
    "heading_in_path",
    "heading_named",
    "is_block_anchor",
    "kind_of_href",
    "linkify_body",
    "more_line",
    "prepare_body",
    "row_strip",
    "section_of",
    "span_link",
    "target_of_href",
    "wrapped",
]
