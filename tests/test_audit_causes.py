"""`core.audit.compare.compare` on hand-built sides: the causes the real gbrain in our tests
cannot produce (escaped pipes are read by gbrain 0.46.28; start.sh loads one source;
`global_basename` is off there), and gbrain's page naming."""

from __future__ import annotations

from okf_explorer.core.audit.compare import compare
from okf_explorer.core.audit.gbrain_model import gbrain_slug, import_skip_reason
from okf_explorer.core.audit.model import (
    FileLink,
    FilePage,
    FilesSide,
    ServerSide,
    StoredLink,
    choose_naming,
)


def _pages(*slugs: str, text: str = "") -> dict[str, FilePage]:
    return {slug: FilePage(path=slug + ".md", text=text) for slug in slugs}


def test_escaped_pipe_in_a_table_on_an_older_server():
    text = "| a |\n|---|\n| [[projects/x\\|X]] |\n"
    files = FilesSide(
        _pages("people/a", "projects/x", text=text),
        [FileLink("people/a", "projects/x", "projects/x", "wiki", "exact")],
    )
    server = ServerSide({"people/a": "default", "projects/x": "default"}, [])
    [found] = compare(files, server, server_text=lambda slug: text)
    assert (found.cause, found.side) == ("escaped_pipe", "files")


def test_other_source_from_the_target_source_id():
    files = FilesSide(_pages("people/a"), [])
    server = ServerSide(
        {"people/a": "default"},
        [StoredLink("people/a", "wiki/x", target_source="wiki")],
    )
    causes = {(d.cause, d.target) for d in compare(files, server)}
    assert ("other_source", "wiki/x") in causes


def test_server_side_basename_edges_when_global_basename_is_on():
    files = FilesSide(
        _pages("people/a", "archive/status", "notes/status", text="see [[status]]"),
        [FileLink("people/a", "archive/status", "status", "wiki", "basename", ambiguous=True)],
    )
    rows = [
        StoredLink("people/a", "archive/status", "wikilink_basename", "wikilink-resolved"),
        StoredLink("people/a", "notes/status", "wikilink_basename", "wikilink-resolved"),
    ]
    server = ServerSide(dict.fromkeys(["people/a", "archive/status", "notes/status"], "d"), rows)
    [found] = compare(files, server)
    assert (found.cause, found.side, found.target) == (
        "ambiguous_basename",
        "server",
        "notes/status",
    )


def test_gbrain_names_pages_and_skips_files_as_its_import_does():
    assert gbrain_slug("glossary/Gross Margin.md") == "glossary/gross-margin"
    assert gbrain_slug("devbox/devbox.json.md") == "devbox/devbox.json"
    assert gbrain_slug("Café/Über  --  Note") == "cafe/uber-note"
    assert import_skip_reason("docs/README.md") == "gbrain's import skips README.md files"
    assert "folder .obsidian/" in (import_skip_reason(".obsidian/x.md") or "")
    assert "folder node_modules/" in (import_skip_reason("node_modules/x.md") or "")
    assert "brackets" in (import_skip_reason("notes/[draft].md") or "")
    assert import_skip_reason("notes/plain.md") is None


def test_naming_is_decided_from_the_listing():
    files = ["index", "Notes/My Note", "people/alice"]
    assert choose_naming(files, ["notes/my-note", "people/alice"]) == "gbrain"
    assert choose_naming(files, files) == "as-is"


def test_markdown_link_forms_gbrain_does_not_read():
    text = "[a](<../projects/x.md>) and [b][r] and [c](../projects/y.md)\n\n[r]: ../projects/z.md\n"
    links = [
        FileLink("people/a", f"projects/{name}", f"../projects/{name}.md", "markdown", "path")
        for name in "xyz"
    ]
    files = FilesSide(
        _pages("people/a", "projects/x", "projects/y", "projects/z", text=text), links
    )
    server = ServerSide(
        dict.fromkeys(["people/a", "projects/x", "projects/y", "projects/z"], "default"),
        [StoredLink("people/a", "projects/y")],
    )
    found = {d.target: d.fix for d in compare(files, server)}
    assert set(found) == {"projects/x", "projects/z"}
    assert "`<…>` destination" in found["projects/x"]
    assert "reference-style" in found["projects/z"]
