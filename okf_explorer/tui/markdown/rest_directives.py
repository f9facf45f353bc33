"""reStructuredText directives left in docs converted from Sphinx, drawn as Sphinx draws
them.

An LLM-kept wiki of framework docs keeps the pages of Sphinx sites (pytest, MongoDB,
SQLAlchemy) converted to Markdown, and the conversion leaves some directives as written:
466 `.. versionadded::` / `.. versionchanged::` / `.. deprecated::`, 199 `.. code-block::`
and `.. sourcecode::`, and admonitions (`.. note::`, `.. seealso::`). Each showed as its
directive line run into the text, a code block's code as a paragraph.

A directive standing at the start of a line (`.. name:: argument`), its options
(`:caption: x`) and body indented under it, is read here:

- `code-block`, `sourcecode`, `code`: a code block of its language, the body its code;
- `versionadded`, `versionchanged`, `deprecated`: a callout titled as Sphinx words it
  (`New in version 9.0`, `Changed in version 5.4`, `Deprecated since version 3.1`), the
  body, if any, under it;
- `note`, `tip`, `hint`, `important`, `warning`, `caution`, `danger`, `attention`,
  `error`, `seealso`: a callout of its kind (`See also`), the argument its first line.

- `figure`, `image`: the picture, as `![alt](path)` shows it (its `:alt:` option the
  label), a figure's caption under it.

Any other directive (`.. include::`, whose file the wiki does not hold, `.. tab::`) stays
as written.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from okf_explorer.tui.markdown.callout_tokens import callout_head, push_paragraph, tokenize_body

__all__ = ["use_rest_directives"]

CODE = frozenset({"code-block", "sourcecode", "code"})
VERSIONS = {
    "versionadded": ("info", "New in version"),
    "versionchanged": ("info", "Changed in version"),
    "deprecated": ("warning", "Deprecated since version"),
}
"""A version directive, the callout kind it is drawn as and the words before its version."""
ADMONITIONS = {
    "note": "note", "tip": "tip", "hint": "tip", "important": "important",
    "warning": "warning", "caution": "caution", "danger": "danger", "attention": "warning",
    "error": "danger", "seealso": "info",
}  # fmt: skip
"""An admonition directive and the callout kind it is drawn as."""
TITLES = {"seealso": "See also"}
IMAGES = frozenset({"figure", "image"})
"""Directives that show a picture: drawn as `![alt](path)` is, a figure's caption under it."""

_DIRECTIVE = re.compile(r"[ \t]*\.\. ([a-z][a-z-]*)::(?:[ \t]+(.*?))?[ \t]*")
_OPTION = re.compile(r"[ \t]+:[\w-]+:.*")
_ALT = re.compile(r"[ \t]+:alt:[ \t]*(.*?)[ \t]*")


def use_rest_directives(md: MarkdownIt) -> None:
    """Read the directives above with `md` (the module doc)."""
    md.block.ruler.before(
        "paragraph", "rest_directive", _directive, {"alt": ["paragraph", "reference", "list"]}
    )


def _directive(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    at = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith(".. ", at) or state.sCount[start] - state.blkIndent >= 4:
        return False  # tried at every block's start: three characters first
    head = _DIRECTIVE.fullmatch(state.src[state.bMarks[start] : state.eMarks[start]])
    if head is None:
        return False
    name, argument = head[1], head[2] or ""
    if not (name in CODE or name in VERSIONS or name in ADMONITIONS or name in IMAGES):
        return False
    if name in IMAGES and (not argument or "<" in argument or ">" in argument):
        return False
    first, last = _body(state, start, end)
    if name in CODE and first == last:
        return False  # a code block with no code
    if silent:
        return True
    where = [start, last]
    if name in IMAGES:
        alt = _alt(state, start, first) or ""
        push_paragraph(state, f"![{_escaped(alt)}](<{argument}>)", start)
        if name == "figure" and first < last:  # its caption
            tokenize_body(state, first, last, state.sCount[first])
    elif name in CODE:
        token = state.push("fence", "code", 0)
        token.info, token.markup, token.map = argument, "```", where
        token.content = _dedented(state, first, last)
    else:
        kind, title = _callout(name, argument)
        state.tokens += callout_head(kind, "", title, state.level, where)
        state.level += 1
        if name in ADMONITIONS and argument:
            push_paragraph(state, argument, start)
        if first < last:
            indents = [state.sCount[line] for line in range(first, last) if not state.isEmpty(line)]
            tokenize_body(state, first, last, min(indents))
        state.push("blockquote_close", "blockquote", -1)  # the level back to the directive's
    state.line = last
    return True


def _body(state: StateBlock, start: int, end: int) -> tuple[int, int]:
    """The lines of the body under the directive on `start` (its options skipped): from
    the first line indented under it to the last; blank lines within it."""
    indent = state.sCount[start]
    line = start + 1
    while line < end and _OPTION.fullmatch(state.src[state.bMarks[line] : state.eMarks[line]]):
        line += 1
    first = line
    last = line
    for line in range(first, end):
        if state.isEmpty(line):
            continue
        if state.sCount[line] <= indent:
            break
        last = line + 1
    while first < last and state.isEmpty(first):
        first += 1
    return first, max(first, last)


def _alt(state: StateBlock, start: int, first: int) -> str | None:
    """The `:alt:` option among the lines between a directive on `start` and its body."""
    for line in range(start + 1, first):
        if alt := _ALT.fullmatch(state.src[state.bMarks[line] : state.eMarks[line]]):
            return alt[1]
    return None


def _escaped(text: str) -> str:
    """`text` for an image's label: its brackets and backslashes escaped."""
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def _dedented(state: StateBlock, first: int, last: int) -> str:
    lines = [state.src[state.bMarks[line] : state.eMarks[line]] for line in range(first, last)]
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "".join(line[indent:] + "\n" for line in lines)


def _callout(name: str, argument: str) -> tuple[str, str]:
    if name in VERSIONS:
        kind, words = VERSIONS[name]
        return kind, f"{words} {argument}".strip()
    return ADMONITIONS[name], TITLES.get(name, name.capitalize())
