"""The audit's per-page view (`core.audit.page`), pure: a whole audit's differences
split by page and named back in the folder's slugs, private pages the server hid
never shown as missing, and one page of a server brain compared on its own (through
the model of the importer its source offers, against our own `serve`)."""

from __future__ import annotations

from pathlib import Path

from okf_explorer.core.audit.model import Difference, ImportedServer
from okf_explorer.core.audit.page import PRIVATE, PageAuditor, RunViews, compare_page, view_of
from okf_explorer.core.brain import Brain
from okf_explorer.core.index.model import ResolvedLink
from okf_explorer.core.port import ServerLink
from okf_explorer.sources.factory import open_source
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.gbrain.importer import GBRAIN
from tests.bundles import write_pages
from tests.mcp_server_fixture import serve_bundle

NAMES = {
    "Zettelkasten": "zettelkasten",
    "notes/Daily Note": "notes/daily-note",
    "notes/Secret Plan": "notes/secret-plan",
    "people/alice": "people/alice",
}


def diff(page: str, target: str | None, side: str, cause: str = "unexplained") -> Difference:
    return Difference(page, target, None, cause, side, "fix")  # type: ignore[arg-type]


DIFFERENCES = [
    diff("zettelkasten", "notes/daily-note", "files", "unread_form"),
    diff("zettelkasten", "people/bob", "server", "manual_link"),
    diff("zettelkasten", "people/alice", "both", "relation_differs"),
    diff("notes/daily-note", "notes/secret-plan", "files", "target_missing"),
    diff("notes/secret-plan", None, "files"),
]


def test_views_are_split_by_page_and_named_back() -> None:
    views = RunViews(DIFFERENCES, NAMES)
    view = views.view("Zettelkasten")
    assert view.summary == "server −1/+1" and not view.agrees
    assert list(view.lacks) == ["notes/Daily Note"]  # the folder's name
    assert list(view.adds) == ["people/bob"]  # only on the server: its own name
    assert list(view.differs) == ["people/alice"]
    assert view.about("notes/Daily Note") is DIFFERENCES[0]
    assert views.view("people/alice").agrees
    assert views.missing_pages() == ["notes/Secret Plan"]


def test_a_private_page_the_server_hid_is_never_missing() -> None:
    views = RunViews(DIFFERENCES, NAMES, frozenset({"notes/Secret Plan"}))
    assert views.view("notes/Daily Note").agrees  # its link to the hidden page: not shown
    hidden = views.view("notes/Secret Plan")
    assert hidden.page is not None and hidden.page.cause == PRIVATE
    assert hidden.summary == "server −0/+0"


def test_view_of_keeps_the_first_difference_per_target() -> None:
    first, second = diff("a", "b", "files", "unread_form"), diff("a", "b", "files")
    assert view_of("a", [first, second], {}).lacks == {"b": first}


def link(target: str, to: str, rule: str = "exact", rel: str = "links") -> ResolvedLink:
    return ResolvedLink(target, to, "wiki", rule, rel=rel)  # type: ignore[arg-type]


def test_one_server_page_compared_with_its_text() -> None:
    pages = ["zettelkasten", "people/alice", "people/bob", "notes/daily-note", "people/carol"]
    text = "See [[people/alice]], [[Daily Note]] and [[ghost]]."
    stated = [
        link("people/alice", "people/alice"),
        link("Daily Note", "notes/daily-note", "basename"),
        link("ghost", "ghost", "dangling"),  # dangling: the server never stores those
    ]
    stored = [
        ServerLink("people/alice", "links", "markdown"),
        ServerLink("people/carol", "links", "manual"),
    ]
    view = compare_page("zettelkasten", text, stated, stored, pages, GBRAIN)
    assert {t: d.cause for t, d in view.lacks.items()} == {"notes/daily-note": "basename_only"}
    assert {t: d.cause for t, d in view.adds.items()} == {"people/carol": "manual_link"}
    assert view.page is None and view.summary == "server −1/+1"


def test_a_stored_row_without_link_source_is_not_called_manual() -> None:
    """The page's copy states no such link: an edge gbrain's extractor kept (it only adds)."""
    view = compare_page("a", "no links", [], ["b"], ["a", "b"], GBRAIN)
    assert [d.cause for d in view.adds.values()] == ["stale_links"]


def test_the_auditor_gives_what_comparing_over_every_page_gives() -> None:
    """`PageAuditor` hands `compare` only the pages that can matter: the same view,
    ambiguous file names included (a page sharing the linked name elsewhere)."""
    pages = [f"notes/p{i:03d}" for i in range(300)] + ["archive/p005", "Other/P 007"]
    stated = [link(f"p{i:03d}", f"notes/p{i:03d}", "basename") for i in range(1, 12)]
    stored = [ServerLink(f"notes/p{i:03d}", "links", "markdown") for i in range(8, 20)]
    auditor = PageAuditor(pages, GBRAIN)
    assert "archive/p005" in auditor.relevant("notes/p000", stated, stored)
    fast = auditor.compare("notes/p000", "text", stated, stored)
    full = compare_page("notes/p000", "text", stated, stored, pages, GBRAIN)
    assert fast == full and fast.summary == "server −7/+8"
    assert fast.lacks["notes/p005"].cause == "ambiguous_basename"


def test_a_server_brain_views_a_page_through_the_importer_its_source_models(
    tmp_path: Path,
) -> None:
    """`Brain.page_view` asks the source for the model of its server's importer
    (`ImportedServer`): an MCP source offers gbrain's; a folder has no server to compare."""
    bundle = write_pages(tmp_path / "brain", {"a": "See [[b]].\n", "b": "# B\n"})
    with serve_bundle(bundle) as server:
        source = open_source(server.url)
        assert isinstance(source, ImportedServer) and source.importer() is GBRAIN
        brain = Brain(source, cache_dir=False)
        try:
            view = brain.page_view("a")
        finally:
            brain.close()
    assert view is not None and view.agrees and view.summary == "server −0/+0"
    folder = Brain(BundleSource(bundle), cache_dir=False)
    assert not isinstance(folder.source, ImportedServer) and folder.page_view("a") is None
