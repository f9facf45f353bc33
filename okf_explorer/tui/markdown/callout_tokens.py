"""The tokens that open a callout, as everything that draws, folds or walks one reads them.

A callout is a `blockquote_open` with `meta["callout"]` (its kind) and `meta["fold"]`
(`-` folded, `+` open, `` not foldable), then its title as a paragraph whose
`paragraph_open` has `meta["callout_title"]` and `meta["callout_fold"]`, then its body,
then `blockquote_close` (`parser`'s module doc). Obsidian's `> [!tip]-` is read into this
shape in place; what other syntaxes write (an HTML disclosure, a documentation site's
admonition, a Hugo note) is given these opening tokens by `callout_head`.
"""

from __future__ import annotations

from markdown_it.token import Token

__all__ = ["callout_head"]


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
