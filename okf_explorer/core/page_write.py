"""The write port: saving a page back into a brain (a trail or a slice, issue 13).

Reads are fail-open, writes are fail-closed. A `PageWriter` writes one page and
says exactly what happened, as a `SaveResult`:

- `written`: the page was written **and read back identical** (verified);
- `unchanged`: the name already holds a page carrying this save's idempotency
  key (this slice, saved before), so nothing was written, whatever its bytes: a
  page a person edited since, or another run of the slice wrote, is left as it
  is (`same_slice` says whether its content is this save's);
- `refused`: the brain said no (auth, scope, policy), or the name holds a page
  this save did not write (`PAGE_EXISTS`): a save never replaces what it did not
  write; never retried;
- `conflict`: the brain refused to create the page because one was there, yet a
  re-read finds none (it came and went under us); nothing was written;
- `unavailable`: the brain could not be reached, or accepted the write without
  committing it yet (the detail names the pending request); nothing is known to
  be written;
- `failed`: anything else (a write that did not read back identical, a bad reply).

The idempotency key is derived from the content (roots, depth, direction,
edges) by the caller and reused on every retry of one save, so saving the same
slice twice yields one page, not two. Every writer only ever creates a page:
what is already at the name is `unchanged` (this key) or `refused` (anything else).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable

PAGE_EXISTS = "page exists; choose another --as"
"""The refusal every writer gives for a name that holds a page this save did not write."""

SAME_SLICE = "the same slice is already saved there"
"""The `unchanged` every writer gives for a name holding a page with this save's key."""


def same_slice(identical: bool) -> str:
    """The `unchanged` detail: the slice is there, and whether its content is this
    save's (else a person's edit or another run's bytes, kept as they are)."""
    state = "identical" if identical else "content differs from this save: left as it is"
    return f"{SAME_SLICE} ({state})"


class SaveOutcome(StrEnum):
    """What a save did; only `written` and `unchanged` mean the page is there."""

    WRITTEN = "written"
    UNCHANGED = "unchanged"
    REFUSED = "refused"
    CONFLICT = "conflict"
    UNAVAILABLE = "unavailable"
    FAILED = "failed"

    @property
    def saved(self) -> bool:
        """True when the page now holds the bytes that were asked for (verified)."""
        return self in (SaveOutcome.WRITTEN, SaveOutcome.UNCHANGED)


@dataclass(frozen=True)
class SaveResult:
    """The outcome of one save, with a one-line reason a person can read.

    `where` names the page written (a file path or `URL#slug`, never a token);
    `attempts` counts the write requests made (0 for `unchanged` and dry runs).
    """

    outcome: SaveOutcome
    slug: str
    where: str
    detail: str = ""
    attempts: int = 0


@runtime_checkable
class PageWriter(Protocol):
    """A brain that can take a page: a folder bundle, or a server's `put_page`."""

    def write_page(self, slug: str, text: str, *, idempotency_key: str) -> SaveResult:
        """Write `text` as page `slug`, verify it by reading it back, say what happened.

        Never raises for a failure of the brain (that is an outcome); raises only
        for a programming error such as an invalid slug (`ValueError`).
        """
        ...
