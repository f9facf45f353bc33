"""Inline vault Markdown → `Content`: the one converter the engine's drawing and the
plain `Markdown` widget's blocks both use.

Emphasis, code, links (`@click` → `link(href)`, as Textual's `Markdown` does),
highlights (`==x==`), `#tags`, footnote references (`[1]`), task boxes, images
(a page embed inside a line reads `↳ name` and follows the page; an attachment
reads `▭ name`), and the title line of a callout (its type's glyph, then the title).

Every glyph drawn here has one width everywhere: one cell for Rich (which lays the
rows out) and for the terminal. Pictographs outside the Basic Multilingual Plane (the
old placeholder, U+1F5BC FRAME WITH PICTURE) are drawn one cell wide by some terminals
and two by others, and a character whose width changed between Unicode versions (the
U+2630 trigram) is counted two cells by Rich and one by tmux: either shifts the rest
of the row (`tests/tui/test_glyph_widths.py`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from markdown_it.token import Token
from textual.content import Content, Span
from textual.style import Style

from okf_explorer.tui.markdown.links import FILE_SCHEME, LINK_SCHEME, TAG_SCHEME
from okf_explorer.tui.markdown.parser import DETAILS, alt_text

WIDGET_STYLES: Mapping[str, str] = {
    "em": ".em",
    "strong": ".strong",
    "s": ".s",
    "code_inline": ".code_inline",
}
"""Inline styles as Textual's `Markdown` blocks name them (component classes, themed)."""
IMAGE_GLYPH = "▭"
"""An image or attachment placeholder (a frame), before its name."""
EMBED_GLYPH = "↳"
"""A page embedded inside a line, before the page's name."""
TASK_GLYPHS = ("☐", "☒")
"""A task list's box: open, done."""
MARK_STYLE = "#1e1e1e on #e5c07b"
TAG_STYLE = "bold #56b6c2"
FOOTNOTE_STYLE = "bold #c678dd"

CALLOUT_KINDS: Mapping[str, tuple[str, str]] = {
    "note": ("✎", "note"),
    "abstract": ("≡", "note"),
    "summary": ("≡", "note"),
    "tldr": ("≡", "note"),
    "info": ("ℹ", "note"),
    "todo": ("☐", "note"),
    "tip": ("★", "good"),
    "hint": ("★", "good"),
    "important": ("★", "good"),
    "success": ("✓", "good"),
    "check": ("✓", "good"),
    "done": ("✓", "good"),
    "question": ("?", "warn"),
    "help": ("?", "warn"),
    "faq": ("?", "warn"),
    "warning": ("⚠", "warn"),
    "caution": ("⚠", "warn"),
    "attention": ("⚠", "warn"),
    "failure": ("✗", "bad"),
    "fail": ("✗", "bad"),
    "missing": ("✗", "bad"),
    "danger": ("ϟ", "bad"),
    "error": ("ϟ", "bad"),
    "bug": ("✱", "bad"),
    "example": ("⋮", "note"),
    "quote": ("❝", "note"),
    "cite": ("❝", "note"),
    DETAILS: ("", "note"),
}
"""Callout type → (glyph, tone); an unknown type reads as a note. An HTML disclosure
(`parser.DETAILS`) has no glyph: `▸ Summary`, as a browser draws it."""
TONE_COLORS: Mapping[str, str] = {
    "note": "#61afef",
    "good": "#98c379",
    "warn": "#e5c07b",
    "bad": "#e06c75",
}
"""A callout's colour by its tone: its title, and its bar."""
TONE_STYLES: Mapping[str, str] = {tone: f"bold {color}" for tone, color in TONE_COLORS.items()}


def callout_tone(kind: str) -> str:
    return CALLOUT_KINDS.get(kind, ("✎", "note"))[1]


def callout_title(kind: str, title: Content, fold: str = "", folded: bool = False) -> Content:
    """`★ Title` in the callout's tone; a foldable one starts with `▸` (folded) or `▾`."""
    glyph = CALLOUT_KINDS.get(kind, ("✎", "note"))[0]
    marker = ("▸ " if folded else "▾ ") if fold else ""
    head = Content(f"{marker}{glyph} " if glyph else marker)
    return (head + title).stylize(TONE_STYLES[callout_tone(kind)])


def inline_content(token: Token, styles: Mapping[str, str] = WIDGET_STYLES) -> Content:
    """An inline token → `Content`; `styles` names the look of em, strong, s and code."""
    parts: list[str] = []
    spans: list[Span] = []
    opened: list[tuple[str | Style, int]] = []
    position = 0

    def add(text: str, style: str | Style | None = None) -> None:
        nonlocal position
        if style is not None and text:
            spans.append(Span(position, position + len(text), style))
        parts.append(text)
        position += len(text)

    for child in token.children or ():
        kind = child.type
        if kind == "text":
            add(re.sub(r"\s+", " ", child.content))
        elif kind == "softbreak":
            add(" ")
        elif kind == "hardbreak":
            add("\n")
        elif kind == "code_inline":
            add(child.content, styles["code_inline"])
        elif kind == "vault_tag":  # a link: `n` reaches it, `enter` lists the pages so tagged
            href = TAG_SCHEME + child.content[1:]
            add(
                child.content,
                Style.parse(TAG_STYLE) + Style.from_meta({"@click": f"link({href!r})"}),
            )
        elif kind == "footnote_ref":
            add(f"[{int(child.meta.get('id', 0)) + 1}]", FOOTNOTE_STYLE)
        elif kind == "image":
            add(*_image(child))
        elif kind == "link_open":
            href = str(child.attrs.get("href", ""))
            opened.append((Style.from_meta({"@click": f"link({href!r})"}), position))
        elif kind == "mark_open":
            opened.append((MARK_STYLE, position))
        elif kind.endswith("_open"):
            opened.append((styles.get(kind[: -len("_open")], ""), position))
        elif kind.endswith("_close") and opened:
            style, start = opened.pop()
            if style and position > start:
                spans.append(Span(start, position, style))
        elif kind == "html_inline":
            add(_html_inline(child.content))
    return Content("".join(parts), spans)


def _image(token: Token) -> tuple[str, str | Style | None]:
    src = str(token.attrs.get("src", ""))
    if src[:5].lower() == "data:":  # the image itself, written into the page: no link
        return f"{IMAGE_GLYPH} {alt_text(token) or data_label(src)}", "italic"
    label = alt_text(token) or src
    if src.startswith(FILE_SCHEME):
        return f"{IMAGE_GLYPH} {label}", "italic"
    click = Style.from_meta({"@click": f"link({src!r})"})
    if src.startswith(LINK_SCHEME):
        return f"{EMBED_GLYPH} {label}", click
    return f"{IMAGE_GLYPH} {label}", click


def data_label(src: str) -> str:
    """What an image written into the page as a `data:` URI is called: its type and size
    (`image/png, 150 KB`), never its base64 (a vault pastes screenshots so)."""
    kind = src[5:].split(",", 1)[0].split(";", 1)[0] or "image"
    size = len(src) * 3 // 4 if ";base64," in src[:80] else len(src)
    return f"{kind}, {size / 1024:.0f} KB" if size >= 1024 else f"{kind}, {size} bytes"


def _html_inline(html: str) -> str:
    """A task list's checkbox → `☐` / `☒` (`TASK_GLYPHS`); other inline HTML as written."""
    if "task-list-item-checkbox" in html:
        return TASK_GLYPHS[1] if 'checked="checked"' in html else TASK_GLYPHS[0]
    return html
