"""Logseq's own markup on a Logseq graph's page, as the Markdown this package draws.

Logseq writes a few things Markdown does not know (its docs graph, pages "Admonitions",
"Embed", "Properties"); drawn as written they are noise a Logseq user never sees:

- an org-mode block inside a block, `#+BEGIN_NOTE` … `#+END_NOTE`: NOTE, TIP, IMPORTANT,
  WARNING, CAUTION and PINNED are admonitions, drawn as the callout of that name;
  QUOTE a quote; SRC (with its language), EXAMPLE and QUERY a fence; any other (CENTER)
  its lines as they are. Logseq indents a block's lines under its bullet, so each line
  keeps that indentation, and the callout or fence stays inside the list item;
- `{{embed [[page]]}}`: the page embedded, as `![[page]]` draws it;
- a block starting with a task marker, `TODO` / `LATER` / `NOW` / `DOING` / `WAITING`,
  `DONE` or `CANCELED`: a task list item, its box open, ticked, or ticked and struck out;
- an image's size, `![a](b.png){:height 338, :width 468}`: dropped (the image is drawn
  as its name);
- a block's properties that Logseq hides (`id::`, the anchor of a block reference,
  `collapsed::`, `created-at::`, `heading::`, … `plain_text.LOGSEQ_HIDDEN_PROPERTIES`):
  hidden. A bullet that holds only such a property keeps it (dropping the line would join
  the block's other lines to the bullet before);
- a block written without a bullet at the left edge (`## Usage`) with blocks under it
  (indented by tabs): its bullet, so they read as its children, not as indented code;
- a block's other properties, `type:: [[Guide]]`: `**type**: [[Guide]]`, as Logseq
  draws them (`key: value`, the key in medium weight);
- a numbered block (`logseq.order-list-type:: number`): an ordered item, numbered as
  Logseq numbers a run of them (a page whose bullets are indented by spaces, not tabs as
  Logseq writes them, keeps its bullets: a child two spaces in would leave its item);

- a block reference, `((6380d82c-…))`, and a block embed, `{{embed ((6380d82c-…))}}`: the
  text of the block it names, when the caller knows it (`blocks`: `Brain.block_texts`);
  else it stays as written (an embed of a block read as `{{embed Gif}}`, its macro round
  the block's text); a reference under a label, `[resources](((6380d82c-…)))`: its label;
- a page reference under a label, `[label]([[page]])`: the wiki-link `[[page|label]]`;
- a call of one of the graph's own macros (`:macros` in its settings, `Brain.macros`),
  `{{docs-base-url Property}}`: the macro's template, `$1`, `$2` … as the arguments
  (`core.logseq_macros`, which search reads pages by too).

Nothing inside a fence is read.

The page's text is never changed (`get` and the index read it as written; search leaves
out the same hidden lines, `core.search.plain_text.logseq_visible`): only what the
explorer draws of a page of a Logseq graph (`Brain.markup`) goes through
`logseq_markdown`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from okf_explorer.core.logseq_macros import MacroCalls
from okf_explorer.core.search.plain_text import HIDDEN_BLOCK_PROPERTY, LOGSEQ_HIDDEN_PROPERTIES

__all__ = ["block_refs", "logseq_markdown"]

ADMONITIONS = {
    "NOTE": "note",
    "TIP": "tip",
    "IMPORTANT": "important",
    "WARNING": "warning",
    "CAUTION": "caution",
    "PINNED": "pinned",
}
"""Logseq's admonition blocks → the callout type drawn."""
FENCED = frozenset({"SRC", "EXAMPLE", "QUERY"})
"""Blocks whose lines are code, drawn as a fence (SRC with its language)."""

