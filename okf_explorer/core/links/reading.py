"""A line of Markdown as a reader sees it: links as their text, no marks, no tags.

A page's title comes from its first heading when the frontmatter states none, and a
title is shown everywhere a page is named (the finder, the trees, the header, `get
--json`). The heading is Markdown: `# [[Obsidian Publish|Publish]] **sites**` reads
"Publish sites" on the rendered page, and a title must read the same, not as its
source. `reading_text` gives that text with the link grammar's own spans (so a link
inside code stays code, and an escaped bracket opens nothing):

- a wiki-link reads as its alias, else its target (`[[a#Part]]` → `a > Part`); a
  Markdown link or image as its text;
- inline code as its content, literally;
- math (`$\\lim_{x \\to \\infty} x^k$`) as the page draws it (`core.math_text`: `lim_{x → ∞}
  xᵏ`), where the link grammar reads dollar math (`grammar.math_ranges`: `$5 and $10` is
  none); a link inside it is no link;
- emphasis, strong, strike and highlight marks go (`**b**` → `b`; an underscore
  inside a word stays: `snake_case`);
- HTML elements (`<b>`, `<span …>`, `<br>`) go, their text kept; an autolink reads as
  its address (`<https://x>` → `https://x`); a `<word>` that is no HTML element
  (`<project-id>`) stays as written;
- backslash escapes read as the character (`\\*` → `*`); character references as theirs
  (`&amp;` → `&`, `&#39;` → `'`: Microsoft's docs, converted to Markdown, head pages
  `# What&#39;s new in version 1610`, which the page draws `What's new in version 1610`);
  whitespace collapses.

A heading that is only a template placeholder (`{{title}}`, `<% tp.file.title %>`:
Templater, Obsidian's core templates) names no page: `is_template_placeholder`.
"""

from __future__ import annotations

import html
import re

from okf_explorer.core.links.grammar import code_span_ranges, mask_ranges, math_ranges
from okf_explorer.core.links.spans import link_spans, link_text, plain_markup
from okf_explorer.core.math_text import math_text

HTML_ELEMENTS = frozenset(
    {"a", "abbr", "b", "big", "br", "cite", "code", "del", "dfn", "em", "font", "i", "img"}
    | {"ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub"}
    | {"sup", "time", "tt", "u", "var", "wbr", "div", "p", "center", "section", "details"}
    | {"summary", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "label", "picture", "source"}
)
"""HTML elements a heading may hold; any other `<word>` is text (a placeholder in prose)."""

_HTML_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*+)(?:\s(?:[^<>\"']|\"[^\"]*+\"|'[^']*+')*+)?/?>")
_AUTOLINK = re.compile(
    r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*+|[\w.!#$%&'*+/=?^`{|}~\-]++@[\w\-]++(?:\.[\w\-]++)*+)>"
)
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
"""A backslash escape: any ASCII punctuation (CommonMark)."""
_SPACE = re.compile(r"\s+")
_TEMPLATE = re.compile(r"\s*(?:\{\{[^{}]*\}\}|<%.*?%>)(?:\s*(?:\{\{[^{}]*\}\}|<%.*?%>))*\s*")
_SLOT = 0xF0000
"""Code points from here (a private-use plane) stand in for code and links meanwhile."""


def reading_text(line: str) -> str:
    """`line` (one line of inline Markdown) as the text a reader sees (module docstring)."""
    if not any(mark in line for mark in "[]`*_~=<>\\$&") and "  " not in line and "\t" not in line:
        return line.strip()
    shown: list[str] = []
    pieces: list[str] = []
    at = 0
    for start, end, text in _code_and_links(line):
        pieces.append(line[at:start])
        pieces.append(chr(_SLOT + len(shown)))
        shown.append(text)
        at = end
    pieces.append(line[at:])
    skeleton = _plain("".join(pieces))
    text = "".join(shown[ord(char) - _SLOT] if ord(char) >= _SLOT else char for char in skeleton)
    return _SPACE.sub(" ", text).strip()


def _code_and_links(line: str) -> list[tuple[int, int, str]]:
    """(start, end, text shown) of each code span, formula and link of `line`, in order;
    an image's `!` goes with its link."""
    code = code_span_ranges(line)
    found = [
        (start, end, line[start:end].strip("`").strip() or line[start:end]) for start, end in code
    ]
    if "$" in line:
        for start, end in math_ranges(mask_ranges(line, code) if code else line):
            dollars = 2 if line.startswith("$$", start) else 1
            found.append((start, end, math_text(line[start + dollars : end - dollars])))
    for span in link_spans(line):
        start = span.start - (span.kind == "markdown" and line[span.start - 1 : span.start] == "!")
        found.append((start, span.end, _plain(link_text(span))))
    kept: list[tuple[int, int, str]] = []
    for piece in sorted(found):  # code inside a link's text is the link's, a link in math math's
        if not kept or piece[0] >= kept[-1][1]:
            kept.append(piece)
    return kept


def _plain(text: str) -> str:
    """`text` (no code, no links) without its marks and HTML tags, escapes read."""
    if "<" in text:
        text = _AUTOLINK.sub(r"\1", text)
        text = _HTML_TAG.sub(lambda m: "" if m.group(1).lower() in HTML_ELEMENTS else m[0], text)
    text = _ESCAPE.sub(r"\1", plain_markup(text))
    return html.unescape(text) if "&" in text else text


def is_template_placeholder(text: str) -> bool:
    """Whether `text` is nothing but template placeholders (`{{title}}`, `<% … %>`)."""
    return bool(text) and _TEMPLATE.fullmatch(text) is not None
