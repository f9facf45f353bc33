"""A TeX formula as text a reader reads: `\\lambda_{1} \\neq 0` → `λ₁ ≠ 0`.

Obsidian typesets a vault's `$…$` and `$$…$$` math; a terminal cannot, and TeX source
(`\\det(A) = \\lambda_{1}\\lambda_{2}\\dots`) is slow to read: the page pane draws math
as this text (`tui.markdown.parser`), and search indexes and quotes it
(`core.search.plain_text`). `math_text` reads the formula as TeX does, one token at a
time, and writes what it knows as Unicode:

- symbols (`\\alpha`, `\\neq`, `\\Longleftrightarrow`, `\\infty`, …) by pylatexenc's table
  of TeX macros and their Unicode (`latex2text`'s default context: public API), with the
  few it lacks (`\\implies`, `\\iff`, `\\det`, …) here;
- `^x` and `_{ij}` as superscript and subscript letters when every character has one;
- `\\frac{a+d}{2}` (or `{a+d \\over 2}`) as `(a+d)/2` (`(2/3)x` where an operand follows),
  `\\sqrt{x}` as `√x`, `\\mathbb{R}` as `ℝ`, `\\text{…}` and `\\mathrm{…}` as their text,
  `\\hat{u}` as `û` (`\\hat{\\rho}` as `ρ` and a combining circumflex), `\\left( … \\right)`
  as `( … )`, `\\stackrel{d}{=}` as `=ᵈ`, `\\underbrace{x}_{n}` as `x (n)`;
- colour dropped (`\\textcolor{orange}{1)}` → `1)`), and an operator set apart from an
  operand written against it as TeX sets it (`\\ln{a}` → `ln a`);
- a bussproofs proof (`\\begin{prooftree}`) as a tree (`core.proof_tree`);
- an aligned display (`\\begin{aligned} … \\\\ … \\end{aligned}`) one row a line, a row
  holding matrices as their grid; a displayed matrix a grid between tall brackets, `cases`
  values and conditions in columns after a tall brace; a display's line breaks as spaces,
  as TeX reads them.

What it cannot write as text (an unknown macro, a matrix inline) stays as written, and a
subscript Unicode has no letters for keeps its braces (`M_{n × n}`; one character needs
none, `x_{\\alpha}` is `x_α`): the text is never wrong, only sometimes still TeX. Spaces
stay as written, but for the space that ends a control word before a letter
(`\\partial C` is `∂C`) or after a space command (`\\quad`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache

from okf_explorer.core.proof_tree import proof_lines

ROWS = frozenset(
    {"aligned", "align", "align*", "gather", "gather*", "gathered", "equation", "equation*"}
    | {"split", "multline", "multline*", "eqnarray", "eqnarray*"}
)
"""Environments shown one row a line (their `&` alignment marks dropped)."""

MATRICES = frozenset(
    {"matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix", "smallmatrix", "array"}
    | {"cases", "dcases"}
)
"""Environments drawn as a grid, one line a row, between their delimiters."""
CASES = frozenset({"cases", "dcases"})
"""Grids whose columns are a value and its condition, left-aligned after a brace."""
BRACKETS = {
    "pmatrix": "()",
    "bmatrix": "[]",
    "Bmatrix": "{}",
    "vmatrix": "||",
    "Vmatrix": "‖‖",
    "cases": "{ ",
    "dcases": "{ ",
}
"""Each matrix environment's delimiters (`array` takes `\\left`/`\\right`'s)."""
TALL = {
    "(": "⎛⎜⎝",
    ")": "⎞⎟⎠",
    "[": "⎡⎢⎣",
    "]": "⎤⎥⎦",
    "{": "⎧⎪⎩",
    "}": "⎫⎪⎭",
    "|": "│││",
    "‖": "‖‖‖",
}
"""A delimiter over several lines: its top, middle and bottom piece."""

FUNCTIONS = frozenset(
    {"arg", "cosh", "coth", "csc", "deg", "det", "dim", "exp", "gcd", "hom", "inf", "ker"}
    | {"lg", "lim", "liminf", "limsup", "ln", "log", "max", "min", "Pr", "sec", "sinh"}
    | {"sup", "tanh", "arcsin", "arccos", "arctan", "cot", "sin", "cos", "tan"}
)
"""Operator names written as their name (`\\det(A)` → `det(A)`)."""

MORE_SYMBOLS = {
    "implies": "⟹",
    "impliedby": "⟸",
    "iff": "⟺",
    "ne": "≠",
    "neg": "¬",
    "land": "∧",
    "lor": "∨",
    "models": "⊨",
    "vDash": "⊨",  # amssymb's: a math garden's logic notes write `A \\vDash B`
    "bot": "⊥",
    "gets": "←",
    "triangle": "△",
    "checkmark": "✓",
    "|": "‖",
    "lvert": "|",
    "rvert": "|",
    "vert": "|",
    "rVert": "‖",
    "colon": ":",
    "le": "≤",
    "ge": "≥",
    "ldots": "…",
    "cdots": "⋯",
    "vdots": "⋮",
    "ddots": "⋱",
    "coloneqq": "≔",
    "nmid": "∤",
    "divides": "∣",
    "bmod": "mod",
    "mod": "mod",
    "\\": " ",
    **{char: char for char in "%$#&_{}"},
}
"""Symbols pylatexenc's table lacks (or writes otherwise)."""

