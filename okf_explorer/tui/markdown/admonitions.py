"""Admonitions of documentation sites, drawn as the callouts they are.

Knowledge bases that take in a project's documentation keep its Markdown as written, and
documentation sites write their notes and warnings in their own syntax, not Obsidian's
`> [!note]`. Read as plain Markdown, MkDocs' body (indented four spaces) ran on into the
sentence `!!! note "Embedding Requirement"`, and a code block inside it showed its
backticks; Docusaurus' `:::tip` showed its colons. Both are read here, with
mdit-py-plugins' parsers, and given the tokens of a callout (`parser`'s
`blockquote_open` with `meta["callout"]`, then a title paragraph), so everything that
draws, folds or walks a callout takes them as one:

- MkDocs (Python-Markdown's `admonition`, pymdownx's `details`): `!!! note "Title"`,
  `??? tip` (folded), `???+ tip` (open), the body indented under it. The head must be
  as Python-Markdown reads it (a type, then optionally a quoted title) and have a body,
  so a line of prose such as `!!! IMPORTANT !!!` stays prose.
- Docusaurus and VitePress: `:::note`, `:::tip[Title]`, `::: warning Title`, ending at
  `:::` (more colons for one inside another), for the types those sites draw
  (`DOCS_KINDS`); `::: details Title` folds. LangChain's docs mark what holds for one
  language with `:::python` and `:::js` … `:::`: each is read as a content tab named by
  its language (`LANGUAGE_TABS`). Another word after the colons (a documentation
  generator's `::: package.module` directive, a site's `:::ruby` block) is left as
  written.

MkDocs' content tabs (pymdownx's `tabbed`: `=== "OpenAI"`, the tab's body indented under
it) are read here too, each tab a callout titled by its name (of kind `TAB`, so each
tab's body shows, one under the other), where the body had been a code block.

With no title, the type names the callout (`Note`), as Obsidian names `> [!note]`.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.admon.index import admonition
from mdit_py_plugins.container import container_plugin

from okf_explorer.tui.markdown.callout_tokens import callout_head, tokenize_body

__all__ = ["DOCS_KINDS", "LANGUAGE_TABS", "TAB", "use_admonitions"]

MKDOCS_HEAD = re.compile(r'[ \t]*(?:!!!|\?\?\?\+?) ?([\w-]+(?: +[\w-]+)*)(?: +"([^"\n]*)")? *')
"""An admonition's first line as Python-Markdown reads it: the marker, its types (the
first is the callout's), then a title in double quotes."""
HEAD = "admonition_head"
"""The `meta` key of an MkDocs admonition's opening token: its (type, title), read once."""
FOLDS = {"!!!": "", "???": "-", "???+": "+"}
"""Each MkDocs marker's fold, as a callout writes it (`-` folded, `+` open)."""
DOCS_KINDS = frozenset(
    {"note", "tip", "info", "warning", "danger", "caution", "important", "success"}
    | {"secondary", "details"}
)
"""The admonition types Docusaurus and VitePress draw."""
LANGUAGE_TABS = {"python": "Python", "js": "JavaScript"}
"""LangChain's docs' language blocks (`:::python`), read as content tabs by these names."""
DOCS_HEAD = re.compile(r"\s*([A-Za-z]+)(?:\[([^\]\n]*)\]|[ \t]+([^\n]*?))?\s*")
"""What follows `:::`: a type, then a title in brackets (Docusaurus) or after a space."""
DOCS_CONTAINER = "docs_admonition"
TAB_HEAD = re.compile(r'[ \t]*===[!+]? +"([^"\n]*)" *')
"""A content tab's first line: `===`, then its name in double quotes."""
TAB = "tab"
"""The callout kind a content tab is drawn as."""


