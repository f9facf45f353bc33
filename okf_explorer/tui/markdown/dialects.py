"""A page written for another notes app, as the Markdown this package draws.

`dialect_markdown` is the one step every drawing of a body takes before its links are
made clickable (`prepare_body`, an embed's preview): a Logseq page's markup as Logseq
shows it (`logseq`, the graph's own macros filled in), a Dendron note's `{{fm.key}}` as
the value of its frontmatter key (`dendron`), a SilverBullet page's Lua expressions as
code or math (`silverbullet`), then the links of each written as ours
(`core.links.dialects`). A Markdown page is drawn as it is written, but for Dataview's
queries of its own fields (`` `=this.name` `` as the value, `core.dataview`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from okf_explorer.core.dataview import QUERY_MARK, inline_queries, page_fields
from okf_explorer.core.links.dialects import links_text
from okf_explorer.core.pages import Markup
from okf_explorer.tui.markdown.dendron import dendron_markdown
from okf_explorer.tui.markdown.logseq import logseq_markdown
from okf_explorer.tui.markdown.silverbullet import silverbullet_markdown

__all__ = ["dialect_fields", "dialect_markdown", "fields_filled"]


def dialect_markdown(
    text: str,
    markup: Markup,
    blocks: Mapping[str, str] | None = None,
    fields: Mapping[str, Any] | None = None,
    slug: str = "",
    macros: Mapping[str, str] | None = None,
) -> str:
    """`text`, written in `markup`, as the Markdown drawn for it (see the module doc).
    `blocks`: the text of the Logseq blocks it references, by id; `fields`: the fields
    the text of page `slug` refers to (`dialect_fields`), filled in (`fields_filled`);
    `macros`: a Logseq graph's own macros (`Brain.macros`)."""
    if markup == "logseq":
        text = logseq_markdown(text, blocks, macros)
    elif markup == "silverbullet":
        text = silverbullet_markdown(text)
    elif fields is not None:
        text = fields_filled(text, markup, fields, slug)
    return links_text(markup, text)


def fields_filled(text: str, markup: Markup, fields: Mapping[str, Any], slug: str) -> str:
    """`text` of page `slug` with its `fields` (`dialect_fields`) where it refers to them:
    a Dendron note's `{{fm.key}}`, a Markdown page's Dataview queries of its own fields."""
    if markup == "dendron":
        return dendron_markdown(text, fields)
    if markup == "markdown":
        return inline_queries(text, fields, slug)
    return text


def dialect_fields(
    frontmatter: Mapping[str, Any], body: str, markup: Markup
) -> Mapping[str, Any] | None:
    """The fields a page's text refers to, for `dialect_markdown`: a Dendron note's
    frontmatter; the fields Dataview reads on a Markdown page that holds a query; else
    None (nothing to fill in)."""
    if markup == "dendron":
        return frontmatter
    if markup == "markdown" and QUERY_MARK in body:
        return page_fields(frontmatter, body)
    return None
