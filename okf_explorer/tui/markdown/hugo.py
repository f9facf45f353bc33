"""A page taken from a Hugo site, its shortcodes shown as the site shows them.

A knowledge base that takes in a Hugo site's pages keeps the site's shortcodes, which
plain Markdown shows as written: on an LLM-kept wiki of framework docs, Redis's docs
(3,634 of its 14,094 pages) read `{{< note >}}` … `{{< /note >}}` around their notes,
`{{< image filename="…" alt="…" >}}` over five lines where a picture stands, and
`[Create a database]({{< relref "/operate/rc/…" >}})` for each of their 26,607 links.
These shortcodes are read here:

- `note`, `warning`, `alert`, `tip`, `caution`, `important`, `info` (`{{< note >}}`,
  `{{<warning>}}`, `{{< alert title="Title" >}}`) around blocks or within one paragraph:
  a callout of that type. One whose closing shortcode is not found at the same depth
  (inside a list the opening one is not in) stays as written.
- `image`: the image it names, as `![alt](filename)` shows (a placeholder, `raw_html`).
- a Markdown link to `relref "path"`: its text. It is no link of the graph: SPEC §3 reads
  a link to a `.md` file or a folder, and Hugo resolves the path against its own
  `content/` folder, so the explorer does not follow it either.
- `multitabs` (`{{< multitabs id="…" tab1="EC2" tab2="RDS" >}}`, its tabs parted by
  `-tab-sep-` lines, to `{{< /multitabs >}}`: 623 on Redis's pages): each tab a callout
  titled by its name, one under the other, as content tabs are (`admonitions.TAB`).
- `clients-example` (553): its body, a command, as a code block (the site shows each
  client's code beside it, from files the wiki does not hold). One with no body stays.
- `highlight` (`{{< highlight bash >}}` … `{{< /highlight >}}`: 447 on Redis's pages): its
  body as a code block of that language.
- `banner-article` (55, a notice of an end of life): an `important` callout; the
  wrappers `table-scrollable` (62) and `scrollable-code`: left out, what they wrap kept;
  `{{<code>}}` … `{{</code>}}` (124, JSON in a table's cell): code, as `<code>` is.

Any other shortcode stays as written.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from okf_explorer.tui.markdown.admonitions import TAB
from okf_explorer.tui.markdown.callout_tokens import callout_head, tokenize_body
from okf_explorer.tui.markdown.raw_html import image_token

__all__ = ["NOTE_KINDS", "use_hugo_shortcodes"]

NOTE_KINDS = frozenset(
    {"note", "warning", "alert", "tip", "caution", "important", "info", "banner-article"}
)
"""The shortcodes read as callouts of their type."""
CALLOUT_OF = {"banner-article": "important"}
"""A shortcode drawn as a callout of another type (Redis's notices of an end of life)."""
WRAPPERS = frozenset({"table-scrollable", "scrollable-code"})
"""Shortcodes around a block that only change how it scrolls: left out, the block kept."""
_OPENING = re.compile(
    r"\{\{[<%]\s*(?P<kind>[a-z]+(?:-[a-z]+)*)(?:\s+title=\"(?P<title>[^\"\n]*)\")?"
    r"\s*[>%]\}\}[ \t]*\n?"
)
_WRAPPER = re.compile(rf"[ \t]*\{{\{{<\s*/?(?:{'|'.join(sorted(WRAPPERS))})\s*>\}}\}}[ \t]*")
"""A line holding only a wrapper's opening or closing shortcode."""
_CODE_MARK = re.compile(r"\{\{<\s*(/?)code\s*>\}\}")
"""Redis's inline code shortcode (`{{<code>}}{"a": 1}{{</code>}}` in a table's cell)."""
_RELREF_LINK = re.compile(
    r"\[(?P<text>[^\[\]\n]*)\]\(\s*\{\{[<%]\s*relref\s+\"[^\"\n]*\"\s*[>%]\}\}(?:#[^\s()]*)?\s*\)"
)
_IMAGE = re.compile(r"\{\{<\s*image\s+(?P<attributes>(?:[^>{]|>(?!\}\})|\{(?!\{<)){0,2000})>\}\}")
"""An image shortcode, its attributes read up to its `>}}` and never past another
shortcode's start (a page of unclosed ones is read once, not once a shortcode)."""
_ATTRIBUTE = re.compile(r"([\w-]+)=\"([^\"]*)\"")
MOST_LABEL_CHARS = 1000
"""Characters a relref link's text may have (where its `]` is looked for)."""
MOST_BLOCK_TOKENS = 2000
"""Tokens looked through for a note's closing shortcode (a page's notes are short)."""
BLOCKS = ("multitabs", "clients-example", "highlight")
"""The shortcodes read as blocks of lines (`_block`)."""
MOST_HEAD_LINES = 20
"""Lines a block shortcode's opening may take (its attributes over several)."""
_BLOCK_OPENING = re.compile(rf"[ \t]*\{{\{{<\s*({'|'.join(BLOCKS)})\b")
_BLOCK_CLOSING = re.compile(rf"[ \t]*\{{\{{<\s*/\s*({'|'.join(BLOCKS)})\s*>\}}\}}[ \t]*")
"""A block shortcode's closing line (`{{< /highlight >}}`, also `{{< / highlight >}}`)."""
_LANGUAGE = re.compile(r"\{\{<\s*highlight\s+([\w+#.-]+)")
"""The language a `highlight` shortcode names (`{{< highlight bash >}}`)."""
_TAB_SEPARATOR = re.compile(r"[ \t]*-+tab-sep-+[ \t]*")
CLOSINGS = "hugo_closings"
"""The parse's `env` key of the lines closing block shortcodes, by name (`_closings`)."""


def use_hugo_shortcodes(md: MarkdownIt) -> None:
    """Read Hugo's notes, images, relref links, tabs and client examples with `md` (the
    module doc)."""
    md.core.ruler.after("block", "hugo_notes", _notes)
    md.block.ruler.before("paragraph", "hugo_blocks", _block, {"alt": ["paragraph"]})
    # before the table's rule, and ending a table (its rule ends where a `blockquote`
    # terminator matches): a wrapper's closing line is no row of it
    wrapper_ends = {"alt": ["paragraph", "blockquote"]}
    md.block.ruler.before("table", "hugo_wrapper", _wrapper_line, wrapper_ends)
    md.inline.ruler.before("link", "hugo_relref_link", _relref_link)
    md.inline.ruler.before("link", "hugo_image", _image)  # tried where text stops: a `{`
    md.inline.ruler.before("link", "hugo_code", _code_mark)


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
        closing = re.compile(r"\{\{[<%]\s*/" + kind + r"\s*[>%]\}\}\s*$")  # words: [a-z-]+
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
        drawn = CALLOUT_OF.get(kind, kind)
        title = opened["title"] or drawn.capitalize()
        head = callout_head(drawn, "", title, paragraph.level, paragraph.map)
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
    if (found := _shortcode_at(state, _IMAGE)) is None:
        return False
    if not silent:
        attributes = dict(_ATTRIBUTE.findall(found["attributes"]))
        source = attributes.get("filename") or attributes.get("src") or ""
        image = image_token(source, attributes.get("alt", ""))
        token = state.push("image", "img", 0)  # after the text before it
        token.attrs, token.children, token.content = image.attrs, image.children, image.content
    state.pos = found.end()
    return True


def _wrapper_line(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A line holding only a `WRAPPERS` shortcode: left out (the table it wraps is drawn
    as any table, and scrolls as any does)."""
    at = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("{{<", at) or not _WRAPPER.fullmatch(_line(state, start)):
        return False
    if not silent:
        state.line = start + 1
    return True


def _code_mark(state: StateInline, silent: bool) -> bool:
    """`{{<code>}}` and `{{</code>}}`: `<code>` and `</code>`, which `raw_html` reads (the
    code between, its `<br />`s line breaks)."""
    if (found := _shortcode_at(state, _CODE_MARK)) is None:
        return False
    if not silent:
        state.push("html_inline", "", 0).content = f"<{found[1]}code>"
    state.pos = found.end()
    return True


def _shortcode_at(state: StateInline, shortcode: re.Pattern[str]) -> re.Match[str] | None:
    """The `shortcode` written where the inline parser stands, if any (tried where text
    stops, at a `{`: three characters looked at first)."""
    if not state.src.startswith("{{<", state.pos):
        return None
    return shortcode.match(state.src, state.pos)


def _block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A `multitabs` or `clients-example` shortcode, from its opening to its closing line,
    as tabs or a code block (the module doc)."""
    at = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("{{<", at):
        return False  # tried at every block's start: three characters first
    opening = _BLOCK_OPENING.match(state.src[state.bMarks[start] : state.eMarks[start]])
    if opening is None:
        return False
    head_end = _head_end(state, start, end)
    closing = _next_closing(state, opening[1], head_end, end)
    if head_end is None or closing is None:
        return False
    head = " ".join(_line(state, line) for line in range(start, head_end + 1))
    attributes = dict(_ATTRIBUTE.findall(head))
    if opening[1] in ("clients-example", "highlight"):
        code = "".join(_line(state, line) + "\n" for line in range(head_end + 1, closing))
        if not code.strip():
            return False
        if not silent:
            language = _LANGUAGE.match(head.lstrip())
            token = state.push("fence", "code", 0)
            token.info = language[1] if language else ""
            token.markup, token.map = "```", [start, closing + 1]
            token.content = code
    elif not silent:
        parts, first = [], head_end + 1
        for line in range(head_end + 1, closing + 1):
            if line == closing or _TAB_SEPARATOR.fullmatch(_line(state, line)):
                parts.append((first, line))
                first = line + 1
        for number, (first, last) in enumerate(parts, 1):
            title = attributes.get(f"tab{number}", f"Tab {number}")
            state.tokens += callout_head(TAB, "", title, state.level, [first, last])
            state.level += 1
            tokenize_body(state, first, last, state.blkIndent)
            state.push("blockquote_close", "blockquote", -1)  # the level back to the tabs'
    state.line = closing + 1
    return True


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] : state.eMarks[line]]


def _head_end(state: StateBlock, start: int, end: int) -> int | None:
    """The line where the shortcode opened on `start` ends (its `>}}`)."""
    for line in range(start, min(end, start + MOST_HEAD_LINES)):
        if ">}}" in _line(state, line):
            return line
    return None


def _next_closing(state: StateBlock, name: str, after: int | None, end: int) -> int | None:
    """The first line closing a `name` shortcode after line `after`, before `end`."""
    if after is None:
        return None
    closings = state.env.get(CLOSINGS)
    if closings is None:
        closings = state.env[CLOSINGS] = _closings(state)
    lines = closings.get(name, [])
    found = bisect_right(lines, after)
    return lines[found] if found < len(lines) and lines[found] < end else None


def _closings(state: StateBlock) -> dict[str, list[int]]:
    """The lines closing block shortcodes, by name, in order: read once a page."""
    closings: dict[str, list[int]] = {}
    for line in range(len(state.bMarks) - 1):
        if "{{<" in (text := _line(state, line)) and (closing := _BLOCK_CLOSING.fullmatch(text)):
            closings.setdefault(closing[1], []).append(line)
    return closings
