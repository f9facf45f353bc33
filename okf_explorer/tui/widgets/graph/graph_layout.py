"""The local graph's layout (`g`): the slice as columns by hop, the root once in the
middle, links drawn between neighbouring columns in box-drawing lines.

Columns: the root is column 0; a page the walk reached along links sits `hop` columns
to its right, one reached against them (it links in) `hop` columns to its left, so in
`both` and `neighbourhood` both sides fill. A page's column is one step further out
than the page it was first reached from, so every first-reach edge joins neighbouring
columns. Links run from the linking page to the linked one: along the slice's edges
they point right (`►`, the linked page's side), and a link back towards the root
(a page that links to the page it was reached from) points left (`◄`).

Each column holds at most as many pages as the panel has rows (the last row then says
`+N more`), and the drawing at most `NODE_CAP` pages, the nearest columns first and in
each the pages the walk reached first. A page further out is drawn only beside a drawn
page it is linked with, so nothing floats unattached. Within a column, pages are
ordered by where their neighbours sit in the column nearer the root (the barycentre
step of a Sugiyama layout), which keeps lines from crossing where it can.

Between two columns each link leaves its page on its row, runs down or up a lane, and
reaches the other page on that page's row; one lane per page of the side with fewer
pages, so a page's links out fan from one bracket (`─┬─►`) and links into one page
gather into one (`─┴─►`). Cells where lines meet take the glyph of every way they go
(`├`, `┼`), which is why the screen highlights the selected page's own lines
(`GraphLayout.link_cells`). Links between pages of the same column, or columns apart,
are not drawn: they are counted (`undrawn`) and the screen lists a page's own.

`colour_of(slug)` (optional) names a colour per page: the graph panel passes the
pages' communities (`tui.state.communities`). Pure functions over edges and names: no Textual here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rich.cells import cell_len

from okf_explorer.core.diagrams.canvas import DOWN, GLYPHS, LEFT, RIGHT, UP
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.pages import title_says_more
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.cells import EMOJI_SELECTOR, ZERO_WIDTH_JOINER
from okf_explorer.tui.state.slice import (
    SharedStart,
    fallback_name,
    names_the_page,
    shared_starts,
    shorten_left,
    shorten_right,
)

NODE_CAP = 40
"""Pages drawn at most (the root included)."""
MISSING_MARK = "✗ "
FEW = 3
"""Pages each column further out keeps for itself before nearer ones take the rest."""
MIN_COLUMN = 12
"""Cells a column gets at least (its label, a lead cell and a trailing cell); a drawing
wider than the panel scrolls sideways."""
ROOT_ROOM = 32
"""Cells the root's column may take before the others share the room (less when its name
alone is shorter: its whole slug is in the panel's title)."""
MAX_LANES = 4
"""Vertical lanes between two columns at most; more pages share them."""
ARROW_RIGHT, ARROW_LEFT = "►", "◄"
EMOJI_STYLE = chr(EMOJI_SELECTOR)
"""Variation selector 16: terminals disagree on the width it gives (see `page_label`)."""

Titles = Callable[[str], str | None]
ColourOf = Callable[[str], str | None]


@dataclass(frozen=True, slots=True)
class Node:
    """A drawn page: its `column` (0 the root, <0 links in, >0 links out), its place on
    the canvas (`row`, and `x` its column's first cell: the label starts one further),
    and the `label` drawn."""

    slug: str
    column: int
    row: int
    x: int
    label: str
    exists: bool = True
    root: bool = False
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class GraphLayout:
    """The canvas (`lines`, each `width` cells) and what is drawn on it."""

    rows: tuple[tuple[str, ...], ...]
    """The canvas, one string a cell (a wide character's second cell is empty)."""
    nodes: tuple[Node, ...]
    """Column by column, left to right; top to bottom in each."""
    links: frozenset[tuple[str, str]]
    """The links drawn, (linking page, linked page)."""
    link_cells: Mapping[str, frozenset[tuple[int, int]]]
    """Per drawn page, the (x, y) cells of its drawn links (for the highlight)."""
    undrawn: Mapping[str, tuple[tuple[str, str], ...]]
    """Per drawn page, its links to other drawn pages that are not drawn (same column,
    or columns apart)."""
    more: Mapping[int, int]
    """Per column, the slice's pages not drawn there."""
    more_at: Mapping[int, tuple[int, int, str]]
    """Per column with pages left out, where its `+N more` line is: (x, y, text)."""
    width: int
    height: int

    @property
    def lines(self) -> tuple[str, ...]:
        """The canvas as text, a line a row."""
        return tuple("".join(row) for row in self.rows)

    @property
    def more_pages(self) -> int:
        return sum(self.more.values())

    @property
    def undrawn_links(self) -> int:
        return sum(len(links) for links in self.undrawn.values()) // 2

    def node(self, slug: str) -> Node | None:
        return next((node for node in self.nodes if node.slug == slug), None)


