"""A Mermaid flowchart or sequence diagram in a ```` ```mermaid ```` block shown drawn,
as Obsidian shows it: boxes and arrows in text (`core.diagrams`), not its source.

The drawing is the block's text, in a box as any code block's, its lines kept whole side
by side (`DRAWN_AS` "grid"): one wider than the body scrolls sideways; where it cannot
(in a callout, a list), it is cut where no box or text stands (`OPEN_COLUMNS`). A
flowchart's groups (`subgraph`) follow it, a line each, in a paragraph. A block this does
not draw whole (another kind of diagram, a statement it does not read) stays as written,
a `mermaid` code block.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from okf_explorer.core.diagrams import drawing

__all__ = ["DRAWN_AS", "OPEN_COLUMNS", "use_diagrams"]

DRAWN_AS = "drawn_as"
"""The `meta` key of a fence whose text the explorer drew (a formula's, a diagram's):
`"rows"`, `draw` wraps its long lines instead of cutting them; `"grid"`, its lines stay
whole, side by side (cut all at the same columns where they must be), and one too wide
for the body scrolls sideways as a wide fence does."""
OPEN_COLUMNS = "open_columns"
"""The `meta` key of a drawn diagram's columns that only its links cross."""
DIAGRAM_LANGUAGE = "mermaid"
DRAWING_LANGUAGE = "text"
"""The language a drawn diagram's fence is given: no colours but the box's."""


def use_diagrams(md: MarkdownIt) -> None:
    """Draw `md`'s Mermaid diagrams (the module doc)."""
    md.core.ruler.push("mermaid_diagrams", _diagrams)


def _diagrams(state: StateCore) -> None:
    tokens = state.tokens
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.type != "fence" or token.info.split(maxsplit=1)[:1] != [DIAGRAM_LANGUAGE]:
            continue
        drawn = drawing(token.content)
        if drawn is None:
            continue
        token.info = DRAWING_LANGUAGE
        token.content = "\n".join(drawn.lines) + "\n"
        token.meta = {**token.meta, DRAWN_AS: "grid", OPEN_COLUMNS: drawn.open_columns}
        if drawn.notes:
            tokens[index:index] = notes = _paragraph(drawn.notes, token)
            index += len(notes)


def _paragraph(lines: tuple[str, ...], fence: Token) -> list[Token]:
    """`lines` as a paragraph after `fence`, a line break between them, read as text."""
    children: list[Token] = []
    for line in lines:
        if children:
            children.append(Token("hardbreak", "br", 0))
        children.append(Token("text", "", 0, content=line))
    inline = Token("inline", "", 0, content="\n".join(lines), children=children, map=fence.map)
    opening = Token("paragraph_open", "p", 1, map=fence.map, level=fence.level)
    closing = Token("paragraph_close", "p", -1, level=fence.level)
    inline.level = fence.level + 1
    return [opening, inline, closing]
