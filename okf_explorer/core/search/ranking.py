"""How the text index ranks the pages a query matches.

**By field.** FTS5's `bm25()` weighs each column of the index (`WEIGHTS`, in
`core.search.document.FIELDS` order): a word in the title or another name counts
most, then in a heading or the summary, then in the body. `bm25()` adds the weighted
counts of a word over the columns before its saturation (BM25F), so a word the body
already holds often gains little from the title: the title's own weight comes from
`TITLE_COVER` below. Filters (`type:`, `tag:`, `path:`) only keep or drop pages.

**FTS5 syntax** (`SearchQuery.plain` false): the pages matching the expression, by
weighted BM25 (`ranked_sql`).

**Plain words**: a page matches when it holds any of the query's terms. The SQL
(`ranked_sql`) scores each term on its own and adds the scores up, so a page holding
more of the words scores more: BM25 counts each term by its rarity (`Rarity`), which
FTS5 floors to nothing for a word more than half the pages hold; its score is scaled
to an inverse document frequency that stays positive; a term more than `COMMON_SHARE`
of the pages hold (its weight next to nothing) only counts as present, sparing
`bm25()`'s work on nearly every page, unless it is the rarest term some page holds.
Filters apply in each term's query, so `bm25()` runs on the pages kept only. Each pair of
neighbouring terms standing within `NEAR_TOKENS` tokens of each other adds `NEAR_BONUS`,
unless both are common (such words say little about the page meant, and FTS5 reads every
position of both to tell). The SQL gets the same sums with fewer rows (`ranked_sql`:
a common term's share goes to the pages lacking it as a deduction) and looks up the
slugs of the best pages only. The best `CANDIDATES` pages are then ranked again
(`rerank`), adding

- `TITLE_COVER` times the share of the title's words the query holds (a question
  naming the page: `install community plugins` → *Community plugins*);
- `HEADING_COVER` times the same share for the best heading (`embed a pdf in a
  note` → the section *Embed a PDF in a note*);
- `LINK_PRIOR` times `log(1 + backlinks)`: of two pages that match alike, the one
  more pages link to is the one a person means (as the finder orders a tier).

Words are compared there as `units`: lower case, stop words out, a plain English
suffix cut (`_stem`), CJK runs as pairs of characters.

The constants were tuned on the tuning half of our labelled questions
(`tests/search_sets`, `tests/bench/bench_search_quality.py`) and judged on the
held-out half. Tried on the tuning half and left out: a bonus for the share of the
query's words a page holds (it favoured long pages holding every common word of a
question), a length penalty, BM25 per field (each column saturating on its own),
proximity of all the words at once; other field weights, proximity windows, candidate
counts, a title cover counting the query's share too, aliases counted as headings
(figures in docs/performance.md).

Pages called by the query come before all of these (`core.search.text_index`).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from okf_explorer.core.search.query import SearchQuery
from okf_explorer.core.search.words import (
    STOP_WORDS,
    WORD_CHAR,
    char_pairs,
    has_cjk,
    rough_stem,
    split_cjk,
    unspaced,
)

WEIGHTS = (10.0, 8.0, 3.0, 3.0, 1.0, 2.0)
"""`bm25()` weights of title, names, headings, summary, body, properties."""
NEAR_BONUS = 1.0
"""What a pair of neighbouring terms of a plain-word query standing close is worth."""
NEAR_TOKENS = 3
"""How close (tokens between them) a pair of terms stands for `NEAR_BONUS`."""
COMMON_SHARE = 0.8
"""A plain-word term more than this share of the pages hold counts as present or not
(its `idf`, at most 0.22), not by `bm25()`, unless it is the query's rarest term."""
COMMON_SCALE = 3.0
"""What present means for such a term: `idf` times this (tuned: about a body hit's
`bm25()` per unit of `idf`)."""
CANDIDATES = 100
"""Pages the SQL hands to `rerank` at least."""
TITLE_COVER = 3.0
HEADING_COVER = 1.0
LINK_PRIOR = 0.5
EXCLUDED_FUNCTION = "okf_excluded"
"""The SQL function saying whether a slug is excluded (`SearchQuery.hide_excluded`)."""
TAG_SEP = "\x1f"
"""Separates a page's tags in the `docs.tags` column (it starts and ends with one)."""

