"""The light renderer's walk: vault Markdown tokens → pieces of `Content`, wrapped (`PreparedBody`).

Prose goes into pieces of at most `CHUNK_LINES` lines (one line-API widget each); a
code block or table wider than the pane (`width`) is a piece of its own, shown in a
box that scrolls sideways instead of cutting or wrapping it. Code is highlighted
as the `Markdown` widget highlights it; table columns are aligned (and follow the
table's `:---:` alignment). Where each heading and block id landed (piece, line of
the piece) is kept, so the page pane can scroll to one. `wrap_piece` wraps a prose
piece as a `Static` would (Textual's own wrapper), off the event loop, except that a
line of a quote or a list item keeps its shape when it wraps (`hanging`): each
continuation line repeats the quote bars and hangs under the item's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it.token import Token
from textual.content import Content, _FormattedLine
from textual.highlight import highlight
from textual.style import Style

from okf_explorer.tui.markdown.hanging import QUOTE_BAR, wrap_hanging
from okf_explorer.tui.markdown.inline import callout_title, inline_content

CHUNK_LINES = 1_000
"""Lines per prose piece of a long body: a piece is drawn a visible line at a time,
so its size costs nothing on screen; pieces bound how much one re-wrap holds."""
CODE_INDENT = "  "


@dataclass(frozen=True, slots=True)
class Piece:
    """One widget's worth of a long body; `wide` ones scroll sideways."""

    content: Content
    wide: bool = False


@dataclass(slots=True)
class Rendered:
    """The pieces, and where (piece, row) each heading and block id is."""

    pieces: list[Piece] = field(default_factory=list)
    headings: list[tuple[int, str, int, int]] = field(default_factory=list)
    """(level, text, piece, line) of each heading, in order (`line`: of the piece's
    text split at newlines, before wrapping)."""
    blocks: dict[str, tuple[int, int]] = field(default_factory=dict)


def render_tokens(tokens: list[Token], width: int = 80) -> Rendered:
    """markdown-it block tokens → `Rendered` (a line per paragraph/item/row)."""
    return _Renderer(max(20, width)).run(tokens)


class _Renderer:
    """Walks the token stream keeping list nesting, quote depth and the pending item marker."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.out = Rendered()
        self.lines: list[Content] = []
        self.rows = 0
        self.lists: list[list[int]] = []  # per open list: [next number] or [-1] for bullets
        self.quote = 0
        self.marker: str | None = None
        self.heading: int | None = None
        self.table: list[list[tuple[Content, str]]] | None = None
        self.cell_align = ""
        self.callout: tuple[str, str] | None = None

    def run(self, tokens: list[Token]) -> Rendered:
        for token in tokens:
            self._token(token)
        self._flush()
        return self.out

    # -- pieces

    def _flush(self, keep_gap: bool = False) -> None:
        """End the prose piece; its trailing blank lines go unless `keep_gap` (a wide
        box follows: the blank line parts it from the prose, as between any blocks)."""
        gap = False
        while self.lines and not self.lines[-1].plain:
            self.lines.pop()
            gap = True
        if self.lines and keep_gap and gap:
            self.lines.append(Content(""))
        if self.lines:
            self.out.pieces.append(Piece(Content("\n").join(self.lines)))
        self.lines, self.rows = [], 0

    def _here(self) -> tuple[int, int]:
        """(piece, row) the next line lands on."""
        if len(self.lines) >= CHUNK_LINES:
            self._flush()
        return len(self.out.pieces), self.rows

    def _line(self, content: Content) -> None:
        if len(self.lines) >= CHUNK_LINES:
            self._flush()
        line = Content(self._prefix()) + content
        self.lines.append(line)
        self.rows += line.plain.count("\n") + 1

    def _block(self, lines: list[Content]) -> None:
        """A code block or table: in the prose when it fits, else a sideways box."""
        if max((line.cell_length for line in lines), default=0) + 4 <= self.width:
            for line in lines:
                self._line(line)
            return
        self._flush(keep_gap=True)
        self.out.pieces.append(Piece(Content("\n").join(lines), wide=True))

    def _prefix(self) -> str:
        indent = "  " * max(0, len(self.lists) - 1)
        if self.marker is not None:
            marker, self.marker = self.marker, None
            return QUOTE_BAR * self.quote + indent + marker
        width = 2 if not self.lists else (3 if self.lists[-1][0] < 0 else 4)
        return QUOTE_BAR * self.quote + indent + (" " * width if self.lists else "")

    # -- tokens

    def _token(self, token: Token) -> None:
        kind = token.type
        if block_id := token.meta.get("block_id") if token.nesting >= 0 else None:
            self.out.blocks.setdefault(str(block_id), self._here())
        if kind in ("bullet_list_open", "ordered_list_open"):
            start = int(token.attrs.get("start", 1) or 1) if kind == "ordered_list_open" else -1
            self.lists.append([start])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self.lists.pop()
        elif kind == "list_item_open":
            number = self.lists[-1][0]
            self.marker = "• " if number < 0 else f"{number}. ".ljust(4)
            if number >= 0:
                self.lists[-1][0] += 1
        elif kind == "blockquote_open":
            self.quote += 1
        elif kind == "blockquote_close":
            self.quote -= 1
        elif kind == "paragraph_open" and token.meta.get("callout_title"):
            self.callout = (str(token.meta["callout_title"]), str(token.meta.get("callout_fold")))
        elif kind == "heading_open":
            self.heading = int(token.tag[1:])
        elif kind == "heading_close":
            self.heading = None
        elif kind == "table_open":
            self.table = []
        elif kind == "table_close":
            self._block(_table_lines(self.table or []))
            self.table = None
        elif kind == "tr_open" and self.table is not None:
            self.table.append([])
        elif kind in ("th_open", "td_open"):
            self.cell_align = str(token.attrs.get("style", ""))
        elif kind == "inline":
            self._inline(token)
        elif kind in ("fence", "code_block"):
            self._block(_code_lines(token))
        elif kind == "hr":
            self._line(Content.styled("─" * 40, "dim"))
        elif kind == "html_block":
            self._line(Content(token.content.rstrip("\n")))
        elif kind == "vault_embed":
            href, label = str(token.meta.get("href", "")), str(token.meta.get("label", ""))
            click = Style.from_meta({"@click": f"link({href!r})"})
            self._line(Content.assemble(("↳ ", "bold"), (label or href, click)))
        if token.level == 0 and token.nesting <= 0 and kind != "inline":
            self._line(Content(""))  # a blank line after each top-level block

    def _inline(self, token: Token) -> None:
        content = inline_content(token)
        if self.table is not None:
            if self.table:
                self.table[-1].append((content, self.cell_align))
            return
        if self.callout is not None:
            kind, fold = self.callout
            content, self.callout = callout_title(kind, content, fold, folded=False), None
        if self.heading is not None:
            content = content.stylize("bold underline" if self.heading <= 2 else "bold")
            self.out.headings.append((self.heading, content.plain, *self._here()))
        self._line(content)


@dataclass(frozen=True, slots=True)
class Wrapped:
    """A prose piece wrapped `width` columns wide: its screen `lines` (each knows its
    place in the piece: `x`, `y`), and `starts[n]`, the screen line the piece's
    `n`th line begins on."""

    width: int
    lines: tuple[_FormattedLine, ...]
    starts: tuple[int, ...]


def wrap_piece(content: Content, width: int) -> Wrapped:
    """`content` wrapped as a `Static` `width` columns wide wraps it, a quote's or list
    item's lines hanging under their text (pure: run it in a thread)."""
    width = max(1, width)
    lines: list[_FormattedLine] = []
    starts: list[int] = []
    for y, line in enumerate(content.split("\n", allow_blank=True)):
        starts.append(len(lines))
        lines += wrap_hanging(line, width, y)
    return Wrapped(width, tuple(lines), tuple(starts))


