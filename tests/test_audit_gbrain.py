"""`okf-explorer audit` against the real gbrain (tests/gbrain_peer.py), cause by cause,
on a corpus of our own (tests/gbrain_corpus: one edge or page per cause), and against
our own `serve` of the same folder (which agrees with the files)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from okf_explorer.sources.factory import open_source
from tests.mcp_server_fixture import serve_bundle

CORPUS = Path(__file__).resolve().parent / "gbrain_corpus"
SAMPLE_BRAIN = Path(__file__).resolve().parent.parent / "okf_explorer" / "sample_brain"

EXPECTED = {
    "page_skipped": {("index", None), ("readme", None), ("guide/readme", None)},
    "invalid_frontmatter": {("notes/broken", None)},
    "private_page": {("notes/private-plan", None), ("notes/beta-notes", "notes/private-plan")},
    "page_only_on_server": {("notes/server-only", None)},
    "target_missing": {("people/alice", "guide/readme")},
    "frontmatter_only": {("people/alice", "projects/zeta")},
    "okf_field": {("notes/provenance", "projects/apollo")},
    "field_unresolved": {("people/iota", "projects/delta")},
    "code_masked": {("notes/fences", "projects/zeta")},
    "code_read": {("notes/tilde", "projects/theta")},
    "unread_form": {
        ("people/alice", "projects/eta"),  # /-absolute
        ("people/alice", "projects/theta"),  # reference-style
        ("people/alice", "people/iota"),  # ./ relative
    },
    "title_or_alias": {("people/alice", "projects/gamma"), ("people/alice", "projects/delta")},
    "basename_only": {("people/alice", "notes/beta-notes"), ("notes/standup", "notes/beta-notes")},
    "ambiguous_basename": {("people/alice", "archive/status")},
    "relation_differs": {("people/alice", "companies/acme"), ("people/alice", "projects/apollo")},
    "manual_link": {("projects/gamma", "projects/delta")},
    "prose_path": {("projects/eta", "projects/theta")},
    "stale_links": {("notes/standup", "projects/epsilon"), ("companies/acme", "people/alice")},
    "content_differs": {("projects/apollo", "projects/zeta")},
}
"""What gbrain 0.46.28 and the audit make of the corpus after `_touch_server` (below).
`escaped_pipe` and `other_source` do not occur here: this gbrain reads escaped table
pipes (people/alice -> projects/epsilon agrees), and start.sh loads one source; the
pure tests in test_audit_causes.py cover them."""


STANDUP_LINE = "\nAlso [[projects/epsilon]].\n"
"""Added to notes/standup in the file and, by put_page, on the server (not linked)."""


def _touch_server(url: str, token_file: Path, folder: Path) -> None:
    """What only a writer can do: a manual edge, a page created by put_page, and two
    pages saved by put_page with the file's new text, one link added, one dropped
    (gbrain 0.46.28 extracts no links from a remote put_page)."""
    source = open_source(url, token_file=token_file)
    try:
        source.call_tool("add_link", {"from": "projects/gamma", "to": "projects/delta"})
        created = "---\ntitle: Server only\n---\n# Server only\n\nWritten on the server.\n"
        source.call_tool("put_page", {"slug": "notes/server-only", "content": created})
        standup = folder / "notes" / "standup.md"
        standup.write_text(standup.read_text() + STANDUP_LINE)
        source.call_tool("put_page", {"slug": "notes/standup", "content": standup.read_text()})
        acme = folder / "companies" / "acme.md"  # its link to alice dropped on both sides
        acme.write_text(acme.read_text().replace("; see [[people/alice]]", ""))
        source.call_tool("put_page", {"slug": "companies/acme", "content": acme.read_text()})
    finally:
        source.close()


@pytest.fixture(scope="module")
def gbrain_corpus_server(gbrain_peer, tmp_path_factory):
    """A copy of the corpus loaded into gbrain, then changed on both sides: the server
    by `_touch_server`, the folder by a link added after the import."""
    folder = tmp_path_factory.mktemp("audit") / "corpus"
    shutil.copytree(CORPUS, folder)
    url, token_file, _ = gbrain_peer(folder, token_scopes="read write")
    _touch_server(url, token_file, folder)
    apollo = folder / "projects" / "apollo.md"
    apollo.write_text(apollo.read_text() + "\nNext to [[projects/zeta]].\n")
    return folder, url, token_file


@pytest.mark.gbrain
def test_every_cause_against_real_gbrain(gbrain_corpus_server, run):
    folder, url, token_file = gbrain_corpus_server
    status, out, err = run(
        "audit", str(folder), "--against", url, "--token-file", str(token_file), "--json"
    )
    assert (status, err) == (1, "")
    records = json.loads(out)
    assert all(set(r) == {"page", "target", "written", "cause", "side", "fix"} for r in records)
    found: dict[str, set] = {}
    for record in records:
        found.setdefault(record["cause"], set()).add((record["page"], record["target"]))
    assert found == EXPECTED
    assert "unexplained" not in found


@pytest.mark.gbrain
def test_text_report_groups_by_cause(gbrain_corpus_server, run):
    folder, url, token_file = gbrain_corpus_server
    status, out, _ = run("audit", str(folder), "--against", url, "--token-file", str(token_file))
    assert status == 1
    counts = Counter(line.split(" (")[0] for line in out.splitlines() if line and line[0] != " ")
    for cause in EXPECTED:
        assert cause in counts
    assert "title_or_alias (2): gbrain resolves no titles or aliases" not in out  # fixes differ
    assert "people/alice -> projects/gamma  (written: The Gamma Plan)  [files]" in out
    assert "  page index (index.md)  [files]" in out
    assert "fix: gbrain's import skips index.md files (1 link from it): rename or move" in out
    assert (
        "fix: gbrain resolves no titles or aliases: write [[projects/gamma|The Gamma Plan]]" in out
    )
    assert out.rstrip().endswith(f"{sum(map(len, EXPECTED.values()))} differences")
    assert token_file.read_text().strip() not in out


@pytest.mark.parametrize("folder", [CORPUS, SAMPLE_BRAIN], ids=["corpus", "sample-brain"])
def test_our_own_serve_agrees_with_the_files(run, folder):
    """Shown its private pages too (`--show-private`), our `serve` holds the files' graph."""
    with serve_bundle(folder, options=("--show-private",)) as server:
        status, out, err = run("audit", str(folder), "--against", server.url)
    assert (status, err) == (0, "")
    files, served = out.splitlines()[:2]
    assert files.removeprefix("files: ") == served.removeprefix("server: ")
    assert out.rstrip().endswith("the graphs agree")


