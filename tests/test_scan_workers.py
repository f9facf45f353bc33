"""Scan workers end with the process that started them and never hold its stdout.

A caller on its way out (a signal to `serve --stdio` while it indexed) kills its
workers, but one still being started then is not yet known to it: that worker lived
on, waiting for chunks, holding the stdout pipe, and the stdio client waited forever
for the end of the replies (one CI run in a few). The caller here leaves without
any shutdown at all, the worst case, for both ways workers are started."""

from __future__ import annotations

import subprocess
import sys

import pytest

CALLER = """
import os, sys
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
from okf_explorer.sources.folder import scan

pool = ProcessPoolExecutor(
    max_workers=2,
    mp_context=multiprocessing.get_context(sys.argv[1]),
    initializer=scan._start_worker,
    initargs=(None,),
)
list(pool.map(abs, range(8)))  # both workers are up and waiting for more
print("started", flush=True)
os._exit(0)  # no shutdown, no kill: the workers are on their own
"""


@pytest.mark.parametrize("start", ["fork", "forkserver"])
def test_workers_end_with_their_caller_and_let_go_of_its_stdout(start: str) -> None:
    caller = subprocess.Popen(
        [sys.executable, "-c", CALLER, start], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        out, err = caller.communicate(timeout=30)  # returns once no process holds the pipe
    except subprocess.TimeoutExpired:
        caller.kill()
        pytest.fail("a worker outlived its caller holding the caller's stdout")
    assert out == b"started\n", err
