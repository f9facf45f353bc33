"""A frontmatter block the body keeps, shown as the YAML it is.

A knowledge base that takes in another site's pages writes its own frontmatter and keeps
the page as it came, its frontmatter included: an LLM-kept wiki of framework docs has
thousands of bodies that open with the source's `---` / `id: …` / `title: …` / `---`.
Read as Markdown, the first `---` is a rule and the lines down to the second one a
heading made of every key (`id: ecmascript-modules title: ECMAScript Modules`, ten keys
on a Hugo page). A file whose frontmatter follows a blank line or a byte-order mark
shows the same. Such a block, opening the body (only blank lines before it) and made of
YAML's lines (a `key:` first, then keys, indented lines, list items, comments), is shown
as a `yaml` code box; anything else stays a rule and what follows it.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

__all__ = ["MAX_KEPT_LINES", "use_kept_frontmatter"]

MAX_KEPT_LINES = 200
"""Lines a kept block may have before its closing `---` (a longer run is not one)."""
_FENCE = re.compile(r"---[ \t]*")
_KEY = re.compile(r"[A-Za-z_][\w.-]*:(?:[ \t].*)?")
"""A YAML key's line (`title: ECMAScript Modules`, `tags:`)."""
_YAML_LINE = re.compile(rf"(?:{_KEY.pattern}|[ \t]+\S.*|-(?:[ \t].*)?|#.*|[ \t]*)")
"""Any line of such a block: a key's, an indented one, a list item, a comment, a blank."""


def use_kept_frontmatter(md: MarkdownIt) -> None:
    """Read a kept frontmatter block with `md` as a `yaml` fence (the module doc)."""
    md.block.ruler.before("hr", "kept_frontmatter", _kept_frontmatter)


def _kept_frontmatter(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    if state.level or state.blkIndent or not state.src.startswith("---", state.bMarks[start]):
        return False  # tried at every block's start: three characters first
    if not _FENCE.fullmatch(_line(state, start)):
        return False
    if any(not state.isEmpty(line) for line in range(start)):
        return False
    closing = None
    for line in range(start + 1, min(end, start + 2 + MAX_KEPT_LINES)):
        text = _line(state, line)
        if _FENCE.fullmatch(text):
            closing = line
            break
        if not _YAML_LINE.fullmatch(text):
            return False
    if closing is None or closing == start + 1 or not _KEY.fullmatch(_line(state, start + 1)):
        return False
    if silent:
        return True
    token = state.push("fence", "code", 0)
    token.info, token.markup, token.map = "yaml", "---", [start, closing + 1]
    token.content = "".join(_line(state, line) + "\n" for line in range(start + 1, closing))
    state.line = closing + 1
    return True


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] : state.eMarks[line]]