def slice_links(
    root: str, edges: Sequence[Edge]
) -> tuple[dict[str, int], dict[tuple[str, str], None]]:
    """Each page's column (in the order the walk reached them) and the slice's links
    (linking page, linked page), in edge order. An `in` edge (frm, to) is the link
    to → frm (SPEC §5: the record follows the walk)."""
    column: dict[str, int] = {root: 0}
    links: dict[tuple[str, str], None] = {}
    for frm, to, hop, direction in edges:
        along = direction != "in"
        links[(frm, to) if along else (to, frm)] = None
        if to not in column:
            at = column.get(frm, 0)
            side = (1 if along else -1) if at == 0 else (1 if at > 0 else -1)
            column[to] = side * hop
    return column, links


def lay_out(
    root: str,
    edges: Sequence[Edge],
    exists: Callable[[str], bool],
    *,
    width: int,
    height: int,
    title: Titles | None = None,
    colour_of: ColourOf | None = None,
    cap: int = NODE_CAP,
) -> GraphLayout:
    """The slice walked from `root` laid out for a panel of `width` × `height` cells
    (blocking but quick: the first pages only; call it in a worker for a big slice)."""
    column, links = slice_links(root, edges)
    neighbours: dict[str, set[str]] = {}
    for source, target in links:
        if source != target:
            neighbours.setdefault(source, set()).add(target)
            neighbours.setdefault(target, set()).add(source)
    kept, more = _keep(root, column, neighbours, max(2, height), max(1, cap))
    _order(kept, neighbours)
    return _draw(root, kept, more, column, links, exists, width, max(1, height), title, colour_of)


def _keep(
    root: str,
    column: dict[str, int],
    neighbours: dict[str, set[str]],
    rows: int,
    cap: int,
) -> tuple[dict[int, list[str]], dict[int, int]]:
    """The pages drawn per column (nearest columns first, each in walk order) and how
    many of each column are left out. A column of more pages than `rows` keeps
    `rows - 1` and a line for the rest."""
    by_column: dict[int, list[str]] = {}
    for slug, at in column.items():
        by_column.setdefault(at, []).append(slug)
    kept: dict[int, list[str]] = {0: [root]}
    drawn = {root}
    more: dict[int, int] = {}
    order = sorted((c for c in by_column if c != 0), key=lambda c: (abs(c), c < 0))
    for n, at in enumerate(order):
        nearer = at - 1 if at > 0 else at + 1
        if nearer not in kept:
            more[at] = len(by_column[at])
            continue
        near = set(kept[nearer])
        pages = by_column[at]
        room = rows if len(pages) <= rows else rows - 1
        # every column further out keeps a few of the pages (at most FEW) for itself
        reserved = sum(min(FEW, len(by_column[later])) for later in order[n + 1 :])
        room = min(room, max(1, cap - len(drawn) - reserved))
        shown: list[str] = []
        for slug in pages:
            if len(shown) >= room or len(drawn) >= cap:
                break
            if neighbours.get(slug, set()) & near:
                shown.append(slug)
                drawn.add(slug)
        if shown or len(pages) > 0:
            kept[at] = shown
        if len(pages) > len(shown):
            more[at] = len(pages) - len(shown)
    return kept, more


def _order(kept: dict[int, list[str]], neighbours: dict[str, set[str]]) -> None:
    """Order each column past the first by the mean place of its neighbours in the
    column nearer the root (ties keep the walk's order)."""
    for at in sorted(kept, key=abs):
        if abs(at) < 2:
            continue
        nearer = kept.get(at - 1 if at > 0 else at + 1, [])
        place = {slug: i for i, slug in enumerate(nearer)}

        def centre(slug: str, place: dict[str, int] = place) -> float:
            found = [place[n] for n in neighbours.get(slug, ()) if n in place]
            return sum(found) / len(found) if found else len(place)

        kept[at] = sorted(kept[at], key=centre)  # stable: the walk's order breaks ties


