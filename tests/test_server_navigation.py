"""The tools only okf-explorer has (issue 26) as plain calls over a real `Brain` of the
sample brain, each against what the CLI prints for the same question: `find_paths` =
`path --json`, `best_paths` = `walk --json`, `explain_links` = `links --explain`,
`graph_stats` = `stats --json`, `find_mentions` = `mentions --json`, `wanted_pages`
= the dangling targets of `stats --json`; `build_context` against its own rules;
`memory_navigate` as SPEC §7 says. The same tools over HTTP and stdio are in
tests/test_serve_agents.py."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.server.catalog import TOOL_SPECS, call_tool
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_pages

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    from tests.conftest import SAMPLE_BRAIN

    opened = Brain(BundleSource(SAMPLE_BRAIN), cache_dir=False)
    opened.ensure_index()
    yield opened
    opened.close()


def ok(brain: Brain, name: str, **args: Any) -> Any:
    reply = call_tool(brain, name, args)
    assert not reply.is_error, reply.text
    assert not reply.warnings, reply.warnings
    return json.loads(reply.text)


def err(brain: Brain, name: str, **args: Any) -> dict[str, Any]:
    reply = call_tool(brain, name, args)
    assert reply.is_error, reply.text
    return json.loads(reply.text)


def cli_json(run: Run, sample_brain: Path, *argv: str) -> Any:
    status, out, err_text = run(*argv, "--source", str(sample_brain), "--json")
    assert status == 0, err_text
    return json.loads(out)


# -- the tools answer as the CLI prints ----------------------------------------------------


@pytest.mark.parametrize(
    ("args", "argv"),
    [
        ({"from": "metrics/revenue", "to": "teams/data-platform"}, []),
        ({"from": "metrics/revenue", "to": "teams/data-platform", "k": 5}, ["--k", "5"]),
        (
            {"from": "Revenue", "to": "data platform", "direction": "any", "avoid": ["hubs"]},
            ["--direction", "any", "--avoid", "hubs"],
        ),
        (
            {"from": "metrics/revenue", "to": "teams/data-platform", "avoid": ["tables/orders"]},
            ["--avoid", "tables/orders"],
        ),
        (
            {"from": "tables/orders", "to": "pipelines/orders_daily", "rel": ["derived_from"]},
            ["--rel", "derived_from"],
        ),
        ({"from": "metrics/revenue", "to": "tables/orders", "max_hops": 1}, ["--max-hops", "1"]),
    ],
)
def test_find_paths_is_path_json(
    brain: Brain, run: Run, sample_brain: Path, args: dict[str, Any], argv: list[str]
) -> None:
    expected = cli_json(run, sample_brain, "path", args["from"], args["to"], *argv)
    assert expected
    assert ok(brain, "find_paths", **args) == expected


def test_find_paths_errors(brain: Brain) -> None:
    missing = err(brain, "find_paths", **{"from": "tables/ordrs", "to": "metrics/revenue"})
    assert missing["error"] == "page_not_found" and "tables/ordrs" in missing["message"]
    assert "tables/orders" in missing["suggestion"]
    pair = {"from": "metrics/revenue", "to": "tables/orders"}
    assert ok(brain, "find_paths", **pair, max_hops=0) == ok(brain, "find_paths", **pair, k=0)
    assert ok(brain, "find_paths", **pair, max_hops=-5) == ok(brain, "find_paths", **pair, k=1)
    alone = err(brain, "find_paths", **{"from": "tables/orders", "to": "tables/orders"})
    assert alone == {
        "error": "no_path",
        "message": "no path from tables/orders to itself (give two different pages)",
    }
    assert err(brain, "find_paths", to="x")["message"] == "Missing required parameter: from"
    wrong = err(brain, "find_paths", **{"from": "a", "to": "b", "direction": "up"})
    assert wrong["message"] == 'Parameter "direction" must be one of: out, in, any'
    listed = err(brain, "find_paths", **{"from": "a", "to": "b", "avoid": "hubs"})
    assert listed["message"] == 'Parameter "avoid" must be an array of strings'


@pytest.mark.parametrize(
    ("args", "argv"),
    [
        ({"roots": ["tables/orders"]}, ["--root", "tables/orders"]),
        (
            {"roots": ["tables/orders", "tag:core"], "depth": 2},
            ["--root", "tables/orders", "--root", "tag:core", "--depth", "2"],
        ),
        (
            {"roots": ["type:metric"], "min_weight": 0.2, "direction": "both"},
            ["--root", "type:metric", "--min-weight", "0.2", "--direction", "both"],
        ),
    ],
)
def test_best_paths_is_walk_json(
    brain: Brain, run: Run, sample_brain: Path, args: dict[str, Any], argv: list[str]
) -> None:
    expected = cli_json(run, sample_brain, "walk", *argv)
    assert expected
    assert ok(brain, "best_paths", **args) == expected


def test_best_paths_errors(brain: Brain) -> None:
    unknown = err(brain, "best_paths", roots=["tables/ordrs"])
    assert unknown["error"] == "page_not_found" and "tables/orders" in unknown["suggestion"]
    assert err(brain, "best_paths", roots=["tag:no-such-tag"])["error"] == "page_not_found"
    heavy = err(brain, "best_paths", roots=["tables/orders"], min_weight=2)
    assert heavy["error"] == "invalid_params" and "from 0 to 1" in heavy["message"]
    assert err(brain, "best_paths", roots=[])["error"] == "invalid_params"
    assert err(brain, "best_paths")["message"] == "Missing required parameter: roots"


@pytest.mark.parametrize("slug", ["tables/orders", "people/tomas-okafor", "index"])
def test_explain_links_is_links_explain(
    brain: Brain, run: Run, sample_brain: Path, slug: str
) -> None:
    status, out, err_text = run("links", slug, "--explain", "--source", str(sample_brain))
    assert status == 0, err_text
    records = ok(brain, "explain_links", slug=slug)
    keys = ["from", "written", "to", "rule", "candidates"]
    assert records and all(list(record) == keys for record in records)
    lines = [
        "\t".join([r["from"], r["written"] or "-", r["to"], r["rule"] or "-", *r["candidates"]])
        for r in records
    ]
    assert lines == out.splitlines()


def test_explain_links_shows_candidates_and_dangling_targets(brain: Brain) -> None:
    ambiguous = [
        record
        for slug in brain.ensure_index().pages
        for record in ok(brain, "explain_links", slug=slug)
        if record["candidates"]
    ]
    assert ambiguous and all(r["candidates"][0] == r["to"] for r in ambiguous)
    dangling = ok(brain, "explain_links", slug="tables/customers")
    assert {
        "from": "tables/customers",
        "written": "[[tables/loyalty_points]]",
        "to": "tables/loyalty_points",
        "rule": "dangling",
        "candidates": [],
    } in dangling
    assert err(brain, "explain_links", slug="nope")["error"] == "page_not_found"


@pytest.mark.parametrize("top", [None, 3])
def test_graph_stats_is_stats_json(
    brain: Brain, run: Run, sample_brain: Path, top: int | None
) -> None:
    expected = cli_json(run, sample_brain, "stats")
    answer = ok(brain, "graph_stats") if top is None else ok(brain, "graph_stats", top=top)
    if top is not None:
        expected["hubs"] = {side: rows[:top] for side, rows in expected["hubs"].items()}
    assert answer == expected


@pytest.mark.parametrize("slug", ["tables/orders", "metrics/revenue", "Revenue"])
def test_find_mentions_is_mentions_json(
    brain: Brain, run: Run, sample_brain: Path, slug: str
) -> None:
    expected = cli_json(run, sample_brain, "mentions", slug)
    assert ok(brain, "find_mentions", slug=slug) == expected


def test_find_mentions_of_an_unknown_page(brain: Brain) -> None:
    missing = err(brain, "find_mentions", slug="tables/ordrs")
    assert missing["error"] == "page_not_found" and "tables/orders" in missing["suggestion"]


def test_wanted_pages_are_the_dangling_targets_in_gbrains_rows(
    brain: Brain, run: Run, sample_brain: Path
) -> None:
    dangling = cli_json(run, sample_brain, "stats")["dangling"]
    reply = ok(brain, "wanted_pages")
    assert list(reply) == ["total", "limit", "offset", "next_offset", "targets"]
    assert (reply["total"], reply["limit"], reply["offset"], reply["next_offset"]) == (
        len(dangling), 50, 0, None,
    )  # fmt: skip
    rows = reply["targets"]
    assert {row["target"]: row["referenced_by"] for row in rows} == {
        target: len(froms) for target, froms in dangling.items()
    }
    counts = [row["referenced_by"] for row in rows]
    assert counts == sorted(counts, reverse=True)
    for row in rows:
        assert list(row) == [
            "target", "target_source_id", "ref_kind", "referenced_by", "sample_origins",
            "link_types", "existing_matches", "first_seen", "last_checked", "next",
        ]  # fmt: skip
        origins = [origin["slug"] for origin in row["sample_origins"]]
        assert origins == dangling[row["target"]][:3]
        assert row["ref_kind"] == ("slug" if "/" in row["target"] else "name")
        assert row["link_types"] == ["mentions"] and row["next"].startswith("Create ")
    paged = ok(brain, "wanted_pages", limit=1, offset=1)
    assert unchecked(paged["targets"]) == unchecked(rows[1:2]) and paged["next_offset"] == 2
    assert ok(brain, "wanted_pages", count_only=True)["targets"] == []
    bad = err(brain, "wanted_pages", limit=500)
    assert bad["message"] == "wanted_pages: limit must be 1-100 and offset a non-negative integer"


def unchecked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows without `last_checked` (the time of each answer)."""
    return [{key: value for key, value in row.items() if key != "last_checked"} for row in rows]


