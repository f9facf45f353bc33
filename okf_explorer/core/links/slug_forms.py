"""The forms of a name the resolver compares (SPEC §3): gbrain's slug form
(`slugify`), case-folded keys (`fold`, `fold_name`), and what a target looks like
(`looks_like_path`, `strip_md`); the order of tied candidates (`tie_key`) and a slug's folder."""

from __future__ import annotations

import re
import unicodedata

_WHITESPACE = re.compile(r"\s+")
_DROPPED = re.compile(r"[^\w.\-]")
_HYPHENS = re.compile(r"-{2,}")


def slugify_segment(segment: str) -> str:
    """One path segment in gbrain's slug form (see `slugify`)."""
    if segment.isascii():  # NFKD leaves ASCII as it is, with no combining marks
        plain = segment.lower()
    else:
        decomposed = unicodedata.normalize("NFKD", segment)
        plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    hyphenated = _DROPPED.sub("", _WHITESPACE.sub("-", plain))
    return _HYPHENS.sub("-", hyphenated).strip("-")


def slugify(text: str) -> str:
    """gbrain's slug form of a name: lowercase, accents stripped, whitespace → `-`,
    hyphens collapsed, other punctuation dropped; applied per `/` segment.

    Kept: letters and digits of any script, `-`, `_` and `.` (gbrain keeps all
    three: `devbox.json` stays `devbox.json`, `v1.2` stays `v1.2`); dropped: every
    other character. Segments that end up empty are dropped, so `a//b` and
    `a/!!/b` give `a/b`.
    `notes/My Draft Note` → `notes/my-draft-note`; `Café Über` → `cafe-uber`.
    """
    if text.isascii() and _is_plain_slug(lower := text.lower()):
        return lower  # every step below leaves a plain slug as it is
    segments = (slugify_segment(s) for s in text.split("/"))
    return "/".join(s for s in segments if s)


_PLAIN_SLUG = re.compile(r"[a-z0-9_]+(?:-[a-z0-9_]+)*(?:/[a-z0-9_]+(?:-[a-z0-9_]+)*)*")


def _is_plain_slug(text: str) -> bool:
    return _PLAIN_SLUG.fullmatch(text) is not None


def tie_key(slug: str) -> tuple[int, str]:
    """The order of candidates before the folder preference: fewest folders, then code points."""
    return (slug.count("/"), slug)


def folder_of(slug: str) -> str:
    """The folder of a page (`""` at the root)."""
    return slug.rpartition("/")[0]


def strip_md(target: str) -> str:
    """The target without a trailing `.md` (any case)."""
    return target[:-3] if target.lower().endswith(".md") else target


def fold_name(text: str) -> str:
    """The key of a title or alias: whitespace collapsed, case-folded."""
    return fold(" ".join(text.split()))


def fold(text: str) -> str:
    """Case-insensitive key; NFC first, so a macOS (NFD) file name matches a typed link."""
    return text.casefold() if text.isascii() else unicodedata.normalize("NFC", text).casefold()


def looks_like_path(target: str) -> bool:
    """True for targets the SPEC calls paths: ending in `.md` or `/`, or
    starting with `/`, `./`, `../`."""
    t = target.strip()
    return t.lower().endswith((".md", "/")) or t.startswith(("/", "./", "../"))
