"""A page written for another notes app, its links read as ours.

A folder's pages are Markdown with Obsidian's links (`markdown`) unless the folder is a
Logseq graph, a Dendron workspace or a SilverBullet space (`core.pages.Markup`, which
the source states). Their links differ in how they are written, not in what they are: a
Logseq `#tag` is the link `[[tag]]` (`tags`), a Dendron `[[label|note]]` is
`[[note|label]]` (`dendron`), SilverBullet's `[[^page@12]]` is `[[page]]` and the
`[[…]]` of its Lua expressions no link (`silverbullet`).
`links_text` writes a page's text with its links as ours, for every reader of links
(the index's grammar, the sentence around a link, the explorer's drawing), and
`as_written` turns a piece of that text (a link's context) back as the page writes it.
The page's own text is never changed.
"""

from __future__ import annotations

from okf_explorer.core.links.dendron import dendron_as_written, dendron_links
from okf_explorer.core.links.silverbullet import silverbullet_as_written, silverbullet_links
from okf_explorer.core.links.tags import tags_as_links, tags_as_written
from okf_explorer.core.pages import Markup

__all__ = ["as_written", "links_text"]


def links_text(markup: Markup, text: str) -> str:
    """`text`, a page of a brain written in `markup`, with its links written as ours."""
    if markup == "logseq":
        return tags_as_links(text)
    if markup == "dendron":
        return dendron_links(text)
    if markup == "silverbullet":
        return silverbullet_links(text)
    return text


def as_written(markup: Markup, text: str) -> str:
    """A piece of `links_text`'s text as the page writes it."""
    if markup == "logseq":
        return tags_as_written(text)
    if markup == "dendron":
        return dendron_as_written(text)
    if markup == "silverbullet":
        return silverbullet_as_written(text)
    return text
