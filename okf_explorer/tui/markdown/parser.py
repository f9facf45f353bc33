"""Vault Markdown as Obsidian shows it: the one markdown-it parser every body is read with.

`vault_parser()` is markdown-it's `gfm-like` preset plus mdit-py-plugins' footnotes
and task lists, and small plugins of our own where none exists:

- callouts (`> [!tip]- Title`): the quote's `blockquote_open` gets `meta["callout"]`
  (type) and `meta["fold"]` (`-` folded, `+` open, `` not foldable); its first line
  becomes a title paragraph (`meta["callout_title"]`);
- highlights `==x==` (`mark_open` / `mark_close`) and inline `#tags` (`vault_tag`);
- block ids (` ^id` ending a block, or a `^id` line after one): hidden; the block's
  open token gets `meta["block_id"]`, so `[[Page#^id]]` can scroll there;
- page embeds alone on a line (`![[page#section]]`, which `body_links` writes as an
  image with an `okf:` source) become one `vault_embed` block token;
- footnotes are lowered to what every renderer knows: a rule, then an ordered list
  of the notes (`meta["footnotes"]` on the list); a reference stays `footnote_ref`;
- raw HTML (`html_block`, `html_inline`) becomes the standard tokens of what it
  shows: images, links, emphasis, paragraphs; comments hidden (`vault_html`);
- Obsidian comments (`%%inline%%`, and `%%` … `%%` blocks, blank lines and all)
  are hidden, as Obsidian's reading view hides them.

The engine's drawing (`draw`) and Textual's `Markdown` widget (`VaultMarkdown`, the plain
path) only ever see standard tokens plus the few named above.
"""

from __future__ import annotations

import re
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from okf_explorer.tui.markdown.html import html_to_tokens
from okf_explorer.tui.markdown.links import LINK_SCHEME

CALLOUT = re.compile(r"^\[!([A-Za-z][\w-]*)\]([+-]?)[ \t]*(.*)$")
BLOCK_ID_TAIL = re.compile(r"(?:^|\s+)\^([A-Za-z0-9-]+)[ \t]*$")
"""A block id ending a block: after a space, or alone on the block's last line (a `^id`
line right under a callout or list item continues it, and names it, as in Obsidian)."""
TAG = re.compile(r"#([\w/-]*[^\W\d][\w/-]*)")
"""An Obsidian tag: letters, digits, `_`, `-`, `/`, at least one non-digit."""
_TAG_BEFORE = " \t\n([{"
COMMENT = "%%"
"""Opens and closes an Obsidian comment."""
_ALT_TYPES = frozenset({"text", "code_inline", "softbreak"})
_LEAF_BLOCKS = ("fence", "code_block", "hr", "html_block", "vault_embed")


@cache
def vault_parser() -> MarkdownIt:
    """The parser (built once: markdown-it keeps no state between parses)."""
    md = MarkdownIt("gfm-like").use(footnote_plugin).use(tasklists_plugin)
    md.inline.ruler.before("emphasis", "mark", _mark)
    md.inline.ruler.before("emphasis", "vault_tag", _tag)
    md.inline.ruler.before("emphasis", "vault_comment", _inline_comment)
    md.block.ruler.before("paragraph", "vault_comment", _block_comment)
    md.core.ruler.after("block", "callouts", _callouts)
    md.core.ruler.after("callouts", "block_ids", _block_ids)
    md.core.ruler.push("vault_html", html_to_tokens)
    md.core.ruler.push("vault_embeds", _embeds)
    md.core.ruler.push("footnote_lists", _footnote_lists)
    return md


def parse(markdown: str) -> list[Token]:
    return vault_parser().parse(markdown)


def alt_text(image: Token) -> str:
    """An image's alt text as it reads (`![a\\_b](x)` → `a_b`: its parsed children's
    text; the token's `content` keeps the source, backslash escapes and all)."""
    if image.children is None:
        return image.content
    return "".join(child.content for child in image.children if child.type in _ALT_TYPES)