def test_wanted_pages_of_a_brain_without_any(tmp_path: Path) -> None:
    root = write_pages(tmp_path / "b", {"a": "[[b]]", "b": "[[a]]"})
    whole = Brain(BundleSource(root), cache_dir=False)
    try:
        reply = ok(whole, "wanted_pages")
    finally:
        whole.close()
    assert reply["total"] == 0 and reply["targets"] == []
    assert reply["note"] == "Every authored link resolves to an existing page."


# -- build_context ---------------------------------------------------------------------


def test_build_context_holds_the_page_then_its_neighbours(brain: Brain) -> None:
    pack = ok(brain, "build_context", slug="tables/orders")
    assert pack["slug"] == "tables/orders" and pack["text"] == brain.page("tables/orders").content
    assert (pack["type"], pack["status"], pack["trust"]) == ("table", "stable", "human-reviewed")
    (hop,) = pack["hops"]
    out = {entry["slug"] for entry in hop["links_out"]}
    assert {"metrics/revenue", "teams/data-platform"} <= out
    back = {entry["slug"]: entry for entry in hop["backlinks"]}
    assert set(back) == set(brain.backlinks("tables/orders")) - {"tables/orders"}
    assert all(entry["via"] == "tables/orders" for entry in back.values())
    assert all(entry["sentence"] for entry in back.values())
    assert "pipelines/orders_daily" in {e["slug"] for e in hop["relations"]["derived_from"]}
    assert pack["cut"] == {"text_chars": 0, "neighbours": 0, "neighbours_by_hop": [0]}
    assert pack["chars"] <= pack["budget_chars"]


