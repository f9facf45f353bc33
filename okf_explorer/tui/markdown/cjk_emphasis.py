"""Where `**`, `*`, `_` and `~~` open and close beside Chinese, Japanese and Korean text.

CommonMark decides whether a run of `*` can open or close emphasis by the characters
on either side of it (its flanking rules), and they were written for languages with
spaces between words: a run with punctuation just inside and a letter just outside
opens or closes nothing. In Chinese, Japanese and Korean the next word follows without a
space, so `**「重要」**です`, `**"언제, 어디서"**의 차이`, `**優先度（高）**は` keep their
stars on screen. Obsidian draws them bold, as GitLab and markdig do under the
"CJK-friendly amendments" to CommonMark (github.com/tats-u/markdown-cjk-friendly,
`specification.md`): a run beside a CJK character counts as if that character were
punctuation where that lets it open or close, and a CJK punctuation mark (`「」。（）`)
never stops it. Korean, Japanese and Chinese LLM-kept wikis tried drew literal stars on
26-44 pages each.

`use_cjk_emphasis(md)` wraps markdown-it's own `emphasis` and `strikethrough` rules
(`cjk_friendly`): the rule reads the run and pushes its delimiters as always, and where a
CJK character (or a variation selector after one) stands beside the run, whether they
open and close is decided again by the amended rules. A run with no CJK character beside
it is left as markdown-it read it, which the amendments guarantee is the same.

The one package on PyPI for markdown-it-py (`mdit-py-cjk-friendly` 0.3.0, measured) is not
used: it replaces markdown-it's `StateInline.scanDelims` for every parser in the process,
counts no Hangul as CJK (`**그 단어(the word)**를` keeps its stars),
and also joins lines.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline import StateInline

InlineRule = Callable[[StateInline, bool], bool]

GENERAL_SELECTORS = range(0xFE00, 0xFE0F)
"""Variation selectors other than the emoji one (U+FE0F): a CJK character or mark may
carry one (`SVS`), and the run sees past it to the character."""
IDEOGRAPHIC_SELECTORS = range(0xE0100, 0xE01F0)
HANGUL = (range(0x1100, 0x1200), range(0x3130, 0x3190), range(0xA960, 0xA980))
"""Hangul jamo of a width other than wide (syllables and the rest are wide already)."""
EMOJI = (range(0x2300, 0x2C00), range(0x1F000, 0x1FB00))
"""Where wide symbols are emoji (U+231A, U+2B50, U+1F600), which are no CJK characters."""


def use_cjk_emphasis(md: MarkdownIt) -> MarkdownIt:
    """`md` with its `emphasis` and `strikethrough` rules (those it has) made `cjk_friendly`."""
    ruler = md.inline.ruler
    active = ruler.get_active_rules()
    for name in ("emphasis", "strikethrough"):
        if name in active:
            ruler.at(name, cjk_friendly(ruler.getRules("")[active.index(name)]))
    return md


def cjk_friendly(rule: InlineRule) -> InlineRule:
    """`rule` (markdown-it's `emphasis` or `strikethrough`), its delimiters' opening and
    closing decided by the CJK-friendly rules where a CJK character stands beside them."""

    def friendly(state: StateInline, silent: bool) -> bool:
        start, pushed = state.pos, len(state.delimiters)
        if not rule(state, silent):
            return False
        added = state.delimiters[pushed:]
        if added and (decided := _decided(state, start, state.pos)) is not None:
            for delimiter in added:
                delimiter.open, delimiter.close = decided
        return True

    return friendly


def _decided(state: StateInline, start: int, end: int) -> tuple[bool, bool] | None:
    """(can open, can close) of the run `src[start:end]` by the amended rules, or None
    when no CJK character stands beside it (markdown-it's reading stands)."""
    src = state.src
    before = src[start - 1] if start > 0 else " "
    after = src[end] if end < state.posMax else " "
    base = src[start - 2] if start > 1 and ord(before) in GENERAL_SELECTORS else before
    selector_before = ord(before) in IDEOGRAPHIC_SELECTORS
    if not (is_cjk(base) or is_cjk(after) or selector_before):
        return None
    space_before, space_after = isWhiteSpace(ord(before)), isWhiteSpace(ord(after))
    other_mark_before = _punctuation(base) and not is_cjk(base)  # a sequence: past a selector
    other_mark_after = _punctuation(after) and not is_cjk(after)
    left = not space_after and (
        not other_mark_after or space_before or other_mark_before or is_cjk(base) or selector_before
    )
    right = not space_before and (
        not other_mark_before or space_after or other_mark_after or is_cjk(after)
    )
    if src[start] == "_":  # inside words `_` neither opens nor closes
        return (
            left and (not right or _punctuation(base)),
            right and (not left or _punctuation(after)),
        )
    return left, right


def is_cjk(char: str) -> bool:
    """A CJK character of the amendments: East Asian width wide, full or half (emoji
    aside), or a Hangul letter."""
    code = ord(char)
    if unicodedata.east_asian_width(char) in ("W", "F", "H"):
        return not any(code in emoji for emoji in EMOJI) or unicodedata.category(char) != "So"
    return any(code in letters for letters in HANGUL)


def _punctuation(char: str) -> bool:
    """A Unicode punctuation character as markdown-it reads one (ASCII marks, and Unicode's
    punctuation and symbols)."""
    return isMdAsciiPunct(ord(char)) or isPunctChar(char)
