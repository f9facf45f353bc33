"""The server's tools as plain functions over a real `Brain(BundleSource(...))`:
gbrain's reply shapes (GBRAIN_PROTOCOL §4) and error cases (§5)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.server import walk
from okf_explorer.server.shapes import ContextCache, Stated
from okf_explorer.server.tools import GBRAIN_PINNED, TOOL_SPECS, TOOLS, ToolReply, call_tool
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_pages

pytestmark = pytest.mark.plain

ALICE = """---
type: person
title: Alice Example
tags: [founder, ml]
status: active
aliases: [Ali]
---
# Alice Example
Alice founded [[companies/acme]] and leads [[projects/apollo|Project Apollo]].
She knows [[people/bob]] and [[people/nobody-here]]; again [[companies/acme]].

## Background
Grew up by the sea.

## Timeline
- 2024-01-05: joined [[companies/acme]]
"""

PAGES = {
    "people/alice": ALICE,
    "people/bob": "---\ntype: person\ntitle: Bob\n---\nBob works with [Alice](alice.md).\n",
    "companies/acme": "---\ntype: company\ntitle: Acme Corp\ntags: [org]\n---\nAcme: [[alice]].\n",
    "projects/apollo": "---\ntype: project\n---\nApollo ships [[companies/acme]].\n",
    "cycle-a": "A goes to [[cycle-b]].\n",
    "cycle-b": "B goes to [[cycle-c]].\n",
    "cycle-c": "C goes back to [[cycle-a]].\n",
    "diamond/root": "[[diamond/x]] and [[diamond/y]]\n",
    "diamond/x": "[[diamond/y]]\n",
    "diamond/y": "end\n",
    "orphan": "Nobody links here, and I link nowhere.\n",
    **{f"chain/c{i:02d}": f"next [[chain/c{i + 1:02d}]]\n" for i in range(11)},
    "chain/c11": "the end\n",
}
OUTSIDE_SECRET = "outside the bundle"


def stamp(root: Path) -> dict[str, int]:
    """Give every page a distinct mtime (slug order = oldest first); returns slug → epoch."""
    times = {}
    for number, path in enumerate(sorted(root.rglob("*.md"))):
        slug = path.relative_to(root).with_suffix("").as_posix()
        times[slug] = 1_700_000_000 + number * 60
        os.utime(path, (times[slug], times[slug]))
    return times


def make_bundle(base: Path) -> Path:
    root = write_pages(base / "brain", PAGES)
    (base / "outside.md").write_text(OUTSIDE_SECRET, encoding="utf-8")
    stamp(root)
    return root


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Shared by the read-only tests: never write into it."""
    return make_bundle(tmp_path_factory.mktemp("tools"))


@pytest.fixture(scope="module")
def brain(bundle: Path) -> Iterator[Brain]:
    brain = Brain(BundleSource(bundle), cache_dir=False)
    brain.ensure_index()
    yield brain
    brain.close()


@pytest.fixture
def own_bundle(tmp_path: Path) -> Path:
    """A private copy for tests that change files."""
    return make_bundle(tmp_path)


@pytest.fixture
def own_brain(own_bundle: Path) -> Iterator[Brain]:
    brain = Brain(BundleSource(own_bundle), cache_dir=False)
    brain.ensure_index()
    yield brain
    brain.close()


def ok(brain: Brain, name: str, **args: Any) -> Any:
    reply = call_tool(brain, name, args)
    assert not reply.is_error, reply.text
    assert json.loads(reply.text) == reply.value
    return reply.value


def pinned(brain: Brain, name: str, **args: Any) -> Any:
    """A call answered in the shapes of the pinned gbrain 0.46.28 (`--gbrain-shapes`)."""
    reply = call_tool(brain, name, args, shapes=GBRAIN_PINNED)
    assert not reply.is_error, reply.text
    assert json.loads(reply.text) == reply.value
    return reply.value


def err(brain: Brain, name: str, **args: Any) -> dict[str, Any]:
    reply = call_tool(brain, name, args)
    assert reply.is_error, reply.text
    assert json.loads(reply.text) == reply.value
    return reply.value


# -- get_page ----------------------------------------------------------------------------


