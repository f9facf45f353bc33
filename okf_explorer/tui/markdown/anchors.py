"""Headings and block ids as link anchors (`[[Page#Heading]]`, `[[Page#^block]]`).

Obsidian matches a heading anchor against the heading's text, ignoring case and
the punctuation it cannot carry in a link (`#`, `|`, `^`, `:`, `%`, brackets);
`heading_key` is that comparison. `section_of` cuts the part of a page an embed
(`![[Page#Heading]]`, `![[Page#^block]]`) shows.
"""

from __future__ import annotations

import re

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError, PageNotFound
from okf_explorer.core.links.grammar import prose_ranges

_NOT_KEY = re.compile(r"[^\w]+")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$", re.MULTILINE)


def heading_key(text: str) -> str:
    """`Usage & limits` and `usage-limits` compare equal: lowercase words joined by `-`."""
    return _NOT_KEY.sub("-", text.lower()).strip("-")


def is_block_anchor(anchor: str) -> bool:
    return anchor.startswith("^")


def section_of(markdown: str, anchor: str | None) -> str | None:
    """The text `anchor` names in `markdown`: the whole text (no anchor), a heading
    and what follows it up to the next heading of the same or a higher level, or the
    paragraph (or list item) ending in ` ^block`. None when it is not there."""
    if not anchor:
        return markdown
    if is_block_anchor(anchor):
        return _block(markdown, anchor[1:])
    headings = _headings(markdown)
    key = heading_key(anchor)
    for position, (start, level, text) in enumerate(headings):
        if heading_key(text) == key:
            end = next(
                (later for later, deeper, _ in headings[position + 1 :] if deeper <= level),
                len(markdown),
            )
            return markdown[start:end].rstrip()
    return None


def _headings(markdown: str) -> list[tuple[int, int, str]]:
    """(offset, level, text) of each ATX heading outside code."""
    found: list[tuple[int, int, str]] = []
    for start, end in prose_ranges(markdown):
        for match in _HEADING.finditer(markdown, start, end):
            found.append((match.start(), len(match.group(1)), match.group(2)))
    return found


def _block(markdown: str, block_id: str) -> str | None:
    pattern = re.compile(rf"(?:^|[ \t]+)\^{re.escape(block_id)}[ \t]*$", re.MULTILINE)
    match = pattern.search(markdown)
    if match is None:
        return None
    start = markdown.rfind("\n\n", 0, match.start())
    text = markdown[start + 2 if start >= 0 else 0 : match.start()].strip()
    if not text:  # `^id` on a line of its own: the block before it
        before = markdown[: max(0, start)].rstrip()
        text = before[before.rfind("\n\n") + 2 if "\n\n" in before else 0 :]
    lines = text.splitlines()
    if lines and lines[-1].lstrip().startswith(("- ", "* ", "+ ")):
        text = lines[-1]  # a list item: just that item
    return text


WAITING_FOR_INDEX = "waiting for the index…"
"""What an embed says while its page can only be found once the index is built."""


def embedded_text(
    brain: Brain, from_slug: str | None, target: str, anchor: str | None
) -> tuple[str | None, str]:
    """What an embed of `target` (section `anchor`) on page `from_slug` shows, or None
    and why not. Blocking (reads the page): run it in a thread. Resolves through the
    index when it is built; before that only an exact slug is found."""
    slug: str | None = target
    if brain.index is not None and from_slug is not None:
        resolution = brain.resolve_link(from_slug, target, "wiki")
        slug = resolution.slug if resolution.exists else None
    if slug is None:
        return None, f"✗ no page {target}"
    try:
        page = brain.page(slug)
    except PageNotFound:
        return None, f"✗ no page {target}" if brain.index is not None else WAITING_FOR_INDEX
    except OkfError as error:
        return None, f"✗ {error}"
    section = section_of(page.content, anchor)
    if section is None:
        return None, f"✗ no section {anchor} in {slug}"
    return section, ""
