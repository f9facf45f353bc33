"""The plain pass: `OKF_EXPLORER_PLAIN=1 pytest -m plain` (`.ci/run`) runs the tests marked
`plain` with every fast path off, so the library paths alone must pass them too.

It also fails unless every fast path in `core.fast_paths.FAST_PATHS` read its switch
during the pass: a fast path no `plain` test reaches is a library path no test runs, and
the marker list would have gone stale. (What is counted is the module that called
`fast_paths.enabled()` in the test process; under xdist each worker reports its own.)
"""

from __future__ import annotations

import sys
from pathlib import PurePosixPath
from typing import Any

import pytest

PLAIN_MARK = "plain"
_ASKED = pytest.StashKey[set[str]]()
"""The modules that asked for the switch during this pass (dotted names)."""


def is_plain_pass(config: pytest.Config) -> bool:
    from okf_explorer.core import fast_paths

    return not fast_paths.enabled() and config.getoption("markexpr", "") == PLAIN_MARK


def pytest_configure(config: pytest.Config) -> None:
    if not is_plain_pass(config):
        return
    from okf_explorer.core import fast_paths

    asked: set[str] = set()
    real = fast_paths.enabled

    def noting_the_caller() -> bool:
        asked.add(sys._getframe(1).f_globals.get("__name__", "?"))
        return real()

    fast_paths.enabled = noting_the_caller
    config.stash[_ASKED] = asked


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist: a worker's modules come back to the controller."""
    asked = node.config.stash.get(_ASKED, None)
    if asked is not None:
        asked.update(node.workeroutput.get("fast_paths_asked", ()))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    asked = config.stash.get(_ASKED, None)
    if asked is None:
        return
    if hasattr(config, "workeroutput"):  # an xdist worker: the controller judges
        config.workeroutput["fast_paths_asked"] = sorted(asked)
        return
    if exitstatus != 0:
        return
    missing = [path for path in _listed_modules() if path not in asked]
    if missing:
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        text = (
            "plain pass: no test marked `plain` reached these fast paths, so their library "
            f"path went untested: {', '.join(missing)}"
        )
        if reporter is not None:
            reporter.write("\n")
            reporter.write_line(text, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _listed_modules() -> list[str]:
    """The dotted names of `FAST_PATHS`' modules."""
    from okf_explorer.core.fast_paths import FAST_PATHS

    return [
        "okf_explorer." + ".".join(PurePosixPath(entry.module).with_suffix("").parts)
        for entry in FAST_PATHS
    ]
