"""A traversal slice as the explorer shows it: what its edges alone say, and how it
reads as table rows.

A slice is the edge list of one `traverse` call; the walk itself records how each
page was first reached, so the path from the root to any page in it can be read
back from the edges alone (a shortest path, since the walk is breadth-first): the
panel shows its size, its title and the walk to a row without asking the source.

Its rows: which come first, how wide each column is, and what each cell says (slugs
cut from the left so the file name stays, titles beside them, `from` shown once per
group). Pure functions over edges and titles, so the traversal panel, the backlinks
view, the link tree and the graph drawing fit names the same way, and a later column
(a glyph, say) is added in one place: `slice_row`.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter
from typing import NamedTuple

from rich.cells import cell_len
from rich.text import Text

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.pages import RESERVED_NAMES, title_says_more
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.cells import (
    ZERO_WIDTH_JOINER,
    RunCells,
    cells_before,
    counted_in_context,
)
from okf_explorer.tui.state.navigator import View


@dataclass(frozen=True, slots=True)
class SliceSummary:
    """Node and edge counts of a slice; the root counts as a page even when alone.

    `pages` counts only pages that exist: dangling targets are `missing`, so a
    57-page brain never reads "60 pages".
    """

    pages: int
    edges: int
    missing: int = 0

    def __str__(self) -> str:
        page_word = "page" if self.pages == 1 else "pages"
        edge_word = "edge" if self.edges == 1 else "edges"
        missing = f" · {self.missing} missing" if self.missing else ""
        return f"{self.pages} {page_word}{missing} · {self.edges} {edge_word}"


def summarise(
    root: str, edges: Sequence[Edge], exists: Callable[[str], bool] | None = None
) -> SliceSummary:
    """Count the slice's pages; targets for which `exists` is False count as missing."""
    nodes = {root}
    for edge in edges:
        nodes.add(edge.to)
    missing = 0 if exists is None else sum(1 for node in nodes if not exists(node))
    return SliceSummary(pages=len(nodes) - missing, edges=len(edges), missing=missing)


def path_to(root: str, edges: Sequence[Edge], row: int, undirected: bool = False) -> list[str]:
    """The walk from `root` to the `to` page of edge number `row`.

    Each page's parent is the `frm` of the first edge of the same direction
    that reached it (of any direction for an `undirected` walk), so the path
    has one page per hop.
    """
    target = edges[row]
    parent: dict[str, str] = {}
    for edge in edges:
        same_way = undirected or edge.direction == target.direction
        if same_way and edge.to not in parent and edge.to != root:
            parent[edge.to] = edge.frm
    path = [target.to]
    node = target.to
    while node != root and node in parent and len(path) <= len(edges) + 1:
        node = parent[node]
        path.append(node)
    if path[-1] != root:
        path.append(root)
    path.reverse()
    return path


def format_path(path: Sequence[str], direction: str) -> str:
    """`index → tables → tables/orders`; `in` walks read with `←` (who links to whom),
    `neighbourhood` ones with `—` (linked either way)."""
    arrow = {"in": " ← ", "neighbourhood": " — "}.get(direction, " → ")
    return arrow.join(path)


def empty_slice_hint(view: View, filtered: bool = False) -> str:
    """What an empty slice of `view` means, and the key to try (a table's or graph's
    second line): a lone root says nothing by itself."""
    root = printable(view.slug)
    if filtered:
        return f"no link of {root} passes the filter"
    if view.rel is not None:
        return f"no {printable(view.rel)} links of {root} this way · d: direction"
    if view.direction == "in":
        return f"no page links to {root} · d: direction"
    if view.direction == "out":
        return f"{root} links to no page · d: direction"
    return f"{root} has no links"


def path_line(view: View, edges: Sequence[Edge], row: int) -> str:
    """The walk from `view`'s root to edge `row`'s page, as the info line shows it."""
    undirected = view.direction == "neighbourhood"
    path = [printable(node) for node in path_to(view.slug, edges, row, undirected=undirected)]
    return format_path(path, view.direction if undirected else edges[row].direction)


