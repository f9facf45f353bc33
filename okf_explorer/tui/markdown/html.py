"""Raw HTML in a page body, read as the text it shows (a core rule of the vault parser).

READMEs and vaults hold HTML (`<p align="center"><img …></p>`, `<a href>`, a table of
contributors, `<!-- comments -->`). markdown-it keeps it as `html_block` and
`html_inline` tokens, which the renderers would print as written. This rule reads
each of them with the stdlib `html.parser` and writes standard tokens instead:

- `<img src alt>` → an `image` (an attachment placeholder named by its `alt`, else
  its file name, as `![[x.png]]` reads; a remote image keeps its URL);
- `<a href>` → `link_open` … `link_close` (a live link, as `[text](href)` is);
- `<b>`/`<strong>`, `<i>`/`<em>`, `<s>`/`<del>` → their emphasis; `<code>`, `<kbd>` → code;
- `<br>` → a line break; `<h1>`…`<h6>` → a bold paragraph (not a heading of the
  outline: Obsidian keeps HTML headings out of it, and pages use them for that); `<hr>` → a rule;
- block tags (`<p>`, `<div>`, `<li>`, `<tr>` …) end a paragraph; table cells in a row
  read `a · b`; `<li>` starts with `• `;
- comments, `<script>`, `<style>` and HTML's other tags are dropped, their text kept;
  a `<word>` that is no HTML element (`<project-id>` in prose) stays as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import unquote

from markdown_it.common.normalize_url import normalizeLink, validateLink
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from okf_explorer.tui.markdown.links import FILE_SCHEME

_EMPHASIS = {
    "b": "strong",
    "strong": "strong",
    "i": "em",
    "em": "em",
    "s": "s",
    "del": "s",
    "strike": "s",
}
_CODE = frozenset({"code", "kbd", "samp", "tt"})
_HIDDEN = frozenset({"script", "style", "template", "noscript"})
_BLOCKS = frozenset(
    {"p", "div", "center", "section", "article", "header", "footer", "nav", "aside", "main"}
    | {"figure", "figcaption", "details", "summary", "blockquote", "pre", "address"}
    | {"ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "caption"}
    | {"form", "fieldset", "picture", "video", "audio", "iframe", "body", "html", "head"}
)
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_CELLS = frozenset({"td", "th"})
_OTHER_HTML = frozenset(
    {"a", "img", "br", "hr", "span", "sub", "sup", "small", "big", "u", "ins", "abbr", "cite"}
    | {"q", "font", "mark", "label", "time", "var", "dfn", "bdi", "bdo", "wbr", "source"}
    | {"track", "svg", "path", "g", "circle", "rect", "line", "polyline", "polygon", "text"}
    | {"input", "button", "select", "option", "textarea", "col", "colgroup", "object"}
    | {"embed", "param", "map", "area", "canvas", "meter", "progress", "output", "data"}
    | {"ruby", "rt", "rp", "link", "meta", "base", "title", "body", "use", "defs"}
)
_KNOWN = _OTHER_HTML | _HIDDEN | _BLOCKS | _HEADINGS | _CELLS | _CODE | frozenset(_EMPHASIS)
"""HTML's own elements; any other `<word>` (`<name>`, `<project-id>`: a placeholder in
prose) is shown as written, so no text is lost."""
_CELL_GAP = " · "
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:|//")
_SPACE = re.compile(r"\s+")


def html_to_tokens(state: StateCore) -> None:
    """Replace every `html_block` and `html_inline` token by what it shows."""
    if not any(_has_html(token) for token in state.tokens):
        return
    out: list[Token] = []
    for token in state.tokens:
        if token.type == "html_block":
            out.extend(block_tokens(token.content, token.level, token.map))
            continue
        if token.type == "inline" and _has_html(token):
            token.children = inline_tokens(token.children or [])
        out.append(token)
    state.tokens = out


def _has_html(token: Token) -> bool:
    if token.type == "html_block":
        return True
    return token.type == "inline" and any(c.type == "html_inline" for c in token.children or ())


def image_token(src: str, alt: str) -> Token:
    """An `image` for `<img>`: a local file as an attachment placeholder (its name, as
    `![[x.png]]` reads), a remote one keeping its URL; labelled by `alt`, else the name."""
    name = unquote(src.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1])
    label = _SPACE.sub(" ", alt).strip() or name or "image"
    local = src and not _URL.match(src)
    shown = src if validateLink(src) else ""  # no `javascript:` behind a click
    image = Token("image", "img", 0, content=label)
    image.attrs = {"src": f"{FILE_SCHEME}{src}" if local else normalizeLink(shown), "alt": ""}
    image.children = [Token("text", "", 0, content=label)]
    return image


class _Reader(HTMLParser):
    """One HTML fragment → inline tokens (and, for a block, paragraph breaks)."""

    def __init__(self, block: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.block = block
        self.pieces: list[Token | tuple[str, str]] = []
        """Inline tokens, and ("break", heading tag or "") / ("hr", "") marks (blocks)."""
        self.open: list[str] = []
        """The emphasis and link tags opened (and not yet closed), innermost last."""
        self.hidden = 0
        self.code = 0
        self.table = 0
        self.row_has_cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag not in _KNOWN:
            self._text(self.get_starttag_text() or f"<{tag}>")
        elif tag in _HIDDEN:
            self.hidden += 1
        elif tag == "img":
            self.pieces.append(image_token(found.get("src", ""), found.get("alt", "")))
        elif tag == "a" and "href" in found and validateLink(found["href"]):
            link = Token("link_open", "a", 1)  # as markdown-it makes `[text](href)`
            link.attrs = {"href": normalizeLink(found["href"])}
            self._open("a", link)
        elif tag in _EMPHASIS:
            self._open(tag, Token(f"{_EMPHASIS[tag]}_open", tag, 1))
        elif tag in _CODE:
            self.code += 1
        elif tag == "br":
            self._text("\n")
        elif tag in _CELLS:
            if self.row_has_cell:
                self._text(_CELL_GAP)
            self.row_has_cell = True
        elif self.block:
            self._block_start(tag)
        elif tag in _BLOCKS or tag in _HEADINGS or tag == "hr":
            self._space()  # `a<p/>b` inside a line (a table cell): `a b`

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in _KNOWN and tag not in ("img", "br", "hr"):
            self.handle_endtag(tag)

    def _block_start(self, tag: str) -> None:
        if tag == "table":
            self.table += 1
        if tag == "tr":
            self.row_has_cell = False
        if tag == "hr":
            self.pieces.append(("hr", ""))
        elif tag in _HEADINGS or tag in _BLOCKS:
            self.pieces.append(("break", ""))
        if tag == "li":
            self._text("• ")

    def handle_endtag(self, tag: str) -> None:
        if tag not in _KNOWN:
            self._text(f"</{tag}>")
        elif tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag == "a" or tag in _EMPHASIS:
            self._close(tag)
        elif tag in _CODE:
            self.code = max(0, self.code - 1)
        elif self.block and tag in _HEADINGS:
            self.pieces.append(("break", tag))
        elif self.block and tag in _BLOCKS:
            if tag == "table":
                self.table = max(0, self.table - 1)
            self.pieces.append(("break", ""))
        elif tag in _BLOCKS or tag in _HEADINGS:
            self._space()

    def _space(self) -> None:
        last = self.pieces[-1] if self.pieces else None
        if not (isinstance(last, Token) and last.type == "text" and last.content[-1:].isspace()):
            self._text(" ")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self._text(data)

    def _text(self, text: str) -> None:
        if text == "\n":
            kind = "softbreak" if self.table else "hardbreak"
            self.pieces.append(Token(kind, "br", 0))
        elif text:
            kind = "code_inline" if self.code else "text"
            self.pieces.append(Token(kind, "code" if self.code else "", 0, content=text))

    def _open(self, tag: str, token: Token) -> None:
        self.open.append(tag)
        self.pieces.append(token)

    def _close(self, tag: str) -> None:
        """Close `tag` when it is open (what was opened inside it closes first)."""
        if tag not in self.open:
            return
        while self.open:
            inner = self.open.pop()
            kind = "link" if inner == "a" else _EMPHASIS[inner]
            self.pieces.append(Token(f"{kind}_close", inner, -1))
            if inner == tag:
                return

    def close_all(self) -> None:
        while self.open:
            self._close(self.open[-1])


def inline_tokens(children: list[Token]) -> list[Token]:
    """An inline token's children with each `html_inline` read (tags balanced within it)."""
    reader = _Reader(block=False)
    out: list[Token] = []
    for child in children:
        if child.type == "html_inline" and "task-list-item-checkbox" not in child.content:
            reader.feed(child.content)
            out.extend(_tokens_only(reader))
        elif child.type == "text" and reader.code:  # `<code>x</code>`: `x` is code
            out.append(Token("code_inline", "code", 0, content=child.content))
        else:
            out.append(child)
    reader.close()
    reader.close_all()
    out.extend(_tokens_only(reader))
    # `<br>` then a newline is one break; a comment ending the line leaves no space.
    kept = [
        child
        for at, child in enumerate(out)
        if not (child.type == "softbreak" and at and out[at - 1].type == "hardbreak")
    ]
    if kept and kept[-1].type == "text":
        kept[-1].content = kept[-1].content.rstrip()
    return kept


