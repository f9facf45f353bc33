"""A page as text: what the search index holds and what a snippet shows.

Markdown, HTML and link syntax are taken out before a page is indexed, so a search
ranks the words a reader sees (not the words of URLs, badges or comments), and a
snippet is cut from text that is already clean: the hit marks can only fall on
words. What is kept and what goes, as a reader sees the page rendered:

- a link reads as its text: `[[target|alias]]` as `alias`, `[[Note#Part]]` as
  `Note Part`, `[text](url)` and `[text][ref]` as `text`; an autolink or a bare URL
  as its host name (`https://github.com/x/y` → `github.com`), other schemes dropped;
- embeds (`![[file]]`), images (`![alt](src)`), reference definitions, footnote
  marks, block ids (`^id`), comments (`%% … %%`, `<!-- … -->`) and HTML tags go
  (the text between tags stays; entities are decoded; in code, `<uuid>` is no tag);
- an inline footnote (`^[…]`) reads as its note when the note is words; one without a
  space (`^[source-page.md]`, `^[^@]`: a citation, as LLM-written bundles put after
  every sentence) goes, so a source's file name is neither a hit nor a snippet's text;
- a callout's first line reads as its title, or its type when it has none (`> [!note]` as
  `Note`, as Obsidian shows it);
- math (`$…$`, `$$…$$`, `$$` blocks, outside code: `core.links.grammar.math_ranges`, the
  stretches the page draws as math) reads as the explorer draws it (`core.math_text`:
  `$\\lambda_{1} \\neq 0$` as `λ₁ ≠ 0`), not as TeX commands (`lambda`, `frac` and `sum`
  were words of every formula, and `_` in `x_{i}` read as emphasis);
- the marks of headings, quotes, callouts, lists, tasks, rules, tables,
  emphasis (`**`, `__`, `*`, `_`, `~~`, `==`), code (fences and backticks: the code
  itself stays) and tags (`#tag` reads `tag`); backslash escapes read as their
  character. Code is shown as written, in a code span (`` `~/.claude/**/*.jsonl` ``
  reads `~/.claude/**/*.jsonl`) and in a fenced block (`def __init__(self, **kwargs)`
  keeps its underscores and stars), its links, URLs and entities too (`` `[[Note]]` ``
  reads `[[Note]]`): `index_text` puts a block's code between `CODE_OPEN` and
  `CODE_CLOSE`.

Bounded work: a fixed number of regular-expression passes, each linear in the page
(no pattern backtracks across lines), the same for every page. `heading_text` gives
a page's headings (every level, outside fenced code), cleaned the same way, for the
index's headings column.
"""

from __future__ import annotations

import html
import re

from okf_explorer.core.links.grammar import (
    code_span_ranges,
    math_ranges,
    outside_code,
    prose_ranges,
)
from okf_explorer.core.links.reading import HTML_ELEMENTS
from okf_explorer.core.math_text import math_text
from okf_explorer.core.pages import without_attributes

__all__ = [
    "CODE_CLOSE",
    "CODE_OPEN",
    "HIDDEN_BLOCK_PROPERTY",
    "display_text",
    "heading_text",
    "index_text",
    "logseq_visible",
    "plain_text",
]

LOGSEQ_HIDDEN_PROPERTIES = (
    *("id", "custom-id", "collapsed", "heading", "background-color", "background_color"),
    *("created-at", "updated-at", "last-modified-at", "created_at", "last_modified_at"),
    *("query-table", "query-properties", "query-sort-by", "query-sort-desc"),
    *("ls-type", "hl-type", "hl-page", "hl-stamp", "hl-color"),
    *("logseq.macro-name", "logseq.macro-arguments", "logseq.order-list-type"),
    *("logseq.tldraw.page", "logseq.tldraw.shape"),
    *("card-last-interval", "card-repeats", "card-last-reviewed", "card-next-schedule"),
    *("card-ease-factor", "card-last-score"),
)
"""The block properties Logseq never shows: its graph parser's `hidden-built-in-properties`
(`id::` anchors a block reference, `collapsed::` folds it, `created-at::` stamps it),
with the ones its app adds (highlights, numbered lists, flashcards). Logseq's docs graph
showed 32 `updated-at::` and 34 `created-at::` / `created_at::` lines."""
HIDDEN_BLOCK_PROPERTY = re.compile(
    r"[ \t]+(?:" + "|".join(map(re.escape, LOGSEQ_HIDDEN_PROPERTIES)) + r")::.*",
    re.I,
)
"""A line of a Logseq block holding one of `LOGSEQ_HIDDEN_PROPERTIES`, matched whole
(`fullmatch`)."""
_ORG_MARK = re.compile(r"#\+(?:BEGIN|END)_\w+", re.I)

