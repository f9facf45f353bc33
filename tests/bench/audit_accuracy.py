"""Measure how often `okf-explorer audit` names the right cause, and how often its fix
works, on a real corpus against the real gbrain. Not collected by pytest.

Run: `.venv/bin/python tests/bench/audit_accuracy.py FOLDER [--before TREE] [--sample N]
[--no-fixes]`, FOLDER a vault or bundle (e.g. exported with `git archive` from a repo
the `fetch` tool brought: obsidianmd/obsidian-help `en/`, obsidian-community/obsidian-hub,
GoogleCloudPlatform/knowledge-catalog `okf/bundles`); TREE a folder holding another
`okf_explorer` package (e.g. `git archive <commit> okf_explorer | tar -x -C TREE`) whose
audit is measured the same way ("before").

The truth of each difference comes from gbrain itself, never from our model:

- its extractor, dry run (`gbrain extract links --source db --dry-run --json`) on the
  imported brain, with the defaults, `--include-frontmatter`,
  `GBRAIN_LINK_RESOLUTION_GLOBAL_BASENAME=1`, and both: an edge the files state that
  gbrain makes only with a setting has that setting for truth; one it makes with the
  defaults (but does not hold) is stale;
- its own `stripCodeBlocks` (run with Bun on the server's copy of the page): an edge
  gbrain never makes whose link, as written, is blanked there everywhere is code;
  otherwise the form (or the target) is the truth;
- its import log: a file skipped for invalid YAML.

A cause is right when it is one the truth allows (`EXPECTED`). Then each fix of an
edge the files state is applied to a copy of the folder as its text says, the copy is
imported afresh with the settings the fixes name (`--include-frontmatter`,
`link_resolution.global_basename`), and the fix works when the edge is there. `--sample
N` prints N random differences per audit with truth and fix outcome, for checking by
hand against gbrain's code. Nothing of the corpus is written into the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from okf_explorer.sources.audit_gather import list_server_pages, server_links
from okf_explorer.sources.factory import open_source
from okf_explorer.sources.gbrain.importer import gbrain_slug
from okf_explorer.sources.gbrain.source import McpSource
from tests.gbrain_peer import (
    GbrainPeer,
    gbrain_commands,
    start_gbrain,
    start_peer,
    stop_gbrain,
)

FORM = {"unread_form", "title_or_alias", "okf_field", "field_unresolved"}
EXPECTED: dict[str, set[str]] = {
    "stale": {"stale_links", "content_differs", "escaped_pipe"},
    "global_basename": {"basename_only", "ambiguous_basename"},
    "include_frontmatter": {"frontmatter_only"},
    "both_settings": {"frontmatter_only", "basename_only"},
    "code": {"code_masked"},
    "form": FORM,
    "target_absent": {"target_missing", "private_page", "other_source"},
    "server_read": {
        "prose_path",
        "unread_form",
        "code_read",
        "ambiguous_basename",
        "field_unresolved",
    },
    "server_kept": {"stale_links", "manual_link", "other_source", "content_differs"},
    "relation": {"relation_differs", "frontmatter_only"},
    "invalid_yaml": {"invalid_frontmatter"},
    "page": {"page_skipped", "private_page", "page_only_on_server", "page_renamed"},
}
"""Truth → the causes that name it."""
DRY_RUN = ["extract", "links", "--source", "db", "--dry-run", "--json"]
STRIP_SCRIPT = """
import { stripCodeBlocks } from %s;
const input = JSON.parse(await Bun.file(process.argv[2]).text());
const out: Record<string, string> = {};
for (const [slug, text] of Object.entries(input)) out[slug] = stripCodeBlocks(text as string);
await Bun.write(process.argv[3], JSON.stringify(out));
"""


def dry_runs(peer: GbrainPeer, corpus: Path) -> tuple[GbrainPeer, dict[str, set[tuple[str, str]]]]:
    """What gbrain's extractor makes under each setting (dry run, server stopped)."""
    fm = [*DRY_RUN, "--include-frontmatter"]
    peer, (base, with_fm) = gbrain_commands(peer, corpus, [DRY_RUN, fm])
    on = {"GBRAIN_LINK_RESOLUTION_GLOBAL_BASENAME": "1"}
    peer, (with_gb, both) = gbrain_commands(peer, corpus, [DRY_RUN, fm], env=on)

    def edges(out: str) -> set[tuple[str, str]]:
        rows = (json.loads(line) for line in out.splitlines() if line.startswith('{"action"'))
        return {(row["from"], row["to"]) for row in rows}

    return peer, {
        "base": edges(base),
        "include_frontmatter": edges(with_fm),
        "global_basename": edges(with_gb),
        "both_settings": edges(both),
    }


