"""One page file: from a slug to its path, its bytes and its parsed `Page`.

Module-level functions over plain values (the real root path, slugs), so the
parallel scan can run them in worker processes and send back `PageRow`s.
"""

from __future__ import annotations

import contextlib
import os

from okf_explorer.core.errors import PageNotFound, PageUnreadable
from okf_explorer.core.links.dialects import links_text
from okf_explorer.core.links.grammar import RawTuple, extract_link_tuples
from okf_explorer.core.links.relation_lines import writes_relations
from okf_explorer.core.links.typed import frontmatter_links
from okf_explorer.core.pages import ErrorKind, Page
from okf_explorer.core.port import PageRow
from okf_explorer.sources.folder.dialect import Dialect
from okf_explorer.sources.folder.page_paths import file_fingerprint, page_path
from okf_explorer.sources.folder.regular_files import NotRegularFile, read_regular
from okf_explorer.sources.frontmatter import (
    Undecodable,
    decode,
    page_from_text,
    parts_of,
    unreadable_page,
)


def read_page(
    root: str,
    slug: str,
    fingerprint: str | None = None,
    real_dirs: dict[str, bool] | None = None,
    dialect: Dialect | None = None,
) -> Page:
    """Read and parse one page. Raises `PageNotFound` or `PageUnreadable`. `dialect`: the
    folder's (`sources.folder.dialect`), None for plain Markdown.

    `fingerprint`, when given, is recorded instead of the file's current one:
    a scan keeps the listing's fingerprint, so a file changed after listing is
    seen as changed again next time (never cached with stale links).
    """
    path = page_path(root, slug, real_dirs)
    try:
        data, info = read_regular(path)  # a FIFO named `x.md` must not hang us: no page
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, NotRegularFile):
        raise PageNotFound(slug) from None
    except OSError as error:
        raise PageUnreadable(slug, (error.strerror or str(error)).lower()) from None
    if fingerprint is None:
        fingerprint = file_fingerprint(info)
    try:
        text = decode(data)
    except Undecodable as error:
        raise PageUnreadable(slug, str(error), "undecodable") from None
    page = page_from_text(slug, text, info.st_mtime_ns, fingerprint)
    return page if dialect is None else dialect.named_page(page)


def read_body(root: str, slug: str, real_dirs: dict[str, bool] | None = None) -> str | None:
    """The body of one page (frontmatter cut off, YAML not parsed), or None when it
    cannot be read; the same file checks as `read_page`."""
    parts = read_parts(root, slug, real_dirs)
    return parts[1] if parts is not None else None


def read_parts(
    root: str, slug: str, real_dirs: dict[str, bool] | None = None
) -> tuple[str, str] | None:
    """`(frontmatter, body)` of one page as written (`parts_of`: YAML not parsed), or
    None when it cannot be read; the same file checks as `read_page`."""
    try:
        data, _ = read_regular(page_path(root, slug, real_dirs))
        return parts_of(decode(data))
    except (PageNotFound, OSError, Undecodable):
        return None


def scan_page(
    root: str,
    slug: str,
    fingerprint: str,
    real_dirs: dict[str, bool] | None = None,
    dialect: Dialect | None = None,
) -> Page:
    """`read_page` that never raises for one page: failures become unreadable pages.
    An empty `fingerprint` (an unstamped listing) is the file's own, as it is read."""
    kind: ErrorKind
    try:
        return read_page(root, slug, fingerprint or None, real_dirs, dialect)
    except PageUnreadable as error:
        reason, kind = error.reason, error.kind
    except PageNotFound:
        reason, kind = "the file no longer exists", "missing"
    if not fingerprint:  # stamp an unreadable page too, so a cached failure is kept
        with contextlib.suppress(PageNotFound, OSError):
            fingerprint = file_fingerprint(os.stat(page_path(root, slug, real_dirs)))
    mtime = fingerprint.split(":", 1)[0]
    mtime_ns = int(mtime) if mtime.isdigit() else 0
    return unreadable_page(slug, reason, mtime_ns, fingerprint, kind)


def page_row(
    root: str,
    slug: str,
    fingerprint: str,
    real_dirs: dict[str, bool] | None = None,
    dialect: Dialect | None = None,
) -> PageRow:
    """Read, parse and extract the links of one page, as a `PageRow` (body links, then
    the frontmatter's typed links)."""
    page = scan_page(root, slug, fingerprint, real_dirs, dialect)
    links: list[RawTuple] = []
    if page.readable:
        content = page.content
        links = extract_link_tuples(
            links_text(dialect.markup, content) if dialect is not None else content,
            relation_lines=writes_relations(page.frontmatter),
        )
        links.extend(frontmatter_links(page.frontmatter, page.type))
    return page.info().to_row(), tuple(links)