_OBSIDIAN_COMMENT = re.compile(r"%%.*?(?:%%|\Z)", re.DOTALL)
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
# Every pattern below starts with a literal character (lookarounds after it), so
# the engine skips from candidate to candidate instead of trying each position; and
# none looks for its end past the next opening of its kind (text in brackets holds no
# `[`, a tag no `<`), so a line of thousands of openings costs its length, not its square.
CODE_OPEN, CODE_CLOSE = "\x0e", "\x0f"
"""Around each line of a fenced block's code, in `index_text` (its fence lines gone):
control characters, which the index's tokenizer reads as separators and a page never
holds (`document` takes them out), so `display_text` shows the code as it is written."""
_DEFINITION = re.compile(r"\n[ \t]*\[[^\]\n]+\]:[^\n]*")
_WIKI_PART = re.compile(r"\[\[(?<!!\[\[)([^\[\]\n#|]*)#\^?([^\[\]\n|]*)\]\]")
"""A wiki-link into a heading or a block, without an alias: `[[Note#Part]]` → `Note Part`."""
_INLINE_NOTE = re.compile(r"\^\[([^\[\]\n]*+(?:\[\[[^\[\]\n]*\]\][^\[\]\n]*+)*+)\]")
"""An inline footnote, `^[note]` (a wiki-link inside it kept whole): its note."""
_ADDRESS = r"\([^()\[\n]*+(?:\([^()\[\n]*+\)[^()\[\n]*+)*+\)"
"""A Markdown link's address in its parentheses, which may hold balanced ones
(`(…/Guide-(Advanced)#part)`, as CommonMark reads it and `core.links.grammar` does)."""
_LINKS = re.compile(
    r"!\[\[[^\[\]\n]*\]\]"  # an embed
    rf"|!\[[^\[\]\n]*\]{_ADDRESS}"  # an image
    r"|\[\[[^\[\]\n|]*\\?\|([^\[\]\n]*)\]\]"  # a wiki-link with its alias: the alias
    r"|\[\[([^\[\]\n|]*)\]\]"  # a wiki-link: its target
    rf"|\[([^\[\]\n]*)\]{_ADDRESS}"  # a Markdown link: its text
    r"|\[\^[^\[\]\n]*\]:?"  # a footnote mark
    r"|\[([^\[\]\n]*)\]\[[^\[\]\n]*\]"  # a reference link: its text
    r"|<(?:https?|ftp)://([^/\s<>:]+)[^<>\s]*>"  # an autolink: its host
    r"|<[a-z][a-z0-9+.-]*:[^<>\s]*>"  # an autolink of another scheme
)
_URL = re.compile(r"http(?:s?)://([^/\s)\]>:'\"`]+)[^\s)\]>'\"`]*")
"""A bare URL: read as its host."""
_OTHER_URLS = {
    scheme: re.compile(scheme + r":[^\s)\]>'\"`]+") for scheme in ("obsidian", "mailto", "file")
}
_TAGS_HTML = re.compile(r"</?[a-zA-Z][^<>\n]*>")
_OPEN_TAG_RUNNING_ON = re.compile(
    rf"<(?:{'|'.join(sorted(HTML_ELEMENTS | {name.upper() for name in HTML_ELEMENTS}))})\b"
    r"(?:[^<>]|<(?=/))*+>"
)
"""An HTML element's opening tag (written in lower or upper case) across lines and
closing tags, to its `>`, as a browser (and the page, `tui.markdown.raw_html`) reads one
whose `>` was left out: a study vault's exam pages open with `<div class="exam-nav"` and
`data-current="…"` before `</div>`, and their snippets quoted it. It stops at any other
`<` and a letter, so each `<` is read about once. (Case-blind matching cost three times
as long, a tenth of `index_text`'s time on pages holding HTML.)"""
_CALLOUT = re.compile(
    r"\n([ \t]*(?:>[ \t]?)+)\[!([^\]|\n]*[^\]|\s][^\]|\n]*)(?:\|[^\]\n]*)?\][+-]?([^\n]*)"
)
"""A callout's first line (`> [!tip] Title`): read as its title, or as its type (`Note`) when
it has none, as Obsidian shows it; never the bracketed mark."""
_HEADINGS = re.compile(
    r"\n(?:(?P<fence>```|~~~)|(?:[ \t]*[-*+][ \t]+)?#{1,6}[ \t]+(?P<text>[^\r\n]*))"
)
"""A fence, or a heading: at a line's start or a list item's (`- ## Usage`, as Logseq
writes every heading)."""

