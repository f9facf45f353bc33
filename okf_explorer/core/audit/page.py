"""The audit's per-page view (issue 12): one page's links as its text states them
against the links the server stores, every difference with its cause (`core.audit.compare`).

Two ways to get one:

- `page_view_of_run`: `browse FOLDER --against URL`. The whole audit ran once
  (`compare` over the folder and the server); its differences are in the server's
  page names, and `names` maps the folder's slugs to them. The view is in the
  folder's slugs: a target only the server holds keeps the server's name.
- `compare_page`: a brain over a server (no folder). The page's text is the
  server's own body (scanned into the index); its links, resolved by our resolver
  against the server's slugs, are compared with what the server's graph answers
  for that page, through the model of the server's importer (the source's
  `ImportedServer.importer`). Page names are the server's on both sides.

Only outgoing edges count (the links a page states): `server −N/+M` says the server
lacks N of them and holds M the text does not state; a pair on both sides with
other relations is listed apart (`differs`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from okf_explorer.core.audit.compare import compare
from okf_explorer.core.audit.model import (
    Difference,
    FileLink,
    FilePage,
    FilesSide,
    ServerImporter,
    ServerSide,
    StoredLink,
)
from okf_explorer.core.index.model import ResolvedLink
from okf_explorer.core.port import ServerLink, relation_of


@dataclass(frozen=True, slots=True)
class PageView:
    """One page against the server. Keys are target slugs in the brain's names."""

    slug: str
    lacks: Mapping[str, Difference] = field(default_factory=dict)
    """Edges the text states and the server lacks (side `files`)."""
    adds: Mapping[str, Difference] = field(default_factory=dict)
    """Edges only the server holds (side `server`)."""
    differs: Mapping[str, Difference] = field(default_factory=dict)
    """Edges on both sides with other relations (side `both`)."""
    page: Difference | None = None
    """A page-level difference (the server lacks the page, or holds only it)."""
    into: Mapping[str, Difference] = field(default_factory=dict)
    """Differences on edges into the page, by the linking page (a whole audit only)."""

    @property
    def summary(self) -> str:
        """`server −N/+M` (what the page header shows)."""
        return f"server −{len(self.lacks)}/+{len(self.adds)}"

    @property
    def agrees(self) -> bool:
        return not (self.lacks or self.adds or self.differs or self.page)

    def about(self, target: str) -> Difference | None:
        """The difference on the edge to `target`, if any."""
        return self.lacks.get(target) or self.adds.get(target) or self.differs.get(target)


def view_of(slug: str, differences: Iterable[Difference], to_brain: Mapping[str, str]) -> PageView:
    """The view of page `slug` from the differences about it (server names), targets
    named back in the brain's names through `to_brain` (unknown ones kept)."""
    lacks: dict[str, Difference] = {}
    adds: dict[str, Difference] = {}
    differs: dict[str, Difference] = {}
    page: Difference | None = None
    for difference in differences:
        if difference.target is None:
            page = difference
            continue
        target = to_brain.get(difference.target, difference.target)
        side = {"files": lacks, "server": adds, "both": differs}[difference.side]
        side.setdefault(target, difference)
    return PageView(slug, lacks, adds, differs, page)


PRIVATE = "private_page"
PRIVATE_FIX = (
    "gbrain hides `visibility: private` pages from remote callers, and every link to or"
    " from them: nothing to fix (its operator can show them with"
    " `search.remote_private_pages`, or okf-explorer's `serve --show-private`)"
)


