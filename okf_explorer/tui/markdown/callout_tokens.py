"""The tokens that open a callout, as everything that draws, folds or walks one reads them,
and its body read from lines of its own (`tokenize_body`, `push_paragraph`).

A callout is a `blockquote_open` with `meta["callout"]` (its kind) and `meta["fold"]`
(`-` folded, `+` open, `` not foldable), then its title as a paragraph whose
`paragraph_open` has `meta["callout_title"]` and `meta["callout_fold"]`, then its body,
then `blockquote_close` (`parser`'s module doc). Obsidian's `> [!tip]-` is read into this
shape in place; what other syntaxes write (an HTML disclosure, a documentation site's
admonition, a Hugo note) is given these opening tokens by `callout_head`.
"""

from __future__ import annotations

from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

__all__ = ["callout_head", "push_paragraph", "tokenize_body"]


def callout_head(
    kind: str, fold: str, title: str, level: int, where: list[int] | None
) -> list[Token]:
    """A callout's opening tokens: its quote (at `level`, from the lines `where`) and its
    title paragraph reading `title` (inline Markdown, parsed with the page)."""
    quote = Token("blockquote_open", "blockquote", 1, map=where, level=level, markup=">")
    quote.meta = {"callout": kind, "fold": fold}
    title_open = Token("paragraph_open", "p", 1, map=where, level=level + 1)
    title_open.meta = {"callout_title": kind, "callout_fold": fold}
    inline = Token("inline", "", 0, content=title, map=where, level=level + 2)
    inline.children = []
    title_close = Token("paragraph_close", "p", -1, level=level + 1)
    return [quote, title_open, inline, title_close]


def tokenize_body(state: StateBlock, first: int, last: int, indent: int) -> None:
    """Read lines `first` to `last` (not included) as a callout's body: Markdown blocks
    from `indent` columns on (so a body indented under its head is no code block)."""
    old_indent, old_max, old_parent = state.blkIndent, state.lineMax, state.parentType
    state.blkIndent, state.lineMax, state.parentType = indent, last, "admonition"
    state.md.block.tokenize(state, first, last)
    state.blkIndent, state.lineMax, state.parentType = old_indent, old_max, old_parent


def push_paragraph(state: StateBlock, text: str, line: int) -> None:
    """A paragraph of `text` (inline Markdown, parsed with the page) from line `line`."""
    opening = state.push("paragraph_open", "p", 1)
    opening.map = [line, line + 1]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = text, [line, line + 1], []
    state.push("paragraph_close", "p", -1)
