"""Links resolved in the scan workers (`core.index.build.LinkPass`) give the index the
main process alone gives: every edge, rule, candidate list, typed relation, count,
the walk tables and the ambiguity count, serially, in the worker pool, and for
random corpora (ambiguous names, reference definitions, titles, aliases, typed
frontmatter, dangling names, relative paths)."""

from __future__ import annotations

import pickle
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.index import build as link_pass
from okf_explorer.core.index.build import LinkPass, PageLinks, build_index
from okf_explorer.core.index.model import LinkIndex
from okf_explorer.core.links.resolution import NamesNeeded, SlugResolver
from okf_explorer.core.pages import PageInfo
from okf_explorer.core.port import Folder
from okf_explorer.sources.folder import scan as parallel
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_file

pytestmark = pytest.mark.plain

VARIED = {
    "index.md": "---\ntitle: Home\naliases: [Start]\n---\nSee [[x]], [[Guide]], [[Start]], "
    "[[lint]], [[ghost]], [[a/deep/x]], [[X]] and [b](b/x.md).\n\n[lint]: tools/cli/lint.md\n",
    "a/deep/x.md": "# Deep\n[[x]] [[../y]] [[Second Name]] [up](../../index.md) [[sibling]]\n",
    "b/x.md": "---\ntitle: Guide\n---\n[[x]] [[deep/x]] ![[x]] [[Home]] [[nowhere]]\n",
    "b/sibling.md": "[[x]] [[Guide]] [[Start]] [[Third]]\n",
    "a/sibling.md": "---\naliases:\n  - Second Name\n  - Third\n---\n[[x]] [[sibling]]\n",
    "tools/cli/lint.md": "---\ntitle: Lint\nrelated: [Guide, Nobody]\nsee_also: b/x\n---\n",
    "tools/workspace-lint.md": "# Lint\n[[lint]] [lint](cli/lint.md) [[tools/cli/lint]]\n",
    "people/pedro.md": "---\ntype: person\ncompany: Acme Corp\n---\n[[acme]]\n",
    "companies/acme-corp.md": "---\ntype: company\nkey_people: [Pedro]\ntitle: Acme\n---\n",
    "okf/table.md": "---\nsources:\n  - resource: ../b/x.md\nresource: tools/\n---\n[[Acme]]\n",
}


def write_corpus(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        write_file(root, rel, text)
    return root


class ScanOnly:
    """A bundle seen as a plain `PageSource` (no `Folder`, so no `scan_resolving`): the
    main process resolves every link."""

    def __init__(self, root: Path) -> None:
        self.inner = BundleSource(root)
        self.cache_key = self.inner.cache_key
        self.label = self.inner.label

    def enumerate(self) -> list:
        return self.inner.enumerate()

    def get_page(self, slug: str) -> Any:
        return self.inner.get_page(slug)

    def scan(self, stubs: Sequence, progress: Any = None, cancel: Any = None) -> Iterator:
        return self.inner.scan(stubs, progress, cancel)

    def server_graph(self) -> None:
        return None

    def close(self) -> None:
        self.inner.close()


def assert_same(left: LinkIndex, right: LinkIndex) -> None:
    assert left.pages == right.pages
    assert dict(left.forward) == dict(right.forward)
    assert dict(left.raw_links) == dict(right.raw_links)
    assert (left.reverse, left.targets) == (right.reverse, right.targets)
    assert (left.out_rels, left.in_rels) == (right.out_rels, right.in_rels)
    assert (left.ambiguous, left.signature) == (right.ambiguous, right.signature)


def test_the_main_process_baseline_really_skips_the_workers(tmp_path: Path) -> None:
    root = write_corpus(tmp_path, VARIED)
    assert isinstance(BundleSource(root), Folder)
    assert not isinstance(ScanOnly(root), Folder)


@pytest.mark.parametrize("pool", [False, True])
def test_worker_resolution_equals_main_process_resolution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pool: bool
) -> None:
    root = write_corpus(tmp_path, VARIED)
    finished: list[str] = []
    real_finish = PageLinks.finish

    def spy(self: PageLinks, slug: str, raw: Any, early: Any) -> list:
        finished.append(slug)
        return real_finish(self, slug, raw, early)

    monkeypatch.setattr(link_pass.PageLinks, "finish", spy)
    baseline = build_index(ScanOnly(root), cache=False)
    assert not finished
    if pool:
        monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 2)
        monkeypatch.setattr(parallel, "CHUNK_SIZE", 3)
    early = build_index(BundleSource(root), cache=False)
    assert_same(early, baseline)
    # the fixture exercises what the workers must leave to the main process, and more
    rules = {link.rule for links in baseline.forward.values() for link in links}
    assert {"alias", "title", "dangling", "refdef", "path", "basename"} <= rules
    assert baseline.ambiguous and baseline.out_rels and baseline.in_rels
    assert "index" in finished and "a/deep/x" in finished  # titles and aliases: finished here
    assert "tools/workspace-lint" not in finished  # settled in the workers


def test_a_refresh_that_adds_a_titled_page_re_resolves_alike(tmp_path: Path) -> None:
    root = write_corpus(tmp_path, VARIED)
    first = build_index(BundleSource(root), cache=False)
    write_file(root, "c/new.md", "---\ntitle: Nowhere\n---\n[[ghost]] [[x]]\n")
    again = build_index(BundleSource(root), previous=first, cache=False)
    assert_same(again, build_index(ScanOnly(root), cache=False))
    assert again.forward["b/x"][-1].to == "c/new"  # `[[nowhere]]` now names its title


