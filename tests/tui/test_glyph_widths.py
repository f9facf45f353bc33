"""Every glyph the TUI draws has one width in every terminal (seen in tmux at 80×24: the
`🖼` image placeholder shifted the rest of its row by a cell).

Rich lays rows out by its own width table; a terminal draws by its own. They agree on a
character whose East Asian width is unambiguous and unchanged between Unicode versions,
and that is no pictograph beyond the Basic Multilingual Plane (`U+1F000` on: emoji,
drawn two cells wide by many terminals whatever its Unicode width says). A combining mark
(math's accents: `ρ̂`) takes no cell of its own, in Rich and in the terminal.
"""

from __future__ import annotations

import ast
import unicodedata
from pathlib import Path

from rich.cells import cell_len
from textual.content import Content

import okf_explorer
from okf_explorer.core.okf import meta as okf_meta
from okf_explorer.tui.markdown.inline import (
    CALLOUT_KINDS,
    EMBED_GLYPH,
    IMAGE_GLYPH,
    TASK_GLYPHS,
    callout_title,
    inline_content,
)
from okf_explorer.tui.markdown.links import linkify_body
from okf_explorer.tui.markdown.parser import parse

PACKAGE = Path(okf_explorer.__file__).parent


def width_problem(char: str) -> str | None:
    """Why terminals may draw `char` at another width than Rich counts, or None."""
    if ord(char) >= 0x1F000:
        return "a pictograph beyond the BMP (one or two cells, by terminal)"
    if unicodedata.combining(char):  # drawn over the character before it (tmux too)
        return None if cell_len(char) == 0 else f"Rich counts {cell_len(char)} cells, not 0"
    expected = 2 if unicodedata.east_asian_width(char) in "WF" else 1
    if cell_len(char) != expected:
        return f"Rich counts {cell_len(char)} cells, its East Asian width says {expected}"
    return None


def literal_chars(path: Path) -> set[str]:
    """The non-ASCII characters of a module's string literals."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.update(char for char in node.value if ord(char) > 127)
    return found


def test_the_placeholder_and_marker_glyphs_have_one_width() -> None:
    glyphs = {IMAGE_GLYPH, EMBED_GLYPH, *TASK_GLYPHS}
    glyphs |= {glyph for glyph, _ in CALLOUT_KINDS.values() if glyph}  # a disclosure has none
    glyphs |= {*okf_meta.STATUS_GLYPHS.values(), *okf_meta.TRUST_GLYPHS.values()}
    problems = {glyph: width_problem(glyph) for glyph in glyphs}
    assert {glyph: why for glyph, why in problems.items() if why} == {}


def test_no_string_the_tui_draws_holds_a_glyph_of_two_widths() -> None:
    drawn = (PACKAGE / "core" / "okf" / "meta.py", PACKAGE / "core" / "math_text.py")
    modules = [*sorted((PACKAGE / "tui").rglob("*.py")), *drawn]
    problems = {
        f"{char} U+{ord(char):04X} in {path.name}": why
        for path in modules
        for char in sorted(literal_chars(path))
        if (why := width_problem(char))
    }
    assert problems == {}


def test_an_image_line_is_as_wide_as_rich_counts_it() -> None:
    """`![[shot.png]]` reads `▭ shot.png`: the glyph, a space, the name, one cell each."""
    tokens = parse(linkify_body("![[shot.png]] after\n"))
    line: Content = inline_content(next(token for token in tokens if token.type == "inline"))
    assert line.plain == f"{IMAGE_GLYPH} shot.png after"
    assert line.cell_length == len(line.plain)


def test_no_callout_s_glyph_is_read_as_its_fold_marker() -> None:
    """A study vault's folded `> [!example]- A. Ratemaking` read `▸ ▸ A. Ratemaking`: the
    example's glyph was the folded marker itself."""
    markers = {"▸", "▾"}
    assert {glyph for glyph, _ in CALLOUT_KINDS.values()} & markers == set()
    title = callout_title("example", Content("A. Ratemaking"), fold="-", folded=True)
    assert title.plain == "▸ ⋮ A. Ratemaking"
