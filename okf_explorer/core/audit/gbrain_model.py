"""What gbrain does with a folder and with a written link, as far as the audit needs it.

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
- **Link reading** (`read_link`, its `extractEntityRefs` / `extractPageLinks` with the
  DB source): a Markdown link is read when its destination is `dir/…` (after any
  `../`; not slugified, relative only by its `../` count, else from the root) or a
  bare `name.md` (slugified, in the page's folder); `/`-absolute, `./`, folder and
  reference-style links are not read. A wiki link `[[dir/…]]` names the slug as
  written (for its fixed entity folders) or also its slugified form and path suffix
  (other folders); a bare `[[name]]` names the root page `slugify(name)`, and other
  pages only through the file-name index when `link_resolution.global_basename` is
  on (one `wikilink_basename` edge per match).
- **Prose paths** (`prose_paths`): a slug-shaped `dir/name` in plain text (outside
  code and wiki links) is a link candidate too, kept when such a page exists.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

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
"""gbrain's `DIR_PATTERN`: `[[dir/…]]` in these folders is read as the literal slug only."""

_ENTITY_REF = re.compile(r"((?:\.\./)*)([a-z0-9][a-z0-9_-]*/[^)\s]+?)(?:\.md)?")
_SAME_DIR = re.compile(r"([^)/:#\s]+?)\.md")
_PROSE_PATH = re.compile(r"\b([a-z0-9][a-z0-9_-]*/[a-z0-9][a-z0-9/-]*[a-z0-9])\b")
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_WIKI_SPAN = re.compile(r"\[\[[^\]]*\]\]")
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


@dataclass(frozen=True, slots=True)
class Reading:
    """How gbrain reads one written link: the slugs it would link to without the
    file-name setting (`direct`), the name it looks up only with that setting on
    (`basename`), or why it does not read the link at all (`unread`)."""

    direct: tuple[str, ...] = ()
    basename: str | None = None
    unread: str | None = None


def read_markdown_link(destination: str, page: str, *, reference_style: bool) -> Reading:
    """gbrain's reading of `[text](destination)` on the page `page` (a gbrain slug).

    `destination` is as written, percent-decoded, without its `#anchor`."""
    if reference_style:
        return Reading(unread="a reference-style link ([text][label])")
    if destination.startswith("/"):
        return Reading(unread="a `/`-absolute path")
    if destination.startswith("./"):
        return Reading(unread="a `./` relative path")
    if destination.endswith("/"):
        return Reading(unread="a folder link")
    entity = _ENTITY_REF.fullmatch(destination)
    if entity:
        ups = len(entity.group(1)) // 3
        folders = page.split("/")[:-1]
        keep = max(0, len(folders) - ups) if ups else 0
        return Reading(direct=("/".join([*folders[:keep], entity.group(2)]),))
    same_dir = _SAME_DIR.fullmatch(destination)
    if same_dir:
        folder = page.rsplit("/", 1)[0] + "/" if "/" in page else ""
        target = gbrain_slug(folder + same_dir.group(1))
        return Reading(direct=(target,) if target and target != page else ())
    if destination != destination.lower() or any(c.isspace() for c in destination):
        return Reading(unread="a path with capitals or spaces (it does not slugify link paths)")
    return Reading(unread="a path that does not start with a lowercase folder name")


def read_wiki_link(target: str, page: str, slugs: Iterable[str]) -> Reading:
    """gbrain's reading of `[[target]]` on `page`, against the server's `slugs`."""
    target = target.strip()
    if target.endswith(".md"):
        target = target[:-3]
    if "://" in target:
        return Reading(unread="a URL")
    if "/" not in target:
        bare = gbrain_slug(target)
        return Reading(direct=(bare,) if bare and bare != page else (), basename=target)
    if target.split("/")[0] in ENTITY_FOLDERS:
        return Reading(direct=(target,))
    if ":" in target:
        return Reading(unread="a source-qualified name")
    slugified = gbrain_slug(target)
    found = [target]
    if "/" in slugified:
        found += [s for s in slugs if s == slugified or s.endswith("/" + slugified)]
    return Reading(direct=tuple(dict.fromkeys(s for s in found if s != page)))


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


def prose_paths(text: str) -> set[str]:
    """Slug-shaped `dir/name` runs gbrain reads in plain text (code and wiki links out)."""
    plain = _WIKI_SPAN.sub(" ", _INLINE_CODE.sub(" ", _FENCE.sub(" ", text)))
    found = set()
    for match in _PROSE_PATH.finditer(plain):
        before = plain[match.start() - 1] if match.start() else ""
        if not before or before not in "/(":
            found.add(match.group(1))
    return found
