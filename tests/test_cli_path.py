"""Issue 13 §1: `okf-explorer path A B` — text and `--json` output, names resolved like
`get`, one-line errors; over a folder and over our own `serve` on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mcp_server_fixture import ServerHandle, serve_bundle
from tests.path_bundle import make_path_bundle


@pytest.fixture
def bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OKF_EXPLORER_CACHE", str(tmp_path / "cache"))
    return make_path_bundle(tmp_path / "b")


def edge(frm: str, to: str, hop: int, direction: str = "out", rel: str = "links") -> dict:
    return {
        "type": "edge",
        "hemisphere": "knowledge",
        "from": frm,
        "to": to,
        "rel": rel,
        "direction": direction,
        "hop": hop,
    }


TWO_PATHS = """\
path 1 · 2 hops · via hub hub
  a ─links→ hub  (exact)  "First see hub."
  hub ─links→ d  (exact)  "The hub reaches d."

path 2 · 3 hops
  a ─links→ b  (exact)  "Then b is next."
  b ─links→ m  (exact)  "B leads to m."
  m ─links→ d  (exact)  "M goes to d."
"""


def test_text_is_one_block_per_path(run, bundle: Path) -> None:
    assert run("path", "a", "d", "--k", "2", "--source", str(bundle)) == (0, TWO_PATHS, "")
    # global options before the command, names resolved like `get` (case)
    assert run("--source", str(bundle), "path", "A", "D", "--k=2")[1] == TWO_PATHS


def test_text_marks_hops_walked_against_the_link(run, bundle: Path) -> None:
    status, out, _ = run(
        "path", "m", "c", "--direction", "any", "--k", "1", "--source", str(bundle)
    )
    assert status == 0
    assert out.splitlines() == [
        "path 1 · 3 hops",
        '  m ←links─ b  (exact)  "B leads to m."',
        '  b ←links─ a  (exact)  "Then b is next."',
        '  a ─links→ c  (path)  "Also the c page and x."',
    ]


def test_json_is_edge_records_and_hop_details(run, bundle: Path) -> None:
    status, out, err = run("path", "d", "a", "--direction", "in", "--json", "--source", str(bundle))
    assert (status, err) == (0, "")
    first = json.loads(out)[0]
    assert list(first) == ["path", "via_hub", "edges", "hops"]
    assert first["path"] == 1 and first["via_hub"] == ["hub"]
    assert first["edges"] == [edge("d", "hub", 1, "in"), edge("hub", "a", 2, "in")]
    assert [list(record) for record in first["edges"]] == [list(edge("x", "y", 1))] * 2
    assert first["hops"] == [
        {
            "written_on": "hub",
            "written": "[[d]]",
            "rule": "exact",
            "ambiguous": False,
            "context": "The hub reaches d.",
        },
        {
            "written_on": "a",
            "written": "[[hub]]",
            "rule": "exact",
            "ambiguous": False,
            "context": "First see hub.",
        },
    ]


def test_avoid_and_rel(run, bundle: Path) -> None:
    status, out, _ = run(
        "path", "a", "d", "--avoid", "hubs", "--avoid", "B", "--json", "--source", str(bundle)
    )
    assert status == 0
    assert [p["edges"][0]["to"] for p in json.loads(out)] == ["c", "x"]
    status, out, _ = run(
        "path", "b", "e", "--rel", "derived_from", "--json", "--source", str(bundle)
    )
    (typed,) = json.loads(out)
    assert typed["edges"] == [edge("b", "e", 1, rel="derived_from")]
    assert typed["hops"][0]["context"] is None


def test_no_path_is_one_line_and_exit_1(run, bundle: Path) -> None:
    status, out, err = run("path", "d", "a", "--source", str(bundle))
    assert (status, out) == (1, "")
    assert err == "okf-explorer: no path from d to a (within direction out · ≤ 10 hops)\n"
    status, _, err = run("path", "q", "a", "--avoid", "reserved", "--source", str(bundle))
    assert status == 1 and "avoid reserved" in err
    status, _, err = run("path", "b", "e", "--rel", "nope", "--source", str(bundle))
    assert status == 1 and "no edge has relation nope" in err and err.count("\n") == 2


def test_unknown_pages_and_bad_arguments(run, bundle: Path) -> None:
    status, _, err = run("path", "a", "hubb", "--source", str(bundle))
    assert status == 1 and err.startswith("okf-explorer: no page 'hubb'") and "hub" in err
    status, _, err = run("path", "a", "d", "--avoid", "nowhere", "--source", str(bundle))
    assert status == 1 and "no page 'nowhere'" in err
    status, _, err = run("path", "a", "d", "--direction", "both", "--source", str(bundle))
    assert status == 2 and err.count("\n") == 1
    status, out, err = run("path", "a", "d", "--k", "99", "--source", str(bundle))
    assert status == 0 and "--k 99 clamped to 20" in err
    assert "path 5 ·" in out and "path 6" not in out  # every path there is


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerHandle]:
    root = make_path_bundle(tmp_path_factory.mktemp("paths") / "b")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OKF_EXPLORER_CACHE", str(tmp_path_factory.mktemp("server-cache")))
        with serve_bundle(root) as handle:
            yield handle


def test_path_over_an_mcp_source(run, server: ServerHandle, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OKF_EXPLORER_CACHE", str(tmp_path / "client-cache"))
    assert run("path", "a", "d", "--k", "2", "--source", server.url) == (0, TWO_PATHS, "")
    status, _, err = run("path", "d", "a", "--source", server.url)
    assert status == 1 and "no path from d to a" in err
