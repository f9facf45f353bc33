"""A Mermaid sequence diagram (a ```` ```mermaid ```` block starting `sequenceDiagram`)
drawn as text, where Obsidian draws it as a picture.

The protocol pages an LLM-kept wiki takes in (MCP's specification, OAuth flows) write
their exchanges this way: 160 such diagrams in the vaults we fetched, each shown as its
source before.

What is read (as Mermaid reads it):

- `participant A`, `participant A as Label`, `actor A …` (a participant too); a
  participant first named in a message is added where it is named;
- messages `A->>B: text` with every arrow Mermaid has: `->>` and `-->>` (an arrowhead),
  `->` and `-->` (none), `-x` and `--x` (a cross), `-)` and `--)` (an open head), the
  doubled `<<->>` and `<<-->>`; two dashes draw the line dotted; `+` / `-` after the
  arrow (activations) read and not drawn; a message to its own sender loops back;
- `Note left of A: …`, `Note right of A: …`, `Note over A: …`, `Note over A,B: …`;
- `loop`, `alt` / `else`, `opt`, `par` / `and`, `critical` / `option`, `break`, `rect` …
  `end`: a dashed line across the diagram where each starts (its kind and text on it)
  and where it ends;
- `autonumber` numbers the messages; `<br>` parts a text's lines; `activate`,
  `deactivate`, `title`, `%%` comments and a `box` … `end` around participants are left
  out.

The participants stand side by side in boxes, a line down from each; each message is an
arrow from its sender's line to its receiver's, its text above it, one under the other in
the order written. The lines stand far enough apart for every text between them. A
drawing too wide for its room is cut where no box stands (a message's text may be cut).

One drawing whole, or nothing: a statement not read (or longer than `MOST_STATEMENT`), a
block not closed, more than `MOST_PARTICIPANTS` participants or `MOST_EVENTS` messages
and notes, a drawing over `MOST_CELLS` give None, and the block stays as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from okf_explorer.core.diagrams.canvas import ARROWS, LEFT, RIGHT, Cells, Drawing, NotDrawn, cells
from okf_explorer.core.diagrams.mermaid_text import statements, text_lines

__all__ = ["sequence_diagram"]

MOST_PARTICIPANTS = 40
MOST_EVENTS = 500
"""Messages, notes and block lines drawn at most."""
MOST_STATEMENT = 2_000
"""Characters a statement may have (its patterns then read it in a bounded time)."""
MOST_CELLS = 150_000
"""Cells a drawing may take (width × height)."""
BLOCKS = frozenset({"loop", "alt", "opt", "par", "critical", "break", "rect"})
"""The statements that open a block (closed by `end`)."""
BRANCHES = frozenset({"else", "and", "option"})
"""The statements that start a block's next part."""
APART = 3
"""Cells at least between two participants' boxes."""

_PARTICIPANT = re.compile(r"(participant|actor)\s+(.+?)(?:\s+as\s+(.+))?$", re.I)
_MESSAGE = re.compile(
    r"(?P<start>[^\s\-<>+:;]+(?:\s+[^\s\-<>+:;]+)*?)\s*"
    r"(?P<arrow><<-->>|<<->>|-->>|->>|-->|->|--x|-x|--\)|-\))"
    r"\s*[+-]?\s*(?P<end>[^:;]+?)\s*:(?P<text>.*)$"
)
_NOTE = re.compile(r"note\s+(left of|right of|over)\s+([^:]+?)\s*:(.*)$", re.I)
_SKIPPED = re.compile(r"(?:activate|deactivate|title|autonumber\b.+|box\b.*)(?:\s|$)", re.I)
_WORD = re.compile(r"(\w+)\b\s*(.*)$")


@dataclass(slots=True)
class _Event:
    kind: str
    """`message`, `self` (a message to its sender), `note` or `block`."""
    text: list[str]
    start: int = 0
    end: int = 0
    dotted: bool = False
    head: str = ""
    """The arrowhead at the receiver: `►`, `×`, `›` or nothing (`""`)."""
    both: bool = False
    """An arrowhead at the sender too (`<<->>`)."""
    side: str = ""
    """A note's place: `left`, `right`, `over`."""


