"""The components of documentation sites written in MDX (Mintlify, Nextra, React's and
Next.js' docs), drawn as those sites draw them.

A knowledge base that takes in such docs keeps their components as written: an LLM-kept
wiki of framework docs holds 450 `<Note>`, 735 `<Tab>`, 476 `<Step>`, 202 `<Accordion>`
and 261 `<Callout>`. Read as Markdown they showed as their tags, run into one paragraph
with the text after them (`<AccordionGroup> <Accordion title="Send reply"> - When to
execute …`), and a body indented under its tag showed as a code block.

A component standing on lines of its own (its opening tag alone on a line, its closing
tag `</Name>` alone on a later one, at any indent; or both on one line,
`<Tip>Text</Tip>`) is read here, its body as Markdown (its indent taken off, so it is no
code block), and drawn as:

- a callout: `<Note>`, `<Tip>`, `<Info>`, `<Warning>`, `<Danger>`, `<Caution>`, `<Check>`,
  React's `<Pitfall>`, `<Callout type="warn">` and `<Admonition type="tip">` (their type);
- a folded callout titled by its `title`: `<Accordion>`, `<Expandable>`, `<Details>`,
  React's `<DeepDive>` and a challenge's `<Solution>` (shown on the site behind a
  button);
- an open callout titled by what names it: `<Tab title="Python">`, `<Step title="…">`
  (numbered in its `<Steps>`), `<Card title="…">`, `<ParamField path="text"
  type="string">` and `<ResponseField name="…">` (`text · string · required`);
- its body alone, for any other component whose name starts with a capital
  (`<Tabs>`, `<Steps>`, `<CodeGroup>`, `<Frame>`, `<AppOnly>`), as a browser shows an
  element it does not know.

A tag with no closing tag on a line of its own stays as written, and so does a
self-closing one (`<ComponentPreview name="x" />`). A lowercase tag is HTML
(`raw_html`).

What an MDX site never shows is left out, as the site leaves it out: a comment standing
on lines of its own (`{/* Live Production Branch */}`, 74 lines of prose in the same
wiki) and the ESM statements at the top level of a page (`import { Callout } from
"nextra/components";`, `import {` … `} from "…";` over several lines: 434 lines on 53
pages). A statement must be whole to be left out; anything else starting `import` stays."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from okf_explorer.tui.markdown.admonitions import TAB
from okf_explorer.tui.markdown.callout_tokens import callout_head, push_paragraph, tokenize_body

__all__ = ["use_components"]

CALLOUTS = {
    "note": "note", "tip": "tip", "info": "info", "warning": "warning", "danger": "danger",
    "caution": "caution", "check": "success", "pitfall": "warning", "important": "important",
}  # fmt: skip
"""A callout's component (its name lowercased) and the callout kind it is drawn as."""
TYPED = frozenset({"callout", "admonition"})
"""Components whose `type` is their callout's kind (`warn` reads `warning`)."""
FOLDED = {
    "accordion": "Details", "expandable": "Details", "details": "Details",
    "deepdive": "Deep dive", "solution": "Solution",
}  # fmt: skip
"""Components drawn as a folded callout, and its title when they give none."""
TITLED = {"tab": TAB, "step": "step", "card": "note", "paramfield": "info", "responsefield": "info"}
"""Components drawn as an open callout titled by what names them, and its kind."""
STEPS = "steps"

_CLOSING = re.compile(r"[ \t]*</([A-Z][A-Za-z0-9]*)>[ \t]*")
PAIRS = "mdx_pairs"
"""The parse's `env` key of its components' lines (`_pairs`)."""
_OPENING = re.compile(r"[ \t]*<([A-Z][A-Za-z0-9]*)((?:\s+[^<>]*?)?)\s*>[ \t]*(.*)$")
"""An opening tag starting its line: its name, attributes, and what follows it."""
_ATTRIBUTE = re.compile(r"""([A-Za-z_][\w-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|\{([^{}]*)\}))?""")
MOST_COMMENT_LINES = 50
"""Lines an MDX comment may take (one not closed by then is text)."""
MOST_ESM_LINES = 30
"""Lines an ESM statement may take."""
_ESM = re.compile(
    r"""(?:import\s+(?:[\w$]+\s*,?\s*)?(?:\{[^{}]*\}|\*\s+as\s+[\w$]+)?\s*(?:from\s*)?["'][^"'\n]+["']"""
    r"""|export\s+(?:const|let|var)\s+[\w$]+\s*=\s*[^\n]*?|export\s+default\s+[\w$]+)\s*;?\s*\n"""
)
"""An ESM statement, whole (an import over several lines: `import {` … `} from "x";`)."""
_KINDS = {"warn": "warning", "error": "danger", "default": "note"}
"""A `type` that names a callout kind by another name."""


