"""Vault Markdown as Obsidian shows it: the one markdown-it parser every body is read with.

`vault_parser()` is markdown-it's `gfm-like` preset plus mdit-py-plugins' footnotes
and task lists, and small plugins of our own where none exists:

- task boxes (`- [ ] todo`): read as mdit-py-plugins' task lists read them, token for
  token, in one pass (`task_boxes`, a fast path: the plugin looks back from every task
  for its list, so a page of thousands of tasks cost their square); a box holding any
  other one character (`- [-] dropped`, `- [?] maybe`) is ticked, as Obsidian ticks it
  (`other_task_statuses`: the plugin reads `[x]` and `[X]` only);
- callouts (`> [!tip]- Title`): the quote's `blockquote_open` gets `meta["callout"]`
  (type) and `meta["fold"]` (`-` folded, `+` open, `` not foldable); its first line
  becomes a title paragraph (`meta["callout_title"]`);
- admonitions of documentation sites (MkDocs' `!!! note "Title"`, Docusaurus' `:::tip`):
  callouts too (`admonitions`);
- a frontmatter block opening the body (a page taken in with its source's): a `yaml`
  fence (`kept_frontmatter`);
- reStructuredText roles (`` :func:`x` ``, `` :ref:`text <t>` ``) as code or text
  (`rest_roles`);
- a Hugo site's notes (`{{< note >}}` … `{{< /note >}}`), images and `relref` links
  (`hugo`);
- HTML disclosures (`<details>`, an optional `<summary>`, Markdown, `</details>`, as
  GitHub issues and READMEs write them, or the whole in one HTML block): a callout folded
  (`open`: unfolded) titled by the summary, else `Details`, as a browser draws them
  (`details`; its kind `DETAILS`, drawn without a glyph);
- highlights `==x==` (`mark_open` / `mark_close`) and inline `#tags` (`vault_tag`);
- emphasis and strike-through beside Chinese, Japanese and Korean text (`**「重要」**です`)
  read by the CJK-friendly amendments to CommonMark (`cjk_emphasis`), as Obsidian reads it;
- block ids (` ^id` ending a block, or a `^id` line after one): hidden; the block's
  open token gets `meta["block_id"]`, so `[[Page#^id]]` can scroll there;
- page embeds alone on a line (`![[page#section]]`, which `body_links` writes as an
  image with an `okf:` source) become one `vault_embed` block token;
- footnotes are lowered to what every renderer knows: a rule, then an ordered list
  of the notes (`meta["footnotes"]` on the list); a reference stays `footnote_ref`;
- raw HTML (`html_block`, `html_inline`) becomes the standard tokens of what it
  shows: images, links, emphasis, paragraphs; comments hidden (`vault_html`, read
  with the stdlib `html.parser`: `raw_html.html_to_tokens`);
- Obsidian comments (`%%inline%%`, and `%%` … `%%` blocks, blank lines and all)
  are hidden, as Obsidian's reading view hides them;
- math (`$…$`, `$$…$$`, and `$$` … `$$` blocks), read by mdit-py-plugins' dollar math
  as Obsidian reads it (no space inside the dollars, `$5 and $10` is money), is shown
  as text (`math_text`: `\\lambda_{1} \\neq 0` → `λ₁ ≠ 0`, what it cannot write as text
  left as TeX): a block as a `latex` fence wrapped in its box, inline math as inline code
  (`_math`), so `*` and `_` in a formula never turn into emphasis and a formula's lines
  are never joined or wrapped as prose;
- with `breaks` (a vault), a single newline in a paragraph is a line break.

The engine's drawing (`draw`) and Textual's `Markdown` widget (`VaultMarkdown`, the plain
path) only ever see standard tokens plus the few named above.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from functools import cache, partial
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from okf_explorer.core import fast_paths
from okf_explorer.core.bases.dataview_query import QueryRefused, read_query
from okf_explorer.core.bases.tasks_query import read_tasks_query
from okf_explorer.core.links.tags import tag_at
from okf_explorer.core.math_text import display_math, math_text
from okf_explorer.core.pages import without_attributes
from okf_explorer.tui.markdown.admonitions import use_admonitions
from okf_explorer.tui.markdown.callout_tokens import callout_head
from okf_explorer.tui.markdown.cjk_emphasis import use_cjk_emphasis
from okf_explorer.tui.markdown.components import use_components
from okf_explorer.tui.markdown.diagrams import DRAWN_AS, use_diagrams
from okf_explorer.tui.markdown.hugo import use_hugo_shortcodes
from okf_explorer.tui.markdown.kept_frontmatter import use_kept_frontmatter
from okf_explorer.tui.markdown.links import (
    FILE_SCHEME,
    LINK_SCHEME,
    WRITTEN_BASE,
    WRITTEN_QUERY,
    WRITTEN_TASKS,
)
from okf_explorer.tui.markdown.raw_html import html_to_tokens
from okf_explorer.tui.markdown.rest_directives import use_rest_directives
from okf_explorer.tui.markdown.rest_roles import use_rest_roles

CALLOUT = re.compile(r"^\[!([^\]|\n]*[^\]|\s][^\]|\n]*)(?:\|[^\]\n]*)?\]([+-]?)[ \t]*(.*)$")
"""A callout's first line: `[!type]`, or `[!type|metadata]` (themes and CSS snippets read
the metadata: `[!column|flex]`, `[!info|wide]`; the type is the callout's), a fold mark,
its title. The type is anything up to the `]` (`[!take away]`, `[!see-also]`), as Obsidian
reads it, and its title when none is written."""
DETAILS = "<details>"
"""The callout kind of an HTML disclosure (no `[!type]` names it: `>` ends one)."""
_DETAILS_HEAD = r"\s*<details(\s[^>]*)?>\s*(?:<summary(?:\s[^>]*)?>(.*?)</summary>\s*)?"
"""A `<details>` tag, then its `<summary>`, if any: the head of a disclosure."""
_DETAILS_WHOLE = re.compile(_DETAILS_HEAD + r"(.*?)</details\s*>\s*", re.I | re.S)
"""A disclosure written as one block of HTML, no blank line in it."""
_DETAILS_OPEN = re.compile(_DETAILS_HEAD + r"(.*)", re.I | re.S)
"""A block opening a disclosure, and the HTML after its summary, if any."""
_DETAILS_CLOSE = re.compile(r"(.*?)</details\s*>\s*", re.I | re.S)
"""A block closing a disclosure, and the HTML before, if any."""
_OPEN_ATTRIBUTE = re.compile(r"(?:^|\s)open(?:\s|=|$)", re.I)
BLOCK_ID_TAIL = re.compile(r"(?:^|\s+)\^([A-Za-z0-9-]+)[ \t]*$")
"""A block id ending a block: after a space, or alone on the block's last line (a `^id`
line right under a callout or list item continues it, and names it, as in Obsidian)."""
COMMENT = "%%"
"""Opens and closes an Obsidian comment."""
_ALT_TYPES = frozenset({"text", "code_inline", "softbreak"})
_LEAF_BLOCKS = ("fence", "code_block", "hr", "html_block", "vault_embed")


def vault_parser(breaks: bool = False, own_task_boxes: bool | None = None) -> MarkdownIt:
    """The parser (built once per rule: markdown-it keeps no state between parses);
    `breaks`: a single newline in a paragraph is a line break (`hard_breaks`), as
    Obsidian shows a vault, not a space (CommonMark). `own_task_boxes`: our `task_boxes`
    rule, not the plugin's (None: when fast paths are on)."""
    if own_task_boxes is None:
        own_task_boxes = fast_paths.enabled()
    return _parser(breaks, own_task_boxes)


