"""A check run as an unprivileged user, also where the tests run as root (CI does).

Root may write into a folder it made read-only, so a test that a refused write is
refused and reported (`permission denied`) would never run in CI; `unprivileged` runs
it there in a forked child that has become `nobody` (no exec: the interpreter may sit
where `nobody` cannot read it), and re-raises its failure here.
"""

from __future__ import annotations

import codecs
import os
import shutil
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

NOBODY = 65534
REPORT_BYTES = 8000
WARM_CODECS = ("ascii", "utf-8", "latin-1")
"""Codecs looked up before the fork: a lookup imports its module, which `nobody` may not
be allowed to read (CI's interpreter lives under `/root`)."""


def unprivileged(check: Callable[[Path], None]) -> None:
    """`check(folder)`, `folder` a fresh empty folder it owns; as `nobody` when root."""
    folder = Path(tempfile.mkdtemp(prefix="okf-unprivileged-"))
    try:
        if os.geteuid() != 0:
            check(folder)
            return
        os.chown(folder, NOBODY, NOBODY)
        _in_child_as_nobody(check, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _in_child_as_nobody(check: Callable[[Path], None], folder: Path) -> None:
    for encoding in WARM_CODECS:  # `nobody` may not read the standard library's files
        codecs.lookup(encoding)
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the test run
        os.close(reading)
        status = 0
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            check(folder)
        except BaseException:
            os.write(writing, traceback.format_exc().encode()[-REPORT_BYTES:])
            status = 1
        os._exit(status)
    os.close(writing)
    with os.fdopen(reading, "rb") as report:
        failure = report.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, f"as nobody:\n{failure}"
