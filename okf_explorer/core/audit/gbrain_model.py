"""What gbrain does with a folder: page names, import skips, its file-name index.

A model of gbrain 0.46.28 (garrytan/gbrain at 01aab110, read from its source, MIT):

- **Page names** (`gbrain_slug`, its `slugifyPath`): the path without `.md`/`.mdx`,
  each segment NFD-folded (accents and Hebrew points dropped), lowercased, every
  character but letters, marks, digits, `.`, `_`, `-` and whitespace dropped,
  whitespace runs turned into `-`, hyphen runs collapsed, edge hyphens stripped.
  Dots are kept (`devbox.json`), unlike our own `slugify`.
- **Files import skips** (`import_skip_reason`, its `SYNC_SKIP_FILES`, `pruneDir`,
  `hasMalformedPathSegment`): `schema.md`, `index.md`, `log.md`, `README.md`,
  `RESOLVER.md`; anything under a folder starting with `.`, named `node_modules`,
  `vendor`, `dist`, `build`, `venv` or ending in `.raw`; names with brackets or
  control characters; names that slugify to nothing.
- **File-name index** (`basename_index`, `basename_matches`, its `buildBasenameIndex`):
  raw, lowercase and normalised last segment → slugs.

How it reads links is `core.audit.extract`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

SKIPPED_FILE_NAMES = ("schema.md", "index.md", "log.md", "README.md", "RESOLVER.md")
PRUNED_FOLDER_NAMES = frozenset({"node_modules", "vendor", "dist", "build", "venv", ".raw"})
ENTITY_FOLDERS = frozenset(
    [
        "people",
        "companies",
        "meetings",
        "concepts",
        "deal",
        "civic",
        "project",
        "projects",
        "source",
        "media",
        "yc",
        "tech",
        "finance",
        "personal",
        "openclaw",
        "entities",
        "reference",
    ]
)
"""gbrain's `DIR_PATTERN`: `[[dir/…]]` in these folders is read as the literal slug only
(its pass 2b), never slugified or matched by suffix."""

_HYPHENS = re.compile(r"-+")
_WHITESPACE = re.compile(r"\s+")


def slugify_segment(segment: str) -> str:
    """One path segment as gbrain names it (its `slugifySegment`)."""
    folded = "".join(
        c
        for c in unicodedata.normalize("NFD", segment)
        if not ("\u0300" <= c <= "\u036f" or "\u0591" <= c <= "\u05c7")
    )
    kept = "".join(c for c in unicodedata.normalize("NFC", folded).lower() if _kept(c))
    return _HYPHENS.sub("-", _WHITESPACE.sub("-", kept)).strip("-")


def _kept(char: str) -> bool:
    if char in "._-" or char.isspace():
        return True
    category = unicodedata.category(char)
    return category in ("Ll", "Lm", "Lo") or category[0] in "MN"


def gbrain_slug(path: str) -> str:
    """The slug gbrain gives the file at `path` (relative; `.md` optional)."""
    path = re.sub(r"\.mdx?$", "", path, flags=re.IGNORECASE).replace("\\", "/")
    path = re.sub(r"^\.?/", "", path)
    return "/".join(s for s in map(slugify_segment, path.split("/")) if s)


def import_skip_reason(path: str) -> str | None:
    """Why `gbrain import` skips the file at `path` (relative, with `.md`), or None."""
    segments = path.split("/")
    for segment in segments[:-1]:
        if segment.startswith(".") or segment in PRUNED_FOLDER_NAMES or segment.endswith(".raw"):
            return f"gbrain's import skips the folder {segment}/"
    name = segments[-1]
    if name.startswith("."):
        return "gbrain's import skips hidden files"
    if re.search(r"[\x00-\x1f]", path) or re.search(r"[\[\]]", path):
        return "gbrain's import skips names with brackets or control characters"
    if name in SKIPPED_FILE_NAMES:
        return f"gbrain's import skips {name} files"
    if not gbrain_slug(path):
        return "the file name gives gbrain an empty slug"
    return None


def normalize_basename(name: str) -> str:
    """gbrain's `normalizeBasename` (keys of its file-name index)."""
    folded = "".join(c for c in unicodedata.normalize("NFD", name) if not "\u0300" <= c <= "\u036f")
    kept = "".join(
        c
        for c in unicodedata.normalize("NFC", folded).lower()
        if c == "-" or (_kept(c) and c not in "._")
    )
    return _WHITESPACE.sub("-", kept.strip())


def basename_index(slugs: Iterable[str]) -> dict[str, list[str]]:
    """gbrain's file-name index: raw, lowercase and normalised last segment → slugs."""
    index: dict[str, list[str]] = {}
    for slug in slugs:
        tail = slug.rsplit("/", 1)[-1]
        for key in dict.fromkeys((tail, tail.lower(), normalize_basename(tail))):
            if key:
                index.setdefault(key, []).append(slug)
    return index


def basename_matches(index: Mapping[str, list[str]], name: str) -> list[str]:
    """What gbrain's file-name lookup answers for `name` (raw, then lower, then normalised)."""
    name = name.strip()
    if not name:
        return []
    hit = index.get(name) or index.get(name.lower()) or index.get(normalize_basename(name))
    return sorted(hit or (), key=lambda s: (len(s), s))