def slice_title(view: View) -> str:
    """`ROOT · depth N · DIRECTION` (SPEC §8), the root's controls shown as escapes, then
    `· rel R` while a relation filter is on and `· implied` while implied inverse edges
    are walked too; `ROOT · backlinks` for `b`."""
    if view.backlinks:
        title = f"{printable(view.slug)} · backlinks"
    else:
        title = f"{printable(view.slug)} · depth {view.depth} · {view.direction}"
    if view.rel is not None:
        title = f"{title} · rel {printable(view.rel)}"
    return f"{title} · implied" if view.implied else title


# ------------------------------------------------------------------ as table rows

ELLIPSIS = "…"
HOP_WIDTH = 3
DIR_WIDTH = 3
FIXED_COLUMNS = HOP_WIDTH + DIR_WIDTH + 4 * 2
"""`hop` and `dir`, and one cell of padding on each side of all four columns (widths are
of a row beside the table's scroll bar: `RowTable.row_width`)."""
TITLE_GAP = 2
"""Spaces between a slug and its title in a cell."""
MIN_TITLE = 5
"""A title cut shorter than this is left out (the slug is what names the page)."""

Titles = Callable[[str], str | None]
"""`title(slug)` → the page's title, or None (unknown page, dangling target)."""


def shorten_left(name: str, width: int) -> str:
    """`name` cut from the left to `width` cells, whole path parts first:
    `01_literature/Engineering/AI` at 16 reads `…/Engineering/AI` (a Chinese or Japanese
    character takes two cells)."""
    if cell_len(name) <= width:
        return name
    if width <= 1:
        return ELLIPSIS[:width]
    parts = name.split("/")
    kept = parts[-1]
    for part in reversed(parts[:-1]):
        if cell_len(part) + 1 + cell_len(kept) + 2 > width:
            break
        kept = f"{part}/{kept}"
    if cell_len(kept) + 2 <= width:
        return f"{ELLIPSIS}/{kept}"
    return ELLIPSIS + _last_cells(name, width - 1)


def _last_cells(text: str, width: int) -> str:
    """The end of `text` that fits in `width` cells, not starting with a zero-width
    joiner (which would join the character after it to the `…` before)."""
    used, start, end, in_context = 0, len(text), len(text), counted_in_context(text)
    while start > 0 and used + (cells := cells_before(text, start - 1, end, in_context)) <= width:
        start -= 1
        used += cells
    return text[start:].lstrip(ZERO_WIDTH_JOINER)


def _first_cells(text: str, width: int) -> str:
    """The start of `text` that fits in `width` cells, as Rich counts them (so never
    ending in a zero-width joiner, whose next character adds no cell)."""
    used, end, run = 0, 0, RunCells()
    while end < len(text) and used + (cells := run.add(text[end])) <= width:
        used += cells
        end += 1
    return text[:end]


_COUNT = re.compile(r" [→←]\d+")
"""A link tree row's count after the slug (`→12`)."""
MIN_SLUG = 8
"""A tree row narrower than this for its slug is cut at its end instead."""


