"""Mermaid's source as its diagrams read it: statements and texts.

A diagram's statements are its lines, and a line's parts between `;` outside quotes
and brackets (`graph LR; A --> B`); `%%` comments and a configuration block
(`%%{init: …}%%`) are left out, and so is a front matter (`---` … `---`) opening it. A
text (a node's, a message's) reads as Mermaid shows it: quotes round it dropped, `<br>`
parting its lines, HTML entities and Mermaid's own (`#quot;`, `#35;`) read, tags and a
Markdown string's backticks and stars dropped.
"""

from __future__ import annotations

import html
import re

from okf_explorer.core.diagrams.canvas import NotDrawn

__all__ = ["statements", "text_lines"]

_INIT = re.compile(r"%%\{.*?\}%%", re.S)
"""A configuration block (`%%{init: …}%%`), on lines of its own or not."""
_ENTITY = re.compile(r"#(\w+);")
_ENTITY_BEFORE = re.compile(r"#\w+$")
"""Mermaid's entity (`#quot;`, `#35;`) whose `;` ends no statement."""
_BREAK = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_MARKDOWN_STRING = re.compile(r"^`(.*)`$", re.S)


def statements(source: str) -> list[str]:
    """The source's statements: its lines, cut at `;` outside quotes and brackets, with
    `%%` comments and a `---` front matter left out."""
    source = _INIT.sub("", source.replace("\r\n", "\n"))
    lines = source.split("\n")
    if lines and lines[0].strip() == "---":
        ends = [n for n, line in enumerate(lines[1:], 1) if line.strip() == "---"]
        if not ends:
            raise NotDrawn
        lines = lines[ends[0] + 1 :]
    found: list[str] = []
    for line in lines:
        if line.strip().startswith("%%"):
            continue
        found.extend(part.strip() for part in _cut_at_semicolons(line) if part.strip())
    return found


def _cut_at_semicolons(line: str) -> list[str]:
    parts, depth, quoted, start = [], 0, False, 0
    for at, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char in "[({":
            depth += 1
        elif char in "])}":
            depth = max(0, depth - 1)
        elif char == ";" and depth == 0 and not _ENTITY_BEFORE.search(line, max(start, at - 9), at):
            parts.append(line[start:at])
            start = at + 1
    parts.append(line[start:])
    return parts


def text_lines(text: str) -> list[str]:
    """A text (a node's, a link's, a message's) as the lines it shows."""
    text = text.strip()
    if len(text) > 1 and text[0] == text[-1] == '"':
        text = text[1:-1].strip()
    if markdown := _MARKDOWN_STRING.match(text):
        text = markdown.group(1).replace("**", "").replace("__", "")
    text = _BREAK.sub("\n", text).replace("\\n", "\n")
    text = _TAG.sub("", text)
    text = _ENTITY.sub(_entity, text)
    text = html.unescape(text)
    lines = [" ".join(line.split()) for line in text.split("\n")]
    lines = [line for line in lines if line]
    return lines or [""]


def _entity(match: re.Match[str]) -> str:
    name = match.group(1)
    if name.isdigit():
        return chr(int(name)) if int(name) < 0x110000 else match.group()
    return html.unescape(f"&{name};")
