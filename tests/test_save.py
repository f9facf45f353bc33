"""Saving a slice or a trail as a page (issue 13 §3): the composition, the folder
writer's outcomes, `writer_for`, and `okf-explorer save` end to end on real folders."""

from __future__ import annotations

import errno
import json
import os
import sys
import threading
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.trail import Trail, TrailMove, trail_document, trail_edges
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.okf.validate import validate_brain
from okf_explorer.core.port import PageWriter, SaveOutcome
from okf_explorer.core.save import (
    check_new_slug,
    compose_page,
    earlier_at,
    idempotency_key,
    saved_key,
    slice_graph,
    trail_graph,
)
from okf_explorer.sources.factory import CannotSave, writer_for
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.folder.write import FolderWriter
from tests.bundles import write_bundle
from tests.mcp_server_fixture import serve_bundle
from tests.unprivileged import unprivileged

FILES = {
    "index.md": "# Home\n\n* [Orders](tables/orders.md)\n",
    "tables/orders.md": "---\ntype: Table\ntitle: Orders\n---\nSee [[customers]] and [[ghost]].\n",
    "tables/customers.md": "---\ntype: Table\ntitle: Customers [main]\n---\nBack to [[orders]].\n",
    "my notes/a b.md": "---\ntype: Note\n---\nAbout [[orders]].\n",
}
EDGES = [
    Edge("tables/orders", "tables/customers", 1, "out"),
    Edge("tables/orders", "ghost", 1, "out"),
]
AT = "2026-11-30T19:00:00+00:00"


def compose(edges: list[Edge] = EDGES, at: str = AT) -> str:
    graph = slice_graph(["tables/orders"], edges, 1, "out")
    return compose_page(graph, by="okf-explorer/test", at=at, exists=lambda s: s != "ghost")


def bundle(tmp_path: Path) -> Path:
    return write_bundle(tmp_path / "brain", FILES)


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


# --- composition ---------------------------------------------------------------------


def test_the_same_slice_composes_to_the_same_bytes_and_key() -> None:
    assert compose() == compose()
    key = idempotency_key(slice_graph(["tables/orders"], EDGES, 1, "out"))
    assert key.startswith("sha256:") and len(key) == 7 + 64
    assert saved_key(compose()) == key
    assert saved_key(compose(at="2030-01-01T00:00:00+00:00")) == key  # the time is not in it


def test_other_edges_or_settings_give_another_key() -> None:
    base = idempotency_key(slice_graph(["a"], EDGES, 1, "out"))
    assert idempotency_key(slice_graph(["a"], EDGES[:1], 1, "out")) != base
    assert idempotency_key(slice_graph(["a"], EDGES, 2, "out")) != base
    assert idempotency_key(slice_graph(["a"], EDGES, 1, "in")) != base
    assert idempotency_key(slice_graph(["a"], EDGES, 1, "out", ["links"])) != base
    typed = [Edge.typed("tables/orders", "tables/customers", 1, "out", "derived_from"), EDGES[1]]
    assert idempotency_key(slice_graph(["a"], typed, 1, "out")) != base


def test_the_page_shape() -> None:
    text = compose()
    assert text.startswith('---\ntype: Slice\ntitle: "Slice of tables/orders (depth 1, out)"\n')
    assert '  at: "2026-11-30T19:00:00+00:00"\n' in text
    assert '  roots: ["tables/orders"]\n  depth: 1\n  direction: "out"\n---\n' in text
    assert "- [tables/orders](/tables/orders.md)\n" in text
    assert "- ghost (missing)\n" in text
    assert (
        "- hop 1: [tables/orders](/tables/orders.md) → [tables/customers](/tables/customers.md)"
        in text
    )


def test_links_are_root_absolute_and_survive_odd_names() -> None:
    graph = slice_graph(["my notes/a b"], [Edge("my notes/a b", "x(1)", 1, "in")], 1, "in")
    text = compose_page(graph, by="b", at=AT, titles={"my notes/a b": "A [b]"})
    assert "[A \\[b\\]](/my%20notes/a%20b.md)" in text
    assert "[x(1)](/x%281%29.md) → [A \\[b\\]](/my%20notes/a%20b.md)" in text  # as the link points