def test_get_page_has_gbrain_shape(brain: Brain, bundle: Path) -> None:
    page = ok(brain, "get_page", slug="people/alice")
    assert page["slug"] == "people/alice"
    assert (page["type"], page["title"], page["tags"]) == (
        "person",
        "Alice Example",
        ["founder", "ml"],
    )
    assert page["frontmatter"] == {"status": "active", "aliases": ["Ali"]}
    assert page["compiled_truth"].startswith("# Alice Example\nAlice founded [[companies/acme]]")
    assert "## Background\nGrew up by the sea." in page["compiled_truth"]
    assert "Timeline" not in page["compiled_truth"]
    assert page["timeline"] == "## Timeline\n- 2024-01-05: joined [[companies/acme]]"
    data = (bundle / "people/alice.md").read_bytes()
    assert page["content_hash"] == hashlib.sha256(data).hexdigest()
    assert page["updated_at"] and page["created_at"] == page["updated_at"]
    assert "content" not in page and "resolved_slug" not in page


def test_get_page_without_frontmatter_or_timeline(brain: Brain) -> None:
    page = ok(brain, "get_page", slug="orphan")
    assert page["timeline"] == ""
    assert page["frontmatter"] == {} and page["tags"] == []
    assert page["compiled_truth"] == "Nobody links here, and I link nowhere."


def test_timeline_heading_inside_code_fence_is_body(own_brain: Brain, own_bundle: Path) -> None:
    write_pages(own_bundle, {"fenced": "Intro\n```\n## Timeline\n```\nafter\n"})
    own_brain.refresh()
    page = ok(own_brain, "get_page", slug="fenced")
    assert page["timeline"] == "" and "## Timeline" in page["compiled_truth"]


def test_include_content_gives_frontmatter_and_body(brain: Brain) -> None:
    page = ok(brain, "get_page", slug="people/alice", include_content=True)
    content = page["content"]
    assert content.startswith("---\n") and "title: Alice Example\n" in content
    assert "tags:\n- founder\n- ml\n" in content
    assert content.rstrip().endswith("joined [[companies/acme]]")


def test_get_page_unknown_slug_is_page_not_found(brain: Brain) -> None:
    assert err(brain, "get_page", slug="people/nobody-here") == {
        "error": "page_not_found",
        "message": "Page not found: people/nobody-here",
        "suggestion": "Page may be soft-deleted; pass include_deleted: true to verify",
    }


@pytest.mark.parametrize(
    "slug",
    ["../outside", "/etc/passwd", "people\\alice", "people/alice\x00", "people/../orphan", ""],
)
def test_hostile_slugs_never_leave_the_bundle(brain: Brain, slug: str) -> None:
    for name in ("get_page", "get_links", "get_backlinks", "traverse_graph"):
        reply = call_tool(brain, name, {"slug": slug})
        assert OUTSIDE_SECRET not in reply.text
        if name == "get_page":
            assert reply.value["error"] == "page_not_found"
        else:
            assert reply.value == []
    assert call_tool(brain, "get_page", {"slug": slug, "fuzzy": True}).value.get("error")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "Missing required parameter: slug"),
        ({"slug": None}, "Missing required parameter: slug"),
        ({"slug": 7}, 'Parameter "slug" must be a string'),
        (
            {"slug": "orphan", "include_content": "yes"},
            'Parameter "include_content" must be a boolean',
        ),
        ({"slug": "orphan", "fuzzy": 1}, 'Parameter "fuzzy" must be a boolean'),
    ],
)
def test_get_page_invalid_params(brain: Brain, args: dict[str, Any], message: str) -> None:
    assert err(brain, "get_page", **args) == {"error": "invalid_params", "message": message}


def test_fuzzy_resolves_titles_and_partial_names(brain: Brain) -> None:
    assert ok(brain, "get_page", slug="Acme Corp", fuzzy=True)["resolved_slug"] == "companies/acme"
    page = ok(brain, "get_page", slug="people/alic", fuzzy=True)
    assert (page["slug"], page["resolved_slug"]) == ("people/alice", "people/alice")


def test_fuzzy_ambiguous_is_an_error_object_without_is_error(brain: Brain) -> None:
    reply = call_tool(brain, "get_page", {"slug": "cycle", "fuzzy": True})
    assert not reply.is_error
    assert reply.value == {
        "error": "ambiguous_slug",
        "candidates": ["cycle-a", "cycle-b", "cycle-c"],
    }


