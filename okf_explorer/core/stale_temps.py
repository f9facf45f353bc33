"""Leftovers of killed writers: temporary files of `core.atomic` nobody will finish.

A write killed between creating its temporary file and renaming it (`kill -9`,
a power cut) leaves `.NAME.okfPID.RANDOM.tmp` beside its target. The next
export into that folder removes such files, and only such files:

- the name matches our pattern exactly (`.NAME.okfPID.RANDOM.tmp`, RANDOM made
  of `tempfile`'s characters), it is a regular file (not a link) owned by us;
- and either its writer is gone (no process PID on this machine) and the file
  has not changed for `ORPHAN_AGE` seconds (a writer on another machine sharing
  the folder has a PID we cannot see; a live write touches its file within
  seconds), or it has not changed for `ABANDONED_AGE` seconds (the PID may have
  been reused by another process since).

Temporary files named as before PIDs were in the name (`.NAME.RANDOM.tmp`) are
removed only for the very file being written, and only after `ABANDONED_AGE`.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
from pathlib import Path

from okf_explorer.core.atomic import TEMP_TAG

ORPHAN_AGE = 60.0
"""Seconds a temporary file of a dead writer is left alone (a writer elsewhere may own it)."""

ABANDONED_AGE = 3600.0
"""Seconds after which a temporary file is stale whoever wrote it."""

_OURS = re.compile(rf"\..+\.{TEMP_TAG}(?P<pid>[0-9]{{1,10}})\.[a-z0-9_]{{6,16}}\.tmp", re.DOTALL)
_LEGACY = re.compile(r"\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp", re.DOTALL)


def remove_stale_temps(target: Path, *, now: float | None = None) -> list[Path]:
    """Remove the stale temporary files in `target`'s folder; returns those removed.

    Never raises: a folder that cannot be listed, or a file that vanished or
    cannot be removed, is skipped.
    """
    folder = target.parent
    moment = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not (entry.name.startswith(".") and entry.name.endswith(".tmp")):
            continue
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
                continue
            if _is_stale(entry.name, target.name, moment - info.st_mtime):
                os.remove(entry.path)
                removed.append(Path(entry.path))
    return removed


def _is_stale(name: str, target_name: str, age: float) -> bool:
    ours = _OURS.fullmatch(name)
    if ours is not None:
        if age >= ABANDONED_AGE:
            return True
        return age >= ORPHAN_AGE and not _process_exists(int(ours.group("pid")))
    legacy = _LEGACY.fullmatch(name)
    return legacy is not None and legacy.group("name") == target_name and age >= ABANDONED_AGE


def _process_exists(pid: int) -> bool:
    """Whether a process `pid` runs on this machine (ours or another user's)."""
    if pid <= 0:
        return True  # not a real writer's PID: let the age rule decide
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
