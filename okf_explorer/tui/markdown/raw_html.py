"""Raw HTML in a body read as what it shows: `html_to_tokens`, a core rule of the vault
parser (`parser.vault_parser`).

READMEs and vaults hold HTML (`<p align="center"><img …></p>`, `<a href>`, a table of
contributors, `<!-- comments -->`). markdown-it keeps it as `html_block` and `html_inline`
tokens, which the renderers would print as written; this module reads each with the
stdlib `html.parser` and writes the standard tokens of what a browser shows instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser
from urllib.parse import unquote

from markdown_it.common.normalize_url import normalizeLink, validateLink
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from okf_explorer.tui.markdown.links import FILE_SCHEME, REWRITTEN_LINK, label_text

__all__ = ["block_tokens", "html_to_tokens", "image_token", "inline_tokens"]

_BREAKS = frozenset({"softbreak", "hardbreak"})

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
    | {"nobr"}  # obsolete, still drawn: Redis's docs keep status icons on a line with it
)
_KNOWN = _OTHER_HTML | _HIDDEN | _BLOCKS | _HEADINGS | _CELLS | _CODE | frozenset(_EMPHASIS)
"""HTML's own elements; any other `<word>` (`<name>`, `<project-id>`: a placeholder in
prose) is shown as written, so no text is lost."""
_CELL_GAP = " · "
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:|//")
_SPACE = re.compile(r"\s+")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
"""A comment; one never ended hides the rest of the block, as in a browser."""
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
"""The start of a tag and its element's name."""
MAX_TABLE_CELLS = 5000
"""Cells (spanned ones included) an HTML table is drawn as a table with; a bigger one (or a
hostile `colspan`) reads as its rows of cells, `a · b`, as a table in a cell does."""
_MAX_SPAN = 64
"""The most columns (or rows) one cell's `colspan` (or `rowspan`) covers."""
HtmlPiece = Token | tuple[str, object]
"""What the reader makes of a fragment, in order: inline tokens, and marks between them
(`("break", heading tag or "")`, `("hr", "")`, `("table", HtmlTable)`)."""


@dataclass(eq=False, slots=True)
class HtmlCell:
    """A `<td>` or `<th>` of a table's outermost level: its inline tokens, and how many
    columns and rows it covers."""

    header: bool
    columns: int = 1
    rows: int = 1
    children: list[Token] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class HtmlTable:
    """An HTML table's rows of cells, as written (spans not yet laid out)."""

    rows: list[list[HtmlCell]] = field(default_factory=list)