@pytest.mark.parametrize(
    ("name", "candidates"),
    [
        ("orders", ["glossary/orders", "tables/orders", "archive/old/orders"]),
        ("Orders.md", ["glossary/orders", "tables/orders", "archive/old/orders"]),
        ("old/orders", None),  # a longer tail only one page has
        ("tables/orders", None),  # an exact slug is never ambiguous
    ],
)
@pytest.mark.parametrize("titled", [True, False], ids=["basename", "title"])
def test_fuzzy_name_shared_by_several_pages_is_ambiguous(
    tmp_path: Path, name: str, candidates: list[str] | None, titled: bool
) -> None:
    """Matched by basename (pages with their own titles) or by title (untitled pages
    are titled by their stem): either way several matches are `ambiguous_slug`."""
    slugs = ["glossary/orders", "tables/orders", "archive/old/orders", "orders_legacy"]
    heading = "# {slug} page\n" if titled else ""
    root = write_pages(tmp_path, {slug: heading.format(slug=slug) + "text\n" for slug in slugs})
    brain = Brain(BundleSource(root), cache_dir=False)
    try:
        reply = call_tool(brain, "get_page", {"slug": name, "fuzzy": True})
    finally:
        brain.close()
    assert not reply.is_error
    if candidates is None:
        assert reply.value["resolved_slug"] in slugs
    else:
        assert reply.value == {"error": "ambiguous_slug", "candidates": candidates}


def test_unreadable_page_is_a_page_unreadable_error_but_still_listed(
    own_brain: Brain, own_bundle: Path
) -> None:
    (own_bundle / "broken.md").write_bytes(b"caf\xe9 \xff\xfe")
    own_brain.refresh()
    error = err(own_brain, "get_page", slug="broken")
    assert error["error"] == "page_unreadable"
    assert error["reason"].startswith("not valid UTF-8")
    assert error["message"] == f"page 'broken' is unreadable: {error['reason']}"
    assert "broken" in [row["slug"] for row in ok(own_brain, "list_pages", sort="slug", limit=100)]


# -- list_pages --------------------------------------------------------------------------


def test_list_pages_rows_and_default_order(brain: Brain, bundle: Path) -> None:
    times = stamp(bundle)  # the same times again: nothing changes
    rows = ok(brain, "list_pages")
    assert all(list(row) == ["slug", "source_id", "type", "title", "updated_at"] for row in rows)
    newest_first = sorted(times, key=lambda slug: -times[slug])
    assert [row["slug"] for row in rows] == newest_first[:50]
    assert rows[0]["source_id"] == "default"
    assert ok(brain, "list_pages", sort="updated_asc")[0]["slug"] == min(times, key=times.get)
    assert ok(brain, "list_pages", sort="created_desc") == rows
    by_slug = [row["slug"] for row in ok(brain, "list_pages", sort="slug", limit=100)]
    assert by_slug == sorted(times)


def test_list_pages_filters(brain: Brain) -> None:
    people = ok(brain, "list_pages", type="person", sort="slug")
    assert [(r["slug"], r["type"], r["title"]) for r in people] == [
        ("people/alice", "person", "Alice Example"),
        ("people/bob", "person", "Bob"),
    ]
    assert [r["slug"] for r in ok(brain, "list_pages", tag="org")] == ["companies/acme"]
    assert ok(brain, "list_pages", type="no-such-type") == []


@pytest.fixture(scope="module")
def big_brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    root = write_pages(
        tmp_path_factory.mktemp("big"), {f"p/{i:03d}": f"page {i}\n" for i in range(130)}
    )
    brain = Brain(BundleSource(root), cache_dir=False)
    yield brain
    brain.close()


@pytest.mark.parametrize(("limit", "count"), [(None, 50), (0, 50), (-4, 50), (7, 7), (1000, 100)])
def test_list_pages_limit_default_and_clamp(
    big_brain: Brain, limit: int | None, count: int
) -> None:
    args = {} if limit is None else {"limit": limit}
    assert len(ok(big_brain, "list_pages", **args)) == count


def test_list_pages_offset_pages_through_everything(big_brain: Brain) -> None:
    seen: list[str] = []
    offset = 0
    while rows := ok(big_brain, "list_pages", sort="slug", limit=100, offset=offset):
        seen += [row["slug"] for row in rows]
        offset += len(rows)
    assert seen == [f"p/{i:03d}" for i in range(130)]
    assert ok(big_brain, "list_pages", offset=500) == []


def test_list_pages_updated_after_is_strict(brain: Brain, bundle: Path) -> None:
    times = stamp(bundle)
    pivot = ok(brain, "get_page", slug="orphan")["updated_at"]
    later = {row["slug"] for row in ok(brain, "list_pages", updated_after=pivot, limit=100)}
    assert later == {slug for slug, t in times.items() if t > times["orphan"]}
    assert ok(brain, "list_pages", updated_after="2000-01-01", limit=100) != []
    assert ok(brain, "list_pages", updated_after="2999-01-01") == []