SPACES = {
    **{",": " ", ";": " ", ":": " ", ">": " ", " ": " ", "!": "", "quad": "  ", "qquad": "    "},
    **{"space": " ", "enspace": " ", "thinspace": " ", "medspace": " ", "thickspace": " "},
}
DROPPED = frozenset(
    {"left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr"}
    | {"biggl", "biggr", "Biggl", "Biggr", "displaystyle", "textstyle", "scriptstyle"}
    | {"limits", "nolimits", "tiny", "small", "normalsize", "large", "Large", "LARGE"}
    | {"huge", "Huge", "scriptsize", "footnotesize", "scriptscriptstyle"}
)
"""Sizing and style words that show nothing themselves (the delimiter after stays)."""
TEXT_OF = frozenset(
    {"text", "textrm", "textit", "textbf", "textsf", "texttt", "mathrm", "mathit"}
    | {"mathsf", "mathtt", "operatorname", "mbox", "boxed", "underline"}
)
"""Macros whose one argument is shown as it reads."""
COLOURS = {"color": 1, "textcolor": 1, "colorbox": 1, "fcolorbox": 2}
"""Colour macros and how many colour arguments come before the text (`\\color{red}` has
none: it colours what follows): the colour goes, the text stays (`\\textcolor{orange}{1)}`
→ `1)`)."""
LETTERS = {
    "mathbb": "DOUBLE-STRUCK",
    "mathcal": "SCRIPT",
    "mathscr": "SCRIPT",
    "mathfrak": "FRAKTUR",
}
"""Alphabets a capital letter is written in (`\\mathbb{R}` → `ℝ`)."""
ACCENTS = {
    "hat": "CIRCUMFLEX ACCENT",
    "widehat": "CIRCUMFLEX ACCENT",
    "bar": "MACRON",
    "overline": "MACRON",
    "tilde": "TILDE",
    "widetilde": "TILDE",
    "dot": "DOT ABOVE",
    "ddot": "DIAERESIS",
    "acute": "ACUTE ACCENT",
    "grave": "GRAVE ACCENT",
    "check": "CARON",
    "breve": "BREVE",
    "mathring": "RING ABOVE",
}
"""Accents over a character, by the name of Unicode's combining mark (`COMBINING …`):
`\\hat{u}` → `û` where Unicode has the two as one character, else the character and the
mark, which terminals draw in its one cell (`\\hat{\\rho}` → `ρ̂`, `\\bar{X}` → `X̄`: a
study vault's estimators and means, 600 of its formulas, were left as TeX)."""
BARS = frozenset({"bar", "overline"})
"""Accents that go over several characters too, as one line over each
(`\\overline{AB}` → `A̅B̅`)."""
STACKED = {"stackrel": "^", "overset": "^", "underset": "_"}
"""Text set over (or under) a symbol, written as its script (`\\stackrel{d}{=}` → `=ᵈ`)."""
BRACES = {"underbrace": "_", "overbrace": "^"}
"""A brace under (over) a formula, its label the script after it: the label follows in
parentheses."""
FRACTIONS = frozenset({"frac", "dfrac", "tfrac", "cfrac"})
VECTORS = frozenset({"vec", "overrightarrow"})
"""Vector arrows, written as vectors are printed: bold (`\\vec{v}` → `𝐯`). Unicode has
no arrow over a letter but a combining one, drawn at a width terminals disagree on."""
BOLD = frozenset({"mathbf", "boldsymbol", "bm"})
"""Bold: its letters and digits in Unicode's bold, anything else as it reads."""
BINOMIALS = frozenset({"binom", "dbinom", "tbinom"})
ARROWS = {"xrightarrow": "→", "xleftarrow": "←"}
"""Arrows with a label above: the label written on the shaft."""
OPERANDS = FRACTIONS | FUNCTIONS | BOLD | VECTORS | frozenset(ACCENTS) | frozenset(LETTERS)
OPERANDS |= {"sqrt", "left"}
"""Macros that start an operand (`\\sqrt{2}`, `\\hat{x}`, `\\sin x`): a fraction before
one is set apart (`_Reader._operand_next`)."""
INFIX = {"over": "frac", "choose": "binom"}
"""TeX's infix forms: `{a \\over b}` is `\\frac{a}{b}`, `{n \\choose k}` is `\\binom{n}{k}`."""

