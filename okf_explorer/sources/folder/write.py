"""`FolderWriter`: the write port (`core.page_write`) over a bundle folder.

One page is one file, `ROOT/SLUG.md`, written atomically (`core.atomic`): the
data is read back from the temporary file before it replaces the target, and
the target is read back again afterwards; only identical bytes are `written`.

What is already at `SLUG.md` decides the outcome before anything is written:

- nothing: the file (and its folders) are created → `written`;
- a page we saved with the same idempotency key → `unchanged`, no write at all:
  its bytes are kept as they are (so saving one slice twice gives one file with
  the same bytes, its `generated.at` that of the first save);
- anything else (another page, a page we saved of other content, a folder,
  a symbolic link out of the bundle) → `refused`: "page exists; choose another
  --as". There is no overwrite option: a saved page is replaced by deleting it.

An operating-system refusal (permission denied, a read-only file system) is
`refused` too (never retried); any other `OSError` is `failed`. The reason is
one line, with the file's path.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

from okf_explorer.core.atomic import atomic_write
from okf_explorer.core.export.saved_page import check_new_slug, saved_key
from okf_explorer.core.page_write import SaveOutcome, SaveResult

_REFUSING_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
EXISTS_DETAIL = "page exists; choose another --as"


class _Unverified(Exception):
    """The temporary file did not read back identical."""


class FolderWriter:
    """Saves pages as `.md` files below `root` (the bundle's real folder)."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(os.path.realpath(Path(root).expanduser()))

    def target(self, slug: str) -> Path:
        """The file page `slug` is saved as (`ValueError` for a name we cannot create)."""
        return self.root / (check_new_slug(slug) + ".md")

    def write_page(self, slug: str, text: str, *, idempotency_key: str) -> SaveResult:
        """Write `text` as `SLUG.md` unless it is there already; see the module doc."""
        slug = check_new_slug(slug)
        target = self.target(slug)
        where = str(target)

        def result(outcome: SaveOutcome, detail: str = "", attempts: int = 0) -> SaveResult:
            return SaveResult(outcome, slug, where, detail, attempts)

        real = Path(os.path.realpath(target))
        if real != target and self.root not in real.parents:
            return result(SaveOutcome.REFUSED, f"{EXISTS_DETAIL} ({where} leads out of the bundle)")
        try:
            existing = target.read_bytes() if os.path.lexists(target) else None
        except IsADirectoryError:
            return result(SaveOutcome.REFUSED, f"{EXISTS_DETAIL} ({where} is a folder)")
        except OSError as error:
            return self._os_failure(result, "cannot read", error)
        if existing is not None:
            found = saved_key(existing.decode("utf-8", errors="replace"))
            if found == idempotency_key:
                return result(SaveOutcome.UNCHANGED, "the same slice is already saved there")
            return result(SaveOutcome.REFUSED, f"{EXISTS_DETAIL} ({where})")
        data = text.encode("utf-8")

        def verify(written: Path) -> None:
            if written.read_bytes() != data:
                raise _Unverified

        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, data, verify=verify)
            read_back = target.read_bytes()
        except _Unverified:
            return result(SaveOutcome.FAILED, "the file differs when read back", attempts=1)
        except OSError as error:
            return self._os_failure(result, "cannot write", error, attempts=1)
        if read_back != data:
            return result(SaveOutcome.FAILED, "the file differs when read back", attempts=1)
        return result(SaveOutcome.WRITTEN, "written and read back identical", attempts=1)

    @staticmethod
    def _os_failure(
        result: Callable[[SaveOutcome, str, int], SaveResult],
        doing: str,
        error: OSError,
        attempts: int = 0,
    ) -> SaveResult:
        reason = (error.strerror or str(error)).lower()
        outcome = SaveOutcome.REFUSED if error.errno in _REFUSING_ERRNOS else SaveOutcome.FAILED
        return result(outcome, f"{doing} the file: {reason}", attempts)