def page_by_updated_after(brain: Brain, limit: int = 20) -> list[str]:
    """gbrain's recommended exhaustive paging: `updated_asc` + `updated_after=<last>`."""
    seen: list[str] = []
    args: dict[str, Any] = {"sort": "updated_asc", "limit": limit}
    while rows := ok(brain, "list_pages", **args):
        seen += [row["slug"] for row in rows]
        args["updated_after"] = rows[-1]["updated_at"]
    return seen


def test_updated_after_paging_returns_every_sample_page_once(
    sample_brain: Path, tmp_path: Path
) -> None:
    """Every page once, when no two files share a modification time. (A fresh git
    checkout often gives several files the same coarse kernel timestamp; such ties
    cannot be split by a strictly-greater-than filter: see `list_pages`.)"""
    copy = tmp_path / "brain"
    shutil.copytree(sample_brain, copy)
    base = 1_750_000_000_000_000_000
    for number, path in enumerate(sorted(copy.rglob("*.md"))):
        os.utime(path, ns=(base + number * 1_000_000, base + number * 1_000_000))
    brain = Brain(BundleSource(copy), cache_dir=False)
    try:
        everything = sorted(info.slug for info in brain.pages())
        seen = page_by_updated_after(brain)
    finally:
        brain.close()
    assert len(everything) > 20
    assert len(seen) == len(set(seen)) and sorted(seen) == everything


def test_updated_after_paging_tells_microseconds_apart(tmp_path: Path) -> None:
    root = write_pages(tmp_path, {f"p/{i:03d}": f"page {i}\n" for i in range(45)})
    base = 1_700_000_000_000_000_000
    for number, path in enumerate(sorted(root.rglob("*.md"))):
        os.utime(path, ns=(base + number * 1000, base + number * 1000))  # 1 µs apart
    brain = Brain(BundleSource(root), cache_dir=False)
    try:
        rows = ok(brain, "list_pages", sort="updated_asc", limit=2)
        seen = page_by_updated_after(brain)
    finally:
        brain.close()
    assert [row["updated_at"] for row in rows] == [
        "2023-11-14T22:13:20.000000Z",
        "2023-11-14T22:13:20.000001Z",
    ]
    assert seen == [f"p/{i:03d}" for i in range(45)]


def test_equal_times_sort_by_slug_and_offset_paging_stays_exact(tmp_path: Path) -> None:
    """Pages sharing an mtime: ties are in slug order in every time sort; `updated_after`
    (strictly greater-than, as in gbrain) cannot split a tie, so paging by it skips the
    rest of a tie cut by a page boundary (documented), while `offset` paging is exact."""
    root = write_pages(tmp_path, {f"p/{i:02d}": f"page {i}\n" for i in range(30)})
    for path in root.rglob("*.md"):
        os.utime(path, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    brain = Brain(BundleSource(root), cache_dir=False)
    try:
        slugs = [f"p/{i:02d}" for i in range(30)]
        for sort in ("updated_asc", "updated_desc", "created_desc"):
            rows = ok(brain, "list_pages", sort=sort, limit=100)
            assert [row["slug"] for row in rows] == slugs
        by_offset: list[str] = []
        while rows := ok(brain, "list_pages", sort="updated_asc", limit=7, offset=len(by_offset)):
            by_offset += [row["slug"] for row in rows]
        assert by_offset == slugs
        assert page_by_updated_after(brain, limit=7) == slugs[:7]
    finally:
        brain.close()


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ({"limit": "ten"}, "invalid_params", 'Parameter "limit" must be a number'),
        ({"offset": True}, "invalid_params", 'Parameter "offset" must be a number'),
        ({"type": 3}, "invalid_params", 'Parameter "type" must be a string'),
        (
            {"sort": "newest"},
            "invalid_params",
            'Parameter "sort" must be one of: updated_desc, updated_asc, created_desc, slug',
        ),
        (
            {"updated_after": "garbage"},
            "internal_error",
            'invalid input syntax for type timestamp with time zone: "garbage"',
        ),
    ],
)
def test_list_pages_errors(brain: Brain, args: dict[str, Any], error: str, message: str) -> None:
    assert err(brain, "list_pages", **args) == {"error": error, "message": message}


# -- get_links / get_backlinks -----------------------------------------------------------

