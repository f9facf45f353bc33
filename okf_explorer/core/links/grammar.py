"""Parsing link targets out of Markdown (SPEC §3, the grammar half).

The parser works in three linear passes over a page:

1. blank out code: fenced blocks (```` ``` ```` / `~~~`, longer fences, unclosed
   fences run to the end, as CommonMark says) and inline code spans (backtick runs
   of equal length, not crossing a paragraph's end), found in linear time (`strip_fences`,
   `mask_code_spans`; fences with `str.find`);
2. turn backslash escapes (`\\[`, `\\]`, `\\!`, `\\(` ...) into private
   placeholders so escaped brackets never open a link, and collect reference
   definitions (`[ref]: path.md`);
3. one scan with a single compiled pattern that starts with `[`, so the regex
   engine skips straight from bracket to bracket: for the common page (no
   reference definitions) one `findall` whose link insides are turned into
   targets once per process (`_scan_plain`; 8-12 % less CPU for the whole
   grammar on the 10k benchmark bundle and the Obsidian help vault than the
   `finditer` loop it replaced, `_scan_plain_reference`, kept as the reference
   the property tests compare with). A page without a backtick or `~~~` skips
   pass 1.

Python's regex engine only skips fast to a *literal* first character; a
pattern that starts with `^`, a class or an alternation is tried at every
position, ~20x slower. So every scanning pattern here starts with a literal
(`[`, `\n`, a backtick), and fences are found with `str.find`.

Every pattern is written so that no position is scanned more than a bounded
number of times (possessive quantifiers, no nested ambiguity): a 10 MB line,
a million `[` or 1e5 backticks stay linear. A page without `[` costs one
substring test.

Choices where the SPEC is silent:
- indented (4-space) code blocks are *not* treated as code: in real vaults
  indentation mostly means nested lists, whose links must count;
- fences may be indented, quoted (`> ```) or follow a list marker;
- a code span inside a link target makes it no link (`[[a`b`]]`);
- as in Obsidian's link index, a link inside an HTML comment (`<!-- [[x]] -->`) is no
  link, and one inside an Obsidian comment (`%% [[x]] %%`) is (`comment_ranges`; the
  explorer marks it "in a comment", `core.links.spans`);
- a link inside dollar math (`$$ [[\\mathcal S]](f) $$`, denotational semantics) is no
  link: the page draws it as TeX, as Obsidian does (`math_ranges`);
- a Markdown target's `?query` is cut like its `#anchor`; `.` and `..` count as
  folders; `//host/...` (network path) is a URL, not a link;
- link text may nest one level of brackets (`[a [b] c](x.md)`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, fields
from operator import itemgetter
from typing import Any, Literal
from urllib.parse import unquote

from okf_explorer.core.links.fields import FIELD_MARK, FieldValue, field_values
from okf_explorer.core.links.relation_lines import relation_values

LinkKind = Literal["wiki", "embed", "markdown"]

ATTACHMENT_EXTENSIONS = frozenset(
    {"png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "avif", "pdf"}
    | {"mp3", "mp4", "m4a", "wav", "ogg", "webm", "mov", "canvas", "base"}
)
"""Wiki targets with these extensions name attachments, not pages (SPEC §3)."""

BODY_REL = "links"
"""The relation of a link in a page's body (`typed_links.LINKS`)."""


@dataclass(frozen=True, slots=True)
class RawLink:
    """One distinct link target of a page, as written.

    `kind` is the kind of its first appearance; `count` how often the target
    appears in the page (any kind). `refdef` is the destination of a reference
    definition on the same page whose label equals a wiki target (Foam writes
    `[[lint]]` with `[lint]: cli/lint.md`), which resolves it (SPEC §3 rule 2).
    `rel` is the relation: `links` for a link in the body, else the relation the page
    states for it: the key of the inline field it is written in (`core.links.fields`),
    or a frontmatter field's (`core.links.typed`); `incoming` marks a relation
    stated from the target's side (gbrain's `key_people` on a company: the person
    `works_at` the company), so the edge runs from the target to this page. `named`
    marks a name in a gbrain link field rather than a link written in link syntax:
    it resolves as gbrain resolves names (`typed.resolve_named`: folder hints) and,
    matching no page, is no edge.

    `to_row` / `from_row` give every field as one plain tuple (a `RawTuple`), in
    field order: what the parser returns, scan workers send back, the index keeps
    and the disk cache stores.
    """

    target: str
    kind: LinkKind
    count: int = 1
    refdef: str | None = None
    rel: str = BODY_REL
    incoming: bool = False
    named: bool = False

    def to_row(self) -> RawTuple:
        """Every field as a plain tuple, in field order (see `from_row`)."""
        return (
            self.target, self.kind, self.count, self.refdef, self.rel, self.incoming, self.named
        )  # fmt: skip

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> RawLink:
        """The inverse of `to_row`; a row of another length raises `ValueError`."""
        if len(row) != RAW_LINK_ROW_LENGTH:
            raise ValueError(f"a RawLink row has {RAW_LINK_ROW_LENGTH} fields, not {len(row)}")
        return cls(*row)


