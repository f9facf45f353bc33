"""Export formats (SPEC §5) and the atomic, verified writer."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

from okf_explorer.core.errors import ExportFailed
from okf_explorer.core.export import formats as export_module
from okf_explorer.core.export.formats import (
    FORMATS,
    default_export_name,
    render,
    write_export,
)
from okf_explorer.core.graph.traverse import Edge, edge_records
from tests.unprivileged import unprivileged

EDGES = [
    Edge("tables/orders", "customers", 1, "out"),
    Edge("customers", "tables/orders", 2, "out"),
    Edge("tables/orders", 'odd "name" <x>', 1, "in"),
]
SLICE = {"root": "tables/orders", "depth": 2, "direction": "both"}
KEYS = ["type", "hemisphere", "from", "to", "rel", "direction", "hop"]


def test_edge_records_have_exactly_the_spec_keys_in_order() -> None:
    records = edge_records(EDGES)
    assert [list(r) for r in records] == [KEYS] * 3
    assert records[0] == {
        "type": "edge",
        "hemisphere": "knowledge",
        "from": "tables/orders",
        "to": "customers",
        "rel": "links",
        "direction": "out",
        "hop": 1,
    }
    # an in edge follows the walk: from the page walked from to the page linking to it
    assert (records[2]["from"], records[2]["to"], records[2]["direction"]) == (
        "tables/orders",
        'odd "name" <x>',
        "in",
    )


def test_json_is_the_records_in_traversal_order() -> None:
    text = render(EDGES, "json", **SLICE)
    assert text.endswith("]\n")
    assert text.startswith('[\n  {\n    "type": "edge",')
    assert json.loads(text) == edge_records(EDGES)
    assert list(json.loads(text)[1]) == KEYS


def test_json_of_no_edges_is_an_empty_list() -> None:
    assert json.loads(render([], **SLICE)) == []


def test_jsonl_is_one_record_a_line() -> None:
    lines = render(EDGES, "jsonl", **SLICE).splitlines()
    assert [json.loads(line) for line in lines] == edge_records(EDGES)


def test_graphml_parses_with_networkx_and_points_the_way_links_do() -> None:
    text = render(EDGES, "graphml", titles={"customers": "Customers"}, **SLICE)
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>\n<graphml')
    graph = nx.parse_graphml(text, force_multigraph=True)
    assert set(graph.nodes) == {"tables/orders", "customers", 'odd "name" <x>'}
    assert graph.nodes["customers"]["label"] == "Customers"
    assert graph.number_of_edges() == 3
    assert graph.has_edge('odd "name" <x>', "tables/orders")  # the in edge, as the link points
    hops = sorted(d["hop"] for _, _, d in graph.edges(data=True))
    assert hops == [1, 1, 2]


def test_dot_has_quoted_ids_and_one_line_per_edge() -> None:
    text = render(EDGES, "dot", **SLICE)
    assert text.startswith("digraph okf {\n") and text.endswith("}\n")
    assert 'label="tables/orders · depth 2 · both";' in text
    edge_lines = [line for line in text.splitlines() if "->" in line]
    assert edge_lines[0] == '  "tables/orders" -> "customers" [hop=1, direction="out"];'
    assert edge_lines[2] == '  "odd \\"name\\" <x>" -> "tables/orders" [hop=1, direction="in"];'
    assert text.count("{") == text.count("}")


def test_mermaid_uses_safe_ids_and_escaped_labels() -> None:
    text = render(EDGES, "mermaid", **SLICE)
    lines = text.splitlines()
    assert "flowchart LR" in lines
    assert '  n0["tables/orders"]' in lines
    assert '  n2["odd &quot;name&quot; &lt;x&gt;"]' in lines
    arrows = [line for line in lines if "-->" in line]
    assert arrows == ["  n0 -->|1| n1", "  n1 -->|2| n0", "  n2 -->|1| n0"]
    assert all(re.fullmatch(r"  n\d+ -->\|\d+\| n\d+", line) for line in arrows)


@pytest.mark.parametrize("fmt", FORMATS)
def test_rendering_is_deterministic(fmt: str) -> None:
    first = render(list(EDGES), fmt, **SLICE)
    second = render(list(EDGES), fmt, **SLICE)
    assert first == second and first.endswith("\n")


def test_captions_show_the_clamped_depth() -> None:
    assert 'label="a · depth 10 · out";' in render(
        EDGES, "dot", root="a", depth=99, direction="out"
    )
    assert 'title: "a · depth 1 · in"' in render(
        EDGES, "mermaid", root="a", depth=0, direction="in"
    )


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        render(EDGES, "xls", **SLICE)


def test_default_export_name() -> None:
    assert default_export_name("tables/orders", 2, "both") == "okf-tables_orders-d2-both.json"
    assert default_export_name("a", 1, "out", "mermaid") == "okf-a-d1-out.mmd"
    assert default_export_name("a", 9999, "in", "jsonl") == "okf-a-d10-in.jsonl"
    name = default_export_name("../we ird/naMe:*?", 3, "in", "dot")
    assert name == "okf-_we-ird_naMe-d3-in.dot"
    assert re.fullmatch(r"[A-Za-z0-9._-]+", name)


def test_write_export_is_atomic_and_verified(tmp_path: Path) -> None:
    text = render(EDGES, **SLICE)
    target = tmp_path / default_export_name("tables/orders", 2, "both")
    written = write_export(target, text)
    assert written == target and target.read_text(encoding="utf-8") == text
    first = target.read_bytes()
    write_export(target, render(EDGES, **SLICE))  # again, over the old file
    assert target.read_bytes() == first
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]  # no temp file left


def test_write_export_into_a_missing_folder_fails_cleanly(tmp_path: Path) -> None:
    with pytest.raises(ExportFailed, match="does not exist"):
        write_export(tmp_path / "nope" / "x.json", "[]\n")
    assert list(tmp_path.iterdir()) == []


def test_write_export_over_a_folder_fails_and_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(ExportFailed) as caught:
        write_export(tmp_path / "taken", "[]\n")
    assert "\n" not in str(caught.value)
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]


def test_write_export_failure_while_writing_removes_the_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export_module.os, "fsync", full_disk)
    with pytest.raises(ExportFailed, match="no space left"):
        write_export(tmp_path / "x.json", "[]\n")
    assert list(tmp_path.iterdir()) == []


def export_refused_in(folder: Path) -> None:
    read_only = folder / "ro"
    read_only.mkdir()
    read_only.chmod(0o500)
    try:
        with pytest.raises(ExportFailed):
            write_export(read_only / "x.json", "[]\n")
    finally:
        read_only.chmod(0o700)
    assert list(read_only.iterdir()) == []


def test_write_export_in_an_unwritable_folder() -> None:
    unprivileged(export_refused_in)


def test_write_export_that_does_not_verify_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_read = export_module.read_back

    def one_byte_short(path: Path) -> Iterator[bytes]:
        yield b"".join(real_read(path))[:-1]

    monkeypatch.setattr(export_module, "read_back", one_byte_short)
    with pytest.raises(ExportFailed, match="verify"):
        write_export(tmp_path / "x.json", "[]\n")
    assert list(tmp_path.iterdir()) == []


def test_write_export_refuses_the_bundle(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    (bundle / "tables").mkdir(parents=True)
    for target in (bundle / "x.json", bundle / "tables" / "x.json"):
        with pytest.raises(ExportFailed, match="bundle"):
            write_export(target, "[]\n", forbidden_root=bundle)
    alias = tmp_path / "alias"
    alias.symlink_to(bundle)
    with pytest.raises(ExportFailed, match="bundle"):
        write_export(alias / "x.json", "[]\n", forbidden_root=bundle)
    assert not any(p.is_file() for p in bundle.rglob("*"))
    beside = write_export(tmp_path / "x.json", "[]\n", forbidden_root=bundle)
    assert beside.read_text() == "[]\n"


def test_export_writes_through_a_symlink_and_keeps_it(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_export(link, "[]\n")
    assert link.is_symlink()
    assert real.read_text() == "[]\n"


def test_export_refuses_a_path_that_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(ExportFailed, match="not a regular file"):
        write_export(fifo, "[]\n")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)  # left as it was
    with pytest.raises(ExportFailed, match="not a regular file"):
        write_export(tmp_path, "[]\n")


def test_export_file_permissions_follow_umask_or_the_existing_file(tmp_path: Path) -> None:
    from okf_explorer.core.atomic import current_umask

    fresh = write_export(tmp_path / "new.json", "[]\n")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~current_umask()
    kept = tmp_path / "kept.json"
    kept.write_text("x")
    kept.chmod(0o640)
    write_export(kept, "[]\n")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640