@cache
def _parser(breaks: bool, own_task_boxes: bool) -> MarkdownIt:
    md = MarkdownIt("gfm-like").use(footnote_plugin)
    md.linkify = UrlsEndAtWikiLinks(md.linkify)
    use_dollar_math(md)
    if own_task_boxes:
        md.core.ruler.after("inline", "github-tasklists", task_boxes)
    else:
        md.use(tasklists_plugin)
        md.core.ruler.after("github-tasklists", "other-task-statuses", other_task_statuses)
    use_cjk_emphasis(md)  # `**「重要」**です` bold, as Obsidian draws it
    md.inline.ruler.before("emphasis", "mark", _mark)
    md.inline.ruler.before("emphasis", "vault_tag", _tag)
    md.inline.ruler.before("emphasis", "vault_comment", _inline_comment)
    md.block.ruler.before("paragraph", "vault_comment", _block_comment)
    use_admonitions(md)  # `!!! note`, `:::tip`: documentation sites' callouts
    use_components(md)  # `<Note>`, `<Tabs>`, `<Accordion>`: MDX docs' components
    use_kept_frontmatter(md)  # a body that opens with another frontmatter: a `yaml` box
    use_hugo_shortcodes(md)  # a Hugo site's `{{< note >}}`, `{{< image >}}`, relref links
    use_rest_roles(md)  # Sphinx's `:func:`x`` in converted docs: code, or text
    use_rest_directives(md)  # Sphinx's `.. code-block::`, `.. versionadded::`, `.. note::`
    md.core.ruler.after("admonitions_as_callouts", "callouts", _callouts)
    md.core.ruler.after("callouts", "block_ids", _block_ids)
    md.core.ruler.after("block_ids", "heading_attributes", _heading_attributes)
    md.core.ruler.after("heading_attributes", "details", _details)
    md.core.ruler.push("vault_html", html_to_tokens)
    md.core.ruler.push("vault_embeds", _embeds)
    md.core.ruler.push("footnote_lists", _footnote_lists)
    md.core.ruler.push("math", _math)
    use_diagrams(md)  # a Mermaid flowchart drawn, not its source
    if breaks:
        md.core.ruler.push("hard_breaks", hard_breaks)
    return md


