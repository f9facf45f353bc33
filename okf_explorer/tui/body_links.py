"""Make the links of a page body clickable in Textual's `Markdown` widget.

Wiki-links are not Markdown, so before rendering we rewrite them into ordinary
links with an `okf:` href that carries the raw target exactly as the core's
parser reports it (`[[t#h|alias]]` → `[alias](<okf:t>)`); the page pane then
resolves that target through the index. Code fences and inline code spans are
left untouched, as are escaped brackets. Plain Markdown links keep their href;
the page pane treats any scheme-less href as a path target.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING
from urllib.parse import unquote

if TYPE_CHECKING:
    from okf_explorer.core.index import LinkIndex

LINK_SCHEME = "okf:"

ATTACHMENT_SUFFIXES = (
    ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".bmp", ".avif", ".pdf", ".mp3",
    ".mp4", ".m4a", ".wav", ".ogg", ".webm", ".mov", ".canvas", ".base",
)  # fmt: skip

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_WIKI = re.compile(r"(?<!\\)(!?)\[\[([^\[\]\n]+?)\]\]")
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_MD_SPECIAL = re.compile(r"([\\\[\]*_`<>])")
_BLOCK_ID = re.compile(r"[ \t]+\^[A-Za-z0-9-]+[ \t]*$", re.MULTILINE)


def linkify_body(text: str) -> str:
    """The body with every wiki-link outside code turned into an `okf:` link."""
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        match = _FENCE.match(line)
        if fence is None and match:
            out.append(_linkify_prose("".join(prose)))
            prose = []
            fence = match.group(1)[0] * len(match.group(1))
            out.append(line)
        elif fence is not None:
            out.append(line)
            if line.strip().startswith(fence) and set(line.strip()) == {fence[0]}:
                fence = None
        else:
            prose.append(line)
    out.append(_linkify_prose("".join(prose)))
    return "".join(out)


def _linkify_prose(text: str) -> str:
    """Rewrite wiki-links in text that holds no fences, skipping code spans.

    Obsidian block ids (` ^grain` at a line's end) are link anchors, not prose: dropped.
    """
    text = _BLOCK_ID.sub("", text)
    parts: list[str] = []
    position = 0
    for span in _CODE_SPAN.finditer(text):
        parts.append(_WIKI.sub(_rewrite, text[position : span.start()]))
        parts.append(span.group(0))
        position = span.end()
    parts.append(_WIKI.sub(_rewrite, text[position:]))
    return "".join(parts)


def _rewrite(match: re.Match[str]) -> str:
    embed, inner = match.group(1), match.group(2)
    target, alias = split_wiki(inner)
    if not target or target.lower().endswith(ATTACHMENT_SUFFIXES):
        return _escape(alias or inner)
    label = _escape(alias or inner.replace("\\|", "|"))
    prefix = "↳ " if embed else ""
    return f"{prefix}[{label}](<{LINK_SCHEME}{target}>)"


def split_wiki(inner: str) -> tuple[str, str | None]:
    """`target#heading|alias` → (`target`, `alias`); `\\|` is a table-escaped pipe."""
    inner = inner.replace("\\|", "|")
    body, _, alias = inner.partition("|")
    target = body.split("#", 1)[0].strip()
    return target, (alias.strip() or None)


def _escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def target_of_href(href: str) -> str | None:
    """The raw link target a clicked href stands for, or None for an external URL.

    `okf:t` → `t`; a scheme-less href (`order_items.md#grain`, `/tables/`) → the
    path without its anchor, as the core's parser reports it.
    """
    if href.startswith(LINK_SCHEME):
        # markdown-it percent-encodes hrefs (`[[Average Order Value]]` → `okf:Average%20...`)
        return unquote(href[len(LINK_SCHEME) :]).strip()
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", href):
        return None
    return unquote(href.split("#", 1)[0]).strip() or None  # `a%20b.md` is the file `a b.md`


def resolve_body_target(
    target: str,
    slug: str | None,
    index: LinkIndex | None,
    pages: Sequence[tuple[str, str]],
) -> tuple[str, bool] | None:
    """(slug, exists) body-link `target` of page `slug` leads to, if known.

    The index's record of the page's links first (the core's resolution rules);
    before the index exists, a target that is itself a listed slug.
    """
    if slug is not None and index is not None:
        for link in index.forward.get(slug, ()):
            if link.target == target or link.target == target.removesuffix(".md"):
                return link.to, link.exists
    known = {page for page, _ in pages}
    for candidate in (target, target.removesuffix(".md").lstrip("/")):
        if candidate in known:
            return candidate, True
    return None