def page_label(
    slug: str,
    exists: bool,
    title: str | None,
    room: int,
    shared: Mapping[str, SharedStart] | None = None,
) -> str:
    """The page's name in `room` cells: its slug when it fits, else its title (one that
    says more than the file name) when that fits, else the slug cut from the left when
    its file name stays whole (`…/orders`; not a folder's note alone, `…/index`), else the
    title (or the file name) cut at its end, so that a long name reads from its start
    (`Operazioni tra successioni…`), leaving out a start it `shared` with the names in
    its column (`shared_starts` of their `fallback_label`). The emoji selector goes
    (U+1F5C2 U+FE0F is drawn one cell wide by tmux, counted two by Rich), and so do
    zero-width joiners: Rich counts the character after one as no cell, so a cut that
    left one before `…`, or at the label's end before a line, drew the row a cell short
    (and a name holding one ran past the canvas's end)."""
    mark = "" if exists else MISSING_MARK
    room = max(1, room - len(mark))
    name = _drawable(slug)
    if cell_len(name) <= room:
        return mark + name
    if title is None or not title_says_more(slug, title):
        title = ""
    title = _drawable(title)
    if title and cell_len(title) <= room:
        return mark + title
    file_name = name.rsplit("/", 1)[-1]
    cut = shorten_left(name, room)
    if cell_len(file_name) + 2 <= room and names_the_page(file_name, cut, title):  # `…/orders`
        return mark + _cut(cut, room, at_end=False)
    fallback = title or file_name  # `fallback_label`
    start = (shared or {}).get(fallback)
    return mark + _cut(shorten_right(fallback, room, start), room, at_end=True)


def fallback_label(slug: str, title: str | None) -> str:
    """What `page_label` cuts at its end: `slice.fallback_name`, as a label draws it
    (`_drawable`)."""
    return _drawable(fallback_name(slug, title))


def _drawable(name: str) -> str:
    """`name` as a label draws it: shown as `printable` shows it, without the emoji
    selector and zero-width joiners."""
    return printable(name).replace(EMOJI_STYLE, "").replace(ZERO_WIDTH_JOINER, "")


def _cut(text: str, room: int, *, at_end: bool) -> str:
    """`text` cut to `room` cells (wide characters count two)."""
    while cell_len(text) > room and len(text) > 1:
        text = text[:-2] + "…" if at_end else "…" + text[2:]
    return text


def _put(row: list[str], x: int, text: str) -> None:
    """Write `text` into canvas `row` from cell `x`, one slot a cell: a wide character
    leaves its second slot empty, a zero-width one joins the character before it."""
    for char in text:
        size = cell_len(char)
        if size == 0 and x > 0:
            row[x - 1] += char
            continue
        row[x] = char
        if size == 2:
            row[x + 1] = ""
        x += max(1, size)


