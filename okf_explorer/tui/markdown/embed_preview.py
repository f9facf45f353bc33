"""What an embed (`![[page]]`, `![[page#heading]]`) shows of its page: the section
rendered as Markdown, line by line, as the light renderer draws a body (headings
bold, emphasis, links live, lists with their markers, tables aligned, block ids
hidden), not its raw text.
"""

from __future__ import annotations

from textual.content import Content

from okf_explorer.tui.markdown.fast_render import render_tokens
from okf_explorer.tui.markdown.links import linkify_body
from okf_explorer.tui.markdown.parser import parse

EMBED_CHARS = 20_000
"""Characters of the embedded section rendered at most (a whole big page embedded
shows its start; the link leads to the rest)."""


def embed_lines(text: str, *, blank_lines: bool = False, width: int = 80) -> list[Content]:
    """The rendered lines of an embedded section `text`; blank lines between blocks
    only when `blank_lines` (a folded preview shows its first lines of text)."""
    cut = text[:EMBED_CHARS]
    if len(text) > EMBED_CHARS:  # at a line break, so no block is cut in half
        cut = cut[: max(cut.rfind("\n"), 0) or len(cut)]
    rendered = render_tokens(parse(linkify_body(cut)), width)
    lines: list[Content] = []
    for piece in rendered.pieces:
        for line in [*piece.content.split("\n", allow_blank=True), Content("")]:
            if line.plain.strip():
                lines.append(line)
            elif blank_lines and lines and lines[-1].plain.strip():
                lines.append(Content(""))
    while lines and not lines[-1].plain.strip():
        lines.pop()
    return lines
