"""`okf-explorer walk`: exact rows on a hand-made bundle, the JSON shape, roots by tag and
type, errors, and the same answer from our own `serve` on loopback.

Link mentions by hand (weights: a body link's share of its page's link mentions, 1 for a
stated relation): hub → a ×3 (0.75), b (0.25); a → c (0.5), missing (0.5, dangling),
d (derived_from: 1); b → c (1); c → e (1); d → e (0.5), hub (0.5); e links nowhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bundles import write_bundle
from tests.mcp_server_fixture import serve_bundle

FILES = {
    "hub.md": "# Hub\n[[a]] then [[a]] again, [a](a.md), and [[b]].\n",
    "a.md": "---\ntype: metric\nsources:\n  - id: x\n    resource: /d.md\n---\n"
    "A reads [[c]] and [[missing]].\n",
    "b.md": "B: [[c]]\n",
    "c.md": "C: [[e]]\n",
    "d.md": "---\ntags: [t]\n---\nD: [[e]], [[hub]]\n",
    "e.md": "---\ntype: note\n---\nE.\n",
}

FROM_HUB = """\
1.000\t0\thub\tvia hub
0.750\t1\ta\tvia hub →(0.750) a
0.750\t2\td\tvia hub →(0.750) a →(derived_from 1.000) d
0.375\t2\tc\tvia hub →(0.750) a →(0.500) c
0.375\t3\te\tvia hub →(0.750) a →(0.500) c →(1.000) e
0.250\t1\tb\tvia hub →(0.250) b
"""


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    return write_bundle(tmp_path / "brain", FILES)


def test_walk_prints_the_best_path_of_every_page_by_weight(run, bundle: Path) -> None:
    """e is reached two ways at 0.375 in 3 hops: the path first in code-point order wins."""
    assert run("walk", "--root", "hub", "--source", str(bundle)) == (0, FROM_HUB, "")


def test_min_weight_drops_light_links_and_depth_caps_hops(run, bundle: Path) -> None:
    status, out, _ = run("walk", "--root", "hub", "--min-weight", "0.6", "--source", str(bundle))
    assert (status, out) == (0, "".join(FROM_HUB.splitlines(keepends=True)[:3]))
    status, out, _ = run("walk", "--root", "Hub", "--depth", "1", "--source", str(bundle))
    assert out.splitlines() == ["1.000\t0\thub\tvia hub", "0.750\t1\ta\tvia hub →(0.750) a",
                                "0.250\t1\tb\tvia hub →(0.250) b"]  # fmt: skip


def test_walk_in_follows_links_backwards(run, bundle: Path) -> None:
    status, out, err = run(
        "walk", "--root", "e", "--direction", "in", "--depth", "2", "--source", str(bundle)
    )
    assert (status, err) == (0, "")
    assert out == (
        "1.000\t0\te\tvia e\n"
        "1.000\t1\tc\tvia e ←(1.000) c\n"
        "1.000\t2\tb\tvia e ←(1.000) c ←(1.000) b\n"
        "0.500\t1\td\tvia e ←(0.500) d\n"
        "0.500\t2\ta\tvia e ←(1.000) c ←(0.500) a\n"
    )


def test_roots_by_tag_and_type_keep_weight_one(run, bundle: Path) -> None:
    """d (tag t) and a (type metric) are roots: a stays 1.0 though d… and hub reach it."""
    status, out, _ = run(
        "walk", "--root", "tag:t", "--root", "type:metric", "--depth", "2", "--source", str(bundle)
    )
    assert status == 0
    rows = [line.split("\t")[:3] for line in out.splitlines()]
    assert rows[:2] == [["1.000", "0", "a"], ["1.000", "0", "d"]]
    assert ["1.000", "1", "e"] not in rows and ["0.500", "1", "e"] in rows


def test_json_rows_carry_okf_edge_records_and_their_weights(run, bundle: Path) -> None:
    status, out, _ = run("walk", "--root", "hub", "--json", "--source", str(bundle))
    assert status == 0
    rows = json.loads(out)
    assert [row["slug"] for row in rows] == ["hub", "a", "d", "c", "e", "b"]
    d = rows[2]
    assert list(d) == ["slug", "weight", "hops", "root", "path", "edges", "weights"]
    assert (d["weight"], d["hops"], d["root"], d["path"]) == (0.75, 2, "hub", ["hub", "a", "d"])
    assert d["edges"] == [
        {"type": "edge", "hemisphere": "knowledge", "from": "hub", "to": "a", "rel": "links",
         "direction": "out", "hop": 1},
        {"type": "edge", "hemisphere": "knowledge", "from": "a", "to": "d",
         "rel": "derived_from", "direction": "out", "hop": 2},
    ]  # fmt: skip
    assert d["weights"] == [0.75, 1.0]
    assert rows[0] == {"slug": "hub", "weight": 1.0, "hops": 0, "root": "hub",
                       "path": ["hub"], "edges": [], "weights": []}  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "status", "words"),
    [
        (["--root", "nope"], 1, "no page 'nope'"),
        (["--root", "tag:absent"], 1, "no page has tag 'absent'"),
        (["--root", "type:absent"], 1, "no page has type 'absent'"),
        (["--root", "hub", "--min-weight", "1.5"], 2, "from 0 to 1"),
        (["--root", "hub", "--min-weight", "-0.1"], 2, "from 0 to 1"),
        (["--root", "hub", "--min-weight", "nan"], 2, "from 0 to 1"),
        (["--root", "hub", "--direction", "sideways"], 2, "invalid choice"),
        ([], 2, "--root"),
    ],
)
def test_bad_input_is_one_line(run, bundle: Path, argv, status, words) -> None:
    code, out, err = run("walk", *argv, "--source", str(bundle))
    assert (code, out) == (status, "")
    assert err.count("\n") == 1 and words in err


def test_depth_out_of_range_is_clamped_with_a_note(run, bundle: Path) -> None:
    status, out, err = run("walk", "--root", "hub", "--depth", "99", "--source", str(bundle))
    assert (status, out) == (0, FROM_HUB)
    assert "depth 99 clamped to 10" in err


def test_walk_over_our_server_answers_as_the_folder(run, bundle: Path) -> None:
    folder = run("walk", "--root", "hub", "--json", "--source", str(bundle))
    with serve_bundle(bundle) as server:
        assert run("walk", "--root", "hub", "--source", server.url) == (0, FROM_HUB, "")
        assert run("walk", "--root", "hub", "--json", "--source", server.url) == folder