def fit_label(
    label: Text,
    slug: str,
    width: int,
    *,
    title: str | None = None,
    shared: Mapping[str, SharedStart] | None = None,
) -> Text:
    """A link tree row `label` (marks, `slug`, its count, then what it shows after them: a
    title, a relation, a mention's sentence) cut to `width` cells so its file name stays,
    as the traversal rows are: what follows the count goes first, then the slug is cut from
    the left (`…/Create a vault →3`); when not even the file name fits
    (`…ks-on-aws-481179d7` tells nothing), the page's `title` (the one the row shows, if
    any; else the file name) takes its place, cut at its end (`Manage data recipie… →0`,
    `Ad-hoc polymorphi… ←1`), as it does for a folder's note shown without its folder
    (`LangChain →80`, not `…/index →80`: `names_the_page`). Nothing else that follows
    the slug (a relation, a sentence) ever stands for the page. `shared`: the starts the
    names shown beside it share (`shared_starts`), left out of a name cut at its end where
    the cut would show nothing more (`shorten_right`); a mention's sentence then goes on
    in the cells that leaves (a Dendron changelog's `…1-x` stood alone in 24 cells)."""
    if label.cell_len <= width:
        return label
    plain = label.plain
    start = plain.find(slug)
    if start < 0:
        return _cut_at_end(label, width)
    end = start + len(slug)
    count = _COUNT.match(plain, end)
    after = count.end() if count else end
    head, tail = label[:start], label[end:after]
    room = width - head.cell_len - tail.cell_len
    if room < MIN_SLUG:
        return _cut_at_end(label, width)
    shown = shorten_left(slug, room)
    rest = label[after:]
    name = slug.rsplit("/", 1)[-1]
    if not names_the_page(name, shown, title):
        named = title or name  # the page's name, read from its start
        named = shorten_right(named, room, (shared or {}).get(named))
        fitted = head + Text(named, style=label[start:end].style) + tail
        if title is not None:  # what follows is that title, or a relation after it
            return fitted
    else:
        fitted = head + Text(shown, style=label[start:end].style) + tail
    if fitted.cell_len + rest.cell_len > width and fitted.cell_len + TITLE_GAP + MIN_TITLE < width:
        rest = rest.copy()
        rest.truncate(width - fitted.cell_len, overflow="ellipsis")
    elif fitted.cell_len + rest.cell_len > width:
        rest = Text()
    return fitted + rest


def _cut_at_end(label: Text, width: int) -> Text:
    """`label` cut to `width` cells at its end (`…`), by cells: cut by characters, a
    row of Chinese names ran past the pane's edge."""
    cut = label.copy()
    cut.truncate(max(0, width), overflow="ellipsis")
    return cut


FOLDER_NOTE_NAMES = frozenset({*RESERVED_NAMES, "readme", "_index"})
"""File names a folder's own page takes (OKF's `index` and `log`, GitHub's `README`,
Hugo's `_index`), compared ignoring case."""


def names_the_page(name: str, shown: str, title: str | None) -> bool:
    """Whether `shown` (the slug cut from the left) names the page: it holds the file
    `name` whole (a name is read from its start: `Recommended Exten…`, not
    `…mmended-extensions`), and is not a folder's note alone (`…/index`: a documentation
    wiki holds 1,540 of them) where a `title` can say which. Else the title, or the file
    name, cut at its end names it better."""
    if name not in shown:
        return False
    alone = shown == f"{ELLIPSIS}/{name}" and name.casefold() in FOLDER_NOTE_NAMES
    return not (title and alone)


def shorten_right(text: str, width: int, shared: SharedStart | None = None) -> str:
    """`text` cut at its end to `width` cells (`…` marks the cut). `shared`: the start it
    shares with the names shown beside it (`shared_starts`); when the cut would show no
    more than another name starts with too, that start is left out (`…Metacognitive K…`,
    `…Domain Complete…`, not `Frontier Explorat…` on every row)."""
    if cell_len(text) <= width:
        return text
    if shared is not None and leaves_start_out(text, width, shared):
        return ELLIPSIS + shorten_right(text[shared.word :], width - 1)
    return _first_cells(text, width - 1) + ELLIPSIS if width > 0 else ""


def leaves_start_out(text: str, width: int, shared: SharedStart) -> bool:
    """Whether `text`, cut at its end to `width` cells, leaves out the start it `shared`
    (`shorten_right`): its cut would show no more than another name starts with too."""
    return width > 2 and cell_len(text) > width and cell_len(text[: shared.common]) >= width - 1


class SharedStart(NamedTuple):
    """The start a name shares with another shown beside it (`shared_starts`)."""

    word: int
    """Its length up to the end of the last word shared whole: what can be left out."""
    common: int
    """How many first characters another name starts with too: a cut that shows no
    more looks the same as that name's."""


