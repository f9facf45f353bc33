"""A context pack: what an agent reads before answering about one page, in one call.

`context_pack` (through `Brain.context_pack`, `serve`'s `build_context`) gathers the
page's text, then its neighbours hop by hop up to `depth` (1 to 3), each page once,
at its nearest hop:

- `links_out`: pages (and missing targets) the page's body links to;
- `backlinks`: pages whose body links to it, each with the sentence that links
  (as the page renders it, `paths.link_sentence`);
- `relations`: typed edges (frontmatter relations, OKF `sources`), by relation name,
  each with its `direction` (`out`: stated by the page of the hop before, `in`:
  stated towards it).

A page joined to the hop before in several ways is listed in each group. Every entry
carries the page's title, type, OKF status and trust, description, and `via` (the
page of the hop before it was reached from); a missing target is `missing: true`.

**The budget.** `budget_chars` caps the characters of text the pack carries: the
page's text and every string of every entry (slug, title, description, sentence, …);
JSON punctuation is not counted. The page comes first: when its text alone is over
the budget, it is cut (at a line or word end near the limit) and no neighbour fits.
Then entries are taken in a fixed order, nearest hop first, then most-linked (most
distinct pages linking to it), then slug, then group; the first entry that does not
fit ends the pack, and everything from it on is cut. So the same brain, page, depth
and budget always give the same pack, and `cut` says what was left out: the text's
characters and the entries (in all, and by hop). Sentences are read only for entries
that are considered, so a hub's thousands of backlinks cost what fits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from okf_explorer.core.fast_paths import gc_paused
from okf_explorer.core.graph.traverse import LINKS

if TYPE_CHECKING:
    from okf_explorer.core.index.model import LinkIndex, ResolvedLink
    from okf_explorer.core.pages import Page, PageInfo

DEFAULT_DEPTH = 1
MAX_DEPTH = 3
DEFAULT_BUDGET = 16_000
"""Characters of text in a pack unless asked otherwise (about 4,000 tokens)."""
MIN_BUDGET = 200
MAX_BUDGET = 1_000_000
CUT_SLACK = 120
"""A cut text ends at the last line or word end within this many characters of the limit."""
GROUPS = ("links_out", "backlinks", "relations")

Sentence = Callable[[str, "ResolvedLink"], "str | None"]
"""`sentence(on, link)`: the sentence around `link` on page `on`, or None."""


class _Candidate(NamedTuple):
    """One entry the pack may carry: `slug` reached at `hop` from `via` (a tuple: a
    hub's pack weighs every page linking to it, so each costs as little as it can)."""

    hop: int
    slug: str
    via: str
    group: str
    rel: str
    direction: str

    def order(self, degree: int) -> tuple[int, int, str, int, str]:
        return (self.hop, -degree, self.slug, _GROUP_RANK[self.group], self.rel)


_GROUP_RANK = {group: rank for rank, group in enumerate(GROUPS)}


def clamp_pack_depth(value: int | None) -> int:
    """1 to `MAX_DEPTH`; None → `DEFAULT_DEPTH`."""
    return DEFAULT_DEPTH if value is None else max(1, min(MAX_DEPTH, value))


def clamp_budget(value: int | None) -> int:
    """`MIN_BUDGET` to `MAX_BUDGET`; None → `DEFAULT_BUDGET`."""
    return DEFAULT_BUDGET if value is None else max(MIN_BUDGET, min(MAX_BUDGET, value))


def context_pack(
    index: LinkIndex,
    page: Page,
    sentence: Sentence,
    depth: int = DEFAULT_DEPTH,
    budget: int = DEFAULT_BUDGET,
) -> dict[str, Any]:
    """The pack of `page` (a page of `index`), shape in the module docstring."""
    info = index.pages.get(page.slug)
    root = _described(page.slug, info)
    if info is not None and info.tags:
        root["tags"] = list(info.tags)
    text = page.content if page.readable else ""
    room = budget - _chars(root)
    kept_text = _cut_text(text, max(0, room))
    root["text"] = kept_text
    used = _chars(root)
    hops: dict[int, dict[str, Any]] = {}
    cut_by_hop = [0] * depth
    taken = 0
    full = len(kept_text) < len(text)
    # A hub's pack weighs every page linking to it: tens of thousands of small acyclic
    # tuples, which would set the cyclic collector re-walking the whole index (tens of
    # ms at 10k pages) more than once; pause it meanwhile (`fast_paths.gc_paused`).
    with gc_paused():
        candidates = _ordered(index, page.slug, depth)
        for candidate in candidates:
            entry = None if full else _entry(index, candidate, sentence)
            if entry is None or used + _chars(entry) > budget:
                full = True
                cut_by_hop[candidate.hop - 1] += 1
                continue
            used += _chars(entry)
            taken += 1
            _place(hops, candidate, entry)
    return {
        **root,
        "hops": [hops.get(hop, _empty_hop(hop)) for hop in range(1, depth + 1)],
        "budget_chars": budget,
        "chars": used,
        "cut": {
            "text_chars": len(text) - len(kept_text),
            "neighbours": len(candidates) - taken,
            "neighbours_by_hop": cut_by_hop,
        },
    }


def _ordered(index: LinkIndex, root: str, depth: int) -> list[_Candidate]:
    """Every candidate in the pack's order: nearest hop, most-linked, slug, group."""
    degrees: dict[str, int] = {}

    def order(candidate: _Candidate) -> tuple[int, int, str, int, str]:
        degree = degrees.get(candidate.slug)
        if degree is None:
            degree = degrees[candidate.slug] = _degree(index, candidate.slug)
        return candidate.order(degree)

    return sorted(_candidates(index, root, depth), key=order)


def _candidates(index: LinkIndex, root: str, depth: int) -> Iterator[_Candidate]:
    """Every entry of every hop, breadth first; each page at its nearest hop only."""
    seen = {root}
    frontier = [root]
    for hop in range(1, depth + 1):
        reached: dict[str, None] = {}
        for node in frontier:
            for candidate in _around(index, node, hop):
                if candidate.slug not in seen:
                    reached.setdefault(candidate.slug)
                    yield candidate
        seen.update(reached)
        frontier = [slug for slug in reached if index.exists(slug)]
        if not frontier:
            return


def _around(index: LinkIndex, node: str, hop: int) -> Iterator[_Candidate]:
    """The edges of `node`, one candidate per (page, group, relation, direction)."""
    found: dict[tuple[str, str, str, str], None] = {}
    for other, rel in index.out_edges(node):
        group = "links_out" if rel == LINKS else "relations"
        found.setdefault((other, group, rel, "out"))
    for other, rel in index.in_edges(node):
        group = "backlinks" if rel == LINKS else "relations"
        found.setdefault((other, group, rel, "in"))
    for other, group, rel, direction in found:
        if other != node:
            yield _Candidate(hop, other, node, group, rel, direction)


def _degree(index: LinkIndex, slug: str) -> int:
    """Distinct pages linking to `slug` (how linked it is)."""
    return len(set(index.reverse.get(slug, ())))


def _described(slug: str, info: PageInfo | None) -> dict[str, Any]:
    if info is None:
        return {"slug": slug, "title": slug, "missing": True}
    return {
        "slug": slug,
        "title": info.title,
        "type": info.type,
        "status": info.okf_status,
        "trust": info.okf_trust,
        "description": info.description,
    }


def _entry(index: LinkIndex, candidate: _Candidate, sentence: Sentence) -> dict[str, Any]:
    entry = _described(candidate.slug, index.pages.get(candidate.slug))
    entry["via"] = candidate.via
    if candidate.group == "relations":
        entry["direction"] = candidate.direction
    if candidate.group == "backlinks":
        link = _link(index, candidate.slug, candidate.via)
        found = sentence(candidate.slug, link) if link is not None else None
        entry["sentence"] = found
    return entry


def _link(index: LinkIndex, frm: str, to: str) -> ResolvedLink | None:
    """The body link written on `frm` that leads to `to`."""
    for link in index.forward.get(frm, ()):
        if link.to == to and link.rel == LINKS and not link.incoming:
            return link
    return None


def _place(hops: dict[int, dict[str, Any]], candidate: _Candidate, entry: dict[str, Any]) -> None:
    level = hops.setdefault(candidate.hop, _empty_hop(candidate.hop))
    if candidate.group == "relations":
        level["relations"].setdefault(candidate.rel, []).append(entry)
    else:
        level[candidate.group].append(entry)


def _empty_hop(hop: int) -> dict[str, Any]:
    return {"hop": hop, "links_out": [], "backlinks": [], "relations": {}}


def _chars(value: Any) -> int:
    """Characters of every string in `value` (keys not counted)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(_chars(item) for item in value.values())
    if isinstance(value, list):
        return sum(_chars(item) for item in value)
    return 0


def _cut_text(text: str, room: int) -> str:
    """`text` if it fits in `room` characters, else its start, ending at a line or word
    end within `CUT_SLACK` characters of the limit when there is one."""
    if len(text) <= room:
        return text
    head = text[:room]
    for mark in ("\n", " "):
        at = head.rfind(mark)
        if at >= max(0, room - CUT_SLACK):
            return head[:at]
    return head