_BEGIN = re.compile(
    r"(?P<lead>[ \t]*(?:[-*+][ \t]+)?)#\+BEGIN_(?P<kind>\w+)[ \t]*(?P<rest>.*)", re.I
)
_END = re.compile(r"[ \t]*#\+END_(?P<kind>\w+)[ \t]*", re.I)
_FENCE = re.compile(r"[ \t]*(?:[-*+][ \t]+)?(```|~~~)")
_EMBED = re.compile(r"\{\{embed[ \t]+(\[\[[^\]\n]+\]\])[ \t]*\}\}")
_MARKERS = r"TODO|LATER|NOW|DOING|WAITING|WAIT|IN-PROGRESS|DONE|CANCELED|CANCELLED"
_TASK = re.compile(rf"(?P<lead>[ \t]*[-*+][ \t]+)(?P<marker>{_MARKERS})[ \t]+(?P<rest>\S.*)")
_ANYTHING = re.compile(
    rf"#\+|::|\{{\{{embed|\)\{{:|^[ \t]*[-*+][ \t]+(?:{_MARKERS})[ \t]"
    r"|^[^\s>|`~\-*+][^\n]*\n(?:[ \t]*\n)*\t+[-*+][ \t]",  # a bare block, blocks under it
    re.M,
)
"""Whether a text may hold anything `logseq_markdown` changes (most pages hold none)."""
_BLOCK_REF = re.compile(r"\(\(([0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})\)\)")
_BLOCK_EMBED = re.compile(rf"\{{\{{embed[ \t]+{_BLOCK_REF.pattern}[ \t]*\}}\}}")
_LABELLED_REF = re.compile(rf"\[([^\[\]\n]*)\]\({_BLOCK_REF.pattern}\)")
"""A block reference under a label of its own, `[beginner resources](((6380d82c-…)))`."""
_LABELLED_PAGE = re.compile(r"\[([^\[\]\n|]+)\]\(\[\[([^\[\]\n|]+)\]\]\)")
"""A page reference under a label, `[referencing a block]([[Block references]])`."""
_NUMBERED = re.compile(r"(?P<lead>\t*)  logseq\.order-list-type::[ \t]*number[ \t]*", re.I)
"""A block's `logseq.order-list-type:: number` (a numbered block), under its bullet."""
_SPACE_BULLET = re.compile(r"^ +[-*+][ \t]", re.M)
"""A bullet indented by spaces: a page indented so keeps its bullets (`1. ` is wider than
`- `, and a child indented two spaces would leave its numbered parent)."""
_BULLETS = ("- ", "* ", "+ ")
_TAB_BULLET = re.compile(r"\t+[-*+][ \t]")
_BARE_BLOCK = re.compile(r"(?![-*+][ \t]|[\w.-]+::)[^\s>|`~]")
"""A line at the left edge that is a block without its bullet (not a bullet, a property,
a quote, a table row or a fence)."""
_IMAGE_SIZE = re.compile(r"(!\[[^\]\n]*\]\([^)\n]*\))\{:[^}\n]*\}")
_PROPERTY = re.compile(
    r"(?P<lead>[ \t]*(?:[-*+][ \t]+)?)(?P<key>[^\W\d][\w.-]*)::(?:[ \t]+(?P<value>.*?))?[ \t]*"
)
"""A block's property, `key:: value` on a line of its own (after the block's bullet, or
under it): Logseq draws `key: value`, the key in medium weight."""
_HIDDEN_KEYS = frozenset(key.lower() for key in LOGSEQ_HIDDEN_PROPERTIES)


def block_refs(text: str) -> set[str]:
    """The ids of the blocks `text` references (`((id))`), in lower case."""
    return {found.lower() for found in _BLOCK_REF.findall(text)} if "((" in text else set()


def logseq_markdown(
    text: str, blocks: Mapping[str, str] | None = None, macros: Mapping[str, str] | None = None
) -> str:
    """`text` (a Logseq page's Markdown) with Logseq's markup turned into the Markdown
    drawn for it (see the module doc); the same number of lines or fewer unless a macro's
    template holds line breaks. `blocks`: the text of referenced blocks, by id in lower
    case; `macros`: the graph's own macros' templates, by name."""
    called = MacroCalls(macros or {})
    if (
        not (blocks and "((" in text)
        and "](((" not in text
        and "]([[" not in text
        and not (called.macros and "{{" in text)
        and not _ANYTHING.search(text)
    ):
        return text
    out: list[str] = []
    block: _Block | None = None
    fence: str | None = None
    quoted = ""  # the indentation of a quote just closed, while it is the last line out
    numbering = "order-list-type" in text and not _SPACE_BULLET.search(text)
    properties: list[int] = []  # the lines of `out` that are visible properties
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        ending = line[len(bare) :]
        if block is not None:
            if (end := _END.fullmatch(bare)) and end["kind"].upper() == block.kind:
                if block.kind in FENCED:
                    out.append(block.indent + "```" + ending)
                quoted = block.indent if block.mark else ""
                block = None
                continue
            inside = block.line(bare)
            out.append((inside if block.kind in FENCED else _references(inside, blocks)) + ending)
            continue
        if fence is not None:
            out.append(line)
            if (opened := _FENCE.match(bare)) and opened[1] == fence:
                fence = None
            continue
        if opened := _FENCE.match(bare):
            fence = opened[1]
            out.append(line)
            continue
        if begin := _BEGIN.fullmatch(bare):
            block = _Block(begin["kind"].upper(), begin["lead"])
            if quoted and block.mark:  # a quote right after a quote: not one quote
                out.append(quoted.rstrip() + ending)
            quoted = ""
            out.append(block.first(begin["rest"]) + ending)
            continue
        quoted = ""
        if HIDDEN_BLOCK_PROPERTY.fullmatch(bare):
            if numbering and (numbered := _NUMBERED.fullmatch(bare)):
                _numbered(out, numbered["lead"])
            continue
        if _TAB_BULLET.match(bare):
            _bulleted_parent(out)
        if (found := _PROPERTY.fullmatch(bare)) and found["key"].lower() not in _HIDDEN_KEYS:
            properties.append(len(out))  # (a bullet holding a hidden one keeps it as written)
        out.append(_inline(called(_references(bare, blocks))) + ending)
    for at in properties:  # last: `_bulleted_parent` reads them as written
        line = out[at].rstrip("\r\n")
        if found := _PROPERTY.fullmatch(line):
            out[at] = _property(found) + out[at][len(line) :]
    return "".join(out)