RawTuple = tuple[str, LinkKind, int, str | None, str, bool, bool]
"""A `RawLink` as plain values (`RawLink.to_row`): `(target, kind, count, refdef, rel,
incoming, named)`, the same length for a body link and a typed link."""

RAW_LINK_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(RawLink))
"""The field names of `RawLink`, in row order."""
RAW_LINK_ROW_LENGTH = len(RAW_LINK_FIELDS)


_PARAGRAPH = "\x01"
"""Marks a blank line: no link (text, title or label) spans a paragraph break."""


# --- escapes and reference definitions -------------------------------------

_ESCAPABLE = "\\[]!()#<>"
_PLACEHOLDER = {c: chr(0xE000 + i) for i, c in enumerate(_ESCAPABLE)}
_UNESCAPE = str.maketrans({p: c for c, p in _PLACEHOLDER.items()})


def _hide_escapes(text: str) -> str:
    """Replace each backslash escape of `_ESCAPABLE` by its placeholder.

    `\\\\` pairs go first, left to right, exactly as a left-to-right scan pairs
    them; what remains are single backslashes. Plain `str.replace` passes keep
    this in C (a regex callback per escape is ~30x slower on escape-heavy text).
    """
    text = text.replace("\\\\", _PLACEHOLDER["\\"])
    for char in _ESCAPABLE[1:]:
        text = text.replace("\\" + char, _PLACEHOLDER[char])
    return text


_DEFINITION = re.compile(  # starts with a literal `\n`: the engine skips from line to line
    r"\n[ \t]*+\[([^\[\]\n]++)\]:[ \t]*+(<[^<>\n]*+>|[^\s<]\S*+)"
    r"(?:[ \t]++(?:\"[^\"\n]*+\"|'[^'\n]*+'|\([^()\n]*+\)))?[ \t\r]*+(?=\n|\Z)"
)


def _normalise_label(label: str) -> str:
    return " ".join(label.split()).casefold()


def _take_definitions(text: str) -> tuple[str, dict[str, str | None]]:
    """Remove `[label]: dest` lines; map each label to its page target (or None).

    The first definition of a label wins (CommonMark); labels match
    case-insensitively with whitespace collapsed.
    """
    definitions: dict[str, str | None] = {}
    if "]:" not in text:
        return text, definitions

    def take(match: re.Match[str]) -> str:
        label = _normalise_label(match.group(1))
        if not label or label[0] == "^":  # `[^1]: ...` is a footnote, not a definition
            return match.group(0)
        if label not in definitions:
            definitions[label] = _markdown_target(match.group(2))
        return "\n"

    return _DEFINITION.sub(take, "\n" + text)[1:], definitions


# --- targets ----------------------------------------------------------------

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{1,31}:")
_TARGET_END = re.compile(r"[#?]")


def _markdown_target(destination: str, escaped: bool = True) -> str | None:
    """The page target of a Markdown link destination, or None when it is no page link."""
    if destination.startswith("<"):
        destination = destination[1:-1]
    destination = destination.strip()
    if CODE_MARK in destination or destination.startswith("//") or _SCHEME.match(destination):
        return None
    if (cut := _TARGET_END.search(destination)) is not None:
        destination = destination[: cut.start()]
    if escaped:
        destination = destination.translate(_UNESCAPE)
    if "%" in destination:
        destination = unquote(destination)
    target = destination.strip()
    if not target:
        return None
    if target.lower().endswith(".md") or target.endswith("/"):
        return target
    if target in (".", "..") or target.endswith(("/.", "/..")):
        return target
    return None


def _wiki_target(inner: str, escaped: bool = True) -> str | None:
    """The page target of a wiki-link's inside, or None (same-page heading, attachment)."""
    if not escaped and not ("|" in inner or "#" in inner or "." in inner or CODE_MARK in inner):
        return inner.strip() or None  # the plain `[[name]]`: nothing to cut or check
    target = inner.split("|", 1)[0]
    if target.endswith("\\"):  # `[[t\|alias]]`: the pipe escaped inside a table
        target = target[:-1]
    target = target.split("#", 1)[0]
    if escaped:
        target = target.translate(_UNESCAPE)
    target = target.strip()
    if not target or CODE_MARK in target:
        return None
    name = target.rsplit("/", 1)[-1]
    if "." in name and name.rsplit(".", 1)[1].lower() in ATTACHMENT_EXTENSIONS:
        return None
    return target


# --- the scan ---------------------------------------------------------------

