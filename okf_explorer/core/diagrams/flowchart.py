"""A Mermaid flowchart (a ```` ```mermaid ```` block starting `graph` or `flowchart`)
drawn as text, where Obsidian draws it as a picture.

LLM-kept wikis draw their pipelines this way: 149 pages of a 14k-page framework wiki, 13
of a 1k-page LLM wiki, and Obsidian's help vault in every language it has. Shown as
their source, they read as a list of `A --> B` lines.

What is read (as Mermaid reads it):

- the head `graph` or `flowchart` and its direction: `TD`/`TB` (down, the default),
  `BT` (up), `LR` (right), `RL` (left); statements one a line or parted by `;`;
- nodes: `id`, `id[text]`, with the shapes `(…)`, `([…])`, `((…))` drawn rounded,
  `{…}` and `{{…}}` drawn as a decision, every other shape (`[[…]]`, `[(…)]`,
  `>…]`, `[/…/]` and its kin) as a box; a text in quotes (`id["a (b)"]`); `<br>` parts
  lines; HTML entities and Mermaid's (`#quot;`) read; tags and a Markdown string's
  backticks and stars dropped; `:::class` after a node dropped;
- links: `-->`, `---`, `-.->`, `==>`, `~~~` (laid out, not drawn), longer ones
  (`--->`), `<-->`, `--o`, `--x`; a text on a link (`-->|yes|`, `-- yes -->`,
  `-. yes .->`, `== yes ==>`); chains (`A --> B --> C`) and groups (`A & B --> C`);
- `subgraph` … `end`: its nodes are drawn where the flow puts them, and each group is
  given as a line, its title and its nodes (`Drawing.notes`; the frames are not
  drawn);
- a link from a node to itself (a Markov chain's `S1 -->|0.9| S1`): given as a line too,
  `↻ S1 — 0.9`, as the frames are;
- `classDef`, `class`, `style`, `linkStyle`, `click`, `direction` and `%%` comments: left
  out, as they change only colours and behaviour.

The layout is a small Sugiyama one (as Mermaid's own, dagre): links that close a cycle
turned round; each node on the layer after the longest path to it, a link with a text
two layers long, its text standing on the layer between as a node of its own (so texts
never meet); a link over several layers led through a point on each layer between; each
layer ordered by where its nodes' neighbours sit (barycentres, a few sweeps down and up);
the layers centred on one line. Between two layers each link leaves its node's middle,
turns along a lane of its own node (one lane a node, lanes that do not overlap shared),
and comes to the other node's middle, with an arrowhead where Mermaid draws one; links
that meet share their line. The columns no box or text stands on are given too
(`Drawing.open_columns`): a drawing wider than its room is cut there.

One drawing whole, or nothing: anything else in the source (another kind of diagram, a
statement not read, a group not closed, more than `MOST_NODES`
nodes) gives None, and the block stays as written.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from okf_explorer.core.diagrams.canvas import (
    ARROWS,
    DOWN,
    RIGHT,
    ROUND,
    SQUARE,
    Cells,
    Drawing,
    NotDrawn,
    cells,
    way_of,
)
from okf_explorer.core.diagrams.mermaid_text import statements, text_lines

__all__ = ["flowchart"]

MOST_NODES = 120
"""Nodes drawn at most (a larger flowchart stays as written)."""
MOST_LINKS = 400
"""Links drawn at most."""
MOST_POINTS = 4_000
"""Points where links pass a layer, at most (a larger drawing stays as written)."""
MOST_TEXT = 300
"""Characters a link's text written inside it is looked for in (its closing after)."""
MOST_SOURCE = 20_000
"""Characters of source read at most."""
MOST_CELLS = 150_000
"""Cells a drawing may take (width × height)."""
SWEEPS = 4
"""Barycentre sweeps (down, then up) ordering the layers."""
APART = {"down": 3, "right": 1}
"""Cells between two nodes of one layer, across the flow (columns down, rows right)."""
FLOW = {"TD": "down", "TB": "down", "BT": "up", "LR": "right", "RL": "left"}

_CORNERS = {"box": SQUARE, "round": ROUND, "decision": "╱╲╲╱"}
"""Top left, top right, bottom left, bottom right corners, by shape."""