def use_dollar_math(md: MarkdownIt) -> MarkdownIt:
    """Dollar math on `md`, as the page reads it (and `core.links.grammar.math_ranges`):
    mdit-py-plugins' dollar math (no space inside `$…$`, no digit outside it, `$$…$$`
    inline), its `$$` block breaking into a paragraph as a fenced code block does, blank
    lines and all. Obsidian writes `text` then `$$` on the next line; so does
    remark-math, which publishes vaults (Quartz): it reads math as code fences read."""
    md.use(
        dollarmath_plugin,
        allow_labels=False,
        allow_space=False,
        allow_digits=False,
        double_inline=True,
    )
    ruler = md.block.ruler
    plugins_rule = ruler.getRules("")[ruler.get_active_rules().index("math_block")]
    breaks_into = ["paragraph", "reference", "blockquote", "list", "footnote_def"]
    ruler.at("math_block", partial(_math_block, plugins_rule), {"alt": breaks_into})
    return md


def _math_block(
    plugins_rule: Callable[[StateBlock, int, int, bool], bool],
    state: StateBlock,
    start_line: int,
    end_line: int,
    silent: bool,
) -> bool:
    """The plugin's `$$` block rule, asked as a paragraph asks whether a block breaks into
    it (`silent`): the plugin pushes its token even then, so what it adds is taken back."""
    line, count = state.line, len(state.tokens)
    found = plugins_rule(state, start_line, end_line, False)
    if silent:
        del state.tokens[count:]
        state.line = line
    return found


_REWRITTEN_LINK = re.compile(
    rf"!?\[(?:[^\]\\\n]|\\.)*\]\(<(?:{re.escape(LINK_SCHEME)}|{re.escape(FILE_SCHEME)})"
)
"""Where a wiki-link `linkify_body` rewrote starts (`[README](<okf:README>)`)."""


class UrlsEndAtWikiLinks:
    """markdown-it's bare-URL finder (linkify-it), with a URL ending where a wiki-link
    starts: a security vault writes `https://github.com/…/CVE-2025-65132/[[README]].md`,
    and the URL ran on over the rewritten link, showing `[README](<okf:README>).md`.
    Obsidian reads the link as a link; so does the page now."""

    def __init__(self, finder: Any) -> None:
        self._finder = finder

    def __getattr__(self, name: str) -> Any:
        return getattr(self._finder, name)

    def match_at_start(self, text: str) -> Any:
        match = self._finder.match_at_start(text)
        if match is None or "](<" not in match.url:
            return match
        link = _REWRITTEN_LINK.search(match.url)
        if link is None:
            return match
        if link.start() == 0:
            return None
        cut = copy.copy(match)
        cut.url, cut.text = match.url[: link.start()], match.text[: link.start()]
        cut.last_index = match.index + link.start()
        return cut


