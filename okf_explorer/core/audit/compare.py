"""The audit: the graph the files state against the graph a server stores, every
difference with a cause decided from evidence (`okf-explorer audit`, issue 12).

`compare(files, server, importer, server_text=...) -> list[Difference]` is pure: the
gathering (reading the folder, calling the server) lives in `sources.audit_gather`,
which hands it the model of the server's importer (`core.audit.model.ServerImporter`;
gbrain's is `sources.gbrain.importer`). Both sides name pages as the server does
(`choose_naming`, `server_names`): gbrain lowercases and hyphenates paths; our own
`serve` keeps them as they are.

Causes come from running the importer's own extraction steps (`LinkReader.candidates`,
for gbrain a port checked against its extractor) on the server's copy of the page and
on the file, under the settings the server was extracted with. Those settings are
decided from evidence only they explain (`Audit.settings`): an edge gbrain makes only with
`link_resolution.global_basename` (or `--include-frontmatter`) that the server holds
says on; such edges missing say off; none, or both kinds, say unknown, and a fix that
depends on the setting then names both ways.

Edges are compared per (page, target) pair; a pair on both sides whose relations
differ is one difference (side `both`). The causes, in report order (`CAUSES` holds
each one's fix):

- `page_skipped` (files): gbrain's import skips the file, or two files map to one slug;
- `invalid_frontmatter` (files): the file's frontmatter is not valid YAML, and
  gbrain's import skips such files;
- `private_page` (files): `visibility: private` pages are hidden from remote callers;
- `page_only_on_server` (server): a server page no file names;
- `page_renamed` (files): the server renamed the page (it answers the old slug with
  the new page: a slug alias);
- `target_missing` (files): the link's target page is not on the server;
- `other_source` (either): the target lives on another gbrain source (`source_id`);
- `frontmatter_only` (files): gbrain reads the field only with `--include-frontmatter`,
  and the server was not extracted with it;
- `okf_field` (files): an OKF field gbrain never reads (`sources[].resource`,
  `resource`, `computation`, `executor`/`attester.resource`);
- `field_unresolved` (either): gbrain resolves the field's value to another page, or
  to none (its folder hints and fuzzy title match);
- `code_masked` (files): gbrain's code stripping pairs two ``` the Markdown does not
  (inline code, an info string, a nested fence) and skips the link between;
- `code_read` (server): gbrain reads a link the Markdown holds in code (`~~~` fences,
  indented code, inline code it pairs differently);
- `unread_form` (either): gbrain does not read the link's form, or reads it as
  another page;
- `title_or_alias` (files): our resolver matched a title or an alias; gbrain never does;
- `basename_only` (files): gbrain links it only with `global_basename` on, which the
  server's edges say is off (or do not tell);
- `ambiguous_basename` (either): several pages share that file name (gbrain then
  links every one, typed `wikilink_basename`);
- `escaped_pipe` (files): gbrain would read the link, written `[[x\\|alias]]`, but
  the server does not (a gbrain from before #4062);
- `relation_differs` (both): the pair is on both sides with other relations (one gbrain
  cannot hold is not compared: OKF's, and one written in an inline field or a link
  property, `up:: [[x]]`, which gbrain stores as a plain link);
- `manual_link` (server): added by hand (a `link_source` no extractor writes);
- `prose_path` (server): gbrain read a slug-shaped `dir/name` in plain text as a link;
- `stale_links` (either): the server's copy of the page states the edge (or not) but
  its stored edges say otherwise: links were extracted before the page changed (a
  page written over MCP is linked asynchronously);
- `content_differs` (either): the server's copy of the page differs from the file,
  and that explains the edge;
- `unexplained` (either): none of the above.

Links from a page the server lacks are not listed one by one: the page's own
difference stands for them. A target the server renamed (it answers the old slug
with another page: a slug alias) is compared under its new name (`renamed`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import unquote

from okf_explorer.core.audit.model import (
    GLOBAL_BASENAME,
    INCLUDE_FRONTMATTER,
    Candidate,
    Difference,
    FileLink,
    FilePage,
    FilesSide,
    LinkReader,
    Naming,
    ServedPage,
    ServerImporter,
    ServerSide,
    Side,
    StoredLink,
    choose_naming,
    made_with,
    server_names,
    skip_reason,
)
from okf_explorer.core.links.spans import WikiSpan, link_spans
from okf_explorer.core.links.typed import (
    DERIVED_FROM,
    GBRAIN_FIELDS,
    LINKS,
    OKF_NESTED_FIELDS,
    OKF_TOP_FIELDS,
)

__all__ = [
    "CAUSES",
    "Audit",
    "Difference",
    "FileLink",
    "FilePage",
    "FilesSide",
    "Naming",
    "ServedPage",
    "ServerImporter",
    "ServerSide",
    "Side",
    "StoredLink",
    "choose_naming",
    "compare",
    "run_compare",
    "server_names",
    "skip_reason",
]

CAUSES: dict[str, str] = {
    "page_skipped": "{detail}: rename or move the file if it is a page",
    "invalid_frontmatter": "gbrain's import skips a file whose frontmatter is not valid YAML"
    " ({detail}): fix the frontmatter, then run `gbrain import`",
    "private_page": "gbrain hides `visibility: private` pages from remote callers, and"
    " every link to or from them: nothing to fix (the operator can show them with"
    " `search.remote_private_pages`, or okf-explorer's `serve --show-private`)",
    "page_only_on_server": "the page is in no file: it was written with put_page or imported"
    " from elsewhere; export it to the folder, or delete it on the server",
    "page_renamed": "the server renamed the page to {detail} (a slug alias: links to the old"
    " name still reach it): rename the file to match",
    "target_missing": "the target is not on the server ({detail}): rename its file and link"
    " to the page's new name, or link to a page the server holds",
    "other_source": "the page is on gbrain source {detail}: audit that source's folder too,"
    " or qualify the link as [[{detail}:{target}]]",
    "frontmatter_only": "re-run `gbrain extract links --source db --include-frontmatter`,"
    " or state the link in the page's body too ([[{target}]])",
    "okf_field": "{detail}: state the link in the page's body too ([[{target}]])",
    "field_unresolved": "{detail}: write the value as {fixed}",
    "code_masked": "{detail}: move the link above line {line}",
    "code_read": "gbrain reads links in code it does not strip ({detail}): put the code"
    " in a ``` fence (gbrain skips only ``` pairs and `inline code`)",
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
    "stale_links": "{detail}",
    "content_differs": "{detail}",
    "unexplained": "no evidence explains it: please report it with the page and target",
}
"""Every cause, in report order, with its fix (a template over the difference's fields)."""

SERVER_LINKS = frozenset({"mentions", "wikilink_basename", ""})
"""Server link types that state no relation (a plain body link)."""
EXTRACTED_SOURCES = frozenset({"markdown", "frontmatter", "mentions", "wikilink-resolved"})
"""`link_source` values gbrain's extractors write; any other was added by hand."""
OKF_RELATIONS = frozenset(
    {DERIVED_FROM, *OKF_TOP_FIELDS, *(f"{name}.resource" for name in OKF_NESTED_FIELDS)}
)
"""Relations from OKF fields: gbrain reads none of them, so it cannot hold them."""
GBRAIN_RELATIONS = frozenset(row.rel for row in GBRAIN_FIELDS)
"""Relations gbrain states from its own frontmatter fields. Any other a page states is
written in an inline field or a link property (`core.links.fields`): gbrain keeps the
link as a plain one and cannot hold the relation."""
HIDDEN_KEYS = ("title", "type", "tags", "slug")
"""Frontmatter keys gbrain's import takes out of a page's stored frontmatter."""
STALE_MISSING = (
    "gbrain reads this link in its copy of the page but holds no edge: links were"
    " extracted before the page changed (a page written over MCP is linked"
    " asynchronously): run `gbrain extract links --source db`, or audit again later"
)
STALE_KEPT = (
    "gbrain's copy of the page no longer states this edge, and `gbrain extract links`"
    " only adds edges: remove it with remove_link"
)
COPY_DIFFERS = (
    "the server's copy of the page differs from the file (put_page, or not re-imported):"
    " run `gbrain import` then `gbrain extract links --source db`"
)
MAX_EVIDENCE_PAGES = 200
"""Pages whose server copy is read to settle mixed evidence about a setting."""

ServerText = Callable[[str], "ServedPage | str | None"]
"""`server_text(slug)`: the server's copy of a page (or only its body), or None."""


@dataclass
class Audit:
    """One comparison: both sides, the importer's reading of each page (the server's copy
    and the file, cached), and the settings decided from evidence."""

    files: FilesSide
    server: ServerSide
    importer: ServerImporter
    server_text: ServerText
    prefetch: Callable[[Iterable[str]], None]
    names: LinkReader = field(init=False)
    settings: dict[str, bool | None] = field(default_factory=dict)
    evidence: dict[str, tuple[int, int]] = field(default_factory=dict)
    """setting → (edges that say on, edges that say off)"""
    links_of: dict[str, list[FileLink]] = field(default_factory=dict)
    _file: dict[str, list[Candidate]] = field(default_factory=dict)
    _served: dict[str, list[Candidate] | None] = field(default_factory=dict)
    _spans: dict[str, list[WikiSpan]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.names = self.importer.reader(frozenset(self.server.pages), self.server.titles)
        for link in self.files.links:
            self.links_of.setdefault(link.page, []).append(link)

    def text(self, page: str) -> str:
        found = self.files.pages.get(page)
        return found.text if found else ""

    def served(self, page: str) -> ServedPage | None:
        answer = self.server_text(page)
        if isinstance(answer, str):
            return ServedPage(page, answer, whole=False)
        return answer

    def file_candidates(self, page: str) -> list[Candidate]:
        """The importer's candidates on the file's text (its frontmatter as it stores it)."""
        if page not in self._file:
            found = self.files.pages.get(page)
            frontmatter = {}
            if found is not None:
                frontmatter = {k: v for k, v in found.frontmatter.items() if k not in HIDDEN_KEYS}
            page_type = self.server.types.get(page) or (found.page_type if found else None)
            self._file[page] = self.names.candidates(
                page, self.text(page), frontmatter=frontmatter, page_type=page_type
            )
        return self._file[page]

    def served_candidates(self, page: str) -> list[Candidate] | None:
        """The importer's candidates on the server's copy of the page (None: no copy)."""
        if page not in self._served:
            served = self.served(page)
            self._served[page] = (
                None
                if served is None
                else self.names.candidates(
                    page,
                    served.text,
                    frontmatter=served.frontmatter,
                    page_type=served.page_type or self.server.types.get(page),
                )
            )
        return self._served[page]

    def spans(self, page: str) -> list[WikiSpan]:
        if page not in self._spans:
            self._spans[page] = link_spans(self.text(page))
        return self._spans[page]

    def differs(self, page: str) -> bool:
        served = self.served(page)
        return served is not None and served.text.split() != self.text(page).split()

    def made(self, candidates: Iterable[Candidate], pair: tuple[str, str]) -> bool | None:
        """Whether the importer makes the edge `pair` from `candidates` under the settings:
        True, None (only with a setting that is unknown) or False."""
        best: bool | None = False
        for candidate in candidates:
            if candidate.pair == pair and self.names.holds(candidate):
                made = made_with(candidate, self.settings)
                if made:
                    return True
                if made is None:
                    best = None
        return best


def compare(
    files: FilesSide,
    server: ServerSide,
    importer: ServerImporter,
    *,
    server_text: ServerText = lambda slug: None,
    prefetch: Callable[[Iterable[str]], None] = lambda slugs: None,
    global_basename: bool | None = None,
    frontmatter_extracted: bool | None = None,
    renamed: Mapping[str, str] | None = None,
) -> list[Difference]:
    """Every difference between the two sides, each with its cause (module docstring),
    judged through the model of the server's `importer`.

    `server_text(slug)` gives the server's copy of a page (a `ServedPage`, or only its
    body) or None; `prefetch(slugs)` may read many at once first. `global_basename` /
    `frontmatter_extracted` say how the server extracted links; None decides from the
    edges (`Audit.settings`). `renamed` maps a target the server renamed to its new slug.
    """
    return run_compare(
        files,
        server,
        importer,
        server_text=server_text,
        prefetch=prefetch,
        global_basename=global_basename,
        frontmatter_extracted=frontmatter_extracted,
        renamed=renamed,
    )[0]


def run_compare(
    files: FilesSide,
    server: ServerSide,
    importer: ServerImporter,
    *,
    server_text: ServerText = lambda slug: None,
    prefetch: Callable[[Iterable[str]], None] = lambda slugs: None,
    global_basename: bool | None = None,
    frontmatter_extracted: bool | None = None,
    renamed: Mapping[str, str] | None = None,
) -> tuple[list[Difference], Audit]:
    """`compare`, and the `Audit` it ran (the settings it decided, their evidence)."""
    if renamed:
        files = replace(
            files,
            links=[replace(x, target=renamed.get(x.target, x.target)) for x in files.links],
        )
    audit = Audit(files, server, importer, server_text, prefetch)
    found = _page_differences(files, server, renamed or {})
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
    files_only = [pair for pair in stated if pair not in stored]
    server_only = [pair for pair in stored if pair not in stated]
    both = [pair for pair in stated if pair in stored]
    prefetch([page for page, _ in [*files_only, *server_only, *both]])
    audit.settings = {
        GLOBAL_BASENAME: global_basename
        if global_basename is not None
        else _decide(audit, GLOBAL_BASENAME),
        INCLUDE_FRONTMATTER: frontmatter_extracted
        if frontmatter_extracted is not None
        else _decide(audit, INCLUDE_FRONTMATTER),
    }
    for pair in files_only:
        found.append(_files_only(stated[pair], audit))
    for pair in both:
        found.extend(_relations(stated[pair], stored[pair], audit))
    for pair in server_only:
        found.append(_server_only(stored[pair], audit))
    order = list(CAUSES)
    found.sort(key=lambda d: (order.index(d.cause), d.page, d.target or ""))
    return found, audit


def _decide(audit: Audit, setting: str) -> bool | None:
    """On, off or unknown, from the edges gbrain makes only with `setting` on: held by
    the server (on) or missing there (off). Mixed evidence is checked again on the
    server's copies of the pages that say off (their text may have changed)."""
    stored = {(r.page, r.target, r.link_source) for r in audit.server.links}
    said_on: set[tuple[str, str, str]] = set()
    said_off: dict[str, set[tuple[str, str, str]]] = defaultdict(set)
    if setting == INCLUDE_FRONTMATTER:
        said_on |= {key for key in stored if key[2] == "frontmatter"}
    for slug, page in audit.files.pages.items():
        if page.skipped is not None or slug not in audit.server.pages:
            continue
        for key in _only_with(audit.file_candidates(slug), setting, audit.names):
            if key in stored:
                said_on.add(key)
            else:
                said_off[slug].add(key)
    off = sum(map(len, said_off.values()))
    if said_on and off:
        pages = sorted(said_off, key=lambda s: -len(said_off[s]))[:MAX_EVIDENCE_PAGES]
        audit.prefetch(pages)
        for slug in pages:
            served = audit.served_candidates(slug)
            if served is not None:
                said_off[slug] = {
                    key for key in _only_with(served, setting, audit.names) if key not in stored
                }
        off = sum(map(len, said_off.values()))
    audit.evidence[setting] = (len(said_on), off)
    if said_on and not off:
        return True
    if off and not said_on:
        return False
    return None


def _only_with(
    candidates: list[Candidate], setting: str, names: LinkReader
) -> set[tuple[str, str, str]]:
    """The stored edges (page, target, link_source) `candidates` give only with `setting`."""
    held = [c for c in candidates if names.holds(c) and c.page != c.target]
    without = {(c.page, c.target, c.link_source) for c in held if setting not in c.needs}
    return {
        (c.page, c.target, c.link_source)
        for c in held
        if c.needs == frozenset({setting}) and (c.page, c.target, c.link_source) not in without
    }


def _page_differences(
    files: FilesSide, server: ServerSide, renamed: Mapping[str, str]
) -> list[Difference]:
    found = []
    links_from = Counter(link.page for link in files.links if link.page != link.target)
    new_names = {renamed[slug] for slug in files.pages if slug in renamed}
    for slug, page in files.pages.items():
        if slug in server.pages and page.skipped is None:
            continue
        if slug in renamed and page.skipped is None:
            found.append(_difference(slug, None, page.path, "page_renamed", "files", renamed[slug]))
        elif page.skipped is None and page.frontmatter_error is not None:
            detail = page.frontmatter_error.removeprefix("frontmatter ignored: ")
            found.append(_difference(slug, None, page.path, "invalid_frontmatter", "files", detail))
        elif page.skipped is not None:
            count = links_from[slug]
            plural = "" if count == 1 else "s"
            detail = page.skipped + (f" ({count} link{plural} from it)" if count else "")
            found.append(_difference(slug, None, page.path, "page_skipped", "files", detail))
        elif page.private:
            found.append(_difference(slug, None, page.path, "private_page", "files"))
        else:
            found.append(_difference(slug, None, page.path, "unexplained", "files"))
    for slug in server.pages:
        if slug not in files.pages and slug not in new_names:
            found.append(_difference(slug, None, None, "page_only_on_server", "server"))
    return found


def _files_only(links: list[FileLink], audit: Audit) -> Difference:
    link = next((x for x in links if x.rel == LINKS), links[0])
    page, target = link.page, link.target
    pair = (page, target)

    def said(cause: str, detail: str = "", **extra: str) -> Difference:
        return _difference(page, target, link.written, cause, "files", detail, **extra)

    if target not in audit.server.pages:
        skipped = audit.files.pages.get(target)
        if skipped is not None and skipped.private and skipped.skipped is None:
            return said("private_page")
        reason = "no such page"
        if skipped is not None and skipped.skipped:
            reason = skipped.skipped
        elif skipped is not None and skipped.frontmatter_error:
            reason = "gbrain's import skipped it: its frontmatter is not valid YAML"
        return said("target_missing", reason)
    source = audit.server.pages[target]
    if source != audit.server.pages.get(page):
        return said("other_source", str(source))
    served = audit.served_candidates(page)
    if served is not None and audit.made(served, pair):
        if any(_escaped_pipe(audit.text(page), x.written) for x in links if x.rel == LINKS):
            return said("escaped_pipe")
        return said("stale_links", STALE_MISSING)
    from_file = audit.made(audit.file_candidates(page), pair)
    if served is not None and audit.differs(page):
        copy = audit.served(page)
        states = copy is not None and any(
            s.target == x.written for s in link_spans(copy.text) for x in links
        )
        if from_file or (link.rel == LINKS and not states):
            return said("content_differs", _copy_differs(page, audit))
    if link.rel != LINKS:
        return _field_cause(link, audit, said)
    return _form_cause(link, audit, said)


def _field_cause(link: FileLink, audit: Audit, said: Callable[..., Difference]) -> Difference:
    """Why gbrain holds no edge for a link stated in frontmatter."""
    if link.rel in OKF_RELATIONS:
        if link.rel == DERIVED_FROM:
            detail = (
                "gbrain reads a `sources` entry by its name, slug or title, never its"
                " `resource`, as an incoming discussed_in edge from a page under source/"
                " or media/"
            )
        else:
            detail = f"gbrain does not read the OKF field `{link.rel}`"
        return said("okf_field", detail)
    pair = (link.page, link.target)
    own = [c for c in audit.file_candidates(link.page) if c.origin == "field"]
    stated = [c for c in own if c.pair == pair and audit.names.holds(c)]
    frontmatter = audit.settings.get(INCLUDE_FRONTMATTER)
    if stated and frontmatter is not True:
        return said("frontmatter_only")
    if stated and GLOBAL_BASENAME in stated[0].needs:
        return said("basename_only")
    value = [c for c in own if c.link_type == link.rel and _value(c, audit) == link.written]
    where = ", ".join(dict.fromkeys(c.target if c.target != link.page else c.page for c in value))
    stated_at = audit.files.pages.get(link.page)
    name = audit.importer.field_stating(
        stated_at.frontmatter if stated_at else {}, link.rel, link.written
    )
    detail = f"gbrain resolves `{name}: {link.written}` to " + (where or "no page")
    return said("field_unresolved", detail, fixed=_slug_value(link.target, audit))


def _value(candidate: Candidate, audit: Audit) -> str:
    return audit.importer.field_value(candidate.written)


def _slug_value(target: str, audit: Audit) -> str:
    """A frontmatter value gbrain resolves to `target`: its slug when slug-shaped (it
    looks those up as is), else its title (an exact title is the best fuzzy match)."""
    if "/" in target:
        return target
    return audit.server.titles.get(target) or f"[[{target}]] in the body"


def _form_cause(link: FileLink, audit: Audit, said: Callable[..., Difference]) -> Difference:
    """Why gbrain holds no edge for a body link: how it reads the link as written."""
    page, target = link.page, link.target
    text = audit.text(page)
    spans = [s for s in audit.spans(page) if s.target == link.written and _same_kind(s, link)]
    candidates = audit.file_candidates(page)
    if spans:
        pairs = audit.importer.code_spans(text)
        hidden = [next((p for p in pairs if p[0] <= s.start < p[1]), None) for s in spans]
        if all(hidden):
            start, end = hidden[0]  # type: ignore[misc]
            stated_at = audit.files.pages.get(page)
            first = (stated_at.first_line if stated_at else 1) - 1
            line = first + _line(text, start)
            if text.endswith("```", start + 3, end):
                detail = (
                    f"gbrain pairs the ``` on line {line} with the next ``` (line"
                    f" {first + _line(text, end - 1)}; it pairs any two, in inline code or"
                    " after an info string too) and reads no link between"
                )
            else:
                detail = (
                    f"gbrain pairs the ``` on line {line} with no other (it pairs any two,"
                    " in inline code or after an info string too) and reads no link after it"
                )
            return said("code_masked", detail, line=str(line))
    else:  # not found as written (the text changed): judge the form alone
        text = f"[link]({link.written})" if link.kind == "markdown" else f"[[{link.written}]]"
        spans = link_spans(text)
        candidates = audit.names.candidates(page, text)
    read = [c for c in candidates if c.origin == "link" and any(_overlaps(c, s) for s in spans)]
    by_name = [c for c in read if c.target == target and GLOBAL_BASENAME in c.needs]
    if by_name:
        matches = audit.names.by_file_name(by_name[0].written)
        if len(matches) > 1 or link.ambiguous:
            return said("ambiguous_basename", _shared(matches))
        return said("basename_only")
    if link.rule in ("title", "alias"):
        return said("title_or_alias")
    if link.rule == "refdef":
        return said("unread_form", "gbrain does not resolve [[name]] through a `[name]: path`")
    targets = list(dict.fromkeys(c.target for c in read if c.target != page))
    if targets:
        held = [t for t in targets if t in audit.names.slugs]
        if held:
            return said("unread_form", f"gbrain reads it as {', '.join(held)}")
        return said("unread_form", f"gbrain reads it as {targets[0]}, which it does not hold")
    return said("unread_form", f"gbrain does not read {_unread_reason(text, spans[0])}")


def _server_only(rows: list[StoredLink], audit: Audit) -> Difference:
    row = rows[0]
    page, target = row.page, row.target
    pair = (page, target)

    def said(cause: str, detail: str = "", written: str | None = None) -> Difference:
        return _difference(page, target, written, cause, "server", detail)

    if row.target_source is not None and row.target_source != audit.server.pages.get(page):
        return said("other_source", row.target_source)
    manual = [r for r in rows if r.link_source not in EXTRACTED_SOURCES]
    if manual:
        return said("manual_link", f"link_source {manual[0].link_source}")
    served = audit.served_candidates(page)
    from_file = [c for c in audit.file_candidates(page) if c.pair == pair]
    if served is not None:
        from_served = [c for c in served if c.pair == pair]
        if not from_served:
            if audit.differs(page):
                return said("content_differs", _copy_differs(page, audit))
            copy = audit.served(page)
            if row.link_source == "frontmatter" and (copy is None or not copy.whole):
                return said("unexplained")
            return said("stale_links", STALE_KEPT)
        if not from_file:
            return _differs_or_unexplained(page, audit, said)
    if not from_file:
        return _differs_or_unexplained(page, audit, said)
    candidate = min(from_file, key=lambda c: ("link", "prose", "field").index(c.origin))
    if candidate.origin == "prose":
        return said("prose_path", "", target)
    if candidate.origin == "field":
        value = _value(candidate, audit)
        detail = f"gbrain resolves `{candidate.field}: {value}` to {target}"
        return _difference(
            page, target, value, "field_unresolved", "server", detail,
            fixed="the slug of the page meant",
        )  # fmt: skip
    return _read_link_cause(candidate, audit, said)


def _read_link_cause(
    candidate: Candidate, audit: Audit, said: Callable[..., Difference]
) -> Difference:
    """Why the files lack an edge gbrain read from a written link."""
    page, target = candidate.page, candidate.target
    text = audit.text(page)
    written = text[candidate.start : candidate.end]
    ours = [s for s in audit.spans(page) if _overlaps(candidate, s)]
    if not ours:
        if link_spans(written):
            return said("code_read", _code_kind(text, candidate.start), written)
        return said("unread_form", f"the files do not read {written} as a link", written)
    span = ours[0]
    resolved = [x for x in audit.links_of.get(page, []) if x.written == span.target]
    if candidate.link_source == "wikilink-resolved":
        matches = audit.names.by_file_name(candidate.written.rsplit("/", 1)[-1])
        if len(matches) > 1:
            return said("ambiguous_basename", _shared(matches), span.target)
    if resolved:
        detail = f"the files resolve it to {resolved[0].target}; gbrain reads {target}"
    else:
        detail = f"the files find no page {span.target}; gbrain reads {target}"
    return said("unread_form", detail, span.target)


def _relations(links: list[FileLink], rows: list[StoredLink], audit: Audit) -> list[Difference]:
    stored = {LINKS if r.link_type in SERVER_LINKS else r.link_type for r in rows}
    # relations a server cannot hold (OKF's, and those written in inline fields or link
    # properties: gbrain reads none) are no relation to compare
    stated = {link.rel for link in links}
    unheld = {rel for rel in stated - stored if rel != LINKS and rel not in GBRAIN_RELATIONS}
    stated = stated - unheld or {LINKS}
    if stated == stored:
        return []
    link = links[0]
    only_stated = stated - stored
    if only_stated and not (stored - stated):
        typed = next(x for x in links if x.rel in only_stated)
        if audit.settings.get(INCLUDE_FRONTMATTER) is not True:
            return [_difference(link.page, link.target, typed.written, "frontmatter_only", "files")]
    detail = f"files: {', '.join(sorted(stated))}; server: {', '.join(sorted(stored))}"
    return [_difference(link.page, link.target, link.written, "relation_differs", "both", detail)]


def _difference(
    page: str,
    target: str | None,
    written: str | None,
    cause: str,
    side: Side,
    detail: str = "",
    **extra: str,
) -> Difference:
    fix = CAUSES[cause].format(detail=detail, target=target, written=written, **extra)
    return Difference(page, target, written, cause, side, fix)


def _copy_differs(page: str, audit: Audit) -> str:
    """Why the server's copy of `page` differs: the other file of its slug, or not
    re-imported."""
    found = audit.files.pages.get(page)
    if found is not None and found.twin is not None:
        return (
            f"the server's copy of the page is not this file's: {found.path} and"
            f" {found.twin} map to one slug: rename one of them"
        )
    return COPY_DIFFERS


def _differs_or_unexplained(page: str, audit: Audit, said: Callable[..., Difference]) -> Difference:
    if audit.differs(page):
        return said("content_differs", _copy_differs(page, audit))
    return said("unexplained")


def _shared(matches: list[str]) -> str:
    return f"{len(matches)} pages share that file name ({', '.join(matches[:3])})"


def _same_kind(span: WikiSpan, link: FileLink) -> bool:
    return (span.kind == "markdown") == (link.kind == "markdown")


def _overlaps(candidate: Candidate, span: WikiSpan) -> bool:
    return candidate.start < span.end and span.start < candidate.end


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _code_kind(text: str, at: int) -> str:
    """What holds position `at` as code in Markdown, in words."""
    line_start = text.rfind("\n", 0, at) + 1
    line = text[line_start : text.find("\n", at) if "\n" in text[at:] else len(text)]
    before = text[:line_start]
    if before.count("~~~") % 2 or line.lstrip().startswith("~~~"):
        return "a ~~~ fence"
    if line.startswith(("    ", "\t")):
        return "an indented code block"
    return "code the Markdown and gbrain delimit differently"


def _unread_reason(text: str, span: WikiSpan) -> str:
    """Why gbrain's extractor finds no link in `span` (a Markdown form it does not match)."""
    if span.kind != "markdown":
        return "this wiki-link form"
    written = text[span.start : span.end]
    inline = re.match(r"\[.*\]\(\s*(<?)([^)>]*)", written, re.DOTALL)
    if inline is None:
        return "a reference-style link ([text][label])"
    if inline.group(1):
        return "a `<…>` destination"
    destination = unquote(inline.group(2).split("#", 1)[0]).strip()
    if destination.startswith("/"):
        return "a `/`-absolute path"
    if destination.startswith("./"):
        return "a `./` relative path"
    if destination.endswith("/"):
        return "a folder link"
    if "#" in inline.group(2):
        return "a path with an #anchor"
    if "]" in written[1 : written.index("](")]:
        return "a link text with brackets"
    return "a path that does not start with a lowercase folder name"


def _escaped_pipe(text: str, written: str) -> bool:
    return re.search(r"\[\[\s*" + re.escape(written) + r"(?:#[^|\]]*)?\s*\\\|", text) is not None