def _property(found: re.Match[str]) -> str:
    """A visible property line as Logseq draws it: its key (medium weight, here bold),
    one colon, its value (`**type**: [[Guide]]`)."""
    value = found["value"]
    return f"{found['lead']}**{found['key']}**:{' ' + value if value else ''}"


def _bulleted_parent(out: list[str]) -> None:
    """Before a bullet indented by tabs: the block it is under, when that block is a line
    written without a bullet at the left edge (`## Usage`, as Logseq lets a block be
    written), gets its bullet. Else Markdown reads the tabbed lines under it as code."""
    at = len(out) - 1
    while at >= 0 and not out[at].strip():
        at -= 1
    if at >= 0 and _BARE_BLOCK.match(out[at]):
        out[at] = "- " + out[at]


def _numbered(out: list[str], lead: str) -> None:
    """The block of the bullet at `lead` whose lines end `out` as an ordered item
    (`1. `: Markdown numbers the items of a run of them, as Logseq numbers a run of
    numbered blocks, and starts again after another block)."""
    for at in range(len(out) - 1, -1, -1):
        line = out[at]
        if line.startswith(lead) and line[len(lead) : len(lead) + 2] in _BULLETS:
            out[at] = f"{lead}1. {line[len(lead) + 2 :]}"
            return
        if not line.startswith(lead + "  "):  # not a line of that block
            return


def _references(line: str, blocks: Mapping[str, str] | None) -> str:
    """`line` with each block reference, and each block embed, whose block is known as
    the block's text; a reference under a label of its own as its label (Logseq links the
    label to the block; a block reference is no link here: docs/links.md); a page's under
    a label, `[label]([[page]])`, as the wiki-link `[[page|label]]` it is."""
    if "](" in line:
        if "]([[" in line:
            line = _LABELLED_PAGE.sub(r"[[\2|\1]]", line)
        if "](((" in line:
            line = _LABELLED_REF.sub(r"\1", line)
    if not blocks or "((" not in line:
        return line
    if "{{embed" in line:
        line = _BLOCK_EMBED.sub(lambda found: blocks.get(found[1].lower(), found[0]), line)
    return _BLOCK_REF.sub(lambda found: blocks.get(found[1].lower(), found[0]), line)


def _inline(line: str) -> str:
    """One line outside blocks and fences, with its embeds, task marker and image sizes
    as Markdown."""
    if "{{embed" in line:
        line = _EMBED.sub(r"!\1", line)
    if "){:" in line:
        line = _IMAGE_SIZE.sub(r"\1", line)
    task = _TASK.fullmatch(line)
    if task is None:
        return line
    marker, rest = task["marker"], task["rest"]
    if marker == "DONE":
        return f"{task['lead']}[x] {rest}"
    if marker in ("CANCELED", "CANCELLED"):
        return f"{task['lead']}[x] ~~{rest}~~"
    return f"{task['lead']}[ ] {rest}"


class _Block:
    """An org-mode block being read: its kind, the line that opened it up to the
    `#+BEGIN` (`lead`: indentation and bullet), the indentation of its other lines
    (`indent`: the bullet as spaces) and what each of them starts with (`mark`)."""

    __slots__ = ("indent", "kind", "lead", "mark")

    def __init__(self, kind: str, lead: str) -> None:
        self.kind, self.lead = kind, lead
        self.indent = re.sub(r"[-*+]([ \t]+)$", lambda found: " " + found[1], lead)
        self.mark = "> " if kind in ADMONITIONS or kind == "QUOTE" else ""

    def first(self, rest: str) -> str:
        """What the `#+BEGIN_KIND rest` line becomes."""
        if self.kind in ADMONITIONS:
            return f"{self.lead}> [!{ADMONITIONS[self.kind]}]"
        if self.kind == "QUOTE":
            return f"{self.lead}>"
        if self.kind in FENCED:
            words = rest.split()
            language = "clojure" if self.kind == "QUERY" else words[0] if words else ""
            return f"{self.lead}```{language}"
        return self.lead.rstrip()

    def line(self, bare: str) -> str:
        """What a line inside the block becomes, under the block's bullet."""
        body = bare[len(self.indent) :] if bare.startswith(self.indent) else bare.lstrip()
        if self.mark:
            return f"{self.indent}{self.mark}{body}".rstrip()
        return self.indent + body
