"""`okf-explorer stats`: exact output on a hand-made bundle, the sample brain's known
findings, the JSON keys, and the same answer over MCP from our own server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from okf_explorer.cli.commands.graph import stats_text
from okf_explorer.core.graph.analysis import BrainStats
from tests.bundles import write_pages
from tests.mcp_server_fixture import serve_bundle

# Links by hand: index → a, b; a → b, c, nowhere, a (itself); b → c, a, nowhere;
# lonely → c; sub/log → ghost; c links nowhere; broken is not UTF-8. An OKF bundle (most
# pages state a type), so index and sub/log are reserved.
TYPED = "---\ntype: Note\n---\n"
PAGES = {
    "index": "# Home\n[[a]] and [[b]]\n",
    "a": TYPED + "A: [[b]], [[c]], [[nowhere]] and [[a]] again, [[b]] twice.\n",
    "b": TYPED + "B: [[c]], [[a]], [[nowhere]].\n",
    "c": TYPED + "C links nowhere.\n",
    "lonely": TYPED + "Nobody links here; [[c]].\n",
    "sub/log": "- went to [[ghost]]\n",
}

EXPECTED = """\
pages: 7
readable: 6
unreadable: 1
reserved: 2
links: 11
dangling targets: 2
ambiguous links: 0

hubs by links in (3):
  3 c
  2 a
  2 b

hubs by links out (4):
  2 a
  2 b
  2 index
  1 lonely

orphans (2):
  broken
  lonely

dead ends (1):
  c

dangling targets (2):
  ghost
    sub/log
  nowhere
    a
    b

