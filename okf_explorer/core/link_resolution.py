"""Resolving raw link targets to slugs (SPEC §3, the resolution half).

`SlugResolver` precomputes every lookup table once per corpus, so a resolve is
a handful of dict probes (it runs ~500k times for a 100k-page bundle).

Choices where the SPEC is silent:
- "Shortest path" for an ambiguous basename means fewest path segments, then
  the lexicographically smallest slug (code-point order): `x/orders` beats
  `archive/2023/orders`, and `a/orders` beats `b/orders`.
- The basename rule also matches longer tails, Obsidian-style: `[[b/x]]`
  finds `a/b/x` when no slug `b/x` exists. Each tail is tried as written,
  case-insensitively, then slugified; a tail that only matches once slugified
  reports rule `slugified` (`[[My Draft Note]]` → `notes/my-draft-note`), the
  transformation that explains the link. Tail ties set `ambiguous` either way.
- When several slugs share a case-folded, slugified or title key, the one that
  sorts first wins (reproducible); only basename ties are flagged `ambiguous`.
- A path target without `/`, `./` or `../` in front (`[x](orders.md)`,
  `[x](tables/orders.md)`, `[[tables/]]`) that is not found relative to the
  linking page falls back to the bundle root: a file through the wiki rules
  (root path, then case, slugified, title, basename), as Obsidian writes such
  links; a folder as `/folder/`. Anchored paths (`/`, `./`, `../`) never fall
  back, and a failed fallback keeps the relative dangling node.
- A path without `.md` that names a folder (`/tables` as a wiki target)
  resolves to `<folder>/index`; `tables.md` names a file, never a folder.
- A path that climbs above the bundle root is dangling; its node keeps the
  unresolvable `..` segments (`../outside`). A dangling folder's node is
  `<folder>/index`, the page that would resolve it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from okf_explorer.core.link_grammar import LinkKind

ResolveRule = Literal[
    "exact", "case", "slugified", "title", "basename", "path", "folder-index", "dangling"
]

_MEMO_LIMIT = 1 << 20
"""At most this many wiki targets are remembered per resolver (bounded memory)."""
_WHITESPACE = re.compile(r"\s+")
_DROPPED = re.compile(r"[^\w\-]")
_HYPHENS = re.compile(r"-{2,}")


@dataclass(frozen=True, slots=True)
class Resolution:
    """How a raw target resolved.

    `node` is the slug when resolved; for a dangling target it is the id of the
    missing node (the wiki target as written, or the normalised path without
    `.md`), so the graph can keep it. `ambiguous` marks a basename match that
    had several candidates.
    """

    node: str
    rule: ResolveRule
    ambiguous: bool = False

    @property
    def exists(self) -> bool:
        return self.rule != "dangling"

    @property
    def slug(self) -> str | None:
        return self.node if self.exists else None


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

    Kept: letters and digits of any script, `-` and `_` (gbrain keeps both);
    dropped: every other character, dots included (`v1.2` → `v12`). Segments
    that end up empty are dropped, so `a//b` and `a/!!/b` give `a/b`.
    `notes/My Draft Note` → `notes/my-draft-note`; `Café Über` → `cafe-uber`.
    """
    if text.isascii() and _is_plain_slug(text):
        return text
    segments = (slugify_segment(s) for s in text.split("/"))
    return "/".join(s for s in segments if s)


_PLAIN_SLUG = re.compile(r"[a-z0-9_]+(?:-[a-z0-9_]+)*(?:/[a-z0-9_]+(?:-[a-z0-9_]+)*)*")


def _is_plain_slug(text: str) -> bool:
    return _PLAIN_SLUG.fullmatch(text) is not None


def _path_depth_key(slug: str) -> tuple[int, str]:
    return (slug.count("/"), slug)


def _tails(slug: str) -> list[str]:
    """Every proper tail of a slug by segments: `a/b/c` → `c`, `b/c`."""
    parts = slug.split("/")
    return ["/".join(parts[i:]) for i in range(len(parts) - 1, 0, -1)]


