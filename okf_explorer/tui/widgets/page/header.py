"""The page header: title and slug (the slug only when it differs; its folder alone when
its file name is the title), a line of type, OKF badges and tags, then every other key;
the keys left empty named together last.

Known OKF keys come first in a fixed order (`SHOWN_FIRST`), the rest after in the
order the page wrote them. Status, trust tier and staleness each show as one glyph
and a word (see `okf_meta`); a value longer than `FOLD_LINES` lines shows its first
lines and `… (K more lines)`. A URL or mail address in a typed-link field
(`source: https://…`) is no page edge: it shows as an external reference, `↗ value`,
which a click opens outside. Every name and value passes through `printable`.
"""

from __future__ import annotations

import ast
import bisect
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.message import Message
from textual.style import Style as TextualStyle
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import Static

from okf_explorer.core.links.spans import wiki_link_spans
from okf_explorer.core.links.typed import (
    concept_path,
    external_href,
    external_references,
    is_external,
)
from okf_explorer.core.okf import meta as okf_meta
from okf_explorer.core.pages import Page
from okf_explorer.core.text_safety import printable
from okf_explorer.tui import marks
from okf_explorer.tui.markdown import CURSOR_STYLE, TAG_SCHEME, HangingContent, span_link

COMPACT_BELOW = 20
"""A pane fewer rows high than this gives the header only the rows its page's body does
not need (a page of properties and no body shows them all if they fit)."""
TALL_SHARE = 0.5
"""A taller pane gives the header this share of its rows, or more where the body does
not need them: a vault's notes of 30 properties filled a 45-row pane to its foot, their
text below it (`p` shows every key). An OKF concept's header (`okf_meta.is_okf_concept`)
is shown whole: its provenance and trust are read before its text."""
MIN_ROOM = 3
"""The rows a header may always take in a short pane: title, badges and the line counting
what it folds."""
FOLD_LINES = 6
"""A value of more lines shows its first `FOLD_LINES - 1` and `… (K more lines)`."""
SOURCE_ROWS = FOLD_LINES * 2
"""The rows a header's sources may take (at its width; without one, as many sources),
then `… (K more sources · p shows all)`: an LLM wiki's concept listed 13 raw GitHub URLs
as its sources, three rows each in the page pane, the text two pages below."""
SHOWN_FIRST = (
    "owner",
    "authors",
    "author",
    "date",
    "created",
    "updated",
    "aliases",
    "generated",
    "usage_window",
    "resource",
    "okf_version",
)
"""Known keys shown in this order, after the badges, tags, description and sources."""
_IN_BADGES_OR_ABOVE = ("title", "type", "status", "verified", "stale_after", "tags", "description")
FOLLOW_ACTION = "follow_link"
"""The `PageHeader` action a click on a source or contract link runs, with its href."""


class PageHeader(Static):
    """The header's widget: a click on a link it shows posts `LinkClicked` (the page pane
    follows it exactly as a body link). Its links are the first stops of the page's
    cursor (`links`, `mark`: `tui.markdown.cursor.LinkLines`)."""

    class LinkClicked(Message):
        def __init__(self, href: str) -> None:
            super().__init__()
            self.href = href

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: HangingContent | None = None
        self._marks: tuple[tuple[int, int, int], ...] = ()
        self._links: tuple[object, list[tuple[str, tuple[tuple[int, int, int], ...]]]] = (
            None,
            [],
        )

    def action_follow_link(self, href: str) -> None:
        self.post_message(self.LinkClicked(href))

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        """Show `content`; a header (`Text`) wraps with hanging indents, so a source's
        resource or a nested value that wraps stays under its own line (`hanging`)."""
        if isinstance(content, Text):
            content = HangingContent.of(Content.from_rich_text(content, self.app.console))
        self._shown = content if isinstance(content, HangingContent) else None
        self._marks = ()
        super().update(content, layout=layout)

    @property
    def links(self) -> tuple[object, list[tuple[str, tuple[tuple[int, int, int], ...]]]]:
        """(the header shown, the href of each link in it and where it is: its row as
        wrapped now, and its text's offsets in the whole header)."""
        shown = self._shown
        if shown is None:
            return (None, [])
        key = (shown, self.content_region.width)
        if self._links[0] != key:
            self._links = (key, _link_marks(shown, self.content_region.width))
        return self._links

    def mark(self, marks: Sequence[tuple[int, int, int]]) -> None:
        """Show the cursor on `marks` (none: take it off)."""
        shown = self._shown
        if shown is None or tuple(marks) == self._marks:
            return
        marked: Content = shown
        for _row, start, end in marks:
            marked = marked.stylize(CURSOR_STYLE, start, end)
        super().update(HangingContent.of(marked, shown.hang), layout=False)
        self._marks = tuple(marks)