_LINK = re.compile(
    r"""\[(?:
        \[(?P<wiki>[^\[\]\n]++)\]\]
      | (?P<text>[^\[\]\x01]*+(?:\[[^\[\]\x01]*+\][^\[\]\x01]*+)*+)\]
        (?:\(\s*+(?P<dest><[^<>\n]*+>|[^\s()<>]*+(?:\([^\s()<>]*+\)[^\s()<>]*+)*+)
              (?:\s++(?:"[^"\x01]*+"|'[^'\x01]*+'|\([^()\x01]*+\)))?\s*+\)
          | \[(?P<label>[^\[\]\x01]*+)\]
        )?
    )""",
    re.X,
)


_PLAIN_LINK = re.compile(
    r"""\[(?:
        \[(?:(?<=!\[\[)(?P<embed>[^\[\]\n]++)|(?P<wiki>[^\[\]\n]++))\]\]
      | [^\[\]\x01]*+(?:\[[^\[\]\x01]*+\][^\[\]\x01]*+)*+\]
        (?:\(\s*+(?P<dest><[^<>\n]*+>|[^\s()<>]*+(?:\([^\s()<>]*+\)[^\s()<>]*+)*+)
              (?:\s++(?:"[^"\x01]*+"|'[^'\x01]*+'|\([^()\x01]*+\)))?\s*+\)
          | \[[^\[\]\x01]*+\]
        )?
    )""",
    re.X,
)
"""`_LINK` matching exactly the same spans, for `findall`: an embed's inside (the
`[[` preceded by `!`) apart from a wiki link's, and no group for text or label (a page
without reference definitions needs neither)."""

_TARGET_MEMO_LIMIT = 1 << 16
"""At most this many link insides are remembered per kind (`_scan_plain`), then forgotten."""
_MISSING = object()


_TARGETS: dict[bool, tuple[dict[str, str | None], dict[str, str | None]]] = {
    False: ({}, {}),
    True: ({}, {}),
}
"""escaped → (wiki inside → target, Markdown destination → target): pages repeat links."""


def extract_links(text: str) -> list[RawLink]:
    """Distinct link targets with kind and count, in order of first appearance."""
    return [RawLink.from_row(row) for row in extract_link_tuples(text)]


def extract_link_tuples(
    text: str, *, inline_fields: bool = True, relation_lines: bool = False
) -> list[RawTuple]:
    """`extract_links` as `RawLink.to_row()` tuples: what the index keeps and the scan
    workers send back, without building a `RawLink` per link. `inline_fields=False`
    reads every link as a body link (a property's value, which holds no fields);
    `relation_lines`: the page is a Basic Memory note, whose relation lines type their
    links (`core.links.relation_lines`)."""
    return _link_tuples(
        text,
        _scan_plain,
        reference=False,
        inline_fields=inline_fields,
        relation_lines=relation_lines,
    )


def reference_link_tuples(text: str, *, relation_lines: bool = False) -> list[RawTuple]:
    """`extract_link_tuples` as first written (every pass run, `_scan_plain_reference`
    for a page without reference definitions): what the property tests compare with."""
    return _link_tuples(text, _scan_plain_reference, reference=True, relation_lines=relation_lines)


def _link_tuples(
    text: str,
    scan_plain: Any,
    *,
    reference: bool,
    inline_fields: bool = True,
    relation_lines: bool = False,
) -> list[RawTuple]:
    """The page's links: body links (`links`) first, then those written in inline fields,
    typed by the field (unless `inline_fields` is False: every link as a body link), and
    in a Basic Memory note's relation lines (`relation_lines`), typed by the line."""
    if "[" not in text:
        return []
    if reference or "`" in text or "~~~" in text or "$" in text:  # else nothing to mask
        text = "".join(
            _uncommented(mask_math(mask_code_spans(segment))) for segment in strip_fences(text)
        )
        if "[" not in text:
            return []
    else:
        text = _uncommented(text)
    clean = text
    if "\n" in clean:
        clean = BLANK_LINE.sub("\n" + _PARAGRAPH, clean)
    escaped = "\\" in clean
    if escaped:
        clean = _hide_escapes(clean)
    clean, definitions = _take_definitions(clean)

    def scan(segment: str, into: dict[str, list]) -> None:  # target -> [kind, count, refdef]
        if definitions:
            _scan_with_references(segment, escaped, definitions, into)
        else:  # the common page: no reference definitions, so one pass
            scan_plain(segment, escaped, into)

    found: dict[str, list] = {}
    scan(clean, found)
    spans = field_values(clean) if inline_fields and FIELD_MARK in clean else []
    if relation_lines:
        spans = sorted([*spans, *relation_values(clean)], key=itemgetter(1))
    typed = _typed_links(clean, spans, scan, found) if spans else []
    body = [(t, kind, n, refdef, BODY_REL, False, False) for t, (kind, n, refdef) in found.items()]
    if typed:
        body = [row for row in body if row[2]]
    return body + typed  # type: ignore[return-value]


