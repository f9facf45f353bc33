"""Issue 7, item 7: every export format is valid for any slug and title, and the
writer's read-back check parses the format instead of comparing bytes only."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.errors import ExportFailed
from okf_explorer.core.export.check import MalformedExport, check_export
from okf_explorer.core.export.formats import FORMATS, render, write_export
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.text_safety import reversible

HOSTILE = "bad\x00nul\x1b[2J\x07\x08\x0b\x0c\r\n\t\x7f\x85\x9b\u202e\u2028\ud800\ufffe\\x\"<&>'"
EDGES = [
    Edge("root", HOSTILE, 1, "out"),
    Edge(HOSTILE, "plain", 2, "out"),
    Edge("root", "tab\there", 1, "in"),
]
TITLES = {HOSTILE: "Title \x1b]0;pwned\x07 \u202eevil", "plain": "A & B <c>"}
SLICE = {"root": "root", "depth": 2, "direction": "both"}

# Every code point class that has broken a format: C0, DEL, C1, bidi, separators,
# surrogates, non-characters, and the characters each format quotes specially.
nasty_text = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=0, max_codepoint=0x2FF),
        st.sampled_from(list("\u061c\u200e\u202a\u202e\u2066\u2069\u2028\u2029\ufffe\uffff")),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
        st.sampled_from(list('\\"<>&|[]{};=-#`%')),
    ),
    max_size=12,
)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_hostile_slug_and_title_render_to_a_document_that_parses(fmt: str) -> None:
    text = render(EDGES, fmt, titles=TITLES, **SLICE)
    check_export(fmt, text.encode("utf-8"))


def test_graphml_with_control_characters_is_well_formed_xml_with_every_node() -> None:
    text = render(EDGES, "graphml", titles=TITLES, **SLICE)
    ElementTree.fromstring(text.encode("utf-8"))  # raised "not well-formed" before
    graph = nx.parse_graphml(text, force_multigraph=True)
    assert set(graph.nodes) == {"root", reversible(HOSTILE), "plain", "tab\\there"}
    assert graph.number_of_edges() == 3
    label = graph.nodes[reversible(HOSTILE)]["label"]
    assert "\\x1b]0;pwned\\x07" in label and "\\u202eevil" in label


def test_dot_carries_no_raw_nul_or_control_character() -> None:
    text = render(EDGES, "dot", titles=TITLES, **SLICE)
    assert "\x00" not in text and "\x1b" not in text
    assert all(ord(char) >= 0x20 or char == "\n" for char in text)
    assert '"bad\\\\x00nul\\\\x1b[2J' in text  # visible in the drawing: `bad\x00nul\x1b[2J`


def test_json_and_jsonl_keep_hostile_names_exact() -> None:
    records = json.loads(render(EDGES, "json", **SLICE))
    assert records[0]["to"] == HOSTILE
    lines = render(EDGES, "jsonl", **SLICE).splitlines()  # splitlines: U+2028, \x85 too
    assert len(lines) == len(EDGES)
    assert json.loads(lines[1])["from"] == HOSTILE


@settings(max_examples=150, deadline=None)
@given(
    slugs=st.lists(nasty_text, min_size=1, max_size=5, unique=True),
    title=nasty_text,
    fmt=st.sampled_from(FORMATS),
)
def test_every_format_exports_and_parses_for_any_slug_and_title(
    slugs: list[str], title: str, fmt: str
) -> None:
    root = slugs[0]
    edges = [Edge(root, slug, 1, "out") for slug in slugs[1:]]
    edges += [Edge(root, slug, 1, "in") for slug in slugs[1:]]
    text = render(edges, fmt, root=root, depth=1, direction="both", titles={root: title})
    data = text.encode("utf-8")  # no lone surrogate left raw
    check_export(fmt, data)
    # Exact as JSON can be: `json` itself reads a surrogate pair as one character.
    expected = [(_as_json_reads(e.frm), _as_json_reads(e.to)) for e in edges]
    if fmt == "json":
        assert [(r["from"], r["to"]) for r in json.loads(text)] == expected
    elif fmt == "jsonl":
        parsed = [json.loads(line) for line in text.split("\n")[:-1]]
        assert [(r["from"], r["to"]) for r in parsed] == expected
    elif fmt == "graphml":
        graph = nx.parse_graphml(text, force_multigraph=True)
        assert graph.number_of_nodes() == len(slugs)  # distinct slugs stay distinct nodes
        assert graph.number_of_edges() == len(edges)
    elif fmt == "dot":
        node_lines = [line for line in text.splitlines() if "[label=" in line]
        assert len(node_lines) == len(slugs) and "\x00" not in text


def _as_json_reads(text: str) -> str:
    return str(json.loads(json.dumps(text)))


def test_the_checker_accepts_what_the_renderers_write() -> None:
    dot = 'strict graph "g" {\n  a -- b -- "c" [w=1.5, x=-2; y=z];\n  node [s=b]\n}\n'
    check_export("dot", dot.encode())
    check_export("mermaid", b'flowchart TD\n  a["x"]\n  b["y"]\n  a -.->|"1 \xc2\xb7 r"| b\n')


@pytest.mark.parametrize(
    ("fmt", "broken"),
    [
        ("json", "[{]\n"),
        ("json", '{"not": "a list"}\n'),
        ("jsonl", '{"a": 1}\n{"a": \n'),
        ("graphml", '<?xml version="1.0"?>\n<graphml><graph><node id="a&#1;"/></graph></graphml>'),
        ("graphml", "<graphml>\n"),
        ("graphml", '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><key/></graphml>'),
        ("graphml", '<graph xmlns="http://graphml.graphdrawing.org/xmlns"></graph>'),
        ("dot", 'digraph okf {\n  "a" -> "b";\n'),
        ("dot", 'digraph okf {\n  "a" -- "b";\n}\n'),
        ("dot", 'digraph okf {\n  "a" [label="x" "y"];\n}\n'),
        ("dot", 'digraph okf {\n  "a\x00b" [label="x"];\n}\n'),
        ("dot", 'digraph okf {\n  "a" -> "b\n'),
        ("dot", "digraph okf {\n  a -> ;\n}\n"),
        ("mermaid", 'flowchart LR\n  n0["a"b"]\n'),
        ("mermaid", 'flowchart LR\n  n0["a"]\n  n0 -->|1| n9\n'),
        ("mermaid", '---\ntitle: "a\x1bb"\n---\nflowchart LR\n'),
    ],
)
def test_the_checker_refuses_what_a_reader_would_refuse(fmt: str, broken: str) -> None:
    with pytest.raises(MalformedExport):
        check_export(fmt, broken.encode("utf-8"))


def test_a_malformed_export_never_replaces_the_file_and_reports_failure(tmp_path: Path) -> None:
    target = tmp_path / "slice.graphml"
    good = render(EDGES, "graphml", **SLICE)
    write_export(target, good, fmt="graphml")
    bad = '<?xml version="1.0"?>\n<graphml><graph><node id="a\x01"/></graph></graphml>\n'
    with pytest.raises(ExportFailed, match="did not verify: not well-formed XML"):
        write_export(target, bad, fmt="graphml")
    assert target.read_text(encoding="utf-8") == good  # the good export is still there
    assert [p.name for p in tmp_path.iterdir()] == ["slice.graphml"]  # no temp file left


def test_cli_export_of_a_control_character_slug_is_valid_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from okf_explorer.cli import main

    bundle = tmp_path / "brain"
    bundle.mkdir()
    (bundle / "index.md").write_text("See [odd](odd%1B%5B2Jname%0Aline.md).\n", encoding="utf-8")
    (bundle / "odd\x1b[2Jname\nline.md").write_text(
        '---\ntitle: "T\\x00\\x1b]0;x\\x07"\n---\nback to [[index]]\n', encoding="utf-8"
    )
    for fmt in FORMATS:
        out = tmp_path / f"slice.{fmt}"
        argv = ["export", "index", "--depth", "2", "--format", fmt, "-o", str(out)]
        assert main([*argv, "--source", str(bundle)]) == 0
        data = out.read_bytes()
        check_export(fmt, data)
        assert b"\x1b" not in data and b"\x00" not in data
    err = capsys.readouterr().err
    assert err.count("exported 2 edges") == len(FORMATS)