def gbrain_stripped(peer: GbrainPeer, texts: dict[str, str]) -> dict[str, str]:
    """gbrain's own `stripCodeBlocks` of each text (Bun, gbrain's source)."""
    work = peer.token_file.parent.parent.parent
    source = sorted(work.glob("src-*/gbrain/src/core/markdown-code.ts"))[-1]
    bun = work / "tools" / "node_modules" / ".bin" / "bun"
    with tempfile.TemporaryDirectory() as tmp:
        script, given, taken = Path(tmp, "strip.ts"), Path(tmp, "in.json"), Path(tmp, "out.json")
        script.write_text(STRIP_SCRIPT % json.dumps(str(source)))
        given.write_text(json.dumps(texts))
        subprocess.run([str(bun), str(script), str(given), str(taken)], check=True, timeout=600)
        return json.loads(taken.read_text())


def served_texts(peer: GbrainPeer, slugs: set[str]) -> dict[str, str]:
    """The server's copy of each page (compiled truth, newline, timeline)."""
    source = open_source(peer.url, token_file=peer.token_file, timeout=60)
    texts: dict[str, str] = {}
    try:
        wanted = sorted(slugs)
        for at in range(0, len(wanted), 20):
            chunk = wanted[at : at + 20]
            answers = source.call_tools("get_page", [{"slug": s} for s in chunk])
            for slug, page in zip(chunk, answers, strict=True):
                texts[slug] = page["compiled_truth"] + "\n" + page["timeline"]
    finally:
        source.close()
    return texts


def audit(corpus: Path, peer: GbrainPeer, tree: Path | None) -> list[dict]:
    """The audit's records (`--json`), by this checkout or by the package in `tree`."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    args = ["audit", str(corpus), "--against", peer.url, "--token-file", str(peer.token_file)]
    done = subprocess.run(
        [sys.executable, "-m", "okf_explorer", *args, "--json", "--timeout", "120"],
        capture_output=True, text=True, env=env, cwd=tempfile.gettempdir(), check=False,
    )  # fmt: skip
    if done.returncode not in (0, 1):
        raise SystemExit(f"audit failed: {done.stderr}")
    return json.loads(done.stdout)


def masked_everywhere(written: str, text: str, stripped: str) -> bool:
    """Whether every occurrence of the link as written is blanked by gbrain's stripping."""
    pattern = r"(?:\[\[|\]\(<?)" + re.escape(written) + r"(?=[\]|#)>\\])"
    spots = [m.start() for m in re.finditer(pattern, text)]
    return bool(spots) and all(stripped[at] == " " for at in spots)


def truth_of(record: dict, made: dict, server_pages: set[str], invalid: set[str],
             texts: dict[str, str], stripped: dict[str, str]) -> str:  # fmt: skip
    page, target, side = record["page"], record["target"], record["side"]
    if target is None:
        return "invalid_yaml" if (record["written"] or "") in invalid else "page"
    pair = (page, target)
    if side == "both":
        return "relation"
    if side == "server":
        return "server_read" if pair in made["base"] else "server_kept"
    if target not in server_pages:
        return "target_absent"
    for setting in ("base", "global_basename", "include_frontmatter", "both_settings"):
        if pair in made[setting]:
            return "stale" if setting == "base" else setting
    written = record["written"] or ""
    if page in texts and masked_everywhere(written, texts[page], stripped.get(page, "")):
        return "code"
    return "form"