LINK_KEYS = [
    "from_slug",
    "from_source_id",
    "to_slug",
    "to_source_id",
    "link_type",
    "context",
    "link_source",
    "origin_slug",
    "origin_source_id",
    "origin_field",
]


def test_get_links_rows(brain: Brain) -> None:
    rows = ok(brain, "get_links", slug="people/alice")
    assert [row["to_slug"] for row in rows] == ["companies/acme", "projects/apollo", "people/bob"]
    for row in rows:
        assert list(row) == LINK_KEYS
        assert row["from_slug"] == "people/alice" and row["link_type"] == "mentions"
        assert row["link_source"] == "markdown" and row["origin_slug"] is None
        assert 0 < len(row["context"]) <= 240 and "\n" not in row["context"]
    assert "[[companies/acme]]" in rows[0]["context"]
    assert "[[projects/apollo|Project Apollo]]" in rows[1]["context"]


def test_get_links_of_unknown_orphan_and_dangling(brain: Brain) -> None:
    assert ok(brain, "get_links", slug="people/nobody-here") == []
    assert ok(brain, "get_links", slug="orphan") == []
    assert ok(brain, "get_backlinks", slug="people/nobody-here") == []
    assert ok(brain, "get_backlinks", slug="orphan") == []


def test_get_backlinks_rows(brain: Brain) -> None:
    rows = ok(brain, "get_backlinks", slug="people/alice")
    assert [row["from_slug"] for row in rows] == ["companies/acme", "people/bob"]
    assert all(list(row) == LINK_KEYS and row["to_slug"] == "people/alice" for row in rows)
    assert rows[1]["context"] == "Bob works with [Alice](alice.md)."


def test_link_context_is_the_sentence_of_the_first_real_link(tmp_path: Path) -> None:
    """The server's `context` is the core's sentence (`core.links.spans`): a link
    written inside code is no mention, a reference-style link has its own sentence
    (not the definition line), and the text stops at the sentence."""
    pages = {
        "alice": "Alice.\n",
        "code": "Write `[[alice]]` so. Later, Carol met [[alice]] today. Then lunch.\n",
        "refs": "Intro.\n\nDan knows [the founder][a] well. Bye.\n\n[a]: alice.md\n",
        "foam": "Run [[lint]] first.\n\n[lint]: alice.md\n",
    }
    brain = Brain(BundleSource(write_pages(tmp_path / "b", pages)), cache_dir=False)
    try:
        rows = {
            row["from_slug"]: row["context"] for row in ok(brain, "get_backlinks", slug="alice")
        }
    finally:
        brain.close()
    assert rows == {
        "code": "Later, Carol met [[alice]] today.",
        "refs": "Dan knows [the founder][a] well.",
        "foam": "Run [[lint]] first.",
    }


def test_link_tools_need_a_string_slug(brain: Brain) -> None:
    for name in ("get_links", "get_backlinks", "traverse_graph"):
        assert err(brain, name)["message"] == "Missing required parameter: slug"
        assert err(brain, name, slug=["x"])["message"] == 'Parameter "slug" must be a string'


# -- traverse_graph ----------------------------------------------------------------------


def test_traverse_node_form_on_a_cycle(brain: Brain) -> None:
    rows = pinned(brain, "traverse_graph", slug="cycle-a")
    assert [(r["slug"], r["depth"]) for r in rows] == [
        ("cycle-a", 0),
        ("cycle-b", 1),
        ("cycle-c", 2),
    ]
    assert list(rows[0]) == ["slug", "title", "type", "depth", "links"]
    assert rows[2]["links"] == [{"to_slug": "cycle-a", "link_type": "mentions"}]


def test_traverse_node_form_repeats_a_slug_at_each_depth(brain: Brain) -> None:
    rows = pinned(brain, "traverse_graph", slug="diamond/root", depth=3)
    pairs = [(r["slug"], r["depth"]) for r in rows]
    assert pairs == [("diamond/root", 0), ("diamond/x", 1), ("diamond/y", 1), ("diamond/y", 2)]


def test_traverse_orphan_and_unknown(brain: Brain) -> None:
    rows = pinned(brain, "traverse_graph", slug="orphan")
    assert [(r["slug"], r["depth"], r["links"]) for r in rows] == [("orphan", 0, [])]
    assert pinned(brain, "traverse_graph", slug="orphan", direction="out") == []
    assert pinned(brain, "traverse_graph", slug="nope") == []
    assert pinned(brain, "traverse_graph", slug="nope", direction="in") == []


