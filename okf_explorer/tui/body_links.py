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
from urllib.parse import unquote

from okf_explorer.core.link_grammar import LinkKind
from okf_explorer.core.link_masking import prose_ranges
from okf_explorer.core.link_spans import WikiSpan, wiki_link_spans

LINK_SCHEME = "okf:"

_MD_SPECIAL = re.compile(r"([\\\[\]*_`<>])")
_BLOCK_ID = re.compile(r"[ \t]+\^[A-Za-z0-9-]+[ \t]*$", re.MULTILINE)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def linkify_body(text: str) -> str:
    """The body with every wiki-link outside code turned into an `okf:` link.

    The links are the ones the core grammar finds (`core.link_spans`), so a link
    is clickable exactly when the index counts it. Obsidian block ids (` ^grain`
    at a line's end, outside code) are link anchors, not prose: dropped.
    """
    out: list[str] = []
    position = 0
    for span in wiki_link_spans(text):
        out.append(text[position : span.start])
        out.append(_rewrite(span))
        position = span.end
    out.append(text[position:])
    return _drop_block_ids("".join(out))


def _drop_block_ids(text: str) -> str:
    if "^" not in text:
        return text
    pieces: list[str] = []
    position = 0
    for start, end in prose_ranges(text):
        pieces.append(text[position:start])
        pieces.append(_BLOCK_ID.sub("", text[start:end]))
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _rewrite(span: WikiSpan) -> str:
    _, alias = split_wiki(span.inner)
    if span.target is None:
        return _escape(alias or span.inner)
    label = _escape(alias or span.inner.replace("\\|", "|"))
    prefix = "↳ " if span.kind == "embed" else ""
    return f"{prefix}[{label}](<{LINK_SCHEME}{span.target}>)"


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
    if _SCHEME.match(href):
        return None
    return unquote(href.split("#", 1)[0]).strip() or None  # `a%20b.md` is the file `a b.md`


def kind_of_href(href: str) -> LinkKind:
    """How the link behind `href` was written: an `okf:` href is a wiki-link (or an
    embed: the same rules), anything else a Markdown link."""
    return "wiki" if href.startswith(LINK_SCHEME) else "markdown"
