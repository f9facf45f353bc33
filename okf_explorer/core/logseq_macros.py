"""A Logseq graph's own macros, called in a page's text, as their templates:
`{{docs-base-url Property}}` → `https://docs.logseq.com/#/page/Property`.

A graph's settings (`logseq/config.edn`, read by `sources.folder.logseq`) may define
macros, `:macros {"docs-base-url" "https://docs.logseq.com/#/page/$1"}`, and Logseq shows a
call as the template with `$1`, `$2` … as the arguments (split at commas); a `$n` past them
stays, as Logseq leaves it. A template that is hiccup (`[:mark "$1"]`, HTML Logseq draws)
and any other `{{…}}` stay as written, and so does a call inside code. The explorer draws a
page so (`tui.markdown.logseq`) and search reads it so (`sources.folder.logseq`), from this
one `MacroCalls`.

Hostile graphs are bounded: the calls add at most `MACROS_ADD` characters to a page (a 50 KB
template called 20,000 times would add 1 GB); each call is measured before it is made, and
the calls past the bound stay as written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from okf_explorer.core.links.grammar import outside_code

__all__ = ["MACROS_ADD", "MacroCalls"]

MACROS_ADD = 1_000_000
"""Characters the macros called on one page may add to it, at most."""

_CALL = re.compile(r"\{\{(?P<name>[\w.-]+)(?:[ \t]+(?P<args>[^{}\n]*?))?[ \t]*\}\}")
_ARGUMENT = re.compile(r"\$(\d+)")


class MacroCalls:
    """The calls of a graph's `macros` (templates by name) on one page, filled in: call
    it on the page's text, or on each of its lines in turn (one budget for the page)."""

    __slots__ = ("macros", "room")

    def __init__(self, macros: Mapping[str, str]) -> None:
        self.macros = {name: text for name, text in macros.items() if _shown(text)}
        self.room = MACROS_ADD

    def __call__(self, text: str) -> str:
        """`text` with each call of one of the macros outside code as its template filled."""
        if not self.macros or "{{" not in text:
            return text
        return outside_code(text, lambda part: _CALL.sub(self._filled, part))

    def _filled(self, found: re.Match[str]) -> str:
        template = self.macros.get(found["name"])
        if template is None:
            return found[0]
        given = [arg.strip() for arg in found["args"].split(",")] if found["args"] else []
        slots = [int(number) for number in _ARGUMENT.findall(template)]
        size = len(template) + sum(len(given[n - 1]) for n in slots if 0 < n <= len(given))
        if size > self.room:  # measured before it is made: `$1` a million times is no bomb
            return found[0]
        self.room -= size
        return _ARGUMENT.sub(
            lambda slot: given[int(slot[1]) - 1] if 0 < int(slot[1]) <= len(given) else slot[0],
            template,
        )


def _shown(template: str) -> bool:
    """Whether a macro's template is text to show (hiccup, `[:tag …]`, is not)."""
    return not template.lstrip().startswith("[:")
