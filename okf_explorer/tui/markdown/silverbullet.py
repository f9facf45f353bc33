"""A SilverBullet page as the Markdown drawn for it: its Lua expressions as what they are.

SilverBullet shows, where a page writes a Lua expression `${…}`, what it gives: a
query's rows, a button, a video, math. The explorer runs no Lua, so
`silverbullet_markdown` draws each as well as it can without running it:

- `${latex.inline[[x^2]]}` and `${latex.block[[…]]}` (SilverBullet's TeX widgets) are
  math, `$x^2$` and `$$…$$`, drawn as any page's math is;
- `${embed.youtube "https://…"}` (and `embed.vimeo`, `embed.peertube`) is the video's
  address, a link;
- any other expression is code, as written: one standing on lines of its own (a query
  over several lines; in a list item too) a `lua` code block, one inside a sentence an
  inline code span.
  Unread, it reads as what it asks for, not as text with `[[` in it;
- `[[tag:math]]`, the page SilverBullet makes of a tag, is the tag `#math`, and
  `[[uri:https://…]]` a link to that address;
- an admonition, a quote opening `> **note** Title` (SilverBullet's GitHub-style form;
  `client/codemirror/admonition.ts`: any word between the stars, the rest of the line its
  title), is the callout `> [!note] Title`, as Obsidian's form already is.

Expressions are found as `core.links.silverbullet` finds them; code is left as it is.
"""

from __future__ import annotations

import re

from okf_explorer.core.links.grammar import outside_code
from okf_explorer.core.links.silverbullet import turn_expressions

__all__ = ["silverbullet_markdown"]

_LATEX = re.compile(r"\$\{\s*latex\.(inline|block)\s*\(?\s*\[(=*)\[(.*)\]\2\]\s*\)?\s*\}\Z", re.S)
_EMBED = re.compile(
    r"""\$\{\s*embed\.(?:youtube|vimeo|peertube)\s*\(?\s*(["'])(https?://[^"'\s]+)\1\s*\)?\s*\}\Z"""
)
_VIRTUAL = re.compile(r"(?<!\\)\[\[(tag|uri):([^\[\]|\n]+)(?:\|([^\[\]\n]*))?\]\]")
_BACKTICKS = re.compile(r"`+")
_ADMONITION = re.compile(r"^( {0,3}> *)\*\*([A-Za-z][\w-]*)\*\*((?: .*)?)$", re.MULTILINE)
_QUOTE_LINE = re.compile(r" {0,3}>")
_LINE_START = re.compile(r"[ \t]*+(?:(?:[-*+]|\d{1,9}[.)])[ \t]++)?")
"""What may stand before an expression on its line for it to stand alone: indentation,
a list item's marker."""


def silverbullet_markdown(text: str) -> str:
    """`text`, a SilverBullet page, as the Markdown drawn for it (see the module doc)."""
    if "${" not in text and "[[" not in text and "**" not in text:
        return text
    return outside_code(text, _prose)


def _prose(segment: str) -> str:
    if "[[" in segment:
        segment = _VIRTUAL.sub(_virtual_page, segment)
    if "**" in segment:
        segment = _ADMONITION.sub(_callout, segment)
    return turn_expressions(segment, _drawn)


def _drawn(segment: str, start: int, end: int) -> str:
    """The expression `segment[start:end]` as the Markdown drawn for it."""
    expression = segment[start:end]
    line_start = segment.rfind("\n", 0, start) + 1
    before = segment[line_start:start]
    alone = _LINE_START.fullmatch(before) is not None and _line_ends_after(segment, end)
    latex = _LATEX.match(expression)
    if latex is not None and "$" not in latex[3]:
        tex = latex[3].strip()
        if latex[1] == "inline":
            return f"${tex}$"
        return f"$$\n{tex}\n$$" if alone else f"$${tex}$$"
    embed = _EMBED.match(expression)
    if embed is not None:
        return f"<{embed[2]}>"
    if alone and "\n" in expression:
        pad = " " * len(before)  # a list item's text column, or the line's indent
        fence = "`" * max(3, _longest_backticks(expression) + 1)
        lines = expression.replace("\n", "\n" + pad)
        return f"{fence}lua\n{pad}{lines}\n{pad}{fence}"
    ticks = "`" * (_longest_backticks(expression) + 1)
    return f"{ticks} {expression} {ticks}" if "`" in expression else f"{ticks}{expression}{ticks}"


def _line_ends_after(segment: str, end: int) -> bool:
    newline = segment.find("\n", end)
    return not segment[end : newline if newline >= 0 else len(segment)].strip()


def _longest_backticks(text: str) -> int:
    return max((len(run) for run in _BACKTICKS.findall(text)), default=0)


def _callout(found: re.Match[str]) -> str:
    """A quote's first line `> **note** Title` as `> [!note] Title`; a later line of a
    quote (the line above is one too) as it is."""
    before = found.string[: found.start()]
    above = before[before.rfind("\n", 0, len(before) - 1) + 1 :]
    if before and _QUOTE_LINE.match(above):
        return found[0]
    return f"{found[1]}[!{found[2].lower()}]{found[3]}"


def _virtual_page(found: re.Match[str]) -> str:
    kind, name, label = found[1], found[2].strip(), found[3]
    if kind == "tag":
        return f"#{name}" if name and not any(c.isspace() for c in name) else found[0]
    return f"[{label.strip()}](<{name}>)" if label and label.strip() else f"<{name}>"