def test_bad_new_slugs_are_refused() -> None:
    assert check_new_slug("trails/x.md") == "trails/x"
    for bad in (
        "",
        "/abs",
        "../x",
        "a//b",
        ".hidden/x",
        "a/./b",
        "index",
        "t/log",
        "a\\b",
        "a\x1bb",
    ):
        with pytest.raises(ValueError, match="bad page name"):
            check_new_slug(bad)


def test_a_trail_export_carries_its_provenance_beside_the_records() -> None:
    trail = Trail()
    trail.record(TrailMove(None, "a", "start"))
    trail.record(TrailMove("a", "b"))
    trail.record(TrailMove("b", "b"))  # not a move
    trail.record(TrailMove("b", "a", "back"))
    trail.record(TrailMove("a", "c"))
    trail.record(TrailMove("c", "d", "finder"))
    links = {("a", "b"): "links", ("a", "c"): None, ("d", "c"): None}

    def link_between(frm: str, to: str) -> object:
        return None if (frm, to) not in links else SimpleNamespace(rel=links[frm, to] or "links")

    steps = trail.steps(link_between)  # type: ignore[arg-type]
    assert [(s.how, s.rel) for s in steps] == [
        ("start", "start"),
        ("link", "links"),
        ("back", "back"),
        ("link", "links"),
        ("finder", "finder"),
    ]
    assert [s.how for s in trail.steps(None)][1] == "jump"  # no index: nothing is known
    edges = trail_edges(steps)[:2]
    document = trail_document(edges, by="okf-explorer/1", at=AT)
    assert document["generated"] == {"by": "okf-explorer/1", "at": AT}
    assert [(r["from"], r["to"], r["rel"], r["hop"]) for r in document["edges"]] == [
        ("a", "b", "links", 1),
        ("b", "a", "back", 2),
    ]
    assert trail.pages == ["a", "b", "a", "c", "d"]
    assert trail_graph(trail.pages, edges).pages == ("a", "b", "c", "d")


# --- the folder writer ---------------------------------------------------------------


def test_written_then_unchanged_keeps_one_file_with_the_first_bytes(tmp_path: Path) -> None:
    root = bundle(tmp_path)
    writer = FolderWriter(root)
    assert isinstance(writer, PageWriter)
    key = saved_key(compose())
    assert key is not None
    first = writer.write_page("trails/orders", compose(), idempotency_key=key)
    assert (first.outcome, first.attempts) == (SaveOutcome.WRITTEN, 1)
    assert first.where == str(root / "trails" / "orders.md")
    saved = (root / "trails/orders.md").read_bytes()
    assert saved == compose().encode()
    later = compose(at="2027-01-01T00:00:00+00:00")
    second = writer.write_page("trails/orders", later, idempotency_key=key)
    assert (second.outcome, second.attempts) == (SaveOutcome.UNCHANGED, 0)
    assert second.detail == (
        "the same slice is already saved there (content differs from this save: left as it is)"
    )
    assert (root / "trails/orders.md").read_bytes() == saved
    assert sorted(p.name for p in (root / "trails").iterdir()) == ["orders.md"]


def test_a_foreign_or_different_page_is_refused(tmp_path: Path) -> None:
    root = bundle(tmp_path)
    writer = FolderWriter(root)
    before = tree(root)
    result = writer.write_page(
        "tables/orders", compose(), idempotency_key=saved_key(compose()) or ""
    )
    assert result.outcome is SaveOutcome.REFUSED
    assert result.detail.startswith("page exists; choose another --as")
    assert tree(root) == before
    writer.write_page("t/x", compose(), idempotency_key=saved_key(compose()) or "")
    other = compose(EDGES[:1])
    again = writer.write_page("t/x", other, idempotency_key=saved_key(other) or "")
    assert again.outcome is SaveOutcome.REFUSED
    (root / "t/dir.md").mkdir()
    assert writer.write_page("t/dir", other, idempotency_key="k").outcome is SaveOutcome.REFUSED


def test_a_symlink_out_of_the_bundle_is_refused(tmp_path: Path) -> None:
    root = bundle(tmp_path)
    (tmp_path / "outside").mkdir()
    (root / "out").symlink_to(tmp_path / "outside")
    result = FolderWriter(root).write_page("out/x", compose(), idempotency_key="k")
    assert result.outcome is SaveOutcome.REFUSED
    assert list((tmp_path / "outside").iterdir()) == []