def _tokens_only(reader: _Reader) -> list[Token]:
    found = [piece for piece in reader.pieces if isinstance(piece, Token)]
    reader.pieces = []
    return found


def block_tokens(html: str, level: int, lines: list[int] | None) -> list[Token]:
    """An `html_block` → paragraphs, headings and rules (nothing when it shows nothing)."""
    reader = _Reader(block=True)
    reader.feed(html)
    reader.close()
    reader.close_all()
    out: list[Token] = []
    inline: list[Token] = []
    for piece in [*reader.pieces, ("break", "")]:
        if isinstance(piece, Token):
            inline.append(piece)
            continue
        kind, heading = piece
        out.extend(_block(inline, heading or "p", level, lines))
        inline = []
        if kind == "hr":
            out.append(Token("hr", "hr", 0, level=level, markup="---", map=lines))
    return out


def _block(children: list[Token], tag: str, level: int, lines: list[int] | None) -> list[Token]:
    """A paragraph (or heading `tag`) of `children`, trimmed; none when it shows nothing."""
    while children and children[0].type in ("softbreak", "hardbreak"):
        children.pop(0)
    while children and children[-1].type in ("softbreak", "hardbreak"):
        children.pop()
    shown = any(
        child.type == "image" or (child.type in ("text", "code_inline") and child.content.strip())
        for child in children
    )
    if not shown:
        return []
    after_space = True  # whitespace collapses across the pieces too, as in HTML
    for child in children:
        if child.type == "text":
            child.content = _SPACE.sub(" ", child.content)
            if after_space and child.content.startswith(" "):
                child.content = child.content[1:]
            after_space = child.content.endswith(" ") or (after_space and not child.content)
        elif child.type in ("image", "code_inline", "hardbreak", "softbreak"):
            after_space = child.type != "image" and child.type != "code_inline"
    _trim(children, 0, str.lstrip)
    _trim(children, -1, str.rstrip)
    if tag != "p":  # a heading in HTML: bold, but no heading of the outline (as in Obsidian)
        children = [Token("strong_open", "b", 1), *children, Token("strong_close", "b", -1)]
    opening = Token("paragraph_open", "p", 1, level=level, map=lines)
    inline = Token("inline", "", 0, level=level + 1, map=lines, children=children)
    inline.content = "".join(child.content for child in children if child.type == "text")
    closing = Token("paragraph_close", "p", -1, level=level)
    return [opening, inline, closing]


def _trim(children: list[Token], at: int, strip: Callable[[str], str]) -> None:
    """Strip the outer whitespace of the first (`at` 0) or last (-1) child, a text."""
    if children[at].type == "text":
        children[at].content = strip(children[at].content)