def _code_lines(token: Token) -> list[Content]:
    code = token.content.rstrip("\n")
    highlighted = highlight(code, language=token.info.strip().split(" ")[0] or None)
    return [Content(CODE_INDENT) + line for line in highlighted.split("\n")]


def _table_lines(rows: list[list[tuple[Content, str]]]) -> list[Content]:
    """Rows of cells → aligned lines: the header bold, a rule under it."""
    rows = [row for row in rows if row]
    if not rows:
        return []
    columns = max(len(row) for row in rows)
    widths = [
        max((row[n][0].cell_length for row in rows if n < len(row)), default=0)
        for n in range(columns)
    ]
    lines: list[Content] = []
    for number, row in enumerate(rows):
        cells = [_pad(cell, align, widths[n]) for n, (cell, align) in enumerate(row)]
        line = Content(" │ ").join(cells)
        lines.append(line.stylize("bold") if number == 0 else line)
        if number == 0:
            lines.append(Content.styled("─┼─".join("─" * width for width in widths), "dim"))
    return lines


def _pad(cell: Content, align: str, width: int) -> Content:
    gap = max(0, width - cell.cell_length)
    if "right" in align:
        return Content(" " * gap) + cell
    if "center" in align:
        return Content(" " * (gap // 2)) + cell + Content(" " * (gap - gap // 2))
    return cell + Content(" " * gap)


Heading = tuple[int, str]
"""(level, text) of a heading, in the order of the body."""


@dataclass(frozen=True, slots=True)
class PreparedBody:
    """A body (or the part `start:end` of it) ready to show.

    `light` (all of it as one `Content`) and `chunks` (the pieces `LightBody`
    mounts, with `wrapped`: each prose piece wrapped, None for a wide box) are set
    when the part is drawn by `LightBody`, with where its headings and block ids
    are (`heading_at`, `block_at`: piece, line of the piece); `links` are the
    part's hrefs in order of appearance, `headings` its headings.
    """

    markdown: str
    light: Content | None
    blocks: int
    end: int = 0
    total: int = 0
    links: tuple[tuple[str, str], ...] = ()
    chunks: tuple[Piece, ...] = ()
    headings: tuple[Heading, ...] = ()
    heading_at: tuple[tuple[int, int], ...] = ()
    block_at: tuple[tuple[str, int, int], ...] = ()
    wrapped: tuple[Wrapped | None, ...] = ()

    @property
    def truncated(self) -> bool:
        return self.end < self.total
