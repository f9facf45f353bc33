"""Writing the index cache beside the work that needs the index, not before it.

A cold build ends with the cache write (making the payload, `marshal`, CRC, the
file): about an eighth of a 10k-page build, all on one core while the other
idles. `write_soon` runs it in a forked child instead, so the caller answers
with the index at once and the second core writes the file. It forks only where
that is safe and cheap: a POSIX process with no other thread running (the
command line; the explorer and `serve` run threads, and write in place), with
the fast paths on (`OKF_EXPLORER_PLAIN=1` writes in place).

Nothing is lost or reordered: before anyone reads, replaces or removes the same
file, `wait_for` waits for its writer (so a load in this process always sees the
write it started), and the process waits for every writer when it exits
(`atexit`), so the next command finds the cache. A child that fails exits
non-zero and leaves the old file (or none): the next build rebuilds, as after
any cache that cannot be written.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Callable

from okf_explorer.core import fast_paths

__all__ = ["wait_all", "wait_for", "write_soon"]

_pending: dict[str, int] = {}
"""target path → pid of the child writing it."""
_exit_hook = False


def _may_fork() -> bool:
    """Whether `write_soon` may write in a child now (see the module docstring)."""
    return hasattr(os, "fork") and fast_paths.enabled() and threading.active_count() == 1


def write_soon(target: str, write: Callable[[], bool], *, large: bool = True) -> bool | None:
    """Run `write` (which writes `target`, True on success) in a forked child, or now:
    now when forking is unsafe here or the write is not `large` (a small cache is written
    faster than a process forks).

    Returns what `write` returned when it ran here, None when a child runs it.
    """
    global _exit_hook
    wait_for(target)  # an older write of the same file must not land after this one
    _reap_finished()
    if not (large and _may_fork()):
        return write()
    if not _exit_hook:
        atexit.register(wait_all)
        _exit_hook = True
    try:
        pid = os.fork()
    except OSError:  # no process to spare (a process limit, no memory): write here
        return write()
    if pid == 0:  # the child: write, then leave without running anything of the parent's
        status = 1
        try:
            status = 0 if write() else 1
        except BaseException:  # a failed write is only a rebuild later
            status = 1
        finally:
            os._exit(status)
    _pending[target] = pid
    return None


def wait_for(target: str) -> bool:
    """Wait for the child writing `target`, if any; False when it failed."""
    pid = _pending.pop(target, None)
    if pid is None:
        return True
    return _wait(pid, 0) != 1


def wait_all() -> None:
    """Wait for every writer this process started (at exit, and in benchmarks); a ^C
    stops waiting quietly (the writers, in the same process group, stop too)."""
    try:
        for target in list(_pending):
            wait_for(target)
    except KeyboardInterrupt:
        pass


def _reap_finished() -> None:
    """Collect writers that are done, so a long run leaves no zombies."""
    for target, pid in list(_pending.items()):
        if _wait(pid, os.WNOHANG) is not None:
            _pending.pop(target, None)


def _wait(pid: int, flags: int) -> int | None:
    """The writer's exit status (1 for anything but a clean exit), None while it runs."""
    try:
        done, status = os.waitpid(pid, flags)
    except ChildProcessError:  # already collected (someone waited for every child)
        return 0
    except InterruptedError:  # pragma: no cover - retried by Python since 3.5
        return None
    if done == 0:
        return None
    return 0 if os.waitstatus_to_exitcode(status) == 0 else 1
