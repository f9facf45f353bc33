"""Dendron's links: `[[label|note]]` names the note last, the other way round.

Obsidian, Foam and SPEC §1 write `[[target|label]]`; Dendron writes the label first,
`[[Office Hours|community.events.office-hours]]`, and may name the vault the note is in,
`[[docs|dendron://dendron.dendron-site/dendron.ref.commands#lookup]]` (an embed too:
`![[dendron://site/careers.mission]]`). Read as written, a third of the links of
Dendron's own site vault dangled, each to its label. `dendron_links` writes each as
the `[[target|label]]` it means, the vault prefix left out (a folder is one vault), so
every reader of a Dendron page's links reads the note it names; `dendron_as_written`
turns them back for text shown as the page writes it (a link's context in `serve`).

Only wiki links are turned: Markdown links, code (fences and inline spans) and escaped
brackets are left as they are; a table's escaped bar `\\|` stays escaped.
"""

from __future__ import annotations

import re

from okf_explorer.core.links.grammar import outside_code

__all__ = ["dendron_as_written", "dendron_links"]

_WIKI = re.compile(r"(?<!\\)(!?)\[\[([^\[\]\n]+?)\]\]")
_BAR = re.compile(r"\\?\|")
_VAULT = re.compile(r"dendron://[^/\]|#\n]+/")


def dendron_links(text: str) -> str:
    """`text` with each Dendron wiki link written as the link it means (module doc)."""
    if "[[" not in text:
        return text
    return outside_code(text, lambda part: _WIKI.sub(_turned, part))


def dendron_as_written(text: str) -> str:
    """`dendron_links` undone, but for the vault prefix it left out: each
    `[[target|label]]` as `[[label|target]]` (every such link of a Dendron page was
    turned)."""
    if "[[" not in text:
        return text
    return outside_code(text, lambda part: _WIKI.sub(_swapped, part))


def _turned(found: re.Match[str]) -> str:
    bang, inner = found[1], found[2]
    bar = _BAR.search(inner)
    if bar is None:
        return f"{bang}[[{_VAULT.sub('', inner, count=1)}]]"
    label, target = inner[: bar.start()], inner[bar.end() :]
    return f"{bang}[[{_VAULT.sub('', target, count=1).strip()}{bar[0]}{label.strip()}]]"


def _swapped(found: re.Match[str]) -> str:
    bang, inner = found[1], found[2]
    bar = _BAR.search(inner)
    if bar is None:
        return found[0]
    return f"{bang}[[{inner[bar.end() :]}{bar[0]}{inner[: bar.start()]}]]"