_HEAD = re.compile(r"(?:graph|flowchart)(?:[ \t]+(TD|TB|BT|LR|RL))?[ \t]*$", re.I)
_SKIPPED = re.compile(r"(?:classDef|class|style|linkStyle|click|direction)\b", re.I)
_SUBGRAPH = re.compile(r"subgraph\b[ \t]*(.*)$", re.I)
_ID_CHARS = r"[^\s\[\](){}<>|&;:\"'`=\-.~,]"
_ID = re.compile(rf"{_ID_CHARS}+(?:-(?![->.]){_ID_CHARS}+)*")
"""A node's name: a hyphen inside it (`harry-1`) is no link."""
_SHAPES = (
    ("(((", ")))", "round"), ("([", "])", "round"), ("((", "))", "round"),
    ("[[", "]]", "box"), ("[(", ")]", "box"), ("{{", "}}", "decision"),
    ("[/", "/]", "box"), ("[/", "\\]", "box"), ("[\\", "\\]", "box"), ("[\\", "/]", "box"),
    ("[", "]", "box"), ("(", ")", "round"), ("{", "}", "decision"), (">", "]", "box"),
)  # fmt: skip
"""Each shape's opening and closing marks (longest first) and how it is drawn."""
_CLASS = re.compile(r":::[\w-]+")
_LINK = re.compile(r"(<|o(?=[-=.])|x(?=[-=.]))?(-{2,}|={2,}|-\.+-|~{3,})(>|o\b|x\b)?")
_TEXT_OPENS = re.compile(r"(<)?(--|==|-\.)[ \t]*(?=[^\s\->=.|])")
"""Where a link written round its text starts (`-- yes -->`), the text next."""
_TEXT_CLOSES = re.compile(r"[ \t]*(-{2,}|={2,}|\.+-)(>)?(?=[\s\w\"'\[(])")
_PIPE_TEXT = re.compile(r"[ \t]*\|([^|\n]*)\|")
_QUOTED = re.compile(r'[ \t]*"([^"]*)"[ \t]*')


@dataclass(slots=True)
class _Node:
    lines: list[str]
    shape: str
    kind: str = "node"
    """`node` (a box), `point` (where a link passes a layer) or `text` (a link's text)."""
    dotted: bool = False
    """A point's or a text's link is dotted."""
    layer: int = 0
    across: int = 0
    """Where it starts across the flow (column down, row right)."""
    size: tuple[int, int] = (0, 0)
    """Its extent (along the flow, across it)."""


@dataclass(frozen=True, slots=True)
class _Arrow:
    """How a link is written: its text, its arrowheads, its line."""

    text: str
    head: bool
    """An arrowhead at its end."""
    tail: bool
    """An arrowhead at its start (`<-->`)."""
    dotted: bool
    hidden: bool
    """Laid out, not drawn (`~~~`)."""


@dataclass(frozen=True, slots=True)
class _Link:
    start: str
    end: str
    arrow: _Arrow


@dataclass(slots=True)
class _Chart:
    flow: str = "down"
    nodes: dict[str, _Node] = field(default_factory=dict)
    links: list[_Link] = field(default_factory=list)
    groups: list[tuple[str, list[str]]] = field(default_factory=list)
    loops: list[_Link] = field(default_factory=list)
    """Links from a node to itself (a Markov chain's `S1 -->|0.9| S1`)."""


def flowchart(source: str) -> Drawing | None:
    """The flowchart written in `source` drawn as text (see the module doc); None when it
    is not one this module draws whole."""
    if len(source) > MOST_SOURCE:
        return None
    try:
        chart = _read(source)
        return _draw(chart)
    except NotDrawn:
        return None


# --- reading ---------------------------------------------------------------------------


def _read(source: str) -> _Chart:
    lines = statements(source)
    if not lines:
        raise NotDrawn
    head = _HEAD.match(lines[0])
    if head is None:
        raise NotDrawn
    chart = _Chart(flow=FLOW[(head.group(1) or "TD").upper()])
    open_groups: list[list[str]] = []
    grouped: set[str] = set()
    for statement in lines[1:]:
        if statement == "end":
            if not open_groups:
                raise NotDrawn
            open_groups.pop()
        elif subgraph := _SUBGRAPH.match(statement):
            chart.groups.append((_group_title(subgraph.group(1)), []))
            open_groups.append(chart.groups[-1][1])
        elif _SKIPPED.match(statement):
            continue
        else:
            named = _chain(statement, chart)
            for members in open_groups[-1:]:  # a node is listed in the first group naming it
                members.extend(name for name in dict.fromkeys(named) if name not in grouped)
                grouped.update(named)
        if len(chart.nodes) > MOST_NODES:
            raise NotDrawn
    if open_groups:
        raise NotDrawn
    if not chart.nodes:
        raise NotDrawn
    return chart


