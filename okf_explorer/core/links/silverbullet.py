"""SilverBullet's links: Lua expressions that are no links, carets and positions.

A SilverBullet space is a folder of Markdown pages linked by `[[page]]`, as a vault is,
and its pages hold Lua: `${query[[from index.tag "page"]]}` renders, where it stands,
what the expression gives (a query's rows, a widget, `${latex.inline[[x^2]]}` as math).
Read as plain Markdown, every `[[…]]` Lua string in them was a link: SilverBullet's own
docs (silverbulletmd/silverbullet `754e852`) had 71 dangling targets, 30 once read as
SilverBullet reads them; the others were queries (`from index.pages("adr")`), Lua making a
link (`" .. p.name .. "`) and positions (`CHANGELOG@123`). A user's space
(ChenZhu-Xie/xczphysics_SilverBullet `d2bd3ab`), 91 and 52: the TeX of its
`${latex.inline[[…]]}` too.

`silverbullet_links` writes a page's text with its links as ours, as SilverBullet's
"Link" page describes them:

- **Lua expressions** `${…}` hold no link: the brackets inside are escaped
  (`\\[\\[`), so no reader of links reads one there (`lua_expressions` finds them);
- **a caret** names a meta page: `[[^Library/Std]]` means `[[Library/Std]]`;
- **a position**: `[[CHANGELOG@123]]` (a character) and `[[CHANGELOG@L12C42]]` (a line
  and column) name the page `CHANGELOG`, as a heading after `#` does;
- **a virtual page**: `[[tag:math]]` is the page SilverBullet makes of the tag `#math`,
  and `[[uri:https://…]]` a page fetched from the web: neither is a page of the space,
  so their brackets are escaped too (the explorer draws `[[tag:math]]` as the tag,
  `tui.markdown.silverbullet`).

Code (fenced blocks, `space-lua` ones among them, and inline spans) is left as it is.
`silverbullet_as_written` takes the escapes back out, for text shown as the page writes
it (a link's context in `serve`); a caret or a position it dropped stays dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from okf_explorer.core.links.grammar import outside_code

__all__ = [
    "MAX_EXPRESSION",
    "MAX_NESTING",
    "lua_expressions",
    "silverbullet_as_written",
    "silverbullet_links",
    "turn_expressions",
]

MAX_EXPRESSION = 8192
"""The longest Lua expression read as one (SilverBullet's are a few lines): a `${` not
closed within it is text. Each scan resumes where the last one stopped, so a page costs
its length however many `${` it holds."""
MAX_NESTING = 64
"""Braces nested deeper than this inside an expression make it text (a hostile page of
`{`)."""

_STOP = re.compile(r"""[{}"'\[\n]""")
"""What changes a Lua expression's reading: a brace, a string's quote, a long bracket's
`[`, a line's end."""
_STRING_REST = {
    '"': re.compile(r'(?:[^"\\\n]|\\.)*+"'),
    "'": re.compile(r"(?:[^'\\\n]|\\.)*+'"),
}
_LONG_OPENING = re.compile(r"\[(=*+)\[")
_LONG_BRACKETS = re.compile(r"\[\[|\]\]")
_BLANK_LINE_AHEAD = re.compile(r"[ \t]*+\r?\n")
_WIKI = re.compile(r"(?<!\\)(!?)\[\[([^\[\]\n]++)\]\]")
_POSITION = re.compile(r"@(?:[Ll]\d++(?:[Cc]\d++)?|\d++)$")
_VIRTUAL = ("tag:", "uri:")
_VIRTUAL_ESCAPED = re.compile(r"\\\[\\\[(?:tag|uri):[^\[\]\n]*?\\\]\\\]")


def lua_expressions(text: str) -> list[tuple[int, int]]:
    """`(start, end)` of each Lua expression `${…}` of `text` (no code in it: callers
    pass what lies outside code), in order. An expression ends at the `}` that closes
    its `{`, read as Lua reads it: braces inside a string (`"}"`, `'{'`) or a long
    bracket (`[[ … ]]`, `[==[ … ]==]`) do not count. It may run over several lines,
    not over a blank one, nor past `MAX_EXPRESSION` characters or `MAX_NESTING` braces
    deep; where it cannot close, the `${` is text, and the search goes on after the
    place it stopped (so a page costs its length)."""
    found: list[tuple[int, int]] = []
    pos = 0
    while (start := text.find("${", pos)) >= 0:
        end, stopped = _expression_end(text, start + 2, min(len(text), start + MAX_EXPRESSION))
        if end is not None:
            found.append((start, end))
            pos = end
        else:
            pos = max(stopped, start + 2)
    return found


def _expression_end(text: str, at: int, limit: int) -> tuple[int | None, int]:
    """Where the expression opened before `at` ends (after its `}`), or None and the
    place the reading stopped."""
    depth, pos = 1, at
    while (found := _STOP.search(text, pos, limit)) is not None:
        char, pos = found[0], found.end()
        if char == "{":
            depth += 1
            if depth > MAX_NESTING:
                return None, pos
        elif char == "}":
            depth -= 1
            if depth == 0:
                return pos, pos
        elif char == "\n":
            if _BLANK_LINE_AHEAD.match(text, pos):
                return None, pos
        elif char in _STRING_REST:
            rest = _STRING_REST[char].match(text, pos, limit)
            if rest is None:
                return None, pos
            pos = rest.end()
        elif (opening := _LONG_OPENING.match(text, found.start(), limit)) is not None:
            closed = _long_string_end(text, opening, limit)
            if closed is None:
                return None, limit
            pos = closed
    return None, limit


def _long_string_end(text: str, opening: re.Match[str], limit: int) -> int | None:
    """Where the long string `opening` opens ends (after its closing bracket), or None.
    `[==[ … ]==]` ends at its first `]==]`, as in Lua; `[[ … ]]` ends at the `]]` that
    closes it, `[[`/`]]` pairs inside counted, as Space Lua reads a query:
    `query[[ … select "[[" .. p.name .. "]]" ]]` (SilverBullet's docs) is one query."""
    if opening[1]:
        closing = text.find(f"]{opening[1]}]", opening.end(), limit)
        return None if closing < 0 else closing + len(opening[1]) + 2
    depth = 1
    for bracket in _LONG_BRACKETS.finditer(text, opening.end(), limit):
        depth += 1 if bracket[0] == "[[" else -1
        if depth == 0:
            return bracket.end()
    return None


def silverbullet_links(text: str) -> str:
    """`text` with its links written as ours (see the module doc)."""
    if "${" not in text and "[[" not in text:
        return text
    return outside_code(text, _prose)


def silverbullet_as_written(text: str) -> str:
    """`silverbullet_links`' escapes taken back out (see the module doc)."""
    if "\\[" not in text:
        return text
    return outside_code(text, _prose_as_written)


def _prose(segment: str) -> str:
    return turn_expressions(segment, _escaped_at, _wiki_links)


def _wiki_links(segment: str) -> str:
    return _WIKI.sub(_link, segment) if "[[" in segment else segment


def _link(found: re.Match[str]) -> str:
    """One wiki link (or embed) as ours: caret and position left out, a virtual page's
    brackets escaped."""
    bang, inner = found[1], found[2]
    target, bar, label = inner.partition("|")
    name, hash_mark, heading = target.partition("#")
    if name.lstrip().startswith(_VIRTUAL):
        return bang + _escaped(found[0][len(bang) :])
    bare = name.strip().removeprefix("^")
    if "@" in bare:
        bare = _POSITION.sub("", bare)
    if bare == name.strip():
        return found[0]
    return f"{bang}[[{bare}{hash_mark}{heading}{bar}{label}]]"


def _prose_as_written(segment: str) -> str:
    return turn_expressions(segment, _unescaped_at, _virtual_unescaped)


def turn_expressions(
    segment: str,
    expression: Callable[[str, int, int], str],
    prose: Callable[[str], str] = str,
) -> str:
    """`segment` (no code in it) with each Lua expression `segment[start:end]` written as
    `expression(segment, start, end)` gives (the segment given, for what stands around
    it), and the text between as `prose` turns it."""
    if "${" not in segment:
        return prose(segment)
    pieces, done = [], 0
    for start, end in lua_expressions(segment):
        pieces.append(prose(segment[done:start]))
        pieces.append(expression(segment, start, end))
        done = end
    pieces.append(prose(segment[done:]))
    return "".join(pieces)


def _virtual_unescaped(segment: str) -> str:
    return _VIRTUAL_ESCAPED.sub(_unescaped_match, segment) if "\\[" in segment else segment


def _unescaped_match(found: re.Match[str]) -> str:
    return _unescaped(found[0])


def _escaped_at(segment: str, start: int, end: int) -> str:
    return _escaped(segment[start:end])


def _unescaped_at(segment: str, start: int, end: int) -> str:
    return _unescaped(segment[start:end])


def _escaped(piece: str) -> str:
    return piece.replace("[[", "\\[\\[").replace("]]", "\\]\\]")


def _unescaped(piece: str) -> str:
    return piece.replace("\\[\\[", "[[").replace("\\]\\]", "]]")