def _typed_links(
    clean: str,
    spans: list[FieldValue],
    scan: Callable[[str, dict[str, list]], None],
    found: dict[str, list],
) -> list[RawTuple]:
    """The links written in the typed `spans` of `clean` (inline fields,
    `core.links.fields`; relation lines, `core.links.relation_lines`), each typed by its
    span's relation: read from each span by the page's own `scan`, and taken out of
    the body's count in `found` (a mention is one link, typed or not; a body target
    left with no mention is dropped by the caller). De-duplicated by (target, relation),
    in text order."""
    typed: dict[tuple[str, str], list] = {}
    for rel, start, end in spans:
        value: dict[str, list] = {}
        scan(clean[start:end], value)
        for target, (kind, count, refdef) in value.items():
            body = found.get(target)
            if body is not None:
                body[1] -= min(count, body[1])
            entry = typed.get((target, rel))
            if entry is None:
                typed[target, rel] = [kind, count, refdef]
            else:
                entry[1] += count
                entry[2] = entry[2] or refdef
    return [(t, kind, n, ref, rel, False, False) for (t, rel), (kind, n, ref) in typed.items()]


def _scan_plain(clean: str, escaped: bool, found: dict[str, list]) -> None:
    """The link scan of a page without reference definitions: one `findall`, each
    distinct inside or destination turned into its target once per process."""
    wiki_targets, markdown_targets = _TARGETS[escaped]
    if len(wiki_targets) > _TARGET_MEMO_LIMIT or len(markdown_targets) > _TARGET_MEMO_LIMIT:
        wiki_targets.clear()
        markdown_targets.clear()
    for embed, wiki, destination in _PLAIN_LINK.findall(clean):
        if wiki:
            kind = "wiki"
            target = wiki_targets.get(wiki, _MISSING)
            if target is _MISSING:
                target = wiki_targets[wiki] = _wiki_target(wiki, escaped)
        elif embed:
            kind = "embed"
            target = wiki_targets.get(embed, _MISSING)
            if target is _MISSING:
                target = wiki_targets[embed] = _wiki_target(embed, escaped)
        elif destination:  # (an empty one is no page)
            kind = "markdown"
            target = markdown_targets.get(destination, _MISSING)
            if target is _MISSING:
                target = markdown_targets[destination] = _markdown_target(destination, escaped)
        else:
            continue
        if target is not None:
            if (entry := found.get(target)) is None:  # type: ignore[arg-type]
                found[target] = [kind, 1, None]  # type: ignore[index]
            else:
                entry[1] += 1


def _scan_plain_reference(clean: str, escaped: bool, found: dict[str, list]) -> None:
    """`_scan_plain` as first written: a `finditer` loop over `_LINK` (the reference)."""
    for match in _LINK.finditer(clean):
        inner, _, destination, _ = match.groups()
        if inner is not None:
            at = match.start()
            kind = "embed" if at and clean[at - 1] == "!" else "wiki"
            target = _wiki_target(inner, escaped)
        elif destination is not None:
            kind = "markdown"
            target = _markdown_target(destination, escaped)
        else:
            continue
        if target is not None:
            if (entry := found.get(target)) is None:
                found[target] = [kind, 1, None]
            else:
                entry[1] += 1


def _scan_with_references(
    clean: str, escaped: bool, definitions: dict[str, str | None], found: dict[str, list]
) -> None:
    """The link scan of a page with reference definitions (`[text][ref]`, `[ref]`)."""
    pos = 0
    while (match := _LINK.search(clean, pos)) is not None:
        pos = match.end()
        kind: LinkKind = "markdown"
        target: str | None
        refdef = None
        if (inner := match.group("wiki")) is not None:
            embed = match.start() > 0 and clean[match.start() - 1] == "!"
            kind = "embed" if embed else "wiki"
            target = _wiki_target(inner, escaped)
            if target is not None:
                refdef = definitions.get(_normalise_label(target))
        elif (destination := match.group("dest")) is not None:
            target = _markdown_target(destination, escaped)
        else:
            label = match.group("label")
            if label is not None and (ref := _normalise_label(label)) in definitions:
                target = definitions[ref]
            elif label is not None and not ref:  # collapsed `[ref][]`
                target = definitions.get(_normalise_label(match.group("text")))
            else:  # shortcut `[ref]`; an undefined `[label]` is scanned again on its own
                target = definitions.get(_normalise_label(match.group("text")))
                if label is not None:
                    pos = match.start("label") - 1
        if target is None:
            continue
        if (entry := found.get(target)) is None:
            found[target] = [kind, 1, refdef]
        else:
            entry[1] += 1
            if entry[2] is None:
                entry[2] = refdef


def parse_links(text: str) -> list[str]:
    """Raw link targets in order of first appearance, de-duplicated (SPEC §3): typed by
    an inline field or not, a link is a link."""
    return [row[0] for row in _link_tuples(text, _scan_plain, reference=False, inline_fields=False)]


