"""A page taken from a Hugo site, its shortcodes shown as the site shows them.

A knowledge base that takes in a Hugo site's pages keeps the site's shortcodes, which
plain Markdown shows as written: on an LLM-kept wiki of framework docs, Redis's docs
(3,634 of its 14,094 pages) read `{{< note >}}` … `{{< /note >}}` around their notes,
`{{< image filename="…" alt="…" >}}` over five lines where a picture stands, and
`[Create a database]({{< relref "/operate/rc/…" >}})` for each of their 26,607 links.
Three shortcodes are read here:

- `note`, `warning`, `alert`, `tip`, `caution`, `important`, `info` (`{{< note >}}`,
  `{{<warning>}}`, `{{< alert title="Title" >}}`) around blocks or within one paragraph:
  a callout of that type. One whose closing shortcode is not found at the same depth
  (inside a list the opening one is not in) stays as written.
- `image`: the image it names, as `![alt](filename)` shows (a placeholder, `raw_html`).
- a Markdown link to `relref "path"`: its text. It is no link of the graph: SPEC §3 reads
  a link to a `.md` file or a folder, and Hugo resolves the path against its own
  `content/` folder, so the explorer does not follow it either.

Any other shortcode stays as written.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from okf_explorer.tui.markdown.callout_tokens import callout_head
from okf_explorer.tui.markdown.raw_html import image_token

__all__ = ["NOTE_KINDS", "use_hugo_shortcodes"]

NOTE_KINDS = frozenset({"note", "warning", "alert", "tip", "caution", "important", "info"})
"""The shortcodes read as callouts of their type."""
_OPENING = re.compile(
    r"\{\{[<%]\s*(?P<kind>[a-z]+)(?:\s+title=\"(?P<title>[^\"\n]*)\")?\s*[>%]\}\}[ \t]*\n?"
)
_RELREF_LINK = re.compile(
    r"\[(?P<text>[^\[\]\n]*)\]\(\s*\{\{[<%]\s*relref\s+\"[^\"\n]*\"\s*[>%]\}\}\s*\)"
)
_IMAGE = re.compile(r"\{\{<\s*image\s+(?P<attributes>(?:[^>{]|>(?!\}\})|\{(?!\{<)){0,2000})>\}\}")
"""An image shortcode, its attributes read up to its `>}}` and never past another
shortcode's start (a page of unclosed ones is read once, not once a shortcode)."""
_ATTRIBUTE = re.compile(r"([\w-]+)=\"([^\"]*)\"")
MOST_LABEL_CHARS = 1000
"""Characters a relref link's text may have (where its `]` is looked for)."""
MOST_BLOCK_TOKENS = 2000
"""Tokens looked through for a note's closing shortcode (a page's notes are short)."""


def use_hugo_shortcodes(md: MarkdownIt) -> None:
    """Read Hugo's notes, images and relref links with `md` (the module doc)."""
    md.core.ruler.after("block", "hugo_notes", _notes)
    md.inline.ruler.before("link", "hugo_relref_link", _relref_link)
    md.inline.ruler.before("link", "hugo_image", _image)  # tried where text stops: a `{`


def _notes(state: StateCore) -> None:
    """Each note's paragraphs and the blocks between them wrapped in a callout."""
    tokens = state.tokens
    if not any(token.type == "inline" and "{{" in token.content for token in tokens):
        return
    index, made = 1, False
    while index < len(tokens):
        token = tokens[index]
        opened = _OPENING.match(token.content) if token.type == "inline" else None
        if (
            opened is None
            or opened["kind"] not in NOTE_KINDS
            or tokens[index - 1].type != "paragraph_open"  # not a heading's, a cell's
        ):
            index += 1
            continue
        kind = opened["kind"]
        closing = re.compile(r"\{\{[<%]\s*/" + kind + r"\s*[>%]\}\}\s*$")  # a word: [a-z]+
        ends = _note_end(tokens, index, closing)
        if ends is None:  # as written
            index += 1
            continue
        closer, after = ends
        token.content = token.content[opened.end() :]  # the closer's token may be this one
        last = tokens[closer]
        last.content = closing.sub("", last.content).strip()
        token.content = token.content.strip()
        paragraph = tokens[index - 1]
        title = opened["title"] or kind.capitalize()
        head = callout_head(kind, "", title, paragraph.level, paragraph.map)
        for inside in tokens[index - 1 : after]:
            inside.level += 1  # now in the callout's quote
        tokens[after:after] = [Token("blockquote_close", "blockquote", -1, level=paragraph.level)]
        tokens[index - 1 : index - 1] = head
        index += len(head) + 1
        made = True
    if made:  # a paragraph that held only a shortcode goes, no other
        _drop_empty_paragraphs(tokens)


def _note_end(tokens: list[Token], start: int, closing: re.Pattern[str]) -> tuple[int, int] | None:
    """(the inline token, from `start` on, that ends with the note's `closing` shortcode;
    where the callout closes: after the block holding it, at the depth of the paragraph
    the note opens in), or None when the blocks around that paragraph close first."""
    depth, closer = 1, None  # inside the paragraph the note opens in
    for index in range(start, min(len(tokens), start + MOST_BLOCK_TOKENS)):
        token = tokens[index]
        if closer is None and token.type == "inline" and closing.search(token.content):
            closer = index
        depth += token.nesting
        if depth < 0:
            return None
        if closer is not None and depth == 0:
            return closer, index + 1
    return None


def _drop_empty_paragraphs(tokens: list[Token]) -> None:
    """A paragraph left with nothing once its shortcode is read goes."""
    kept: list[Token] = []
    for token in tokens:
        kept.append(token)
        if (
            token.type == "paragraph_close"
            and len(kept) >= 3
            and kept[-2].type == "inline"
            and not kept[-2].content.strip()
            and kept[-3].type == "paragraph_open"
        ):
            del kept[-3:]
    tokens[:] = kept


def _relref_link(state: StateInline, silent: bool) -> bool:
    """`[text]({{< relref "path" >}})`: its text, read as inline Markdown."""
    if state.src[state.pos] != "[":
        return False
    label_end = state.src.find("]", state.pos, state.pos + MOST_LABEL_CHARS)
    if label_end < 0 or not state.src.startswith("({{", label_end + 1):
        return False  # no `]({{` after it: a look at a few characters, not the paragraph
    found = _RELREF_LINK.match(state.src, state.pos)
    if found is None:
        return False
    if not silent:
        end = state.posMax
        state.pos, state.posMax = found.start("text"), found.end("text")
        state.md.inline.tokenize(state)
        state.posMax = end
    state.pos = found.end()
    return True


def _image(state: StateInline, silent: bool) -> bool:
    """`{{< image filename="…" alt="…" >}}`: the image, as `![alt](filename)` shows."""
    if not state.src.startswith("{{<", state.pos):
        return False
    found = _IMAGE.match(state.src, state.pos)
    if found is None:
        return False
    if not silent:
        attributes = dict(_ATTRIBUTE.findall(found["attributes"]))
        source = attributes.get("filename") or attributes.get("src") or ""
        image = image_token(source, attributes.get("alt", ""))
        token = state.push("image", "img", 0)  # after the text before it
        token.attrs, token.children, token.content = image.attrs, image.children, image.content
    state.pos = found.end()
    return True