_BRACE_ENDING_A_LINE = re.compile(r"\}[ \t]*(?=\n)")
"""Where a heading's attribute block may end (`_without_heading_attributes`): a scan for
its first character, where a pattern of the whole heading line, tried at every line,
added a fifth to the time `index_text` took on a wiki of code-heavy docs."""
_HEADING_START = re.compile(r" {0,3}(?:[-*+][ \t]+)?#{1,6}[ \t]")
"""A heading's start, at a line's (a fenced block's code lines start with `CODE_OPEN`)."""
_LINE_MARKS = re.compile(  # blanks taken possessively (`*+`): no run of them is tried twice
    r"\n[ \t]*+(?:"
    r"(?:>[ \t]?)+(?:\[![\w-]+(?:\|[^\]\n]*)?\][+-]?|#{1,6}(?=[ \t]))?"  # quotes, then a
    # callout's type or a heading
    r"|#{1,6}(?=[ \t])"  # a heading
    r"|(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[.\][ \t]|#{1,6}(?=[ \t]))?"  # a list item, then a task
    # box or a heading (`- ## Usage`, as Logseq writes every heading)
    r"|(?:[-*_][ \t]*+){3,}(?=\n)"  # a rule
    r"|\|?[ \t]*+:?-+:?[ \t]*+(?:\|[ \t]*+:?-+:?[ \t]*+)*+\|?[ \t]*+(?=\n)"  # a table's rule
    r")"
)
_BLOCK_ID = re.compile(r"(?<=[ \t\n])\^[A-Za-z0-9-]+(?=[ \t]*\n)")
"""A block id ending a line (`Task ^TrVV8B0b`, or alone after a list): never a word of the
page (an Excalidraw drawing's text elements each end with one)."""
_PAIRED_MARKS = ("**", "~~", "==", "$$", "`")
"""Marks that are never text: gone wherever they are."""
_BARS = re.compile(r"(\\.)|\|")
"""A table's bar, gone wherever it is, or an escape, kept for `_ESCAPE` (`\\|`, a pipe
within a cell, reads `|`)."""
# A snippet's hit marks (`\x02`, `\x03`) stand next to words: `a_\x02b\x03` keeps its `_`.
_SINGLE_MARKS = re.compile(
    r"__?(?![\w\x02])|_(?<![\w\\\x03]_)_?"  # underscores opening or closing (not `a_b`)
    r"|\*(?!\s)|\*(?<=[^\s\\]\*)"  # emphasis stars (a lone ` * ` stays)
    r"|#(?<![\w&/#\\\x03]#)(?=\x02?[^\W\d_])"  # the `#` of a tag
    r"|\^(?<=[ \t]\^)[\w-]+(?=\n)"  # a block id
)
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_BACKTICKS = re.compile(r"`+")
_CODE_MARKS = re.compile(f"({CODE_OPEN}|{CODE_CLOSE})")
_QUOTE_MARKS = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.MULTILINE)


def logseq_visible(text: str) -> str:
    """A Logseq page's text as Logseq shows it (`tui.markdown.logseq` draws the page so):
    without its blocks' `HIDDEN_BLOCK_PROPERTY` lines and the `#+BEGIN_NOTE` / `#+END_NOTE`
    marks around a block (its lines stay), and its other properties as `key: value` (a
    search snippet of Logseq's docs read `alias:: page alias type:: Feature`)."""
    if "::" in text:
        lines = text.splitlines(keepends=True)
        text = "".join(
            line for line in lines if not HIDDEN_BLOCK_PROPERTY.fullmatch(line.rstrip("\r\n"))
        )
        text = _VISIBLE_PROPERTY.sub(r"\g<1>", text)
    return _ORG_MARK.sub("", text) if "#+" in text else text


