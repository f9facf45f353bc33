"""The non-UI fast paths answer as the plain paths do, and `OKF_EXPLORER_PLAIN=1` turns them off.

- `fast_paths.gc_paused` (index build, deep walks): the same answers with the collector
  on, the collector off only meanwhile and only when fast paths are on;
- `fast_paths.freeze_survivors`: freezes only when fast paths are on;
- `fast_httpx`: the same httpx, with its CLI stubbed only when fast paths are on.

(the Markdown engine's drawing is tested in tests/tui/test_one_look.py, `fast_yaml` in
tests/test_fast_yaml.py.)
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core import fast_paths
from okf_explorer.core.fast_paths import freeze_survivors, gc_paused
from okf_explorer.core.graph.traverse import Neighbours, traverse_with
from okf_explorer.core.index.build import build_index
from okf_explorer.sources.folder.bundle import BundleSource

pytestmark = pytest.mark.plain

NODES = [f"p{i}" for i in range(8)]
graphs = st.dictionaries(
    keys=st.sampled_from(NODES),
    values=st.lists(st.sampled_from(NODES), unique=True, max_size=5).map(tuple),
    max_size=8,
)


def set_plain(plain: bool) -> None:
    os.environ[fast_paths.PLAIN_ENV] = "1" if plain else "0"


@pytest.fixture(autouse=True)
def restore_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test flips the switch through the environment; monkeypatch puts it back."""
    monkeypatch.setenv(fast_paths.PLAIN_ENV, os.environ.get(fast_paths.PLAIN_ENV, ""))


def test_the_switch_reads_the_environment_at_call_time(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, enabled in [("", True), ("0", True), ("1", False), ("yes", False)]:
        monkeypatch.setenv(fast_paths.PLAIN_ENV, value)
        assert fast_paths.enabled() is enabled


def recording(adjacency: Mapping[str, Sequence[str]], seen: list[bool]) -> Neighbours:
    """Neighbours from `adjacency`, noting in `seen` whether the collector was on."""

    def neighbours(node: str) -> tuple[str, ...]:
        seen.append(gc.isenabled())
        return tuple(adjacency.get(node, ()))

    return neighbours


@settings(max_examples=60, deadline=None)
@given(graphs, st.sampled_from(NODES), st.integers(0, 10), st.sampled_from(["out", "in", "both"]))
def test_walk_answers_the_same_with_the_collector_paused_or_not(
    out: dict[str, tuple[str, ...]], root: str, depth: int, direction: str
) -> None:
    back: dict[str, list[str]] = {}
    for frm, targets in out.items():
        for to in targets:
            back.setdefault(to, []).append(frm)
    answers, collecting = {}, {}
    for plain in (False, True):
        set_plain(plain)
        seen: list[bool] = []
        out_n, in_n = recording(out, seen), recording(back, seen)
        answers[plain] = traverse_with(root, depth, direction, out_n, in_n)
        collecting[plain] = set(seen)
        assert gc.isenabled()
    assert answers[False] == answers[True]
    assert collecting[False] <= {False} and collecting[True] <= {True}


def test_index_build_answers_the_same_with_the_collector_paused_or_not(tmp_path: Path) -> None:
    for number in range(12):
        links = " ".join(f"[[p{(number * 3 + k) % 12}]]" for k in range(3))
        (tmp_path / f"p{number}.md").write_text(f"---\ntitle: P {number}\n---\n{links} [[gone]]\n")
    indexes = {}
    for plain in (False, True):
        set_plain(plain)
        indexes[plain] = build_index(BundleSource(tmp_path), cache=False)
        assert gc.isenabled()
    fast, slow = indexes[False], indexes[True]
    assert fast.pages == slow.pages and fast.forward == slow.forward
    assert fast.reverse == slow.reverse and fast.targets == slow.targets


def test_gc_paused_leaves_a_disabled_collector_to_its_owner() -> None:
    set_plain(False)
    gc.disable()
    try:
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # not ours to turn back on
    finally:
        gc.enable()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_freeze_survivors_freezes_only_with_fast_paths_on() -> None:
    gc.unfreeze()
    try:
        set_plain(True)
        freeze_survivors()
        assert gc.get_freeze_count() == 0
        set_plain(False)
        freeze_survivors()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("plain", [False, True])
def test_an_index_build_freezes_what_it_built_only_with_fast_paths_on(
    plain: bool, tmp_path: Path
) -> None:
    """After a build no collection walks the index again: it is frozen (fast paths)."""
    (tmp_path / "a.md").write_text("[[b]]", encoding="utf-8")
    (tmp_path / "b.md").write_text("b", encoding="utf-8")
    gc.unfreeze()
    try:
        set_plain(plain)
        index = build_index(BundleSource(str(tmp_path)), cache=False)
        frozen = gc.get_freeze_count()
        assert (frozen == 0) if plain else (frozen > 0)
        assert index.pages and gc.isenabled()
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("plain", [False, True])
def test_fast_httpx_is_httpx_with_its_cli_stubbed_only_when_fast(plain: bool) -> None:
    code = (
        "import json, sys\n"
        "from okf_explorer.sources.gbrain.fast_httpx import httpx\n"
        "import httpx as library\n"
        "print(json.dumps([httpx is library, sys.modules.get('httpx._main') is None,"
        " 'rich' in sys.modules, httpx.Client is library.Client]))\n"
    )
    env = {**os.environ, fast_paths.PLAIN_ENV: "1" if plain else "0"}
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    same, stubbed, rich_loaded, same_client = json.loads(result.stdout)
    assert same and same_client
    assert stubbed is not plain and (rich_loaded if plain else not rich_loaded)