_RUN = {"`": re.compile(r"`+"), "~": re.compile(r"~+")}
_FENCE_PREFIX = re.compile(r"[ \t>]*+(?:(?:[-*+]|\d{1,9}[.)])[ \t]++)?")
_CLOSE_PREFIX = re.compile(r"[ \t>]*+")
_LINE_REST_BLANK = re.compile(r"[ \t\r]*+(?:\n|\Z)")
_MAX_FENCE_INDENT = 64
"""How far before a fence run its line may start (blockquote / list markers, indent)."""
_BACKTICKS = re.compile(r"`+")
BLANK_LINE = re.compile(r"\n[ \t\r]*+(?=\n)")
"""A blank line, from the newline before it (a span never crosses one)."""
CODE_MARK = "\x00"
"""What a code span becomes: no link target may contain it."""


def _starts_line(text: str, at: int, prefix: re.Pattern[str]) -> bool:
    """True when only `prefix` (indent, `>`, a list marker) stands between `at` and its line start.

    The look-back is bounded, so many runs on one long line stay linear.
    """
    low = max(0, at - _MAX_FENCE_INDENT)
    newline = text.rfind("\n", low, at)
    if newline < 0 and low > 0:
        return False
    return prefix.fullmatch(text, newline + 1, at) is not None


class _FenceRuns:
    """Runs of 3+ backticks or tildes, in order, found with `str.find`.

    (A regex that starts with a character class or an alternation is scanned
    character by character in Python's engine, ~20x slower than `find`.)
    Each marker's next position is cached, so a text with many ``` and no
    ~~~ is still scanned once.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.next = {"```": -2, "~~~": -2}

    def search(self, start: int) -> tuple[int, int] | None:
        """(start, end) of the first whole run at or after `start`."""
        best = -1
        for marker, at in self.next.items():
            if at != -1 and at < start:
                at = self.next[marker] = self.text.find(marker, start)
            if at >= 0 and (best < 0 or at < best):
                best = at
        if best < 0:
            return None
        run = _RUN[self.text[best]].match(self.text, best)
        assert run is not None
        return best, run.end()


def _find_fence(runs: _FenceRuns, start: int, closing: str | None = None) -> tuple[int, int] | None:
    """The next opening fence run from `start`, or the next run closing `closing`."""
    text = runs.text
    while (run := runs.search(start)) is not None:
        begin, start = run
        fence = text[begin:start]
        if closing is not None:
            if (
                fence[0] == closing[0]
                and len(fence) >= len(closing)
                and _LINE_REST_BLANK.match(text, start) is not None
                and _starts_line(text, begin, _CLOSE_PREFIX)
            ):
                return run
        elif _starts_line(text, begin, _FENCE_PREFIX):
            line_end = text.find("\n", start)
            info = text[start : line_end if line_end >= 0 else len(text)]
            if fence[0] == "~" or "`" not in info:  # else an inline code span
                return run
            start = line_end if line_end >= 0 else len(text)
    return None


def prose_ranges(text: str) -> list[tuple[int, int]]:
    """`(start, end)` of each stretch of `text` outside fenced code blocks, in order
    (an unclosed fence runs to the end of the text)."""
    if "```" not in text and "~~~" not in text:
        return [(0, len(text))]
    return list(each_prose_range(text))


def each_prose_range(text: str) -> Iterator[tuple[int, int]]:
    """`prose_ranges`, each found as it is asked for: a reader looking for the first of
    something stops reading the fences of the rest (a 2.6 MB page of pull-request
    comments)."""
    runs = _FenceRuns(text)
    pos = 0
    while (opening := _find_fence(runs, pos)) is not None:
        yield pos, opening[0]
        body = text.find("\n", opening[1])
        fence = text[opening[0] : opening[1]]
        closing = _find_fence(runs, body, fence) if body >= 0 else None
        if closing is None:  # unclosed: code to the end of the document
            return
        pos = closing[1]
    yield pos, len(text)


def strip_fences(text: str) -> list[str]:
    """The text outside fenced code blocks, as segments (a block → a blank line)."""
    ranges = prose_ranges(text)
    if len(ranges) == 1 and ranges[0] == (0, len(text)):
        return [text]
    segments: list[str] = []
    for start, end in ranges:
        if segments:
            segments.append("\n\n")
        segments.append(text[start:end])
    return segments


def outside_code(text: str, turn: Callable[[str], str]) -> str:
    """`text` with `turn` applied to each stretch outside fenced code blocks and inline
    code spans (`prose_ranges`, `code_span_ranges`), the code kept as it is: how a
    dialect's links are written as ours (`core.links.dialects`) without reading code."""
    out: list[str] = []
    done = 0
    for start, end in prose_ranges(text):
        out.append(text[done:start])
        segment, at = text[start:end], 0
        for code_start, code_end in code_span_ranges(segment) if "`" in segment else ():
            out.append(turn(segment[at:code_start]))
            out.append(segment[code_start:code_end])
            at = code_end
        out.append(turn(segment[at:]))
        done = end
    out.append(text[done:])
    return "".join(out)


