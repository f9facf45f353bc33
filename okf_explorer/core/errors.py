"""Typed errors of the core and the sources.

`str(error)` is always one plain sentence a user can read: the CLI prints it on
one line and the TUI shows it in a notification. Messages never contain tokens.
"""

from __future__ import annotations

from okf_explorer.core.pages import ErrorKind


class OkfError(Exception):
    """Base class of every error okf-explorer reports to a user."""


class PageNotFound(OkfError):
    """The source has no page with this slug."""

    def __init__(self, slug: str, detail: str = "") -> None:
        self.slug = slug
        super().__init__(f"no page {slug!r}" + (f" ({detail})" if detail else ""))


class PageUnreadable(OkfError):
    """The page exists but cannot be read (bad bytes, I/O error, ...); `kind` says which."""

    def __init__(self, slug: str, reason: str, kind: ErrorKind = "unreadable") -> None:
        self.slug = slug
        self.reason = reason
        self.kind: ErrorKind = kind
        super().__init__(f"page {slug!r} is unreadable: {reason}")


class SourceUnavailable(OkfError):
    """The source cannot be reached; the message always contains `unreachable`."""


class AuthError(OkfError):
    """The source refused our credentials (names the token source, never the token)."""


class ProtocolError(OkfError):
    """The source answered with something we cannot understand."""


class InvalidParams(OkfError):
    """The source rejected the arguments of a call."""


class ExportFailed(OkfError):
    """An export could not be written or verified."""


class Cancelled(OkfError):
    """Long work was cancelled by the user."""

    def __init__(self, what: str = "operation") -> None:
        super().__init__(f"{what} cancelled")