def use_admonitions(md: MarkdownIt) -> None:
    """Read both kinds of admonition with `md`, as callouts (the module doc)."""
    md.block.ruler.before(
        "fence",
        "mkdocs_admonition",
        _mkdocs,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.block.ruler.before(
        "fence", "content_tab", _content_tab, {"alt": ["paragraph", "reference", "blockquote"]}
    )
    container_plugin(md, DOCS_CONTAINER, validate=_is_docs_head)
    md.core.ruler.after("block", "admonitions_as_callouts", _as_callouts)


def _mkdocs(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """mdit-py-plugins' admonition, for a head Python-Markdown reads and that has a body."""
    at = state.bMarks[start] + state.tShift[start]
    if at >= state.eMarks[start] or state.src[at] not in "!?":
        return False  # tried at every block's start: one character first
    head = MKDOCS_HEAD.fullmatch(state.src[state.bMarks[start] : state.eMarks[start]])
    if head is None or not _has_body(state, start, end):
        return False
    opening = len(state.tokens)
    if not admonition(state, start, end, silent):
        return False
    if not silent:  # the type and title as Python-Markdown reads them, for `_as_callouts`
        kind = head[1].split()[0].lower()
        title = head[2] or kind.replace("-", " ").capitalize()
        state.tokens[opening].meta[HEAD] = (kind, title)
    return True


def _content_tab(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A content tab (`=== "Name"` over its indented body) as an open callout's tokens."""
    at = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("===", at) or state.sCount[start] - state.blkIndent >= 4:
        return False  # not a tab, or indented code
    head = TAB_HEAD.fullmatch(state.src[state.bMarks[start] : state.eMarks[start]])
    if head is None or not _has_body(state, start, end):
        return False
    if silent:
        return True
    indent = state.sCount[start] + 4
    last = start + 1
    for line in range(start + 1, end):  # the body: its lines indented, blank lines within
        if state.isEmpty(line):
            continue
        if state.sCount[line] < indent:
            break
        last = line + 1
    state.tokens += callout_head(TAB, "", head[1] or TAB.capitalize(), state.level, [start, last])
    state.level += 1
    tokenize_body(state, start + 1, last, indent)
    state.push("blockquote_close", "blockquote", -1)  # the level back to the tab's
    state.line = last
    return True


def _has_body(state: StateBlock, start: int, end: int) -> bool:
    """The next line with text is indented under the head (blank lines may come between)."""
    for line in range(start + 1, end):
        if state.bMarks[line] + state.tShift[line] < state.eMarks[line]:
            return state.sCount[line] >= state.sCount[start] + 4
    return False


def _is_docs_head(params: str, _markup: str) -> bool:
    return _docs_head(params) is not None


def _docs_head(params: str) -> tuple[str, str] | None:
    """What follows `:::`, as (type, title: the type's name when none is written; a
    language block's: a tab named by its language); None when it names no type those
    sites draw."""
    head = DOCS_HEAD.fullmatch(params)
    if head is not None and not (head[2] or head[3]) and head[1] in LANGUAGE_TABS:
        return TAB, LANGUAGE_TABS[head[1]]
    if head is None or (kind := head[1].lower()) not in DOCS_KINDS:
        return None
    return kind, (head[2] or head[3] or "").strip() or kind.capitalize()


def _as_callouts(state: StateCore) -> None:
    """Each admonition's tokens as a callout's: its quote, its title, its body."""
    tokens = state.tokens
    openings = ("admonition_open", f"container_{DOCS_CONTAINER}_open")
    if not any(token.type in openings for token in tokens):
        return
    made: list[Token] = []
    in_title = False
    for token in tokens:
        if token.type in ("admonition_title_open", "admonition_title_close"):
            in_title = token.type == "admonition_title_open"  # its own: `HEAD` names it
        elif in_title:
            continue
        elif token.type == "admonition_open":
            kind, title = token.meta[HEAD]
            made += callout_head(kind, FOLDS.get(token.markup, ""), title, token.level, token.map)
        elif token.type == f"container_{DOCS_CONTAINER}_open":
            kind, title = _docs_head(token.info) or ("note", "Note")  # its validator read it
            fold = "-" if kind == "details" else ""
            made += callout_head(kind, fold, title, token.level, token.map)
        elif token.type in ("admonition_close", f"container_{DOCS_CONTAINER}_close"):
            made.append(Token("blockquote_close", "blockquote", -1, level=token.level))
        else:
            made.append(token)
    tokens[:] = made
