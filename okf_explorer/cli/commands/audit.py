"""`okf-explorer audit FOLDER --against URL [--json]`: the folder's graph against the
server's, every difference with a cause (`core.audit.compare`).

Text output: `files: N pages, E edges` and `server: N pages, E edges` (edges are
distinct (page, target) pairs, pages named as the server names them); against gbrain a
line `gbrain settings, from its edges: global_basename on|off|unknown (…),
include-frontmatter …` (what `core.audit.compare` decided, and why when unknown), and the link
targets the server renamed (slug aliases), if any; then, per cause in
`core.audit.compare.CAUSES` order, a heading `CAUSE (N)` — followed by `: FIX` when every
difference of that cause has the same fix — and the first `EXAMPLES` differences, one a
line: `  PAGE -> TARGET  (written: W)  [SIDE]` (or `  page PAGE (FILE)  [SIDE]`), each
followed by `    fix: FIX` when the fixes differ; `  … and N more` when there are more;
then a last line `N differences` or `the graphs agree`. `--json` prints a list of
records `{page, target, written, cause, side, fix}`. Exit 0 when the graphs agree, 1 when
they differ (or the server fails: one line on stderr), 2 on bad arguments (FOLDER not a
folder, URL not an http(s) MCP URL).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from okf_explorer.cli.reporting import UsageError
from okf_explorer.core.audit.compare import CAUSES
from okf_explorer.core.audit.model import Difference
from okf_explorer.core.text_safety import json_text, printable

if TYPE_CHECKING:
    from okf_explorer.sources.audit_gather import AuditRun

EXAMPLES = 5
"""Differences shown per cause in the text report."""


def run_audit_command(args: argparse.Namespace) -> int:
    """Check the arguments, gather both sides, print the report; 0 agree, 1 differ."""
    from okf_explorer.sources.audit_gather import run_audit
    from okf_explorer.sources.factory import is_url, open_source
    from okf_explorer.sources.gbrain.source import McpSource

    parser = args.command_parser
    folder = Path(args.folder).expanduser()
    if not folder.is_dir():
        raise UsageError(parser, f"FOLDER {args.folder!r} is not a folder")
    if not is_url(args.against):
        raise UsageError(parser, f"--against {args.against!r} is not an http(s)://.../mcp URL")
    server = open_source(args.against, token_file=args.token_file, timeout=args.timeout)
    try:
        if not isinstance(server, McpSource):
            raise UsageError(parser, f"--against {args.against!r} is not an MCP server URL")
        run = run_audit(folder, server)
    finally:
        server.close()
    if args.json:
        text = json_text([d.to_json() for d in run.differences], indent=2) + "\n"
    else:
        text = report_text(run)
    sys.stdout.write(text)
    return 1 if run.differences else 0


def report_text(run: AuditRun) -> str:
    """The human report (module docstring)."""
    lines = [
        f"files: {len(run.files.pages)} pages, {run.files_edges} edges",
        f"server: {len(run.server.pages)} pages, {run.server_edges} edges",
    ]
    if run.gbrain:
        lines.append("gbrain settings, from its edges: " + _settings(run))
    if run.renamed:
        shown = ", ".join(f"{old} → {new}" for old, new in sorted(run.renamed.items())[:EXAMPLES])
        lines.append(f"renamed on the server (slug aliases), compared under the new name: {shown}")
    grouped: dict[str, list[Difference]] = defaultdict(list)
    for difference in run.differences:
        grouped[difference.cause].append(difference)
    for cause, found in sorted(grouped.items(), key=lambda item: list(CAUSES).index(item[0])):
        shared = len({d.fix for d in found}) == 1
        lines += ["", f"{cause} ({len(found)})" + (f": {found[0].fix}" if shared else "")]
        for difference in found[:EXAMPLES]:
            lines.append("  " + _example(difference))
            if not shared:
                lines.append(f"    fix: {difference.fix}")
        if len(found) > EXAMPLES:
            lines.append(f"  … and {len(found) - EXAMPLES} more (--json lists every one)")
    total = len(run.differences)
    lines += ["", f"{total} differences" if total else "the graphs agree"]
    return "".join(printable(line) + "\n" for line in lines)


def _settings(run: AuditRun) -> str:
    """`global_basename off, include-frontmatter unknown (edges disagree: 2 on, 1 off)`."""
    said = []
    shown = (("global_basename", "global_basename"), ("include_frontmatter", "include-frontmatter"))
    for setting, name in shown:
        state = run.settings.get(setting)
        on, off = run.evidence.get(setting, (0, 0))
        if state is None:
            why = f"edges disagree: {on} on, {off} off" if on and off else "no edge tells"
            said.append(f"{name} unknown ({why})")
        else:
            said.append(f"{name} {'on' if state else 'off'}")
    return ", ".join(said)


def _example(difference: Difference) -> str:
    side = f"[{difference.side}]"
    if difference.target is None:
        return f"page {difference.page} ({difference.written or 'no file'})  {side}"
    written = f"  (written: {difference.written})" if difference.written else ""
    return f"{difference.page} -> {difference.target}{written}  {side}"
