"""The SQL that ranks a plain-word query (`core.search.ranking.best_pages`) gives the
same pages, in the same order and with the same scores, as the plain sum it stands for:
a row for each page and term it holds, added up. The fast SQL gives a common term's share
to every page holding a scored term less the pages lacking it, and leaves out the pages
holding common terms only unless they may be among the best (issue 25: a 10k-page
question 37 -> 19 ms); this holds it to the plain sum on a vault where some words are on
nearly every page, with filters, words no page holds, and limits the rare words cannot
fill."""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections.abc import Iterator

import pytest

from okf_explorer.core.index.build import build_index
from okf_explorer.core.search.query import SearchQuery, parse_query
from okf_explorer.core.search.ranking import (
    COMMON_SCALE,
    NEAR_BONUS,
    NEAR_TOKENS,
    WEIGHTS,
    Rarity,
    best_pages,
    filters,
)
from okf_explorer.core.search.text_index import TextIndex
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_pages

# share of the pages holding each word: three on nearly every page, two on some, two rare
WORDS = {
    "alpha": 0.95,
    "beta": 0.88,
    "gamma": 0.83,
    "delta": 0.3,
    "epsilon": 0.1,
    "zeta": 0.02,
    "eta": 0.01,
}


def page(rng: random.Random, number: int) -> str:
    words = [w for w, share in WORDS.items() if rng.random() < share]
    body = " ".join(rng.choice([*words, "filler", "text"]) for _ in range(rng.randint(3, 40)))
    kind = "note" if number % 3 else "concept"
    tag = "odd" if number % 2 else "even"
    title = " ".join(rng.sample(words, min(len(words), 2))) or f"page {number}"
    return f"---\ntitle: {title}\ntype: {kind}\ntags: [{tag}]\n---\n{body}\n"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sqlite3.Connection]:
    rng = random.Random(25)
    pages = {f"{'ab'[n % 2]}/page-{n:03d}": page(rng, n) for n in range(400)}
    root = write_pages(tmp_path_factory.mktemp("vault"), pages)
    source = BundleSource(root)
    path = tmp_path_factory.mktemp("cache") / "text.fts"
    texts = TextIndex(path, "plan")
    texts.sync(build_index(source, cache=False).pages, source.map_bodies)
    texts.close()
    db = sqlite3.connect(path)
    yield db
    db.close()


def rarities(db: sqlite3.Connection, query: SearchQuery) -> list[Rarity]:
    (pages,) = db.execute("SELECT count(*) FROM docs").fetchone()
    return [
        Rarity(pages, db.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (t,)).fetchone()[0])
        for t in query.terms
    ]


def plain_sum(
    db: sqlite3.Connection, query: SearchQuery, rarities: list[Rarity], limit: int
) -> list[tuple[str, float]]:
    """`(slug, score)` of the best pages as the plain sum: each term's rows on their own (a
    common term's share where the page holds it, else its `bm25()`, scaled), each pair of
    neighbours standing close unless both common, added up per page."""
    where, params = filters(query)
    bm25 = "bm25(fts, " + ", ".join(f"{w:g}" for w in WEIGHTS) + ")"
    rarest = min((r for r in rarities if r.holding), key=lambda r: r.holding, default=None)
    part = (
        f"SELECT fts.rowid, {{}} FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ?{where}"
    )
    parts, args = [], []
    for term, r in zip(query.terms, rarities, strict=True):
        common = r.common and r is not rarest
        score = repr(r.idf * COMMON_SCALE) if common else f"-{bm25} * {r.idf / r.fts5_idf!r}"
        parts.append(part.format(score))
        args += [term, *params]
    for (a, ra), (b, rb) in itertools.pairwise(zip(query.terms, rarities, strict=True)):
        if not (ra.common and rb.common):
            parts.append(part.format(repr(NEAR_BONUS)))
            args += [f"NEAR({a} {b}, {NEAR_TOKENS})", *params]
    sql = (
        f"WITH hits(id, score) AS MATERIALIZED ({' UNION ALL '.join(parts)})"
        " SELECT d.slug, sum(h.score) AS s FROM hits h JOIN docs d ON d.id = h.id"
        " GROUP BY h.id ORDER BY s DESC, d.slug LIMIT ?"
    )
    return db.execute(sql, [*args, limit]).fetchall()


@pytest.mark.parametrize(
    "text",
    [
        "alpha",  # one common word: it is the rarest, so scored
        "alpha beta",  # every word common
        "alpha beta gamma delta",
        "alpha zeta",  # a rare word: too few pages to fill the rows by itself
        "gamma eta beta",
        "alpha beta nowhere",  # a word no page holds
        "delta epsilon",
        "type:note alpha beta",
        "tag:odd alpha beta gamma",
        "path:a/ beta gamma epsilon",
        "type:concept tag:even alpha zeta",
    ],
)
@pytest.mark.parametrize("limit", [1, 10, 100, 1000])
def test_the_ranking_sql_is_the_plain_sum(index: sqlite3.Connection, text: str, limit: int) -> None:
    query = parse_query(text)
    assert query.plain
    rare = rarities(index, query)
    fast = [(row[1], row[4]) for row in best_pages(index, query, rare, limit)]
    plain = plain_sum(index, query, rare, limit)
    assert [slug for slug, _ in fast] == [slug for slug, _ in plain]
    assert [score for _, score in fast] == pytest.approx([score for _, score in plain], rel=1e-9)
    assert fast  # every query finds some page


def test_the_vault_has_common_words(index: sqlite3.Connection) -> None:
    """The words meant to be on nearly every page are (else the test above shows little)."""
    common = [r.common for r in rarities(index, parse_query("alpha beta gamma delta"))]
    assert common == [True, True, True, False]