def use_components(md: MarkdownIt) -> None:
    """Read MDX components, and leave out MDX comments and ESM statements, with `md` (the
    module doc)."""
    md.block.ruler.before(
        "html_block",
        "mdx_component",
        _component,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.block.ruler.before("paragraph", "mdx_comment", _comment)
    md.block.ruler.before("paragraph", "mdx_esm", _esm)


def _comment(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """An MDX comment on lines of its own (`{/* … */}`): read, and left out."""
    at = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("{/*", at) or state.sCount[start] - state.blkIndent >= 4:
        return False
    for line in range(start, min(end, start + MOST_COMMENT_LINES)):
        text = state.src[state.bMarks[line] : state.eMarks[line]]
        closes = text.find("*/}", 3 if line == start else 0)
        if closes >= 0:
            if text[closes + 3 :].strip():
                return False  # text after it: a paragraph's
            if not silent:
                state.line = line + 1
            return True
    return False


def _esm(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """An ESM statement at a page's top level (`import … from "…";`): left out."""
    at = state.bMarks[start] + state.tShift[start]
    if state.level or state.blkIndent or not state.src.startswith(("import ", "export "), at):
        return False
    text = ""
    for line in range(start, min(end, start + MOST_ESM_LINES)):
        text += state.src[state.bMarks[line] : state.eMarks[line]] + "\n"
        if _ESM.fullmatch(text):
            if not silent:
                state.line = line + 1
            return True
    return False


def _component(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    at = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("<", at) or not state.src[at + 1 : at + 2].isupper():
        return False  # tried at every block's start: two characters first
    if state.sCount[start] - state.blkIndent >= 4:
        return False  # indented code
    line = state.src[state.bMarks[start] : state.eMarks[start]]
    opening = _OPENING.fullmatch(line)
    if opening is None or opening[2].rstrip().endswith("/"):
        return False  # self-closing: nothing in it
    name, attributes, rest = opening[1], _attributes(opening[2]), opening[3]
    closing = f"</{name}>"
    if rest:  # all on one line: `<Tip>Text</Tip>`
        if not rest.endswith(closing):
            return False
        if not silent:
            _open(state, name, attributes, [start, start + 1])
            if text := rest[: -len(closing)].strip():
                push_paragraph(state, text, start)
            _close(state, name)
        state.line = start + 1
        return True
    last = _closing_line(state, start, end, name)
    if last is None:
        return False
    if silent:
        return True
    _open(state, name, attributes, [start, last + 1])
    tokenize_body(state, start + 1, last, _body_indent(state, start + 1, last))
    _close(state, name)
    state.line = last + 1
    return True


def _attributes(text: str) -> dict[str, str]:
    found = {}
    for match in _ATTRIBUTE.finditer(text):
        value = match[2] if match[2] is not None else match[3] if match[3] is not None else match[4]
        found[match[1].lower()] = (value if value is not None else "true").strip()
    return found


def _closing_line(state: StateBlock, start: int, end: int, name: str) -> int | None:
    """The line of the tag closing the one opened on `start`, before `end`; None when
    there is none on a line of its own."""
    pairs = state.env.get(PAIRS)
    if pairs is None:
        pairs = state.env[PAIRS] = _pairs(state)
    closing = pairs.get(start)
    return closing if closing is not None and closing < end else None


def _pairs(state: StateBlock) -> dict[int, int]:
    """Every line opening a component, and the line closing it: read once a page, its
    tags matched as brackets are (one inside another of its name closes first)."""
    pairs: dict[int, int] = {}
    open_lines: dict[str, list[int]] = {}
    for line in range(len(state.bMarks) - 1):
        text = state.src[state.bMarks[line] : state.eMarks[line]]
        if "<" not in text:
            continue
        if closing := _CLOSING.fullmatch(text):
            if waiting := open_lines.get(closing[1]):
                pairs[waiting.pop()] = line
        elif (opening := _OPENING.fullmatch(text)) and not _closed(opening):
            open_lines.setdefault(opening[1], []).append(line)
    return pairs


def _closed(opening: re.Match[str]) -> bool:
    """The tag closes on its own line: self-closing (`<X />`), or text after it."""
    return bool(opening[3]) or opening[2].rstrip().endswith("/")


def _body_indent(state: StateBlock, first: int, last: int) -> int:
    """The indent the body is read from: its first line's with text, at most four columns
    under the tag's (a body indented further is code)."""
    for line in range(first, last):
        if not state.isEmpty(line):
            return max(state.blkIndent, min(state.sCount[line], state.sCount[first - 1] + 4))
    return state.blkIndent


def _open(state: StateBlock, name: str, attributes: dict[str, str], where: list[int]) -> None:
    key = name.lower()
    steps: list[int] = state.env.setdefault("mdx_steps", [])
    if key == STEPS:
        steps.append(0)
    head = _head(key, attributes, steps)
    if head is not None:
        kind, fold, title = head
        state.tokens += callout_head(kind, fold, title, state.level, where)
        state.level += 1


def _head(key: str, attributes: dict[str, str], steps: list[int]) -> tuple[str, str, str] | None:
    """(kind, fold, title) of the callout component `key` is drawn as; None: its body alone."""
    title = attributes.get("title", "")
    if key in CALLOUTS:
        return CALLOUTS[key], "", title or key.capitalize()
    if key in TYPED:
        kind = attributes.get("type", "note").lower()
        kind = _KINDS.get(kind, kind if kind in CALLOUTS.values() else "note")
        return kind, "", title or kind.capitalize()
    if key in FOLDED:
        return "details", "-", title or FOLDED[key]
    if key == "step":
        if steps:
            steps[-1] += 1
        number = f"{steps[-1]}. " if steps else ""
        return "step", "", f"{number}{title}".strip() or "Step"
    if key in ("paramfield", "responsefield"):
        named = next(
            (attributes[k] for k in ("path", "query", "body", "header", "name") if k in attributes),
            "",
        )
        parts = [named, attributes.get("type", ""), "required" if "required" in attributes else ""]
        return "info", "", " · ".join(part for part in parts if part) or key
    if key in TITLED:
        return TITLED[key], "", title or attributes.get("value", "") or key.capitalize()
    return None


def _close(state: StateBlock, name: str) -> None:
    key = name.lower()
    if key == STEPS and state.env.get("mdx_steps"):
        state.env["mdx_steps"].pop()
    if _head(key, {}, []) is not None:
        state.push("blockquote_close", "blockquote", -1)  # the level back to the tag's
