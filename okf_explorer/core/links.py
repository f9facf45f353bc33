"""The OKF link grammar (SPEC §3): parsing link targets out of Markdown, and
resolving them to slugs.

Parsing and resolution are separate: `extract_links` / `parse_links` only read
text; `SlugResolver` knows the corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

LinkKind = Literal["wiki", "embed", "markdown"]
ResolveRule = Literal[
    "exact", "case", "slugified", "title", "basename", "path", "folder-index", "dangling"
]


@dataclass(frozen=True, slots=True)
class RawLink:
    """One distinct link target of a page, as written.

    `kind` is the kind of its first appearance; `count` how often the target
    appears in the page (any kind).
    """

    target: str
    kind: LinkKind
    count: int = 1


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


def extract_links(text: str) -> list[RawLink]:
    """Distinct link targets with kind and count, in order of first appearance."""
    raise NotImplementedError


def parse_links(text: str) -> list[str]:
    """Raw link targets in order of first appearance, de-duplicated (SPEC §3)."""
    return [link.target for link in extract_links(text)]


def slugify(text: str) -> str:
    """gbrain's slug form of a name: lowercase, accents stripped, whitespace → `-`,
    hyphens collapsed, other punctuation dropped; applied per `/` segment."""
    raise NotImplementedError


class SlugResolver:
    """Resolves raw targets against a fixed set of slugs (SPEC §3 rules, in order).

    Build once per corpus (it precomputes lookup tables), then call `resolve`
    for each link; `titles` maps slug → title for the title rule.
    """

    def __init__(self, slugs: Iterable[str], titles: Mapping[str, str] | None = None) -> None:
        raise NotImplementedError

    def resolve(self, target: str, from_slug: str, kind: LinkKind = "wiki") -> Resolution:
        """Resolve one target written on page `from_slug`.

        `markdown` targets (and wiki targets that are clearly paths: leading
        `/`, `./`, `../` or a trailing `/`) use the path rules; others the
        wiki rules.
        """
        raise NotImplementedError


def resolve(target: str, from_slug: str, known_slugs: Iterable[str]) -> str | None:
    """SPEC §3 convenience form: the slug `target` resolves to, or None (dangling).

    Targets ending in `.md` or `/`, or starting with `/`, `./`, `../` are paths;
    others are wiki targets. Builds a resolver per call: use `SlugResolver`
    for many links.
    """
    kind: LinkKind = "markdown" if _looks_like_path(target) else "wiki"
    return SlugResolver(known_slugs).resolve(target, from_slug, kind).slug


def _looks_like_path(target: str) -> bool:
    t = target.strip()
    return t.endswith((".md", "/")) or t.startswith(("/", "./", "../"))
