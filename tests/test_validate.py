"""`okf-explorer validate`: OKF v0.2 §11 conformance on bundles of our own (conformant,
non-conformant, messy), each rule, exit codes, `--strict`, `--json`, a hostile name,
the sample brain, and the refusal of an MCP source."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from okf_explorer.core.brain import Brain
from okf_explorer.core.okf.validate import CONSUMER_NOTE, validate_brain
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_bundle, write_pages
from tests.mcp_server_fixture import serve_bundle

NOW = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)

CONFORMANT = {
    "index.md": '---\nokf_version: "0.2"\n---\n# Tables\n\n* [Orders](tables/orders.md) - x\n',
    "log.md": "# Bundle history\n\n## 2026-06-30\n* **Update**: y\n\n## 2026-01-02\n* z\n",
    "tables/index.md": "# Tables\n\n* [Orders](orders.md) - orders\n",
    "tables/orders.md": "---\ntype: BigQuery Table\n---\nSee [[customers]].\n",
    "tables/customers.md": "---\ntype: Widget Nobody Registered\ntitle: Customers\n---\nHi\n",
    "metrics/log.md": "## 2025-12-31\n* **Creation**: m\n",
}


def findings(root: Path, now: datetime = NOW) -> list[tuple[str, str, str]]:
    """(slug, severity, code) of every finding, in report order."""
    brain = Brain(BundleSource(root), cache_dir=False)
    try:
        report = validate_brain(brain, now=now)
    finally:
        brain.close()
    return [(f.slug, f.severity, f.code) for f in report.findings]


def test_a_conformant_bundle_exits_0_with_its_exact_report(tmp_path: Path, run) -> None:
    bundle = write_bundle(tmp_path / "b", CONFORMANT)
    status, out, err = run("validate", str(bundle))
    assert (status, err) == (0, "")
    assert out == f"6 files: 0 errors, 0 warnings: conformant\n{CONSUMER_NOTE}\n"


def test_each_error_rule(tmp_path: Path) -> None:
    bundle = write_bundle(
        tmp_path / "b",
        {
            "broken-yaml.md": "---\ntype: [unclosed\n---\nbody\n",
            "list-yaml.md": "---\n- a\n- b\n---\nbody\n",
            "latin1.md": "---\ntype: T\n---\ncaf\xe9\n".encode("latin-1"),
            "no-frontmatter.md": "# Just a body\n",
            "empty-type.md": "---\ntype: '  '\n---\n",
            "list-type.md": "---\ntype: [a, b]\n---\n",
            "index.md": "---\nokf_version: '0.2'\ntitle: Home\n---\n# Home\n",
            "sub/index.md": "---\nokf_version: '0.2'\n---\n# Sub\n",
            "sub/log.md": "# Log\n## 2026-02-30\n## yesterday\n```\n## not a heading\n```\n"
            "### 2026 notes\n## 2026-03-01 \n",
        },
    )
    assert findings(bundle) == [
        ("broken-yaml", "error", "malformed-frontmatter"),
        ("empty-type", "error", "missing-type"),
        ("index", "error", "index-frontmatter"),
        ("latin1", "error", "unreadable"),
        ("list-type", "error", "missing-type"),
        ("list-yaml", "error", "malformed-frontmatter"),
        ("no-frontmatter", "error", "missing-type"),
        ("sub/index", "error", "index-frontmatter"),
        ("sub/log", "error", "log-heading"),
        ("sub/log", "error", "log-heading"),
    ]


def test_each_warning_rule(tmp_path: Path) -> None:
    bundle = write_pages(
        tmp_path / "b",
        {
            "linker": "---\ntype: T\n---\n[[nowhere]] and [[twin]]\n",
            "a/twin": "---\ntype: T\n---\n",
            "b/twin": "---\ntype: T\n---\n",
            "extra": "---\ntype: T\nowner: team:x\nstatus: draft\ntimestamp: 2020\n"
            "stale-after: 2030-01-01T00:00:00Z\n---\n",
            "stale": "---\ntype: T\nstale_after: 2026-06-30T00:00:00Z\n---\n",
            "stale-text": "---\ntype: T\nstale_after: '2026-07-01T12:00:00+00:00'\n---\n",
            "fresh": "---\ntype: T\nstale_after: 2026-07-02T00:00:00Z\n---\n",
            "date-only": "---\ntype: T\nstale_after: 2020-01-01\n---\n",
            "no-offset": "---\ntype: T\nstale_after: 2020-01-01T00:00:00\n---\n",
            "garbage": "---\ntype: T\nstale_after: 'soon-ish T'\n---\n",
        },
    )
    assert findings(bundle) == [
        ("extra", "warning", "unknown-field"),
        ("linker", "warning", "ambiguous-link"),
        ("linker", "warning", "broken-link"),
        ("stale", "warning", "stale"),
        ("stale-text", "warning", "stale"),  # now >= stale_after: stale at the instant
    ]


def test_warnings_pass_unless_strict_and_bad_arguments_exit_2(tmp_path: Path, run) -> None:
    bundle = write_pages(tmp_path / "b", {"a": "---\ntype: T\n---\n[[ghost]]\n"})
    status, out, _ = run("validate", str(bundle))
    assert status == 0
    assert out.splitlines()[:2] == [
        "a\twarning\tbroken-link\tlink 'ghost' matches no page",
        "1 files: 0 errors, 1 warnings: conformant",
    ]
    status, out, _ = run("validate", str(bundle), "--strict")
    assert status == 1
    assert "1 files: 0 errors, 1 warnings: not conformant (--strict: warnings fail)\n" in out
    status, out, err = run("validate", str(bundle), "--bogus")
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1


def test_a_broken_link_that_looks_like_a_page_says_which_and_what_differs(
    tmp_path: Path, run
) -> None:
    """An LLM-written bundle links `[[CWE‑788]]` (a non-breaking hyphen) beside the
    concept `CWE-788`: still a broken link (names match as written), and the warning says
    the page it looks like and the character that differs, once for every page."""
    pages = {
        "cve/one": "---\ntype: CVE\n---\nWeakness [[CWE\u2011788]].\n",
        "cve/two": "---\ntype: CVE\n---\nAlso [[CWE\u2011788]].\n",
        "concepts/CWE-788": "---\ntype: CWE\n---\n# CWE-788\n",
    }
    status, out, _ = run("validate", str(write_pages(tmp_path / "b", pages)))
    assert status == 0
    assert out.splitlines()[0] == (
        "2 pages\twarning\tbroken-link\tlink 'CWE\u2011788' matches no page; it looks like"
        ' concepts/CWE-788: U+2011 NON-BREAKING HYPHEN for "-" · cve/one, cve/two'
        " (--all lists each)"
    )


def test_a_messy_bundle_lists_errors_before_warnings_and_exits_1(tmp_path: Path, run) -> None:
    bundle = write_bundle(
        tmp_path / "b",
        {
            "a.md": "---\ntype: T\nfoo: 1\ntag: x\n---\n[[ghost]]\n",
            "z.md": "no frontmatter, [[a]]\n",
            "deep/er/log.md": "## 2026-1-2\n",
        },
    )
    status, out, err = run("--source", str(bundle), "validate")
    assert (status, err) == (1, "")
    assert out.splitlines() == [
        "deep/er/log\terror\tlog-heading\t'## 2026-1-2' is not a YYYY-MM-DD date (OKF §9)",
        "z\terror\tmissing-type\tno 'type' in the frontmatter"
        " (a page without frontmatter has none)",
        "a\twarning\tbroken-link\tlink 'ghost' matches no page",
        "a\twarning\tunknown-field\tfrontmatter key 'tag' is not an OKF v0.2 field"
        " (did you mean 'tags'?)",
        "3 files: 2 errors, 2 warnings: not conformant",
        "extension keys (OKF v0.2 §4.1 allows them): foo on 1 page",
        CONSUMER_NOTE,
    ]


def test_json_keys(tmp_path: Path, run) -> None:
    bundle = write_pages(tmp_path / "b", {"a": "---\ntype: T\n---\n[[ghost]]\n", "b": "x\n"})
    status, out, _ = run("validate", str(bundle), "--json", "--strict")
    assert status == 1
    document = json.loads(out)
    assert list(document) == [
        "conformant", "strict", "files", "counts", "errors", "warnings", "note", "extensions",
    ]  # fmt: skip
    assert document["conformant"] is False and document["strict"] is True
    assert document["files"] == 2
    assert document["counts"] == {"errors": 1, "warnings": 1}
    assert document["errors"][0]["slug"] == "b"
    assert document["warnings"] == [
        {"slug": "a", "code": "broken-link", "message": "link 'ghost' matches no page"}
    ]
    assert document["note"] == CONSUMER_NOTE
    assert document["extensions"] == {}


def test_a_hostile_slug_is_escaped(tmp_path: Path, run) -> None:
    bundle = write_pages(tmp_path / "b", {"evil\x1b[31mred": "no type here\n"})
    status, out, _ = run("validate", str(bundle))
    assert status == 1
    assert "\x1b" not in out
    assert out.startswith("evil\\x1b[31mred\terror\tmissing-type\t")
    status, out, _ = run("validate", str(bundle), "--json")
    assert "\x1b" not in out
    assert json.loads(out)["errors"][0]["slug"] == "evil\x1b[31mred"


def test_the_sample_brain_is_conformant(sample_brain: Path, run) -> None:
    """The sample brain is OKF v0.2 (its index.md pages carry no frontmatter but the
    root's `okf_version`): 0 errors; its warnings are its deliberate dangling links,
    its own fields (`owner`, ...), its one ambiguous link and its one stale page."""
    status, out, _ = run("validate", str(sample_brain), "--json")
    document = json.loads(out)
    assert (status, document["errors"], document["conformant"]) == (0, [], True)
    codes = {warning["code"] for warning in document["warnings"]}
    assert codes == {"broken-link", "ambiguous-link", "stale"}
    assert document["extensions"]["owner"] == 25
    stale = [w["slug"] for w in document["warnings"] if w["code"] == "stale"]
    assert stale == ["runbooks/orders-daily-late"]


def test_an_mcp_source_is_refused_in_one_line(tmp_path: Path, run) -> None:
    bundle = write_bundle(tmp_path / "b", CONFORMANT)
    with serve_bundle(bundle) as server:
        for argv in (("validate", server.url), ("--source", server.url, "validate")):
            status, out, err = run(*argv)
            assert (status, out) == (2, ""), argv
            assert err.count("\n") == 1
            assert "validate needs a bundle folder, not an MCP server" in err


def test_a_missing_folder_is_a_bad_argument(tmp_path: Path, run) -> None:
    """Exit 1 means "not conformant" only: a source that is no folder exits 2."""
    for argv in (("validate", str(tmp_path / "nowhere")), ("validate", __file__)):
        status, out, err = run(*argv)
        assert (status, out) == (2, ""), argv
        assert err.count("\n") == 1 and "is not a folder" in err


# ------------------------------------------------------------------ real bundles' shapes
# An LLM-written bundle (5,678 files) printed 6,234 identical `x-llmwiki` warnings, and the
# OKF reference bundle `acme_retail` was warned about its own `not:` key. These bundles
# of our own have the same shapes.

LLM_WRITTEN = {
    **{
        f"concepts/c{n}": "---\ntype: concept\nx-llmwiki:\n  model: m\n---\n"
        f"[[Tracing]] [[c{n + 1}]]\n"
        for n in range(6)
    },
    **{
        f"references/r{n}": f"---\ntitle: R{n}\nsource: https://example.org/{n}\n"
        "ingestedAt: '2026-06-18T08:15:50Z'\n---\nbody\n"
        for n in range(4)
    },
}


def test_repeated_findings_fold_into_one_line_with_a_count_and_all_lists_each(
    tmp_path: Path, run
) -> None:
    bundle = write_pages(tmp_path / "b", LLM_WRITTEN)
    status, out, _ = run("validate", str(bundle))
    assert status == 1
    assert out.splitlines() == [
        "4 pages\terror\tmissing-type\tno 'type' in the frontmatter (a page without "
        "frontmatter has none) · references/r0, references/r1, references/r2 … (--all lists each)",
        "6 pages\twarning\tbroken-link\tlink 'Tracing' matches no page · concepts/c0, "
        "concepts/c1, concepts/c2 … (--all lists each)",
        "concepts/c5\twarning\tbroken-link\tlink 'c6' matches no page",
        "4 pages\twarning\tunknown-field\tfrontmatter key 'source' is not an OKF v0.2 field "
        "(did you mean 'sources'?) · references/r0, references/r1, references/r2 … "
        "(--all lists each)",
        "10 files: 4 errors, 11 warnings: not conformant",
        "extension keys (OKF v0.2 §4.1 allows them): x-llmwiki on 6 pages, ingestedAt on 4 pages",
        CONSUMER_NOTE,
    ]
    status, every, _ = run("validate", str(bundle), "--all")
    assert status == 1
    lines = every.splitlines()
    assert len(lines) == 4 + 11 + 3
    assert (
        "references/r3\terror\tmissing-type\tno 'type' in the frontmatter (a page "
        "without frontmatter has none)" in lines
    )
    assert sum("x-llmwiki" in line for line in lines) == 1  # an extension, never a warning


def test_the_same_slip_at_different_lines_is_one_line(tmp_path: Path, run) -> None:
    """A public vault's 28 templates each hold `{{date}}` placeholders YAML reads as a
    mapping, each at its own line: 12 lines told the same thing, one per line number."""
    pages = {
        f"Templates/t{n}": "---\n" + "a: 1\n" * n + "created: {{date}}\ntype: Note\n---\n"
        for n in (1, 4, 9)
    }
    status, out, _ = run("validate", str(write_pages(tmp_path / "b", pages)))
    assert status == 1
    (line,) = [line for line in out.splitlines() if "malformed-frontmatter" in line]
    assert line.startswith("3 pages\terror\tmalformed-frontmatter\t")
    assert "(found unhashable key at lines 3-11)" in line
    status, every, _ = run("validate", str(write_pages(tmp_path / "b", pages)), "--all")
    shown = [x for x in every.splitlines() if "malformed" in x]
    assert [x.split("key at ")[1][:8] for x in shown] == ["line 3);", "line 6);", "line 11)"]


def test_a_pages_many_findings_of_one_code_are_one_line(tmp_path: Path, run) -> None:
    """An LLM-kept wiki's `log.md` heads each entry `## 2026-04-11 ingest | Title` (32k
    pages, 1,010 such headings): one error a heading, 1,010 lines for one file. Past
    `FOLD_ON_A_PAGE` on a page they are one line quoting the first three; ten stay ten;
    `--json` and `--all` keep every one."""
    entries = "".join(f"## 2026-04-{n:02} ingest | Note {n}\n* done\n" for n in range(1, 13))
    ten = "".join(f"[[gone {n}]] " for n in range(10))
    pages = {"log": f"# Log\n\n{entries}", "notes/a": f"---\ntype: note\n---\n{ten}\n"}
    bundle = write_pages(tmp_path / "b", pages)
    status, out, _ = run("validate", str(bundle))
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == (
        "log\terror\tlog-heading\t'## 2026-04-01 ingest | Note 1' is not a YYYY-MM-DD date "
        "(OKF §9); '## 2026-04-02 ingest | Note 2' is not a YYYY-MM-DD date (OKF §9); "
        "'## 2026-04-03 ingest | Note 3' is not a YYYY-MM-DD date (OKF §9) … "
        "(12 on this page; --all lists each)"
    )
    assert sum("broken-link" in line for line in lines) == 10  # ten: each on its own
    assert "12 errors, 10 warnings" in lines[11]
    status, every, _ = run("validate", str(bundle), "--all")
    assert sum("log-heading" in line for line in every.splitlines()) == 12
    status, out, _ = run("validate", str(bundle), "--json")
    assert len(json.loads(out)["errors"]) == 12


def test_extension_keys_are_allowed_even_with_strict(tmp_path: Path, run) -> None:
    """OKF v0.2 §4.1: producers MAY add keys; §11: unknown keys never fail a bundle. The
    v0.2 text defines no `not` field: the reference bundle's `not:` is such a key."""
    bundle = write_pages(
        tmp_path / "b",
        {
            "metrics/gross-margin": "---\ntype: Metric\nnot:\n  - term: revenue minus cost\n"
            "    why: the old definition\n    instead: full COGS\nx-llmwiki: {a: 1}\n---\n",
            "metrics/net": "---\ntype: Metric\nnot: []\n---\n",
        },
    )
    status, out, _ = run("validate", str(bundle), "--strict")
    assert status == 0
    assert out.splitlines()[:2] == [
        "2 files: 0 errors, 0 warnings: conformant",
        "extension keys (OKF v0.2 §4.1 allows them): not on 2 pages, x-llmwiki on 1 page",
    ]
    status, out, _ = run("validate", str(bundle), "--json")
    assert json.loads(out)["extensions"] == {"not": 2, "x-llmwiki": 1}
    assert json.loads(out)["warnings"] == []