@dataclass(slots=True)
class _Diagram:
    names: dict[str, int] = field(default_factory=dict)
    labels: list[list[str]] = field(default_factory=list)
    events: list[_Event] = field(default_factory=list)


def sequence_diagram(source: str) -> Drawing | None:
    """The sequence diagram written in `source` drawn as text (see the module doc);
    None when it is not one this module draws whole."""
    try:
        return _draw(_read(source))
    except NotDrawn:
        return None


# --- reading ---------------------------------------------------------------------------


def _read(source: str) -> _Diagram:
    lines = statements(source)
    if not lines or lines[0].lower() != "sequencediagram":
        raise NotDrawn
    diagram = _Diagram()
    depth, boxes, numbered = 0, 0, False
    for line in lines[1:]:
        if len(line) > MOST_STATEMENT:
            raise NotDrawn
        word = _WORD.match(line)
        first = word.group(1).lower() if word else ""
        if line.lower() == "autonumber":
            numbered = True
        elif participant := _PARTICIPANT.match(line):
            _participant(diagram, participant.group(2), participant.group(3))
        elif first == "end":
            if boxes:
                boxes -= 1
            elif depth:
                depth -= 1
                diagram.events.append(_Event("block", [""]))
            else:
                raise NotDrawn
        elif first == "box":
            boxes += 1
        elif first in BLOCKS or first in BRANCHES:
            if first in BLOCKS:
                depth += 1
            elif not depth:
                raise NotDrawn
            rest = " ".join(text_lines(word.group(2)))  # type: ignore[union-attr]
            shown = "" if first == "rect" else f"{first} {rest}".strip()  # rect: a colour
            diagram.events.append(_Event("block", [shown]))
        elif note := _NOTE.match(line):
            _note(diagram, note.group(1).lower(), note.group(2), note.group(3))
        elif message := _MESSAGE.match(line):
            _message(diagram, message, numbered)
        elif _SKIPPED.match(line):
            continue
        else:
            raise NotDrawn
        if len(diagram.names) > MOST_PARTICIPANTS or len(diagram.events) > MOST_EVENTS:
            raise NotDrawn
    if depth or boxes or not diagram.names:
        raise NotDrawn
    return diagram


def _participant(diagram: _Diagram, name: str, label: str | None = None) -> int:
    name = name.strip()
    if name not in diagram.names:
        diagram.names[name] = len(diagram.labels)
        diagram.labels.append(text_lines(name))
    if label is not None:
        diagram.labels[diagram.names[name]] = text_lines(label)
    return diagram.names[name]


def _message(diagram: _Diagram, match: re.Match[str], numbered: bool) -> None:
    start = _participant(diagram, match.group("start"))
    end = _participant(diagram, match.group("end"))
    arrow = match.group("arrow")
    text = text_lines(match.group("text"))
    if numbered:
        number = sum(event.kind in ("message", "self") for event in diagram.events) + 1
        text[0] = f"{number}. {text[0]}".rstrip()
    head = "×" if arrow.endswith("x") else "›" if arrow.endswith(")") else ""
    head = head or ("►" if arrow.endswith(">>") else "")
    kind = "self" if start == end else "message"
    dotted = "--" in arrow
    diagram.events.append(_Event(kind, text, start, end, dotted, head, arrow.startswith("<<")))


def _note(diagram: _Diagram, side: str, names: str, text: str) -> None:
    parts = [part for part in names.split(",") if part.strip()]
    if not parts or len(parts) > 2 or (len(parts) == 2 and side != "over"):
        raise NotDrawn
    at = [_participant(diagram, part) for part in parts]
    event = _Event("note", text_lines(text), min(at), max(at), side=side.split()[0])
    diagram.events.append(event)


# --- drawing ---------------------------------------------------------------------------