class _TailIndex:
    """tail key → (best slug, number of candidates), for the basename rule."""

    def __init__(self) -> None:
        self.best: dict[str, str] = {}
        self.count: dict[str, int] = {}

    def add(self, key: str, slug: str) -> None:
        # Slugs arrive in (depth, slug) order, so the first one seen is the best.
        if key not in self.best:
            self.best[key] = slug
            self.count[key] = 1
        else:
            self.count[key] += 1

    def get(self, key: str, rule: ResolveRule = "basename") -> Resolution | None:
        slug = self.best.get(key)
        if slug is None:
            return None
        return Resolution(slug, rule, self.count[key] > 1)


class SlugResolver:
    """Resolves raw targets against a fixed set of slugs (SPEC §3 rules, in order).

    Build once per corpus, then call `resolve` for each link; `titles` maps
    slug → title for the title rule. Only the slug set and the case-folded
    table are built up front (every rule after `exact` needs them); the
    slugified, title, folder and tail tables are each built on the first miss
    that needs them: a corpus whose links all match exactly or by case never
    slugifies a path (~1 s over 100k slugs).
    """

    def __init__(self, slugs: Iterable[str], titles: Mapping[str, str] | None = None) -> None:
        ordered = sorted(set(slugs))
        self._ordered = ordered
        self._slugs = frozenset(ordered)
        self._given_titles = titles or {}
        casefold: dict[str, str] = {}
        for slug in reversed(ordered):  # the first slug in sort order wins a shared key
            casefold[_fold(slug)] = slug
        self._casefold = casefold
        self._lazy: dict[str, Any] = {}
        self._wiki_memo: dict[str, Resolution] = {}

    def _table(self, name: str) -> Any:
        """A lookup table by name, built once (a race builds it twice, harmlessly)."""
        found = self._lazy.get(name)
        if found is None:
            found = self._lazy[name] = getattr(self, "_build" + name)()
        return found

    def _build_slugified(self) -> dict[str, str]:
        table: dict[str, str] = {}
        for slug in self._ordered:
            table.setdefault(slugify(slug), slug)
        return table

    def _build_folders(self) -> dict[str, str]:
        """Casefolded folder → folder as written."""
        table: dict[str, str] = {}
        for slug in self._ordered:
            parts = slug.split("/")
            for i in range(1, len(parts)):
                folder = "/".join(parts[:i])
                table.setdefault(_fold(folder), folder)
        return table

    def _build_titles(self) -> dict[str, str]:
        table: dict[str, str] = {}
        titles = self._given_titles
        for slug in self._ordered:
            title = titles.get(slug)
            if title and title.strip():
                table.setdefault(_fold_title(title), slug)
        return table

    def _build_tails(self) -> tuple[_TailIndex, _TailIndex]:
        """The basename rule's tables: tails as written and case-folded."""
        exact, folded = _TailIndex(), _TailIndex()
        for slug in self._by_depth():
            for tail in filter(None, _tails(slug)):
                exact.add(tail, slug)
                folded.add(_fold(tail), slug)
        return exact, folded

    def _build_tails_slugified(self) -> _TailIndex:
        table = _TailIndex()
        for slug in self._by_depth():
            for tail in filter(None, _tails(slug)):
                table.add(slugify(tail), slug)
        return table

    def _by_depth(self) -> list[str]:
        return sorted(self._ordered, key=_path_depth_key)

    def resolve(self, target: str, from_slug: str, kind: LinkKind = "wiki") -> Resolution:
        """Resolve one target written on page `from_slug`.

        `markdown` targets (and wiki targets that are clearly paths: leading
        `/`, `./`, `../` or a trailing `/`) use the path rules; others (`wiki`,
        `embed`) the wiki rules. An unanchored path that misses falls back to
        the bundle root (see the module notes). Safe to call from several
        threads: the only state it changes is a memo of wiki results.
        """
        written = target.strip()
        if not written:
            return Resolution("", "dangling")
        if kind == "markdown" or _is_explicit_path(written):
            resolution = self._resolve_path(written, from_slug)
            if resolution.exists or _is_anchored(written):
                return resolution
            if written.endswith("/"):
                fallback = self._resolve_path("/" + written, from_slug)
            else:
                fallback = self._resolve_wiki(written)
            return fallback if fallback.exists else resolution
        return self._resolve_wiki(written)

    # --- wiki rules ---------------------------------------------------------

    def _resolve_wiki(self, target: str) -> Resolution:
        """Wiki rules; memoised, since they do not depend on the linking page
        and popular targets (hubs, missing pages) recur across a corpus."""
        if (known := self._wiki_memo.get(target)) is not None:
            return known
        resolution = self._wiki_rules(target)
        if len(self._wiki_memo) < _MEMO_LIMIT:
            self._wiki_memo[target] = resolution
        return resolution

    def _wiki_rules(self, target: str) -> Resolution:
        name = _strip_md(target)
        if name in self._slugs:
            return Resolution(name, "exact")
        folded = _fold(name)
        if (slug := self._casefold.get(folded)) is not None:
            return Resolution(slug, "case")
        slugified = slugify(name)
        if slugified and (slug := self._table("_slugified").get(slugified)) is not None:
            return Resolution(slug, "slugified")
        titles = self._table("_titles")
        if (slug := titles.get(_fold_title(target))) is not None:
            return Resolution(slug, "title")
        if name != target and (slug := titles.get(_fold_title(name))) is not None:
            return Resolution(slug, "title")
        tails, tails_case = self._table("_tails")
        found = (
            tails.get(name)
            or tails_case.get(folded)
            or (self._table("_tails_slugified").get(slugified, "slugified") if slugified else None)
        )
        return found or Resolution(name, "dangling")

    # --- path rules ---------------------------------------------------------

    def _resolve_path(self, target: str, from_slug: str) -> Resolution:
        is_folder = target.endswith("/") or target.rsplit("/", 1)[-1] in (".", "..")
        if target.startswith("/"):
            base: list[str] = []
        else:
            base = from_slug.split("/")[:-1]
        path = target if is_folder else _strip_md(target)
        parts, climbed = _normalise(base, path.split("/"))
        joined = "/".join(parts)
        if climbed:
            return Resolution("/".join([".."] * climbed + parts), "dangling")
        if not is_folder and joined:
            if joined in self._slugs:
                return Resolution(joined, "path")
            if (slug := self._casefold.get(_fold(joined))) is not None:
                return Resolution(slug, "path")
            folder = None if path != target else self._table("_folders").get(_fold(joined))
            if folder is None:  # `x.md` names a file, never a folder
                return Resolution(joined, "dangling")
            joined = folder
        index = f"{joined}/index" if joined else "index"
        if index in self._slugs:
            return Resolution(index, "folder-index")
        if (slug := self._casefold.get(_fold(index))) is not None:
            return Resolution(slug, "folder-index")
        return Resolution(index, "dangling")