@dataclass
class RunViews:
    """Per-page views of one whole audit (`browse FOLDER --against URL`).

    `private` holds the folder's pages marked `visibility: private` that the server
    hid: such a page's view says so (cause `private_page`), and no other page's view
    shows a link to it as missing: the server hid that page on purpose.
    """

    differences: Sequence[Difference]
    names: Mapping[str, str]
    """The folder's slug → the server's name of that page."""
    private: frozenset[str] = frozenset()
    _by_page: dict[str, list[Difference]] = field(default_factory=dict, init=False)
    _by_target: dict[str, list[Difference]] = field(default_factory=dict, init=False)
    _to_brain: dict[str, str] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        hidden = {self.names.get(slug, slug) for slug in self.private}
        for difference in self.differences:
            if difference.target in hidden:
                continue
            if difference.page in hidden:
                if difference.target is not None:
                    continue
                difference = Difference(
                    difference.page, None, difference.written, PRIVATE, "files", PRIVATE_FIX
                )
            self._by_page.setdefault(difference.page, []).append(difference)
            if difference.target is not None:
                self._by_target.setdefault(difference.target, []).append(difference)
        for slug, name in self.names.items():
            self._to_brain.setdefault(name, slug)

    def view(self, slug: str) -> PageView:
        name = self.names.get(slug, slug)
        view = view_of(slug, self._by_page.get(name, ()), self._to_brain)
        into: dict[str, Difference] = {}
        for difference in self._by_target.get(name, ()):
            into.setdefault(self._to_brain.get(difference.page, difference.page), difference)
        return replace(view, into=into)

    def missing_pages(self) -> list[str]:
        """The folder's pages the server lacks (page-level differences of side files)."""
        return [
            self._to_brain.get(d.page, d.page)
            for d in self.differences
            if d.target is None and d.side == "files"
        ]


class PageAuditor:
    """`compare_page` for the pages of one index, with the file-name table built once.

    The audit's `compare` looks pages up by file name over every page it is given,
    twice per call; a page view hands it only the pages that can matter (the page,
    the targets on both sides, and the pages sharing a file name with a link as
    written), so a view costs what its links cost, not what the brain costs.
    """

    def __init__(self, pages: Iterable[str], importer: ServerImporter) -> None:
        self.pages = frozenset(pages)
        self.importer = importer
        self._tails: dict[str, list[str]] | None = None

    def _by_tail(self) -> dict[str, list[str]]:
        if self._tails is None:
            tails: dict[str, list[str]] = {}
            for page in sorted(self.pages):
                for key in self.importer.file_name_keys(page):
                    tails.setdefault(key, []).append(page)
            self._tails = tails
        return self._tails

    def relevant(
        self, slug: str, stated: Sequence[ResolvedLink], stored: Sequence[str]
    ) -> list[str]:
        """The pages `compare` needs for one page's view (see the class docstring)."""
        tails = self._by_tail()
        found = dict.fromkeys([slug, *(link.to for link in stated), *map(str, stored)])
        for link in stated:
            for written in (link.target, self.importer.page_name(link.target)):
                name = written[:-3] if written.lower().endswith(".md") else written
                for key in self.importer.file_name_keys(name):
                    found.update(dict.fromkeys(tails.get(key, ())))
        return [page for page in found if page in self.pages or page == slug]

    def compare(
        self, slug: str, text: str, stated: Sequence[ResolvedLink], stored: Sequence[str]
    ) -> PageView:
        pages = self.relevant(slug, stated, stored)
        return compare_page(slug, text, stated, stored, pages, self.importer)


def compare_page(
    slug: str,
    text: str,
    stated: Sequence[ResolvedLink],
    stored: Sequence[str],
    pages: Iterable[str],
    importer: ServerImporter,
) -> PageView:
    """Page `slug` of a server brain: the links its text states (`stated`, the index's
    resolved links) against what the server's graph answers for it (`stored`, plain
    slugs or `ServerLink`s), the server's pages in `pages` (all of them, or those
    `PageAuditor.relevant` picks), through the model of the server's `importer`."""
    known = dict.fromkeys(pages)
    known[slug] = None
    # every page on both sides, so only this page's edges can differ (no page-level ones)
    texts = {page: FilePage(path=page + ".md") for page in known}
    texts[slug] = FilePage(path=slug + ".md", text=text)
    files = FilesSide(
        pages=texts,
        links=[
            FileLink(slug, link.to, link.target, link.kind, link.rule, link.rel, link.ambiguous)
            for link in stated
            if link.exists and not link.incoming
        ],
    )
    rows = [
        StoredLink(
            slug,
            str(link),
            "mentions" if relation_of(link) == "links" else relation_of(link),
            # a row that does not say where the server found it (a `traverse_graph`
            # row) is taken as extracted: only a stated `link_source` shows a manual link
            (link.link_source if isinstance(link, ServerLink) else None) or "markdown",
        )
        for link in stored
    ]
    served = ServerSide(pages=known, links=rows)
    found = compare(files, served, importer, server_text=lambda _: text)
    return view_of(slug, (d for d in found if d.page == slug), {})