def refused_in_a_read_only_folder(folder: Path) -> None:
    root = bundle(folder)
    (root / "ro").mkdir()
    (root / "ro").chmod(0o500)
    try:
        result = FolderWriter(root).write_page("ro/x", compose(), idempotency_key="k")
    finally:
        (root / "ro").chmod(0o700)
    assert result.outcome is SaveOutcome.REFUSED
    assert "permission denied" in result.detail
    assert list((root / "ro").iterdir()) == []


def test_a_read_only_folder_is_refused() -> None:
    unprivileged(refused_in_a_read_only_folder)


def test_a_write_the_system_refuses_is_refused_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    root = bundle(tmp_path)
    before = tree(root)

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    result = FolderWriter(root).write_page("x", compose(), idempotency_key="k")
    assert (result.outcome, result.attempts) == (SaveOutcome.REFUSED, 1)
    assert result.detail == "cannot write the file: read-only file system"
    assert tree(root) == before


def test_a_write_that_does_not_read_back_is_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from okf_explorer.sources.folder import write as folder_write

    root = bundle(tmp_path)

    def corrupting(target: Path, data: bytes, **kwargs: object) -> None:
        target.write_bytes(data[:-1])

    monkeypatch.setattr(folder_write, "atomic_create", corrupting)
    result = FolderWriter(root).write_page("x", compose(), idempotency_key="k")
    assert (result.outcome, result.detail) == (
        SaveOutcome.FAILED,
        "the file differs when read back",
    )


def test_the_saved_page_passes_validate_strict(tmp_path: Path, run) -> None:
    root = bundle(tmp_path)
    status, _, err = run("save", "--source", str(root), "tables/orders", "--as", "trails/o")
    assert status == 0, err
    brain = Brain(BundleSource(root), cache_dir=False)
    try:
        report = validate_brain(brain)
        page = brain.page("trails/o")
    finally:
        brain.close()
    assert [f for f in report.findings if f.slug == "trails/o"] == []
    assert page.type == "Slice"
    assert page.frontmatter["generated"]["by"].startswith("okf-explorer/")


def test_atomic_create_never_replaces_anything_and_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from okf_explorer.core.atomic import atomic_create, current_umask

    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "taken.md").write_bytes(b"theirs")
    (tmp_path / "outside.md").write_bytes(b"outside")
    (folder / "link.md").symlink_to(tmp_path / "outside.md")
    (folder / "dir.md").mkdir()
    for name in ("taken.md", "link.md", "dir.md"):
        with pytest.raises(FileExistsError):
            atomic_create(folder / name, b"ours")
    assert (folder / "taken.md").read_bytes() == b"theirs"
    assert (tmp_path / "outside.md").read_bytes() == b"outside"
    atomic_create(folder / "new.md", b"ours")
    assert (folder / "new.md").read_bytes() == b"ours"
    assert (folder / "new.md").stat().st_mode & 0o777 == 0o666 & ~current_umask()
    assert sorted(p.name for p in folder.iterdir()) == ["dir.md", "link.md", "new.md", "taken.md"]

    def refuse(path: Path) -> None:
        raise ValueError("differs")

    def no_links(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EOPNOTSUPP, "Operation not supported")

    with pytest.raises(ValueError):
        atomic_create(folder / "unverified.md", b"ours", verify=refuse)
    monkeypatch.setattr(os, "link", no_links)
    with pytest.raises(FileExistsError):
        atomic_create(folder / "taken.md", b"ours")
    with pytest.raises(ValueError):  # the fallback removes the file it created
        atomic_create(folder / "unverified.md", b"ours", verify=refuse)
    atomic_create(folder / "plain.md", b"ours")
    assert (folder / "plain.md").read_bytes() == b"ours"
    assert sorted(p.name for p in folder.iterdir()) == [
        "dir.md",
        "link.md",
        "new.md",
        "plain.md",
        "taken.md",
    ]


RACERS = 8
ROUNDS = 40