_VISIBLE_PROPERTY = re.compile(r"^([ \t]*(?:[-*+][ \t]+)?[^\W\d][\w.-]*):(?=:(?:[ \t]|$))", re.M)
"""A Logseq property's key and its first colon (`type:: Feature` shows `type: Feature`)."""


def _math_as_text(stretch: str) -> str:
    """Each formula of `stretch` (text outside code) as `math_text` writes it: the math
    the page draws (`core.links.grammar.math_ranges`), a `$$` one as a display."""
    if "$" not in stretch:
        return stretch
    pieces: list[str] = []
    pos = 0
    for start, end in math_ranges(stretch):
        pieces.append(stretch[pos:start])
        if stretch.startswith("$$", start):
            pieces.append(f" {math_text(stretch[start + 2 : end - 2], display=True)} ")
        else:
            pieces.append(math_text(stretch[start + 1 : end - 1]))
        pos = end
    pieces.append(stretch[pos:])
    return "".join(pieces)


def index_text(markdown: str) -> str:
    """`markdown` with what is not words a reader sees taken out: links read as their
    text, URLs as their host, embeds, images, comments and HTML tags gone (see the
    module doc). The marks `display_text` drops stay: the tokenizer skips them."""
    text = "\n" + markdown + "\n"  # every line starts after a `\n` and ends before one
    if "$" in text:
        text = outside_code(text, _math_as_text)
    # a one-character test first: memchr's speed, where a longer needle's is a tenth of it
    if "%" in text and "%%" in text:
        text = _OBSIDIAN_COMMENT.sub(" ", text)
    if "<" in text and "<!--" in text:
        text = _HTML_COMMENT.sub(" ", text)
    if ("`" in text and "```" in text) or ("~" in text and "~~~" in text):
        text = _code_marked(text)
    if "[" in text or ":" in text or "<" in text or "&" in text:
        text = _prose_read(text)  # its code spans marked too
    elif "`" in text:
        text = _HELD_CODE.sub(_held_marked, text)
    if "^" in text:
        text = _BLOCK_ID.sub("", text)
    if "{" in text and "#" in text:
        text = _without_heading_attributes(text)
    return text[1:-1]


def _held_marked(held: re.Match[str]) -> str:
    """`_span_marked` of what `_HELD_CODE` found."""
    return _span_marked(held[0])


def _span_marked(written: str) -> str:
    """A code span between `CODE_OPEN` and `CODE_CLOSE` instead of its backticks, as a
    fenced block's lines are (`_HELD_CODE` finds those too: they stay): a snippet cut
    inside a span still reads its code as code and the prose after it as prose. With the
    backticks, a snippet starting inside a span paired them the other way round, and a
    table row's bars after it were kept as code (`Import: {{realm_id}}. | | keycloak_ldap…`,
    on an LLM wiki of Terraform tables). A span `_HELD_CODE` misses (across lines, between
    longer runs) keeps its backticks, which `display_text` pairs as before."""
    if written[0] != "`":
        return written
    ticks = 2 if written.startswith("``") else 1
    return CODE_OPEN + written[ticks:-ticks] + CODE_CLOSE


def _without_heading_attributes(text: str) -> str:
    """`text` (its code marked, `_code_marked`) with each heading line's attribute block
    taken out (`core.pages.without_attributes`)."""
    kept: list[str] = []
    done = 0
    for brace in _BRACE_ENDING_A_LINE.finditer(text):
        start = text.rfind("\n", 0, brace.start()) + 1
        if not _HEADING_START.match(text, start):
            continue
        line = text[start : brace.end()]
        if (shown := without_attributes(line)) != line:
            kept += [text[done:start], shown]
            done = brace.end()
    return "".join(kept) + text[done:] if kept else text


def _links_read(text: str) -> str:
    """`text` (prose, no code) with its links read as their text, its URLs as their
    host, its reference definitions, embeds, other schemes and HTML tags gone (the text
    between tags stays) and then its entities decoded (`&lt;div&gt;` is text, no tag)."""
    if "[" in text:
        if "!" in text and "[!" in text:
            text = _CALLOUT.sub(_callout_title, text)
        if "]:" in text:
            text = _DEFINITION.sub("\n", text)
        if "^" in text and "^[" in text:
            text = _INLINE_NOTE.sub(_note, text)
        if "#" in text and "[[" in text:
            text = _WIKI_PART.sub(_both_groups, text)
        text = _LINKS.sub(_group, text)
    if "://" in text:
        text = _URL.sub(_group, text)
    if ":" in text:
        for scheme, pattern in _OTHER_URLS.items():
            if scheme + ":" in text:
                text = pattern.sub("", text)
    if "<" in text:
        text = _TAGS_HTML.sub(" ", _OPEN_TAG_RUNNING_ON.sub(" ", text))
    if "&" in text:
        text = html.unescape(text)
    return text


