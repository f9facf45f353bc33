"""The files' side of an audit (`core.audit.compare.FilesSide`) from a folder's link index, so
the CLI audit and the TUI's per-page view build it the same way."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from okf_explorer.core.audit.model import (
    FileLink,
    FilePage,
    FilesSide,
    Naming,
    server_names,
    skip_reason,
)
from okf_explorer.core.index.model import LinkIndex


def files_side(
    index: LinkIndex,
    texts: Mapping[str, str],
    naming: Naming,
    private: frozenset[str] = frozenset(),
    frontmatter: Mapping[str, tuple[Mapping[str, Any], str | None]] | None = None,
    errors: Mapping[str, str] | None = None,
    first_lines: Mapping[str, int] | None = None,
) -> FilesSide:
    """The files' side of an audit from the folder's link index: readable pages keyed by
    the server's name (`naming`), `texts` their bodies (slug → body without
    frontmatter), and every resolved, existing edge, typed ones included (an incoming
    relation runs from its target to the page stating it). Dangling links are left
    out: a server never stores them. When two files map to one server slug, the first
    keeps it and the other is a page `skipped` under its own slug. `private` holds the
    slugs of pages marked `visibility: private`; `frontmatter` each page's frontmatter
    and type (slug → (frontmatter, type)), for what gbrain reads there; `errors` why a
    page's frontmatter is not valid YAML (slug → reason); `first_lines` the file line of
    each body's first line (line numbers in fixes are the file's)."""
    names = server_names(index.pages, naming)
    stated = frontmatter or {}
    twins: set[str] = set()
    """Files skipped for another of the same slug: their links stay theirs (the page's
    own difference stands for them); links to them reach the slug's page."""
    pages: dict[str, FilePage] = {}
    for slug, info in index.pages.items():
        if not info.readable:
            continue
        name = names[slug]
        path = slug + ".md"
        skipped = skip_reason(path, naming)
        if skipped is None and name in pages:  # the first file keeps the slug
            kept = pages[name]
            reason = f"two files map to the slug {name} (also {kept.path})"
            pages[name] = replace(kept, twin=path)
            pages[slug] = FilePage(
                path=path, text=texts.get(slug, ""), skipped=reason, twin=kept.path
            )
            twins.add(slug)
            continue
        fields, page_type = stated.get(slug, ({}, None))
        pages[name] = FilePage(
            path=path,
            text=texts.get(slug, ""),
            skipped=skipped,
            private=slug in private,
            frontmatter=fields,
            page_type=page_type,
            frontmatter_error=(errors or {}).get(slug),
            first_line=(first_lines or {}).get(slug, 1),
        )
    links: list[FileLink] = []
    for slug, resolved in index.forward.items():
        for link in resolved:
            if not link.exists or slug not in names or link.to not in names:
                continue
            frm, to = (link.to, slug) if link.incoming else (slug, link.to)
            links.append(
                FileLink(
                    page=frm if frm in twins else names[frm],
                    target=names[to],
                    written=link.target,
                    kind=link.kind,
                    rule=link.rule,
                    rel=link.rel,
                    ambiguous=link.ambiguous,
                )
            )
    return FilesSide(pages=pages, links=links)
