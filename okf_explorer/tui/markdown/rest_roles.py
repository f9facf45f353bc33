"""reStructuredText roles left in a Markdown page, read as Sphinx shows them.

Documentation written for Sphinx marks its terms with roles (`` :method:`db.find()` ``,
`` :func:`~pytest.raises` ``, `` :ref:`Indexes <index-types>` ``, `` :issue:`SERVER-1` ``),
and a knowledge base that converts such docs to Markdown keeps many of them: the
framework-docs wiki holds 35,000 in its MongoDB, pytest and SQLAlchemy pages, each shown
as `:method:` before a code span. A role reads as Sphinx renders it:

- a role naming code (`CODE_ROLES`: an API's methods, functions, classes, commands,
  options, settings, files) as inline code;
- any other (`ref`, `doc`, `term`, `issue`, `guilabel`, a site's own such as `red`) as
  its text;
- `text <target>` as its text; `~a.b.c` as `c` and `!x` as `x`, as Sphinx writes them.

A role must stand apart from the word before it (`a:b:` is no role) and hold one line.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

__all__ = ["CODE_ROLES", "use_rest_roles"]

CODE_ROLES = frozenset(
    {"func", "meth", "class", "attr", "mod", "obj", "data", "exc", "const", "type"}
    | {"option", "envvar", "command", "program", "file", "samp", "kbd", "literal", "code"}
    | {"method", "binary", "dbcommand", "pipeline", "expression", "query", "setting"}
    | {"parameter", "rsconf", "update", "serverstatus", "readconcern", "authaction"}
    | {"authrole", "urioption", "limit", "error", "operator", "confval", "fixture"}
)
"""Roles Sphinx (or the MongoDB docs' own domains) draws as code; a domain's prefix, as
in `py:func`, is left out before looking."""
_ROLE = re.compile(r":(?P<role>[a-z][\w.+-]*(?::[a-z][\w+-]*)?):`(?P<content>[^`\n]+)`")
_TARGET = re.compile(r"(?P<text>.*?)\s*<[^<>\n]*>\s*")


def use_rest_roles(md: MarkdownIt) -> None:
    """Read reStructuredText roles with `md` (the module doc)."""
    md.inline.ruler.before("backticks", "rest_role", _role)


def _role(state: StateInline, silent: bool) -> bool:
    at = state.pos
    if state.src[at] != ":" or (at and (state.src[at - 1].isalnum() or state.src[at - 1] in "`:")):
        return False
    found = _ROLE.match(state.src, at, state.posMax)
    if found is None:
        return False
    if not silent:
        role = found["role"].rsplit(":", 1)[-1]
        shown = _shown(found["content"])
        if role in CODE_ROLES:
            token = state.push("code_inline", "code", 0)
            token.markup = "`"
        else:
            token = state.push("text", "", 0)
        token.content = shown
    state.pos = found.end()
    return True


def _shown(content: str) -> str:
    """A role's content as Sphinx shows it: `text <target>` as `text`, `~a.b` as `b`."""
    if (titled := _TARGET.fullmatch(content)) is not None and titled["text"]:
        return titled["text"]
    if content.startswith("~"):
        return content[1:].rsplit(".", 1)[-1]
    return content.removeprefix("!")
