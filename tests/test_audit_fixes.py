"""Every fix `okf-explorer audit` suggests works (gbrain tier): on the audit corpus of
tests/test_audit_gbrain.py, each difference's fix is applied as its text says (to a
copy of the folder, or to the server), the copy is imported and extracted afresh by
the real gbrain, with the settings the fixes name, and the edge (or page) is then
there, or gone when the fix removes it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from okf_explorer.sources.audit_gather import list_server_pages, server_links
from okf_explorer.sources.factory import open_source
from okf_explorer.sources.gbrain.importer import gbrain_slug
from okf_explorer.sources.gbrain.source import McpSource
from tests.gbrain_peer import gbrain_commands
from tests.test_audit_gbrain import CORPUS, _touch_server

SETTINGS = (
    ("link_resolution.global_basename", "true"),
    ("search.remote_private_pages", "visible"),
)
"""The settings the fixes name, on the server of the fixed copy."""
NOTHING_TO_FIX = {"relation_differs"}

Edge = tuple[str, str]


class Checks:
    """What must hold after the fixes: on the server of the fixed copy (`edges` with
    their link_source, `pages`, pairs `agreeing` in its audit) and on the first server
    after the server-side fixes (`edges_now`, `gone_now`, `pages_gone_now`)."""

    def __init__(self) -> None:
        self.edges: set[tuple[str, str, str]] = set()
        self.gone: set[Edge] = set()
        self.pages: set[str] = set()
        self.agreeing: set[Edge] = set()
        self.edges_now: set[Edge] = set()
        self.gone_now: set[Edge] = set()
        self.pages_gone_now: set[str] = set()
        self.covered: set[str] = set()


def _file(folder: Path, page: str) -> Path:
    return folder / (page + ".md")


def _append(folder: Path, page: str, line: str) -> None:
    path = _file(folder, page)
    path.write_text(path.read_text() + "\n" + line + "\n")


def _found(pattern: str, fix: str) -> str:
    match = re.search(pattern, fix)
    assert match is not None, f"the fix does not say {pattern!r}: {fix}"
    return match.group(1)


def _renamed(path: str) -> str:
    stem, _, suffix = path.rpartition(".")
    return f"{stem}-page.{suffix}"


def _apply(record: dict, fixed: Path, checks: Checks, server: McpSource) -> None:
    """Apply one difference's fix as its text says; record what must then hold."""
    cause, page, target, fix = record["cause"], record["page"], record["target"], record["fix"]
    checks.covered.add(cause)
    if cause in ("unread_form", "basename_only", "ambiguous_basename", "title_or_alias"):
        _append(fixed, page, _found(r"write (?:the link as )?(\[\[[^\]]+\]\])", fix))
        checks.edges.add((page, target, "markdown"))
        if cause == "basename_only":  # … or the setting: the bare link, by file name
            assert "link_resolution.global_basename true" in fix
            checks.edges.add((page, target, "wikilink-resolved"))
    elif cause == "okf_field":
        _append(fixed, page, _found(r"state the link in the page's body too \((.+)\)", fix))
        checks.edges.add((page, target, "markdown"))
    elif cause == "frontmatter_only":
        assert "--include-frontmatter" in fix
        checks.edges.add((page, target, "frontmatter"))
    elif cause == "field_unresolved":
        field, value = re.search(r"`([^:`]+): ([^`]+)`", fix).groups()  # type: ignore[union-attr]
        slug = _found(r"write the value as (\S+)$", fix)
        path = _file(fixed, page)
        path.write_text(path.read_text().replace(f"{field}: {value}\n", f"{field}: {slug}\n"))
        checks.edges.add((page, target, "frontmatter"))
    elif cause == "code_masked":
        line = int(_found(r"move the link above line (\d+)", fix))  # of the file
        path = _file(fixed, page)
        lines = path.read_text().split("\n")
        lines.insert(line - 1, f"[[{record['written']}]]")
        path.write_text("\n".join(lines))
        checks.edges.add((page, target, "markdown"))
    elif cause == "code_read":
        assert "put the code in a ``` fence" in fix
        path = _file(fixed, page)
        path.write_text(path.read_text().replace("~~~", "```"))
        checks.gone.add((page, target))
    elif cause in ("prose_path", "manual_link"):
        link = f"[[{target}]]"
        if cause == "prose_path":
            link = _found(r"write it as (\[\[[^\]]+\]\])", fix)
        else:
            assert "write it into the file" in fix
        _append(fixed, page, link)
        checks.agreeing.add((page, target))
    elif cause == "content_differs":
        assert "run `gbrain import` then `gbrain extract links --source db`" in fix
        checks.edges.add((page, target, "markdown"))  # the copy is imported afresh
    elif cause == "stale_links" and record["side"] == "files":
        assert "run `gbrain extract links --source db`" in fix
        checks.edges_now.add((page, target))
    elif cause == "stale_links":
        assert "remove it with remove_link" in fix
        server.call_tool("remove_link", {"from": page, "to": target})
        checks.gone_now.add((page, target))
    elif cause == "invalid_frontmatter":
        assert "fix the frontmatter, then run `gbrain import`" in fix
        path = fixed / record["written"]
        path.write_text(path.read_text().replace("- @broken", '- "@broken"'))  # quoted
        checks.pages.add(page)
    elif cause == "page_skipped":
        assert "rename or move the file" in fix
        new = _renamed(record["written"])
        (fixed / record["written"]).rename(fixed / new)
        checks.pages.add(gbrain_slug(new))
    elif cause == "target_missing":
        assert "rename its file and link to the page's new name" in fix
        new = gbrain_slug(_renamed(target + ".md"))  # the file renamed by page_skipped's fix
        _append(fixed, page, f"[[{new}]]")
        checks.edges.add((page, new, "markdown"))
    elif cause == "private_page":
        assert "search.remote_private_pages" in fix
        checks.pages.add(page)
        if target is not None:
            checks.edges.add((page, target, "markdown"))
    elif cause == "page_only_on_server":
        assert "delete it on the server" in fix
        server.call_tool("delete_page", {"slug": page})
        checks.pages_gone_now.add(page)
    else:
        assert cause in NOTHING_TO_FIX, f"no way to check the fix of {cause}: {fix}"