def _prose_read(text: str) -> str:
    """`_links_read` of `text`, its code kept as written (a code span's backticks
    marked as code, `_span_marked`): each stretch of code
    `_links_read` would change is held aside as a numbered stand-in meanwhile
    (`_HELD_CODE`: the lines `_code_marked` put between `CODE_OPEN` and `CODE_CLOSE`, and
    code spans on one line). A help page's `` `[[Projects/Three laws of
    motion]]` `` teaches the syntax: it read `Projects/Three laws of motion`; a fenced
    `arr[i][j]` read `arri`; `` `<uuid>.jsonl` `` read `.jsonl`. One pass over the whole
    text, as before: a link whose text holds a code span is still a link."""
    if "`" not in text and CODE_OPEN not in text:
        return _links_read(text)  # no code
    if _HELD_OPEN in text:  # a page writing a stand-in's character
        return _HELD_CODE.sub(_held_marked, _links_read(text))
    pieces = _HELD_CODE.split(text)  # prose, code, prose, …
    code: list[str] = []
    for at in range(1, len(pieces), 2):
        pieces[at] = _span_marked(pieces[at])
        if _TURNED.search(pieces[at]) is not None:  # else nothing would change it
            code.append(pieces[at])
            pieces[at] = f"{_HELD_OPEN}{len(code) - 1}{_HELD_CLOSE}"
    if not code:
        return _links_read("".join(pieces))
    read = _links_read("".join(pieces))
    return _HELD.sub(lambda stand_in: code[int(stand_in.group(1))], read)


_TURNED = re.compile(
    "|".join(re.escape(mark) for mark in ("[", "://", "<", "&", "obsidian:", "mailto:", "file:"))
)
"""What `_links_read` reads: code without any of these is left where it is."""
_HELD_CODE = re.compile(
    f"({CODE_OPEN}[^{CODE_CLOSE}]*{CODE_CLOSE}(?:\n{CODE_OPEN}[^{CODE_CLOSE}]*{CODE_CLOSE})*"
    r"|`(?<![`\\]`)(?:[^`\n]+(?:``+[^`\n]+)*`(?!`)|`(?!`)(?:[^`\n]|`(?!`))+``(?!`)))"
)
"""A fenced block's code lines, or a code span on one line between single or double
backticks, as CommonMark pairs such runs (`core.links.grammar.code_span_ranges`: the same
spans on a line of runs of one and two backticks and no backslash,
`tests/test_search_ranking.py`). A regular expression that starts at a backtick, not that
function: finding every span exactly doubled `index_text`'s time on 6,623 pages of
documentation (a fill 18 % slower); with this it is 15-30 % slower, and the fill within
its noise. A span it misses (across lines, between longer runs) has its links read as
links, as before."""
_HELD_OPEN, _HELD_CLOSE = "\ue000", "\ue001"
"""Around the number of a stretch of code `_prose_read` holds aside (characters
of Unicode's private use area, which no link, URL or entity holds)."""
_HELD = re.compile(f"{_HELD_OPEN}(\\d+){_HELD_CLOSE}")


def _code_marked(text: str) -> str:
    """`text` with each fenced block's fence lines taken out and each line of its code
    between `CODE_OPEN` and `CODE_CLOSE` (a snippet cut inside a block still holds the
    marks of the lines it shows). The blocks are those the link grammar finds
    (`core.links.grammar.prose_ranges`: an unclosed one runs to the end; one in a quote
    has its code lines without their quote marks)."""
    ranges = prose_ranges(text)
    if ranges == [(0, len(text))]:
        return text
    pieces: list[str] = []
    for k, (start, end) in enumerate(ranges):
        pieces.append(text[start:end])
        closed = k + 1 < len(ranges)
        block = text[end : ranges[k + 1][0] if closed else len(text)]
        first = block.find("\n")  # the opening fence's line ends there
        if first < 0:
            continue
        code = block[first + 1 : block.rfind("\n")] if closed else block[first + 1 :]
        if ">" in text[text.rfind("\n", 0, end) + 1 : end]:  # a block in a quote
            code = _QUOTE_MARKS.sub("", code)
        pieces += [_code_lines(code), "\n"]
    return "".join(pieces)