def test_our_own_serve_hides_private_pages_as_gbrain_does(run):
    """By default our `serve` keeps `visibility: private` pages from its callers, as
    gbrain does: the audit finds the same `private_page` differences, and no other."""
    with serve_bundle(CORPUS) as server:
        status, out, err = run("audit", str(CORPUS), "--against", server.url, "--json")
    assert (status, err) == (1, "")
    found = {(r["cause"], r["page"], r["target"]) for r in json.loads(out)}
    assert {(page, target) for cause, page, target in found} == EXPECTED["private_page"]
    assert {cause for cause, _, _ in found} == {"private_page"}


def test_bad_arguments_exit_2(run, tmp_path):
    status, _, err = run("audit", str(tmp_path / "nope"), "--against", "http://127.0.0.1:9/mcp")
    assert status == 2 and "not a folder" in err and len(err.splitlines()) == 1
    status, _, err = run("audit", str(tmp_path), "--against", str(tmp_path))
    assert status == 2 and "not an http(s)" in err
    status, _, err = run("audit", str(tmp_path))
    assert status == 2 and "--against" in err


def test_unreachable_server_exit_1(run, tmp_path):
    status, _, err = run("audit", str(tmp_path), "--against", "http://127.0.0.1:9/mcp")
    assert status == 1 and "unreachable" in err and len(err.splitlines()) == 1


@pytest.mark.gbrain
def test_links_in_frontmatter_agree_when_gbrain_extracts_them(gbrain_peer, run):
    """With `extract links --include-frontmatter` (EXTRACT_FLAGS), alice's `related:`
    link is on the server, typed `related_to` as in the files: no `frontmatter_only`."""
    url, token_file, _ = gbrain_peer(CORPUS, extract_flags="--include-frontmatter")
    status, out, _ = run(
        "audit", str(CORPUS), "--against", url, "--token-file", str(token_file), "--json"
    )
    causes = {(r["cause"], r["target"]) for r in json.loads(out)}
    assert status == 1
    assert not {c for c in causes if c[0] in ("frontmatter_only", "unexplained")}
    assert ("title_or_alias", "projects/gamma") in causes


def test_a_server_without_get_links_is_refused_in_one_line(run, tmp_path):
    from tests.hostile.mcp_fault_server import fault_server

    with fault_server(lambda handler, request: handler.send_tool_payload(request, [])) as server:
        status, out, err = run("audit", str(tmp_path), "--against", server.url)
    assert (status, out) == (1, "")
    assert "offers no get_links tool" in err and len(err.splitlines()) == 1


def test_call_tools_sends_single_calls_to_a_server_that_refuses_batches():
    from okf_explorer.sources.gbrain.source import McpSource
    from tests.hostile.mcp_fault_server import fault_server

    def echo(handler, request):
        handler.send_tool_payload(request, [{"to_slug": request["params"]["arguments"]["slug"]}])

    with fault_server(echo) as server:
        source = McpSource(server.url, token=None, token_source="no token")
        try:
            answers = source.call_tools("get_links", [{"slug": "a"}, {"slug": "b"}])
            again = source.call_tools("get_links", [{"slug": "c"}, {"slug": "d"}])
        finally:
            source.close()
    assert answers == [[{"to_slug": "a"}], [{"to_slug": "b"}]]
    assert again == [[{"to_slug": "c"}], [{"to_slug": "d"}]]