WORD_ENDS = frozenset(" -_–—:./,")
"""Characters after which a start shared by names ends (`shared_starts`)."""


def shared_starts(names: Iterable[str]) -> dict[str, SharedStart]:
    """The start each of `names` shares with another, for those that share a word or
    more (ending after a `WORD_ENDS` character): `Frontier Exploration - ` of `Frontier
    Exploration - Learning Resources` beside `Frontier Exploration - Knowledge Domains`,
    `2024-05-` of `2024-05-01 Standup` beside `2024-05-02 Standup`. A name is never all
    start: one that another name begins with whole (`Graph` beside `Graph Layout`)
    shares none."""
    ordered = sorted(set(names))
    shared: dict[str, SharedStart] = {}
    for at, name in enumerate(ordered):
        near = [ordered[n] for n in (at - 1, at + 1) if 0 <= n < len(ordered)]
        common = max((_common_length(name, other) for other in near), default=0)
        word = common
        while word > 0 and name[word - 1] not in WORD_ENDS:
            word -= 1
        if 0 < word < len(name):
            shared[name] = SharedStart(word, common)
    return shared


def _common_length(first: str, second: str) -> int:
    """How many first characters `first` and `second` have in common."""
    length = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        length += 1
    return length


def fallback_name(slug: str, title: str | None) -> str:
    """The name a page shows when its slug cannot name it (`page_cell`): its title when
    that says more than the file name, else the file name (controls as escapes)."""
    if title and title_says_more(slug, title):
        return printable(title)
    return printable(slug).rsplit("/", 1)[-1]


