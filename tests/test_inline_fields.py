"""Typed links written in a page (issue 27 §1): Dataview inline fields in the body and
Obsidian properties whose values are links, read by the one link grammar (code masked,
the same link forms), each link an edge of the field's relation."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.brain import Brain
from okf_explorer.core.links.fields import canonical_key, field_values
from okf_explorer.core.links.grammar import (
    RawLink,
    extract_link_tuples,
    extract_links,
    parse_links,
    reference_link_tuples,
)
from okf_explorer.core.links.typed import frontmatter_links
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_bundle
from tests.shape_vault import make_shape_vault

pytestmark = pytest.mark.plain


def links(text: str) -> list[tuple[str, str, int, str]]:
    """(target, kind, count, rel) of each link the grammar finds."""
    return [(x.target, x.kind, x.count, x.rel) for x in extract_links(text)]


# -- the key, as Dataview canonicalises it ---------------------------------------------


@pytest.mark.parametrize(
    ("key", "rel"),
    [
        ("up", "up"),
        ("Related To", "related-to"),
        ("This     is test", "this-is-test"),
        ("This is a Test.", "this-is-a-test"),
        ("Yes-sir", "yes-sir"),
        ("**Parent**", "parent"),
        ("works_at", "works_at"),
        ("Статус", "статус"),
        ("", ""),
    ],
)
def test_keys_are_canonical_as_dataview_has_them(key: str, rel: str) -> None:
    assert canonical_key(key) == rel


# -- inline fields in the body -----------------------------------------------------------


def test_a_whole_line_field_makes_its_links_typed() -> None:
    assert links("up:: [[Home]]\n") == [("Home", "wiki", 1, "up")]


def test_every_field_form_and_link_form() -> None:
    text = (
        "**Parent**:: [[a/one|One]]\n"
        "- next:: [[three]]\n"
        "> Author:: [[people/ann#Bio|Ann]]\n"
        "Seen in [related to:: [[b/two]]] and (same:: [b1](b/one.md)) today.\n"
        "down:: [[x]], ![[y]] and [[z]]\n"
    )
    assert links(text) == [
        ("a/one", "wiki", 1, "parent"),
        ("three", "wiki", 1, "next"),
        ("people/ann", "wiki", 1, "author"),
        ("b/two", "wiki", 1, "related-to"),
        ("b/one.md", "markdown", 1, "same"),
        ("x", "wiki", 1, "down"),
        ("y", "embed", 1, "down"),
        ("z", "wiki", 1, "down"),
    ]


def test_a_link_both_in_prose_and_in_a_field_is_one_of_each() -> None:
    text = "See [[a]] and [[b]].\n\nup:: [[a]]\nmore [[a]]\n"
    assert links(text) == [
        ("a", "wiki", 2, "links"),
        ("b", "wiki", 1, "links"),
        ("a", "wiki", 1, "up"),
    ]


def test_fields_without_links_and_non_fields_make_no_edge() -> None:
    text = (
        "status:: draft\n"
        "a.b:: [[dotted-key]]\n"  # `.` is not allowed in a whole-line key
        "see [[c]]:: [[d]]\n"  # a link in the key: no field
        "- [ ] due:: [[task]]\n"  # a task has no whole-line field
        "- [ ] [owner:: [[bracketed-on-task]]]\n"
    )
    assert links(text) == [
        ("dotted-key", "wiki", 1, "links"),
        ("c", "wiki", 1, "links"),
        ("d", "wiki", 1, "links"),
        ("task", "wiki", 1, "links"),
        ("bracketed-on-task", "wiki", 1, "owner"),
    ]


def test_fields_in_code_are_no_fields() -> None:
    text = "```\nup:: [[in-fence]]\n```\n`up:: [[in-span]]`\n~~~\n[up:: [[tilde]]]\n~~~\n"
    assert links(text) == []


def test_bracketed_fields_nest_and_escape_as_dataview_reads_them() -> None:
    text = "x [a:: [[p]] (see [[q]])] y (b:: [[r]]) [c:: \\] [[s]]]\n"
    assert links(text) == [
        ("p", "wiki", 1, "a"),
        ("q", "wiki", 1, "a"),
        ("r", "wiki", 1, "b"),
        ("s", "wiki", 1, "c"),
    ]


def test_a_line_with_bracketed_fields_has_no_whole_line_field() -> None:
    assert links("k:: [[a]] [j:: [[b]]]\n") == [("a", "wiki", 1, "links"), ("b", "wiki", 1, "j")]


def test_reference_links_in_fields_use_the_pages_definitions() -> None:
    text = "up:: [[lint]] and [the cli][cli]\n\n[lint]: cli/lint.md\n[cli]: cli/index.md\n"
    assert [RawLink.from_row(r) for r in extract_link_tuples(text)] == [
        RawLink("lint", "wiki", 1, "cli/lint.md", "up"),
        RawLink("cli/index.md", "markdown", 1, None, "up"),
    ]


def test_parse_links_still_lists_every_target_once_in_order() -> None:
    assert parse_links("up:: [[a]]\nsee [[b]] and [[a]]\n") == ["a", "b"]


def test_field_values_finds_what_dataview_finds() -> None:
    assert field_values("up:: [[a]]\nplain line\n[k:: v] and (l:: w)\n") == [
        ("up", 5, 10),
        ("k", 27, 28),
        ("l", 39, 40),
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["up", ":: ", "::", "[[a]]", "[[b|B]]", "[x](y.md)", "[", "]", "(", ")", "k", " ",
             "\n", "- ", "- [ ] ", "**", "`", "```\n", "\\", "[r]: r.md\n", "[r]", "Key Two"]
        ),
        max_size=30,
    ).map("".join)
)  # fmt: skip
def test_the_fast_scan_and_the_reference_agree_with_fields(text: str) -> None:
    assert extract_link_tuples(text) == reference_link_tuples(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["up:: ", "[k:: ", "]", "(j:: ", ")", "[[a]]", "[[b]]", "x", "\n", "\n\n"]),
        max_size=25,
    ).map("".join)
)
def test_fields_only_retype_links_never_add_or_lose_mentions(text: str) -> None:
    """Every mention the body scan sees is counted once, typed or not; a field's value
    holds links the body scan sees too (a bracketed field's link may add one it
    could not see as link text)."""
    plain = {}
    for target, _kind, count, _rel in links(text.replace("::", ": :")):
        plain[target] = plain.get(target, 0) + count
    typed: dict[str, int] = {}
    for target, _kind, count, _rel in links(text):
        typed[target] = typed.get(target, 0) + count
    assert set(plain) <= set(typed)
    for target, count in plain.items():
        assert typed[target] >= count


# -- Obsidian properties -------------------------------------------------------------------


def test_properties_whose_values_are_links_are_edges_named_after_them() -> None:
    frontmatter = {
        "up": "[[a/one]]",
        "Parent Page": ["[[p1]]", "[[p2|Two]]", "not a link", 3],
        "mentor": "[Ann](../people/ann.md)",
        "aliases": ["[[not-an-edge]]"],
        "tags": ["[[nor-this]]"],
        "status": "draft",
        "nested": {"up": "[[ignored]]"},
    }
    assert frontmatter_links(frontmatter, None) == [
        RawLink("a/one", "wiki", 1, None, "up").to_row(),
        RawLink("p1", "wiki", 1, None, "parent-page").to_row(),
        RawLink("p2", "wiki", 1, None, "parent-page").to_row(),
        RawLink("../people/ann.md", "markdown", 1, None, "mentor").to_row(),
    ]


def test_gbrain_fields_keep_gbrains_relation_and_its_name_rules() -> None:
    rows = [RawLink.from_row(r) for r in frontmatter_links({"related": ["[[b1]]"]}, None)]
    assert rows == [RawLink("b1", "wiki", 1, None, "related_to", named=True)]


# -- in the index, the walks and the exports ---------------------------------------------


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return make_shape_vault(tmp_path / "vault")


def brain_of(root: Path, cache: Path | bool = False) -> Brain:
    return Brain(BundleSource(root), cache_dir=cache)


def test_fields_and_properties_are_typed_edges_in_the_index(vault: Path) -> None:
    index = brain_of(vault).ensure_index()
    assert index.out_edges("garden/tulip") == [
        ("garden/rose", "links"),
        ("garden/soil", "links"),
        ("garden/compost", "links"),
        ("garden/rose", "next"),  # parallel to the body link: an edge of its own
        ("garden/water", "up"),  # the property
    ]
    assert index.out_edges("garden/compost")[-2:] == [
        ("garden/tulip", "same"),
        ("seasons", "season"),
    ]
    assert ("seasons", "made-in") in index.out_edges("kitchen/bread")
    assert index.out_edges("kitchen/salt")[-2:] == [
        ("kitchen/bread", "parent-page"),
        ("kitchen/flour", "parent-page"),
    ]
    assert ("people/bob", "mentor") in index.out_edges("people/ann")
    # a written link to no page stays, dangling, as a body link would
    assert ("nowhere", "prev") in index.out_edges("kitchen/yeast")
    assert index.dangling_ids() == ["nowhere"]
    # in code: no field and no link
    assert not any("code" in node for s in index.pages for node, _ in index.out_edges(s))
    assert index.relations() == [
        "links", "made-in", "mentor", "next", "parent-page", "prev", "same", "season",
        "up", "works_at",
    ]  # fmt: skip


def test_typed_links_survive_the_disk_cache(vault: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = brain_of(vault, cache).ensure_index()
    warm = brain_of(vault, cache).ensure_index()
    assert {s: warm.out_edges(s) for s in warm.pages} == {s: cold.out_edges(s) for s in cold.pages}
    assert warm.raw_links == cold.raw_links


def test_rel_keeps_a_walk_and_an_export_to_the_written_relations(vault: Path, run) -> None:
    status, out, err = run("links", "garden/tulip", "--rel", "up", "--source", str(vault))
    assert (status, out) == (0, "garden/water\n"), err
    status, out, _ = run(
        "export", "kitchen/yeast", "--rel", "prev", "--source", str(vault), "--format", "jsonl"
    )
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["to"], r["rel"]) for r in records] == [
        ("kitchen/flour", "prev"),
        ("nowhere", "prev"),
    ]
    status, out, _ = run(
        "links", "garden/water", "--backlinks", "--rel", "up", "--source", str(vault)
    )
    assert out == "garden/rose\ngarden/tulip\n"


def test_a_vault_without_fields_or_link_properties_keeps_its_edges(tmp_path: Path) -> None:
    """`::` in prose without a field that holds a link, or in code, changes nothing."""
    text = "# P\nstd::vector and [[q]]; a:: b\n```\nx:: [[r]]\n```\n"
    root = write_bundle(tmp_path / "v", {"p.md": text, "q.md": "# Q\n", "r.md": "# R\n"})
    assert brain_of(root).ensure_index().out_edges("p") == [("q", "links")]


PLAIN_PAGES = {
    "index.md": (
        "---\ntitle: Home\ntags: [start]\n---\n# Home\n"
        "See [[notes/alpha]], [Beta](notes/beta.md) and ![[people/ann]].\n"
    ),
    "notes/alpha.md": (
        "---\nstatus: draft\nsource: https://example.com/a\nrelated: plain words\n---\n"
        "# Alpha\nC++ uses std::vector; a ratio 3::4. Links: [[notes/beta|the beta]], "
        "[[people/ann#Work]], [[missing page]].\n"
    ),
    "notes/beta.md": (
        "# Beta\nBack to [[index]] and [alpha](alpha.md). `code:: [[not-a-link]]`\n"
        "```\nup:: [[people/ann]]\n```\n"
    ),
    "people/ann.md": "---\naliases: [Annie]\n---\n# Ann\nWrites [[Alpha]] and [[notes/beta]].\n",
}
PLAIN_EXPORTS = {
    "json": "d52d65bd69e5e098",
    "jsonl": "89a40324bff8c44b",
    "dot": "7ed7c4ecf684bc4a",
    "graphml": "bbafe427170b5357",
    "mermaid": "f3e9c034d293513f",
}
"""sha256 (first 16 hex digits) of each export of `PLAIN_PAGES`, made by the code before
typed inline fields, link properties and implied edges (`1ba1ef0^`)."""


def test_a_plain_bundle_exports_the_same_bytes_as_before_typed_links(
    tmp_path: Path, run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Prose with `::`, fields in code, properties that are no links: no new edge, no new
    byte in any export format."""
    monkeypatch.setenv("OKF_EXPLORER_CACHE", "off")
    root = write_bundle(tmp_path / "plain", PLAIN_PAGES)
    for fmt, digest in PLAIN_EXPORTS.items():
        status, out, _ = run(
            "export",
            "index",
            "--depth",
            "3",
            "--direction",
            "both",
            "--format",
            fmt,
            "--source",
            str(root),
        )
        assert status == 0 and out
        assert hashlib.sha256(out.encode()).hexdigest()[:16] == digest, fmt
