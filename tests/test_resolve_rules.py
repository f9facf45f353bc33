"""SPEC §3 resolution on small real folders: every rule, every tie-break, and the
real-world cases that went wrong (Foam's reference definitions, Obsidian's
same-named notes in sibling folders, a title equal to another page's file name).

Each case is a bundle on disk read through the index, so the rule seen is the
one an edge records (`ResolvedLink.rule`), not only what the resolver says alone.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.index.build import LinkPass
from okf_explorer.core.index.model import ResolvedLink
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_bundle as write


def link_of(tmp_path: Path, files: dict[str, str], frm: str, target: str) -> ResolvedLink:
    """The edge page `frm` records for the link written `target`."""
    brain = Brain(BundleSource(write(tmp_path / "brain", files)), cache_dir=False)
    try:
        links = [link for link in brain.forward_links(frm) if link.target == target]
    finally:
        brain.close()
    assert len(links) == 1, f"no single link {target!r} on {frm}"
    return links[0]


def outcome(link: ResolvedLink) -> tuple[str, str, tuple[str, ...]]:
    return link.to, link.rule, link.candidates


# --- one case per rule: the rule wins over every later rule ---------------------------

RULE_CASES = [
    pytest.param(
        {"a/p.md": "[x](/b/q.md)", "b/q.md": "", "a/b/q.md": ""},
        "a/p",
        "/b/q.md",
        ("b/q", "path", ()),
        id="path-root",
    ),
    pytest.param(
        {"a/p.md": "[x](b/q.md)", "b/q.md": "", "a/b/q.md": ""},
        "a/p",
        "b/q.md",
        ("a/b/q", "path", ()),
        id="path-relative",
    ),
    pytest.param(
        {"a/p.md": "[x](b/q.md)", "b/q.md": ""},
        "a/p",
        "b/q.md",
        ("b/q", "exact", ()),
        id="bare-path-missing-relatively-tried-from-root",
    ),
    pytest.param(
        {"p.md": "[x](docs/)", "docs/index.md": ""},
        "p",
        "docs/",
        ("docs/index", "folder-index", ()),
        id="folder-index",
    ),
    pytest.param(
        {"p.md": "[[lint]]\n\n[lint]: tools/lint.md\n", "lint.md": "", "tools/lint.md": ""},
        "p",
        "lint",
        ("tools/lint", "refdef", ()),
        id="refdef-beats-exact",
    ),
    pytest.param(
        {"p.md": "[[Lint]]\n\n[lint]: nowhere.md\n", "x/lint.md": ""},
        "p",
        "Lint",
        ("x/lint", "basename", ()),
        id="refdef-to-nothing-falls-through",
    ),
    pytest.param(
        {"p.md": "[[Orders]]", "Orders.md": "", "orders.md": ""},
        "p",
        "Orders",
        ("Orders", "exact", ()),
        id="exact",
    ),
    pytest.param(
        {"p.md": "[[ORDERS]]", "orders.md": "", "x/ORDERS.md": ""},
        "p",
        "ORDERS",
        ("orders", "case", ()),
        id="case-beats-basename",
    ),
    pytest.param(
        {"p.md": "[[Teams/Data Platform]]", "teams/data-platform.md": "", "x/teams.md": ""},
        "p",
        "Teams/Data Platform",
        ("teams/data-platform", "slugified", ()),
        id="slugified",
    ),
    pytest.param(
        {"p.md": "[[adr/0031-foo]]", "docs/adr/0031-foo.md": "", "adr.md": ""},
        "p",
        "adr/0031-foo",
        ("docs/adr/0031-foo", "suffix", ()),
        id="suffix",
    ),
    pytest.param(
        {"p.md": "[[ADR/0031-Foo]]", "docs/adr/0031-foo.md": ""},
        "p",
        "ADR/0031-Foo",
        ("docs/adr/0031-foo", "suffix", ()),
        id="suffix-case-insensitive",
    ),
    pytest.param(
        {"p.md": "[[Topic]]", "a/topic.md": "", "b/page.md": "---\ntitle: Topic\n---\n"},
        "p",
        "Topic",
        ("a/topic", "basename", ()),
        id="title-equal-to-a-file-name-loses-to-the-file",
    ),
    pytest.param(
        {
            "p.md": "[[Nick]]",
            "a.md": "---\naliases: [Nick, Other]\n---\n",
            "b.md": "---\ntitle: Nick\n---\n",
        },
        "p",
        "Nick",
        ("a", "alias", ()),
        id="alias-list-beats-title",
    ),
    pytest.param(
        {"p.md": "[[the nick]]", "a.md": "---\naliases: The  Nick\n---\n"},
        "p",
        "the nick",
        ("a", "alias", ()),
        id="alias-string",
    ),
    pytest.param(
        {"p.md": "[[analytics.orders]]", "tables/orders.md": "---\ntitle: analytics.orders\n---\n"},
        "p",
        "analytics.orders",
        ("tables/orders", "title", ()),
        id="title",
    ),
    pytest.param(
        {"p.md": "[[Special Name]]", "a.md": "# Special Name\n"},
        "p",
        "Special Name",
        ("Special Name", "dangling", ()),
        id="first-heading-never-resolves",
    ),
]


@pytest.mark.parametrize(("files", "frm", "target", "expected"), RULE_CASES)
def test_each_rule_on_a_real_folder(
    tmp_path: Path, files: dict[str, str], frm: str, target: str, expected: tuple
) -> None:
    assert outcome(link_of(tmp_path, files, frm, target)) == expected


# --- ties ------------------------------------------------------------------------------


def test_tie_prefers_the_linking_pages_folder(tmp_path: Path) -> None:
    files = {"b/p.md": "[[x]]", "a/x.md": "", "b/x.md": "", "c/d/x.md": ""}
    link = link_of(tmp_path, files, "b/p", "x")
    assert outcome(link) == ("b/x", "basename", ("b/x", "a/x", "c/d/x"))
    assert link.ambiguous


def test_tie_then_prefers_fewest_folders(tmp_path: Path) -> None:
    files = {"p.md": "[[x]]", "a/deep/x.md": "", "b/x.md": ""}
    assert outcome(link_of(tmp_path, files, "p", "x")) == ("b/x", "basename", ("b/x", "a/deep/x"))


def test_tie_then_prefers_code_point_order(tmp_path: Path) -> None:
    files = {"p.md": "[[x]]", "b/x.md": "", "B/x.md": "", "a/x.md": ""}
    assert outcome(link_of(tmp_path, files, "p", "x")) == (
        "B/x",
        "basename",
        ("B/x", "a/x", "b/x"),
    )


def test_ties_apply_to_titles_and_aliases_too(tmp_path: Path) -> None:
    files = {
        "n/p.md": "[[Same]]",
        "n/q.md": "[[Nick]]",
        "m/one.md": "---\ntitle: Same\naliases: [Nick]\n---\n",
        "n/two.md": "---\ntitle: same\naliases: nick\n---\n",
    }
    assert outcome(link_of(tmp_path / "t", files, "n/p", "Same")) == (
        "n/two",
        "title",
        ("n/two", "m/one"),
    )
    assert outcome(link_of(tmp_path / "a", files, "n/q", "Nick")) == (
        "n/two",
        "alias",
        ("n/two", "m/one"),
    )


# --- the real-world cases from the issue -----------------------------------------------

FOAM = {
    "docs/user/tools/cli.md": (
        '# CLI\n\nRun [[lint]] to check a workspace.\n\n[lint]: cli/lint.md "Lint"\n'
    ),
    "docs/user/tools/cli/lint.md": "# foam lint\n\nChecks links.\n",
    "docs/user/tools/workspace-lint.md": "---\ntitle: Lint\n---\n# Lint\n\nThe VS Code command.\n",
    "docs/user/features/graph-view.md": "---\ntitle: Graph View\n---\n# Graph View\n",
    "docs/user/features/paragraphs.md": "# Paragraphs\n",
    "docs/index.md": "See [[graph-view]].\n",
}


def test_foam_reference_definition_beats_a_page_titled_like_the_link(tmp_path: Path) -> None:
    link = link_of(tmp_path, FOAM, "docs/user/tools/cli", "lint")
    assert outcome(link) == ("docs/user/tools/cli/lint", "refdef", ())


def test_obsidian_same_named_notes_in_sibling_folders(tmp_path: Path) -> None:
    files = {
        "Obsidian Sync/Plans.md": "Read [[Security and privacy]].\n",
        "Obsidian Sync/Security and privacy.md": "# Sync security\n",
        "Obsidian Publish/Security and privacy.md": "# Publish security\n",
        "Obsidian Publish/Setup.md": "Read [[Security and privacy]].\n",
    }
    sync = link_of(tmp_path / "one", files, "Obsidian Sync/Plans", "Security and privacy")
    candidates = ("Obsidian Publish/Security and privacy", "Obsidian Sync/Security and privacy")
    assert sync.to == "Obsidian Sync/Security and privacy" and sync.rule == "basename"
    assert sync.ambiguous and sorted(sync.candidates) == sorted(candidates)
    publish = link_of(tmp_path / "two", files, "Obsidian Publish/Setup", "Security and privacy")
    assert publish.to == "Obsidian Publish/Security and privacy"
    assert publish.candidates == candidates


def test_every_command_agrees_on_a_shared_basename(run, tmp_path: Path) -> None:
    """The inconsistency from the issue: `links index` said b/x, `get x` opened a/deep/x,
    `links x --backlinks` printed nothing."""
    root = write(
        tmp_path / "brain",
        {"index.md": "see [[x]]\n", "a/deep/x.md": "deep x\n", "b/x.md": "b x\n"},
    )
    source = ["--source", str(root)]
    assert run("links", "index", *source) == (0, "b/x\n", "")
    assert run("get", "x", *source) == (0, "b x\n", "")
    assert run("links", "x", "--backlinks", *source) == (0, "index\n", "")
    assert (
        run("links", "index", "--explain", *source)[1]
        == "index\t[[x]]\tb/x\tbasename\tb/x\ta/deep/x\n"
    )


def test_links_explain_prints_written_target_rule_and_candidates(run, tmp_path: Path) -> None:
    root = write(tmp_path / "brain", FOAM)
    status, out, err = run("links", "docs/user/tools/cli", "--explain", "--source", str(root))
    assert (status, err) == (0, "")
    assert out == "docs/user/tools/cli\t[[lint]]\tdocs/user/tools/cli/lint\trefdef\n"
    status, out, _ = run("links", "cli/lint", "--backlinks", "--explain", "--source", str(root))
    assert out == "docs/user/tools/cli\t[[lint]]\tdocs/user/tools/cli/lint\trefdef\n"
    assert run("links", "cli", "--explain", "--json", "--source", str(root))[0] == 2


def test_unknown_name_suggests_file_names_and_titles(run, tmp_path: Path) -> None:
    root = write(tmp_path / "brain", FOAM)
    status, out, err = run("get", "graph", "--source", str(root))
    assert (status, out) == (1, "")
    assert err == "okf-explorer: no page 'graph' (did you mean docs/user/features/graph-view?)\n"


def test_typed_names_resolve_like_a_wiki_link_on_a_root_page(tmp_path: Path) -> None:
    brain = Brain(BundleSource(write(tmp_path / "brain", FOAM)), cache_dir=False)
    try:
        assert brain.resolve_slug("Graph View") == "docs/user/features/graph-view"  # title
        assert brain.resolve_slug("tools/cli") == "docs/user/tools/cli"  # suffix
        assert brain.resolve_slug("/docs/") == "docs/index"  # folder
        assert brain.resolve_slug("# CLI") is None
        found = brain.resolve_name("Lint")
        assert found is not None and (found.node, found.rule) == (
            "docs/user/tools/cli/lint",
            "basename",
        )
    finally:
        brain.close()


FOAM_FILES = {
    ".vscode/extensions.json": '{"recommendations": ["foam.foam-vscode"]}\n',
    "home.md": "[[projects]] [[Guides]] [[work/projects]] [[ideas]] [[archive]]\n",
    "projects/index.md": "# Projects\n",
    "projects/README.md": "# Read me\n",
    "docs/guides/README.md": "# Guides\n",
    "work/projects/index.md": "# Work's\n",
    "ideas.md": "# Ideas\n",
    "ideas/index.md": "# More ideas\n",
    "archive/old.md": "# Old\n",
}


def test_a_foam_workspace_opens_a_folder_by_its_name(tmp_path: Path) -> None:
    """Foam opens `[[projects]]` at `projects/index.md` (else `README.md`) when no note
    is called `projects` (its `foam.links.directory.mode`, `resolve` by default); a
    folder's path may end the name (`[[work/projects]]`). Obsidian does not: the same
    files read as a vault leave it dangling."""
    root = write(tmp_path / "foam", FOAM_FILES)
    brain = Brain(BundleSource(root), cache_dir=False)
    try:
        found = {
            link.target: (link.to, link.rule, link.candidates)
            for link in brain.forward_links("home")
        }
    finally:
        brain.close()
    assert found == {
        "projects": ("projects/index", "folder-index", ("projects/index", "work/projects/index")),
        "Guides": ("docs/guides/README", "folder-index", ()),
        "work/projects": ("work/projects/index", "folder-index", ()),
        "ideas": ("ideas", "exact", ()),  # a note called so comes first
        "archive": ("archive", "dangling", ()),  # a folder with no index page
    }
    files = {name: text for name, text in FOAM_FILES.items() if not name.startswith(".vscode")}
    plain = Brain(BundleSource(write(tmp_path / "vault", files)), cache_dir=False)
    try:
        rules = {link.target: link.rule for link in plain.forward_links("home")}
    finally:
        plain.close()
    assert rules["projects"] == rules["Guides"] == "dangling"


def test_a_foam_workspaces_folder_names_resolve_alike_in_the_scan_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large folder's links are resolved in the processes that read it (`LinkPass`):
    they know the workspace's rule too, and a name typed by a person resolves alike."""
    from okf_explorer.sources.folder import scan as parallel

    files = dict(FOAM_FILES)
    files.update({f"notes/n{i}.md": f"[[projects]] and [[Guides]] {i}\n" for i in range(30)})
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 10)
    brain = Brain(BundleSource(write(tmp_path / "foam", files)), cache_dir=False)
    try:
        tos = {(link.to, link.rule) for link in brain.forward_links("notes/n7")}
        assert tos == {("projects/index", "folder-index"), ("docs/guides/README", "folder-index")}
        assert len(brain.backlinks("docs/guides/README")) == 31
        assert brain.resolve_slug("guides") == "docs/guides/README"
    finally:
        brain.close()
    # a worker started otherwise than by fork is handed the pass pickled: the rule with it
    sent = pickle.loads(pickle.dumps(LinkPass(["projects/index"], wiki_folders=True)))
    resolver = sent.prepare().resolver
    resolver.names_settle(["projects"])  # as the main process settles what a worker left
    assert resolver.resolve("projects").rule == "folder-index"