# --------------------------------------------------------------------- inline rules


def _mark(state: StateInline, silent: bool) -> bool:
    """`==text==` (no space just inside the marks) → `mark_open` … `mark_close`."""
    start = state.pos
    if not state.src.startswith("==", start) or start + 2 >= state.posMax:
        return False
    if state.src[start + 2] in " \t\n=":
        return False
    end = state.src.find("==", start + 3, state.posMax)
    while end != -1 and state.src[end - 1] in " \t\n":
        end = state.src.find("==", end + 2, state.posMax)
    if end == -1:
        return False
    if not silent:
        limit = state.posMax
        state.push("mark_open", "mark", 1).markup = "=="
        state.pos, state.posMax = start + 2, end
        state.md.inline.tokenize(state)
        state.posMax = limit
        state.push("mark_close", "mark", -1).markup = "=="
    state.pos = end + 2
    return True


def _tag(state: StateInline, silent: bool) -> bool:
    """`#tag` after a space (or at the start): a `vault_tag` token."""
    start = state.pos
    if state.src[start] != "#" or (start > 0 and state.src[start - 1] not in _TAG_BEFORE):
        return False
    match = TAG.match(state.src, start, state.posMax)
    if match is None:
        return False
    if not silent:
        state.push("vault_tag", "", 0).content = match.group(0)
    state.pos = match.end()
    return True


def _inline_comment(state: StateInline, silent: bool) -> bool:
    """`%%text%%` inside a line: nothing is shown."""
    start = state.pos
    if not state.src.startswith(COMMENT, start):
        return False
    end = state.src.find(COMMENT, start + 2, state.posMax)
    if end == -1:
        return False
    state.pos = end + 2
    return True


# ----------------------------------------------------------------------- block rules