SUPERSCRIPTS = dict(
    zip(
        "0123456789+-=()Tabcdefghijklmnoprstuvwxyz",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵀᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ",
        strict=True,
    )
)
"""Characters Unicode has a superscript of (no `q`, few capitals)."""
SUBSCRIPTS = dict(
    zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True)
)
"""Characters Unicode has a subscript of."""

_SLASH_OVERLAY = unicodedata.lookup("COMBINING LONG SOLIDUS OVERLAY")
"""What `\\not` puts over a symbol: kept only where it composes into one (`∈` → `∉`)."""
_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|\s+|.", re.S)
_ATOM = re.compile(r"[\w.′'∂∇∞]+")
"""Text that needs no parentheses around it as a fraction's part (`2`, `xy`, `λ₁`, `∂C`)."""


def math_text(tex: str, *, display: bool = False) -> str:
    """`tex` (what stands between the dollars) as text; `display`: a `$$` block, whose
    aligned rows become lines. A formula holding an environment it does not show as
    rows or grids (a matrix inline, an environment inside another) is returned as
    written."""
    if display:
        return display_math(tex)[0]
    text = _text(_infix_read(tex), display=False)
    return tex if text is None else text


def display_math(tex: str) -> tuple[str, bool]:
    """A `$$` block's `tex` as text (`math_text`), and whether it is drawn as a grid: its
    lines stand side by side (a matrix between tall brackets, a proof tree), so a line
    wrapped to fit a narrow pane would put the rest of its row under the next one."""
    written = tex
    # A line break in TeX is a space, and a `%` comment ends at it: a row written over two
    # lines (`\|u\|^2` / `&= \langle u, u \rangle \\`) is one line on the page.
    tex = _LINE_BREAK.sub(" ", _COMMENT.sub("", tex))
    if wrapped := _EQUATION.fullmatch(tex):
        tex = wrapped["inside"].strip()  # one formula, numbered: the number is not shown
    around = _ROWS_AROUND.fullmatch(tex)
    if around and around["kind"] == "prooftree":  # bussproofs: a tree, or as written
        proof = proof_lines(around["inside"], math_text)
        return (written, False) if proof is None else (unicodedata.normalize("NFC", proof), True)
    tex = _infix_read(tex)
    environments = set(_ENVIRONMENTS.findall(tex))
    if environments and environments <= MATRICES and _side_by_side(tex):
        return unicodedata.normalize("NFC", _matrices(tex)), True
    if (rows := _rows_of_matrices(tex)) is not None:
        return unicodedata.normalize("NFC", rows), True
    text = _text(tex, display=True)
    return (written if text is None else text), False