def html_to_tokens(state: StateCore) -> None:
    """Replace every `html_block` and `html_inline` token by what it shows.

    READMEs and vaults hold HTML (`<p align="center"><img …></p>`, `<a href>`, a table
    of contributors, `<!-- comments -->`). markdown-it keeps it as `html_block` and
    `html_inline` tokens, which the renderers would print as written. This rule reads
    each of them with the stdlib `html.parser` and writes standard tokens instead:

    - `<img src alt>` → an `image` (an attachment placeholder named by its `alt`, else
      its file name, as `![[x.png]]` reads; a remote image keeps its URL);
    - `<a href>` → `link_open` … `link_close` (a live link, as `[text](href)` is);
    - `<b>`/`<strong>`, `<i>`/`<em>`, `<s>`/`<del>` → their emphasis; `<code>`,
      `<kbd>` → code;
    - `<br>` → a line break; `<h1>`…`<h6>` → a bold paragraph (not a heading of the
      outline: Obsidian keeps HTML headings out of it, and pages use them for that);
      `<hr>` → a rule;
    - block tags (`<p>`, `<div>`, `<li>` …) end a paragraph; `<li>` starts with `• `;
    - a `<table>` → a Markdown table's tokens, drawn as any table is (`table_tokens`):
      its first row the header (the drawing has one), a cell a `colspan` or `rowspan`
      covers left empty, a `<br>` or paragraph in a cell a line of it; a table inside a
      cell, or one of over `MAX_TABLE_CELLS`, reads as its rows of cells, `a · b`;
    - comments, `<script>`, `<style>` and HTML's other tags are dropped, their text
      kept; a `<word>` that is no HTML element (`<project-id>` in prose) stays as
      written.
    """
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
        self.pieces: list[HtmlPiece] = []
        """What is read so far (a cell's pieces while one is read, `outside` the rest)."""
        self.open: list[str] = []
        """The emphasis and link tags opened (and not yet closed), innermost last."""
        self.hidden = 0
        self.code = 0
        self.table = 0
        self.row_has_cell = False
        self.grid: HtmlTable | None = None
        """The outermost table of a block being read (a table in one of its cells is
        read as text: its cells `a · b`)."""
        self.cell: HtmlCell | None = None
        self.outside: list[HtmlPiece] = []
        self.open_outside = 0
        """How many of `open` were opened before the cell being read."""

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
        elif tag in _CELLS and self._in_grid():
            self._start_cell(tag, found)
        elif tag in _CELLS:
            if self.row_has_cell:
                self._text(_CELL_GAP)
            self.row_has_cell = True
        elif self.block:
            self._block_start(tag)
        elif tag in _BLOCKS or tag in _HEADINGS or tag == "hr":
            self.pieces.append(Token(_GAP, "", 0))  # inside a line: `_gaps` reads it

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in _KNOWN and tag not in ("img", "br", "hr"):
            self.handle_endtag(tag)

    def _block_start(self, tag: str) -> None:
        if tag == "tr" and self._in_grid():
            self._end_cell()
            self.grid.rows.append([])  # type: ignore[union-attr]
            return
        if tag == "table":
            self.table += 1
            if self.table == 1:
                self.grid = HtmlTable()
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
        elif self.block and (tag in _CELLS or tag == "tr") and self._in_grid():
            self._end_cell()
        elif self.block and tag == "table" and self._in_grid():
            self.end_table()
            self.table = 0
        elif self.block and tag in _BLOCKS:
            if tag == "table":
                self.table = max(0, self.table - 1)
            self.pieces.append(("break", ""))
        elif tag in _BLOCKS or tag in _HEADINGS:
            self.pieces.append(Token(_GAP, "", 0))

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self._text(data)

    def _text(self, text: str) -> None:
        if text == "\n":  # a `<br>`: a line break, but in a table read as text
            nested = self.table - (1 if self.cell is not None else 0)
            kind = "softbreak" if nested > 0 else "hardbreak"
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

    def _in_grid(self) -> bool:
        return self.grid is not None and self.table == 1

    def _start_cell(self, tag: str, found: dict[str, str]) -> None:
        self._end_cell()
        if self.grid is None:
            return
        if not self.grid.rows:
            self.grid.rows.append([])  # a cell before any `<tr>`, as a browser reads it
        self.cell = HtmlCell(tag == "th", _span(found.get("colspan")), _span(found.get("rowspan")))
        self.outside, self.pieces = self.pieces, []
        self.open_outside = len(self.open)

    def _end_cell(self) -> None:
        """The cell being read (if any) is done: what was opened in it closes."""
        cell, grid = self.cell, self.grid
        if cell is None or grid is None:
            return
        while len(self.open) > self.open_outside:
            self._close(self.open[-1])
        cell.children = _cell_children(self.pieces)
        grid.rows[-1].append(cell)
        self.pieces, self.outside, self.cell = self.outside, [], None

    def end_table(self) -> None:
        """The outermost table is done (its `</table>`, or the block's end)."""
        self._end_cell()
        if self.grid is not None:
            self.pieces.append(("table", self.grid))
        self.grid = None