def _code_lines(code: str) -> str:
    """Each line of `code` between `CODE_OPEN` and `CODE_CLOSE` (a blank one too: the
    marks read as nothing). `str.replace`, not a regular expression's template: Python
    3.11 expands a template for each line, a fifth of `index_text`'s time on a bundle of
    documentation."""
    return CODE_OPEN + code.replace("\n", CODE_CLOSE + "\n" + CODE_OPEN) + CODE_CLOSE


def _group(match: re.Match[str]) -> str:
    """The one group that matched (a link's text, a URL's host), or nothing. A
    function, not a template: Python 3.11 expands a template three times slower."""
    return match.group(match.lastindex) if match.lastindex else ""


def _note(match: re.Match[str]) -> str:
    """An inline footnote's note, after a space, when it is words; else nothing."""
    note = match.group(1).strip()
    return " " + note if len(note.split(maxsplit=1)) > 1 else ""  # a space inside it


def _callout_title(match: re.Match[str]) -> str:
    quotes, kind, title = match.groups()
    named = kind.strip().replace("-", " ").capitalize()
    return "\n" + quotes + (title if title.strip() else " " + named)


def _both_groups(match: re.Match[str]) -> str:
    return f"{match.group(1)} {match.group(2)}"


def display_text(text: str) -> str:
    """`index_text`'s text (or a piece of it) without the marks of Markdown: heading,
    quote, list, rule and table marks at line starts, emphasis, code, tags' `#`,
    block ids and escapes (see the module doc). Characters other than marks, the
    snippet's hit marks included, stay as they are."""
    if CODE_OPEN not in text and CODE_CLOSE not in text:
        return _prose(text)
    pieces: list[str] = []
    first_close, first_open = text.find(CODE_CLOSE), text.find(CODE_OPEN)
    code = first_close >= 0 and not 0 <= first_open < first_close  # cut inside a block
    for part in _CODE_MARKS.split(text):
        if part in (CODE_OPEN, CODE_CLOSE):
            code = part == CODE_OPEN
        elif part:
            pieces.append(part if code else _prose(part))
    return "".join(pieces)


def _prose(text: str) -> str:
    """`display_text` of text outside fenced code."""
    text = _LINE_MARKS.sub("\n", "\n" + text + "\n")
    if "`" not in text:
        return _without_marks(text)[1:-1]
    pieces: list[str] = []
    at = 0
    for start, end in code_span_ranges(text):
        ticks = _BACKTICKS.match(text, start)
        inner = ticks.end() - start if ticks else 0
        pieces += [_without_marks(text[at:start]), text[start + inner : end - inner]]
        at = end
    pieces.append(_without_marks(text[at:]))
    return "".join(pieces)[1:-1]


def _without_marks(text: str) -> str:
    """`text` (outside code spans) without emphasis, code, tag and block-id marks, and
    with its escapes read."""
    for mark in _PAIRED_MARKS:
        if mark in text:
            text = text.replace(mark, "")
    if "|" in text:
        text = _BARS.sub(_escape_kept, text)
    if "_" in text or "*" in text or "#" in text or "^" in text:
        text = _SINGLE_MARKS.sub("", text)
    if "\\" in text:
        text = _ESCAPE.sub(r"\1", text)
    return text


def _escape_kept(match: re.Match[str]) -> str:
    return match.group(1) or ""


def plain_text(markdown: str) -> str:
    """`markdown` as the text a reader sees (see the module doc); line breaks kept."""
    return display_text(index_text(markdown))


def heading_text(markdown: str) -> str:
    """The text of every heading of `markdown` outside fenced code, one a line, as
    `index_text` reads it."""
    if "#" not in markdown:
        return ""
    found: list[str] = []
    fence: str | None = None
    for match in _HEADINGS.finditer("\n" + markdown):
        mark = match.group("fence")
        if mark is not None:
            fence = mark if fence is None else (None if mark == fence else fence)
        elif fence is None:
            found.append(without_attributes(match.group("text").strip().rstrip("#").rstrip()))
    return index_text("\n".join(found)) if found else ""
