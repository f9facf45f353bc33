"""The MCP source against our real server (`okf-explorer serve` on loopback): listing,
bodies, and graph walks that must equal the same folder read directly."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import random
import secrets
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import AuthError, PageNotFound, PageUnreadable, SourceUnavailable
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.pages import Page
from okf_explorer.sources.factory import SAMPLE_BRAIN
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.gbrain.source import McpSource
from tests.bundles import write_pages
from tests.mcp_server_fixture import ServerHandle, serve_bundle

pytestmark = pytest.mark.plain

DIRECTIONS = ("out", "in", "both")
GEN_BUNDLE = Path(__file__).resolve().parent / "bench" / "gen_bundle.py"


def generate_bundle(root: Path, pages: int) -> None:
    """The shared deterministic benchmark generator (every SPEC §3 link form, dangling
    targets, a hub), so the walk comparisons cover more than the sample brain."""
    spec = importlib.util.spec_from_file_location("gen_bundle", GEN_BUNDLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.generate(root, pages, seed=7)
    # A server's title is the only title a client sees (gbrain does not say whether
    # it came from frontmatter or a heading), so over MCP every title resolves links
    # (SPEC §3 `title`); in a folder only a frontmatter title does. State each
    # page's heading as its title, so the two sources hold the same corpus.
    for path in root.rglob("*.md"):
        text = path.read_text(encoding="utf-8")
        if not text.startswith("---\n") and text.startswith("# "):
            heading = text.split("\n", 1)[0][2:]
            path.write_text(f"---\ntitle: '{heading}'\n---\n{text}", encoding="utf-8")


@pytest.fixture(scope="module")
def server_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Servers started by module fixtures get their own cache dir, not the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OKF_EXPLORER_CACHE", str(tmp_path_factory.mktemp("server-cache")))
        yield


@pytest.fixture(scope="module")
def sample_server(server_env: None) -> Iterator[ServerHandle]:
    with serve_bundle(SAMPLE_BRAIN) as server:
        yield server


@pytest.fixture(scope="module")
def big_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bundle-320")
    generate_bundle(root, 320)
    return root


@pytest.fixture(scope="module")
def big_server(server_env: None, big_bundle: Path) -> Iterator[ServerHandle]:
    with serve_bundle(big_bundle) as server:
        yield server


def mcp(url: str, **options: object) -> McpSource:
    options.setdefault("token", None)
    options.setdefault("token_source", "no token")
    return McpSource(url, **options)  # type: ignore[arg-type]


def walks(brain: Brain, slugs: list[str]) -> dict[tuple[str, int, str], list[Edge]]:
    return {
        (slug, depth, direction): brain.traverse(slug, depth, direction)
        for slug in slugs
        for depth in (1, 2, 3)
        for direction in DIRECTIONS
    }


def test_enumerate_lists_every_page_beyond_100_in_slug_order(
    big_server: ServerHandle, big_bundle: Path
) -> None:
    expected = [stub.slug for stub in BundleSource(big_bundle).enumerate()]
    assert len(expected) > 300
    stubs = mcp(big_server.url).enumerate()
    assert [stub.slug for stub in stubs] == expected
    assert all(stub.fingerprint and stub.info and stub.info.title for stub in stubs)


@pytest.mark.parametrize("which", ["sample", "generated"])
def test_get_page_equals_the_folder(
    which: str, request: pytest.FixtureRequest, big_bundle: Path
) -> None:
    server: ServerHandle = request.getfixturevalue(
        f"{'sample' if which == 'sample' else 'big'}_server"
    )
    folder = BundleSource(SAMPLE_BRAIN if which == "sample" else big_bundle)
    source = mcp(server.url)
    slugs = [stub.slug for stub in folder.enumerate()]
    if which == "generated":
        slugs = random.Random(3).sample(slugs, 40)
    batched = source.get_pages(slugs)  # one JSON-RPC batch per call, as scans do
    for slug, got in zip(slugs, batched, strict=True):
        want = folder.get_page(slug)
        assert isinstance(got, Page), slug
        if slug in slugs[:3]:
            assert source.get_page(slug) == got
        # The server re-serialises the frontmatter and puts one blank line after it
        # (as gbrain does), so blank lines at the very start of a body are not kept.
        assert got.content == want.content.lstrip("\r\n"), slug
        assert (got.slug, got.title, got.type, got.tags) == (
            want.slug,
            want.title,
            want.type,
            want.tags,
        )


def test_scanned_walks_equal_the_folder_on_the_sample_brain(sample_server: ServerHandle) -> None:
    folder = Brain(BundleSource(SAMPLE_BRAIN))
    remote = Brain(mcp(sample_server.url), scan=True)
    slugs = [info.slug for info in folder.pages()]
    assert walks(remote, slugs) == walks(folder, slugs)
    assert remote.answered_by == "index"


def test_scanned_walks_equal_the_folder_on_a_generated_bundle(
    big_server: ServerHandle, big_bundle: Path
) -> None:
    folder = Brain(BundleSource(big_bundle))
    remote = Brain(mcp(big_server.url), scan=True)
    slugs = [*random.Random(5).sample([info.slug for info in folder.pages()], 12), "hub"]
    assert walks(remote, slugs) == walks(folder, slugs)


def without_dangling(edges: list[Edge], pages: set[str]) -> list[Edge]:
    return [edge for edge in edges if edge[0] in pages and edge[1] in pages]


def test_fast_path_equals_the_folder_without_dangling_targets(
    sample_server: ServerHandle,
) -> None:
    """The server's `get_links`/`get_backlinks` hold only existing pages (gbrain never
    stores a link whose target is missing), so the fast path shows the folder's walk
    minus its dangling targets; `--scan` shows what the pages say."""
    folder = Brain(BundleSource(SAMPLE_BRAIN))
    remote = Brain(mcp(sample_server.url))
    pages = {info.slug for info in folder.pages()}
    assert remote.answered_by == "server"
    some = sorted(pages)[::3]
    folder_walks = walks(folder, some)
    expected = {key: without_dangling(edges, pages) for key, edges in folder_walks.items()}
    assert walks(remote, some) == expected
    assert expected != folder_walks, "the sample must contain dangling targets"


def run_cli(*argv: str) -> tuple[int, str, str]:
    from okf_explorer.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("slug", "depth", "direction"),
    [
        ("tables/orders", 2, "both"),
        ("pipelines/orders_daily", 3, "out"),
        ("tables/customers", 1, "in"),
    ],
)
def test_cli_links_over_mcp_equal_the_folder(
    sample_server: ServerHandle, slug: str, depth: int, direction: str
) -> None:
    common = ["links", slug, "--depth", str(depth), "--direction", direction, "--json"]
    status, folder_out, _ = run_cli(*common, "--source", str(SAMPLE_BRAIN))
    assert status == 0
    status, scanned_out, err = run_cli(*common, "--source", sample_server.url, "--scan")
    assert status == 0, err
    assert json.loads(scanned_out) == json.loads(folder_out)
    status, fast_out, _ = run_cli(*common, "--source", sample_server.url)
    pages = {stub.slug for stub in BundleSource(SAMPLE_BRAIN).enumerate()}
    expected = [r for r in json.loads(folder_out) if r["from"] in pages and r["to"] in pages]
    assert (status, json.loads(fast_out)) == (0, expected)


@pytest.mark.slow
def test_token_protected_server_then_stopped_mid_scan(tmp_path: Path, server_env: None) -> None:
    """Right token works, a wrong or missing one is an `AuthError` naming where the token
    came from; then the server goes away mid-scan: `SourceUnavailable`, never a hang."""
    for i in range(60):
        (tmp_path / f"p{i:02d}.md").write_text(f"# P{i}\nsee [[p{(i + 1) % 60:02d}]]\n")
    token = "gbrain_" + secrets.token_hex(32)
    with serve_bundle(tmp_path, token=token) as server:
        good = mcp(server.url, token=token, token_source="$GBRAIN_TOKEN", timeout=3.0)
        stubs = good.enumerate()
        assert [stub.slug for stub in stubs] == [f"p{i:02d}" for i in range(60)]
        assert good.get_page("p00").content == "# P0\nsee [[p01]]\n"
        for wrong, where in (("gbrain_" + "0" * 64, "--token-file /x/tok"), (None, "no token")):
            source = mcp(server.url, token=wrong, token_source=where)
            with pytest.raises(AuthError) as caught:
                source.enumerate()
            message = str(caught.value)
            assert token not in message and (wrong or token) not in message
            assert where in message if wrong else "requires a token" in message
            assert token not in repr(source) and token not in repr(good)

        def stop_after_five(done: int, total: int) -> None:
            if done == 5:
                server.stop()

        with pytest.raises(SourceUnavailable, match="unreachable"):
            # One batch in flight at a time, so pages remain to fetch after the stop.
            scanner = mcp(server.url, token=token, token_source="x", timeout=3.0, concurrency=1)
            list(scanner.scan(stubs, progress=stop_after_five))
        with pytest.raises(SourceUnavailable, match="unreachable"):
            good.get_page("p00")
        again = mcp(server.url, token=token, token_source="$GBRAIN_TOKEN", timeout=3.0)
        with pytest.raises(SourceUnavailable, match="unreachable"):
            Brain(again, scan=True).traverse("p00", 2, "out")


# -- QA findings: tags, unreadable pages, fuzzy names, paging over the wire ---------------


def test_tag_filter_over_mcp_equals_the_folder(sample_server: ServerHandle) -> None:
    """gbrain's listing rows carry no tags: `--tag` asks the server's own filter."""
    status, folder_out, _ = run_cli("list", "--tag", "orders", "--source", str(SAMPLE_BRAIN))
    assert status == 0 and len(folder_out.splitlines()) >= 2
    for extra in ([], ["--scan"]):
        status, remote_out, err = run_cli(
            "list", "--tag", "orders", "--source", sample_server.url, *extra
        )
        assert (status, remote_out) == (0, folder_out), err
    status, out, _ = run_cli("list", "--tag", "no-such-tag", "--source", sample_server.url)
    assert (status, out) == (0, "")


def test_listing_tags_are_unknown_until_the_index_knows_them(sample_server: ServerHandle) -> None:
    folder = Brain(BundleSource(SAMPLE_BRAIN), cache_dir=False)
    remote = Brain(mcp(sample_server.url), cache_dir=False)
    try:
        expected = {info.slug: info.tags for info in folder.pages()}
        listed = remote.pages()
        assert remote.index is None  # the listing answered, with no body scan
        assert [info.slug for info in listed] == list(expected)
        assert not any(info.tags_known or info.tags for info in listed)  # unknown, not "none"
        tagged = remote.pages(type="table", tag="orders")
        assert [info.slug for info in tagged] == [
            info.slug for info in folder.pages(type="table", tag="orders")
        ]
        remote.ensure_index()
        indexed = remote.pages()
        assert all(info.tags_known for info in indexed if info.readable)
        assert {info.slug: info.tags for info in indexed} == expected
    finally:
        folder.close()
        remote.close()


def test_unreadable_page_ambiguous_name_and_paging_over_http(
    tmp_path: Path, server_env: None
) -> None:
    pages = {slug: f"# {slug} page\n" for slug in ("glossary/orders", "tables/orders")}
    write_pages(tmp_path, {**pages, "latin1": b"caf\xe9\n"})
    for number, path in enumerate(sorted(tmp_path.rglob("*.md"))):  # µs apart, no ties
        os.utime(path, ns=(1_700_000_000_000_000_000 + number * 1000,) * 2)
    with serve_bundle(tmp_path) as server:
        source = mcp(server.url)
        try:
            with pytest.raises(PageUnreadable) as caught:
                source.get_page("latin1")
            assert str(caught.value).count("unreadable") == 1
            assert str(caught.value).startswith("page 'latin1' is unreadable: not valid UTF-8")
            status, out, err = run_cli("get", "latin1", "--source", server.url)
            assert status != 0 and out == "" and err.count("unreadable") == 1, err
            with pytest.raises(PageNotFound) as ambiguous:
                source.call_tool("get_page", {"slug": "orders", "fuzzy": True})
            assert "candidates: glossary/orders, tables/orders" in str(ambiguous.value)
            seen: list[str] = []
            args: dict[str, object] = {"sort": "updated_asc", "limit": 1}
            while rows := source.call_tool("list_pages", args):
                seen += [row["slug"] for row in rows]
                args["updated_after"] = rows[-1]["updated_at"]
            assert sorted(seen) == ["glossary/orders", "latin1", "tables/orders"]
        finally:
            source.close()