dangling targets that look like pages (0):
"""

JSON_KEYS = ["counts", "hubs", "orphans", "dead_ends", "dangling", "look_alikes"]
COUNT_KEYS = [
    "pages",
    "readable",
    "unreadable",
    "reserved",
    "links",
    "dangling_targets",
    "ambiguous_links",
]


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    root = write_pages(tmp_path / "brain", PAGES)
    (root / "broken.md").write_bytes(b"caf\xe9 [[a]]\n")
    return root


def test_stats_text_is_exact(run, bundle: Path) -> None:
    assert run("stats", "--source", str(bundle)) == (0, EXPECTED, "")
    assert run("--source", str(bundle), "stats") == (0, EXPECTED, "")


def test_stats_json_is_the_same_findings(run, bundle: Path) -> None:
    status, out, err = run("stats", "--json", "--source", str(bundle))
    assert (status, err) == (0, "")
    found = json.loads(out)
    assert list(found) == JSON_KEYS
    assert found["counts"] == dict(zip(COUNT_KEYS, [7, 6, 1, 2, 11, 2, 0], strict=True))
    assert found["hubs"] == {
        "in": [{"slug": "c", "degree": 3}, {"slug": "a", "degree": 2}, {"slug": "b", "degree": 2}],
        "out": [
            {"slug": "a", "degree": 2},
            {"slug": "b", "degree": 2},
            {"slug": "index", "degree": 2},
            {"slug": "lonely", "degree": 1},
        ],
    }
    assert found["orphans"] == ["broken", "lonely"]
    assert found["dead_ends"] == ["c"]
    assert found["dangling"] == {"ghost": ["sub/log"], "nowhere": ["a", "b"]}


def test_stats_of_a_brain_without_links(run, tmp_path: Path) -> None:
    root = write_pages(tmp_path / "one", {"only": "No links at all.\n"})
    expected = (
        "pages: 1\nreadable: 1\nunreadable: 0\nreserved: 0\nlinks: 0\n"
        "dangling targets: 0\nambiguous links: 0\n\n"
        "hubs by links in (0):\n\nhubs by links out (0):\n\n"
        "orphans (1):\n  only\n\ndead ends (1):\n  only\n\ndangling targets (0):\n"
        "\ndangling targets that look like pages (0):\n"
    )
    assert run("stats", "--source", str(root)) == (0, expected, "")


def test_dangling_targets_with_look_alike_characters_name_the_page_they_look_like(
    run, tmp_path: Path
) -> None:
    """Seen on an LLM-written security vault: 36 dangling targets were page names written
    with a non-breaking hyphen, an en dash or a narrow no-break space, and looked, printed,
    exactly like the pages they missed. They still dangle (as in Obsidian); a section of
    their own names each page and what differs, and `--json` has them as `look_alikes`."""
    pages = {
        "cve/one": "See [[CWE\u2011788]], [[OWASP\u202fTop 10]] and [[Nowhere]].\n",
        "cve/two": "Also [[CWE\u2011788]].\n",
        "concepts/CWE-788": "# CWE-788\n",
        "concepts/OWASP Top 10": "# OWASP Top 10\n",
    }
    root = write_pages(tmp_path / "vault", pages)
    status, out, err = run("stats", "--source", str(root))
    assert (status, err) == (0, "")
    assert "dangling targets: 3\n" in out
    assert out.endswith(
        "dangling targets that look like pages (2):\n"
        '  CWE\u2011788 → concepts/CWE-788  (U+2011 NON-BREAKING HYPHEN for "-")\n'
        '  OWASP\u202fTop 10 → concepts/OWASP Top 10  (U+202F NARROW NO-BREAK SPACE for " ")\n'
    )
    found = json.loads(run("stats", "--json", "--source", str(root))[1])
    assert found["look_alikes"] == {
        "CWE\u2011788": {
            "page": "concepts/CWE-788",
            "writes": ['U+2011 NON-BREAKING HYPHEN for "-"'],
        },
        "OWASP\u202fTop 10": {
            "page": "concepts/OWASP Top 10",
            "writes": ['U+202F NARROW NO-BREAK SPACE for " "'],
        },
    }


def test_hub_degrees_are_right_aligned_per_section() -> None:
    stats = BrainStats(
        pages=3, readable=3, unreadable=0, reserved=0, links=0, dangling_targets=0,
        ambiguous_links=0, hubs_in=(("big", 12), ("small", 3)), hubs_out=(("x", 5),),
        orphans=(), dead_ends=(), dangling=(),
    )  # fmt: skip
    text = stats_text(stats)
    assert "hubs by links in (2):\n  12 big\n   3 small\n" in text
    assert "hubs by links out (1):\n  5 x\n" in text


def test_stats_of_the_sample_brain(run, sample_brain: Path) -> None:
    status, out, err = run("stats", "--source", str(sample_brain))
    assert (status, err) == (0, "")
    sections = out.split("\n\n")
    assert sections[0].startswith("pages: 59\n")
    assert "\ndangling targets: 4\n" in sections[0]
    assert sections[1].splitlines()[:2] == ["hubs by links in (10):", "  35 tables/orders"]
    assert sections[3] == "orphans (1):\n  glossary/legacy-pos"
    assert sections[4] == "dead ends (1):\n  glossary/sku"
    assert sections[5].startswith("dangling targets (4):\n")
    found = json.loads(run("stats", "--json", "--source", str(sample_brain))[1])
    assert found["hubs"]["in"][0] == {"slug": "tables/orders", "degree": 35}
    assert len(found["hubs"]["in"]) == len(found["hubs"]["out"]) == 10
    assert found["orphans"] == ["glossary/legacy-pos"]
    assert found["dead_ends"] == ["glossary/sku"]
    assert len(found["dangling"]) == found["counts"]["dangling_targets"] == 4


def test_stats_over_mcp_match_the_folder(run, bundle: Path) -> None:
    """Over MCP the analyses use the index built from a scan of the server's bodies,
    with or without the server's stored graph (it keeps no dangling targets)."""
    (bundle / "broken.md").unlink()  # a server cannot hand back a page it cannot decode
    folder = run("stats", "--source", str(bundle))
    folder_json = run("stats", "--json", "--source", str(bundle))
    assert folder[0] == 0 and "dangling targets (2):\n  ghost\n" in folder[1]
    with serve_bundle(bundle) as server:
        assert run("stats", "--source", server.url) == folder
        assert run("stats", "--json", "--scan", "--source", server.url) == folder_json


def test_stats_errors_are_one_line(run, tmp_path: Path) -> None:
    status, out, err = run("stats", "--source", str(tmp_path / "absent"))
    assert (status, out) == (1, "")
    assert err.count("\n") == 1 and "unreachable" in err
    status, out, err = run("stats", "extra")
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "unrecognized arguments" in err


@pytest.mark.parametrize("terminal", [True, False])
def test_a_long_index_build_on_a_terminal_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run, terminal: bool
) -> None:
    """A 35k-page wiki's first command took 10 s in silence: on a terminal an index build
    scanning `LONG_SCAN` pages or more says so in one line on stderr; a script hears
    nothing, and a later run (the cache read) neither."""
    import sys

    from okf_explorer.cli import commands

    monkeypatch.setattr(commands, "LONG_SCAN", 3)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal)
    root = write_pages(tmp_path / "b", {f"p{i}": f"# P{i}\n\n[[p0]]\n" for i in range(4)})
    status, out, err = run("--source", str(root), "stats")
    assert status == 0 and out.startswith("pages: 4")
    said = "okf-explorer: indexing 4 pages, once (later runs read only what changed)\n"
    assert err == (said if terminal else "")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal)
    assert run("--source", str(root), "stats")[2] == ""
