"""`core.audit.compare.compare` on hand-built sides: the causes the real gbrain in our tests
cannot produce (escaped pipes are read by gbrain 0.46.28; start.sh loads one source;
`global_basename` is off there), and gbrain's page naming."""

from __future__ import annotations

from okf_explorer.core.audit.model import (
    FileLink,
    FilePage,
    FilesSide,
    ServerSide,
    StoredLink,
)
from okf_explorer.sources.audit_gather import choose_naming, compare
from okf_explorer.sources.gbrain.importer import gbrain_slug, import_skip_reason


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


def _order_sides(first: str, second: str) -> tuple[FilesSide, ServerSide]:
    """The issue's example: `zz/p` = `See [[FIRST]] and also [[SECOND]].`, `yy/q` = `See
    [[Target]].`, as the folder index states them (one edge per pair, first form kept),
    and what gbrain stores with `global_basename` off (only the `[[Zz/Target]]` edge)."""
    p_text = f"See [[{first}]] and also [[{second}]].\n"
    pages = {
        "zz/p": FilePage("zz/p.md", p_text),
        "yy/q": FilePage("yy/q.md", "See [[Target]].\n"),
        "zz/target": FilePage("zz/target.md", "# Target\n"),
    }
    rule = "suffix" if "/" in first else "basename"
    files = FilesSide(
        pages,
        [
            FileLink("zz/p", "zz/target", first, "wiki", rule),
            FileLink("yy/q", "zz/target", "Target", "wiki", "basename"),
        ],
    )
    stored = [StoredLink("zz/p", "zz/target", "wikilink_basename", "wikilink-resolved")]
    return files, ServerSide(dict.fromkeys(pages, "default"), stored)


def test_global_basename_is_not_inferred_from_one_row_whatever_the_link_order():
    """A `[[Zz/Target]]` edge is `wikilink_basename` with the setting off; the bare
    `[[Target]]` of yy/q, missing on the server, says the setting is off: the same
    cause in either order of zz/p's two links."""
    for first, second in (("Zz/Target", "Target"), ("Target", "Zz/Target")):
        files, server = _order_sides(first, second)
        texts = {slug: page.text for slug, page in files.pages.items()}
        [found] = compare(files, server, server_text=texts.get)
        assert (found.page, found.target, found.cause) == ("yy/q", "zz/target", "basename_only")
        assert "global_basename true" in found.fix


def test_a_name_gbrain_finds_by_file_name_is_basename_only_not_title_or_alias():
    """`[[Tomas Okafor]]` matched our title rule, but gbrain's file-name index keys
    `people/tomas-okafor` under `tomas-okafor` too: it links it once global_basename
    is on."""
    text = "Ask [[Tomas Okafor]].\n"
    pages = {
        "notes/meeting": FilePage("notes/meeting.md", text),
        "people/tomas-okafor": FilePage("people/tomas-okafor.md", "# Tomas\n"),
        "people/dee": FilePage("people/dee.md", "# Dee\n"),
    }
    links = [FileLink("notes/meeting", "people/tomas-okafor", "Tomas Okafor", "wiki", "title")]
    server = ServerSide(dict.fromkeys(pages, "default"), [])
    [found] = compare(FilesSide(pages, links), server, server_text=lambda slug: pages[slug].text)
    assert found.cause == "basename_only"
    alias = [FileLink("notes/meeting", "people/dee", "Tomas Okafor", "wiki", "alias")]
    pages["notes/meeting"] = FilePage("notes/meeting.md", text)
    [found] = compare(FilesSide(pages, alias), server, server_text=lambda slug: pages[slug].text)
    assert found.cause == "title_or_alias"  # the file name is another page's: gbrain never


def test_okf_sources_are_never_read_so_include_frontmatter_is_not_advised():
    """The server holds frontmatter edges (it was extracted with --include-frontmatter);
    an OKF `sources[].resource` edge it lacks is `okf_field`, whose fix does not ask to
    extract with that flag again."""
    fields = {"sources": [{"id": "s", "resource": "../tables/orders.md", "title": "Orders"}]}
    pages = {
        "metrics/revenue": FilePage("metrics/revenue.md", "Revenue.\n", frontmatter=fields),
        "tables/orders": FilePage("tables/orders.md", "# Orders\n"),
        "people/ana": FilePage("people/ana.md", "Ana.\n", frontmatter={"related": "tables/orders"}),
    }
    links = [
        FileLink("metrics/revenue", "tables/orders", "../tables/orders.md", "markdown", "path",
                 "derived_from"),
        FileLink("people/ana", "tables/orders", "tables/orders", "markdown", "exact", "related_to"),
    ]  # fmt: skip
    rows = [StoredLink("people/ana", "tables/orders", "related_to", "frontmatter")]
    server = ServerSide(dict.fromkeys(pages, "default"), rows)
    [found] = compare(FilesSide(pages, links), server, server_text=lambda slug: pages[slug].text)
    assert (found.page, found.cause) == ("metrics/revenue", "okf_field")
    assert "never its `resource`" in found.fix and "--include-frontmatter" not in found.fix


def test_a_stray_triple_backtick_in_inline_code_hides_the_link():
    """The issue's page: `` ``` `` in inline code pairs with a later fence opener, and
    gbrain reads no link between (our Markdown reads it)."""
    text = "Write a fence as `` ``` `` in text. See [[zz/target]].\n\n```\ncode\n```\n"
    pages = {"zz/p": FilePage("zz/p.md", text, first_line=4), "zz/target": FilePage("zz/target.md")}
    links = [FileLink("zz/p", "zz/target", "zz/target", "wiki", "exact")]
    server = ServerSide(dict.fromkeys(pages, "default"), [])
    [found] = compare(FilesSide(pages, links), server, server_text=lambda slug: pages[slug].text)
    assert found.cause == "code_masked"
    assert "the ``` on line 4 with the next ``` (line 6" in found.fix
    assert found.fix.endswith("move the link above line 4")


def test_a_relation_written_in_a_field_is_ours_alone_and_no_difference():
    """`up:: [[x]]` (or a link property `up: "[[x]]"`): gbrain stores the link as a plain
    one and has no field for `up`, so the pair agrees; a relation gbrain states from its
    own fields still differs."""
    text = "up:: [[projects/x]]\n"
    files = FilesSide(
        _pages("people/a", "projects/x", "projects/y", text=text),
        [
            FileLink("people/a", "projects/x", "projects/x", "wiki", "exact", rel="up"),
            FileLink("people/a", "projects/y", "projects/y", "wiki", "exact", rel="related_to"),
        ],
    )
    rows = [
        StoredLink("people/a", "projects/x", "mentions", "markdown"),
        StoredLink("people/a", "projects/y", "mentions", "markdown"),
    ]
    server = ServerSide(dict.fromkeys(["people/a", "projects/x", "projects/y"], "default"), rows)
    found = compare(files, server, server_text=lambda slug: text)
    assert [(d.target, d.cause) for d in found] == [("projects/y", "relation_differs")]