def test_a_link_pass_travels_as_its_slugs() -> None:
    shipped = LinkPass(["a/x", "b/x", "c"])
    assert shipped(["c"][0], (("x", "wiki", 1, None, "links", False, False),)) == (
        True,
        [("x", "a/x", "wiki", "basename", 1, True, ("a/x", "b/x"), "links", False)],
    )
    copy = pickle.loads(pickle.dumps(shipped))
    assert copy.__getstate__() == (["a/x", "b/x", "c"], False)  # and no Foam folder names
    assert copy("b/y", (("x", "wiki", 2, None, "links", False, False),))[1][0][1] == "b/x"
    complete, found = copy(
        "c",
        (
            ("c", "wiki", 1, None, "links", False, False),
            ("T", "wiki", 1, None, "links", False, False),
        ),
    )
    assert not complete and found == [("c", "exact", ()), "T"]


def test_a_slugs_only_resolver_answers_as_the_full_one_or_asks_for_names() -> None:
    slugs = ["docs/Guide", "b/guide", "notes/x", "index"]
    full = SlugResolver(slugs, {"notes/x": "Title"}, {"index": ["Home"]})
    partial = SlugResolver.slugs_only(slugs)
    for name in ["guide", "Guide", "docs/guide", "x", "notes/x", "/index", "x.md"]:
        assert partial.resolve(name, "b/y") == full.resolve(name, "b/y")
    for name in ["Title", "Home", "nothing at all"]:
        with pytest.raises(NamesNeeded):
            partial.resolve(name, "b/y")
    pages = [
        PageInfo("notes/x", "Title", title_stated=True),
        PageInfo("index", "index", aliases=("Home",)),
    ]
    pages += [PageInfo(slug, slug) for slug in slugs[:2]]
    completed = partial.with_names(pages)
    for name in ["guide", "Title", "Home", "nothing at all", "x"]:
        assert completed.resolve(name, "b/y") == full.resolve(name, "b/y")
    assert partial.resolve("../../up", "a/b", "markdown") == full.resolve(
        "../../up", "a/b", "markdown"
    )


NAMES = ["x", "X", "y", "Guide", "Start", "deep/x", "a/deep/x", "../x", "./y", "ghost", "x.md",
         "tools/", "Second Name", "sibling", "Acme Corp", "lint", "/index", "b/"]  # fmt: skip
FILES = ["index", "x", "a/x", "b/x", "a/deep/x", "b/y", "a/sibling", "b/sibling", "tools/index",
         "companies/acme-corp", "people/pedro", "b/X"]  # fmt: skip


@st.composite
def corpora(draw: st.DrawFn) -> dict[str, str]:
    files = draw(st.lists(st.sampled_from(FILES), min_size=1, max_size=8, unique=True))
    corpus = {}
    for slug in files:
        lines = ["---"]
        if draw(st.booleans()):
            lines.append(f"title: {draw(st.sampled_from([*NAMES[3:6], 'Lint', 'Other']))}")
        if draw(st.booleans()):
            lines.append(f"aliases: [{draw(st.sampled_from(['Start', 'Second Name', 'x']))}]")
        if draw(st.booleans()):
            lines.append(f"related: [{draw(st.sampled_from(NAMES[:6]))}]")
        if slug.startswith("people/"):
            lines += ["type: person", f"company: {draw(st.sampled_from(['Acme Corp', 'Nope']))}"]
        lines.append("---")
        links = draw(st.lists(st.sampled_from(NAMES), max_size=6))
        body = " ".join(
            f"[t]({name}.md)" if draw(st.booleans()) and not name.endswith("/") else f"[[{name}]]"
            for name in links
        )
        if draw(st.booleans()):
            body += f"\n\n[{draw(st.sampled_from(NAMES[:4]))}]: {draw(st.sampled_from(FILES))}.md\n"
        corpus[f"{slug}.md"] = "\n".join(lines) + "\n" + body + "\n"
    return corpus


@settings(max_examples=60, deadline=None)
@given(corpora())
def test_random_corpora_resolve_alike_in_workers_and_main(files: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = write_corpus(Path(folder), files)
        assert_same(
            build_index(BundleSource(root), cache=False), build_index(ScanOnly(root), cache=False)
        )


def test_workers_started_by_forkserver_resolve_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The TUI builds from a thread: its workers get the `LinkPass` pickled (its slugs)."""
    root = write_corpus(tmp_path, VARIED)
    baseline = build_index(ScanOnly(root), cache=False)
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 2)
    monkeypatch.setattr(parallel, "CHUNK_SIZE", 4)
    methods: list[str] = []
    make_context = parallel._context

    def spying() -> Any:
        context = make_context()
        methods.append(context.get_start_method())
        return context

    monkeypatch.setattr(parallel, "_context", spying)
    built: list[LinkIndex] = []
    worker = threading.Thread(
        target=lambda: built.append(build_index(BundleSource(root), cache=False))
    )
    worker.start()
    worker.join(timeout=120)
    assert methods == ["forkserver"]
    assert_same(built[0], baseline)
