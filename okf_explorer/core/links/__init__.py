"""The OKF link grammar (SPEC §3): parsing link targets out of Markdown, and
resolving them to slugs.

Parsing and resolution are separate: `extract_links` / `parse_links` only read
text (`link_grammar`); `SlugResolver` knows the corpus (`link_resolution`), and
is the one resolver every caller uses. This module is the public face of both.
"""

from __future__ import annotations

from collections.abc import Iterable

from okf_explorer.core.links.grammar import (
    ATTACHMENT_EXTENSIONS,
    LinkKind,
    RawLink,
    extract_links,
    parse_links,
)
from okf_explorer.core.links.resolution import (
    ROOT,
    Resolution,
    ResolveRule,
    SlugResolver,
    looks_like_path,
    slugify,
)

__all__ = [
    "ATTACHMENT_EXTENSIONS",
    "ROOT",
    "LinkKind",
    "RawLink",
    "Resolution",
    "ResolveRule",
    "SlugResolver",
    "extract_links",
    "looks_like_path",
    "parse_links",
    "resolve",
    "slugify",
]


def resolve(target: str, from_slug: str, known_slugs: Iterable[str]) -> str | None:
    """SPEC §3 convenience form: the slug `target` resolves to, or None (dangling).

    Targets ending in `.md` or `/`, or starting with `/`, `./`, `../` are paths;
    others are wiki targets. A bare `.md` target (`x.md`, `tables/x.md`) that is
    not found as a path falls back to the wiki rules, since a wiki target may
    carry `.md`. Builds a resolver per call: use `SlugResolver` for many links.
    """
    kind: LinkKind = "markdown" if looks_like_path(target) else "wiki"
    return SlugResolver(known_slugs).resolve(target, from_slug, kind).slug
