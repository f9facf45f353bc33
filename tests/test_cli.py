"""The command line's outputs, exactly, on a hand-made bundle (see `cli_bundle`)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_bundle import A_BODY, make_bundle
from cli_bundle import edge as rec

from okf_explorer import server as server_package
from okf_explorer.cli import EXPORT_FORMATS
from okf_explorer.core.export import formats as exporter
from okf_explorer.tui import app as tui_app


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    return make_bundle(tmp_path / "brain")


# --- get -------------------------------------------------------------------


def test_get_prints_the_body_exactly(run, bundle: Path) -> None:
    assert run("get", "a", "--source", str(bundle)) == (0, A_BODY, "")


def test_get_adds_exactly_one_final_newline(run, bundle: Path) -> None:
    (bundle / "raw.md").write_text("no newline at the end", encoding="utf-8")
    (bundle / "many.md").write_text("trailing\n\n\n", encoding="utf-8")
    assert run("get", "raw", "--source", str(bundle))[1] == "no newline at the end\n"
    assert run("get", "many", "--source", str(bundle))[1] == "trailing\n"


def test_get_json_is_the_whole_page(run, bundle: Path) -> None:
    status, out, err = run("get", "a", "--json", "--source", str(bundle))
    assert (status, err) == (0, "")
    page = json.loads(out)
    assert list(page)[:7] == [
        "slug", "title", "type", "tags", "content", "frontmatter", "updated_at"
    ]  # fmt: skip
    assert (page["slug"], page["title"], page["type"]) == ("a", "Alpha", "table")
    assert page["tags"] == ["core", "sales"]
    assert page["content"] == A_BODY
    assert page["frontmatter"] == {"title": "Alpha", "type": "table", "tags": ["core", "sales"]}
    assert out.startswith('{\n  "slug": "a",\n')
    assert out.endswith("}\n")


def test_get_page_with_malformed_frontmatter_prints_its_body(run, bundle: Path) -> None:
    assert run("get", "bad", "--source", str(bundle)) == (
        0,
        "Body after broken frontmatter.\n",
        "",
    )


def test_get_unreadable_page_is_one_error_line(run, bundle: Path) -> None:
    status, out, err = run("get", "latin1", "--source", str(bundle))
    assert (status, out) == (1, "")
    assert err.startswith("okf-explorer: ") and "unreadable" in err and err.count("\n") == 1


@pytest.mark.parametrize(("typed", "slug"), [("A", "a"), ("Alpha", "a"), ("e", "notes/e")])
def test_get_resolves_names_that_are_not_slugs(run, bundle: Path, typed: str, slug: str) -> None:
    expected = run("get", slug, "--source", str(bundle))
    assert run("get", typed, "--source", str(bundle)) == expected
    assert expected[0] == 0


# --- list ------------------------------------------------------------------

ALL_PAGES = "a\ttable\nb\tmetric\nbad\t-\nc\t-\nd\ttable\nlatin1\t-\nnotes/e\tnote\n"


def test_list_every_page_in_slug_order_with_type(run, bundle: Path) -> None:
    assert run("list", "--source", str(bundle)) == (0, ALL_PAGES, "")


def test_list_limit(run, bundle: Path) -> None:
    assert run("list", "-n", "2", "--source", str(bundle))[1] == "a\ttable\nb\tmetric\n"
    assert run("list", "-n", "0", "--source", str(bundle))[1] == ""
    assert run("list", "-n", "100", "--source", str(bundle))[1] == ALL_PAGES


def test_list_filters(run, bundle: Path) -> None:
    assert run("list", "--type", "table", "--source", str(bundle))[1] == "a\ttable\nd\ttable\n"
    assert run("list", "--tag", "core", "--source", str(bundle))[1] == "a\ttable\nb\tmetric\n"
    both = run("list", "--tag", "sales", "--type", "table", "--source", str(bundle))
    assert both[1] == "a\ttable\n"
    assert run("list", "--type", "nothing", "--source", str(bundle)) == (0, "", "")


def test_list_json(run, bundle: Path) -> None:
    status, out, _ = run("list", "--json", "--source", str(bundle))
    pages = json.loads(out)
    assert status == 0
    assert [p["slug"] for p in pages] == ["a", "b", "bad", "c", "d", "latin1", "notes/e"]
    keys = ["slug", "title", "type", "tags", "updated_at", "reserved", "readable", "error"]
    assert all(list(p) == keys for p in pages)
    first = pages[0]
    assert (first["title"], first["type"], first["tags"]) == ("Alpha", "table", ["core", "sales"])
    assert (first["readable"], first["error"], first["reserved"]) == (True, None, False)
    latin1 = pages[5]
    assert latin1["readable"] is False and latin1["error"]
    assert pages[2]["readable"] is True  # malformed frontmatter: still a readable page


def test_list_json_limit(run, bundle: Path) -> None:
    out = run("list", "--json", "-n", "1", "--source", str(bundle))[1]
    assert [p["slug"] for p in json.loads(out)] == ["a"]


# --- links -----------------------------------------------------------------


def test_links_depth_one_is_the_forward_links(run, bundle: Path) -> None:
    assert run("links", "a", "--source", str(bundle)) == (0, "b\nc\nmissing\nd\n", "")
    assert run("links", "c", "--source", str(bundle)) == (0, "", "")


def test_links_backlinks(run, bundle: Path) -> None:
    expected = (0, "b\nnotes/e\n", "")
    assert run("links", "a", "--backlinks", "--source", str(bundle)) == expected
    assert run("links", "a", "--direction", "in", "--source", str(bundle)) == expected


def test_links_both_directions(run, bundle: Path) -> None:
    out = run("links", "a", "--direction", "both", "--source", str(bundle))[1]
    assert out == "b\nc\nmissing\nd\nnotes/e\n"


def test_links_neighbourhood_follows_links_either_way(run, bundle: Path) -> None:
    out = run("links", "c", "--direction", "neighbourhood", "--depth", "2", "--source", str(bundle))
    both = run("links", "c", "--direction", "both", "--depth", "2", "--source", str(bundle))
    assert out[0] == 0 and set(out[1].split()) > set(both[1].split())  # a's other links too
    records = json.loads(
        run("export", "c", "--direction", "neighbourhood", "--source", str(bundle))[1]
    )
    assert {record["direction"] for record in records} == {"in"}


def test_links_depth_two(run, bundle: Path) -> None:
    assert run("links", "a", "--depth", "2", "--source", str(bundle))[1] == "b\nc\nmissing\nd\na\n"


def test_links_json_edge_records(run, bundle: Path) -> None:
    status, out, _ = run("links", "a", "--depth", "2", "--json", "--source", str(bundle))
    assert status == 0
    records = json.loads(out)
    assert records == [
        rec("a", "b", 1, "out"),
        rec("a", "c", 1, "out"),
        rec("a", "missing", 1, "out"),
        rec("a", "d", 1, "out"),
        rec("b", "c", 2, "out"),
        rec("b", "a", 2, "out"),
        rec("d", "c", 2, "out"),
    ]
    keys = ["type", "hemisphere", "from", "to", "rel", "direction", "hop"]
    assert all(list(r) == keys for r in records)
    assert out.startswith('[\n  {\n    "type": "edge",\n')


def test_links_json_in_edges_follow_the_walk(run, bundle: Path) -> None:
    out = run("links", "a", "--backlinks", "--json", "--source", str(bundle))[1]
    assert json.loads(out) == [rec("a", "b", 1, "in"), rec("a", "notes/e", 1, "in")]


def test_links_resolves_a_typed_name(run, bundle: Path) -> None:
    assert run("links", "E", "--source", str(bundle))[1] == "a\n"


# --- option placement and sources ---------------------------------------------


def test_shared_options_before_or_after_the_command(run, bundle: Path) -> None:
    after = run("links", "a", "--source", str(bundle), "--depth", "2")
    before = run("--source", str(bundle), "links", "a", "--depth", "2")
    middle = run("links", "--source", str(bundle), "a", "--depth", "2")
    assert after == before == middle
    assert after[1] == "b\nc\nmissing\nd\na\n"


def test_option_after_the_command_wins(run, bundle: Path, tmp_path: Path) -> None:
    status, out, _ = run("--source", str(tmp_path / "absent"), "list", "--source", str(bundle))
    assert (status, out) == (0, ALL_PAGES)


def test_scan_and_timeout_accepted_everywhere(run, bundle: Path) -> None:
    plain = run("links", "a", "--source", str(bundle))
    assert run("--scan", "--timeout", "3", "links", "a", "--source", str(bundle)) == plain
    assert run("links", "a", "--scan", "--timeout", "3", "--source", str(bundle)) == plain


def test_okf_source_environment(run, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OKF_SOURCE", str(bundle))
    assert run("list") == (0, ALL_PAGES, "")
    assert run("links", "a") == (0, "b\nc\nmissing\nd\n", "")


def test_sample_brain_is_the_default(run) -> None:
    status, out, err = run("list")
    assert (status, err) == (0, "")
    slugs = [line.split("\t")[0] for line in out.splitlines()]
    assert "index" in slugs and "tables/orders" in slugs
    assert slugs == sorted(slugs)


# --- depth -------------------------------------------------------------------


@pytest.mark.parametrize(("given", "clamped"), [("0", 1), ("-3", 1), ("9999", 10), ("11", 10)])
def test_depth_out_of_range_is_clamped_with_a_note(
    run, bundle: Path, given: str, clamped: int
) -> None:
    status, out, err = run("links", "a", "--depth", given, "--source", str(bundle))
    assert status == 0
    assert err == f"okf-explorer: depth {given} clamped to {clamped} (depth is 1 to 10)\n"
    assert out == run("links", "a", "--depth", str(clamped), "--source", str(bundle))[1]


# --- export ------------------------------------------------------------------


def test_export_json_to_stdout(run, bundle: Path) -> None:
    status, out, err = run("export", "a", "--source", str(bundle))
    assert (status, err) == (0, "")
    assert json.loads(out) == [
        rec("a", "b", 1, "out"),
        rec("a", "c", 1, "out"),
        rec("a", "missing", 1, "out"),
        rec("a", "d", 1, "out"),
    ]
    linked = run("links", "a", "--json", "--source", str(bundle))[1]
    assert out == linked


def test_export_to_file_is_identical_to_stdout_and_repeatable(
    run, bundle: Path, tmp_path: Path
) -> None:
    target = tmp_path / "out" / "slice.json"
    target.parent.mkdir()
    args = ("export", "a", "--depth", "2", "--direction", "both", "--source", str(bundle))
    stdout = run(*args)[1]
    for _ in range(2):
        status, out, err = run(*args, "-o", str(target))
        assert (status, out) == (0, "")
        assert err == f"okf-explorer: exported 10 edges to {target}\n"
        assert target.read_bytes() == stdout.encode("utf-8")


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_every_export_format(run, bundle: Path, tmp_path: Path, fmt: str) -> None:
    args = ("export", "a", "--depth", "2", "--format", fmt, "--source", str(bundle))
    status, out, err = run(*args)
    assert (status, err) == (0, "")
    assert run(*args)[1] == out
    target = tmp_path / f"slice.{fmt}"
    assert run(*args, "-o", str(target))[0] == 0
    assert target.read_bytes() == out.encode("utf-8")
    for node in ("a", "b", "c", "d", "missing"):
        assert node in out
    if fmt == "json":
        assert len(json.loads(out)) == 7
    elif fmt == "jsonl":
        lines = out.splitlines()
        assert [json.loads(line) for line in lines] == json.loads(
            run("links", "a", "--depth", "2", "--json", "--source", str(bundle))[1]
        )
        assert len(lines) == 7
    elif fmt == "graphml":
        ET.fromstring(out)
    elif fmt == "dot":
        assert out.startswith("digraph") and '"Alpha"' in out  # nodes labelled by title
    elif fmt == "mermaid":
        assert "flowchart LR" in out.splitlines()


@pytest.mark.parametrize(
    ("name", "fmt"),
    [("s.dot", "dot"), ("s.GV", "dot"), ("s.graphml", "graphml"), ("s.mmd", "mermaid"),
     ("s.jsonl", "jsonl"), ("s.json", "json"), ("s.txt", "json")],
)  # fmt: skip
def test_export_format_follows_the_file_suffix(
    run, bundle: Path, tmp_path: Path, name: str, fmt: str
) -> None:
    target = tmp_path / name
    assert run("export", "a", "-o", str(target), "--source", str(bundle))[0] == 0
    expected = run("export", "a", "--format", fmt, "--source", str(bundle))[1]
    assert target.read_text(encoding="utf-8") == expected
    explicit = tmp_path / ("x" + name)
    argv = ("export", "a", "-o", str(explicit), "--format", "jsonl", "--source", str(bundle))
    assert run(*argv)[0] == 0
    assert explicit.read_text(encoding="utf-8").startswith('{"type": "edge"')


def test_cli_formats_match_the_exporter() -> None:
    assert set(EXPORT_FORMATS) == set(exporter.FORMATS)


def test_export_refuses_to_write_into_the_bundle(run, bundle: Path) -> None:
    target = bundle / "slice.json"
    status, out, err = run("export", "a", "-o", str(target), "--source", str(bundle))
    assert (status, out) == (1, "")
    assert err.startswith("okf-explorer: ") and err.count("\n") == 1
    assert not target.exists()


def test_export_dash_means_stdout(run, bundle: Path) -> None:
    plain = run("export", "a", "--format", "jsonl", "--source", str(bundle))
    assert run("export", "a", "--format", "jsonl", "-o", "-", "--source", str(bundle)) == plain


# --- browse and serve hand over to the TUI and the server --------------------------


def test_browse_hands_the_start_name_to_the_tui_unresolved(
    run, bundle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, object]] = []

    class FakeApp:
        return_code = 0

        def run(self) -> None:
            calls.append(("run", None))

    def fake_make_app(brain, *, start=None, export_dir=None, watch_files=False, against=None):
        assert watch_files  # the CLI's explorer reloads pages saved in the folder
        calls.append(("make_app", (brain.source.label, start)))
        return FakeApp()

    monkeypatch.setattr(tui_app, "make_app", fake_make_app)
    assert run("browse", str(bundle), "--start", "Alpha") == (0, "", "")
    assert calls[1] == ("run", None)
    assert calls[0][0] == "make_app" and calls[0][1][1] == "Alpha"  # type: ignore[index]
    calls.clear()
    assert run("--source", str(bundle))[0] == 0
    assert calls[0][1][1] is None  # type: ignore[index]


def test_a_folder_without_a_command_opens_it_in_the_explorer(
    run, bundle: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[tuple[str, str | None]] = []

    class FakeApp:
        return_code = 0

        def run(self) -> None:
            pass

    def fake_make_app(brain, *, start=None, export_dir=None, watch_files=False, against=None):
        opened.append((brain.source.label, start))
        return FakeApp()

    monkeypatch.setattr(tui_app, "make_app", fake_make_app)
    assert run(str(bundle), "--start", "Alpha") == (0, "", "")
    assert run("browse", str(bundle), "--start", "Alpha") == (0, "", "")
    assert opened[0] == opened[1] and opened[0][1] == "Alpha"
    # an option only browse takes, first: the explorer too (argparse took `Alpha` for a
    # command and listed them all)
    assert run("--start", "Alpha", str(bundle)) == (0, "", "")
    assert run("--source", str(bundle), "--start=Alpha") == (0, "", "")
    assert opened[2] == opened[3] == opened[0]
    del opened[2:]
    # a path that is not there: browse's own one line, not argparse's list of commands
    status, out, err = run(str(tmp_path / "no-such-vault"))
    assert (status, out) == (1, "") and "no such folder" in err and err.count("\n") == 1
    # a command's name is the command, even beside a folder so named
    monkeypatch.chdir(tmp_path)
    (tmp_path / "stats").mkdir()
    assert run("stats", "--source", str(bundle))[0] == 0
    assert len(opened) == 2
    # a word that is neither stays argparse's usage error
    status, _, err = run("statz")
    assert status == 2 and "invalid choice: 'statz'" in err


def test_serve_passes_host_port_and_token(
    run, bundle: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, object] = {}

    def fake_run_server(brain, *, host, port, stdio, token, shapes, show_private):
        seen.update(
            pages=len(brain.pages()), host=host, port=port, stdio=stdio, token=token, shapes=shapes
        )
        seen.update(show_private=show_private)
        return 0

    monkeypatch.setattr(server_package, "run_server", fake_run_server)
    assert run("serve", str(bundle), "--source", str(tmp_path / "absent")) == (0, "", "")
    assert seen == {
        "pages": 7,
        "host": "127.0.0.1",
        "port": 8792,
        "stdio": False,
        "token": None,
        "shapes": "current",
        "show_private": False,
    }
    assert run("serve", str(bundle), "--gbrain-shapes", "0.46.28")[0] == 0
    assert seen["shapes"] == "0.46.28"
    assert run("serve", str(bundle), "--show-private")[0] == 0
    assert seen["show_private"] is True
    token_file = tmp_path / "server-token"
    token_file.write_text("letmein-123\n", encoding="utf-8")
    args = ("serve", "--stdio", "--port", "9000", "--host", "0.0.0.0", "--token-file")
    assert run(*args, str(token_file), "--source", str(bundle))[0] == 0
    assert (seen["port"], seen["host"], seen["stdio"]) == (9000, "0.0.0.0", True)
    assert seen["token"] == "letmein-123"


def test_help_and_version(run) -> None:
    status, out, _ = run("--help")
    assert status == 0 and "links" in out and "export" in out
    status, out, _ = run("links", "--help")
    assert status == 0 and "--backlinks" in out and "--source" in out
    status, out, _ = run("--version")
    assert status == 0 and out.startswith("okf-explorer ")


def test_get_json_title_reads_as_the_heading_shows(run, tmp_path: Path) -> None:
    """A title taken from an H1 is the text a reader sees (issue 24, item 4); a template's
    `# {{title}}` is no title: the file name stands in."""
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "publish.md").write_text("# [[Obsidian Publish|Publish]] **sites**\n\nText.\n")
    (vault / "T - Note.md").write_text("# {{title}}\n\nA template.\n")
    titles = {}
    for slug in ("publish", "T - Note"):
        status, out, _ = run("get", slug, "--json", "--source", str(vault))
        titles[slug] = (status, json.loads(out)["title"])
    assert titles == {"publish": (0, "Publish sites"), "T - Note": (0, "T - Note")}
