"""ATX headings outside fenced code: one reading of a page's headings for the scan
(a page's title is its first `# ` heading) and for `validate` (a log's `## ` dates).

A fence opens at a line starting with three backticks or tildes and closes at the
next line starting with the same three; a heading of level N is a line starting
with N `#` then a space or tab.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator


@functools.cache
def _heading_or_fence(level: int) -> re.Pattern[str]:
    marks = "#" * level
    return re.compile(rf"^(?:(?P<fence>```|~~~)|{marks}[ \t]+(?P<text>[^\r\n]*))", re.M)


def headings(body: str, level: int) -> Iterator[str]:
    """The text of each level-`level` heading of `body` outside fenced code, stripped."""
    in_fence: str | None = None
    for match in _heading_or_fence(level).finditer(body):
        fence = match.group("fence")
        if fence is not None:
            if in_fence is None:
                in_fence = fence
            elif fence == in_fence:
                in_fence = None
        elif in_fence is None:
            yield match.group("text").strip()
