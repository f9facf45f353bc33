"""`q` quits at once (`tui/fast_quit.py`), but never while something writes.

In Pilot the app decides whether the quit may be quick; in a real terminal (a pty) the
process ends with the terminal restored and exit status 0.
"""

from __future__ import annotations

import asyncio
import os
import pty
import select
import struct
import sys
import time
from pathlib import Path

import pytest

from okf_explorer.core import fast_paths
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.fast_quit import MOUSE_OFF, QuickQuit, threads_that_may_write

from .conftest import SIZE, brain_for, settle

pytestmark = pytest.mark.plain  # the plain pass: the quit takes Textual's own way

EXPLORER = Path(sys.executable).parent / "okf-explorer"


async def test_q_with_nothing_writing_quits_at_once(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
    assert isinstance(app, QuickQuit)
    assert app.quitting
    assert app.quick is fast_paths.enabled()  # never quick with fast paths off


async def test_q_while_a_save_runs_takes_the_ordinary_way(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    release = asyncio.Event()

    async def saving() -> None:
        await release.wait()

    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.run_worker(saving(), group="save")
        await pilot.pause()
        await pilot.press("q")
        release.set()
        await pilot.pause()
    assert app.quitting
    assert not app.quick


def test_a_thread_still_alive_keeps_the_process_from_ending_at_once() -> None:
    import threading

    stop = threading.Event()
    writer = threading.Thread(target=stop.wait, name="some-writer")
    writer.start()
    try:
        assert writer in threads_that_may_write()
    finally:
        stop.set()
        writer.join()
    assert writer not in threads_that_may_write()


@pytest.mark.slow
def test_q_in_a_real_terminal_restores_it_and_exits_0(small_bundle: Path) -> None:
    """A pty at 100x30: wait for the built index, press `q`, read what the terminal got."""
    import fcntl
    import termios

    env = dict(os.environ, TERM="xterm-256color", OKF_EXPLORER_CACHE="off")
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execve(str(EXPLORER), [str(EXPLORER), "browse", str(small_bundle)], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    seen = b""

    def read_for(seconds: float, wanted: bytes | None = None) -> None:
        nonlocal seen
        until = time.monotonic() + seconds
        while time.monotonic() < until and (wanted is None or wanted not in seen):
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    return

    try:
        read_for(30, b"indexed")
        assert b"indexed" in seen
        before = len(seen)
        os.write(fd, b"q")
        deadline = time.monotonic() + 20
        status = None
        while time.monotonic() < deadline:
            read_for(0.05)
            done, raw = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(raw)
                break
        read_for(0.2)
    finally:
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
    assert status == 0
    after = seen[before:]
    assert MOUSE_OFF.encode() in after  # mouse reporting off
    assert b"\x1b[?1049l" in after  # the alternate screen left
    assert b"Traceback" not in seen
