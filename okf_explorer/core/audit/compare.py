"""The audit: the graph the files state against the graph a server stores, every
difference with a cause decided from evidence (`okf-explorer audit`, issue 12).

`compare(files, server, server_text=...) -> list[Difference]` is pure: the
gathering (reading the folder, calling the server) lives in `sources.audit_gather`.
Both sides name pages as the server does (`choose_naming`, `server_names`): gbrain
lowercases and hyphenates paths (`core.audit.gbrain_model.gbrain_slug`); our own `serve`
keeps them as they are.

Edges are compared per (page, target) pair, page names on both sides in the
server's naming; a pair on both sides whose relations differ is one difference
(side `both`). Causes, in the order they are tried (`CAUSES` holds each one's fix):

- `page_skipped` (files): gbrain's import skips the file
  (`audit_gbrain.import_skip_reason`), or two files map to one slug;
- `private_page` (files): the file says `visibility: private`, and gbrain hides such
  pages (and every link to them) from remote callers;
- `page_only_on_server` (server): a server page no file names;
- `target_missing` (files): the link's target page is not on the server;
- `other_source` (either): the target lives on another gbrain source (`source_id`);
- `frontmatter_only` (files): the link is stated only in frontmatter, and the server
  holds no frontmatter edge (so it ran `extract` without `--include-frontmatter`);
- `unread_form` (either): gbrain does not read the link's form, or reads it as
  another page;
- `title_or_alias` (files): our resolver matched a title or an alias; gbrain never does;
- `basename_only` (files): a file-name-only `[[name]]`, linked by gbrain only with
  `link_resolution.global_basename`;
- `ambiguous_basename` (either): several pages share that file name (gbrain then
  links every one, typed `wikilink_basename`);
- `escaped_pipe` (files): gbrain would read the link, written `[[x\\|alias]]` (a table);
- `relation_differs` (both): the pair is on both sides with other relations (gbrain
  infers verbs from nearby words);
- `manual_link` (server): added by hand (a `link_source` no extractor writes);
- `prose_path` (server): gbrain read a slug-shaped `dir/name` in plain text as a link;
- `content_differs` (either): the server's copy of the page differs from the file;
- `unexplained` (either): none of the above (0 on our fixtures).

Links from a page the server lacks are not listed one by one: the page's own
difference stands for them.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import unquote

from okf_explorer.core.audit.gbrain_model import (
    Reading,
    basename_index,
    basename_matches,
    prose_paths,
    read_markdown_link,
    read_wiki_link,
)
from okf_explorer.core.audit.model import (
    Difference,
    FileLink,
    FilePage,
    FilesSide,
    Naming,
    ServerSide,
    Side,
    StoredLink,
    choose_naming,
    server_names,
    skip_reason,
)
from okf_explorer.core.links.typed import LINKS

__all__ = [
    "CAUSES",
    "Difference",
    "FileLink",
    "FilePage",
    "FilesSide",
    "Naming",
    "ServerSide",
    "Side",
    "StoredLink",
    "choose_naming",
    "compare",
    "server_names",
    "skip_reason",
]

CAUSES: dict[str, str] = {
    "page_skipped": "{detail}: rename or move the file if it is a page",
    "private_page": "gbrain hides `visibility: private` pages from remote callers, and"
    " every link to or from them: nothing to fix (the operator can show them with"
    " `search.remote_private_pages`)",
    "page_only_on_server": "the page is in no file: it was written with put_page or imported"
    " from elsewhere; export it to the folder, or delete it on the server",
    "target_missing": "the target is not on the server ({detail}): rename its file, or"
    " link to a page the server holds",
    "other_source": "the page is on gbrain source {detail}: audit that source's folder too,"
    " or qualify the link as [[{detail}:{target}]]",
    "frontmatter_only": "re-run `gbrain extract links --source db --include-frontmatter`,"
    " or state the link in the page's body too",
    "unread_form": "write the link as [[{target}]] ({detail})",
    "title_or_alias": "gbrain resolves no titles or aliases: write [[{target}|{written}]]",
    "basename_only": "write the link as [[{target}]], or run `gbrain config set"
    " link_resolution.global_basename true` then `gbrain extract links --source db`",
    "ambiguous_basename": "write the link as [[{target}]]: {detail}",
    "escaped_pipe": "upgrade gbrain (escaped table pipes were dropped before gbrain#4062),"
    " or write the link without an alias",
    "relation_differs": "nothing to fix if the relation is right ({detail}); state it in"
    " frontmatter to make it explicit",
    "manual_link": "the edge was added on the server ({detail}): write it into the file, or"
    " remove it with remove_link",
    "prose_path": "gbrain reads the text `{target}` in the page as a link: write it as"
    " [[{target}]] if meant, or reword it",
    "content_differs": "the server's copy of the page differs from the file (put_page, or not"
    " re-imported): run `gbrain import` then `gbrain extract links --source db`",
    "unexplained": "no evidence explains it: please report it with the page and target",
}
"""Every cause, in report order, with its fix (a template over the difference's fields)."""

SERVER_LINKS = frozenset({"mentions", "wikilink_basename", ""})
"""Server link types that state no relation (a plain body link)."""
EXTRACTED_SOURCES = frozenset({"markdown", "frontmatter", "mentions", "wikilink-resolved"})
"""`link_source` values gbrain's extractors write; any other was added by hand."""


@dataclass
class _Evidence:
    files: FilesSide
    server: ServerSide
    server_text: Callable[[str], str | None]
    global_basename: bool
    frontmatter_extracted: bool
    names: dict[str, list[str]] = field(default_factory=dict)
    readings: dict[tuple[str, str, str], Reading] = field(default_factory=dict)
    by_page: dict[str, list[FileLink]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.names = basename_index(self.server.pages)
        for link in self.files.links:
            self.by_page.setdefault(link.page, []).append(link)

    def reading(self, link: FileLink) -> Reading:
        key = (link.page, link.written, link.kind)
        if key not in self.readings:
            if link.kind == "markdown":
                form = _inline_form(self.text(link.page), link.written)
                if form == "angle":
                    self.readings[key] = Reading(unread="a `<…>` destination")
                else:
                    self.readings[key] = read_markdown_link(
                        link.written, link.page, reference_style=form is None
                    )
            else:
                self.readings[key] = read_wiki_link(link.written, link.page, self.server.pages)
        return self.readings[key]

    def text(self, page: str) -> str:
        found = self.files.pages.get(page)
        return found.text if found else ""

    def differs(self, page: str) -> bool:
        stored = self.server_text(page)
        return stored is not None and _words(stored) != _words(self.text(page))


def compare(
    files: FilesSide,
    server: ServerSide,
    *,
    server_text: Callable[[str], str | None] = lambda slug: None,
    global_basename: bool | None = None,
    frontmatter_extracted: bool | None = None,
) -> list[Difference]:
    """Every difference between the two sides, each with its cause (module docstring).

    `server_text(slug)` gives the server's body of a page (compiled truth and
    timeline) or None; it is asked only for pages whose differences need it.
    `global_basename` / `frontmatter_extracted` say how the server extracted links;
    None decides from the stored edges (`wikilink_basename` / `frontmatter` rows).
    """
    evidence = _Evidence(
        files,
        server,
        server_text,
        global_basename if global_basename is not None else _bare_names_linked(files, server),
        frontmatter_extracted
        if frontmatter_extracted is not None
        else any(s.link_source == "frontmatter" for s in server.links),
    )
    found = _page_differences(files, server)
    absent = {d.page for d in found}
    stated: dict[tuple[str, str], list[FileLink]] = defaultdict(list)
    for link in files.links:
        if link.page not in absent and link.page != link.target:
            stored_page = files.pages.get(link.page)
            if stored_page is None or stored_page.skipped is None:
                stated[link.page, link.target].append(link)
    stored: dict[tuple[str, str], list[StoredLink]] = defaultdict(list)
    for row in server.links:
        if row.page not in absent and row.page != row.target:  # no self-loops on either side
            stored[row.page, row.target].append(row)
    for pair, links in stated.items():
        if pair not in stored:
            found.append(_files_only(links, evidence))
        else:
            found.extend(_relations(links, stored[pair], evidence))
    for pair, rows in stored.items():
        if pair not in stated:
            found.append(_server_only(rows, evidence))
    order = list(CAUSES)
    return sorted(found, key=lambda d: (order.index(d.cause), d.page, d.target or ""))


def _bare_names_linked(files: FilesSide, server: ServerSide) -> bool:
    """True when the server holds a `wikilink_basename` edge for a bare `[[name]]` (so
    `global_basename` is on; dir-qualified `[[dir/x]]` get that type without it)."""
    bare: dict[str, set[str]] = defaultdict(set)
    for link in files.links:
        if link.kind != "markdown" and "/" not in link.written:
            bare[link.page].add(link.written)
    names = basename_index(server.pages)
    return any(
        row.target in basename_matches(names, written)
        for row in server.links
        if row.link_type == "wikilink_basename"
        for written in bare.get(row.page, ())
    )


def _page_differences(files: FilesSide, server: ServerSide) -> list[Difference]:
    found = []
    links_from = Counter(link.page for link in files.links if link.page != link.target)
    for slug, page in files.pages.items():
        if slug in server.pages and page.skipped is None:
            continue
        if page.skipped is not None:
            count = links_from[slug]
            plural = "" if count == 1 else "s"
            detail = page.skipped + (f" ({count} link{plural} from it)" if count else "")
            found.append(_difference(slug, None, page.path, "page_skipped", "files", detail))
        elif page.private:
            found.append(_difference(slug, None, page.path, "private_page", "files"))
        else:
            found.append(_difference(slug, None, page.path, "unexplained", "files"))
    for slug in server.pages:
        if slug not in files.pages:
            found.append(_difference(slug, None, None, "page_only_on_server", "server"))
    return found


def _files_only(links: list[FileLink], evidence: _Evidence) -> Difference:
    link = next((x for x in links if x.rel == LINKS), links[0])
    page, target = link.page, link.target

    def said(cause: str, detail: str = "") -> Difference:
        return _difference(page, target, link.written, cause, "files", detail)

    if target not in evidence.server.pages:
        skipped = evidence.files.pages.get(target)
        if skipped is not None and skipped.private and skipped.skipped is None:
            return said("private_page")
        reason = skipped.skipped if skipped and skipped.skipped else "no such page"
        return said("target_missing", reason)
    source = evidence.server.pages[target]
    if source != evidence.server.pages.get(page):
        return said("other_source", str(source))
    if link.rel != LINKS:
        return said("unexplained" if evidence.frontmatter_extracted else "frontmatter_only")
    reading = evidence.reading(link)
    if reading.unread:
        return said("unread_form", f"gbrain does not read {reading.unread}")
    if link.rule == "refdef" and target not in reading.direct:
        return said("unread_form", "gbrain does not resolve [[name]] through a `[name]: path`")
    if target in reading.direct:
        if _escaped_pipe(evidence.text(page), link.written):
            return said("escaped_pipe")
        return said("content_differs" if evidence.differs(page) else "unexplained")
    if link.rule in ("title", "alias"):
        return said("title_or_alias")
    if reading.basename is not None:
        matches = basename_matches(evidence.names, reading.basename)
        if target in matches and not evidence.global_basename:
            if len(matches) > 1 or link.ambiguous:
                return said("ambiguous_basename", _shared(matches))
            return said("basename_only")
    if reading.direct:
        read_as = ", ".join(reading.direct)
        return said("unread_form", f"gbrain reads it as {read_as}, which it does not hold")
    return said("content_differs" if evidence.differs(page) else "unexplained")


def _server_only(rows: list[StoredLink], evidence: _Evidence) -> Difference:
    row = rows[0]
    page, target = row.page, row.target
    page_links = evidence.by_page.get(page, [])

    def said(cause: str, detail: str = "", written: str | None = None) -> Difference:
        return _difference(page, target, written, cause, "server", detail)

    if row.target_source is not None and row.target_source != evidence.server.pages.get(page):
        return said("other_source", row.target_source)
    manual = [r for r in rows if r.link_source not in EXTRACTED_SOURCES]
    if manual:
        return said("manual_link", f"link_source {manual[0].link_source}")
    for link in page_links:
        if link.rel != LINKS:
            continue
        reading = evidence.reading(link)
        if target in reading.direct:
            detail = f"the files resolve it to {link.target}; gbrain reads {target}"
            return said("unread_form", detail, link.written)
        if reading.basename is not None and evidence.global_basename:
            matches = basename_matches(evidence.names, reading.basename)
            if target in matches:
                return said("ambiguous_basename", _shared(matches), link.written)
    if target in prose_paths(evidence.text(page)):
        return said("prose_path", "", target)
    return said("content_differs" if evidence.differs(page) else "unexplained")


def _relations(
    links: list[FileLink], rows: list[StoredLink], evidence: _Evidence
) -> list[Difference]:
    stated = {link.rel for link in links}
    stored = {LINKS if r.link_type in SERVER_LINKS else r.link_type for r in rows}
    if stated == stored:
        return []
    link = links[0]
    only_stated = stated - stored
    if only_stated and not (stored - stated) and not evidence.frontmatter_extracted:
        typed = next(x for x in links if x.rel in only_stated)
        return [_difference(link.page, link.target, typed.written, "frontmatter_only", "files")]
    detail = f"files: {', '.join(sorted(stated))}; server: {', '.join(sorted(stored))}"
    return [_difference(link.page, link.target, link.written, "relation_differs", "both", detail)]


def _difference(
    page: str, target: str | None, written: str | None, cause: str, side: Side, detail: str = ""
) -> Difference:
    fix = CAUSES[cause].format(detail=detail, target=target, written=written)
    return Difference(page, target, written, cause, side, fix)


def _shared(matches: list[str]) -> str:
    return f"{len(matches)} pages share that file name ({', '.join(matches[:3])})"


def _inline_form(text: str, destination: str) -> str | None:
    """How `destination` is written as an inline `](…)` link target in `text`: `plain`,
    `angle` (only as `](<…>)`), or None (not inline: a reference-style link)."""
    found = None
    for match in re.finditer(r"\]\(\s*(<?)([^)>]*?)>?\s*(?:\"[^\"]*\")?\)", text):
        written = unquote(match.group(2).split("#", 1)[0]).strip()
        if written == destination:
            if not match.group(1):
                return "plain"
            found = "angle"
    return found


def _escaped_pipe(text: str, written: str) -> bool:
    return re.search(r"\[\[\s*" + re.escape(written) + r"(?:#[^|\]]*)?\s*\\\|", text) is not None


def _words(text: str) -> list[str]:
    return text.split()
