"""`FolderWriter`: the write port (`core.port`) over a bundle folder.

One page is one file, `ROOT/SLUG.md`, created atomically and never over anything
(`core.atomic.atomic_create`): the data is read back from the temporary file
before it is hard-linked to the target, and the target is read back again
afterwards; only identical bytes are `written`.

What is at `SLUG.md` decides the outcome, before anything is written and again
when the name turns out to be taken at the moment of creation:

- nothing: the file (and its folders) are created → `written`. Creation is
  no-overwrite (`link(2)`, or `O_EXCL` on a file system without hard links), so
  of two saves racing for one new name exactly one is `written`;
- a page we saved with the same idempotency key → `unchanged`, no write at all:
  its bytes are kept as they are, a person's edit included (so saving one slice
  twice gives one file, its `generated.at` that of the first save); the detail
  says whether they are this save's bytes (`core.port.same_slice`), as the
  gbrain writer's does;
- anything else (another page, a page we saved of other content, a folder, a FIFO
  or other file that is no regular file, never read, a symbolic link out of the
  bundle, the page another save created a moment before ours) → `refused`: "page
  exists; choose another --as". There is no overwrite option: a saved page is
  replaced by deleting it.

An operating-system refusal (permission denied, a read-only file system) is
`refused` too (never retried); any other `OSError` is `failed`. The reason is
one line, with the file's path.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

from okf_explorer.core.atomic import atomic_create
from okf_explorer.core.port import PAGE_EXISTS, SaveOutcome, SaveResult, same_slice
from okf_explorer.core.save import check_new_slug, saved_key
from okf_explorer.sources.folder.regular_files import NotRegularFile, read_head

_REFUSING_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
EXISTING_BYTES = 1 << 20
"""At most this much of a file at a save's target is read (more than this save's bytes,
whose frontmatter says whose it is)."""


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
        """Create `text` as `SLUG.md` unless something is there; see the module doc."""
        slug = check_new_slug(slug)
        target = self.target(slug)
        where = str(target)

        def result(outcome: SaveOutcome, detail: str = "", attempts: int = 0) -> SaveResult:
            return SaveResult(outcome, slug, where, detail, attempts)

        real = Path(os.path.realpath(target))
        if real != target and self.root not in real.parents:
            return result(SaveOutcome.REFUSED, f"{PAGE_EXISTS} ({where} leads out of the bundle)")
        data = text.encode("utf-8")
        taken = self._existing(target, idempotency_key, data, result)
        if taken is not None:
            return taken

        def verify(written: Path) -> None:
            if written.read_bytes() != data:
                raise _Unverified

        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return self._os_failure(result, "cannot write", error)
        try:
            atomic_create(target, data, verify=verify)
            read_back = target.read_bytes()
        except FileExistsError:  # another save created the name since we looked
            return self._existing(target, idempotency_key, data, result) or result(
                SaveOutcome.REFUSED, f"{PAGE_EXISTS} ({where})"
            )
        except _Unverified:
            return result(SaveOutcome.FAILED, "the file differs when read back", attempts=1)
        except OSError as error:
            return self._os_failure(result, "cannot write", error, attempts=1)
        if read_back != data:
            return result(SaveOutcome.FAILED, "the file differs when read back", attempts=1)
        return result(SaveOutcome.WRITTEN, "written and read back identical", attempts=1)

    def _existing(
        self, target: Path, key: str, data: bytes, result: Callable[..., SaveResult]
    ) -> SaveResult | None:
        """The outcome when something is at `target` (None: nothing is). What is read of
        it is enough to tell ours (its frontmatter) and this save's bytes apart."""
        if not os.path.lexists(target):
            return None
        try:
            existing = read_head(str(target), max(len(data) + 1, EXISTING_BYTES))
        except IsADirectoryError:
            return result(SaveOutcome.REFUSED, f"{PAGE_EXISTS} ({target} is a folder)")
        except NotRegularFile as error:  # a FIFO would have blocked a plain read
            return result(SaveOutcome.REFUSED, f"{PAGE_EXISTS} ({target} {error.what})")
        except OSError as error:
            return self._os_failure(result, "cannot read", error)
        if saved_key(existing.decode("utf-8", errors="replace")) == key:
            return result(SaveOutcome.UNCHANGED, same_slice(existing == data))
        return result(SaveOutcome.REFUSED, f"{PAGE_EXISTS} ({target})")

    @staticmethod
    def _os_failure(
        result: Callable[..., SaveResult],
        doing: str,
        error: OSError,
        attempts: int = 0,
    ) -> SaveResult:
        reason = (error.strerror or str(error)).lower()
        outcome = SaveOutcome.REFUSED if error.errno in _REFUSING_ERRNOS else SaveOutcome.FAILED
        return result(outcome, f"{doing} the file: {reason}", attempts)