def _group_title(text: str) -> str:
    text = text.strip()
    if match := re.fullmatch(r"[^\s\[]+\s*\[(.*)\]", text):
        text = match.group(1)
    return " ".join(text_lines(text))


def _chain(statement: str, chart: _Chart) -> list[str]:
    """Read `A --> B & C -->|x| D`: the nodes it names (declaring them), its links."""
    at, named = 0, []
    groups: list[list[str]] = []
    pending: _Arrow | None = None
    while True:
        group, at = _group(statement, at, chart)
        named.extend(group)
        if pending is not None:
            for start in groups[-1]:
                for end in group:
                    link = _Link(start, end, pending)
                    (chart.loops if start == end else chart.links).append(link)
                    if len(chart.links) + len(chart.loops) > MOST_LINKS:
                        raise NotDrawn
        groups.append(group)
        at = _space(statement, at)
        if at == len(statement):
            return named
        pending, at = _link(statement, at)


def _space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t":
        at += 1
    return at


def _group(statement: str, at: int, chart: _Chart) -> tuple[list[str], int]:
    names = []
    while True:
        name, at = _node(statement, _space(statement, at), chart)
        names.append(name)
        after = _space(statement, at)
        if after < len(statement) and statement[after] == "&":
            at = after + 1
            continue
        return names, at


def _node(statement: str, at: int, chart: _Chart) -> tuple[str, int]:
    match = _ID.match(statement, at)
    if match is None:
        raise NotDrawn
    name, at = match.group(), match.end()
    if name in {"end", "subgraph", "graph", "flowchart"}:
        raise NotDrawn
    label, shape = None, "box"
    for opening, closing, drawn in _SHAPES:
        if statement.startswith(opening, at):
            try:
                label, at = _shape_text(statement, at + len(opening), closing)
            except NotDrawn:
                continue  # `[/text]`: not this shape, maybe a plainer one
            shape = drawn
            break
    if found := _CLASS.match(statement, at):
        at = found.end()
    node = chart.nodes.get(name)
    if node is None:
        chart.nodes[name] = _Node(text_lines(label) if label is not None else [name], shape)
    elif label is not None:
        node.lines, node.shape = text_lines(label), shape
    return name, at


def _shape_text(statement: str, at: int, closing: str) -> tuple[str, int]:
    """A node's text from `at` to its shape's `closing` mark (in quotes, any text), and
    where the shape ends."""
    if quoted := _QUOTED.match(statement, at):
        if statement.startswith(closing, quoted.end()):
            return quoted.group(1), quoted.end() + len(closing)
        raise NotDrawn
    end = statement.find(closing, at)
    if end < 0:
        raise NotDrawn
    return statement[at:end], end + len(closing)


def _link(statement: str, at: int) -> tuple[_Arrow, int]:
    """How the link at `at` is written, and where it ends."""
    if opens := _TEXT_OPENS.match(statement, at):
        closes = _TEXT_CLOSES.search(statement, opens.end() + 1, opens.end() + MOST_TEXT)
        if closes is None:
            raise NotDrawn
        opening, closing = opens.group(2), closes.group(1)
        if opening[0] != closing[0] and not (opening == "-." and closing.startswith(".")):
            raise NotDrawn
        text = statement[opens.end() : closes.start()]
        head, tail = bool(closes.group(2)), bool(opens.group(1))
        return _Arrow(text, head, tail, opening == "-.", False), closes.end()
    linked = _LINK.match(statement, at)
    if linked is None:
        raise NotDrawn
    body, end = linked.group(2), linked.end()
    text = ""
    if piped := _PIPE_TEXT.match(statement, end):
        text, end = piped.group(1), piped.end()
    head = linked.group(3) is not None
    tail = linked.group(1) is not None
    return _Arrow(text, head, tail, "." in body, body.startswith("~")), end


# --- layout ----------------------------------------------------------------------------


