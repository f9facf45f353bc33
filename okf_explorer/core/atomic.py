"""Atomic file writes: replacement (exports, the index cache) and creation (saved pages).

A reader sees the old file or the new one, never half of either: the data goes
to a temporary file in the same folder, is flushed and fsynced, then renamed
over the target, and the folder is fsynced so the rename itself survives a
crash. A writer whose reader checks what it reads (the index cache: a length
and a checksum) may skip both fsyncs (`durable=False`): a crash can then leave
the old file or a file the reader rejects, never one it trusts wrongly.

`atomic_create` never replaces anything: the temporary file is hard-linked to
the target instead (`link(2)` fails with `EEXIST` where rename would replace),
so of several writers racing for one new name exactly one wins.

Temporary files are named `.NAME.okfPID.RANDOM.tmp` (PID: the writer's process
id), so a leftover of a killed writer can be told from a write in progress. A
write killed between creating its temporary file and renaming it (`kill -9`, a
power cut) leaves one beside its target; the next export into that folder removes
such files, and only such files (`remove_stale_temps`):

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
import errno
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

TEMP_TAG = "okf"
"""Marks our temporary files: `.NAME.okfPID.RANDOM.tmp`."""


def atomic_write(
    target: Path,
    data: bytes | Iterable[bytes],
    *,
    mode: int | None = None,
    verify: Callable[[Path], None] | None = None,
    durable: bool = True,
) -> None:
    """Replace `target` with `data` (bytes, or blocks of them written as they come)
    atomically; `OSError` propagates, and so does whatever the blocks raise.

    `mode` is the new file's permission bits; by default the existing file's
    mode is kept, and a new file gets `0o666` less the process umask (as
    `open()` would give it), not `mkstemp`'s private `0o600`. No temporary
    file is left behind on failure. `verify`, when given, is called with the
    written temporary file before it replaces `target`; whatever it raises
    leaves `target` untouched. `durable=False` skips the fsyncs (see the module
    docstring): for data whose reader validates it.
    """
    if mode is None:
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except OSError:
            mode = 0o666 & ~current_umask()
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=_temp_prefix(target), suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(data, bytes | bytearray):
                handle.write(data)
            else:
                for block in data:
                    handle.write(block)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if durable:
                os.fsync(handle.fileno())
        if verify is not None:
            verify(Path(temp))
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temp)
        raise
    if durable:
        _fsync_folder(target.parent)


_NO_HARD_LINKS = frozenset(
    {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EXDEV}
)
"""What `link(2)` answers on a file system that cannot hard-link this file (FAT,
some FUSE and network mounts): create the target exclusively instead."""


def atomic_create(
    target: Path, data: bytes, *, verify: Callable[[Path], None] | None = None
) -> None:
    """Create `target` holding `data`, never replacing anything.

    Raises `FileExistsError` when anything is at `target`, including a file that
    appeared while we wrote (then nothing of ours is left behind); other
    `OSError`s propagate. The data goes to a temporary file (flushed, fsynced,
    then `verify`-ed: whatever it raises leaves `target` absent), which is
    hard-linked to `target` and removed. Where the file system has no hard
    links, `target` is opened `O_CREAT | O_EXCL` and written in place: still
    exactly one creator wins, but a reader may see the file partly written for a
    moment; a write or `verify` that fails there removes the file it created.
    The new file gets `0o666` less the umask, as `open()` would give it.
    """
    mode = 0o666 & ~current_umask()
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=_temp_prefix(target), suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        if verify is not None:
            verify(Path(temp))
        try:
            os.link(temp, target)
        except OSError as error:
            if error.errno not in _NO_HARD_LINKS:
                raise
            _create_exclusively(target, data, mode, verify)
    finally:
        with contextlib.suppress(OSError):
            os.remove(temp)
    _fsync_folder(target.parent)


def _create_exclusively(
    target: Path, data: bytes, mode: int, verify: Callable[[Path], None] | None
) -> None:
    """`atomic_create` without hard links: `O_EXCL` picks the one creator."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if verify is not None:
            verify(target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(target)
        raise


def temp_beside(target: Path, mode: int = 0o600) -> Path:
    """A new empty temporary file in `target`'s folder, named as ours (so
    `remove_stale_temps` knows a killed writer's), with permission bits `mode`: for a
    writer that fills it by other means (SQLite) and renames it over `target` itself."""
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=_temp_prefix(target), suffix=".tmp")
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)
    return Path(temp)


def _temp_prefix(target: Path) -> str:
    """`.NAME.okfPID.`, NAME cut so the temporary name stays within 255 bytes."""
    name = target.name
    while len(os.fsencode(name)) > 200:
        name = name[:-1]
    return f".{name}.{TEMP_TAG}{os.getpid()}."


def current_umask() -> int:
    """The process umask, read without changing it (Linux), else the usual 0o022.

    `os.umask` can only be read by setting it, which races with other threads.
    """
    with (
        contextlib.suppress(OSError, ValueError),
        open("/proc/self/status", encoding="ascii") as status,
    ):
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    return 0o022


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


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