def _draw(
    root: str,
    kept: dict[int, list[str]],
    more: dict[int, int],
    column: dict[str, int],
    links: dict[tuple[str, str], None],
    exists: Callable[[str], bool],
    width: int,
    height: int,
    title: Titles | None,
    colour_of: ColourOf | None,
) -> GraphLayout:
    columns = list(range(min(kept), max(kept) + 1))
    drawn = {slug for pages in kept.values() for slug in pages}
    # the links to draw, per channel (between column c and c + 1)
    channel: dict[int, list[tuple[str, str]]] = {c: [] for c in columns[:-1]}
    undrawn: dict[str, list[tuple[str, str]]] = {}
    shown_links: set[tuple[str, str]] = set()
    for source, target in links:
        if source not in drawn or target not in drawn or source == target:
            continue
        a, b = column[source], column[target]
        if abs(a - b) == 1:
            channel[min(a, b)].append((source, target))
            shown_links.add((source, target))
        else:
            undrawn.setdefault(source, []).append((source, target))
            undrawn.setdefault(target, []).append((source, target))
    lanes = {c: _lanes(pairs, column, c, kept) for c, pairs in channel.items()}
    lane_count = {c: min(MAX_LANES, len(set(owners.values()))) for c, owners in lanes.items()}
    gaps = {c: lane_count[c] + 2 for c in channel}
    # rows: every column centred on the canvas's middle; spaced out when there is room
    tallest = max(len(kept.get(c, ())) + (1 if c in more else 0) for c in columns)
    step = 2 if 2 * tallest - 1 <= height else 1
    canvas_height = (tallest - 1) * step + 1
    row_of: dict[str, int] = {}
    more_rows: dict[int, int] = {}
    for c in columns:
        count = len(kept[c]) + (1 if c in more else 0)
        top = (canvas_height - ((count - 1) * step + 1)) // 2
        for i, slug in enumerate(kept[c]):
            row_of[slug] = top + i * step
        if c in more:
            more_rows[c] = top + len(kept[c]) * step
    # widths: each column as wide as its names need, when the room allows; else the
    # narrow ones keep theirs and the others share the rest (at least MIN_COLUMN)
    titles = title or (lambda slug: None)
    names = {slug: (exists(slug), titles(slug)) for slug in drawn}
    more_labels = {c: f"+{count} more" for c, count in more.items()}

    starts = {c: shared_starts(fallback_label(s, names[s][1]) for s in kept[c]) for c in columns}

    def need(c: int, room: int) -> int:
        found = [cell_len(page_label(s, *names[s], room, starts[c])) for s in kept[c]]
        return 2 + max([1, *found, len(more_labels.get(c, ""))])

    free = width - sum(gaps.values())  # the room the columns share
    wanted = {c: need(c, free - 2) for c in columns}
    # the root's whole slug is in the panel's title: squeezed, its name alone will do
    root_name = 2 + cell_len(fallback_label(root, names[root][1]))
    rooms = _share(wanted, free, min(ROOT_ROOM, root_name))
    rooms = _spare_to_cut(wanted, need, rooms, free)
    labels = {
        slug: page_label(slug, *names[slug], rooms[c] - 2, starts[c])
        for c in columns
        for slug in kept[c]
    }
    widths = {c: need(c, rooms[c] - 2) for c in columns}
    x_of: dict[int, int] = {}
    x = 0
    for c in columns:
        x_of[c] = x
        x += widths[c] + gaps.get(c, 0)
    canvas_width = x
    grid = [[" "] * canvas_width for _ in range(canvas_height)]
    ways = [[0] * canvas_width for _ in range(canvas_height)]
    cells: dict[str, set[tuple[int, int]]] = {slug: set() for slug in drawn}
    arrows: dict[tuple[int, int], str] = {}
    for c, pairs in channel.items():
        x0 = x_of[c] + widths[c]
        owner_lane = _lane_numbers(lanes[c], row_of, lane_count[c])
        for source, target in pairs:
            left, right = (source, target) if column[source] == c else (target, source)
            lane = x0 + 1 + owner_lane[lanes[c][(source, target)]]
            start = x_of[c] + 1 + cell_len(labels[left])  # the cell after the left label
            end = x_of[c + 1]  # the right page's lead cell
            path = _route(ways, start, row_of[left], lane, row_of[right], end)
            cells[source].update(path)
            cells[target].update(path)
            if left == target:
                arrows[(start, row_of[left])] = ARROW_LEFT
            else:
                arrows[(end, row_of[right])] = ARROW_RIGHT
    for y in range(canvas_height):
        for x in range(canvas_width):
            if ways[y][x]:
                grid[y][x] = GLYPHS[ways[y][x]]
    for (x, y), arrow in arrows.items():
        grid[y][x] = arrow
    nodes: list[Node] = []
    colours = colour_of or (lambda slug: None)
    for c in columns:
        for slug in kept[c]:
            y, x = row_of[slug], x_of[c]
            _put(grid[y], x + 1, labels[slug])
            nodes.append(
                Node(slug, c, y, x, labels[slug], exists(slug), slug == root, colours(slug))
            )
        if c in more:
            y, text = more_rows[c], more_labels[c]
            _put(grid[y], x_of[c] + 1, text)
    return GraphLayout(
        rows=tuple(tuple(row) for row in grid),
        nodes=tuple(nodes),
        links=frozenset(shown_links),
        link_cells={slug: frozenset(found) for slug, found in cells.items()},
        undrawn={slug: tuple(found) for slug, found in undrawn.items()},
        more=more,
        more_at={c: (x_of[c] + 1, more_rows[c], more_labels[c]) for c in more_rows},
        width=canvas_width,
        height=canvas_height,
    )