def test_misspelt_fields_are_told_from_extensions() -> None:
    from okf_explorer.core.okf.validate import misspelt_field

    assert misspelt_field("source") == "sources"
    assert misspelt_field("Stale-After") == "stale_after"
    assert misspelt_field("verfied") == "verified"
    for extension in ("not", "x-llmwiki", "x-status", "owner", "date", "decision", "aliases"):
        assert misspelt_field(extension) is None, extension


class _OneAtATime:
    """A folder source without `map_pages`: validate reads each page itself."""

    def __init__(self, source: BundleSource) -> None:
        self._source = source

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        if name == "map_pages":
            raise AttributeError(name)
        return getattr(self._source, name)


def test_pages_checked_in_worker_processes_report_as_one_at_a_time(
    tmp_path: Path, monkeypatch
) -> None:
    """A large bundle is checked where its pages are read (two worker processes): the
    report is the one reading each page in turn gives, every rule and extension key."""
    from okf_explorer.core.port import PageMapper
    from okf_explorer.sources.folder import scan

    pages = {
        "index.md": "---\nokf_version: '0.2'\ntitle: Home\n---\n# Home\n",
        "sub/index.md": "---\nokf_version: '0.2'\n---\n# Sub\n",
        "sub/log.md": "# Log\n## 2026-02-30\n## 2026-03-01\n",
        "broken-yaml.md": "---\ntype: [unclosed\n---\nbody\n",
        "latin1.md": "---\ntype: T\n---\ncaf\xe9\n".encode("latin-1"),
        "no-frontmatter.md": "# Just a body\n",
    }
    for n in range(40):
        pages[f"c/p{n}.md"] = (
            f"---\ntype: {'T' if n % 3 else '[a, b]'}\nx-llmwiki: {n}\nsource: s\n"
            f"stale_after: 2026-0{1 + n % 9}-01T00:00:00Z\n---\n[[c/p{n + 1}]] [[nowhere]]\n"
        )
    bundle = write_bundle(tmp_path / "b", pages)
    monkeypatch.setattr(scan, "PARALLEL_THRESHOLD", 8)

    def in_process(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("read in this process: the workers were not used")

    monkeypatch.setattr(scan, "_here", in_process)
    reports = []
    for source in (BundleSource(bundle), _OneAtATime(BundleSource(bundle))):
        brain = Brain(source, cache_dir=False)  # type: ignore[arg-type]
        try:
            reports.append(validate_brain(brain, now=NOW))
        finally:
            brain.close()
    assert isinstance(BundleSource(bundle), PageMapper)
    assert not isinstance(_OneAtATime(BundleSource(bundle)), PageMapper)
    assert reports[0] == reports[1]
    codes = {f.code for f in reports[0].findings}
    assert codes >= {"index-frontmatter", "log-heading", "malformed-frontmatter", "unreadable",
                     "missing-type", "unknown-field", "stale", "broken-link"}  # fmt: skip
    assert dict(reports[0].extensions) == {"x-llmwiki": 40}


def test_a_key_with_no_name_is_named_as_written(tmp_path: Path, run) -> None:
    """Obsidian's Properties view leaves `"":` behind (a 13k-page vault): the line read
    `banner on 36 pages,  on 1 page`."""
    bundle = write_pages(tmp_path / "b", {"m": '---\ntype: Metric\n"":\n---\n'})
    status, out, _ = run("validate", str(bundle))
    assert status == 0
    assert out.splitlines()[1] == 'extension keys (OKF v0.2 §4.1 allows them): "" on 1 page'


def test_tags_written_as_a_quoted_list_are_read_as_the_list_and_warned_of(
    tmp_path: Path, run
) -> None:
    """An LLM-kept bundle quoted its flow lists (`tags: "[okf, index]"`) on 192 pages:
    its pages showed the tags `[okf` and `index]`. They read as the list, and `validate`
    says how to write it (one line for every page alike); a plain string, the shorthand
    Obsidian vaults write, is read as its comma-separated parts without a warning."""
    bundle = write_pages(
        tmp_path / "b",
        {
            "quoted": '---\ntype: T\ntags: "[okf, index]"\n---\n',
            "quoted-too": "---\ntype: T\ntags: '[llm, wiki]'\n---\n",
            "plain": "---\ntype: T\ntags: journal, daily\n---\n",
            "number": "---\ntype: T\ntags: 2024\n---\n",
            "listed": "---\ntype: T\ntags: [a, b]\n---\n",
        },
    )
    assert findings(bundle) == [
        ("number", "warning", "tags-not-list"),
        ("quoted", "warning", "tags-not-list"),
        ("quoted-too", "warning", "tags-not-list"),
    ]
    brain = Brain(BundleSource(bundle), cache_dir=False)
    assert brain.page("quoted").tags == ("okf", "index")
    assert brain.page("plain").tags == ("journal", "daily")
    assert [page.slug for page in brain.pages(tag="okf")] == ["quoted"]
    brain.close()
    status, out, _ = run("validate", str(bundle))
    assert status == 0  # warnings never make a bundle non-conformant
    assert (
        "2 pages\twarning\ttags-not-list\t'tags' is a quoted string, not a YAML list:"
        " write tags: [a, b] unquoted · quoted, quoted-too" in out
    )
