"""Hostile frontmatter (issue 7, item 1): alias bombs, an alias inside its own
anchor, deep nesting and an over-size block are refused with a one-line error
on every path (list, links, export, get --json, serve's get_page, the parallel
scan workers), in bounded time and memory; the page stays listed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.frontmatter import (
    MAX_ALIAS_EXPANSION,
    MAX_FRONTMATTER_BYTES,
    MAX_FRONTMATTER_DEPTH,
    _collection_bound,
    split_frontmatter,
)
from tests.bundles import write_pages
from tests.mcp_server_fixture import stdio_session

pytestmark = pytest.mark.plain

PEAK_RSS_BOUND_MB = 300
"""Generous: a normal run of these commands peaks well under 100 MB."""

RUN_TIMEOUT = 120.0
"""Seconds a command may take on the shared, loaded test machine (it takes about one)."""


def laughs(last_key: str) -> str:
    """A ~350-byte "billion laughs" page: nine anchors, each nine aliases of the one
    before, so `*i` stands for 9**9 strings; `last_key` holds it."""
    lines = ["a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]"]
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    return "---\n" + "\n".join(lines) + f"\n{last_key}: *i\n---\n# Laughs\nSee [[plain]].\n"


HOSTILE = {
    "bomb-tags": laughs("tags"),
    "bomb-description": laughs("description"),
    "self-alias": "---\na: &a [*a]\ntitle: Self\n---\nSee [[plain]].\n",
    "deep": "---\na: " + "[" * 10_000 + "]" * 10_000 + "\n---\nSee [[plain]].\n",
    "oversize": "---\ndescription: " + "x" * (MAX_FRONTMATTER_BYTES + 10) + "\n---\n[[plain]]\n",
}
REASONS = {
    "bomb-tags": f"its aliases expand to more than {MAX_ALIAS_EXPANSION:,} values",
    "bomb-description": f"its aliases expand to more than {MAX_ALIAS_EXPANSION:,} values",
    "self-alias": "an alias refers to the node that holds it",
    "deep": "",  # libyaml's own nesting limit or ours, depending on the parser
    "oversize": f"it is larger than {MAX_FRONTMATTER_BYTES // 1024} KiB",
}


def write_bundle(root: Path, filler: int = 0) -> Path:
    """The hostile pages, a plain page they link to, and `filler` ordinary pages."""
    fillers = {f"filler-{i:05d}": f"---\ntags: [f]\n---\n[[plain]] {i}\n" for i in range(filler)}
    return write_pages(root, {**HOSTILE, "plain": "# Plain\n", **fillers})


def test_the_laughs_pages_are_a_few_hundred_bytes() -> None:
    assert len(HOSTILE["bomb-tags"]) < 400 and len(HOSTILE["bomb-description"]) < 400


@pytest.mark.parametrize("slug", sorted(HOSTILE))
def test_refused_frontmatter_keeps_the_page_with_one_line_error(slug: str) -> None:
    frontmatter, body, error = split_frontmatter(HOSTILE[slug])
    assert frontmatter == {}
    assert "[[plain]]" in body
    assert error is not None and error.startswith("frontmatter ignored: ")
    assert REASONS[slug] in error and "\n" not in error and len(error) < 200


def test_nesting_deeper_than_the_cap_is_refused_and_the_cap_itself_is_not() -> None:
    def nested(levels: int) -> str:  # the top mapping is level 1
        return "---\na: " + "[" * (levels - 1) + "]" * (levels - 1) + "\n---\n"

    assert split_frontmatter(nested(MAX_FRONTMATTER_DEPTH))[2] is None
    error = split_frontmatter(nested(MAX_FRONTMATTER_DEPTH + 1))[2]
    assert error == f"frontmatter ignored: it nests deeper than {MAX_FRONTMATTER_DEPTH} levels"


def test_aliases_deeper_through_reuse_count_their_expanded_depth() -> None:
    half = MAX_FRONTMATTER_DEPTH // 2 + 1
    text = f"---\na: &a {'[' * half}{']' * half}\nb: {'[' * half}*a{']' * half}\n---\n"
    assert "nests deeper" in (split_frontmatter(text)[2] or "")


def height(value: object) -> int:
    """Levels of lists and mappings in a value."""
    if isinstance(value, list):
        return 1 + max(map(height, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(height, value.values()), default=0)
    return 0


VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=40,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(value=st.dictionaries(st.text(max_size=4), VALUES, max_size=4), flow=st.booleans())
def test_the_cheap_depth_bound_is_an_upper_bound(value: dict, flow: bool) -> None:
    """Blocks without aliases skip the node walk when this bound is within the cap."""
    text = yaml.safe_dump(value, default_flow_style=flow, allow_unicode=True)
    assert _collection_bound(text) >= height(yaml.safe_load(text))


def test_ordinary_anchors_and_merge_keys_still_work() -> None:
    text = (
        "---\nbase: &b {kind: x, n: 1}\nthing:\n  <<: *b\n  n: 2\ntags: &t [a, b]\nalso: *t\n---\n"
    )
    frontmatter, _, error = split_frontmatter(text)
    assert error is None
    assert frontmatter["thing"] == {"kind": "x", "n": 2} and frontmatter["also"] == ["a", "b"]


def test_get_page_and_scan_list_every_hostile_page(tmp_path: Path) -> None:
    # In-process: make sure first that no page expands, or a regression would balloon pytest.
    assert all(split_frontmatter(text)[0] == {} for text in HOSTILE.values())
    source = BundleSource(write_bundle(tmp_path / "b"))
    scanned = {s.info.slug: s for s in source.scan(source.enumerate())}
    for slug in HOSTILE:
        page = source.get_page(slug)
        assert page.readable and page.frontmatter == {} and page.tags == ()
        assert page.error is not None and page.error.startswith("frontmatter ignored: ")
        assert scanned[slug].info.error == page.error
        assert [link.target for link in scanned[slug].links] == ["plain"]


MEASURE = """
import json, resource, subprocess, sys
limit = 2 * 1024**3  # a safety net for the machine if the bound is broken
def cap():
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):  # not settable here: the timeout still bounds the run
        pass
