"""`--status` / `--min-trust` on `list`, `links`, `export` (`core.okf.filter`), on our
own OKF v0.2 bundle (`okf_bundle`) and on hand-made walks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.okf.filter import (
    FilterError,
    OkfFilter,
    filter_walk,
    parse_statuses,
    parse_trust,
)
from okf_explorer.core.pages import PageInfo
from tests.okf_bundle import frontmatter_info, write_okf_bundle


@pytest.fixture
def okf(tmp_path: Path) -> Path:
    return write_okf_bundle(tmp_path / "okf")


def slugs(out: str) -> list[str]:
    return [line.split("\t", 1)[0] for line in out.splitlines()]


def test_list_keeps_pages_of_the_statuses_asked_for(run, okf: Path) -> None:
    status, out, err = run("list", "--status", "deprecated", "--source", str(okf))
    assert (status, slugs(out), err) == (0, ["tables/billing_old"], "")
    # repeatable or a comma list; an absent status is `stable`
    both = run("list", "--status", "draft", "--status", "stable", "--source", str(okf))[1]
    assert run("list", "--status", "draft,stable", "--source", str(okf))[1] == both
    assert slugs(both) == [
        "computations/churn-rate",
        "index",
        "metrics/churn",
        "notes/plain",
        "tables/billing",
    ]


def test_list_keeps_pages_of_at_least_the_trust_tier(run, okf: Path) -> None:
    human = run("list", "--min-trust", "human-reviewed", "--source", str(okf))[1]
    assert slugs(human) == ["metrics/churn", "tables/billing"]
    machine = run("list", "--min-trust", "machine-confirmed", "--source", str(okf))[1]
    assert slugs(machine) == ["computations/churn-rate", "metrics/churn", "tables/billing"]
    everything = run("list", "--source", str(okf))[1]
    assert run("list", "--min-trust", "unverified", "--source", str(okf))[1] == everything
    both = run("list", "--min-trust", "human-reviewed", "--status", "stable", "--source", str(okf))
    assert slugs(both[1]) == ["tables/billing"]


def test_list_n_counts_the_pages_that_pass(run, okf: Path) -> None:
    out = run("list", "--status", "stable", "-n", "2", "--source", str(okf))[1]
    assert slugs(out) == ["computations/churn-rate", "index"]


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (("--status", "approved"), "unknown status 'approved'"),
        (("--min-trust", "trusted"), "unknown trust tier 'trusted'"),
    ],
)
def test_unknown_values_are_usage_errors(run, okf: Path, args: tuple[str, ...], word: str) -> None:
    for command in (("list",), ("links", "index"), ("export", "index")):
        status, out, err = run(*command, *args, "--source", str(okf))
        assert (status, out) == (2, "")
        assert word in err and err.count("\n") == 1 and "Traceback" not in err


def test_links_keep_edges_between_passing_pages_reached_from_the_root(run, okf: Path) -> None:
    source = ("--source", str(okf))
    assert slugs(run("links", "index", "--depth", "3", *source)[1]) == [
        "metrics/churn",
        "computations/churn-rate",
        "notes/plain",
        "tables/billing",
        "tables/billing_old",
    ]
    # churn is a draft: its edges go, and billing is reached through the computation
    stable = run("links", "index", "--depth", "3", "--status", "stable", *source)[1]
    assert slugs(stable) == ["computations/churn-rate", "notes/plain", "tables/billing"]
    records = json.loads(
        run("links", "index", "--depth", "3", "--status", "stable", "--json", *source)[1]
    )
    assert {(r["from"], r["to"], r["hop"]) for r in records} == {
        ("index", "computations/churn-rate", 1),
        ("index", "notes/plain", 1),
        ("computations/churn-rate", "tables/billing", 2),
    }


def test_the_root_always_passes(run, okf: Path) -> None:
    """A deprecated root still shows its edges to pages that pass."""
    out = run("links", "tables/billing_old", "--status", "stable", "--source", str(okf))[1]
    assert slugs(out) == ["tables/billing"]
    back = run("links", "tables/billing_old", "--backlinks", "--min-trust", "human-reviewed",
               "--source", str(okf))[1]  # fmt: skip
    assert slugs(back) == ["metrics/churn", "tables/billing"]


def test_export_applies_the_same_filter(run, okf: Path, tmp_path: Path) -> None:
    source = ("--source", str(okf))
    shown = run("links", "metrics/churn", "--min-trust", "human-reviewed", "--json", *source)[1]
    exported = run("export", "metrics/churn", "--min-trust", "human-reviewed", *source)[1]
    assert shown == exported
    assert {r["to"] for r in json.loads(exported)} == {"tables/billing"}
    target = tmp_path / "slice.jsonl"
    status, _, err = run(
        "export", "metrics/churn", "--status", "deprecated", "-o", str(target), *source
    )
    assert status == 0 and "exported 1 edge to" in err
    assert json.loads(target.read_text(encoding="utf-8"))["to"] == "tables/billing_old"


def info(slug: str, status: str | None = None, trust: str | None = "unverified") -> PageInfo:
    return PageInfo(slug, slug, okf_status=status, okf_trust=trust)


def test_a_walk_through_a_failing_page_is_renumbered_along_kept_edges() -> None:
    """r → x (draft) → y; r → a → b → y: y is two hops away only through x."""
    edges = [
        Edge("r", "x", 1, "out"),
        Edge("r", "a", 1, "out"),
        Edge("x", "y", 2, "out"),
        Edge("a", "b", 2, "out"),
        Edge("y", "z", 3, "out"),
        Edge("b", "y", 3, "out"),
        Edge("r", "ghost", 1, "in"),
    ]
    pages = {slug: info(slug) for slug in "rayzb"} | {"x": info("x", "draft")}
    keep = OkfFilter(statuses=frozenset({"stable"}))
    kept = filter_walk(edges, "r", 3, keep, pages)
    assert kept == [Edge("r", "a", 1, "out"), Edge("a", "b", 2, "out"), Edge("b", "y", 3, "out")]
    # y is at three hops now: its own edge to z would be a fourth (beyond the depth)
    deeper = filter_walk(edges, "r", 4, keep, pages)
    assert Edge("y", "z", 4, "out") in deeper
    assert filter_walk(edges, "r", 3, OkfFilter(), pages) == edges  # no filter: untouched


def test_typed_edges_keep_their_relation_when_renumbered() -> None:
    edges = [Edge("r", "x", 1, "out"), Edge("x", "y", 2, "out"), Edge.typed("r", "y", 1, "out")]
    edges.append(Edge.typed("y", "z", 2, "out", "derived_from"))
    pages = {"x": info("x", "deprecated"), "y": info("y"), "z": info("z")}
    kept = filter_walk(edges, "r", 2, OkfFilter(frozenset({"stable"})), pages)
    assert [(e.frm, e.to, e.hop, e.rel) for e in kept] == [
        ("r", "y", 1, "links"),
        ("y", "z", 2, "derived_from"),
    ]


def test_parsing() -> None:
    assert parse_statuses(["Draft, stable", "deprecated"]) == {"draft", "stable", "deprecated"}
    assert parse_statuses(None) == frozenset()
    assert parse_trust("Human-Reviewed") == "human-reviewed"
    with pytest.raises(FilterError):
        parse_statuses(["accepted"])
    with pytest.raises(FilterError):
        parse_trust("high")
    assert not OkfFilter(min_trust="unverified").active
    assert OkfFilter(frozenset({"draft"}), "machine-confirmed").describe() == (
        "status draft · trust ≥ machine-confirmed"
    )


def test_a_status_okf_does_not_define_passes_no_status_filter() -> None:
    vault = frontmatter_info({"status": "Done"})  # not an OKF concept
    assert (vault.okf_status, vault.okf_trust) == ("done", None)
    assert not OkfFilter(frozenset({"stable"})).passes(vault)
    odd = info("p", "accepted")
    assert not OkfFilter(frozenset({"stable"})).passes(odd)
    assert OkfFilter(min_trust="unverified").passes(odd)
    assert not OkfFilter(min_trust="machine-confirmed").passes(None)  # a dangling target


def test_filters_over_an_mcp_server_match_the_folder(run, okf: Path) -> None:
    """A server's listing carries no frontmatter: a filter reads it from the scanned pages."""
    from tests.mcp_server_fixture import serve_bundle

    argvs = [
        ("list", "--status", "stable,draft"),
        ("list", "--min-trust", "human-reviewed"),
        ("links", "index", "--depth", "3", "--status", "stable"),
        ("export", "metrics/churn", "--min-trust", "human-reviewed", "--direction", "both"),
    ]
    folder = {argv: run(*argv, "--source", str(okf)) for argv in argvs}
    with serve_bundle(okf) as server:
        for argv, expected in folder.items():
            assert run(*argv, "--source", server.url) == expected, argv