def parse(markdown: str, breaks: bool = False) -> list[Token]:
    return vault_parser(breaks).parse(markdown)


_TASK = re.compile(r"\[[^\[\]\n]][ \t\n\v\f\r]")
"""What starts a task item's text: its box, holding a space (open) or any other one
character (ticked: Obsidian ticks `[x]`, `[?]` and `[-]` alike, and leaves telling them
apart to themes), then GFM's whitespace."""
_OTHER_STATUS = re.compile(r"\[[^ xX\[\]\n]][ \t\n\v\f\r]")
"""A box mdit-py-plugins' task lists leave as text: any one character but a space, `x`
and `X`."""
_CHECKBOX = '<input class="task-list-item-checkbox" {}disabled="disabled" type="checkbox">'
_LIST_OPENS = frozenset({"bullet_list_open", "ordered_list_open"})
_LIST_CLOSES = frozenset({"bullet_list_close", "ordered_list_close"})


def task_boxes(state: StateCore) -> None:
    """A list item whose text starts with a box (`[ ] `, `[x] `, `[-] `: `_TASK`) gets
    a checkbox (an `html_inline` input, checked unless the box holds a space) in place of
    the box, and the classes the plugin gives (`task-list-item`, and `contains-task-list`
    on its list): the lists open are kept on a stack as the tokens go by, where the plugin
    looked back for each."""
    _boxes(state, _TASK)


def other_task_statuses(state: StateCore) -> None:
    """After mdit-py-plugins' task lists: the boxes it left as text (`_OTHER_STATUS`)
    as `task_boxes` reads them, so both paths read `- [-] dropped` alike."""
    _boxes(state, _OTHER_STATUS)


def _boxes(state: StateCore, box: re.Pattern[str]) -> None:
    tokens = state.tokens
    lists: list[Token] = []
    for at, token in enumerate(tokens):
        if token.type in _LIST_OPENS:
            lists.append(token)
        elif token.type in _LIST_CLOSES:
            lists.pop()
        elif (
            token.type == "inline"
            and at >= 2
            and at < len(tokens) - 1
            and tokens[at - 1].type == "paragraph_open"
            and tokens[at - 2].type == "list_item_open"
            and box.match(token.content)
        ):
            _checkbox(token)
            tokens[at - 2].attrSet("class", "task-list-item")
            if lists:
                lists[-1].attrSet("class", "contains-task-list")


def _checkbox(token: Token) -> None:
    """`token`'s box as a checkbox before its text (the box cut from the text)."""
    assert token.children is not None
    checked = 'checked="checked" ' if token.content[1] != " " else ""
    token.children.insert(0, Token("html_inline", "", 0, content=_CHECKBOX.format(checked)))
    token.children[1].content = token.children[1].content[3:]
    token.content = token.content[3:]


def hard_breaks(state: StateCore) -> None:
    """Every soft line break a line break (markdown-it's `breaks` option does this in its
    HTML renderer only; the engine and Textual's `Markdown` read the tokens). Runs after
    raw HTML is read, so `<br>` then a newline stays one break."""
    for token in state.tokens:
        if token.type == "inline" and token.children:
            for child in token.children:
                if child.type == "softbreak":
                    child.type, child.tag = "hardbreak", "br"


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
    """`#tag` where a note's tags count one (`core.links.tags.tag_at`): a `vault_tag`
    token, its content the tag as written (`#garden`)."""
    start = state.pos
    if state.src[start] != "#" or (tag := tag_at(state.src, start, state.posMax)) is None:
        return False
    if not silent:
        state.push("vault_tag", "", 0).content = f"#{tag}"
    state.pos = start + 1 + len(tag)
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
        setext = opening.type == "heading_open" and opening.markup in ("-", "=")
        if (opening.type != "paragraph_open" and not setext) or inline.type != "inline":
            continue
        first, _, rest = inline.content.partition("\n")
        match = CALLOUT.match(first.strip())
        if match is None:
            continue
        if setext:  # `> [!note] Title` over `> -`: a title and an empty item, no heading
            _as_paragraph(opening, tokens[index + 3])
        kind, fold, title = match.group(1).strip().lower(), match.group(2), match.group(3).strip()
        token.meta = {**token.meta, "callout": kind, "fold": fold}
        opening.meta = {**opening.meta, "callout_title": kind, "callout_fold": fold}
        inline.content = title or kind.replace("-", " ").capitalize()
        if rest.strip():
            _split_after_title(tokens, index, rest)