def page_cell(
    slug: str,
    title: str | None,
    width: int,
    *,
    beside: bool = True,
    shared: Mapping[str, SharedStart] | None = None,
) -> Text:
    """A page as a cell of `width`: its slug (cut from the left), then its title, dim
    (`beside` False: never beside it, the `from` column's way); when not even the file
    name fits (`…7a8b9c0d1e2f3a4b5c6` names nothing: Notion's export ends every name with
    an id), or only a folder's note is left (`…/index`), the title alone (else the file
    name), cut at its end (as `fit_label`, leaving out a start it `shared` with the names
    beside it)."""
    name = printable(slug)
    extra = printable(title) if title and title_says_more(slug, title) else ""
    file_name = name.rsplit("/", 1)[-1]
    cut = shorten_left(name, width)
    if not names_the_page(file_name, cut, extra):  # `…g-name-here`, `…/index`
        fallback = extra or file_name
        return Text(shorten_right(fallback, width, (shared or {}).get(fallback)))
    if not extra or not beside:
        return Text(cut)
    if cell_len(name) + TITLE_GAP + cell_len(extra) <= width:
        return Text.assemble(name, " " * TITLE_GAP, (extra, "dim"))
    if cell_len(name) <= (width * 2) // 3:  # the whole slug, the title in what is left
        short = name
    else:  # the file name whole before any title
        whole_name = cell_len(name.rsplit("/", 1)[-1]) + 2
        room = max(whole_name, width - TITLE_GAP - cell_len(extra), (width * 3) // 5)
        short = shorten_left(name, room)
    title_room = width - cell_len(short) - TITLE_GAP
    if title_room < MIN_TITLE or not names_the_page(file_name, short, extra):
        return Text(cut)  # `…/langchain/index`, not `…/index  Lang…`
    return Text.assemble(short, " " * TITLE_GAP, (shorten_right(extra, title_room), "dim"))


def page_width(slug: str, title: str | None) -> int:
    """The width `page_cell` needs to show `slug` and its title whole."""
    extra = cell_len(printable(title)) + TITLE_GAP if title and title_says_more(slug, title) else 0
    return cell_len(printable(slug)) + extra


def column_widths(from_width: int, to_width: int, table_width: int) -> tuple[int, int]:
    """Widths of `from` and `to` that fit the table when both cannot be shown whole.

    `to` (the page each row leads to, with its title) takes most of the room;
    `from`, shown once per group, gives way to a third of it (at least 8).
    """
    room = table_width - FIXED_COLUMNS
    if table_width <= 0 or from_width + to_width <= room:
        return from_width, to_width
    fitted = min(from_width, max(8, room // 3))
    if to_width < room - fitted:  # `to` needs less than its share: `from` takes the rest
        fitted = min(from_width, room - to_width)
    fitted = max(4, fitted)
    return fitted, max(2, room - fitted)


def slice_widths(
    edges: Sequence[Edge],
    rows: Sequence[int],
    table_width: int,
    title: Titles,
    badge: Callable[[str], Text],
) -> tuple[int, int]:
    """The (from, to) column widths of a slice's `rows` (positions in `edges`)."""
    return column_widths(
        max([4, *(len(printable(edges[at].frm)) for at in rows)]),
        max(
            [
                2,
                *(
                    badge(edges[at].to).cell_len + page_width(edges[at].to, title(edges[at].to))
                    for at in rows
                ),
            ]
        ),
        table_width,
    )


def slice_shared_starts(
    edges: Sequence[Edge], rows: Sequence[int], title: Titles
) -> dict[str, SharedStart]:
    """The starts the names in a slice's `rows` share (`shared_starts`), the pages they
    come from and lead to alike."""
    slugs = {edges[at].to for at in rows} | {edges[at].frm for at in rows}
    return shared_starts(fallback_name(slug, title(slug)) for slug in slugs)


def display_order(edges: Sequence[Edge], direction: str, limit: int) -> list[int]:
    """Positions in `edges` of the rows to show, at most `limit`, in the order shown.

    A `both` slice is its out pass then its in pass (SPEC §4); shown so, a hub's
    direct backlinks would sit behind the row cap. Rows are shown by hop instead
    (every hop-1 row, out and in, first), each pass keeping its own order; this
    reads only the rows shown (a merge of two hop-ordered runs).
    """
    if direction != "both":
        return list(range(min(limit, len(edges))))
    split = next((at for at, edge in enumerate(edges) if edge.direction == "in"), len(edges))
    runs = (
        ((edges[at].hop, at) for at in range(0, split)),
        ((edges[at].hop, at) for at in range(split, len(edges))),
    )
    merged: Iterator[tuple[int, int]] = heapq.merge(*runs)
    return list(map(itemgetter(1), islice(merged, limit)))


def group_starts(edges: Sequence[Edge], rows: Sequence[int]) -> list[bool]:
    """For each shown row: whether it starts a group (its `from` and direction differ
    from the row above), so `from` is written once per group."""
    starts: list[bool] = []
    previous: tuple[str, str] | None = None
    for at in rows:
        key = (edges[at].frm, edges[at].direction)
        starts.append(key != previous)
        previous = key
    return starts


def slice_row(
    edge: Edge,
    *,
    shows_from: bool,
    from_width: int,
    to_width: int,
    title: Titles,
    badge: Callable[[str], Text] | None = None,
    shared: Mapping[str, SharedStart] | None = None,
) -> tuple[str | int | Text, ...]:
    """The cells of one traversal row: hop, dir, from (blank inside its group), to
    (after the page's `badge`, its OKF glyphs, when given). An implied inverse edge's
    `to` is dimmed after `IMPLIED_MARK`. `shared`: the starts the names in the table
    share (`slice_shared_starts`)."""
    frm = (
        page_cell(edge.frm, title(edge.frm), from_width, beside=False, shared=shared)
        if shows_from
        else Text("")
    )
    marks = badge(edge.to) if badge is not None else Text("")
    if edge.implied:
        marks = Text(IMPLIED_MARK, "dim") + marks
    room = max(2, to_width - marks.cell_len)
    to = marks + page_cell(edge.to, title(edge.to), room, shared=shared)
    if edge.implied:
        to.stylize("dim italic")
    return edge.hop, edge.direction, frm, to


IMPLIED_MARK = "⇢ "
"""Before an implied inverse edge's page (`core.graph.implied`), dimmed with it."""