_BM25 = "bm25(fts, " + ", ".join(f"{w:g}" for w in WEIGHTS) + ")"
_WORD = re.compile(f"{WORD_CHAR}+")

Row = tuple[int, str, str, "str | None", float]
"""`(rowid, slug, title, type, score)` of a ranked page."""


def filters(query: SearchQuery) -> tuple[str, list[object]]:
    """The SQL conditions on `docs d` of the query's filters (each starting ` AND`)."""
    sql: list[str] = []
    params: list[object] = []
    if query.type:
        sql.append(" AND d.type = ? COLLATE NOCASE")
        params.append(query.type)
    if query.types:
        sql.append(" AND d.type IN (" + ", ".join("?" * len(query.types)) + ")")
        params.extend(query.types)
    if query.tag:  # the tag or one nested in it (`core.pages.has_tag`)
        tag = TAG_SEP + query.tag.lstrip("#").lower()
        sql.append(" AND (instr(d.tags, ?) > 0 OR instr(d.tags, ?) > 0)")
        params += [tag + TAG_SEP, tag + "/"]
    if query.path:
        sql.append(" AND substr(d.slug, 1, ?) = ?")
        params += [len(query.path), query.path]
    if query.hide_excluded:
        sql.append(f" AND NOT {EXCLUDED_FUNCTION}(d.slug)")
    return "".join(sql), params


@dataclass(frozen=True, slots=True)
class Rarity:
    """How rare a term is among `pages` pages when `holding` of them hold it."""

    pages: int
    holding: int

    @property
    def idf(self) -> float:
        """The term's weight: its inverse document frequency, always above 0 (the
        `log(1 + …)` form: a word most pages hold still counts a little)."""
        return math.log(1 + (self.pages - self.holding + 0.5) / (self.holding + 0.5))

    @property
    def common(self) -> bool:
        """Whether so many pages hold the term that its weight is next to nothing
        (`COMMON_SHARE`): where it stands in a page is then not worth `bm25()`'s work."""
        return self.holding > COMMON_SHARE * self.pages

    @property
    def fts5_idf(self) -> float:
        """The inverse document frequency FTS5's `bm25()` uses: 1e-6 for a term more
        than half the pages hold, which would make its title hits worth nothing in a
        small vault (`plugins` among Obsidian's help pages)."""
        return max(1e-6, math.log((self.pages - self.holding + 0.5) / (self.holding + 0.5)))


@dataclass(frozen=True, slots=True)
class RankedSQL:
    """The SQL (and its parameters) of `ranked_sql`, and when its rows are the answer."""

    sql: str
    params: list[object]
    limit: int
    left_out: float | None = None
    """What a page the SQL left out (one holding only common terms) scores at most;
    None: it left none out."""

    def whole(self, rows: Sequence[tuple[Any, ...]]) -> bool:
        """Whether `rows` of this SQL are the best pages of the query, as if no page had
        been left out: `limit` of them score above `left_out`."""
        if self.left_out is None:
            return True
        return len(rows) >= self.limit and rows[-1][4] > self.left_out


def best_pages(
    db: sqlite3.Connection, query: SearchQuery, rarities: Sequence[Rarity], limit: int
) -> list[tuple[int, str, str, str | None, float, str]]:
    """`(id, slug, title, type, score, headings)` of the `limit` best pages of `query` in
    the text index `db`, best first (`ranked_sql`: asked again with every page when the
    pages left out might be among them)."""
    plan = ranked_sql(query, rarities, limit)
    rows = db.execute(plan.sql, plan.params).fetchall()
    if not plan.whole(rows):
        plan = ranked_sql(query, rarities, limit, every_page=True)
        rows = db.execute(plan.sql, plan.params).fetchall()
    return rows


