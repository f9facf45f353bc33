"""A page file's path: from a slug to its file under the bundle root, and its fingerprint.

Apart from `pagefile` (which reads and parses pages) so that listing a folder and
answering from a warm index cache load neither PyYAML nor the scan workers'
machinery (`tests/test_import_hygiene.py`).
"""

from __future__ import annotations

import os

from okf_explorer.core.errors import PageNotFound

MARKDOWN_SUFFIX = ".md"


def file_fingerprint(info: os.stat_result) -> str:
    """`mtime_ns:size:ctime_ns` of a page file: it changes whenever the file does.

    The ctime is there because `touch -d` / `os.utime` can put an old mtime back
    after a same-size edit, but nothing but the kernel sets the ctime (any write,
    chmod or rename moves it on). `bundle._walk_one` writes the same format inline.
    """
    return f"{info.st_mtime_ns}:{info.st_size}:{info.st_ctime_ns}"


def inside(real: str, root: str) -> bool:
    """True when the real path `real` is `root` or below it."""
    prefix = root if root.endswith(os.sep) else root + os.sep
    return real == root or real.startswith(prefix)


def page_path(root: str, slug: str, real_dirs: dict[str, bool] | None = None) -> str:
    """The file of `slug` under the real folder `root`, or `PageNotFound`.

    Rejects anything a listing could not have produced: empty or `.`/`..`
    segments, hidden segments, a leading `/`, backslashes, NUL, and any path
    whose real location is outside the root (through a symlinked folder or
    file). `real_dirs` memoises the folder check across the pages of a scan.
    """
    if not isinstance(slug, str) or not slug or "\\" in slug or "\x00" in slug:
        raise PageNotFound(str(slug))
    parts = slug.split("/")
    if any(not part or part.startswith(".") for part in parts):
        raise PageNotFound(slug)
    path = os.path.join(root, *parts) + MARKDOWN_SUFFIX
    folder = os.path.dirname(path)
    folder_ok = real_dirs.get(folder) if real_dirs is not None else None
    if folder_ok is None:
        folder_ok = inside(os.path.realpath(folder), root)
        if real_dirs is not None:
            real_dirs[folder] = folder_ok
    if not folder_ok or (os.path.islink(path) and not inside(os.path.realpath(path), root)):
        raise PageNotFound(slug)
    return path