def _layers(chart: _Chart) -> dict[str, int]:
    """Each node's layer: the longest path to it, links that close a cycle turned, a
    link with a text two layers long (its text stands on the layer between)."""
    names = list(chart.nodes)
    out: dict[str, list[str]] = {name: [] for name in names}
    for link in chart.links:
        out[link.start].append(link.end)
    state: dict[str, int] = {}
    turned: set[tuple[str, str]] = set()
    for root in names:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(out[root]))]
        while stack:
            name, ends = stack[-1]
            for end in ends:
                if state.get(end) == 1:
                    turned.add((name, end))
                elif end not in state:
                    state[end] = 1
                    stack.append((end, iter(out[end])))
                    break
            else:
                state[name] = 2
                stack.pop()
    before: dict[str, dict[str, int]] = {name: {} for name in names}
    for link in chart.links:
        start, end = link.start, link.end
        if (start, end) in turned:
            start, end = end, start
        length = 2 if _shown_text(link) else 1
        before[end][start] = max(before[end].get(start, 0), length)
    layer: dict[str, int] = {}
    for name in names:
        stack = [name]
        while stack:
            top = stack[-1]
            if top in layer:
                stack.pop()
                continue
            waiting = [p for p in before[top] if p not in layer]
            if waiting:
                stack.extend(waiting)
                continue
            stack.pop()
            layer[top] = max((layer[p] + n for p, n in before[top].items()), default=0)
    return layer


def _shown_text(link: _Link) -> str:
    return "" if link.arrow.hidden else " ".join(text_lines(link.arrow.text)).strip()


@dataclass(slots=True)
class _Segment:
    """One layer's step of a link: from the node above (`upper`) to the one below."""

    upper: str
    lower: str
    link: _Link
    arrow_down: bool
    """An arrowhead at `lower` (drawn pointing with the flow)."""
    arrow_up: bool


def _draw(chart: _Chart) -> Drawing:
    layer_of = _layers(chart)
    if chart.flow in ("up", "left"):
        top = max(layer_of.values())
        layer_of = {name: top - layer for name, layer in layer_of.items()}
    nodes = chart.nodes
    for name, layer in layer_of.items():
        nodes[name].layer = layer
    segments = _segments(chart, nodes)
    layers = _order(nodes, segments)
    down = chart.flow in ("down", "up")
    for node in nodes.values():
        width = max(cells(line) for line in node.lines) + (2 if node.kind == "text" else 4)
        height = 1 if node.kind == "text" else len(node.lines) + 2
        if node.kind == "point":
            width = height = 1
        node.size = (height, width) if down else (width, height)
    _place_across(layers, nodes, APART["down" if down else "right"])
    return _Canvas(chart, nodes, layers, segments, down).drawn()


def _segments(chart: _Chart, nodes: dict[str, _Node]) -> list[_Segment]:
    """Every link as steps between neighbouring layers: through its text, on the layer
    after its upper end, and a point on each other layer it passes."""
    segments: list[_Segment] = []
    for number, link in enumerate(chart.links):
        start, end = nodes[link.start], nodes[link.end]
        forward = start.layer < end.layer
        upper, lower = (link.start, link.end) if forward else (link.end, link.start)
        arrow_down = link.arrow.head if forward else link.arrow.tail
        arrow_up = link.arrow.tail if forward else link.arrow.head
        path = [upper]
        text = _shown_text(link)
        if len(nodes) + nodes[lower].layer - nodes[upper].layer > MOST_POINTS:
            raise NotDrawn
        for layer in range(nodes[upper].layer + 1, nodes[lower].layer):
            name = f"\0{number}:{layer}"
            kind = "text" if text and layer == nodes[upper].layer + 1 else "point"
            lines = [text] if kind == "text" else [""]
            nodes[name] = _Node(lines, "box", kind=kind, dotted=link.arrow.dotted, layer=layer)
            path.append(name)
        path.append(lower)
        for step, (a, b) in enumerate(itertools.pairwise(path)):
            first, last = step == 0, step == len(path) - 2
            segments.append(_Segment(a, b, link, arrow_down and last, arrow_up and first))
    return segments