def ranked_sql(
    query: SearchQuery, rarities: Sequence[Rarity], limit: int, *, every_page: bool = False
) -> RankedSQL:
    """The SQL giving `(id, slug, title, type, score, headings)` of the `limit` best pages,
    best first. `rarities` are the plain-word terms', in `query.terms` order.

    A common term of a plain-word query (`Rarity.common`, not the rarest) is held by
    nearly every page, so a row a page for it was most of a question's time. Its
    `COMMON_SCALE` share is given instead to every page holding a term scored by
    `bm25()` (`scored` below), less the share of each common term the page lacks (FTS5's
    `NOT` finds those few). A page holding common terms only scores at most the sum of
    their shares, and is left out unless `every_page`: the caller asks again with it
    when the rows are not `RankedSQL.whole`. The scores are the same either way."""
    where, params = filters(query)
    if not query.plain:
        source = " FROM fts JOIN docs d ON d.id = fts.rowid" if where else " FROM fts"
        rows = f"SELECT fts.rowid, -{_BM25}{source} WHERE fts MATCH ?{where}"
        pages = f"pages(id, score) AS MATERIALIZED ({rows})"
        return RankedSQL(_best(pages, headings=False), [query.text, *params, *_cut(limit)], limit)
    # the rarest term some page holds keeps its `bm25()` even when common
    rarest = min((r for r in rarities if r.holding), key=lambda r: r.holding, default=None)
    common = [
        (term, r.idf * COMMON_SCALE)
        for term, r in zip(query.terms, rarities, strict=True)
        if r.common and r is not rarest
    ]
    scored = [
        (term, r.idf / r.fts5_idf, r.holding)
        for term, r in zip(query.terms, rarities, strict=True)
        if not (r.common and r is not rarest)
    ]
    # too few pages hold a scored term to fill the rows: no use asking twice
    every_page = every_page or sum(holding for *_, holding in scored) < limit
    pairs = [
        f"NEAR({a} {b}, {NEAR_TOKENS})"
        for (a, ra), (b, rb) in itertools.pairwise(zip(query.terms, rarities, strict=True))
        if not (ra.common and rb.common)
    ]
    # filters inside each part: `bm25()` is then worked out for the pages kept only
    source = " FROM fts JOIN docs d ON d.id = fts.rowid" if where else " FROM fts"
    part = f"SELECT fts.rowid, {{}}{source} WHERE fts MATCH ?{where}"
    # the pages holding a scored term
    held = [(part.format(f"-{_BM25} * {scale!r}"), term) for term, scale, _ in scored]
    held += [(part.format(repr(NEAR_BONUS)), pair) for pair in pairs]
    any_scored = "(" + " OR ".join(term for term, *_ in scored) + ")"
    held += [(part.format(repr(-share)), f"{any_scored} NOT {term}") for term, share in common]
    # the pages holding common terms only
    others = [(part.format(repr(share)), f"{term} NOT {any_scored}") for term, share in common]
    cap = sum(share for _, share in common)
    if len(held) == 1:  # one term: no sum to make
        pages = held[0][0]
    else:
        pages = f"SELECT id, sum(score) + {cap!r} FROM held GROUP BY id"
    if every_page and others:
        pages += " UNION ALL SELECT id, sum(score) FROM others GROUP BY id"
    else:
        others = []
    ctes = [("held", held)] if len(held) > 1 else []
    ctes += [("others", others)] if others else []
    pages = (
        "".join(
            f"{name}(id, score) AS MATERIALIZED ({' UNION ALL '.join(sql for sql, _ in parts)}), "
            for name, parts in ctes
        )
        + f"pages(id, score) AS MATERIALIZED ({pages})"
    )
    # the parts in the order the SQL holds them: a single part is `pages` itself
    in_order = [part for _, parts in ctes for part in parts] if ctes else held
    matched = [value for _, match in in_order for value in (match, *params)]
    left_out = cap if common and not every_page else None
    return RankedSQL(_best(pages, headings=True), [*matched, *_cut(limit)], limit, left_out)