def _draw(diagram: _Diagram) -> Drawing:
    widths = [max(cells(line) for line in label) + 4 for label in diagram.labels]
    middles = _middles(diagram, widths)
    canvas = Cells()
    height = max(len(label) for label in diagram.labels) + 2
    for middle, width, label in zip(middles, widths, diagram.labels, strict=True):
        canvas.box(middle - (width - 1) // 2, 0, (width, height), lines=label)
    least = max(middle + (width + 1) // 2 for middle, width in zip(middles, widths, strict=True))
    if least * (height + 4 * len(diagram.events)) > MOST_CELLS:
        raise NotDrawn  # too large a drawing to read, before it is drawn
    y, blocks = height, []
    for event in diagram.events:
        if event.kind == "block":
            blocks.append((y, event.text[0]))
            y += 1
        else:
            y = _event(canvas, event, middles, y)
    for middle in middles:  # each participant's line, crossed by what runs across it
        canvas.line([(middle, height - 1), (middle, y)])
        canvas.put(middle, height - 1, "┬")
    used = [x for x, _ in (*canvas.chars, *canvas.ways)]
    left, right = min(used), max(used)
    for row, text in blocks:  # where a block starts and ends: a dashed line across
        canvas.line([(left, row), (right, row)], dotted=True)
        if text:
            canvas.text(left, row, f"{text} ", take=False)
    return canvas.drawing(MOST_CELLS)


def _middles(diagram: _Diagram, widths: list[int]) -> list[int]:
    """Each participant's line: far enough from the one before for the boxes, and for every
    text between two lines (a message's, a note's, a loop back's)."""
    count = len(widths)
    apart: dict[tuple[int, int], int] = {}

    def need(low: int, high: int, cells_between: int) -> None:
        apart[(low, high)] = max(apart.get((low, high), 0), cells_between)

    for number in range(count - 1):
        need(number, number + 1, widths[number] // 2 + widths[number + 1] // 2 + APART)
    left_room = widths[0] // 2
    for event in diagram.events:
        text = max(cells(line) for line in event.text)
        if event.kind == "message":
            need(min(event.start, event.end), max(event.start, event.end), text + 4)
        elif event.kind == "self" and event.start + 1 < count:
            need(event.start, event.start + 1, text + 6)
        elif event.kind == "note" and event.side == "right" and event.start + 1 < count:
            need(event.start, event.start + 1, text + 7)
        elif event.kind == "note" and event.side == "left":
            if event.start:
                need(event.start - 1, event.start, text + 7)
            else:
                left_room = max(left_room, text + 5)
        elif event.kind == "note" and event.end > event.start:
            need(event.start, event.end, text + 1)
    middles = [left_room]
    for high in range(1, count):
        middles.append(max(middles[low] + apart.get((low, high), 0) for low in range(high)))
    return middles


def _event(canvas: Cells, event: _Event, middles: list[int], y: int) -> int:
    """Draw a message or a note from row `y` on; the row after it."""
    if event.kind == "note":
        return _note_box(canvas, event, middles, y)
    start, end = middles[event.start], middles[event.end]
    lines = [line for line in event.text if line]
    if event.kind == "self":
        for row, line in enumerate(lines):
            canvas.text(start + 5, y + row, line, take=False)
        canvas.line([(start, y), (start + 3, y), (start + 3, y + 1), (start, y + 1)], event.dotted)
        canvas.put(start + 1, y + 1, ARROWS[LEFT] if event.head else "─")
        return y + max(2, len(lines))
    low, high = min(start, end), max(start, end)
    for row, line in enumerate(lines):
        canvas.text(low + 2 + (high - low - 3 - cells(line)) // 2, y + row, line, take=False)
    y += len(lines)
    forward = end > start
    tip = end - 1 if forward else end + 1  # the arrowhead's cell, beside the receiver's line
    canvas.line([(start, y), (tip if event.head else end, y)], event.dotted)
    if event.head:
        canvas.put(tip, y, ARROWS[RIGHT if forward else LEFT] if event.head == "►" else event.head)
    if event.both:
        canvas.put(start + 1 if forward else start - 1, y, ARROWS[LEFT if forward else RIGHT])
    return y + 1


def _note_box(canvas: Cells, event: _Event, middles: list[int], y: int) -> int:
    width = max(cells(line) for line in event.text) + 4
    start, end = middles[event.start], middles[event.end]
    if event.side == "right":
        left = start + 2
    elif event.side == "left":
        left = start - 1 - width
    else:
        middle = (start + end) // 2
        width = max(width, end - start + 5)
        left = middle - (width - 1) // 2
    height = len(event.text) + 2
    canvas.box(left, y, (width, height))
    for row, line in enumerate(event.text):  # from the left, as Mermaid writes a note
        canvas.text(left + 2, y + 1 + row, line)
    return y + height