def inline_tokens(children: list[Token]) -> list[Token]:
    """An inline token's children with each `html_inline` read (tags balanced within it).
    An MDX component opened and closed within them (React's docs: `When <CodeStep
    step={2}>initialValue</CodeStep> is provided`) shows its text alone, as its site
    shows it highlighted (`components` does so for a block's); any other tag that is no
    HTML element stays as written, in its own case (`</CodeStep>`, `<ID>`)."""
    reader = _Reader(block=False)
    out: list[Token] = []
    paired = _paired_components(children)
    for at, child in enumerate(children):
        if at in paired:
            continue
        if child.type == "html_inline" and _unknown_closing(child.content):
            kind = "code_inline" if reader.code else "text"  # (the reader's: in lower case)
            out.extend([*_tokens_only(reader), Token(kind, "", 0, content=child.content)])
            continue
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
    kept = _gaps(kept)
    if kept and kept[-1].type == "text":
        kept[-1].content = kept[-1].content.rstrip()
    return kept


_COMPONENT_TAG = re.compile(r"<(/?)([A-Z][\w.]*)(?:\s[^>]*)?>")
"""An MDX component's opening or closing tag (a capitalised name; one ending `/>` is none
of either: it closes itself, and stays as written)."""
_CLOSING_TAG = re.compile(r"</([A-Za-z][\w.-]*)\s*>")


def _unknown_closing(html: str) -> bool:
    """Whether `html` is the closing tag of no HTML element (`</CodeStep>`)."""
    tag = _CLOSING_TAG.fullmatch(html)
    return tag is not None and tag[1].lower() not in _KNOWN


def _paired_components(children: list[Token]) -> set[int]:
    """The places among `children` of the `html_inline` tags of the MDX components opened
    and closed within them."""
    opened: dict[str, list[int]] = {}
    paired: set[int] = set()
    for at, child in enumerate(children):
        if child.type != "html_inline" or child.content.endswith("/>"):
            continue
        if (tag := _COMPONENT_TAG.fullmatch(child.content)) is None:
            continue
        if not tag[1]:
            opened.setdefault(tag[2], []).append(at)
        elif opened.get(tag[2]):
            paired |= {opened[tag[2]].pop(), at}
    return paired


_GAP = "vault_html_gap"
"""Where a block tag (`<p>`, `<div>`, `<li>` …) opens or closes inside a line (a table
cell's `<p>One.</p><p>Two.</p>`): a line break between text, as a browser shows it."""


def _gaps(children: list[Token]) -> list[Token]:
    """Each run of gaps between text → one line break, the spaces beside it dropped;
    gaps at the start or end of the line, or beside a break, → nothing."""
    out: list[Token] = []
    pending = False
    for child in children:
        if child.type == _GAP:
            pending = True
            continue
        if child.type == "text" and not child.content.strip() and (pending or not out):
            continue  # the space between `</p> <p>`, or before the first text
        if pending and out and out[-1].type not in _BREAKS and child.type not in _BREAKS:
            if out[-1].type == "text":
                out[-1].content = out[-1].content.rstrip()
            out.append(Token("hardbreak", "br", 0))
        if pending and child.type == "text":
            child.content = child.content.lstrip()
        pending = False
        out.append(child)
    return out


def _tokens_only(reader: _Reader) -> list[Token]:
    found = [piece for piece in reader.pieces if isinstance(piece, Token)]
    reader.pieces = []
    return found


def _links_as_html(html: str) -> str:
    """`html` with the wiki-links it holds, rewritten before the body is parsed
    (`links.linkify_body`: `[label](<okf:target>)`, an attachment `![name](<attachment:
    name>)`), as HTML's own: markdown-it reads no Markdown inside a block of HTML, so they
    were drawn as that syntax."""
    if "](<" not in html:
        return html
    return REWRITTEN_LINK.sub(_as_html, html)


def _as_html(match: re.Match[str]) -> str:
    bang, label, href = match.group(1), label_text(match.group(2)), match.group(3)
    if bang and href.startswith(FILE_SCHEME):
        return f'<img src="{escape(href.removeprefix(FILE_SCHEME))}" alt="{escape(label)}">'
    return f'<a href="{escape(href)}">{escape(label, quote=False)}</a>'