def _best(pages: str, *, headings: bool) -> str:
    """The SQL of the best `(id, slug, title, type, score, headings)` of the `(id, score)`
    rows of the common table expression `pages` (and those before it), best first, ties
    in slug order. The pages below the `limit`-th score are dropped before their slugs
    are looked up (`_cut` gives its parameters)."""
    last = (
        " SELECT b.*, f.headings FROM best b JOIN fts f ON f.rowid = b.id"  # best pages only
        if headings
        else " SELECT b.*, '' FROM best b"
    )
    return (
        f"WITH {pages},"
        " cut(score) AS (SELECT score FROM pages ORDER BY score DESC LIMIT 1 OFFSET ?),"
        " best(id, slug, title, type, score) AS MATERIALIZED"
        " (SELECT d.id, d.slug, d.title, d.type, p.score FROM pages p JOIN docs d ON d.id = p.id"
        " WHERE p.score >= ifnull((SELECT score FROM cut), -1e308)"
        " ORDER BY p.score DESC, d.slug LIMIT ?)"
        f"{last} ORDER BY b.score DESC, b.slug"
    )


def _cut(limit: int) -> list[object]:
    """`_best`'s parameters for the `limit` best pages."""
    return [max(0, limit - 1), max(0, limit)]


def rerank(
    query: SearchQuery,
    rows: Sequence[tuple[int, str, str, str | None, float, str]],
    backlinks: Callable[[str], int],
) -> list[Row]:
    """`ranked_sql`'s rows of a plain-word query ranked again (see the module doc),
    best first, ties in slug order."""
    wanted = units(" ".join(query.words))
    scored: list[Row] = []
    for rowid, slug, title, kind, score, headings in rows:
        # a heading holding none of the wanted units as a substring covers nothing (a
        # unit is a prefix of a word, in lower case): most of a long page's headings
        text = unspaced(headings)
        parts = text.split("\n") if _may_cover(text, wanted) else []
        best_heading = max((cover(h, wanted) for h in parts if _may_cover(h, wanted)), default=0.0)
        score += (
            TITLE_COVER * cover(title, wanted)
            + HEADING_COVER * best_heading
            + LINK_PRIOR * math.log1p(backlinks(slug))
        )
        scored.append((rowid, slug, title, kind, score))
    scored.sort(key=lambda row: (-row[4], row[1]))
    return scored


def _may_cover(text: str, wanted: set[str]) -> bool:
    """Whether `text` may hold one of the `wanted` units (a quick look before `cover`)."""
    lower = text.casefold()
    return any(unit in lower for unit in wanted)


def units(text: str) -> set[str]:
    """The words of `text` as `rerank` compares them: lower case, stop words out, a
    plain English suffix cut; a CJK run as its pairs of characters."""
    if not has_cjk(text):  # the common case, one pass
        return {_stem(w) for w in _WORD.findall(text.casefold()) if w not in STOP_WORDS}
    found: set[str] = set()
    for word in _WORD.findall(text):
        for part, cjk in split_cjk(word):
            if cjk:
                found.update(char_pairs(part))
            elif (lower := part.casefold()) not in STOP_WORDS:
                found.add(rough_stem(lower))
    return found


@functools.lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """`rough_stem` of a lower-case word, remembered: the same words come back in every
    page's headings and titles."""
    return rough_stem(word)


def cover(text: str, wanted: set[str]) -> float:
    """The share of the `units` of `text` that are among `wanted` (0 for no units)."""
    have = units(text)
    return len(have & wanted) / len(have) if have else 0.0