def race(writer: FolderWriter, root: Path) -> None:
    """`RACERS` threads save `RACERS` different slices to one new name, `ROUNDS` times:
    each round exactly one is `written`, every other `refused`, the file is the winner's."""
    texts = []
    for number in range(RACERS):
        graph = slice_graph([f"root-{number}"], EDGES, 1, "out")
        texts.append(compose_page(graph, by="okf-explorer/test", at=AT))
    keys = [saved_key(text) or "" for text in texts]
    assert len(set(keys)) == RACERS
    for round_number in range(ROUNDS):
        slug = f"race/r{round_number}"
        start = threading.Barrier(RACERS)
        results: list[object] = [None] * RACERS

        def save(
            number: int,
            slug: str = slug,
            start: threading.Barrier = start,
            results: list[object] = results,
        ) -> None:
            start.wait()
            results[number] = writer.write_page(slug, texts[number], idempotency_key=keys[number])

        threads = [threading.Thread(target=save, args=(n,)) for n in range(RACERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        outcomes = Counter(result.outcome for result in results)  # type: ignore[union-attr]
        assert outcomes == {SaveOutcome.WRITTEN: 1, SaveOutcome.REFUSED: RACERS - 1}, outcomes
        (winner,) = [n for n, r in enumerate(results) if r.outcome is SaveOutcome.WRITTEN]  # type: ignore[union-attr]
        assert (root / f"{slug}.md").read_bytes() == texts[winner].encode()
        refusals = {r.detail for r in results if r.outcome is SaveOutcome.REFUSED}  # type: ignore[union-attr]
        assert refusals == {f"page exists; choose another --as ({root / slug}.md)"}
    assert sorted(p.name for p in (root / "race").iterdir()) == [
        f"r{n}.md" for n in sorted(range(ROUNDS), key=str)
    ]  # no temporary file left behind


def test_racing_saves_to_one_new_name_have_exactly_one_winner(tmp_path: Path) -> None:
    root = bundle(tmp_path)
    race(FolderWriter(root), root)


def test_racing_saves_of_the_same_slice_are_one_written_and_the_rest_unchanged(
    tmp_path: Path,
) -> None:
    root = bundle(tmp_path)
    writer, text = FolderWriter(root), compose()
    key = saved_key(text) or ""
    start = threading.Barrier(RACERS)
    outcomes: list[SaveOutcome] = []

    def save() -> None:
        start.wait()
        outcomes.append(writer.write_page("race/same", text, idempotency_key=key).outcome)

    threads = [threading.Thread(target=save) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(outcomes) == {SaveOutcome.WRITTEN: 1, SaveOutcome.UNCHANGED: RACERS - 1}
    assert (root / "race/same.md").read_bytes() == text.encode()


def test_without_hard_links_racing_saves_still_have_one_winner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file system that cannot hard-link (FAT, some FUSE mounts): `O_EXCL` decides."""

    def no_links(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    root = bundle(tmp_path)
    race(FolderWriter(root), root)


# --- writer_for ------------------------------------------------------------------------


def test_writer_for_a_folder_and_for_a_server_without_a_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from okf_explorer.sources.factory import open_source

    root = bundle(tmp_path)
    folder = open_source(str(root))
    try:
        assert isinstance(writer_for(folder), FolderWriter)
    finally:
        folder.close()
    monkeypatch.setitem(sys.modules, "okf_explorer.sources.gbrain.write", None)
    with serve_bundle(root) as server:
        source = open_source(server.url)
        try:
            with pytest.raises(CannotSave, match="this source cannot take pages"):
                writer_for(source)
        finally:
            source.close()


# --- the command line ---------------------------------------------------------------


def test_save_prints_its_outcome_and_exits_0_then_unchanged(tmp_path: Path, run) -> None:
    root = bundle(tmp_path)
    where = root / "trails" / "o.md"
    argv = ("save", "--source", str(root), "tables/orders", "--as", "trails/o")
    assert run(*argv) == (0, f"written\ttrails/o\t{where}\n", "")
    saved = where.read_bytes()
    status, out, err = run(*argv, "--json")
    assert (status, err) == (0, "")
    assert json.loads(out) == {
        "outcome": "unchanged",
        "slug": "trails/o",
        "where": str(where),
        "detail": "the same slice is already saved there (identical)",
        "attempts": 0,
        "idempotency_key": saved_key(saved.decode()),
    }
    assert where.read_bytes() == saved


def test_save_onto_another_page_exits_1_with_one_line(tmp_path: Path, run) -> None:
    root = bundle(tmp_path)
    before = tree(root)
    status, out, err = run(
        "save", "--source", str(root), "tables/orders", "--as", "tables/customers"
    )
    assert (status, out) == (1, "")
    where = root / "tables" / "customers.md"
    assert err == f"okf-explorer: refused: page exists; choose another --as ({where})\n"
    assert tree(root) == before


def test_save_a_bad_name_or_an_unknown_page(tmp_path: Path, run) -> None:
    root = bundle(tmp_path)
    status, _, err = run("save", "--source", str(root), "tables/orders", "--as", "../x")
    assert status == 2 and "bad page name '../x'" in err
    status, _, err = run("save", "--source", str(root), "nope", "--as", "x")
    assert status == 1 and "no page" in err


def test_dry_run_prints_the_page_and_writes_nothing(
    tmp_path: Path, run, monkeypatch: pytest.MonkeyPatch
) -> None:
    from okf_explorer.sources import factory

    def no_writer(source: object) -> None:
        raise AssertionError("a dry run constructed a writer")

    monkeypatch.setattr(factory, "writer_for", no_writer)
    root = bundle(tmp_path)
    before = tree(root)
    status, out, err = run(
        "save", "--source", str(root), "tables/orders", "--as", "t/o", "--dry-run"
    )
    assert (status, err) == (0, "")
    assert (
        out.startswith("---\ntype: Slice\n")
        and "[Customers \\[main\\]](/tables/customers.md)" in out
    )
    status, out, _ = run(
        "save", "--source", str(root), "tables/orders", "--as", "t/o", "--dry-run", "--json"
    )
    record = json.loads(out)
    assert (status, record["outcome"], record["attempts"], record["where"]) == (
        0,
        "dry-run",
        0,
        None,
    )
    assert record["text"].startswith("---\ntype: Slice\n")
    assert tree(root) == before


def test_a_multi_root_slice_and_a_trail(tmp_path: Path, run) -> None:
    root = bundle(tmp_path)
    argv = ("save", "--source", str(root), "--dry-run", "--json")
    both = json.loads(run(*argv, "tables/orders", "my notes/a b", "--as", "s")[1])["text"]
    assert '  roots: ["tables/orders", "my notes/a b"]\n' in both
    assert both.count("[Orders](/tables/orders.md) → [Customers") == 1
    status, out, err = run(
        *argv[:-1],
        "tables/customers",
        "tables/orders",
        "index",
        "my notes/a b",
        "--trail",
        "--as",
        "t",
    )
    assert (status, err) == (0, "")
    assert "type: Trail\n" in out
    assert (
        "- step 1: [Customers \\[main\\]](/tables/customers.md) → "
        "[Orders](/tables/orders.md) · links\n" in out
    )
    assert (
        "- step 2: [Home](/index.md) → [Orders](/tables/orders.md) · links\n" in out
    )  # followed `in`
    assert "- step 3: [Home](/index.md) → [a b](/my%20notes/a%20b.md) · jump\n" in out


def test_over_a_server_dry_run_reads_only_and_a_save_says_it_cannot(
    tmp_path: Path, run, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bundle(tmp_path)
    before = tree(root)
    monkeypatch.setitem(sys.modules, "okf_explorer.sources.gbrain.write", None)
    with serve_bundle(root) as server:
        argv = ("save", "--source", server.url, "tables/orders", "--as", "t/o")
        status, out, err = run(*argv, "--dry-run")
        assert (status, err) == (0, "")
        assert out.startswith("---\ntype: Slice\n") and "[Customers \\[main\\]]" in out
        status, out, err = run(*argv)
        assert (status, out) == (1, "")
        assert err.startswith("okf-explorer: this source cannot take pages: ")
        assert err.count("\n") == 1
    assert tree(root) == before


def test_earlier_at_reuses_the_time_of_the_same_slice_only() -> None:
    key = "sha256:" + "a" * 64
    nested = {"generated": {"at": AT, "idempotency_key": key}}
    assert earlier_at(nested, key) == AT
    assert earlier_at({"idempotency_key": key, "generated": {"at": AT}}, key) == AT
    assert earlier_at(nested, "sha256:" + "b" * 64) is None
    assert earlier_at({"generated": "x"}, key) is None
    assert saved_key(f'---\nidempotency_key: "{key}"\n---\n') == key
