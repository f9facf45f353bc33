"""A page written for another notes app, as the Markdown this package draws.

`dialect_markdown` is the one step every drawing of a body takes before its links are
made clickable (`prepare_body`, an embed's preview): a Logseq page's markup as Logseq
shows it (`logseq`), a Dendron note's `{{fm.key}}` as the value of its frontmatter key
(`dendron`), then the links of either written as ours (`core.links.dialects`). A
Markdown page is drawn as it is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from okf_explorer.core.links.dialects import links_text
from okf_explorer.core.pages import Markup
from okf_explorer.tui.markdown.dendron import dendron_markdown
from okf_explorer.tui.markdown.logseq import logseq_markdown

__all__ = ["dialect_markdown"]


def dialect_markdown(
    text: str,
    markup: Markup,
    blocks: Mapping[str, str] | None = None,
    fields: Mapping[str, Any] | None = None,
) -> str:
    """`text`, written in `markup`, as the Markdown drawn for it (see the module doc).
    `blocks`: the text of the Logseq blocks it references, by id; `fields`: the note's
    frontmatter, for Dendron's variables."""
    if markup == "logseq":
        text = logseq_markdown(text, blocks)
    elif markup == "dendron":
        text = dendron_markdown(text, fields or {})
    return links_text(markup, text)
