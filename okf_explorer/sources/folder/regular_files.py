"""Reading a folder's files without blocking on what is not a regular file.

A FIFO where a file should be blocks a plain `open` until a writer comes: a vault whose
`index.md` was a FIFO hung every command, and a save whose target was one hung the
save. `read_head` opens non-blocking and refuses anything `fstat` does not call a
regular file (a FIFO, a device, a socket, a folder). Its readers: the small files that
say how to read a folder (an app's settings, `.obsidian/app.json`,
`.vscode/settings.json`, `logseq/config.edn`; a `.base`; the head of an `index.md` that
says the folder is an OKF bundle), what a save finds at its target
(`write.FolderWriter`), and the pages themselves (`pagefile`, `read_regular`).
"""

from __future__ import annotations

import errno
import os
import stat

__all__ = ["NotRegularFile", "read_head", "read_regular"]

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class NotRegularFile(OSError):
    """What is at the path is no regular file; `what` says what it is."""

    def __init__(self, path: str, what: str) -> None:
        super().__init__(f"{os.path.basename(path)} {what}")
        self.what = what


def read_regular(path: str, limit: int = -1) -> tuple[bytes, os.stat_result]:
    """The first `limit` bytes of the regular file at `path` (all of it by default, or of
    a shorter one) and its `fstat`. Raises `IsADirectoryError` for a folder,
    `NotRegularFile` for anything else that is no regular file, `BlockingIOError` for one
    that cannot be read without waiting, another `OSError` when it cannot be read."""
    fd = os.open(path, _FLAGS)
    with open(fd, "rb") as handle:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(path, "is not a regular file")
        data = handle.read(limit)
    if data is None:  # a file that would block (`/proc/kmsg` behind a link) has no bytes now
        raise BlockingIOError(errno.EAGAIN, "nothing to read without waiting", path)
    return data, info


def read_head(path: str, limit: int) -> bytes:
    """The first `limit` bytes of the regular file at `path` (`read_regular`)."""
    return read_regular(path, limit)[0]