def _order(nodes: dict[str, _Node], segments: list[_Segment]) -> list[list[str]]:
    count = max(node.layer for node in nodes.values()) + 1
    layers: list[list[str]] = [[] for _ in range(count)]
    for name, node in nodes.items():
        layers[node.layer].append(name)
    above: dict[str, list[str]] = {name: [] for name in nodes}
    below: dict[str, list[str]] = {name: [] for name in nodes}
    for segment in segments:
        above[segment.lower].append(segment.upper)
        below[segment.upper].append(segment.lower)
    for _ in range(SWEEPS):
        for number in range(1, count):
            _by_barycentre(layers[number], layers[number - 1], above)
        for number in range(count - 2, -1, -1):
            _by_barycentre(layers[number], layers[number + 1], below)
    return layers


def _by_barycentre(layer: list[str], beside: list[str], neighbours: dict[str, list[str]]) -> None:
    where = {name: at for at, name in enumerate(beside)}
    current = {name: at for at, name in enumerate(layer)}

    def key(name: str) -> float:
        seen = [where[other] for other in neighbours[name] if other in where]
        return sum(seen) / len(seen) if seen else current[name]

    layer.sort(key=key)


def _place_across(layers: list[list[str]], nodes: dict[str, _Node], apart: int) -> None:
    """Each layer's nodes side by side, `apart` cells between them, every layer centred
    on one line."""
    spans = [
        sum(nodes[name].size[1] for name in layer) + apart * (len(layer) - 1) for layer in layers
    ]
    middle = max(spans) // 2
    for layer, span in zip(layers, spans, strict=True):
        at = middle - span // 2
        if len(layer) == 1:  # its middle on the line, as `_middle` finds it
            at = middle - (nodes[layer[0]].size[1] - 1) // 2
        for name in layer:
            nodes[name].across = at
            at += nodes[name].size[1] + apart
    least = min(node.across for node in nodes.values())
    for node in nodes.values():
        node.across -= least


def _middle(node: _Node) -> int:
    return node.across + (node.size[1] - 1) // 2


# --- drawing ---------------------------------------------------------------------------