def invalid_files(peer: GbrainPeer) -> set[str]:
    log = peer.token_file.parent / "import.log"
    if not log.exists():
        return set()
    return set(re.findall(r"Skipped (.+?): Invalid YAML", log.read_text()))


# -- fixes --------------------------------------------------------------------------------


def apply_fixes(records: list[dict], fixed: Path) -> dict[int, tuple[str, str, str | None]]:
    """Apply each fix of an edge the files state (as its text says) to `fixed`; the
    check of each: record index → (page, target, link_source or None for any)."""
    paths: dict[str, Path] = {}  # the first file of a slug keeps it, as in the audit
    for path in sorted(fixed.rglob("*.md"), key=lambda p: p.relative_to(fixed).as_posix()):
        paths.setdefault(gbrain_slug(path.relative_to(fixed).as_posix()), path)
    checks: dict[int, tuple[str, str, str | None]] = {}
    for n, record in enumerate(records):
        cause, fix, page, target = record["cause"], record["fix"], record["page"], record["target"]
        path = paths.get(page)
        if record["side"] != "files" or target is None or path is None:
            continue
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        link = re.search(r"write (?:the link as )?(\[\[[^\]]+\]\])", fix) or re.search(
            r"state the link in the page's body too \((\[\[[^\]]+\]\])\)", fix
        )
        by_link = FORM - {"field_unresolved"} | {"basename_only", "ambiguous_basename"}
        if cause in by_link:
            if link is None:
                continue
            rewritten = in_place(text, record["written"] or "", link.group(1))
            path.write_text(rewritten, errors="surrogateescape")
            checks[n] = (page, target, "markdown")
        elif cause == "field_unresolved":
            found = re.search(r"`([^:`]+): ([^`]+)`.*write the value as (\S+)$", fix)
            if found is None or f"{found[1]}: {found[2]}\n" not in text:
                continue
            path.write_text(text.replace(f"{found[1]}: {found[2]}\n", f"{found[1]}: {found[3]}\n"))
            checks[n] = (page, target, "frontmatter")
        elif cause == "frontmatter_only":
            checks[n] = (page, target, "frontmatter")
        elif cause == "code_masked":
            line = int(re.search(r"move the link above line (\d+)", fix)[1])  # type: ignore[index]
            lines = text.split("\n")
            lines.insert(line - 1, f"[[{record['written']}]]")
            path.write_text("\n".join(lines), errors="surrogateescape")
            checks[n] = (page, target, None)
    return checks


def in_place(text: str, written: str, new: str) -> str:
    """`text` with the link written `written` rewritten as `new` (`[[X]]` or `[[X|A]]`)
    where it stands (its anchor and alias kept), or `new` added at the end when it is
    not written inline (a reference-style link)."""
    slug = new[2:-2].split("|", 1)[0]
    wiki = re.compile(r"\[\[\s*" + re.escape(written) + r"\s*(#[^\]|]*)?((?:\\?\|)[^\]]*)?\]\]")
    done, count = wiki.subn(lambda m: f"[[{slug}{m[1] or ''}{m[2] or ''}]]", text)
    if count:
        return done
    inline = re.compile(r"\[([^\]]*)\]\(\s*<?" + re.escape(written) + r"(#[^)>\s]*)?>?\s*\)")
    done, count = inline.subn(lambda m: f"[[{slug}{m[2] or ''}|{m[1]}]]", text)
    return done if count else text + "\n\n" + new + "\n"