def test_build_context_cuts_to_the_budget_nearest_and_most_linked_first(brain: Brain) -> None:
    whole = ok(brain, "build_context", slug="tables/orders", depth=2, budget_chars=1_000_000)
    small = ok(brain, "build_context", slug="tables/orders", depth=2, budget_chars=6000)
    assert small == ok(brain, "build_context", slug="tables/orders", depth=2, budget_chars=6000)
    assert small["chars"] <= 6000 < whole["chars"]
    index = brain.ensure_index()
    kept, everything = entries(small, index), entries(whole, index)
    assert kept == everything[: len(kept)]  # a prefix of the whole order: nothing skipped
    assert small["cut"]["neighbours"] > 0
    assert sum(small["cut"]["neighbours_by_hop"]) == small["cut"]["neighbours"]
    assert whole["cut"]["neighbours"] == 0
    tiny = ok(brain, "build_context", slug="tables/orders", budget_chars=500)
    assert tiny["cut"]["text_chars"] > 0 and entries(tiny, index) == []
    assert len(tiny["text"]) + len(tiny["title"]) < 500


def entries(pack: dict[str, Any], index: Any) -> list[tuple[int, str]]:
    """(hop, slug) of every entry, in the order the pack takes them: nearest hop first,
    then most linked (distinct pages linking to it), then slug."""
    found = {
        (level["hop"], entry["slug"])
        for level in pack["hops"]
        for group in (level["links_out"], level["backlinks"], *level["relations"].values())
        for entry in group
    }
    return sorted(found, key=lambda item: (item[0], -len(set(index.reverse.get(item[1], ()))),
                                           item[1]))  # fmt: skip


def test_build_context_arguments(brain: Brain) -> None:
    assert len(ok(brain, "build_context", slug="tables/orders", depth=9)["hops"]) == 3
    assert err(brain, "build_context", slug="tables/ordrs")["error"] == "page_not_found"
    assert err(brain, "build_context")["message"] == "Missing required parameter: slug"
    assert err(brain, "build_context", slug="x", depth="2")["error"] == "invalid_params"


# -- memory_navigate (SPEC §7) -------------------------------------------------------------


@pytest.mark.parametrize("slug", ["tables/orders", "people/tomas-okafor"])
def test_memory_navigate_links_and_backlinks_are_slugs(
    brain: Brain, run: Run, sample_brain: Path, slug: str
) -> None:
    for op, flags in (("links", []), ("backlinks", ["--backlinks"])):
        status, out, _ = run("links", slug, *flags, "--source", str(sample_brain))
        assert status == 0
        assert ok(brain, "memory_navigate", op=op, slug=slug) == out.splitlines()


def test_every_new_tool_is_listed_with_a_schema() -> None:
    for name in ("find_paths", "best_paths", "explain_links", "graph_stats", "wanted_pages",
                 "find_mentions", "build_context"):  # fmt: skip
        schema = TOOL_SPECS[name]["inputSchema"]
        assert schema["type"] == "object" and TOOL_SPECS[name]["description"]
        assert set(schema.get("required", [])) <= set(schema["properties"])