@pytest.mark.parametrize(("depth", "deepest"), [(None, 5), (0, 5), (-3, 1), (2, 2), (99, 10)])
def test_traverse_depth_default_and_clamp(brain: Brain, depth: int | None, deepest: int) -> None:
    args = {"slug": "chain/c00"} if depth is None else {"slug": "chain/c00", "depth": depth}
    rows = pinned(brain, "traverse_graph", **args)
    assert [r["depth"] for r in rows] == list(range(deepest + 1))


def test_traverse_edge_form_out_includes_edges_back_to_start(brain: Brain) -> None:
    rows = ok(brain, "traverse_graph", slug="cycle-a", direction="out", depth=4)
    assert [(r["from_slug"], r["to_slug"], r["depth"]) for r in rows] == [
        ("cycle-a", "cycle-b", 1),
        ("cycle-b", "cycle-c", 2),
        ("cycle-c", "cycle-a", 3),
    ]
    assert list(rows[0]) == ["from_slug", "to_slug", "link_type", "context", "depth"]
    assert rows[0]["context"] == "A goes to [[cycle-b]]."


def test_traverse_edge_form_in_and_both(brain: Brain) -> None:
    rows = ok(brain, "traverse_graph", slug="companies/acme", direction="in", depth=1)
    assert {(r["from_slug"], r["to_slug"], r["depth"]) for r in rows} == {
        ("people/alice", "companies/acme", 1),
        ("projects/apollo", "companies/acme", 1),
    }
    both = ok(brain, "traverse_graph", slug="people/bob", direction="both", depth=1)
    assert {(r["from_slug"], r["to_slug"]) for r in both} == {
        ("people/bob", "people/alice"),
        ("people/alice", "people/bob"),
    }


def test_traverse_link_type(brain: Brain) -> None:
    rows = pinned(brain, "traverse_graph", slug="cycle-a", link_type="links", depth=1)
    assert [(r["from_slug"], r["to_slug"], r["depth"]) for r in rows] == [("cycle-a", "cycle-b", 1)]
    assert pinned(brain, "traverse_graph", slug="cycle-a", link_type="works_at") == []


def test_traverse_errors(brain: Brain) -> None:
    assert err(brain, "traverse_graph", slug="cycle-a", direction="up") == {
        "error": "invalid_params",
        "message": 'Parameter "direction" must be one of: in, out, both',
    }
    assert err(brain, "traverse_graph", slug="cycle-a", depth="2")["error"] == "invalid_params"


def test_simple_path_walk_falls_back_to_a_superset_past_its_budget() -> None:
    nodes = [f"n{i}" for i in range(9)]
    graph = {n: [m for m in nodes if m != n] for n in nodes}
    exact = walk.reachable_pairs("n0", 4, graph.__getitem__)
    cheap = walk.reachable_pairs("n0", 4, graph.__getitem__, budget=10)
    assert set(exact) <= set(cheap)
    assert ("n0", 0) in exact and ("n0", 2) not in exact and ("n0", 2) not in cheap
    assert {d for _, d in exact} == {0, 1, 2, 3, 4}


# -- memory_navigate ---------------------------------------------------------------------


def test_memory_navigate_ops(brain: Brain) -> None:
    page = ok(brain, "memory_navigate", op="get", slug="people/bob")
    assert page["slug"] == "people/bob" and "content" in page
    listed = ok(brain, "memory_navigate", op="list", type="person")
    assert {row["slug"] for row in listed} == {"people/alice", "people/bob"}
    assert len(ok(brain, "memory_navigate", op="list", limit=3)) == 3
    assert ok(brain, "memory_navigate", op="links", slug="people/bob") == ["people/alice"]
    assert ok(brain, "memory_navigate", op="backlinks", slug="people/bob") == ["people/alice"]
    # links are what `links SLUG` prints: dangling targets too (gbrain's get_links drops them)
    assert ok(brain, "memory_navigate", op="links", slug="people/alice") == [
        "companies/acme", "projects/apollo", "people/bob", "people/nobody-here",
    ]  # fmt: skip