def _details(state: StateCore) -> None:
    """`<details>` … `</details>` blocks (the same level, innermost pairs first), and a
    disclosure written as one block of HTML, as callouts of kind `DETAILS`; the HTML
    beside a tag in its block stays inside; a tag without its pair, or inside as many
    blocks as markdown-it nests (`maxNesting`), stays HTML."""
    tokens = state.tokens
    opened: list[tuple[int, re.Match[str]]] = []
    made: dict[int, list[Token]] = {}
    for index, token in enumerate(tokens):
        if token.type != "html_block":
            continue
        if (whole := _DETAILS_WHOLE.fullmatch(token.content)) is not None:
            inside = _inner(whole.group(3), token)
            made[index] = [*_disclosure(token, whole), *inside, _closing(token)]
        elif (head := _DETAILS_OPEN.fullmatch(token.content)) is not None:
            opened.append((index, head))
        elif (
            (tail := _DETAILS_CLOSE.fullmatch(token.content)) is not None
            and "<details" not in tail.group(1).lower()
            and opened
            and tokens[opened[-1][0]].level == token.level
        ):
            start, head = opened.pop()
            if token.level + len(opened) >= state.md.options["maxNesting"]:
                continue  # as deep as markdown-it nests blocks: HTML, as a quote stops there
            made[start] = [*_disclosure(tokens[start], head), *_inner(head.group(3), tokens[start])]
            made[index] = [*_inner(tail.group(1), token), _closing(token)]
    if made:
        tokens[:] = [new for index, token in enumerate(tokens) for new in made.get(index, [token])]


def _closing(tag: Token) -> Token:
    """The end of the disclosure whose `</details>` is in the block `tag`."""
    return Token("blockquote_close", "blockquote", -1, level=tag.level)


def _inner(html: str, beside: Token) -> list[Token]:
    """The HTML `html` inside a disclosure, written in the block `beside` (none: blank)."""
    if not html.strip():
        return []
    inner = Token("html_block", "", 0, content=html, map=beside.map, level=beside.level + 1)
    return [inner]


def _disclosure(opening: Token, match: re.Match[str]) -> list[Token]:
    """A callout's opening tokens for the `<details>` block `opening` (`match`, its
    `_DETAILS_HEAD`): its quote and its title (the summary's text, else `Details`),
    folded unless the tag says `open`."""
    attributes, summary = match.group(1) or "", " ".join((match.group(2) or "").split())
    fold = "+" if _OPEN_ATTRIBUTE.search(attributes) else "-"
    return callout_head(DETAILS, fold, summary or "Details", opening.level, opening.map)


def _as_paragraph(opening: Token, closing: Token) -> None:
    """Make a setext heading's tokens a paragraph's (its underline is gone)."""
    for token, kind in ((opening, "paragraph_open"), (closing, "paragraph_close")):
        token.type, token.tag, token.markup = kind, "p", ""


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


