"""`sources.gbrain.importer`, the port of gbrain's link extractor the audit reasons with:
pure checks of its code stripping and trigram match, and (gbrain tier) the same
edges as the real extractor (`gbrain extract links --dry-run --json`, each setting)
on a corpus of every form it treats in its own way (tests/gbrain_extract_corpus)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from okf_explorer.sources.factory import open_source
from okf_explorer.sources.gbrain.importer import (
    GLOBAL_BASENAME,
    INCLUDE_FRONTMATTER,
    GbrainNames,
    code_pairs,
    entity_refs,
    page_candidates,
    similarity,
    strip_code,
    trigrams,
)
from tests.gbrain_peer import gbrain_commands

CORPUS = Path(__file__).resolve().parent / "gbrain_extract_corpus"


def test_three_backticks_pair_with_the_next_three_anywhere():
    text = "Write a fence as `` ``` `` in text. See [[zz/target]].\n\n```\ncode\n```\nEnd [[a/b]]"
    stripped = strip_code(text)
    assert len(stripped) == len(text)
    assert "[[zz/target]]" not in stripped  # the inline ``` paired with the fence opener
    assert "code" in stripped  # … so the fence's body is text to gbrain
    assert "[[a/b]]" not in stripped  # and the closer pairs with nothing: the rest is code
    fence, closer = text.index("```\ncode"), text.index("```\nEnd")
    assert code_pairs(text) == [(20, fence + 3), (closer, len(text))]


def test_single_backticks_pair_on_one_line_only():
    assert strip_code("a `b` c") == "a     c"
    assert strip_code("a `b\nc` [[x]]") == "a `b\nc` [[x]]"
    assert strip_code("~~~\n[[x]]\n~~~") == "~~~\n[[x]]\n~~~"  # no code to gbrain


def test_pass_order_and_masking():
    text = "[[a:people/x]] [[people/y]] [[Z q]] [t](dir/p.md)"
    kinds = [(r.kind, r.target) for r in entity_refs(text)]
    assert kinds == [
        ("markdown", "dir/p"),
        ("qualified", "people/x"),
        ("wiki", "people/y"),
        ("generic", "Z q"),
    ]
    assert entity_refs("[see [[acme]]](companies/acme.md)") == []  # a wiki-link in a label


def test_trigram_similarity_as_pg_trgm():
    assert similarity(trigrams("word"), trigrams("Word")) == 1.0
    assert sorted(trigrams("cat")) == ["  c", " ca", "at ", "cat"]
    # PostgreSQL's manual (pg_trgm): similarity('word', 'two words') = 0.363636
    assert round(similarity(trigrams("word"), trigrams("two words")), 6) == 0.363636


def test_bare_names_reach_file_names_only_with_global_basename():
    names = GbrainNames(frozenset({"zz/target", "zz/p", "yy/q"}))
    found = {
        (c.pair, c.link_source, c.needs)
        for c in page_candidates("yy/q", "See [[Target]].", names)
        if names.holds(c)
    }
    assert found == {(("yy/q", "zz/target"), "wikilink-resolved", frozenset({GLOBAL_BASENAME}))}
    dir_qualified = page_candidates("zz/p", "See [[Zz/Target]].", names)
    assert [(c.target, c.needs) for c in dir_qualified if names.holds(c)] == [
        ("zz/target", frozenset())
    ]


def _served(url: str, token_file: Path) -> tuple[dict[str, dict], dict[str, str]]:
    source = open_source(url, token_file=token_file)
    try:
        rows = source.call_tool("list_pages", {"limit": 100, "sort": "slug"})
        titles = {row["slug"]: row["title"] for row in rows}
        pages = {slug: source.call_tool("get_page", {"slug": slug}) for slug in titles}
    finally:
        source.close()
    return pages, titles


def _dry_run(out: str) -> set[tuple[str, str, str]]:
    rows = [json.loads(line) for line in out.splitlines() if line.startswith('{"action"')]
    return {(r["from"], r["to"], r["link_source"]) for r in rows}


@pytest.mark.gbrain
def test_the_port_proposes_what_gbrains_extractor_does(gbrain_peer, tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    peer = gbrain_peer(corpus)
    pages, titles = _served(peer.url, peer.token_file)
    assert len(pages) == 15
    names = GbrainNames(frozenset(pages), titles)
    ours: set[tuple[str, str, str, frozenset[str]]] = set()
    for slug, page in pages.items():
        text = page["compiled_truth"] + "\n" + page["timeline"]
        for c in page_candidates(
            slug, text, names, frontmatter=page["frontmatter"], page_type=page["type"]
        ):
            if names.holds(c):
                ours.add((c.page, c.target, c.link_source, c.needs))
    extract = ["extract", "links", "--source", "db", "--dry-run", "--json"]
    both = [extract, [*extract, "--include-frontmatter"]]
    on = ["config", "set", "link_resolution.global_basename", "true"]
    _, outs = gbrain_commands(peer, corpus, [*both, on, *both])  # one stop of the server
    for (global_basename, frontmatter), out in {
        (False, False): outs[0],
        (False, True): outs[1],
        (True, False): outs[3],
        (True, True): outs[4],
    }.items():
        on_now = {GLOBAL_BASENAME} if global_basename else set()
        on_now |= {INCLUDE_FRONTMATTER} if frontmatter else set()
        predicted = {(f, t, s) for f, t, s, needs in ours if needs <= on_now}
        assert predicted == _dry_run(out), (global_basename, frontmatter)
