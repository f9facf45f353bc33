"""A Dendron note as the Markdown this package draws: its variables filled in.

Dendron writes a note's frontmatter into its text where the text says `{{fm.desc}}`
(175 notes of Dendron's site vault open with `## Summary` then `{{fm.desc}}`): the
value of the key, `{{fm.custom.shortcuts}}` a key of a key. A variable naming no value
that reads as text (a missing key, a list, a mapping), one in code (a fence, an inline
span), and any other `{{…}}` (Handlebars' `{{#if}}`, `{{CURRENT_DAY}}`) stay as written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from okf_explorer.core.links.grammar import outside_code

__all__ = ["dendron_markdown"]

_VARIABLE = re.compile(r"\{\{\s*fm\.([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}")


def dendron_markdown(text: str, fields: Mapping[str, Any]) -> str:
    """`text` with each `{{fm.key}}` outside code as the note's value of `key`."""
    if "{{" not in text:
        return text

    def value(found: re.Match[str]) -> str:
        current: Any = fields
        for key in found[1].split("."):
            if not isinstance(current, Mapping) or key not in current:
                return found[0]
            current = current[key]
        if isinstance(current, bool) or not isinstance(current, (str, int, float)):
            return found[0]
        return str(current)

    return outside_code(text, lambda part: _VARIABLE.sub(value, part))