def _graph(url: str, token_file: Path) -> tuple[set[str], set[tuple[str, str, str]]]:
    source = open_source(url, token_file=token_file)
    assert isinstance(source, McpSource)
    try:
        pages = list_server_pages(source).pages
        rows = server_links(source, list(pages), 2)
    finally:
        source.close()
    return set(pages), {(r.page, r.target, r.link_source or "") for r in rows}


@pytest.mark.gbrain
def test_every_suggested_fix_works(gbrain_peer, run, tmp_path):
    folder = tmp_path / "corpus"
    shutil.copytree(CORPUS, folder)
    peer = gbrain_peer(folder, token_scopes="read write")
    _touch_server(peer.url, peer.token_file, folder)
    apollo = folder / "projects" / "apollo.md"
    apollo.write_text(apollo.read_text() + "\nNext to [[projects/zeta]].\n")
    args = ("audit", str(folder), "--against", peer.url, "--token-file", str(peer.token_file))
    status, out, _ = run(*args, "--json")
    records = json.loads(out)
    assert status == 1 and len(records) > 25

    fixed = tmp_path / "fixed"
    shutil.copytree(folder, fixed)
    checks = Checks()
    server = open_source(peer.url, token_file=peer.token_file)
    assert isinstance(server, McpSource)
    try:
        for record in records:
            _apply(record, fixed, checks, server)
    finally:
        server.close()
    assert checks.covered >= {
        "page_skipped", "invalid_frontmatter", "private_page", "page_only_on_server",
        "target_missing",
        "frontmatter_only", "okf_field", "field_unresolved", "code_masked", "code_read",
        "unread_form", "title_or_alias", "basename_only", "ambiguous_basename",
        "manual_link", "prose_path", "stale_links", "content_differs",
    }  # fmt: skip

    # the server-side fixes, then `gbrain extract links` (the fix of stale_links)
    peer, _ = gbrain_commands(peer, folder, [["extract", "links", "--source", "db"]])
    pages_now, edges_now = _graph(peer.url, peer.token_file)
    pairs_now = {(f, t) for f, t, _ in edges_now}
    assert checks.edges_now <= pairs_now
    assert not checks.gone_now & pairs_now
    assert not checks.pages_gone_now & pages_now

    # the fixed copy, imported afresh, with the settings the fixes name
    fixed_peer = gbrain_peer(fixed, extract_flags="--include-frontmatter", config=SETTINGS)
    pages, edges = _graph(fixed_peer.url, fixed_peer.token_file)
    assert checks.pages <= pages
    assert checks.edges <= edges, sorted(checks.edges - edges)
    assert not checks.gone & {(f, t) for f, t, _ in edges}
    status, out, _ = run(
        "audit", str(fixed), "--against", fixed_peer.url, "--token-file",
        str(fixed_peer.token_file), "--json",
    )  # fmt: skip
    still = {(r["page"], r["target"]) for r in json.loads(out)}
    assert not checks.agreeing & still
