"""The OKF link grammar (SPEC §3): finding links in Markdown, and resolving them to slugs.

- `grammar`: the link scan (code masked out first): `extract_links` / `parse_links`
  only read text;
- `spans`: where each link of a text is, and the sentence around it (the TUI's
  clickable links, backlink and path sentences, the server's `context`);
- `resolution`: `SlugResolver`, the one resolver every caller uses, the forms of a
  name it compares, and `suggest` for a name that resolves to nothing;
- `fields`: where a page's text types its links: Dataview inline fields (`up:: [[x]]`),
  read by the grammar, which gives the links in a field's value its relation;
- `look_alikes`: characters of a target that look like plainer ones (`‑` for `-`),
  named where a dangling link is explained;
- `typed`: frontmatter relations (OKF, gbrain's fields, link properties) as typed edges,
  resolved by the same resolver.

This module is the face of the grammar and the resolver.
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
    suggest,
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
    "suggest",
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