def _ended_tags_only(html: str) -> str:
    """`html` without comments, each `<` that opens no ended tag written `&lt;`: what
    `html.parser` is given.

    A tag of one of HTML's elements runs from its `<` to the next `>`, any `<` on the way
    part of it, as a browser reads it: `<div class="nav"` left without its `>` before
    `</div>` is one tag, showing nothing (a vault's exam pages opened on that raw tag).
    Any other `<` opens a tag only if a `>` comes before the next `<` (`x<y then` stays
    text); one no `>` follows is text. `html.parser` looks for the end of every opening as
    far as the block goes, so a block of thousands of `<!--` or `<a href='` cost their
    square (150 KB: 10 s); here each `>` is looked for once, and each `<` from the one
    before, so this costs the block's length."""
    if "<!--" in html:
        html = _COMMENT.sub("", html)
    pieces: list[str] = []
    at = 0
    ends = -1  # the first `>` at or after the `<` read (found again once passed)
    while (opens := html.find("<", at)) != -1:
        pieces.append(html[at:opens])
        if ends < opens:
            ends = html.find(">", opens)
        if ends == -1:
            pieces.append(html[opens:].replace("<", "&lt;"))
            return "".join(pieces)
        name = _TAG_NAME.match(html, opens)
        known = name is not None and name[1].lower() in _KNOWN
        if known or (after := html.find("<", opens + 1)) == -1 or ends < after:
            pieces.append(html[opens : ends + 1])
            at = ends + 1
        else:
            pieces.append("&lt;")
            at = opens + 1
    pieces.append(html[at:])
    return "".join(pieces)


def block_tokens(html: str, level: int, lines: list[int] | None) -> list[Token]:
    """An `html_block` → paragraphs, headings and rules (nothing when it shows nothing)."""
    reader = _Reader(block=True)
    reader.feed(_ended_tags_only(_links_as_html(html)))
    reader.close()
    reader.end_table()
    reader.close_all()
    out: list[Token] = []
    inline: list[Token] = []
    for piece in [*reader.pieces, ("break", "")]:
        if isinstance(piece, Token):
            inline.append(piece)
            continue
        kind, value = piece
        out.extend(_block(inline, value if isinstance(value, str) and value else "p", level, lines))
        inline = []
        if kind == "hr":
            out.append(Token("hr", "hr", 0, level=level, markup="---", map=lines))
        elif isinstance(value, HtmlTable):
            out.extend(table_tokens(value, level, lines))
    return out


def _block(children: list[Token], tag: str, level: int, lines: list[int] | None) -> list[Token]:
    """A paragraph (or heading `tag`) of `children`, trimmed; none when it shows nothing."""
    if not _tidy(children):
        return []
    if tag != "p":  # a heading in HTML: bold, but no heading of the outline (as in Obsidian)
        children = [Token("strong_open", "b", 1), *children, Token("strong_close", "b", -1)]
    opening = Token("paragraph_open", "p", 1, level=level, map=lines)
    inline = _inline(children, level + 1, lines)
    closing = Token("paragraph_close", "p", -1, level=level)
    return [opening, inline, closing]


def _tidy(children: list[Token]) -> bool:
    """Collapse `children`'s whitespace as HTML does (across the pieces too) and trim it,
    breaks at either end dropped; whether anything is left to show."""
    while children and children[0].type in _BREAKS:
        children.pop(0)
    while children and children[-1].type in _BREAKS:
        children.pop()
    shown = any(
        child.type == "image" or (child.type in ("text", "code_inline") and child.content.strip())
        for child in children
    )
    if not shown:
        return False
    after_space = True
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
    return True


def _inline(children: list[Token], level: int, lines: list[int] | None) -> Token:
    inline = Token("inline", "", 0, level=level, map=lines, children=children)
    inline.content = "".join(child.content for child in children if child.type == "text")
    return inline


# ------------------------------------------------------------------------- tables


def _span(written: str | None) -> int:
    """A `colspan` or `rowspan` as the cells it covers: 1 unless a number over 1."""
    digits = (written or "").strip()
    return min(int(digits), _MAX_SPAN) if digits.isdigit() and int(digits) > 1 else 1