class _Canvas:
    """The drawing, built in flow coordinates (`along`, `across`) and written out as
    rows and columns for the flow's direction."""

    def __init__(
        self,
        chart: _Chart,
        nodes: dict[str, _Node],
        layers: list[list[str]],
        segments: list[_Segment],
        down: bool,
    ) -> None:
        self.down = down
        self.cells = Cells()
        self.starts: list[int] = []
        """Where each layer starts along the flow."""
        self.joints: list[tuple[_Node, int, int, bool]] = []
        """Where lines meet boxes: the node, its side (along), the way out of it along
        the flow (1, -1), whether an arrowhead is there."""
        self.chart, self.nodes, self.layers = chart, nodes, layers
        self.steps: list[list[_Segment]] = [[] for _ in layers]
        """The links drawn from each layer to the next."""
        for segment in segments:
            if not segment.link.arrow.hidden:
                self.steps[nodes[segment.upper].layer].append(segment)

    def drawn(self) -> Drawing:
        across = max(node.across + node.size[1] for node in self.nodes.values())
        bands = [max(self.nodes[name].size[0] for name in layer) for layer in self.layers]
        if across * (sum(bands) + 2 * len(bands)) > MOST_CELLS:
            raise NotDrawn  # too large a drawing to read, before it is drawn
        along = 0
        for number, (layer, band) in enumerate(zip(self.layers, bands, strict=True)):
            self.starts.append(along)
            for name in layer:
                self._node(self.nodes[name], along, band)
            along += band
            if number < len(self.layers) - 1:
                along = self._gap(number, along)
        self._join()
        notes = []
        for title, members in self.chart.groups:
            names = ", ".join(" ".join(self.nodes[m].lines) for m in members)
            notes.append(f"▢ {title}: {names}" if title else f"▢ {names}")
        for loop in self.chart.loops:
            if not loop.arrow.hidden:
                name, text = " ".join(self.nodes[loop.start].lines), loop.arrow.text
                notes.append(f"↻ {name} — {text}" if text else f"↻ {name}")
        return self.cells.drawing(MOST_CELLS, tuple(notes))

    def _xy(self, along: int, across: int) -> tuple[int, int]:
        return (across, along) if self.down else (along, across)

    def _way(self, step_along: int, step_across: int) -> int:
        """The way a step along the flow and across it goes on the screen."""
        return way_of(*self._xy(step_along, step_across))

    def _line(self, points: list[tuple[int, int]], dotted: bool) -> None:
        """A line through `points` (along, across), each leg straight."""
        self.cells.line([self._xy(*point) for point in points], dotted)

    def _node(self, node: _Node, along: int, band: int) -> None:
        """Draw `node` at the start of its layer (`along`, `band` cells long): a box, its
        text; a point or a text as the line through it, the whole layer long."""
        if node.kind != "node":
            self._line([(along, _middle(node)), (along + band - 1, _middle(node))], node.dotted)
            if node.kind == "text":  # a cell of line before it, either way
                at = (along, node.across + 1) if self.down else (along + 1, _middle(node))
                self.cells.text(*self._xy(*at), node.lines[0])
            return
        length, breadth = node.size
        size = (breadth, length) if self.down else (length, breadth)
        self.cells.box(*self._xy(along, node.across), size, _CORNERS[node.shape], node.lines)

    def _far_side(self, node: _Node) -> int:
        """The last cell of `node` along the flow (its layer's start, its length on)."""
        return self.starts[node.layer] + node.size[0] - 1

    def _gap(self, number: int, along: int) -> int:
        """Draw the links between layer `number` (ending before `along`) and the next; the
        next layer's start."""
        nodes = self.nodes
        steps = self.steps[number]
        turning = {s.upper for s in steps if _middle(nodes[s.upper]) != _middle(nodes[s.lower])}
        lanes = _lanes(turning, steps, nodes)
        start = along
        end = start + 1 + (max(lanes.values(), default=-1) + 1)  # the last cell of the gap
        for s in steps:
            upper, lower = nodes[s.upper], nodes[s.lower]
            points = [(self._far_side(upper), _middle(upper))]
            if s.upper in lanes:
                lane = start + 1 + lanes[s.upper]
                points += [(lane, _middle(upper)), (lane, _middle(lower))]
            points.append((end + 1, _middle(lower)))
            self._line(points, s.link.arrow.dotted)
        for s in steps:
            upper, lower = nodes[s.upper], nodes[s.lower]
            if s.arrow_down:
                self.cells.put(*self._xy(end, _middle(lower)), ARROWS[self._way(1, 0)])
            if s.arrow_up:
                at = self._xy(self._far_side(upper) + 1, _middle(upper))
                self.cells.put(*at, ARROWS[self._way(-1, 0)])
        for s in steps:
            self.joints.append((nodes[s.upper], self._far_side(nodes[s.upper]), 1, s.arrow_up))
            self.joints.append((nodes[s.lower], end + 1, -1, s.arrow_down))
        return end + 1

    def _join(self) -> None:
        """A box's border where a line leaves or reaches it with no arrowhead: joined to
        the line (`┬`, `├`); where an arrowhead reaches it, it stays whole."""
        for node, at, out, arrow in self.joints:
            xy = self._xy(at, _middle(node))
            beside = self._xy(at + out, _middle(node))
            chars = self.cells.chars
            if node.kind != "node" or arrow or chars.get(beside) in ARROWS.values():
                continue
            if chars.get(xy) in ("─", "│"):
                chars[xy] = _border_joint(chars[xy], self._way(out, 0))


def _border_joint(border: str, way: int) -> str:
    """A box's border cell where a line leaves it (`way`: the line's way, out of it)."""
    if border == "─":
        return "┬" if way == DOWN else "┴"
    return "├" if way == RIGHT else "┤"


def _lanes(turning: set[str], steps: list[_Segment], nodes: dict[str, _Node]) -> dict[str, int]:
    """A lane for each node whose links turn, nodes whose turns do not overlap
    sharing one."""
    spans: dict[str, tuple[int, int]] = {}
    for s in steps:
        if s.upper not in turning:
            continue
        ends = (_middle(nodes[s.upper]), _middle(nodes[s.lower]))
        low, high = spans.get(s.upper, (min(ends), max(ends)))
        spans[s.upper] = (min(low, *ends), max(high, *ends))
    lanes: dict[str, int] = {}
    taken: list[list[tuple[int, int]]] = []
    for name in sorted(spans, key=lambda n: spans[n]):
        low, high = spans[name]
        for number, used in enumerate(taken):
            if all(high + 1 < a or low - 1 > b for a, b in used):
                used.append((low, high))
                lanes[name] = number
                break
        else:
            taken.append([(low, high)])
            lanes[name] = len(taken) - 1
    return lanes