def fixed_graph(fixed: Path) -> set[tuple[str, str, str]]:
    peer = start_peer(
        fixed, extract_flags="--include-frontmatter",
        config=(("link_resolution.global_basename", "true"),), timeout=1800,
    )  # fmt: skip
    try:
        source = open_source(peer.url, token_file=peer.token_file, timeout=120)
        assert isinstance(source, McpSource)
        try:
            pages = list_server_pages(source).pages
            rows = server_links(source, list(pages), 2)
        finally:
            source.close()
    finally:
        stop_gbrain(peer)
    return {(r.page, r.target, r.link_source or "") for r in rows}


# -- the report ---------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--before", type=Path, help="a folder holding another okf_explorer")
    parser.add_argument("--sample", type=int, default=10)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--no-fixes", action="store_true")
    args = parser.parse_args()
    corpus = args.folder.resolve()
    started = time.perf_counter()
    peer = start_gbrain(corpus, timeout=1800)
    print(f"gbrain: import + extract + start {time.perf_counter() - started:.0f} s")
    try:
        audits = {"after": audit(corpus, peer, None)}
        if args.before:
            audits["before"] = audit(corpus, peer, args.before.resolve())
        pages = {r["page"] for records in audits.values() for r in records if r["target"]}
        source = open_source(peer.url, token_file=peer.token_file, timeout=60)
        try:
            server_pages = set(list_server_pages(source).pages)  # type: ignore[arg-type]
        finally:
            source.close()
        texts = served_texts(peer, pages & server_pages)
        stripped = gbrain_stripped(peer, texts)
        invalid = invalid_files(peer)
        peer, made = dry_runs(peer, corpus)
    finally:
        stop_gbrain(peer)
    rng = random.Random(args.seed)
    for name, records in sorted(audits.items(), reverse=True):
        truths = [truth_of(r, made, server_pages, invalid, texts, stripped) for r in records]
        right = [r["cause"] in EXPECTED[t] for r, t in zip(records, truths, strict=True)]
        by = Counter((r["cause"], t, ok) for r, t, ok in zip(records, truths, right, strict=True))
        print(f"\n{name}: {sum(right)} of {len(records)} causes right")
        for (cause, truth, ok), count in by.most_common():
            print(f"  {count:6d}  {cause:20s} truth {truth:20s} {'right' if ok else 'WRONG'}")
        outcome: dict[int, bool] = {}
        if name == "after" and not args.no_fixes:
            with tempfile.TemporaryDirectory() as tmp:
                fixed = Path(tmp) / corpus.name
                shutil.copytree(corpus, fixed)
                checks = apply_fixes(records, fixed)
                edges = fixed_graph(fixed)
            pairs = {(f, t) for f, t, _ in edges}
            for n, (page, target, link_source) in checks.items():
                outcome[n] = (
                    (page, target) in pairs
                    if link_source is None
                    else ((page, target, link_source) in edges)
                )
            works = Counter((records[n]["cause"], ok) for n, ok in outcome.items())
            print(f"  fixes applied: {len(outcome)}, working: {sum(outcome.values())}")
            for (cause, ok), count in sorted(works.items()):
                print(f"  {count:6d}  fix of {cause:20s} {'works' if ok else 'FAILS'}")
            for n in [n for n, ok in outcome.items() if not ok][:10]:
                r = records[n]
                print(f"    fails: {r['page']} -> {r['target']} ({r['cause']}): {r['fix']}")
        print(f"  sample of {args.sample} (seed {args.seed}):")
        for n in rng.sample(range(len(records)), min(args.sample, len(records))):
            r = records[n]
            note = {True: "fix works", False: "fix FAILS"}.get(outcome.get(n), "fix not applied")
            print(f"    {r['page']} -> {r['target']} (written: {r['written']}) [{r['side']}]"
                  f" {r['cause']}; truth {truths[n]}; {note}")  # fmt: skip


if __name__ == "__main__":
    main()