@pytest.mark.gbrain
def test_file_name_links_with_global_basename_on(gbrain_peer, run):
    """With `link_resolution.global_basename` on, gbrain links `[[beta-notes]]` (no more
    `basename_only`) and `[[status]]` to both pages of that name: the one the files
    chose agrees, the other is an `ambiguous_basename` edge on the server's side."""
    setting = (("link_resolution.global_basename", "true"),)
    url, token_file, _ = gbrain_peer(CORPUS, config=setting)
    status, out, _ = run(
        "audit", str(CORPUS), "--against", url, "--token-file", str(token_file), "--json"
    )
    found = {(r["cause"], r["side"], r["target"]) for r in json.loads(out)}
    assert status == 1
    assert not {f for f in found if f[0] in ("basename_only", "unexplained")}
    assert {f for f in found if f[0] == "ambiguous_basename"} == {
        ("ambiguous_basename", "server", "notes/status")
    }


def _aliasing_server(handler, request):
    """A stand-in for a gbrain that follows slug aliases (v0.48.1 on): `people/bob` was
    renamed `people/robert`; asked for the old slug, get_page answers the new page, and
    alice's edge (kept when the page was renamed) points at the new name."""
    name = request["params"]["name"]
    arguments = request["params"]["arguments"]
    pages = {
        "people/alice": ("Alice", "Alice works with [[people/bob]]."),
        "people/robert": ("Robert", "Robert, once Bob."),
    }
    if name == "list_pages":
        rows = [
            {"slug": slug, "source_id": "default", "type": "person", "title": title}
            for slug, (title, _) in pages.items()
        ]
        handler.send_tool_payload(request, rows if not arguments.get("offset") else [])
    elif name == "get_backlinks":
        rows = []
        if arguments["slug"] == "people/robert":
            rows = [{"from_slug": "people/alice", "to_slug": "people/robert",
                     "link_type": "mentions", "link_source": "markdown"}]  # fmt: skip
        handler.send_tool_payload(request, rows)
    elif name == "get_page":
        slug = {"people/bob": "people/robert"}.get(arguments["slug"], arguments["slug"])
        if slug not in pages:
            error = {"error": "page_not_found", "message": f"Page not found: {slug}"}
            content = [{"type": "text", "text": json.dumps(error)}]
            handler.send_result(request, {"content": content, "isError": True})
            return
        title, body = pages[slug]
        handler.send_tool_payload(request, {"slug": slug, "title": title, "type": "person",
                                            "compiled_truth": body, "timeline": "",
                                            "frontmatter": {}})  # fmt: skip
    else:
        handler.send_tool_payload(request, [])


def test_a_target_the_server_renamed_is_compared_under_its_new_name(run, tmp_path, monkeypatch):
    """Where the server has slug aliases, a link to the old name agrees with the edge to
    the new one, and the old file is `page_renamed`, not missing pages on both sides."""
    from tests.hostile import mcp_fault_server
    from tests.hostile.mcp_fault_server import fault_server

    tools = [{"name": n, "inputSchema": {}} for n in ("list_pages", "get_page", "get_backlinks")]
    monkeypatch.setattr(mcp_fault_server, "TOOLS", tools)
    (tmp_path / "people").mkdir()
    (tmp_path / "people" / "alice.md").write_text("Alice works with [[people/bob]].\n")
    (tmp_path / "people" / "bob.md").write_text("Robert, once Bob.\n")
    with fault_server(_aliasing_server) as server:
        status, out, err = run("audit", str(tmp_path), "--against", server.url, "--json")
    assert (status, err) == (1, "")
    [found] = json.loads(out)
    assert (found["page"], found["cause"]) == ("people/bob", "page_renamed")
    assert "people/robert" in found["fix"]


@pytest.mark.gbrain
@pytest.mark.parametrize(
    "links", ["[[Zz/Target]] and also [[Target]]", "[[Target]] and also [[Zz/Target]]"]
)
def test_the_order_of_links_does_not_change_the_cause(gbrain_peer, run, tmp_path, links):
    """The issue's example on the real gbrain (global_basename off): `yy/q -> zz/target`
    is `basename_only` whichever of zz/p's two links comes first, and its fix names
    both ways."""
    for folder, text in (("zz/target", "# Target\n"), ("zz/p", f"See {links}.\n"),
                         ("yy/q", "See [[Target]].\n")):  # fmt: skip
        path = tmp_path / (folder + ".md")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    url, token_file, _ = gbrain_peer(tmp_path)
    status, out, _ = run("audit", str(tmp_path), "--against", url, "--token-file", str(token_file))
    assert status == 1
    assert "gbrain settings, from its edges: global_basename off" in out
    assert "basename_only (1): write the link as [[zz/target]], or run `gbrain config set" in out
    assert "  yy/q -> zz/target  (written: Target)  [files]" in out
    assert out.rstrip().endswith("1 differences")
