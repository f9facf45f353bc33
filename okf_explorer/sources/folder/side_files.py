"""The small files beside a folder's pages that say how to read them: an app's
settings (`.obsidian/app.json`, `.vscode/settings.json`, `logseq/config.edn`), a base
(`.base`), the head of an `index.md` that says the folder is an OKF bundle.

Each is read by `read_head`: at most a bound of bytes, and only from a regular file. A
FIFO where a settings file should be would block a plain `open` until a writer comes
(a vault whose `index.md` was a FIFO hung every command); the file is opened
non-blocking and refused unless `fstat` says it is a regular file (a device, a socket
and a folder too).
"""

from __future__ import annotations

import os
import stat

__all__ = ["read_head"]

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def read_head(path: str, limit: int) -> bytes:
    """The first `limit` bytes of the regular file at `path` (all of a shorter one).
    Raises `OSError` when it cannot be read or is no regular file."""
    fd = os.open(path, _FLAGS)
    with open(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{os.path.basename(path)} is not a regular file")
        return handle.read(limit)
