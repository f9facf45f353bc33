"""Is a folder an OKF bundle, or a plain vault? It decides what `index.md` and `log.md` are.

OKF reserves `index.md` (a directory listing) and `log.md` (an update history) at
every level of a bundle (OKF §3.1). A Foam workspace or an Obsidian vault has no
such rule: there `index.md` is an ordinary page its author wrote ("What is Foam?"),
and showing it as "(reserved)", leaving it out of orphans and mentions, misreads it.

A folder is read as an **OKF bundle** when either

1. its root `index.md` declares `okf_version` in its frontmatter (OKF §12, the only
   frontmatter an OKF index may carry), or
2. at least half of its concept files (any `.md` but `index.md` / `log.md`) state a
   non-empty `type` in their frontmatter: OKF requires `type` on every concept (§4.1,
   §11), while vaults seldom set it. The files looked at are the first
   `SAMPLE_FILES` met walking the folder breadth-first (the root's files, then its
   sub-folders', each folder in name order, hidden names skipped), each read only
   to `HEAD_BYTES`: a sample, so the answer costs a few milliseconds however large
   the folder is and is ready before the index (the first page drawn already knows).

Otherwise it is a vault, and its `index`/`log` pages are ordinary pages. A folder
with no concept files at all is a vault unless it declares `okf_version`.
`okf-explorer validate` is unaffected: it checks a folder as an OKF bundle, so it
always applies the reserved-file rules (§8, §9).
"""

from __future__ import annotations

import os
import re

from okf_explorer.sources.folder.page_paths import MARKDOWN_SUFFIX

SAMPLE_FILES = 64
"""At most this many concept files are looked at."""
HEAD_BYTES = 8192
"""Only this much of each file is read (a frontmatter longer than that counts as no `type`)."""

_RESERVED_FILES = frozenset({"index.md", "log.md"})
_FRONTMATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)^(?:---|\.\.\.)[ \t]*\r?$", re.S | re.M)
_TYPE = re.compile(r"^type[ \t]*:[ \t]*(?P<value>[^#\r\n]*)", re.M)
_VERSION = re.compile(r"^okf_version[ \t]*:", re.M)
_EMPTY_VALUES = frozenset({"", "''", '""', "~", "null", "Null", "NULL", "[]", "{}"})


def is_okf_bundle(root: str) -> bool:
    """True when the real folder `root` reads as an OKF bundle (see the module doc)."""
    index = _frontmatter_of(os.path.join(root, "index.md"))
    if index is not None and _VERSION.search(index):
        return True
    typed = sampled = 0
    for path in _concept_files(root):
        sampled += 1
        block = _frontmatter_of(path)
        typed += block is not None and _states_type(block)
    return sampled > 0 and 2 * typed >= sampled


def _states_type(block: str) -> bool:
    match = _TYPE.search(block)
    return match is not None and match.group("value").strip() not in _EMPTY_VALUES


def _frontmatter_of(path: str) -> str | None:
    """The frontmatter block of a file's head, or None (no block, unreadable)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError:
        return None
    match = _FRONTMATTER.match(head.decode("utf-8", "replace"))
    return match.group(1) if match else None


def _concept_files(root: str) -> list[str]:
    """Up to `SAMPLE_FILES` concept files, breadth-first, each folder in name order."""
    found: list[str] = []
    folders = [root]
    while folders and len(found) < SAMPLE_FILES:
        deeper: list[str] = []
        for folder in folders:
            try:
                with os.scandir(folder) as listing:
                    entries = sorted(listing, key=lambda entry: entry.name)
            except OSError:
                continue
            for entry in entries:
                name = entry.name
                if name.startswith("."):
                    continue
                try:
                    if entry.is_dir(follow_symlinks=False):
                        deeper.append(entry.path)
                    elif (
                        name.endswith(MARKDOWN_SUFFIX)
                        and name not in _RESERVED_FILES
                        and entry.is_file()
                    ):
                        found.append(entry.path)
                except OSError:
                    continue
                if len(found) >= SAMPLE_FILES:
                    return found
        folders = deeper
    return found
