"""Issue 22 item 5: exporting a huge slice costs little beyond the walk itself.

The slice is one page holding 200,000 links (2.6 MB of `[[t0000000]]`s). Before
streaming, the export built every record, the whole text, its bytes, a read-back
copy and a parsed copy (GraphML: a networkx graph and an ElementTree too). Peak
RSS of `okf-explorer export hub` over `okf-explorer links hub` (the same index and
walk, 116 MB) was, on the 2-core test machine: JSON +320 MB, JSON Lines +118,
DOT +80, GraphML +1,030 (14 s), Mermaid +91; at 1,000,000 links JSON took 2.1 GB
and GraphML 5.4 GB. Streamed (rendered, written, read back and parsed a block at
a time) each format now stays within `MARGIN_MB` of the walk: a node list is all
it adds.

Peaks are the child's own (`VmHWM`, see `mcp_fault_server.run_cli`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mcp_fault_server import run_cli

from okf_explorer.core.export.formats import FORMATS

pytestmark = pytest.mark.slow

LINKS = 200_000
MARGIN_MB = 40.0
"""Above the walk's own peak: the node list and a block (before: 80-1,030 MB)."""

TUI_EXPORT = """
import sys
from pathlib import Path
from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.state.navigator import View
from okf_explorer.tui.state.saving import export_slice

brain = Brain(BundleSource(Path(sys.argv[1])))
edges = brain.traverse("hub", 1, "out")
assert len(edges) == int(sys.argv[3])
if sys.argv[2] != "-":
    export_slice(edges, View("hub", 1, "out"), Path(sys.argv[2]))
for line in open("/proc/self/status", encoding="ascii"):
    if line.startswith("VmHWM:"):
        print(int(line.split()[1]) / 1024)
"""


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The bundle and the environment that shares its index cache (built here once)."""
    work = tmp_path_factory.mktemp("export-memory")
    bundle = work / "bundle"
    bundle.mkdir()
    links = " ".join(f"[[t{n:07d}]]" for n in range(LINKS))
    (bundle / "hub.md").write_text(f"# Hub\n\n{links}\n", encoding="utf-8")
    (bundle / "index.md").write_text("# Index\n\n[[hub]]\n", encoding="utf-8")
    env = {"OKF_EXPLORER_CACHE": str(work / "cache")}
    built = run_cli(["links", "hub", "--source", str(bundle)], env=env, kill_after_s=120)
    assert built.status == 0, built.stderr
    return bundle, env


@pytest.fixture(scope="module")
def walk_peak_mb(hub: tuple[Path, dict[str, str]]) -> float:
    bundle, env = hub
    run = run_cli(["links", "hub", "--source", str(bundle)], env=env, kill_after_s=120)
    assert run.status == 0 and len(run.stdout.splitlines()) == LINKS
    return run.peak_rss_mb


@pytest.mark.parametrize("fmt", FORMATS)
def test_exporting_a_huge_slice_costs_little_beyond_its_walk(
    hub: tuple[Path, dict[str, str]], walk_peak_mb: float, fmt: str, tmp_path: Path
) -> None:
    bundle, env = hub
    out = tmp_path / f"slice.{fmt}"
    argv = ["export", "hub", "--format", fmt, "-o", str(out), "--source", str(bundle)]
    run = run_cli(argv, env=env, kill_after_s=120)
    assert run.status == 0, run.stderr
    assert run.stderr.splitlines() == [f"okf-explorer: exported {LINKS} edges to {out}"]
    assert run.peak_rss_mb < walk_peak_mb + MARGIN_MB, (run.peak_rss_mb, walk_peak_mb)


def test_the_explorers_e_streams_too(hub: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bundle, env = hub

    def peak(folder: str) -> float:
        done = subprocess.run(
            [sys.executable, "-c", TUI_EXPORT, str(bundle), folder, str(LINKS)],
            capture_output=True,
            text=True,
            env={**_environ(), **env},
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return float(done.stdout)

    walked, exported = peak("-"), peak(str(tmp_path))
    (written,) = tmp_path.iterdir()
    assert written.name == "okf-hub-d1-out.json"
    assert exported < walked + MARGIN_MB, (exported, walked)


def _environ() -> dict[str, str]:
    import os

    return dict(os.environ)