def _normalise(base: list[str], parts: list[str]) -> tuple[list[str], int]:
    """Join and normalise `.`/`..`; also how many `..` climbed above the root."""
    result = list(base)
    climbed = 0
    for part in parts:
        if part in ("", "."):
            continue
        if part == "..":
            if result:
                result.pop()
            else:
                climbed += 1
        else:
            result.append(part)
    return result, climbed


def _strip_md(target: str) -> str:
    return target[:-3] if target.lower().endswith(".md") else target


def _fold_title(title: str) -> str:
    return _fold(" ".join(title.split()))


def _fold(text: str) -> str:
    """Case-insensitive key; NFC first, so a macOS (NFD) file name matches a typed link."""
    return text.casefold() if text.isascii() else unicodedata.normalize("NFC", text).casefold()


def _is_anchored(target: str) -> bool:
    """A path that says where it starts: the root (`/`) or this folder (`./`, `../`)."""
    return target.startswith(("/", "./", "../")) or target in (".", "..")


def _is_explicit_path(target: str) -> bool:
    return target.startswith(("/", "./", "../")) or target.endswith("/")


def looks_like_path(target: str) -> bool:
    """True for targets the SPEC calls paths: ending in `.md` or `/`, or
    starting with `/`, `./`, `../`."""
    t = target.strip()
    return t.lower().endswith((".md", "/")) or t.startswith(("/", "./", "../"))