def _block_comment(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A block opening with `%%` and closed by `%%` ending a later (or the same) line:
    its lines are skipped, blank lines inside included. An unclosed `%%` is text."""
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if state.is_code_block(start_line) or not state.src.startswith(COMMENT, begin):
        return False
    line, search = start_line, begin + 2
    while line < end_line:
        close = state.src.find(COMMENT, search, state.eMarks[line])
        if close != -1:
            if state.src[close + 2 : state.eMarks[line]].strip():
                return False  # text after the close: the paragraph's inline rule hides it
            if not silent:
                state.line = line + 1
            return True
        line += 1
        search = state.bMarks[line] if line < end_line else search
    return False


# ---------------------------------------------------------------------- core rules


def _callouts(state: StateCore) -> None:
    tokens = state.tokens  # grows while walked: a callout's body gets its own paragraph
    for index, token in enumerate(tokens):
        if token.type != "blockquote_open" or index + 2 >= len(tokens):
            continue
        opening, inline = tokens[index + 1], tokens[index + 2]
        if opening.type != "paragraph_open" or inline.type != "inline":
            continue
        first, _, rest = inline.content.partition("\n")
        match = CALLOUT.match(first.strip())
        if match is None:
            continue
        kind, fold, title = match.group(1).lower(), match.group(2), match.group(3).strip()
        token.meta = {**token.meta, "callout": kind, "fold": fold}
        opening.meta = {**opening.meta, "callout_title": kind, "callout_fold": fold}
        inline.content = title or kind.replace("-", " ").capitalize()
        if rest.strip():
            _split_after_title(tokens, index, rest)


def _split_after_title(tokens: list[Token], index: int, rest: str) -> None:
    """Put the callout's lines after the title in a paragraph of their own."""
    opening, closing = tokens[index + 1], tokens[index + 3]
    body_open = Token("paragraph_open", "p", 1, map=opening.map, level=opening.level)
    body = Token("inline", "", 0, content=rest, map=opening.map, level=opening.level + 1)
    body.children = []
    body_close = Token("paragraph_close", "p", -1, level=closing.level)
    tokens[index + 4 : index + 4] = [body_open, body, body_close]


def _block_ids(state: StateCore) -> None:
    """Hide ` ^id` block ids; the block they name keeps the id in `meta["block_id"]`."""
    tokens = state.tokens
    dropped: set[int] = set()
    for index, token in enumerate(tokens):
        if token.type != "inline" or "^" not in token.content or index == 0:
            continue
        match = BLOCK_ID_TAIL.search(token.content)
        if match is None:
            continue
        block_id, opening = match.group(1), tokens[index - 1]
        token.content = token.content[: match.start()]
        if token.content.strip() or opening.type != "paragraph_open":
            opening.meta = {**opening.meta, "block_id": block_id}
            continue
        # A `^id` line of its own names the block before it.
        target = _previous_block(tokens, index - 1)
        if target is not None:
            target.meta = {**target.meta, "block_id": block_id}
            dropped.update((index - 1, index, index + 1))
    if dropped:
        state.tokens = [token for index, token in enumerate(tokens) if index not in dropped]


def _previous_block(tokens: list[Token], index: int) -> Token | None:
    """The open (or leaf) token of the block just before the one opening at `index`."""
    level = tokens[index].level
    position = index - 1
    if position < 0 or tokens[position].level != level:
        return None
    if tokens[position].type in _LEAF_BLOCKS:
        return tokens[position]
    if tokens[position].nesting != -1:
        return None
    while position >= 0 and not (tokens[position].nesting == 1 and tokens[position].level == level):
        position -= 1
    return tokens[position] if position >= 0 else None


def _embeds(state: StateCore) -> None:
    """A paragraph holding only a page embed → one `vault_embed` token."""
    tokens = state.tokens
    out: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        embed = _lone_embed(tokens, index)
        if embed is None:
            out.append(token)
            index += 1
            continue
        block = Token("vault_embed", "", 0, map=token.map, level=token.level)
        href = str(embed.attrs.get("src", ""))
        block.meta = {"href": href, "label": alt_text(embed), **token.meta}
        out.append(block)
        index += 3
    state.tokens = out


def _lone_embed(tokens: list[Token], index: int) -> Token | None:
    if tokens[index].type != "paragraph_open" or index + 2 >= len(tokens):
        return None
    children = [
        child
        for child in tokens[index + 1].children or ()
        if not (child.type == "text" and not child.content.strip())
    ]
    if len(children) == 1 and is_page_embed(children[0]):
        return children[0]
    return None


def is_page_embed(token: Token) -> bool:
    """An image whose source is an `okf:` page (`![[page]]` as `body_links` writes it)."""
    return token.type == "image" and str(token.attrs.get("src", "")).startswith(LINK_SCHEME)


_FOOTNOTE_TYPES = {
    "footnote_block_open": ("ordered_list_open", "ol", 1),
    "footnote_block_close": ("ordered_list_close", "ol", -1),
    "footnote_open": ("list_item_open", "li", 1),
    "footnote_close": ("list_item_close", "li", -1),
}


def _footnote_lists(state: StateCore) -> None:
    """Footnote blocks → a rule and an ordered list (`meta["footnotes"]`)."""
    if not any(token.type == "footnote_block_open" for token in state.tokens):
        return
    out: list[Token] = []
    for token in state.tokens:
        kind = token.type
        if kind == "footnote_anchor":
            continue
        if kind not in _FOOTNOTE_TYPES:
            out.append(token)
            continue
        new_type, tag, nesting = _FOOTNOTE_TYPES[kind]
        lowered = Token(new_type, tag, nesting, level=token.level, map=token.map, markup=".")
        if kind == "footnote_block_open":
            out.append(Token("hr", "hr", 0, level=token.level, markup="---"))
            lowered.attrs = {"start": 1}
            lowered.meta = {"footnotes": True}
        elif kind == "footnote_open":
            lowered.info = str(int(token.meta.get("id", 0)) + 1)
            lowered.meta = {"footnote": token.meta.get("label", "")}
        out.append(lowered)
    state.tokens = out