def _rows_of_matrices(tex: str) -> str | None:
    """An aligned display (`ROWS`) whose rows hold matrices, as lines: a row without one
    on a line of its own, a row with one as its grid (`_matrices`), a blank line between
    two rows. None when `tex` is no such display (another environment, or one inside a
    matrix)."""
    around = _ROWS_AROUND.fullmatch(tex)
    if around is None or around["kind"] not in ROWS:
        return None
    inside = around["inside"]
    kinds = set(_ENVIRONMENTS.findall(inside))
    if not kinds or not kinds <= MATRICES or not _side_by_side(inside):
        return None
    grids: list[str] = []

    def held(grid: re.Match[str]) -> str:  # a matrix out of the way of the rows' marks
        grids.append(grid[0])
        return f"\0{len(grids) - 1}\0"

    rows: list[list[str]] = []
    for row in _ROW_BREAK.split(_GRID.sub(held, inside)):
        row = re.sub(r"\0(\d+)\0", lambda mark: grids[int(mark[1])], row.replace("&", ""))
        if "\\begin" in row:
            rows.append(_matrices(row).split("\n"))
        elif text := _Reader(row).text().strip():
            rows.append([text])
    return "\n\n".join("\n".join(lines) for lines in rows)


def _infix_read(tex: str) -> str:
    """`tex` with its infix fractions as macros (`_prefixed`), when it has any."""
    return _prefixed(tex) if "\\over" in tex or "\\choose" in tex else tex


def _text(tex: str, *, display: bool) -> str | None:
    """`tex` (infix fractions read) as a line, or as rows (`display`), not as a grid;
    None when it holds an environment it cannot show so."""
    environments = _ENVIRONMENTS.findall(tex)
    if environments and (not display or not set(environments) <= ROWS):
        return None
    if environments:
        tex = _ENVIRONMENTS.sub("", tex)
        rows = [_Reader(row.replace("&", "")).text() for row in _ROW_BREAK.split(tex)]
        return unicodedata.normalize("NFC", "\n".join(row.strip() for row in rows if row.strip()))
    return unicodedata.normalize("NFC", _Reader(tex).text())  # `û` as one character


def _prefixed(tex: str) -> str:
    """`tex` with each infix fraction or binomial (`INFIX`) written as its macro: what stands
    before it in its group the first argument, what stands after it the second (the group:
    the braces around it, or the whole formula). Read in one pass, a stack of the groups
    open; braces that do not pair leave `tex` as written."""
    groups: list[_Group] = [_Group()]
    for piece in _PIECE.findall(tex):
        if piece == "{":
            groups.append(_Group())
        elif piece == "}":
            if len(groups) == 1:
                return tex
            inner = groups.pop().written()
            groups[-1].pieces.append("{" + inner + "}")
        elif piece[1:] in INFIX and piece[0] == "\\" and groups[-1].infix is None:
            groups[-1].infix = (len(groups[-1].pieces), INFIX[piece[1:]])
        else:
            groups[-1].pieces.append(piece)
    return groups[0].written() if len(groups) == 1 else tex


_PIECE = re.compile(r"\\[A-Za-z]+|\\.|[{}]|[^\\{}]+", re.DOTALL)
"""A control word or symbol, a brace, or a run of anything else."""


@dataclass
class _Group:
    """A brace group read so far: its pieces, and where its infix (`\\over`) stood."""

    pieces: list[str] = field(default_factory=list)
    infix: tuple[int, str] | None = None

    def written(self) -> str:
        if self.infix is None:
            return "".join(self.pieces)
        at, macro = self.infix
        before, after = "".join(self.pieces[:at]).strip(), "".join(self.pieces[at:]).strip()
        return f"\\{macro}{{{before}}}{{{after}}}"