def test_memory_navigate_traverse_returns_okf_edge_records(brain: Brain) -> None:
    records = ok(brain, "memory_navigate", op="traverse", slug="cycle-a", depth=3)
    assert records == [
        {
            "type": "edge",
            "hemisphere": "knowledge",
            "from": f,
            "to": t,
            "rel": "links",
            "direction": "out",
            "hop": h,
        }
        for f, t, h in [
            ("cycle-a", "cycle-b", 1),
            ("cycle-b", "cycle-c", 2),
            ("cycle-c", "cycle-a", 3),
        ]
    ]
    assert all(
        list(r) == ["type", "hemisphere", "from", "to", "rel", "direction", "hop"] for r in records
    )
    inward = ok(brain, "memory_navigate", op="traverse", slug="cycle-a", direction="in")
    assert [(r["from"], r["to"], r["direction"]) for r in inward] == [("cycle-a", "cycle-c", "in")]


@pytest.mark.parametrize(
    "args",
    [
        {},
        {"op": "fly"},
        {"op": 3},
        {"op": "get"},
        {"op": "get", "slug": "nope"},
        {"op": "get", "slug": "../outside"},
        {"op": "links", "slug": 5},
        {"op": "list", "limit": "many"},
        {"op": "traverse", "slug": "cycle-a", "direction": "sideways"},
        {"op": "traverse", "slug": "nope"},
    ],
)
def test_memory_navigate_never_fails(brain: Brain, args: dict[str, Any]) -> None:
    assert ok(brain, "memory_navigate", **args) == []


def test_memory_navigate_survives_a_vanished_source(own_brain: Brain, own_bundle: Path) -> None:
    brain = own_brain
    shutil.rmtree(own_bundle)
    for op in ("get", "links", "backlinks", "traverse", "list"):
        reply = call_tool(brain, "memory_navigate", {"op": op, "slug": "people/alice"})
        assert not reply.is_error and isinstance(reply.value, list | dict)
    assert ok(brain, "memory_navigate", op="get", slug="people/alice") == []


# -- dispatch ----------------------------------------------------------------------------


def test_unknown_tool_and_unknown_keys(brain: Brain) -> None:
    assert err(brain, "no_such_tool") == {
        "error": "unknown_operation",
        "message": "Unknown: no_such_tool",
    }
    reply = call_tool(brain, "get_links", {"slug": "orphan", "bogus": 1})
    assert not reply.is_error and reply.warnings == [{"code": "unknown_param", "param": "bogus"}]


def test_reply_text_is_pretty_on_success_and_compact_on_error() -> None:
    assert ToolReply([{"a": "é"}]).text == '[\n  {\n    "a": "é"\n  }\n]'
    assert ToolReply({"error": "x", "message": "y"}, True).text == '{"error":"x","message":"y"}'


def test_every_tool_has_a_schema() -> None:
    assert set(TOOL_SPECS) == set(TOOLS)
    for spec in TOOL_SPECS.values():
        schema = spec["inputSchema"]
        assert schema["type"] == "object" and schema["properties"]
        assert set(schema.get("required", [])) <= set(schema["properties"])


def test_link_contexts_are_cached_until_the_linking_page_changes(
    own_brain: Brain, own_bundle: Path
) -> None:
    cache = ContextCache()

    def bob_context() -> str:
        reply = call_tool(own_brain, "get_backlinks", {"slug": "people/alice"}, contexts=cache)
        return next(row["context"] for row in reply.value if row["from_slug"] == "people/bob")

    assert bob_context() == "Bob works with [Alice](alice.md)."
    (own_bundle / "people/bob.md").write_text(
        "---\ntype: person\ntitle: Bob\n---\nBob now admires [Alice](alice.md) a lot.\n"
    )
    assert bob_context() == "Bob works with [Alice](alice.md)."  # index not refreshed yet
    own_brain.refresh()
    assert bob_context() == "Bob now admires [Alice](alice.md) a lot."


def test_context_cache_is_bounded() -> None:
    cache = ContextCache(size=2)
    for n in range(3):
        cache.put((f"p{n}", "t", "links"), "fp", Stated(f"c{n}"))
    assert cache.get(("p0", "t", "links"), "fp") is None
    kept = cache.get(("p1", "t", "links"), "fp"), cache.get(("p2", "t", "links"), "fp")
    assert kept == (Stated("c1"), Stated("c2"))
    assert cache.get(("p2", "t", "links"), "other fingerprint") is None