_FOLLOW = re.compile(rf"{FOLLOW_ACTION}\((.+)\)\Z", re.DOTALL)


def _link_marks(
    content: HangingContent, width: int
) -> list[tuple[str, tuple[tuple[int, int, int], ...]]]:
    """Each link of a header, in reading order: its href, and its text's row (wrapped
    `width` wide) and offsets."""
    starts = [0]  # where each line of the header starts in its text
    for line in content.plain.split("\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    rows = content.rows(max(width, 1)) if width > 0 else []
    found: list[tuple[str, tuple[tuple[int, int, int], ...]]] = []
    for span in sorted(content.spans, key=lambda span: span.start):
        style = span.style
        click = style.meta.get("@click") if isinstance(style, TextualStyle) else None
        matched = _FOLLOW.match(click) if isinstance(click, str) else None
        if matched is None or span.end <= span.start:
            continue
        try:
            href = ast.literal_eval(matched.group(1))
        except (ValueError, SyntaxError):
            continue
        if found and found[-1][0] == href and found[-1][1][-1][2] >= span.start:
            ((row, start, _),) = found[-1][1]
            found[-1] = (href, ((row, start, span.end),))
            continue
        line = bisect.bisect_right(starts, span.start) - 1
        row = sum(1 for shown in rows if (shown.line, shown.x) <= (line, span.start - starts[line]))
        found.append((str(href), ((max(row - 1, 0), span.start, span.end),)))
    return found


def is_deprecated(frontmatter: dict[str, Any]) -> bool:
    return okf_meta.status_of(frontmatter) == "deprecated"


@dataclass(frozen=True, slots=True)
class Room:
    """The lines a header may take at a width: the keys that do not fit fold into one
    last line, `… 7 more properties · p shows them`."""

    lines: int
    width: int


def page_header(
    page: Page,
    now: datetime | None = None,
    *,
    unfold: bool = False,
    room: Room | None = None,
    width: int | None = None,
) -> Text:
    """Title and slug, the badges line, then each frontmatter key (see the module doc).

    Control characters in any name or value show as escapes (`printable`); only the
    description keeps its line breaks. `unfold` shows long values in full, and every
    key; `room` (a short pane) keeps the keys that fit in it (title and badges always);
    `width` (the header's cells) folds the sources by the rows they take
    (`SOURCE_ROWS`).
    """
    return built_header(page, now, unfold=unfold, room=room, width=width)[0]


def built_header(
    page: Page,
    now: datetime | None = None,
    *,
    unfold: bool = False,
    room: Room | None = None,
    width: int | None = None,
) -> tuple[Text, bool]:
    """`page_header`, and whether it folds anything (so unfolding it shows more)."""
    header = _Header(unfold, room, width)
    return _build(header, page, now), header.folded


class _Header:
    """One header being built; `folded` records whether a value was cut short, `keys`
    where each key's lines start in the text and how many keys they show."""

    def __init__(self, unfold: bool, room: Room | None = None, width: int | None = None) -> None:
        self.unfold = unfold
        self.room = None if unfold else room
        self.width = width if width is not None else room.width if room is not None else None
        self.folded = False
        self.keys: list[tuple[int, int]] = []

    def key_starts(self, text: Text, count: int = 1) -> None:
        self.keys.append((len(text), count))


def _build(header: _Header, page: Page, now: datetime | None) -> Text:
    fm = page.frontmatter
    text = Text.assemble((printable(page.title), "bold"))
    folder, _, name = page.slug.rpartition("/")
    if page.slug != page.title:  # a page at the root titled by its file name: said once
        text.append("  ")  # in a folder, only the folder (`Notes/`)
        shown = f"{folder}/" if name == page.title else page.slug
        text.append(printable(shown), style="dim")
    if is_deprecated(fm):
        text.append("  ")
        text.append(" DEPRECATED ", style="bold reverse red")
    if page.reserved:
        text.append("  (reserved)", style="dim italic")
    badges = _badges(page, now, header)
    if badges:
        text.append("\n")
        for number, badge in enumerate(badges):
            text.append(" · " if number else "", style="dim")
            text.append_text(badge)
    if page.readable and page.error_kind == "malformed" and page.error:
        # its properties are gone from the header: say so, never show a bare page
        text.append(f"\n⚠ {printable(page.error)}", style="bold yellow")
    events = okf_meta.verifications(fm)
    if events:
        header.key_starts(text)
        _key(text, "verified")
        lines = [f"{event.by or '?'} at {event.at or '?'}" for event in events]
        _value(header, text, lines, indent=len(events) > 1)
    elif "verified" in fm:  # not OKF v0.2 events (a bare date, say): shown as written
        header.key_starts(text)
        _key(text, "verified")
        _value(header, text, okf_meta.value_lines(fm.get("verified")), indent=False)
    if page.description:
        header.key_starts(text)
        text.append("\n")
        text.append(printable(page.description, multiline=True), style="italic")
    if "sources" in fm:
        header.key_starts(text)
        _sources(header, text, fm)
    contract = okf_meta.contract_of(fm, page.type)
    if contract is not None:
        header.key_starts(text, sum(key in fm for key in okf_meta.CONTRACT_KEYS) or 1)
        _contract(header, text, contract)
    shown = {"sources", *_above(fm), *(okf_meta.CONTRACT_KEYS if contract is not None else ())}
    later = [name for name in SHOWN_FIRST if name in fm]
    later += [str(name) for name in fm if name not in SHOWN_FIRST and name not in shown]
    filled = [name for name in later if not holds_nothing(fm.get(name))]
    empty = [name for name in later if name.strip() and holds_nothing(fm.get(name))]
    external = {field for field, _ in external_references(fm)}
    for name in filled:
        value = fm.get(name)
        header.key_starts(text)
        if name in external and _external_line(text, name, value):
            continue
        moment = epoch_text(name, value)
        lines = [moment] if moment is not None else okf_meta.value_lines(value)
        _key(text, name)
        _value(header, text, lines, indent=len(lines) > 1 or isinstance(value, dict))
    if empty:  # a template's keys left blank: one line naming them, after the others
        header.key_starts(text, len(empty))
        text.append("\n")
        text.append(f"{EMPTY_LABEL} {', '.join(printable(name) for name in empty)}", style="dim")
    return _fitted(header, text)


EMPTY_LABEL = "(empty)"
"""What the header's last line starts with: the properties with no value, by name (a
vault's template left `confidence:`, `purpose:`, `uid:`, … blank on 2,000 notes, each a
row of its own above the text; Obsidian shows each with an empty field)."""


def holds_nothing(value: Any) -> bool:
    """Whether a property holds no value: nothing, blank text, an empty mapping, or a list
    of nothing but such (`tags: []`, a template's `aliases:` with one blank `-`). Wider
    than a base's `isEmpty()` (`core.bases.expression.is_empty`), for which `" "` and
    `[null]` hold something."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, tuple)):
        return all(holds_nothing(item) for item in value)
    if isinstance(value, dict):
        return not value
    return False


EPOCH_KEYS = frozenset({"created", "updated", "modified", "date", "created_at", "updated_at"})
"""Frontmatter keys whose whole-number value is a moment (Dendron writes `created:
1604237102230`, milliseconds since 1970)."""


def epoch_text(name: str, value: Any) -> str | None:
    """A time stamp under one of `EPOCH_KEYS` as a date and time a person reads
    (`2020-11-01 13:25 UTC`): seconds (10 digits) or milliseconds (13) since 1970, between
    the years 1990 and 2100; None for any other value."""
    if str(name).lower() not in EPOCH_KEYS or type(value) is not int:
        return None
    digits = len(str(abs(value)))
    seconds = value / 1000 if digits == 13 else value if digits == 10 else None
    if seconds is None:
        return None
    moment = datetime.fromtimestamp(seconds, UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC") if 1990 <= moment.year <= 2100 else None


def _fitted(header: _Header, text: Text) -> Text:
    """`text` cut after the keys that fit in the header's room, with a line counting the
    rest; the title and badges lines stay whatever the room."""
    room = header.room
    if room is None or not header.keys or _rows(text.plain, room.width) <= room.lines:
        return text
    kept = 0
    while kept < len(header.keys):
        end = header.keys[kept + 1][0] if kept + 1 < len(header.keys) else len(text)
        if _rows(text.plain[:end], room.width) + 1 > room.lines:
            break
        kept += 1
    shown = text[: header.keys[kept][0]]
    if _rows(text.plain, room.width) <= _rows(shown.plain, room.width) + 1:
        return text  # what is left takes no more than the line that would count it
    hidden = sum(count for _, count in header.keys[kept:])
    header.folded = True
    noun = "property" if hidden == 1 else "properties"
    shown.append(f"\n… {hidden} more {noun} · p shows them", style="dim")
    return shown


def _rows(plain: str, width: int) -> int:
    """Lines `plain` takes at `width` cells, long ones wrapped (about: at any character)."""
    room = max(width, 1)
    return sum(max(1, -(-cell_len(line) // room)) for line in plain.split("\n"))


def _external_line(text: Text, name: str, value: Any) -> bool:
    """`source ↗ https://…, other`: a link field of plain strings, its external references
    marked and clickable; False (nothing shown) for another shape."""
    entries = value if isinstance(value, list) else [value]
    if not all(isinstance(entry, str) for entry in entries) or len(entries) > FOLD_LINES * 2:
        return False
    _key(text, name)
    for number, entry in enumerate(entries):
        text.append(", " if number else "")
        if is_external(entry):
            shown = printable(entry.strip())
            text.append("↗ " + shown, _linked("underline", external_href(entry)))
        else:
            text.append(printable(entry))
    return True


TAGS_SHOWN = 12
"""Tags the badges line names before `+N more` (every one when the header is unfolded:
a vault note's `#tags` are its tags too, and a note may hold hundreds)."""


def _badges(page: Page, now: datetime | None, header: _Header) -> list[Text]:
    """`type metric`, `● stable`, `◉ human-reviewed`, `⚠ stale since …`, `tags a, b`."""
    fm = page.frontmatter
    badges: list[Text] = []
    if page.type:
        badges.append(Text.assemble(("type ", "dim"), printable(page.type)))
    if _is_status_badge(fm):
        status = okf_meta.status_of(fm)
        badges.append(marks.status_glyph(status) + Text("\u00a0" + printable(status)))
        badges[-1].stylize(marks.STATUS_STYLES.get(status, "magenta"))
    if okf_meta.is_okf_concept(fm):
        tier = okf_meta.trust_tier(fm)
        badges.append(marks.trust_glyph(tier) + Text(f"\u00a0{tier}"))  # kept on one line
        badges[-1].stylize(marks.TRUST_STYLES[tier])
    if "stale_after" in fm:
        badges.append(_staleness(fm, now))
    if page.tags:
        shown = page.tags if header.unfold else page.tags[:TAGS_SHOWN]
        badge = Text("tags ", style="dim")
        for number, tag in enumerate(shown):  # each a link: `n` reaches it, `enter` lists
            badge.append(", " if number else "")
            badge.append(printable(tag), _linked("", TAG_SCHEME + tag))
        if len(shown) < len(page.tags):
            badge.append(f" +{len(page.tags) - len(shown)} more · p shows them", style="dim")
            header.folded = True
        badges.append(badge)
    return badges


def _above(fm: dict[str, Any]) -> tuple[str, ...]:
    """The keys the title and badges lines show (not again as properties)."""
    if _is_status_badge(fm):
        return _IN_BADGES_OR_ABOVE
    return tuple(name for name in _IN_BADGES_OR_ABOVE if name != "status")


def _is_status_badge(fm: dict[str, Any]) -> bool:
    """Whether `status` shows as a badge (one word, as OKF writes it); a list or a
    mapping (a vault's `status: ["[[Published]]"]`) is an ordinary property, as written,
    and one left empty is listed with the other empty ones."""
    stated = okf_meta.stated_status(fm) is not None
    return stated and not isinstance(fm["status"], (list, tuple, dict))


def _staleness(fm: dict[str, Any], now: datetime | None) -> Text:
    deadline = okf_meta.stale_after(fm)
    if deadline is None:
        raw = printable(okf_meta.scalar_text(fm.get("stale_after")))
        return Text(f"stale_after {raw} (ignored: not a time with an offset)", style="dim")
    when = okf_meta.iso(deadline)
    if okf_meta.is_stale(fm, now):
        return Text(f"{okf_meta.STALE_GLYPH} stale since {when}", style=marks.STALE_STYLE)
    return Text(f"{okf_meta.FRESH_GLYPH} fresh until {when}", style="dim")


def _sources(header: _Header, text: Text, fm: dict[str, Any]) -> None:
    """`sources` then one `• title — resource [id]` line per entry, its other keys below."""
    _key(text, "sources")
    entries = okf_meta.sources_of(fm)
    if not entries:
        text.append(printable(okf_meta.scalar_text(fm.get("sources"))))
        return
    limit = len(entries) if header.unfold else SOURCE_ROWS  # each a row at least
    rows = 0
    for shown, source in enumerate(entries[:limit]):
        start = len(text)
        _source_line(header, text, source)
        if header.width and not header.unfold:
            rows += len(text[start + 1 :].wrap(_measuring(), header.width))
            if rows > SOURCE_ROWS and shown:
                text.right_crop(len(text) - start)
                limit = shown
                break
    hidden = len(entries) - limit
    if hidden > 0:
        header.folded = True
        text.append(f"\n  … ({hidden} more sources · p shows all)", style="dim")


@cache
def _measuring() -> Console:
    """A console to wrap text with, as the header on screen is (`HeaderShown.rows`)."""
    return Console(file=io.StringIO())


def _source_line(header: _Header, text: Text, source: okf_meta.Source) -> None:
    """One source: `• title — resource [id]`, its other keys below."""
    text.append("\n  • ")
    if source.title:
        text.append(printable(source.title), style="bold")
        text.append(" — ", style="dim")
    if wiki_link_spans(source.resource):  # `"[[sources/x]]"`, as a link property is
        _linked_line(text, printable(source.resource), "cyan")
    else:
        style = {"url": "underline", "path": "cyan", "scope": "italic"}[source.kind]
        href = source_href(source.resource)
        shown = ("→ " if source.kind == "path" else "") + printable(source.resource)
        text.append(shown, _linked(style, href) if href is not None else style)
    if source.id:
        text.append(f"  [{printable(source.id)}]", style="dim")
    if source.extra:
        lines = okf_meta.value_lines(dict(source.extra))
        _value(header, text, lines, indent=True, depth=4, style="dim")


def source_href(resource: str) -> str | None:
    """What a click on a resource follows: a URL as is, a concept path (`core.links.typed`
    `concept_path`) as a Markdown link target; None for a scope or a non-Markdown file."""
    if okf_meta.resource_kind(resource) == "url":
        return resource.strip()
    return concept_path(resource)


def header_links(page: Page) -> list[tuple[str, str]]:
    """(label, href) of every link the header shows (sources, the contract's resources),
    for the `l` dialog: a header link is followed exactly as a body link."""
    fm = page.frontmatter
    found = []
    for source in okf_meta.sources_of(fm):
        if spans := wiki_link_spans(printable(source.resource)):  # `"[[sources/x]]"`
            for span in spans:
                label, href = span_link(span, "")
                found.append((f"source: {label}", href))
        elif (href := source_href(source.resource)) is not None:
            found.append((f"source: {source.title or source.id or source.resource}", href))
    contract = okf_meta.contract_of(fm, page.type)
    if contract is not None:
        for name in ("computation", "executor", "attester"):
            resource = getattr(contract, name)
            if resource is not None and (href := concept_path(resource)) is not None:
                found.append((f"{name}: {resource}", href))
    for field, value in external_references(fm):
        found.append((f"{field}: {value}", external_href(value)))
    return found + property_links(page)


def _linked(style: str, href: str) -> Style:
    """`style` that runs `FOLLOW_ACTION` with `href` when clicked."""
    return Style.parse(style or "none") + Style(meta={"@click": f"{FOLLOW_ACTION}({href!r})"})


def _contract(header: _Header, text: Text, contract: okf_meta.Contract) -> None:
    """`attested computation runtime R`, then parameters, computation, executor and
    attester (concept paths clickable), then the recorded verdict and any problem."""
    _key(text, "attested computation")
    text.append(f"runtime {printable(contract.runtime or '?')}", style="bold")
    if contract.parameters:
        text.append("\n  parameters ", style="dim")
        for number, parameter in enumerate(contract.parameters):
            text.append(", " if number else "", style="dim")
            text.append(printable(parameter.name), style="bold")
            text.append(f": {printable(parameter.type)}")
            if parameter.required:
                text.append(" (required)", style="dim")
    for name in ("computation", "executor", "attester"):
        resource = getattr(contract, name)
        if resource is None:
            continue
        text.append(f"\n  {name} ", style="dim")
        href = concept_path(resource)
        shown = ("→ " if href is not None else "") + printable(resource)
        text.append(shown, _linked("cyan", href) if href is not None else "")
        if name == "executor" and contract.receipt:
            text.append(f" · receipt {printable(', '.join(contract.receipt))}", style="dim")
    if contract.verdict == "fail":
        text.append(f"\n  ✗ attestation failed ({printable(contract.verdict_text)})", "bold red")
    elif contract.verdict == "pass":
        text.append(f"\n  ✓ attested ({printable(contract.verdict_text)})", style="green")
    elif contract.verdict == "unknown":
        text.append(f"\n  ? attestation {printable(contract.verdict_text)}", style="yellow")
    else:
        text.append("\n  attested by the consumer on each run (none recorded)", style="dim")
    if contract.verdict_details:
        lines = okf_meta.value_lines(dict(contract.verdict_details))
        _value(header, text, lines, indent=True, depth=4, style="dim")
    for problem in contract.problems:
        text.append(f"\n  ✗ contract incomplete: {printable(problem)}", style="bold red")


def _key(text: Text, name: str) -> None:
    text.append("\n")
    text.append(f"{printable(name)} ", style="dim")


def _value(
    header: _Header,
    text: Text,
    lines: list[str],
    *,
    indent: bool,
    depth: int = 2,
    style: str = "",
) -> None:
    """`lines` after the key (on its line when one and not `indent`, else below it), folded."""
    shown = lines if header.unfold or len(lines) <= FOLD_LINES else lines[: FOLD_LINES - 1]
    if not indent and len(shown) == 1:
        _linked_line(text, printable(shown[0]), style)
        return
    pad = " " * depth
    for line in shown:
        _linked_line(text, f"\n{pad}{printable(line)}", style)
    if len(shown) < len(lines):
        header.folded = True
        text.append(f"\n{pad}… ({len(lines) - len(shown)} more lines · p shows all)", style="dim")


def _linked_line(text: Text, line: str, style: str) -> None:
    """`line` appended, each wiki-link in it (a vault's `categories: [[Trips]]`) shown as
    its text and followed on a click, as the body's are (`property_links`)."""
    at = 0
    for span in wiki_link_spans(line):
        label, href = span_link(span, line[span.start : span.end])
        text.append(line[at : span.start], style=style)
        text.append(label, _linked(f"{style} underline".strip(), href))
        at = span.end
    text.append(line[at:], style=style)


def property_links(page: Page) -> list[tuple[str, str]]:
    """(label, href) of the wiki-links in the page's properties, as `_linked_line` shows
    them: `categories: Trips`."""
    found = []
    shown_above = _above(page.frontmatter)
    for name, value in page.frontmatter.items():
        if name in shown_above or name == "sources":
            continue
        for line in okf_meta.value_lines(value):
            for span in wiki_link_spans(printable(line)):
                label, href = span_link(span, "")
                found.append((f"{printable(str(name))}: {label}", href))
    return found


class HeaderShown:
    """What the page pane's header shows of the page (`show`): every key, or (`p`)
    long values unfolded, a badge line under it. A pane under `COMPACT_BELOW` rows gives
    the header the rows the body does not need (at least its title, badges and one line
    counting the keys it folds); a taller one, `TALL_SHARE` of its rows or those (an OKF
    concept's header, every key)."""

    def __init__(self, pane: Widget) -> None:
        self.pane = pane
        self.page: Page | None = None
        self.properties_open = False
        """`p` unfolds long frontmatter values in the header (every page, until pressed again)."""
        self.folded = False
        """Whether the header on screen cuts a value or key short (`p` applies)."""
        self.room: Room | None = None
        """The room the header on screen was fitted to (None: every key)."""
        self.width = 0
        """The cells the header on screen was fitted to (its sources fold by rows)."""
        self.rows = 1
        """Lines of the header on screen, long ones wrapped (as wide as it was last laid
        out: the page pane's width does not change with the page)."""
        self.badge: tuple[str, Text] | None = None
        """(slug, line) shown under that page's header: how the server sees it."""

    def show(self, page: Page) -> None:
        self.page = page
        room = self.room = self._room(page)
        width = self.width = self._width
        header, folded = built_header(
            page, unfold=self.properties_open, room=room, width=width or None
        )
        badge = self._badge_of(page)
        if badge is not None:
            header = Text.assemble(header, "\n", badge)
        self.pane.query_one("#page-header", Static).update(header)
        wrapped = header.wrap(self.pane.app.console, width) if width > 0 else None
        self.rows = len(wrapped) if wrapped else header.plain.count("\n") + 1
        # unfolded by `p`: whether folding it again hides anything
        if self.properties_open:
            folded = built_header(page, room=room, width=width or None)[1]
        self.folded = folded

    def toggle_properties(self) -> None:
        self.properties_open = not self.properties_open
        if self.page is not None:
            self.show(self.page)

    def show_badge(self, slug: str, line: Text) -> None:
        self.badge = (slug, line)
        if self.page is not None and self.page.slug == slug:
            self.show(self.page)

    def refit(self) -> bool:
        """Show the header again if the pane's new size gives it other room or width (True
        if so)."""
        if self.page is None or (self._room(self.page), self._width) == (self.room, self.width):
            return False
        self.show(self.page)
        return True

    def _room(self, page: Page) -> Room | None:
        height = self.pane.size.height
        tall = height >= COMPACT_BELOW
        if height <= 0 or (tall and okf_meta.is_okf_concept(page.frontmatter)):
            return None
        inside = height - _PANE_CHROME - (1 if self._badge_of(page) is not None else 0)
        width = self._width
        spare = inside - _body_rows(page.content, width, inside)
        return Room(max(MIN_ROOM, spare, int(inside * TALL_SHARE) if tall else 0), width)

    def _badge_of(self, page: Page) -> Text | None:
        return self.badge[1] if self.badge is not None and self.badge[0] == page.slug else None

    @property
    def _width(self) -> int:
        return self.pane.query_one("#page-header", Static).content_region.width


_PANE_CHROME = 1
"""Rows inside a page pane that show neither header nor body: the line above the header."""


def _body_rows(body: str, width: int, most: int) -> int:
    """About how many lines `body` takes on screen at `width` (its lines, long ones
    wrapped), counted up to one more than `most`: enough to tell whether it fits."""
    rows, start, room = 0, 0, max(width, 1)
    text = body.strip()
    while text and rows <= most:
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        rows += max(1, -(-len(line) // room))
        if end < 0:
            break
        start = end + 1
    return rows