argv, stdin, timeout = json.loads(sys.argv[1])
try:
    done = subprocess.run(argv, input=stdin.encode(), capture_output=True,
                          timeout=timeout, preexec_fn=cap)
    code, out, err = done.returncode, done.stdout.decode(), done.stderr.decode()
except subprocess.TimeoutExpired:
    code, out, err = "timeout", "", ""
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"code": code, "out": out, "err": err, "peak_kb": peak}))
"""


def run_measured(cache: Path, *args: str, stdin: str = "") -> tuple[str, str]:
    """Run the CLI in a child of a fresh Python (so RUSAGE_CHILDREN is the CLI's own
    peak, workers included); assert it ended in time, exit 0, within the RSS bound."""
    argv = [sys.executable, "-m", "okf_explorer", *args]
    env = {**os.environ, "OKF_EXPLORER_CACHE": str(cache)}
    wrapper = subprocess.run(
        [sys.executable, "-c", MEASURE, json.dumps([argv, stdin, RUN_TIMEOUT])],
        capture_output=True,
        text=True,
        env=env,
        timeout=RUN_TIMEOUT + 30,
        check=True,
    )
    result = json.loads(wrapper.stdout)
    assert result["code"] == 0, (args, result["code"], result["err"][-2000:])
    peak_mb = result["peak_kb"] / 1024
    assert peak_mb < PEAK_RSS_BOUND_MB, (args, peak_mb)
    return result["out"], result["err"]


@pytest.fixture(scope="module")
def hostile_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_bundle(tmp_path_factory.mktemp("hostile") / "bundle")


def assert_listed_with_errors(listing_json: str) -> None:
    rows = {row["slug"]: row for row in json.loads(listing_json)}
    for slug in HOSTILE:
        assert rows[slug]["readable"] is True
        assert rows[slug]["error"].startswith("frontmatter ignored: "), rows[slug]
        assert REASONS[slug] in rows[slug]["error"]


@pytest.mark.slow
def test_cli_list_links_export_get_stay_bounded(hostile_bundle: Path, tmp_path: Path) -> None:
    source = ("--source", str(hostile_bundle))
    out, err = run_measured(tmp_path, "list", "--json", *source)
    assert_listed_with_errors(out)
    assert err == ""
    for slug in HOSTILE:
        out, _ = run_measured(tmp_path, "links", slug, *source)
        assert out.split() == ["plain"]
        out, _ = run_measured(tmp_path, "links", "plain", "--direction", "in", *source)
        assert set(HOSTILE) <= set(out.split())
        out, err = run_measured(tmp_path, "get", slug, "--json", *source)
        page = json.loads(out)
        assert page["frontmatter"] == {} and page["tags"] == [] and err == ""
        assert page["error"].startswith("frontmatter ignored: ")
    out, _ = run_measured(tmp_path, "export", "plain", "--direction", "in", *source)
    assert {edge["to"] for edge in json.loads(out)} >= set(HOSTILE)


@pytest.mark.slow
def test_cli_list_through_the_parallel_scan_workers(tmp_path: Path) -> None:
    from okf_explorer.sources.folder.scan import PARALLEL_THRESHOLD

    bundle = write_bundle(tmp_path / "big", filler=PARALLEL_THRESHOLD)
    out, _ = run_measured(tmp_path / "cache", "list", "--json", "--source", str(bundle))
    assert_listed_with_errors(out)


def test_serve_start_up_and_get_page_stay_bounded(hostile_bundle: Path, tmp_path: Path) -> None:
    calls = [{"name": "get_page", "arguments": {"slug": slug}} for slug in HOSTILE]
    calls.append({"name": "list_pages", "arguments": {"limit": 100}})
    out, err = run_measured(
        tmp_path, "serve", str(hostile_bundle), "--stdio", stdin=stdio_session(*calls)
    )
    replies = {reply["id"]: reply for reply in map(json.loads, out.splitlines())}
    for number, slug in enumerate(HOSTILE, start=1):
        result = replies[number]["result"]
        assert not result.get("isError"), result
        page = json.loads(result["content"][0]["text"])
        assert page["slug"] == slug and page["frontmatter"] == {}  # gbrain's shape has no error
    listed = json.loads(replies[len(calls)]["result"]["content"][0]["text"])
    assert set(HOSTILE) <= {row["slug"] for row in listed}
    assert "Traceback" not in err and len(err) < 5000, err[-2000:]
