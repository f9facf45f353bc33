"""Issue 22 item 5: exports stream, and write the same bytes as before.

Before streaming, JSON was `json_text(edge_records(edges), indent=2)` and GraphML
networkx's `generate_graphml` over a `MultiDiGraph` (a copy of that code is the
reference below). The golden hashes are of exports written by that code (commit
201b48d) for slices of the sample brain and of the typed-relations bundle; the
property tests hold the streaming writers to the references for any names, any
relations, repeated pairs (which networkx groups) and empty titles. The streaming
check must answer as the whole-file check did however the bytes are cut.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.brain import Brain
from okf_explorer.core.export.check import MalformedExport, check_export, check_export_stream
from okf_explorer.core.export.formats import FORMATS, render, write_export
from okf_explorer.core.graph.traverse import Edge, clamp_depth, edge_records
from okf_explorer.core.text_safety import json_text, printable, reversible
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_bundle
from tests.typed_bundle import PAGES

SAMPLE = Path(__file__).resolve().parents[2] / "okf_explorer" / "sample_brain"

GOLDEN: dict[tuple[str, str, int, str], tuple[int, dict[str, str]]] = {
    ("sample", "tables/orders", 2, "both"): (377, {
        "json": "f70655b9f48cb047611424341c72a107674c325bf694a6585ecada6ec1ccfa02",
        "jsonl": "6a9287beea5e64f6dfb293fcd9aa3f4d3fab311d961f74f110ef92f505d0ae28",
        "dot": "b098abed815c71068b82fa33d459ba7cd06c7db44f4c7c642126a60eae0e19af",
        "graphml": "d64702cb4a5169d4b9447e6d9f67c937069a553ecca7fce1f8a7595b23b4ae00",
        "mermaid": "2cf48ecdef7e50554781b1ee469b3fda3aec1762a7ba18c19a7e35d40883710a",
    }),
    ("sample", "index", 3, "out"): (399, {
        "json": "70e94046abed8475a5fda3b408cf84e5baca3ee0178c592b53d6249943fe8a48",
        "jsonl": "e0f906037d6304e9ce1cac20ca31709c68d9f2b41810d105e37ad5e8e5378e25",
        "dot": "12086b63979e777a69d1a6c0452e675f1f4d3465c7cfd70af21dd38920b859cb",
        "graphml": "9a9d43998929b58ffc130f8a494c032fa0929b97c280bf1fa551b119b84dd63d",
        "mermaid": "9024a58ca60f8aa2e0067e699bfe5af095014199337d805943f29f98427ddf7a",
    }),
    ("sample", "glossary/customer", 2, "in"): (60, {
        "json": "90e8b4b6752006aa19b16046f3482c53621bf097fa52c48503e7dd8a6663b8d1",
        "jsonl": "8cf7ee337df3fd61a4aa1dc9b0f5927e54f6b77ffc8a414479a5f09b88fc6c88",
        "dot": "91debed985111e1365d8455fb4ade6724df3738814ac5ef1ca061ee9a4d06cc1",
        "graphml": "30a278dba16dd31c477f2b8286d9b5ad9f2601598ca4d1c5f295a9d055dc1ccd",
        "mermaid": "73b9130f942bc460ffe9656b92eff9da279f66fc9570cd8023ddc6369c385ec4",
    }),
    ("sample", "tables/orders", 10, "both"): (788, {
        "json": "01db436d9f0a604006220accf4e2591b763bc9dd648bd4b09209e564a11cdef5",
        "jsonl": "b682a50d08b6cdd718911f4939906083d92e6ddd6fe97581fdf770b4a4747466",
        "dot": "cae1b807760b4e37cc101f699776f49ed50d75d42efe93e071c984d62254d581",
        "graphml": "e75c30d4d1b343a39a216100634c9e3c382f32637110f3caabc836f417210488",
        "mermaid": "f741beb797978e4e9a8766cd17e9b2f3654f0aa71b042b616032e5622b61ea33",
    }),
    ("typed", "metrics/revenue", 2, "both"): (9, {
        "json": "1672cf8bcf3f00f54060eb692edecf5c3d6fc717c5a06c7ae10812b123bbdc26",
        "jsonl": "594afd0a0367edbde1945456637df97d14a91cd4e65fc09ed96826b9fcf87bac",
        "dot": "44742271f8e7b08928930171d88dddbeb92f5641301325c68726e757a38df22a",
        "graphml": "d5551145992ac6cd074e2b21a3e1b6dae118628291102ca96883d2cdb4402ca9",
        "mermaid": "7e5f81709ce8ff0bdd6ef567c4c2b10542c89a82c07858caac62327db0218255",
    }),
    ("typed", "tables/orders", 3, "in"): (4, {
        "json": "6ced10930e2db74771c8e8ff92259f9559e97707c4c5c31e795a6015e32d5f16",
        "jsonl": "1a25f573a160f17a0a3fc00bda659638c9babe00caf0a8ce00e021beb4e3483c",
        "dot": "bde0dd5ff63c78e98a6e1479a4a54fe7b9cf32b7cd0fbdab1b81d4b04a763291",
        "graphml": "ec22863ebbd2115533418d4ff8f50e88cabc866d35271b47fd7220c7bdd936fc",
        "mermaid": "3696633d0892522b684ee8aef7b305a8d02fb222403c0d45ab91a9c39981d284",
    }),
}  # fmt: skip


@pytest.fixture(scope="module")
def brains(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Brain]:
    typed = write_bundle(tmp_path_factory.mktemp("typed"), PAGES)
    return {
        "sample": Brain(BundleSource(SAMPLE), cache_dir=False),
        "typed": Brain(BundleSource(typed), cache_dir=False),
    }


@pytest.mark.parametrize("case", list(GOLDEN), ids=lambda case: "-".join(map(str, case)))
def test_exports_of_real_slices_are_the_bytes_written_before_streaming(
    brains: dict[str, Brain], case: tuple[str, str, int, str], tmp_path: Path
) -> None:
    label, root, depth, direction = case
    count, hashes = GOLDEN[case]
    brain = brains[label]
    titles = {slug: info.title for slug, info in brain.ensure_index().pages.items()}
    edges = brain.traverse(root, depth, direction)  # type: ignore[arg-type]
    assert len(edges) == count
    for fmt in FORMATS:
        text = render(edges, fmt, root=root, depth=depth, direction=direction, titles=titles)
        assert hashlib.sha256(text.encode()).hexdigest() == hashes[fmt], fmt
        written = write_export(tmp_path / f"slice.{fmt}", text, fmt=fmt)
        assert hashlib.sha256(written.read_bytes()).hexdigest() == hashes[fmt], fmt


# -- the references: how the exports were written before streaming ----------------------


def networkx_graphml(
    edges: list[Edge], root: str, depth: int, direction: str, titles: dict[str, str]
) -> str:
    """The GraphML of `core.export.formats` before streaming (networkx, an ElementTree)."""
    caption = f"{root} · depth {clamp_depth(depth)} · {direction}"
    graph = nx.MultiDiGraph(name=caption)
    for node in dict.fromkeys([root, *(end for edge in edges for end in (edge.frm, edge.to))]):
        graph.add_node(node, label=titles.get(node, node))
    for index, edge in enumerate(edges):
        frm, to, hop, way = edge
        a, b = (frm, to) if way == "out" else (to, frm)
        graph.add_edge(a, b, key=f"e{index}", hop=hop, direction=way, rel=edge.rel)
    renamed = {node: safe for node in graph if (safe := reversible(node)) != node}
    if renamed:
        graph = nx.relabel_nodes(graph, renamed, copy=True)
    attributes: list[dict[str, Any]] = [
        graph.graph,
        *(data for _, data in graph.nodes(data=True)),
        *(data for _, _, data in graph.edges(data=True)),
    ]
    for data in attributes:
        for key, value in data.items():
            if isinstance(value, str):
                data[key] = printable(value)
    body = "\n".join(nx.generate_graphml(graph, encoding="utf-8", prettyprint=True))
    return '<?xml version="1.0" encoding="utf-8"?>\n' + body + "\n"


names = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=0, max_codepoint=0x2FF),
        st.sampled_from(list("\u202e\u2028\ufffe名前😀")),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
        st.sampled_from(list('\\"<>&\t\r\n')),
    ),
    max_size=6,
)


@st.composite
def slices(draw: st.DrawFn) -> tuple[list[Edge], str, dict[str, str]]:
    """Edges over few names (so pairs repeat, as `both` walks and typed edges repeat
    them), some typed, with titles that may be empty."""
    pool = draw(st.lists(names, min_size=1, max_size=5, unique=True))
    node = st.sampled_from(pool)
    rel = st.sampled_from(["links", "links", "derived_from", "résumé<&>", ""])
    way = st.sampled_from(["out", "in"])
    edges = [
        Edge.typed(draw(node), draw(node), draw(st.integers(1, 10)), draw(way), draw(rel))
        for _ in range(draw(st.integers(0, 12)))
    ]
    titles = draw(st.dictionaries(node, st.one_of(st.just(""), names), max_size=3))
    return edges, pool[0], titles


@settings(max_examples=300, deadline=None)
@given(case=slices())
def test_graphml_is_what_networkx_wrote(case: tuple[list[Edge], str, dict[str, str]]) -> None:
    edges, root, titles = case
    expected = networkx_graphml(edges, root, 3, "both", titles)
    assert render(edges, "graphml", root=root, depth=3, direction="both", titles=titles) == expected


@settings(max_examples=300, deadline=None)
@given(case=slices())
def test_json_and_jsonl_are_what_json_text_wrote(
    case: tuple[list[Edge], str, dict[str, str]],
) -> None:
    edges, root, _ = case
    records = edge_records(edges)
    slice_of = {"root": root, "depth": 1, "direction": "out"}
    assert render(edges, "json", **slice_of) == json_text(records, indent=2) + "\n"
    assert render(edges, "jsonl", **slice_of) == "".join(json_text(r) + "\n" for r in records)


# -- the streaming check answers as the whole-file check, however the bytes are cut ------


def cut(data: bytes, sizes: list[int]) -> list[bytes]:
    blocks, start = [], 0
    for size in sizes:
        blocks.append(data[start : start + size])
        start += size
    return [*blocks, data[start:]]


@settings(max_examples=200, deadline=None)
@given(case=slices(), fmt=st.sampled_from(FORMATS), sizes=st.lists(st.integers(0, 40)))
def test_a_valid_export_passes_the_check_however_it_is_cut(
    case: tuple[list[Edge], str, dict[str, str]], fmt: str, sizes: list[int]
) -> None:
    edges, root, titles = case
    text = render(edges, fmt, root=root, depth=2, direction="both", titles=titles)
    check_export_stream(fmt, cut(text.encode("utf-8"), sizes))


BROKEN = [
    ("json", b'[{"a": 1},, {"b": 2}]'),
    ("json", b'[{"a": 1}] x'),
    ("json", b'[{"a": "\xc3"}]'),
    ("json", b'{"a": 1}'),
    ("json", b""),
    ("json", b'[{"a": 1}'),
    ("jsonl", b'{"a": 1}\n[1]\n'),
    ("jsonl", b'{"a": 1}'),
    ("graphml", b'<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph></graphml>'),
    ("dot", b'digraph okf {\n  "a" -> "b";\n'),
    ("dot", b'digraph okf {\n  "a\x01" -> "b";\n}\n'),
    ("mermaid", b'flowchart LR\n  n0["a"]\n  n0 -->|1| n9\n'),
    ("mermaid", b'---\ntitle: "x"\nflowchart LR\n'),
]


@pytest.mark.parametrize(("fmt", "data"), BROKEN)
@pytest.mark.parametrize("size", [1, 2, 3, 7, 1 << 20])
def test_a_broken_export_fails_the_check_however_it_is_cut(
    fmt: str, data: bytes, size: int
) -> None:
    with pytest.raises(MalformedExport):
        check_export(fmt, data)
    with pytest.raises(MalformedExport):
        check_export_stream(fmt, [data[i : i + size] for i in range(0, len(data), size)])


def test_a_cut_utf8_character_is_read_whole_and_a_bad_byte_is_placed() -> None:
    text = json.dumps([{"name": "名前😀"}], ensure_ascii=False).encode()
    check_export_stream("json", [bytes([byte]) for byte in text])
    bad = text.replace("前".encode(), b"\xff\xfe\xfd")
    where = bad.index(b"\xff")
    with pytest.raises(MalformedExport, match=f"not UTF-8 at byte {where}"):
        check_export_stream("json", [bytes([byte]) for byte in bad])


@pytest.mark.parametrize("spool", [8 * 1024 * 1024, 64])
def test_the_browser_download_is_the_bytes_e_writes(
    brains: dict[str, Brain], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spool: int
) -> None:
    from okf_explorer.tui.state import saving
    from okf_explorer.tui.state.navigator import View

    monkeypatch.setattr(saving, "SPOOL_BYTES", spool)  # 64: spilled to a file
    view = View("tables/orders", 2, "both")
    edges = brains["sample"].traverse(view.slug, view.depth, view.direction)
    written = saving.export_slice(edges, view, tmp_path)
    name, data = saving.slice_file(edges, view)
    with data:
        assert (name, data.read()) == (written.name, written.read_bytes())