_EQUATION = re.compile(
    r"\s*\\begin\{(?P<kind>equation\*?)\}(?P<inside>.*)\\end\{(?P=kind)\}\s*", re.DOTALL
)
"""A display that is one `equation` (a Quartz garden wraps its matrices in one)."""
_ENVIRONMENTS = re.compile(r"\\(?:begin|end)\{([^}]*)\}")
"""Each `\\begin{…}` and `\\end{…}` of a formula: its environment's name."""
_MATH_IN_TEXT = re.compile(r"(?<!\\)\$([^$]*)\$")
"""Math inside a `\\text{…}` argument (`$a$`), read as math."""
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
"""A TeX comment, to the end of its line (`\\%` is a percent sign)."""
_LINE_BREAK = re.compile(r"[ \t]*\n[ \t]*")
_ROW_BREAK = re.compile(r"\\\\(?:\s*\[\s*-?[\d.]+\s*(?:pt|em|ex|mm|cm|in|mu|bp|pc|dd|cc|sp)\s*\])?")
"""The end of a row, with the space asked for below it (`\\\\[6pt]`: not shown)."""
_ROWS_AROUND = re.compile(
    r"\s*\\begin\{(?P<kind>[A-Za-z*]+)\}(?P<inside>.*)\\end\{(?P=kind)\}\s*", re.DOTALL
)
"""A display that is one environment, whole."""
_GRID = re.compile(
    r"(?:\\left\s*(?P<open>\\?[\[({|.]|\\[lr]?[vV]ert|\\[lr]brace)\s*)?"
    r"\\begin\{(?P<kind>[A-Za-z]+)\}(?:\{[^{}]*\})?(?P<inside>.*?)\\end\{(?P=kind)\}"
    r"(?:\s*\\right\s*(?P<close>\\?[\])}|.]|\\[lr]?[vV]ert|\\[lr]brace))?",
    re.DOTALL,
)
_DELIMITERS = {"\\{": "{", "\\}": "}", "\\lbrace": "{", "\\rbrace": "}", ".": ""}


def _side_by_side(tex: str) -> bool:
    """Whether each `\\begin` is closed by the `\\end` right after it: none inside another."""
    marks = re.findall(r"\\(begin|end)\{([^}]*)\}", tex)
    return len(marks) % 2 == 0 and all(
        (marks[at][0], marks[at + 1][0]) == ("begin", "end") and marks[at][1] == marks[at + 1][1]
        for at in range(0, len(marks), 2)
    )


def _matrices(tex: str) -> str:
    """A display holding matrices as lines: each matrix a grid of its cells (centred in
    their columns; a `cases` list's left-aligned) between tall delimiters, the text around
    on its middle line.

        R = ⎡ cos θ  -sin θ ⎤
            ⎣ sin θ   cos θ ⎦
    """
    boxes: list[list[str]] = []
    at = 0
    for grid in _GRID.finditer(tex):
        if text := _one_line(tex[at : grid.start()]):
            boxes.append([text])
        boxes.append([f" {line} " for line in _grid(grid)])
        at = grid.end()
    if text := _one_line(tex[at:]):
        boxes.append([text])
    height = max(len(box) for box in boxes)
    lines = [""] * height
    for box in boxes:
        width, top = max(len(line) for line in box), (height - len(box)) // 2
        for number in range(height):
            inside = top <= number < top + len(box)
            lines[number] += (box[number - top] if inside else "").ljust(width)
    indent = min(len(line) - len(line.lstrip(" ")) for line in lines)
    return "\n".join(line[indent:].rstrip() for line in lines)


def _grid(grid: re.Match[str]) -> list[str]:
    """One matrix (or `cases` list) as lines: its rows, its cells in columns, delimited."""
    written = _ROW_BREAK.split(grid["inside"])
    rows = [[_one_line(cell) for cell in row.split("&")] for row in written]
    rows = [row for row in rows if any(row)]
    if not rows:
        return [""]
    columns = max(len(row) for row in rows)
    rows = [row + [""] * (columns - len(row)) for row in rows]
    widths = [max(len(row[column]) for row in rows) for column in range(columns)]
    cases = grid["kind"] in CASES
    lines = [
        ("   " if cases else "  ").join(
            cell.ljust(width) if cases else _centred(cell, width)
            for cell, width in zip(row, widths, strict=True)
        )
        for row in rows
    ]
    opening, closing = BRACKETS.get(grid["kind"], "  ")
    if grid["open"] or grid["close"]:
        opening = _delimiter(grid["open"])
        closing = _delimiter(grid["close"])
    return [
        f"{_piece(opening, number, len(lines))} {line} {_piece(closing, number, len(lines))}"
        for number, line in enumerate(lines)
    ]