def _heading_attributes(state: StateCore) -> None:
    """A heading's closing attribute block (`## Usage {#usage}`) is no part of its text
    (`core.pages.without_attributes`)."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "inline" and index and tokens[index - 1].type == "heading_open":
            token.content = without_attributes(token.content)


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
    """A paragraph holding only a page embed → one `vault_embed` token; so is a
    ```` ```base ```` block, an Obsidian base written in the page (its YAML in the token's
    `written`)."""
    tokens = state.tokens
    out: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type == "fence" and (href := _written_query(token)) is not None:
            block = Token("vault_embed", "", 0, map=token.map, level=token.level)
            label = token.info.strip().lower()
            block.meta = {"href": href, "label": label, "written": token.content}
            out.append(block)
            index += 1
            continue
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


_QUERY_READERS: dict[str, tuple[Callable[[str], object], str]] = {
    "dataview": (read_query, WRITTEN_QUERY),
    "tasks": (read_tasks_query, WRITTEN_TASKS),
}
"""A query block's language → what reads it, and the href it is shown by."""


def _written_query(fence: Token) -> str | None:
    """The href a fenced block is shown by when it is a query okf-explorer runs: a
    ```` ```base ```` block, or a ```` ```dataview ```` or ```` ```tasks ```` block it
    reads (`core.bases.dataview_query`, `core.bases.tasks_query`; any other stays code,
    as written)."""
    language = fence.info.strip().lower()
    if language == "base":
        return WRITTEN_BASE
    if language not in _QUERY_READERS:
        return None
    read, href = _QUERY_READERS[language]
    try:
        read(fence.content)
    except QueryRefused:
        return None
    return href


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


_INLINE_MATH = frozenset({"math_inline", "math_inline_double"})


def _math(state: StateCore) -> None:
    """Dollar math as standard tokens: a `math_block` → a `fence` of `latex`, marked
    `DRAWN_AS` (its text, `math_text`, first and last blank lines off; "grid" for a matrix
    drawn between tall brackets, `display_math`), and so is a `$$…$$`
    standing on lines of its own inside a paragraph (`_display_math`); other inline math →
    `code_inline` (its text, on one line)."""
    _display_math(state)
    for token in state.tokens:
        if token.type == "math_block":
            _as_math_fence(token, token.content)
        for child in token.children or ():
            if child.type in _INLINE_MATH:
                child.type, child.tag = "code_inline", "code"
                child.content = " ".join(math_text(child.content).split())


def _as_math_fence(token: Token, tex: str) -> None:
    token.type, token.tag, token.info, token.markup = "fence", "code", "latex", "$$"
    text, grid = display_math(tex.strip("\n"))
    token.meta = {**token.meta, DRAWN_AS: "grid" if grid else "rows"}
    token.content = text + "\n"


_BREAKS = frozenset({"softbreak", "hardbreak"})


def _display_math(state: StateCore) -> None:
    """A paragraph holding `$$…$$` on lines of its own (no blank line before it: seen in
    a math-heavy LLM wiki, in a callout's first paragraph and after a sentence) is cut
    there: the paragraph before, the math as a block, the paragraph after. Obsidian shows
    such math as a block; dollar math without a blank line before reads it inline."""
    tokens = state.tokens
    index = 1
    while index < len(tokens) - 1:
        inline = tokens[index]
        opening, closing = tokens[index - 1], tokens[index + 1]
        if inline.type != "inline" or opening.type != "paragraph_open":
            index += 1
            continue
        children = inline.children or []
        cuts = [
            n
            for n, child in enumerate(children)
            if child.type == "math_inline_double"
            and (n == 0 or children[n - 1].type in _BREAKS)
            and (n == len(children) - 1 or children[n + 1].type in _BREAKS)
        ]
        if not cuts:
            index += 1
            continue
        made: list[Token] = []
        start = 0
        for cut in [*cuts, len(children)]:
            part = children[start:cut]
            while part and part[0].type in _BREAKS:
                part = part[1:]
            while part and part[-1].type in _BREAKS:
                part = part[:-1]
            if part:
                paragraph = Token("inline", "", 0, map=inline.map, level=inline.level)
                paragraph.children = part
                paragraph.content = "".join(child.content for child in part)
                made += [_copy(opening, first=not made), paragraph, _copy(closing)]
            if cut < len(children):
                fence = Token("fence", "code", 0, map=inline.map, level=opening.level)
                _as_math_fence(fence, children[cut].content)
                made.append(fence)
            start = cut + 1
        tokens[index - 1 : index + 2] = made
        index += len(made) - 1


def _copy(token: Token, first: bool = True) -> Token:
    """A paragraph's opening or closing token for one of its pieces (its `meta`, a block
    id say, on the first only)."""
    copied = Token(token.type, token.tag, token.nesting, map=token.map, level=token.level)
    copied.hidden, copied.meta = token.hidden, dict(token.meta) if first else {}
    return copied


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
