"""`IndexCache`: the on-disk cache of scanned pages, one file per source.

Where: `$OKF_EXPLORER_CACHE` when set (the value `off` disables caching), else
`platformdirs.user_cache_dir("okf-explorer")`. The file of a source is named by
the sha256 of its `cache_key`.

Format: a fixed header (magic, format version, payload length, CRC-32 of the
payload) followed by a `marshal` payload of plain values `(package version,
key, signature, data)`; a cache written by another okf-explorer version is
ignored (parsing rules may have changed). marshal is the fastest loader of
plain values in the standard library (100k pages load in about a second); the
CRC guards against truncated, half-written or garbage files, and the version
against older layouts. The payload is only ever produced by this module in the
user's own cache folder.

Every failure is soft: an unreadable, corrupt, truncated or wrong-version file
loads as None (the index is rebuilt), and a cache that cannot be written
(read-only folder, full disk) is skipped. Writes are atomic: a temporary file
in the same folder, then `os.replace`; without fsync (`atomic_write(durable=
False)`): after a crash the file is the old one or one the CRC rejects, and a
rejected cache is only a rebuild (fsync cost ~12 ms of a 10k-page cold build).

Caches hold titles, links and frontmatter of pages, token-protected remote
brains included, so they are private: files are `FILE_MODE` (older, looser
files are tightened when loaded), a folder this module creates is
`FOLDER_MODE`, and so is the default folder; a folder the user named
(`$OKF_EXPLORER_CACHE`, `IndexCache(path)`) keeps the mode they gave it.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import stat
import struct
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

import okf_explorer
from okf_explorer.core.atomic import atomic_write

ENV_VAR = "OKF_EXPLORER_CACHE"
FORMAT_VERSION = 8
"""Bump whenever the row layout in `core/index/reuse.py` changes, a stored record's
fields included (`tests/test_record_shapes.py` fails until you do). 3: microsecond
`updated_at`; 4: page rows are `PageInfo.to_row()`, with `tags_known` and `error_kind`;
5: typed edges, a `rel` per link and the relation tables; 6: aliases and stated titles
in page rows, reference definitions in raw links, candidates in resolved links;
7: every raw link is a whole `RawLink.to_row()` (`rel` and `incoming` for body links too);
8: OKF v0.2 status, trust tier and `stale_after` in page rows."""

FILE_MODE = 0o600
"""Permission bits of every cache file: the user's alone."""
FOLDER_MODE = 0o700
"""Permission bits of a cache folder okf-explorer creates, and of the default one."""

_MAGIC = b"OKFXIDX\n"
_HEADER = struct.Struct("<8sIQI")  # magic, version, payload length, crc32


@dataclass(frozen=True, slots=True)
class CachedCorpus:
    """What a cache file holds for one source.

    `signature` identifies the corpus the stored resolutions were made
    against; `data` is `core.index.build`'s payload of plain values (the caller
    validates its shape).
    """

    signature: str
    data: Any


class IndexCache:
    """One folder of cache files. `IndexCache()` uses the default folder."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()
        self._ours = directory is None and not os.environ.get(ENV_VAR, "").strip()

    @classmethod
    def from_environment(cls) -> IndexCache | None:
        """The default cache, or None when `$OKF_EXPLORER_CACHE` is `off`."""
        if os.environ.get(ENV_VAR, "").strip().lower() == "off":
            return None
        return cls()

    def path_for(self, key: str) -> Path:
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
        return self.directory / f"{digest}.idx"

    def load(self, key: str) -> CachedCorpus | None:
        """The stored corpus of `key`, or None when absent or not trustworthy."""
        path = self.path_for(key)
        try:
            with open(path, "rb") as handle:
                _make_private(handle.fileno(), FILE_MODE)
                data = handle.read()
        except OSError:
            return None
        return decode_cache(data, key)

    def save(self, key: str, signature: str, data: Any) -> bool:
        """Store atomically; False (and nothing raised) when it cannot be written."""
        target = self.path_for(key)
        try:
            blob = encode_cache(key, signature, data)
        except ValueError:  # not marshallable: a caller bug, but never fatal
            return False
        try:
            self._make_folder()
            _remove_stale_temps(target)
            atomic_write(target, blob, mode=FILE_MODE, durable=False)
        except OSError:
            return False
        return True

    def _make_folder(self) -> None:
        """Create the folder `FOLDER_MODE` (whatever the umask); tighten the default
        folder if an older version left it open, never a folder the user named."""
        folder = self.directory
        try:
            folder.mkdir(parents=True, mode=FOLDER_MODE)
        except FileExistsError:
            if self._ours:
                with contextlib.suppress(OSError):
                    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
                    try:
                        _make_private(fd, FOLDER_MODE)
                    finally:
                        os.close(fd)
        else:
            with contextlib.suppress(OSError):
                os.chmod(folder, FOLDER_MODE)  # mkdir's mode is cut by the umask

    def clear(self, key: str) -> None:
        """Forget one source's cache (missing file is fine)."""
        _remove_quietly(str(self.path_for(key)))


def default_directory() -> Path:
    """`$OKF_EXPLORER_CACHE` if set (and not `off`), else the platform's user cache folder."""
    value = os.environ.get(ENV_VAR, "").strip()
    if value and value.lower() != "off":
        return Path(value).expanduser()
    return Path(platformdirs.user_cache_dir("okf-explorer"))


def encode_cache(key: str, signature: str, data: Any) -> bytes:
    payload = marshal.dumps((okf_explorer.__version__, key, signature, data))
    header = _HEADER.pack(_MAGIC, FORMAT_VERSION, len(payload), zlib.crc32(payload))
    return header + payload


def decode_cache(data: bytes, key: str) -> CachedCorpus | None:
    """Validate header, length, checksum and shape; None for anything off."""
    if len(data) < _HEADER.size:
        return None
    magic, version, length, crc = _HEADER.unpack_from(data)
    payload = memoryview(data)[_HEADER.size :]
    if magic != _MAGIC or version != FORMAT_VERSION or length != len(payload):
        return None
    if zlib.crc32(payload) != crc:
        return None
    try:
        version, stored_key, signature, data = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if version != okf_explorer.__version__ or stored_key != key or not isinstance(signature, str):
        return None
    return CachedCorpus(signature, data)


def _remove_stale_temps(target: Path, age: float = 3600.0) -> None:
    """Temp files an interrupted save (a kill, a power cut) left behind, an hour on."""
    cutoff = time.time() - age
    leftovers = [
        *target.parent.glob(f".{target.name}.*.tmp"),  # core.atomic's temp names
        *target.parent.glob(f"{target.name}*.tmp"),  # names of cache format 1
    ]
    for leftover in leftovers:
        with contextlib.suppress(OSError):
            if leftover.stat().st_mtime < cutoff:
                leftover.unlink()


def _make_private(fd: int, mode: int) -> None:
    """`fchmod` an open file or folder to `mode` when it grants more than that (a
    file we do not own, or a file system without modes, is left as it is)."""
    with contextlib.suppress(OSError, AttributeError):  # no os.fchmod on Windows
        if stat.S_IMODE(os.fstat(fd).st_mode) & ~mode:
            os.fchmod(fd, mode)


def _remove_quietly(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)
