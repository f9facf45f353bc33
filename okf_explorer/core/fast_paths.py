"""The one switch for okf-explorer's hand-written fast paths.

A fast path is our own replacement for a library's job (YAML, JSON, Markdown, HTTP),
kept only where it measures at least 10 % better on its own path; each lives in a
`fast_*` module that states its measured gain and has a property test proving it
answers as the library does. `OKF_EXPLORER_PLAIN=1` turns every one of them off, so
the library alone does the work (the suite passes either way).
"""

from __future__ import annotations

import os

PLAIN_ENV = "OKF_EXPLORER_PLAIN"
"""Set to anything but empty or `0` to use the plain library paths only."""


def enabled() -> bool:
    """Whether fast paths may be used (read at call time, so tests can flip it)."""
    return os.environ.get(PLAIN_ENV, "") in ("", "0")