def test_where_a_typed_edge_is_written_is_cached_until_its_page_changes(tmp_path: Path) -> None:
    """A typed edge's `link_source` and origin, read from the page that states it, are
    kept across calls like a body link's context, and read again once that page changed."""
    root = tmp_path / "typed"
    write_pages(root, {"a": '---\nuses: "[[b]]"\n---\n# A\n', "b": "# B\n"})
    brain = Brain(BundleSource(root), cache_dir=False)
    cache = ContextCache()

    def stated() -> tuple[object, ...]:
        reply = call_tool(brain, "get_links", {"slug": "a"}, contexts=cache)
        row = next(row for row in reply.value if row["link_type"] == "uses")
        return row["link_source"], row["origin_slug"], row["origin_field"], row["context"]

    try:
        assert stated() == ("frontmatter", "a", "uses", "frontmatter.uses: b")
        (root / "a.md").write_text("# A\n\nuses:: [[b]]\n")
        brain.refresh()
        assert stated() == ("markdown", None, None, "uses:: [[b]]")
    finally:
        brain.close()


def test_an_edge_stated_by_its_target_is_read_again_once_the_target_changed(
    tmp_path: Path,
) -> None:
    """gbrain's `sources` field states an edge from the source to the page naming it: its
    context is read from that page, and read again once that page changed."""
    root = tmp_path / "incoming"
    write_pages(root, {"source/pod": "# Pod\n", "x": "---\nsources: [Pod]\n---\n# X\n"})
    brain = Brain(BundleSource(root), cache_dir=False)
    cache = ContextCache()

    def context() -> str:
        reply = call_tool(brain, "get_links", {"slug": "source/pod"}, contexts=cache)
        return next(row["context"] for row in reply.value if row["to_slug"] == "x")

    try:
        assert context() == "frontmatter.sources: Pod"
        (root / "x.md").write_text("---\nsources: [pod]\n---\n# X\n")
        brain.refresh()
        assert context() == "frontmatter.sources: pod"
    finally:
        brain.close()


# -- gbrain's lookups: get_tags, resolve_slugs, find_orphans --------------------------


def test_get_tags_lists_a_pages_tags_and_none_for_no_page(brain: Brain) -> None:
    assert ok(brain, "get_tags", slug="people/alice") == ["founder", "ml"]
    assert ok(brain, "get_tags", slug="people/nobody-here") == []  # gbrain: [] too, no error
    assert ok(brain, "get_tags", slug="../outside") == []
    assert err(brain, "get_tags")["error"] == "invalid_params"


def test_resolve_slugs_ranks_as_the_page_finder(brain: Brain) -> None:
    """A partial slug, title or alias finds its pages, the finder's best first."""
    assert ok(brain, "resolve_slugs", partial="ali") == ["people/alice"]
    assert ok(brain, "resolve_slugs", partial="Acme Corp") == ["companies/acme"]
    assert ok(brain, "resolve_slugs", partial="cycle")[:3] == ["cycle-a", "cycle-b", "cycle-c"]
    assert len(ok(brain, "resolve_slugs", partial="c")) == 10
    assert ok(brain, "resolve_slugs", partial="zzzz") == []


def test_resolve_slugs_finds_a_page_added_since_the_last_call(
    own_brain: Brain, own_bundle: Path
) -> None:
    """The finder's rows are made once per index: a call after a refresh reads the new
    index's, with the page that came."""
    assert ok(own_brain, "resolve_slugs", partial="zephyr") == []
    assert own_brain.findables() is own_brain.findables()  # made once, not every call
    (own_bundle / "zephyr.md").write_text("# Zephyr\n", encoding="utf-8")
    own_brain.refresh()
    assert ok(own_brain, "resolve_slugs", partial="zephyr") == ["zephyr"]


def test_find_orphans_answers_in_gbrains_shape(own_bundle: Path) -> None:
    """The pages nothing links to, with gbrain's totals; an OKF bundle's `index` page
    nothing links to is a pseudo page: left out, counted in `excluded`, unless asked for."""
    index = "---\nokf_version: 0.2\n---\n# Index\n[[orphan]]\n"
    (own_bundle / "index.md").write_text(index, encoding="utf-8")
    brain = Brain(BundleSource(own_bundle), cache_dir=False)
    try:
        found = ok(brain, "find_orphans")
        every = ok(brain, "find_orphans", include_pseudo=True)
    finally:
        brain.close()
    assert found == {
        "orphans": [
            {"slug": "chain/c00", "title": "c00", "domain": "chain"},
            {"slug": "diamond/root", "title": "root", "domain": "diamond"},
        ],
        "total_orphans": 2,
        "total_linkable": 23,
        "total_pages": 24,
        "excluded": 1,
    }
    assert [row["slug"] for row in every["orphans"]] == ["chain/c00", "diamond/root", "index"]
    assert (every["total_linkable"], every["excluded"]) == (24, 0)