def mask_code_spans(segment: str) -> str:
    """Replace inline code spans by `CODE_MARK` (see `code_span_ranges`)."""
    if "`" not in segment:
        return segment
    pieces: list[str] = []
    pos = 0
    for start, end in code_span_ranges(segment):
        pieces.append(segment[pos:start])
        pieces.append(CODE_MARK)
        pos = end
    pieces.append(segment[pos:])
    return "".join(pieces)


def code_span_ranges(segment: str) -> list[tuple[int, int]]:
    """`(start, end)` of each inline code span of a text without fences (CommonMark
    matching, linear time).

    A run of n backticks opens a span closed by the next run of exactly n
    backticks in the same paragraph (before the next `paragraph_breaks`); an
    unmatched run is literal text. A backslash before a run escapes its first
    backtick (outside spans only). The paragraphs' ends are looked for only when a span
    would cross a line end (most spans are on one line).
    """
    if "`" not in segment:
        return []
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(segment)]
    starts_by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        starts_by_length.setdefault(end - start, []).append(index)
    breaks: list[int] | None = None
    line_end = -1  # the first line end at or after the last run looked at
    spans: list[tuple[int, int]] = []
    pos = 0
    index = 0
    while index < len(runs):
        start, end = runs[index]
        if start < pos:  # inside a span already closed past it
            index += 1
            continue
        start += _escaping_backslashes(segment, start) % 2
        candidates = starts_by_length.get(end - start)
        closer = None
        if candidates:
            k = bisect_right(candidates, index)
            if k < len(candidates):
                closer = candidates[k]
        if closer is not None:
            if line_end < end:
                line_end = segment.find("\n", end)
                line_end = len(segment) if line_end < 0 else line_end
            limit = len(segment)
            if runs[closer][0] > line_end:
                breaks = paragraph_breaks(segment) if breaks is None else breaks
                limit = breaks[i] if (i := bisect_left(breaks, end)) < len(breaks) else limit
            if runs[closer][0] < limit:
                spans.append((start, runs[closer][1]))
                pos = runs[closer][1]
                index = closer + 1
                continue
        index += 1
    return spans


_MAY_OPEN_BLOCK = re.compile(r"\n(?=[ \t]*+[-*+>#_=\d\r\n]|[ \t]*+\Z)")
"""A newline before a line that may open another block (`paragraph_breaks`)."""
_BLOCK_OPENING = re.compile(
    r"(?P<indent>[ \t]*+)(?P<quotes>(?:>[ \t]?+)*+)[ \t]*+"
    r"(?:(?P<rule>(?:[-_*][ \t]*+){3,}|-++[ \t]*+|=++[ \t]*+)(?=\r?(?:\n|\Z))"
    r"|(?P<item>[-*+]|(?P<number>\d{1,9})[.)])"
    r"(?=(?P<gap>[ \t]++)[^ \t\r\n]|(?P<empty>[ \t]*+\r?(?:\n|\Z)))"
    r"|(?P<heading>#{1,6})(?=[ \t\r\n]|\Z)"
    r"|(?P<blank>)(?=\r?(?:\n|\Z)))?"
)
"""What opens a line: its indent, its quote marks, and a list item's marker, a heading's,
a rule (or a setext heading's underline), or nothing else (a blank line)."""
_NEXT_WRITTEN = re.compile(r"(?:[ \t]*+\r?\n)*+([ \t]*+)")
"""The blank lines from here, and the next line's indent: a list item goes on past a
blank line while the text after is indented to its text (`paragraph_breaks`)."""


