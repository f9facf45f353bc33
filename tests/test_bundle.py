"""BundleSource (SPEC §2) on tiny bundles built in tmp dirs."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from okf_explorer.core.errors import Cancelled, PageNotFound, PageUnreadable, SourceUnavailable
from okf_explorer.core.links import RawLink
from okf_explorer.core.port import PageSource, PageStub, ScannedPage
from okf_explorer.sources.folder import scan as parallel
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.frontmatter import split_frontmatter
from tests.bundles import write_file as write

pytestmark = pytest.mark.plain


def slugs(source: BundleSource) -> list[str]:
    return [stub.slug for stub in source.enumerate()]


def scanned(source: BundleSource) -> dict:
    return {page.info.slug: page for page in source.scan(source.enumerate())}


def test_is_a_page_source(tmp_path: Path) -> None:
    source = BundleSource(tmp_path)
    assert isinstance(source, PageSource)
    assert source.server_graph() is None
    assert source.label == str(tmp_path)
    # a vault (not an OKF bundle) is read as Obsidian reads it, and cached apart
    assert source.cache_key == os.path.realpath(tmp_path) + "\0obsidian"


def test_slug_is_posix_path_without_md_and_reserved_files_are_marked(tmp_path: Path) -> None:
    write(tmp_path, "index.md", "# Home")
    write(tmp_path, "log.md", "# Log")
    write(tmp_path, "tables/orders.md", "---\ntype: Table\n---\n# Orders")
    write(tmp_path, "tables/index.md", "# Tables")
    write(tmp_path, "tables/logbook.md", "---\ntype: Log book\n---\nx")
    write(tmp_path, "image.png", b"\x89PNG")
    write(tmp_path, "notes.txt", "not a page")
    assert slugs(BundleSource(tmp_path)) == [
        "index",
        "log",
        "tables/index",
        "tables/logbook",
        "tables/orders",
    ]
    infos = {slug: page.info for slug, page in scanned(BundleSource(tmp_path)).items()}
    assert [s for s, info in infos.items() if info.reserved] == ["index", "log", "tables/index"]
    assert BundleSource(tmp_path).get_page("tables/index").reserved


def test_hidden_folders_and_files_are_skipped(tmp_path: Path) -> None:
    write(tmp_path, ".git/HEAD.md", "x")
    write(tmp_path, ".obsidian/workspace.md", "x")
    write(tmp_path, "notes/.draft.md", "x")
    write(tmp_path, "notes/.trash/old.md", "x")
    write(tmp_path, "notes/kept.md", "x")
    source = BundleSource(tmp_path)
    assert slugs(source) == ["notes/kept"]
    with pytest.raises(PageNotFound):
        source.get_page(".obsidian/workspace")


def test_slugs_are_in_code_point_order(tmp_path: Path) -> None:
    names = ["a", "B", "_x", "é", "Z/z", "a b", "a-b", "a/b", "10", "9"]
    for name in names:
        write(tmp_path, f"{name}.md", "x")
    assert slugs(BundleSource(tmp_path)) == sorted(names)
    assert slugs(BundleSource(tmp_path))[:3] == ["10", "9", "B"]


def test_unicode_and_spaces_in_paths(tmp_path: Path) -> None:
    write(tmp_path, "notes/Café menu.md", "---\ntags: food\n---\n# Menu du jour\nSee [[hub]].")
    source = BundleSource(tmp_path)
    assert slugs(source) == ["notes/Café menu"]
    page = source.get_page("notes/Café menu")
    assert (page.title, page.tags, page.content) == (
        "Menu du jour",
        ("food",),
        "# Menu du jour\nSee [[hub]].",
    )
    assert [link.target for link in scanned(source)["notes/Café menu"].links] == ["hub"]


def test_empty_folder_is_a_bundle_with_no_pages(tmp_path: Path) -> None:
    source = BundleSource(tmp_path)
    assert source.enumerate() == []
    assert list(source.scan([])) == []


def test_missing_folder_is_unreachable(tmp_path: Path) -> None:
    source = BundleSource(tmp_path / "nope")
    for call in (source.enumerate, lambda: source.get_page("a"), lambda: list(source.scan([]))):
        with pytest.raises(SourceUnavailable) as caught:
            call()
        assert "unreachable" in str(caught.value)
        assert "no such folder" in str(caught.value)
        assert "\n" not in str(caught.value)


def test_a_folder_we_may_not_list_is_unreachable(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # root ignores chmod
    with pytest.raises(SourceUnavailable, match="unreachable: permission denied"):
        BundleSource(tmp_path).enumerate()


def test_a_file_is_not_a_bundle(tmp_path: Path) -> None:
    file = write(tmp_path, "page.md", "x")
    with pytest.raises(SourceUnavailable, match="unreachable: not a folder"):
        BundleSource(file).enumerate()


def test_symlink_out_of_the_bundle_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, "secret.md", "secret [[x]]")
    root = tmp_path / "bundle"
    write(root, "ok.md", "fine")
    (root / "escape").symlink_to(outside, target_is_directory=True)
    (root / "leak.md").symlink_to(outside / "secret.md")
    (root / "up").symlink_to(tmp_path, target_is_directory=True)
    source = BundleSource(root)
    assert slugs(source) == ["ok"]
    for slug in ("escape/secret", "leak", "up/outside/secret"):
        with pytest.raises(PageNotFound):
            source.get_page(slug)


def test_symlinks_inside_the_bundle_are_followed_once(tmp_path: Path) -> None:
    write(tmp_path, "real/page.md", "# Real")
    write(tmp_path, "target.md", "# Target")
    (tmp_path / "alias.md").symlink_to(tmp_path / "target.md")
    (tmp_path / "a-link").symlink_to(tmp_path / "real", target_is_directory=True)
    source = BundleSource(tmp_path)
    # `a-link` sorts before `real`, yet the real path wins: each real folder once.
    assert slugs(source) == ["alias", "real/page", "target"]
    assert source.get_page("alias").title == "Target"


def test_symlink_loops_terminate(tmp_path: Path) -> None:
    write(tmp_path, "a/page.md", "x")
    (tmp_path / "a" / "loop").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / "self").symlink_to(tmp_path / "self-target", target_is_directory=True)
    (tmp_path / "self-target").symlink_to(tmp_path / "self", target_is_directory=True)
    (tmp_path / "dot").symlink_to(".", target_is_directory=True)
    assert slugs(BundleSource(tmp_path)) == ["a/page"]


def test_symlinked_folder_reached_only_through_links_is_listed(tmp_path: Path) -> None:
    write(tmp_path, ".store/kept.md", "x")  # hidden, but a visible link points inside
    (tmp_path / "shelf").symlink_to(tmp_path / ".store", target_is_directory=True)
    assert slugs(BundleSource(tmp_path)) == ["shelf/kept"]


def test_non_utf8_file_is_listed_unreadable_with_reason(tmp_path: Path) -> None:
    write(tmp_path, "bad.md", b"# Bad\n[[a]] caf\xe9 \xff")
    write(tmp_path, "a.md", "# A")
    source = BundleSource(tmp_path)
    assert slugs(source) == ["a", "bad"]
    page = scanned(source)["bad"]
    assert not page.info.readable
    assert page.info.error == "not valid UTF-8 (byte 0xe9 at offset 15)"
    assert page.info.error_kind == "undecodable"
    assert page.links == ()
    with pytest.raises(PageUnreadable, match="not valid UTF-8") as raised:
        source.get_page("bad")
    assert raised.value.kind == "undecodable"


def test_unreadable_file_is_listed_with_reason(tmp_path: Path, monkeypatch) -> None:
    write(tmp_path, "locked.md", "[[x]]")
    real_open = os.open

    def refusing_open(path, *args, **kwargs):
        if str(path).endswith("locked.md"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)  # we may run as root: chmod would not do
    page = scanned(BundleSource(tmp_path))["locked"]
    assert (page.info.readable, page.info.error, page.links) == (False, "permission denied", ())
    assert page.info.error_kind == "unreadable"


def test_malformed_yaml_keeps_the_page_with_an_error(tmp_path: Path) -> None:
    write(tmp_path, "p.md", "---\ntitle: [unclosed\ntype: note\n---\n# Heading\nSee [[other]].\n")
    page = BundleSource(tmp_path).get_page("p")
    assert page.readable and page.frontmatter == {} and page.error_kind == "malformed"
    assert page.error is not None and page.error.startswith("frontmatter ignored: invalid YAML")
    assert "\n" not in page.error
    assert page.content == "# Heading\nSee [[other]].\n"
    assert page.title == "Heading"
    scan = scanned(BundleSource(tmp_path))["p"]
    assert [link.target for link in scan.links] == ["other"]
    assert (scan.info.readable, scan.info.error_kind) == (True, "malformed")


@pytest.mark.parametrize(
    ("block", "said"),
    [
        # the slips of an agent-kept vault's titles (46 refused blocks, all of these)
        (
            "title: ADR-019 — price with VAT: storage vs column\ndate: 2026-05-24",
            "(mapping values are not allowed in this context at line 2); quote the value:"
            " YAML reads its ': ' as another key",
        ),
        (
            "date: 2026-08-07\ntitle: `git commit -- <path>` does not isolate you",
            "(found character that cannot start any token at line 3); quote the value:"
            " YAML cannot start one with `",
        ),
        (
            'title: "verify" in a UI promises a code',
            "(did not find expected key at line 2); quote the whole value: its quoted start"
            " is followed by more text",
        ),
        # a template's placeholder
        (
            "tags: [book]\ncreated: {{date}}",
            "(found unhashable key at line 3); quote the value: YAML reads a leading { as a"
            " mapping",
        ),
        # no usual slip: no advice
        ("title: [unclosed\ntype: note", "(did not find expected ',' or ']' at line 3)"),
    ],
)
def test_refused_yaml_says_how_to_mend_the_usual_slips(
    tmp_path: Path, block: str, said: str
) -> None:
    write(tmp_path, "p.md", f"---\n{block}\n---\nbody")
    page = BundleSource(tmp_path).get_page("p")
    assert page.frontmatter == {} and page.error == f"frontmatter ignored: invalid YAML {said}"


@pytest.mark.parametrize(
    ("block", "kind"), [("- a\n- b", "a list"), ("just words", "a str"), ("42", "a int")]
)
def test_frontmatter_that_is_not_a_mapping(tmp_path: Path, block: str, kind: str) -> None:
    write(tmp_path, "p.md", f"---\n{block}\n---\nbody")
    page = BundleSource(tmp_path).get_page("p")
    assert (page.frontmatter, page.content, page.readable) == ({}, "body", True)
    assert page.error == f"frontmatter ignored: it is {kind}, not a mapping"


def test_impossible_date_in_frontmatter_is_an_error_not_a_crash(tmp_path: Path) -> None:
    write(tmp_path, "p.md", "---\nupdated: 2024-13-45\n---\nbody")
    page = BundleSource(tmp_path).get_page("p")
    assert page.frontmatter == {} and "invalid YAML" in (page.error or "")


def test_frontmatter_fields(tmp_path: Path) -> None:
    write(
        tmp_path,
        "t/orders.md",
        "---\ntitle: Orders table\ntype: table\ntags: [sales, 'q:1']\n"
        "description: All orders.\nupdated: 2024-05-01\nextra: {a: 1}\n---\n# Ignored\n",
    )
    os.utime(tmp_path / "t/orders.md", ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    page = BundleSource(tmp_path).get_page("t/orders")
    assert (page.title, page.type, page.tags) == ("Orders table", "table", ("sales", "q:1"))
    assert (page.description, page.error) == ("All orders.", None)
    # frontmatter `updated` is shown, but `updated_at` is the file's own time
    assert str(page.frontmatter["updated"]) == "2024-05-01"
    assert page.updated_at == "2023-11-14T22:13:20.000000Z"
    assert page.frontmatter["extra"] == {"a": 1}
    assert page.info().description == "All orders."


def test_title_falls_back_to_heading_then_stem(tmp_path: Path) -> None:
    write(tmp_path, "h.md", "#  The heading  #\n```\n# not this\n```\nintro\n# second")
    write(tmp_path, "plain.md", "no heading, #not-a-heading\n## level two")
    write(tmp_path, "part.md", "intro\n# a part, after text\n")
    source = BundleSource(tmp_path)
    assert source.get_page("h").title == "The heading"
    assert source.get_page("plain").title == "plain"
    assert source.get_page("part").title == "part"


def test_tags_as_string_and_updated_at_from_mtime(tmp_path: Path) -> None:
    path = write(tmp_path, "p.md", "---\ntags: a, b ,c\n---\n")
    os.utime(path, ns=(1_700_000_000_123_456_789, 1_700_000_000_123_456_789))
    source = BundleSource(tmp_path)
    page = source.get_page("p")
    assert page.tags == ("a", "b", "c")
    assert page.updated_at == "2023-11-14T22:13:20.123456Z"  # microseconds, truncated
    info = path.stat()
    assert page.fingerprint == f"1700000000123456789:{info.st_size}:{info.st_ctime_ns}"
    assert source.enumerate() == [PageStub("p", page.fingerprint)]


def test_updated_at_follows_edits_not_frontmatter_in_get_and_scan(tmp_path: Path) -> None:
    path = write(tmp_path, "p.md", "---\nupdated: 2024-01-02\ntags: [x]\n---\nold")
    os.utime(path, ns=(1_700_000_000_000_001_000, 1_700_000_000_000_001_000))
    source = BundleSource(tmp_path)
    before = source.get_page("p").updated_at
    scanned = [s.info for s in source.scan(source.enumerate())]
    assert before == scanned[0].updated_at == "2023-11-14T22:13:20.000001Z"
    path.write_text("---\nupdated: 2024-01-02\ntags: [x]\n---\nnew", encoding="utf-8")
    os.utime(path, ns=(1_700_000_000_000_002_000, 1_700_000_000_000_002_000))
    after = source.get_page("p").updated_at
    assert after == "2023-11-14T22:13:20.000002Z" and after > before


def test_unclosed_frontmatter_is_body(tmp_path: Path) -> None:
    write(tmp_path, "p.md", "---\ntitle: x\nno closing line")
    page = BundleSource(tmp_path).get_page("p")
    assert (page.frontmatter, page.content, page.error) == (
        {},
        "---\ntitle: x\nno closing line",
        None,
    )


def test_bom_and_crlf(tmp_path: Path) -> None:
    write(tmp_path, "p.md", "\ufeff---\r\ntitle: Win\r\n---\r\nbody [[x]]\r\n".encode())
    page = BundleSource(tmp_path).get_page("p")
    assert (page.title, page.content) == ("Win", "body [[x]]\r\n")


def test_ten_megabyte_page(tmp_path: Path) -> None:
    filler = ("lorem ipsum dolor sit amet " * 40 + "\n") * 9_300
    write(tmp_path, "huge.md", "# Huge\n[[first]]\n" + filler + "[[last]]\n")
    source = BundleSource(tmp_path)
    assert (tmp_path / "huge.md").stat().st_size > 10_000_000
    page = source.get_page("huge")
    assert page.title == "Huge" and len(page.content) > 10_000_000
    assert [link.target for link in scanned(source)["huge"].links] == ["first", "last"]


@pytest.mark.parametrize(
    "slug",
    [
        "../secret",
        "/secret",
        "notes/../../secret",
        "..",
        "notes/..",
        "a\\..\\secret",
        "a\x00b",
        "",
        ".git/config",
        "notes//x",
        "./notes/x",
        "notes/x/",
        "notes/.x",
    ],
)
def test_hostile_slugs_never_leave_the_bundle(tmp_path: Path, slug: str) -> None:
    write(tmp_path, "secret.md", "outside")
    root = tmp_path / "bundle"
    write(root, "notes/x.md", "inside")
    write(root, ".git/config.md", "hidden")
    with pytest.raises(PageNotFound):
        BundleSource(root).get_page(slug)


def test_unknown_slug_is_not_found(tmp_path: Path) -> None:
    write(tmp_path, "folder/a.md", "x")
    source = BundleSource(tmp_path)
    for slug in ("nope", "folder", "folder/a.md"):
        with pytest.raises(PageNotFound, match="no page"):
            source.get_page(slug)


def test_a_fifo_named_like_a_page_does_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.md")
    write(tmp_path, "ok.md", "x")
    source = BundleSource(tmp_path)
    assert slugs(source) == ["ok"]
    with pytest.raises(PageNotFound):
        source.get_page("pipe")


def test_scan_reports_a_vanished_file_as_unreadable(tmp_path: Path) -> None:
    write(tmp_path, "gone.md", "x")
    source = BundleSource(tmp_path)
    stubs = source.enumerate()
    (tmp_path / "gone.md").unlink()
    (page,) = source.scan(stubs)
    assert (page.info.readable, page.info.error) == (False, "the file no longer exists")
    assert page.info.error_kind == "missing"


def _bundle_of(root: Path, n: int) -> BundleSource:
    for i in range(n):
        write(
            root,
            f"f{i % 3}/p{i:03d}.md",
            f"---\ntitle: P {i}\n---\n[[p{(i + 1) % n:03d}]] [x](/y.md)",
        )
    write(root, "bad.md", b"\xff")
    return BundleSource(root)


def test_parallel_scan_equals_sequential_scan(tmp_path: Path, monkeypatch) -> None:
    source = _bundle_of(tmp_path, 40)
    stubs = source.enumerate()
    sequential = sorted(source.scan(stubs), key=lambda page: page.info.slug)
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 10)
    monkeypatch.setattr(parallel, "CHUNK_SIZE", 7)
    calls: list[tuple[int, int]] = []
    in_pool = sorted(
        source.scan(stubs, progress=lambda d, t: calls.append((d, t))),
        key=lambda page: page.info.slug,
    )
    assert in_pool == sequential and len(in_pool) == 41
    assert calls[-1] == (41, 41) and len(calls) == 6
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def _die_in_worker(root: str, chunk: object) -> list:
    os._exit(3)  # a worker killed mid-scan (the OOM killer, say)


def test_dead_workers_fall_back_to_scanning_in_process(tmp_path: Path, monkeypatch) -> None:
    source = _bundle_of(tmp_path, 30)
    stubs = source.enumerate()
    sequential = sorted(source.scan(stubs), key=lambda page: page.info.slug)
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 10)
    monkeypatch.setattr(parallel, "_worker_chunk", _die_in_worker)
    calls: list[tuple[int, int]] = []
    rescued = list(source.scan(stubs, progress=lambda d, t: calls.append((d, t))))
    assert sorted(rescued, key=lambda page: page.info.slug) == sequential
    assert calls[-1] == (31, 31)


def test_parallel_scan_from_a_worker_thread(tmp_path: Path, monkeypatch) -> None:
    """The TUI scans from a thread: workers then start by forkserver, not fork."""
    source = _bundle_of(tmp_path, 25)
    stubs = source.enumerate()
    sequential = sorted(source.scan(stubs), key=lambda page: page.info.slug)
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 10)
    monkeypatch.setattr(parallel, "_context", _spy(parallel._context))
    results: list = []
    worker = threading.Thread(target=lambda: results.extend(source.scan(stubs)))
    worker.start()
    worker.join(timeout=60)
    assert sorted(results, key=lambda page: page.info.slug) == sequential
    assert _spy.methods == ["forkserver"]


def _spy(make_context):
    _spy.methods = []

    def spying():
        context = make_context()
        _spy.methods.append(context.get_start_method())
        return context

    return spying


@pytest.mark.parametrize("threshold", [10, 10_000])
def test_scan_can_be_cancelled(tmp_path: Path, monkeypatch, threshold: int) -> None:
    source = _bundle_of(tmp_path, 30)
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", threshold)
    monkeypatch.setattr(parallel, "CHUNK_SIZE", 5)
    seen: list[int] = []
    with pytest.raises(Cancelled):
        for page in source.scan(
            source.enumerate(), progress=lambda d, t: seen.append(d), cancel=lambda: len(seen) >= 1
        ):
            assert page.info.slug
    assert seen and seen[-1] < 31


def test_split_frontmatter_reads_block_lists_dates_and_yaml_booleans() -> None:
    text = "---\ntitle: A\ntags:\n  - x\n  - y\nupdated: 2024-01-02\n---\nbody"
    data, body, error = split_frontmatter(text)
    assert (data["title"], data["tags"], str(data["updated"]), body, error) == (
        "A",
        ["x", "y"],
        "2024-01-02",
        "body",
        None,
    )
    assert split_frontmatter("---\non: yes\n---\n")[0] == {True: True}


def test_fast_scan_rows_equal_the_general_path(tmp_path: Path) -> None:
    """`parallel.page_row` (O_NOFOLLOW open, no `Page`) gives exactly `pagefile.page_row`."""
    from okf_explorer.sources.folder import pagefile

    outside = tmp_path / "outside"
    write(outside, "secret.md", "[[secret]]")
    root = tmp_path / "b"
    pages = {
        "plain.md": "# Plain\n[[a]] [b](b.md) `[[code]]`",
        "fm.md": "---\ntitle: T\ntype: note\ntags: [x, y]\nupdated: 2024-01-02\n---\n[[a]]",
        "fm-desc.md": "---\ndescription: 3\ntags: '#a, b'\n---\n# H\n[[a|x]]",
        "fm-bad.md": "---\ntitle: [unclosed\n---\n# After\n[[a]]",
        "fm-list.md": "---\n- a\n---\nbody [[a]]",
        "fm-open.md": "---\ntitle: never closed\n[[a]]",
        "okf.md": "---\nstatus: draft\nverified: {by: 'human:a', at: 2026-01-01T00:00:00Z}\n"
        "stale_after: 2026-02-01T00:00:00Z\n---\n[[a]]",
        "crlf.md": "\ufeff---\r\ntitle: Crlf\r\n---\r\n[[a]]\r\n",
        "empty.md": "",
        "index.md": "# Index\n[[plain]]",
        "deep/Sp ace é.md": "[[../plain]] [x](../fm.md)",
        "bad.md": b"[[a]] \xff",
        "real/target.md": "# Target\n[[plain]]",
    }
    for rel, text in pages.items():
        write(root, rel, text)
    (root / "alias.md").symlink_to(root / "real" / "target.md")
    (root / "linked").symlink_to(root / "real", target_is_directory=True)
    (root / "leak.md").symlink_to(outside / "secret.md")
    (root / "escape").symlink_to(outside, target_is_directory=True)
    os.mkfifo(root / "pipe.md")
    real = os.path.realpath(root)
    slugs = [rel[:-3] for rel in pages] + [
        "alias", "linked/target", "leak", "escape/secret", "pipe", "gone", "../x", "a//b", ".h"
    ]  # fmt: skip
    fast_dirs: dict[str, bool] = {}
    for slug in slugs:
        expected = pagefile.page_row(real, slug, "1:2", {})
        assert parallel.page_row(real, slug, "1:2", fast_dirs) == expected, slug
    assert fast_dirs["\x00"] and fast_dirs["\x00deep"]  # the fast path ran
    assert fast_dirs["\x00escape"] is False  # and refused the folder that leaves the bundle
    parts_dirs: dict[str, bool] = {}  # the text index's reads: frontmatter and body
    for slug in slugs:
        assert parallel.page_parts(real, slug, parts_dirs) == pagefile.read_parts(real, slug), slug
    assert parts_dirs["\x00"] and parts_dirs["\x00escape"] is False
    assert parallel.page_parts(real, "fm", {}) == (
        "title: T\ntype: note\ntags: [x, y]\nupdated: 2024-01-02\n",
        "[[a]]",
    )


def test_a_read_error_on_the_fast_path_falls_back_to_the_general_path(
    tmp_path: Path, monkeypatch
) -> None:
    from okf_explorer.sources.folder import pagefile

    write(tmp_path, "p.md", "# P\n[[q]]")
    real = os.path.realpath(tmp_path)

    def failing_read(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(parallel, "_read_regular", failing_read)
    row = parallel.page_row(real, "p", "1:2", {})
    assert row == pagefile.page_row(real, "p", "1:2", {})
    assert ScannedPage.from_row(row).links == (RawLink("q", "wiki"),)


def _length(slug: str, body: str, frontmatter: str) -> tuple[str, int, int]:
    return slug, len(body), len(frontmatter)


@pytest.mark.parametrize("in_thread", [False, True])
def test_bodies_made_in_worker_processes_equal_those_made_here(
    tmp_path: Path, monkeypatch, in_thread: bool
) -> None:
    """`map_bodies` in a pool (forked, or by forkserver from a thread as the TUI asks) gives
    what it gives in-process: each readable page once, the unreadable one left out."""
    source = _bundle_of(tmp_path, 30)
    slugs = [stub.slug for stub in source.enumerate()]
    here = sorted(source.map_bodies(slugs, _length))
    assert len(here) == 30 and "bad" not in {slug for slug, _ in here}
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 10)
    monkeypatch.setattr(parallel, "_context", _spy(parallel._context))
    made: list = []
    if in_thread:
        worker = threading.Thread(target=lambda: made.extend(source.map_bodies(slugs, _length)))
        worker.start()
        worker.join(timeout=60)
    else:
        made = list(source.map_bodies(slugs, _length))
    assert sorted(made) == here
    assert _spy.methods == ["forkserver" if in_thread else "fork"]


def test_bodies_are_made_here_when_the_workers_die(tmp_path: Path, monkeypatch) -> None:
    source = _bundle_of(tmp_path, 30)
    slugs = [stub.slug for stub in source.enumerate()]
    here = sorted(source.map_bodies(slugs, _length))
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 10)
    monkeypatch.setattr(parallel, "_worker_chunk", _die_in_worker)
    assert sorted(source.map_bodies(slugs, _length)) == here