def _share(needs: dict[int, int], room: int, root_least: int) -> dict[int, int]:
    """Column widths: each its need when all fit; else the root's column (0) first, as
    wide as its name alone (`root_least`), then those under an equal share keep their
    need and the rest split what is left (never under `MIN_COLUMN`: a drawing wider than
    the panel scrolls). The cells left over go on to names cut (`_spare_to_cut`)."""
    widths = dict(needs)
    if sum(needs.values()) <= room:
        return widths
    open_columns = sorted((c for c in needs if c != 0), key=needs.__getitem__)
    widths[0] = min(needs[0], root_least)
    left = room - widths[0]
    while open_columns:
        share = left // len(open_columns)
        if needs[open_columns[0]] > share:
            break
        c = open_columns.pop(0)
        left -= needs[c]
    for c in open_columns:
        widths[c] = max(MIN_COLUMN, left // len(open_columns))
    return widths


def _spare_to_cut(
    wanted: dict[int, int], need: Callable[[int, int], int], rooms: dict[int, int], room: int
) -> dict[int, int]:
    """Column widths once the cells left by names shorter than their column's share
    (`…/Geology` in 17 cells) go to the columns whose names are cut (a drawing 10 cells
    short of a 100-cell panel cut `Personal Knowl…`): whole names first, the cheapest
    first; then what is left to a column it lengthens (one cut at its end). `need(c,
    cells)` is how wide column `c` is drawn with its names in `cells`."""
    widths = {c: need(c, rooms[c] - 2) for c in wanted}
    spare = room - sum(widths.values())
    for c in sorted(wanted, key=lambda c: wanted[c] - widths[c]):
        if 0 < wanted[c] - widths[c] <= spare:
            spare -= wanted[c] - widths[c]
            widths[c] = wanted[c]
    for c in wanted:
        if spare > 0 and widths[c] < wanted[c]:
            grown = need(c, widths[c] + spare - 2)
            spare -= max(0, grown - widths[c])
            widths[c] = max(widths[c], grown)
    return widths


def _lanes(
    pairs: list[tuple[str, str]], column: dict[str, int], c: int, kept: dict[int, list[str]]
) -> dict[tuple[str, str], str]:
    """Which page owns each link's lane: the page on the side with fewer pages linked
    across this channel (one bracket per page there)."""
    left = {s for pair in pairs for s in pair if column[s] == c}
    right = {s for pair in pairs for s in pair if column[s] == c + 1}
    by_left = len(left) <= len(right)
    return {pair: next(s for s in pair if (column[s] == c) == by_left) for pair in pairs}


def _lane_numbers(
    owners: dict[tuple[str, str], str], row_of: dict[str, int], count: int
) -> dict[str, int]:
    """Each owner's lane (0 nearest the left column), top owners first; owners share
    lanes when there are more than `count`."""
    ordered = sorted(set(owners.values()), key=lambda slug: row_of[slug])
    total = max(1, len(ordered))
    return {slug: i * count // total for i, slug in enumerate(ordered)}


def _route(
    ways: list[list[int]], start: int, y0: int, lane: int, y1: int, end: int
) -> list[tuple[int, int]]:
    """Mark a link's cells: along row `y0` from `start` to the `lane`, along the lane to
    row `y1`, then to `end`. Returns the cells."""
    path: list[tuple[int, int]] = []

    def mark(x: int, y: int, way: int) -> None:
        ways[y][x] |= way
        path.append((x, y))

    for x in range(start, lane):
        mark(x, y0, RIGHT | (LEFT if x > start else 0))
    step = 1 if y1 > y0 else -1
    if y0 == y1:
        mark(lane, y0, LEFT | RIGHT)
    else:
        mark(lane, y0, LEFT | (DOWN if step > 0 else UP))
        for y in range(y0 + step, y1, step):
            mark(lane, y, UP | DOWN)
        mark(lane, y1, RIGHT | (UP if step > 0 else DOWN))
    for x in range(lane + 1, end + 1):
        mark(x, y1, LEFT | (RIGHT if x < end else 0))
    return path