def paragraph_breaks(segment: str, block_ends: Collection[int] = ()) -> list[int]:
    """The positions of the newlines of `segment` (a text without fences) after which a
    paragraph cannot go on, in order: before a blank line, a list item, a heading, a rule,
    or a quote deeper than the line before, and after a heading or a rule. A code span
    never crosses one (CommonMark: it is inline, inside one paragraph), so a lone backtick
    in a list item (`type the backtick ` three times`) leaves the next item's spans as
    they are.

    As markdown-it reads a list: an item left of the text of the item before ends it; one
    under that text, or after a paragraph outside a list, only if it could open a list
    there (a bullet or `1.`, with text); a line four columns right of where it could stand
    goes on the paragraph. Indented code blocks are not told apart (in vaults, indented
    lines are lists). `block_ends`: where blocks the text holds masked end (`$$` math, a
    line of their own: no paragraph stands before the line after one)."""
    breaks: list[int] = []
    first = _BLOCK_OPENING.match(segment)
    assert first is not None  # every part is optional
    items = [_content_column(first)] if first["item"] is not None else []  # open, inmost last
    depth = first["quotes"].count(">")
    # Where the last line that leaves no paragraph open (blank, heading, rule) ends.
    closed = 0 if first["blank"] is not None else -1
    written = indent = 0  # where the text after the last blank lines starts; its indent
    if (first["heading"] or first["rule"]) and (end := segment.find("\n")) >= 0:
        breaks.append(closed := end)
    for newline in _MAY_OPEN_BLOCK.finditer(segment):
        at = newline.start()
        line = _BLOCK_OPENING.match(segment, at + 1)
        assert line is not None  # every part is optional
        quotes = line["quotes"].count(">")
        deeper, previous = quotes > depth, depth
        depth = quotes
        if line["blank"] is not None:
            if not breaks or breaks[-1] != at:
                breaks.append(at)
            closed = segment.find("\n", at + 1)
            if at >= written:  # (once for a run of blank lines)
                following = _NEXT_WRITTEN.match(segment, at + 1)
                assert following is not None  # every part is optional
                written, indent = following.end(), len(following[1].expandtabs(4))
            while items and items[-1] > indent:  # the items the next text is not in end
                items.pop()
            continue
        if quotes != previous:  # another quote's lines: the lists before are not around
            items.clear()
        column = len(line["indent"].expandtabs(4))
        # The text of the inmost item this line is not left of: four columns in is code.
        near = column < next((text for text in reversed(items) if text <= column), 0) + 4
        if line["item"] is not None:
            unopened = at == closed or (block_ends and _text_end(segment, at) in block_ends)
            if (items and column < items[-1]) or unopened or quotes < previous:
                opens = near  # it ends the item or quote before, or no paragraph is open
            else:
                opens = near and line["number"] in (None, "1") and line["empty"] is None
        else:
            opens = near and (line["heading"] is not None or line["rule"] is not None)
        if opens:  # the items it is left of end
            while items and items[-1] > column:
                items.pop()
            if line["item"] is not None:
                items.append(_content_column(line))
        if opens or deeper:
            if not breaks or breaks[-1] != at:
                breaks.append(at)
            if opens and line["item"] is None and (end := segment.find("\n", at + 1)) >= 0:
                breaks.append(closed := end)  # a heading or a rule is a line of its own
        elif quotes < previous:
            depth = previous  # a lazy line goes on its quote's paragraph
    return breaks


def _text_end(text: str, at: int) -> int:
    """Where the text of the line ending at `at` ends, its trailing spaces left out."""
    while at and text[at - 1] in " \t\r":
        at -= 1
    return at


def _content_column(item: re.Match[str]) -> int:
    """The column where the text of list item `item` starts (a marker followed by five
    spaces or more: one column after it)."""
    marker = (item["indent"] + item["quotes"]).expandtabs(4) + item["item"]
    gap = len((marker + (item["gap"] or " ")).expandtabs(4)) - len(marker)
    return len(marker) + (gap if gap <= 4 else 1)


# --- comments ---------------------------------------------------------------

HTML_COMMENT = ("<!--", "-->")
"""An HTML comment's marks: the links inside are no links (as in Obsidian's index)."""
OBSIDIAN_COMMENT = ("%%", "%%")
"""An Obsidian comment's marks: hidden on the page, but its links count (as in Obsidian)."""


def comment_ranges(text: str, marks: tuple[str, str]) -> list[tuple[int, int]]:
    """`(start, end)` of each comment of `text` (code already masked) opened and closed
    by `marks`, as CommonMark (and the explorer's renderer) reads one: a comment opening
    a line (after indent, quote marks or a list marker) runs to its closing mark, blank
    lines and all, and an HTML one left open runs to the end of the text (an HTML block);
    a comment inside a line closes before the next blank line or is no comment (its
    opening mark is text). Linear: closing marks and blank lines are looked up once."""
    opener, closer = marks
    found: list[tuple[int, int]] = []
    blanks = [m.start() for m in BLANK_LINE.finditer(text)] if "\n" in text else []
    pos, close = 0, -1
    while (start := text.find(opener, pos)) >= 0:
        if close < start + len(opener):
            close = text.find(closer, start + len(opener))
        block = _starts_line(text, start, _FENCE_PREFIX)
        if close < 0:
            if block and opener == HTML_COMMENT[0]:
                found.append((start, len(text)))
            break
        blank = bisect_right(blanks, start)
        if not block and blank < len(blanks) and blanks[blank] < close:
            pos = start + len(opener)  # crosses a paragraph break: the mark is text
            continue
        found.append((start, close + len(closer)))
        pos = close + len(closer)
    return found


def _uncommented(segment: str) -> str:
    """A segment outside fences, its code masked, with its HTML comments masked."""
    if HTML_COMMENT[0] not in segment:
        return segment
    return mask_ranges(segment, comment_ranges(segment, HTML_COMMENT))