def _cell_children(pieces: list[HtmlPiece]) -> list[Token]:
    """A cell's pieces as one line of inline tokens: a paragraph or rule in it is a line
    break, runs of breaks one; nothing when it shows nothing."""
    children: list[Token] = []
    for piece in pieces:
        if isinstance(piece, Token):
            children.append(piece)
        elif children and children[-1].type not in _BREAKS:
            children.append(Token("hardbreak", "br", 0))
    kept = [
        child
        for at, child in enumerate(children)
        if not (child.type in _BREAKS and at and children[at - 1].type in _BREAKS)
    ]
    return kept if _tidy(kept) else []


def laid_out(table: HtmlTable) -> list[list[list[Token]]]:
    """`table`'s rows as a grid: each cell where a browser puts it, a cell a `colspan` or
    `rowspan` covers empty (no text is written twice), every row as long as the longest."""
    grid: list[list[list[Token]]] = []
    covered: dict[int, int] = {}  # a column → the rows a cell above still covers in it
    for cells in table.rows:
        if not cells and not any(covered.values()):
            continue  # a row of no cells shows nothing
        line: list[list[Token]] = []
        waiting = cells[::-1]
        while len(line) < _MAX_SPAN:
            column = len(line)
            if covered.get(column, 0) > 0:
                covered[column] -= 1
                line.append([])
            elif waiting:
                cell = waiting.pop()
                for extra in range(min(cell.columns, _MAX_SPAN - column)):
                    line.append([] if extra else cell.children)
                    if cell.rows > 1:
                        covered[column + extra] = cell.rows - 1
            elif any(rows > 0 for at, rows in covered.items() if at > column):
                line.append([])  # a gap before a column still covered from above
            else:
                break
        grid.append(line)
    width = max((len(line) for line in grid), default=0)
    return [line + [[] for _ in range(width - len(line))] for line in grid if width]


def table_tokens(table: HtmlTable, level: int, lines: list[int] | None) -> list[Token]:
    """An HTML table as the tokens of a Markdown table (its first row the header, as the
    drawing of a table has one; a header cell lower down bold), or, past `MAX_TABLE_CELLS`,
    as a paragraph a row; nothing when no cell shows anything."""
    header_cells = {id(cell.children) for row in table.rows for cell in row if cell.header}
    grid = laid_out(table)
    if not any(cell for line in grid for cell in line):
        return []
    if len(grid) * len(grid[0]) > MAX_TABLE_CELLS:
        return [token for line in grid for token in _row_paragraph(line, level, lines)]
    out = [Token("table_open", "table", 1, level=level, map=lines)]
    for number, line in enumerate(grid):
        if number < 2:
            part = "thead" if number == 0 else "tbody"
            out.append(Token(f"{part}_open", part, 1, level=level + 1, map=lines))
        out.append(Token("tr_open", "tr", 1, level=level + 2, map=lines))
        tag = "th" if number == 0 else "td"
        for cell in line:
            if number and cell and id(cell) in header_cells:
                cell = [Token("strong_open", "b", 1), *cell, Token("strong_close", "b", -1)]
            out.append(Token(f"{tag}_open", tag, 1, level=level + 3, map=lines))
            out.append(_inline(cell, level + 4, lines))
            out.append(Token(f"{tag}_close", tag, -1, level=level + 3))
        out.append(Token("tr_close", "tr", -1, level=level + 2))
        if number == 0:
            out.append(Token("thead_close", "thead", -1, level=level + 1))
    if len(grid) > 1:
        out.append(Token("tbody_close", "tbody", -1, level=level + 1))
    out.append(Token("table_close", "table", -1, level=level))
    return out


def _row_paragraph(line: list[list[Token]], level: int, lines: list[int] | None) -> list[Token]:
    """A row of a table too big to draw as one: its cells in a paragraph, `a · b`."""
    children: list[Token] = []
    for cell in line:
        if cell:
            if children:
                children.append(Token("text", "", 0, content=_CELL_GAP))
            children.extend(cell)
    return _block(children, "p", level, lines)


def _trim(children: list[Token], at: int, strip: Callable[[str], str]) -> None:
    """Strip the outer whitespace of the first (`at` 0) or last (-1) child, a text."""
    if children[at].type == "text":
        children[at].content = strip(children[at].content)