def _centred(text: str, width: int) -> str:
    """`text` in the middle of `width` cells, a space over to the left (`-1` over ` 1`)."""
    spare = width - len(text)
    return " " * ((spare + 1) // 2) + text + " " * (spare // 2)


def _delimiter(written: str | None) -> str:
    if not written:
        return " "
    if written in _DELIMITERS:
        return _DELIMITERS[written] or " "
    if "Vert" in written:
        return "‖"
    if "vert" in written:
        return "|"
    return written.lstrip("\\") or " "


def _piece(delimiter: str, number: int, lines: int) -> str:
    """The piece of `delimiter` on line `number` of `lines`."""
    if delimiter not in TALL or lines == 1:
        return delimiter
    top, middle, bottom = TALL[delimiter]
    if number == 0:
        return top
    if number == lines - 1:
        return bottom
    if number == lines // 2 and delimiter in "{}":
        return "⎨" if delimiter == "{" else "⎬"  # a brace's point, at its middle
    return middle


def _one_line(tex: str) -> str:
    return " ".join(_Reader(tex).text().split())


@cache
def symbols() -> dict[str, str]:
    """TeX macro name → its Unicode, for macros of no argument: pylatexenc's table,
    with `MORE_SYMBOLS` over it (read at the first formula: 20 ms a page without math
    need not wait)."""
    from pylatexenc.latex2text import get_default_latex_context_db

    table: dict[str, str] = {}
    for spec in get_default_latex_context_db().iter_macro_specs():
        replacement = spec.simplify_repl  # a format (`%s/%s`) or a function takes arguments
        if isinstance(replacement, str) and "%" not in replacement:
            table[spec.macroname] = replacement
    table.update(MORE_SYMBOLS)
    return table


class _Reader:
    """One pass over a formula's tokens (`text`), arguments read as TeX reads them."""

    def __init__(self, tex: str) -> None:
        self.tokens = _TOKEN.findall(tex)
        self.at = 0

    def text(self, until: str | None = None) -> str:
        """The tokens as text up to `until` (a group's `}`, taken) or the end."""
        out: list[str] = []
        while self.at < len(self.tokens):
            token = self.tokens[self.at]
            self.at += 1
            if token == until:
                break
            out.append(self._token(token))
        return "".join(out)

    def _token(self, token: str) -> str:
        if token == "{":
            return self.text("}")
        if token in ("^", "_"):
            return _script(token, *self._argument())
        if token.startswith("\\") and len(token) > 1:
            return self._macro(token[1:], token)
        return " " if token == "~" else token  # `~`: a space no line breaks at

    def _macro(self, name: str, source: str) -> str:
        if name in SPACES:
            if name.isalpha() and self._space_next():
                self.at += 1  # `\quad 50`: the space is the quad's
            return SPACES[name]
        if name in DROPPED:
            # `\left.` is no delimiter at all; in `\large MA` the space ends the word
            if self._peek() == "." or self._space_next():
                self.at += 1
            return ""
        if name in FUNCTIONS:
            return name + self._scripts() + self._operand_space()
        if name in COLOURS:
            for _ in range(COLOURS[name]):
                self._argument(raw=True)
            return ""  # the text after (`{1)}`, or the rest for `\color`) reads as it is
        if name in TEXT_OF:
            shown = self._argument(raw=name.startswith("text"))[1]
            # math inside text (`\\text{for a matrix $a$}`) reads as math
            return _MATH_IN_TEXT.sub(lambda math: math_text(math[1]), shown)
        if name in LETTERS:
            start = self.at
            _, shown = self._argument(raw=True)
            letter = _letter(LETTERS[name], shown)
            return letter if letter is not None else source + self._written(start)
        if name in ACCENTS:
            start = self.at
            _, shown = self._argument()
            accented = _accented(shown.strip(), ACCENTS[name], over_several=name in BARS)
            return accented if accented is not None else source + self._written(start)
        if name in VECTORS or name in BOLD:
            start = self.at
            _, shown = self._argument()
            bold = _bold(shown.strip())
            if bold is not None:
                return bold
            return shown if name in BOLD else source + self._written(start)
        if name in ARROWS:  # `\\xrightarrow{f}` → `─f→`: the label on the arrow's shaft
            self._index()
            label, arrow = self._argument()[1].strip(), ARROWS[name]
            if not label:
                return arrow
            return f"─{label}{arrow}" if arrow == "→" else f"{arrow}{label}─"
        if name in STACKED:  # `\\stackrel{\\text{iid}}{\\sim}` → `∼ⁱⁱᵈ`
            top = self._argument()
            return self._argument()[1] + _script(STACKED[name], *top)
        if name in BRACES:  # `\\underbrace{a + b}_{\\text{n terms}}` → `a + b (n terms)`
            inner = self._argument()[1]
            if self._peek() != BRACES[name]:
                return inner
            self.at += 1
            return f"{inner} ({self._argument()[1].strip()})"
        if name == "pmod":  # `a \\equiv b \\pmod{m}` → `a ≡ b (mod m)`
            return f"(mod {self._argument()[1].strip()})"
        if name in BINOMIALS:
            _, top = self._argument()
            _, bottom = self._argument()
            return f"({top.strip()} choose {bottom.strip()})"
        if name == "not":  # `\\not\\in` → `∉`, where Unicode has the two as one
            start = self.at
            _, shown = self._argument()
            negated = unicodedata.normalize("NFC", shown + _SLASH_OVERLAY)
            return negated if len(negated) == 1 else source + self._written(start)
        if name in FRACTIONS:
            _, numerator = self._argument()
            _, denominator = self._argument()
            fraction = f"{_part(numerator)}/{_part(denominator)}"
            return f"({fraction})" if self._operand_next() else fraction
        if name == "sqrt":
            index = self._index()
            if index and not all(char in SUPERSCRIPTS for char in index):
                return f"{source}[{index}]{self._argument(raw=True)[0]}"  # as written
            root = "".join(SUPERSCRIPTS[char] for char in index) + "√"
            return root + _part(self._argument()[1])
        symbol = symbols().get(name)
        if symbol is None:
            return source + self._groups()  # unknown: as written, its arguments too
        if len(symbol) == 1 and _ATOM.fullmatch(symbol):  # `\partial C` is `∂C`
            self._skip_space_before_atom()
        return symbol

    def _written(self, start: int) -> str:
        """The tokens from `start` up to here, as written (spaces too: `\\overline x`)."""
        return "".join(self.tokens[start : self.at])

    def _scripts(self) -> str:
        """An operator's `_{…}` and `^{…}` that follow it, as text (`\\log_{2}` → `log₂`)."""
        scripts = []
        while (token := self._peek()) in ("_", "^"):
            self.at += 1
            scripts.append(self._token(token))
        return "".join(scripts)

    def _operand_space(self) -> str:
        """The space TeX sets between an operator and an operand written right after it
        (`\\ln{a}` → `ln a`, `\\sin\\theta` → `sin θ`), or "" (`\\sin(x)`, `\\ln a`)."""
        token = self._peek()
        if token == "{":
            return " "
        if token is not None and token.startswith("\\") and len(token) > 2:
            symbol = symbols().get(token[1:])
            if symbol is not None and len(symbol) == 1 and symbol.isalpha():
                return " "
        return ""

    def _skip_space_before_atom(self) -> None:
        """Skip the spaces that end a control word when a letter or digit follows."""
        following = self.tokens[self.at + 1] if self.at + 1 < len(self.tokens) else ""
        if self._space_next() and _ATOM.fullmatch(following):
            self.at += 1

    def _operand_next(self) -> bool:
        """Whether an operand or a script comes next, spaces skipped: what TeX sets
        beside a fraction's bar, and `a/b` would run into (`\\frac{2}{3}x` is not `2/3x`,
        read as 2/(3x); `\\frac{1}{2}^n` is not `1/2ⁿ`)."""
        at = self.at
        while at < len(self.tokens) and self.tokens[at].isspace():
            at += 1
        if at == len(self.tokens):
            return False
        token = self.tokens[at]
        if token[0].isalnum() or token in ("(", "{", "^", "_"):
            return True
        name = token[1:]
        if not token.startswith("\\") or not name.isalpha():
            return False
        if name in OPERANDS:
            return True
        symbol = symbols().get(name)
        return symbol is not None and len(symbol) == 1 and symbol.isalpha()

    def _space_next(self) -> bool:
        token = self._peek()
        return token is not None and token.isspace()

    def _index(self) -> str:
        """An optional `[n]` argument's text ("" when there is none)."""
        if self._peek() != "[":
            return ""
        self.at += 1
        return self.text("]")

    def _groups(self) -> str:
        """The `{…}` arguments that follow, as written."""
        written = []
        while self._peek() == "{":
            written.append(self._argument(raw=True)[0])
        return "".join(written)

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _argument(self, *, raw: bool = False) -> tuple[str, str]:
        """The next argument (a `{group}` or one token, spaces before it skipped): as
        written, and as text (`raw`: the group's characters as they are)."""
        while (token := self._peek()) is not None and token.isspace():
            self.at += 1
        if token is None:
            return "", ""
        start = self.at
        self.at += 1
        if token != "{":
            return token, token if raw else self._token(token)
        if raw:
            depth = 1
            while self.at < len(self.tokens) and depth:
                depth += {"{": 1, "}": -1}.get(self.tokens[self.at], 0)
                self.at += 1
            inner = "".join(self.tokens[start + 1 : self.at - 1])
            return "".join(self.tokens[start : self.at]), inner
        shown = self.text("}")
        return "".join(self.tokens[start : self.at]), shown


def _script(mark: str, source: str, shown: str) -> str:
    """A superscript (`mark` `^`) or subscript (`_`) written `source`, reading `shown`:
    in Unicode's script letters when it has each, else after `mark`."""
    table = SUPERSCRIPTS if mark == "^" else SUBSCRIPTS
    if mark == "^" and shown and set(shown) <= {"'", "′"}:
        return "′" * len(shown)  # `x^{\\prime}` is `x′`
    if shown and all(char in table for char in shown):
        return "".join(table[char] for char in shown)
    if source.startswith("{") and len(shown) != 1:
        return f"{mark}{{{shown}}}"  # `M_{n × n}`: the braces say what is under
    return mark + shown  # one character needs none: `x_{\\alpha}` is `x_α`


def _part(text: str) -> str:
    """A fraction's numerator or denominator, in parentheses unless it is one atom."""
    text = text.strip()
    if _ATOM.fullmatch(text) or (text.startswith("(") and text.endswith(")")):
        return text
    return f"({text})"


def _accented(text: str, accent: str, *, over_several: bool = False) -> str | None:
    """`text` with the combining mark `accent` over it (`CIRCUMFLEX ACCENT`): one
    character as Unicode composes the two (`u` → `û`), else the character and the mark
    (`ρ̂`); over several letters and digits, when `over_several`, a line over each
    (`AB` → `A̅B̅`); None for anything else."""
    bases = [char for char in text if not unicodedata.combining(char)]
    if len(bases) == 1 and not text[0].isspace() and not unicodedata.combining(text[0]):
        return unicodedata.normalize("NFC", text + unicodedata.lookup(f"COMBINING {accent}"))
    if over_several and len(bases) == len(text) > 1 and text.isalnum():
        line = unicodedata.lookup("COMBINING OVERLINE")
        return "".join(char + line for char in text)
    return None


def _bold(text: str) -> str | None:
    """`text`'s letters and digits in Unicode's mathematical bold (`v` → `𝐯`, `0` → `𝟎`),
    or None when it holds anything else."""
    if not text or not all(char.isascii() and char.isalnum() for char in text):
        return None
    return "".join(
        unicodedata.lookup(
            f"MATHEMATICAL BOLD DIGIT {unicodedata.name(char).split()[-1]}"
            if char.isdigit()
            else f"MATHEMATICAL BOLD {'CAPITAL' if char.isupper() else 'SMALL'} {char.upper()}"
        )
        for char in text
    )


def _letter(alphabet: str, letter: str) -> str | None:
    """`letter` in `alphabet` (`DOUBLE-STRUCK`, …), or None when Unicode has no such; a
    digit too (`\\mathbb{1}`, the indicator function, → `𝟙`)."""
    if len(letter) == 1 and "0" <= letter <= "9":
        digit = unicodedata.name(letter).rpartition(" ")[2]  # `DIGIT ONE` → `ONE`
        try:
            return unicodedata.lookup(f"MATHEMATICAL {alphabet} DIGIT {digit}")
        except KeyError:
            return None
    if len(letter) != 1 or not letter.isalpha():
        return None
    plain = f"{alphabet} {'CAPITAL' if letter.isupper() else 'SMALL'} {letter.upper()}"
    for name in (plain, f"MATHEMATICAL {plain}"):  # `ℝ` is letter-like, `𝔸` mathematical
        try:
            return unicodedata.lookup(name)
        except KeyError:
            continue
    return None