def math_ranges(segment: str) -> list[tuple[int, int]]:
    """`(start, end)` of each stretch of dollar math in `segment` (outside fences, its code
    spans masked), in order, read as the page renders it: mdit-py-plugins' dollar math as
    `tui.markdown.parser` sets it up. A link inside math is no link: the page draws it as
    TeX (Obsidian too: its math is MathJax's, which knows no wiki-links).

    - A block (`_math_blocks`): a line opening with `$$` runs to the next line ending
      with `$$`, blank lines and all (it breaks into a paragraph, as a code fence does).
    - Inline, within a paragraph (never across a block, nor a `paragraph_breaks`):
      `$…$` has no space just inside its dollars and no digit just before the opening one
      or after the closing one (`$5 and $10` is no math); `$$…$$` may hold anything; an
      escaped `\\$` neither opens nor closes. Each unescaped dollar is tried as an opening
      once; a `$` opening looks only as far as the next dollar, a `$$` one as far as the
      next `$$` or the paragraph's end."""
    if "$" not in segment:
        return []
    blocks = _math_blocks(segment) if "$$" in segment else []
    text = mask_ranges(segment, blocks) if blocks else segment
    stops = paragraph_breaks(text, frozenset(end for _, end in blocks)) if "\n" in text else []
    if blocks:  # a block ends the paragraph before it
        stops = sorted(stops + [at for block in blocks for at in block])
    size = len(text)
    ranges: list[tuple[int, int]] = []
    pos = 0
    while (at := text.find("$", pos)) >= 0:
        pos = at + 1
        if _escaped(text, at) or (at and text[at - 1].isdigit()):
            continue
        double = text.startswith("$$", at)
        if not double and (pos == size or text[pos].isspace()):
            continue
        after = bisect_right(stops, at)
        stop = stops[after] if after < len(stops) else size
        end = _math_closing(text, at + 1 + double, stop, double)
        if end is None or (not double and text[end - 1].isspace()):
            continue
        if end + 1 < size and text[end + 1].isdigit():
            continue
        if end - at > 1 + 2 * double:  # not empty
            ranges.append((at, end + 1))
            pos = end + 1
    return sorted(ranges + blocks) if blocks else ranges


_MATH_BLOCK_OPENING = re.compile(
    r"^(?:[ \t]*>)*+(?:[ \t]*+(?:[-+*]|\d{1,9}[.)])[ \t]++)*+ {0,3}\$\$", re.M
)
"""A line opening a `$$` block: after quote marks and list markers (a list item's first
line may open one)."""
_MATH_BLOCK_CLOSING = re.compile(r"\$\$[ \t\r]*+$", re.M)


def _math_blocks(segment: str) -> list[tuple[int, int]]:
    """`(start, end)` of each `$$` block of `segment`, from its opening `$$` to its closing
    one (the plugin's block rule): any line may open one, as a fenced code block breaks
    into a paragraph (`tui.markdown.parser.use_dollar_math`). A line holding `$$` again
    after its opening, not at its end, opens none."""
    closings = [m.start() for m in _MATH_BLOCK_CLOSING.finditer(segment)]
    blocks: list[tuple[int, int]] = []
    for opening in _MATH_BLOCK_OPENING.finditer(segment):
        line_start = opening.start()
        if blocks and line_start < blocks[-1][1]:
            continue  # inside the block before
        at = opening.end() - 2
        line_end = segment.find("\n", at)
        line_end = len(segment) if line_end < 0 else line_end
        line = segment[at:line_end]
        if len(line.strip()) > 3:
            if line.rstrip().endswith("$$"):
                blocks.append((at, at + len(line.rstrip())))
                continue
            if "$$" in line[2:]:
                continue
        index = bisect_right(closings, line_end)
        if index < len(closings):
            blocks.append((at, closings[index] + 2))
    return blocks


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd run of backslashes."""
    run = at
    while run and text[run - 1] == "\\":
        run -= 1
    return (at - run) % 2 == 1


def _math_closing(segment: str, pos: int, stop: int, double: bool) -> int | None:
    """Where the math opened before `pos` closes (its last dollar), before `stop`."""
    while (end := segment.find("$", pos, stop)) >= 0:
        pos = end + 1
        if _escaped(segment, end):
            continue
        if not double:
            return end
        if segment.startswith("$", pos) and pos < stop:
            return pos
    return None


def mask_math(segment: str) -> str:
    """`segment` with its dollar math masked (`math_ranges`, `mask_ranges`)."""
    return mask_ranges(segment, math_ranges(segment)) if "$" in segment else segment


_NOT_NEWLINE = re.compile(r"[^\n]")


def mask_ranges(text: str, ranges: Sequence[tuple[int, int]]) -> str:
    """`text` with each of `ranges` made `CODE_MARK`s, its newlines kept (same length:
    lines and paragraph breaks stay where they were)."""
    if not ranges:
        return text
    pieces: list[str] = []
    pos = 0
    for start, end in ranges:
        hidden = text[start:end]
        masked = _NOT_NEWLINE.sub(CODE_MARK, hidden) if "\n" in hidden else CODE_MARK * len(hidden)
        pieces += [text[pos:start], masked]
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def _escaping_backslashes(text: str, at: int) -> int:
    count = 0
    while at > count and text[at - count - 1] == "\\":
        count += 1
    return count
