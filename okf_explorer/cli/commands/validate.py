"""`okf-explorer validate [SRC] [--strict] [--all] [--json]`: OKF v0.2 §11 conformance of a folder.

The rules and finding codes are in `core.okf.validate`. Exit status: 0 conformant,
1 not conformant (an error; with `--strict`, a warning too), 2 bad arguments,
including a source that is not an existing folder (so 1 always means "not
conformant"): an MCP server is refused in one line on stderr, since validate needs a
bundle folder (conformance is about the files).

The text output, exactly: one line per finding, errors first, then warnings,
each in slug order (SLUG is the file path inside the bundle without `.md`)

    SLUG<TAB>error|warning<TAB>CODE<TAB>MESSAGE

except that findings saying the same thing (code and message: one key, one missing
target; a line number in the message aside, the line then naming their range, `at
lines 2-14`) on several pages are one line, at the place of the first, unless `--all`:

    N pages<TAB>error|warning<TAB>CODE<TAB>MESSAGE · SLUG, SLUG, SLUG … (--all lists each)

and more than `core.okf.validate.FOLD_ON_A_PAGE` findings of one code on one page, each
saying something else (a log's headings that are no dates), are one line at the place of
the first, quoting the first three (SEVERITY `error` or `warning`), unless `--all`:

    SLUG<TAB>SEVERITY<TAB>CODE<TAB>MESSAGE; MESSAGE; MESSAGE … (N on this page; --all lists each)

then a summary line

    N files: E errors, W warnings: conformant
    N files: E errors, W warnings: not conformant
    N files: E errors, W warnings: not conformant (--strict: warnings fail)

then, when pages carry keys OKF v0.2 does not define (extensions, §4.1: not findings),

    extension keys (OKF v0.2 §4.1 allows them): KEY on N pages, KEY on N pages, …

(the `EXTENSIONS_SHOWN` most used unless `--all`), then the closing line
`core.okf.validate.CONSUMER_NOTE` (warnings never make a bundle
non-conformant; consumers must not reject a bundle for missing optional fields,
unknown types or broken links). Slugs and messages show control characters as
escapes (`printable`). `--json` prints one object:

    {"conformant": bool, "strict": bool, "files": N,
     "counts": {"errors": E, "warnings": W},
     "errors": [{"slug", "code", "message"}, ...],
     "warnings": [{"slug", "code", "message"}, ...],
     "note": CONSUMER_NOTE,
     "extensions": {KEY: N, ...}}

(every finding on its own, with or without `--all`; `extensions` counts pages by key,
most used first).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from okf_explorer.cli.commands import open_brain
from okf_explorer.cli.reporting import UsageError, emit
from okf_explorer.core.okf.validate import (
    CONSUMER_NOTE,
    FindingGroup,
    ValidationReport,
    validate_brain,
)
from okf_explorer.core.text_safety import json_text, printable

EXIT_CONFORMANT = 0
EXIT_NOT_CONFORMANT = 1
EXAMPLES = 3
"""Pages named on a folded line (`--all` lists each)."""
EXTENSIONS_SHOWN = 8
"""Extension keys named on their line (`--all` names each)."""
EMPTY_KEY = '""'
"""How a key with no name (Obsidian's Properties view leaves `"":` behind) is named."""
NEEDS_FOLDER = "validate needs a bundle folder, not an MCP server (conformance is about the files)"


def check_folder_source(args: argparse.Namespace) -> None:
    """`UsageError` (exit 2) unless the source the arguments name is a folder."""
    from okf_explorer.sources.factory import resolve_spec

    spec = getattr(args, "src", None) or args.source
    resolved = resolve_spec(spec)
    if resolved.kind != "folder":
        raise UsageError(args.command_parser, NEEDS_FOLDER)
    if not Path(resolved.location).expanduser().is_dir():
        raise UsageError(args.command_parser, f"{resolved.location} is not a folder")


def run_validate(args: argparse.Namespace) -> int:
    """Check the source is a folder (else exit 2), validate it, print the report as
    text or as JSON with `--json`; the exit status."""
    check_folder_source(args)
    brain = open_brain(args, token_file=args.token_file)
    try:
        report = validate_brain(brain)
    finally:
        brain.close()
    strict, every = bool(args.strict), bool(args.all)
    emit(validate_json(report, strict) if args.json else validate_text(report, strict, every))
    return EXIT_CONFORMANT if report.conformant(strict=strict) else EXIT_NOT_CONFORMANT


def validate_text(report: ValidationReport, strict: bool, every: bool = False) -> str:
    """The text output described in the module docstring (every line ends in a newline);
    `every` (`--all`): each finding on its own line and every extension key named."""
    if every:
        lines = [
            "\t".join((printable(f.slug), f.severity, f.code, printable(f.message)))
            for f in report.findings
        ]
    else:
        lines = [group_line(group) for group in report.groups()]
    lines.append(summary_line(report, strict))
    if report.extensions:
        lines.append(extensions_line(report.extensions, every))
    lines.append(CONSUMER_NOTE)
    return "".join(line + "\n" for line in lines)


def group_line(group: FindingGroup) -> str:
    """One finding's line, or a folded one: `N pages`, then the message and the first pages;
    or a page's many findings of one code: the first few, and how many in all."""
    message = printable(group.message)
    if group.on_the_page > 1:
        shown = "; ".join(printable(said) for said in group.messages)
        message = f"{shown} … ({group.on_the_page} on this page; --all lists each)"
    if len(group.slugs) == 1:
        return "\t".join((printable(group.slugs[0]), group.severity, group.code, message))
    named = ", ".join(printable(slug) for slug in group.slugs[:EXAMPLES])
    more = " …" if len(group.slugs) > EXAMPLES else ""
    message = f"{message} · {named}{more} (--all lists each)"
    return "\t".join((f"{len(group.slugs)} pages", group.severity, group.code, message))


def extensions_line(extensions: tuple[tuple[str, int], ...], every: bool) -> str:
    """`extension keys (OKF v0.2 §4.1 allows them): x-llmwiki on 5120 pages, …`."""
    shown = extensions if every else extensions[:EXTENSIONS_SHOWN]
    named = ", ".join(
        f"{printable(key) or EMPTY_KEY} on {count} {'page' if count == 1 else 'pages'}"
        for key, count in shown
    )
    rest = len(extensions) - len(shown)
    more = f", and {rest} more (--all names each)" if rest else ""
    return f"extension keys (OKF v0.2 §4.1 allows them): {named}{more}"


def summary_line(report: ValidationReport, strict: bool) -> str:
    """`N files: E errors, W warnings: conformant` (or why not)."""
    counts = f"{report.files} files: {len(report.errors)} errors, {len(report.warnings)} warnings"
    if report.conformant(strict=strict):
        return f"{counts}: conformant"
    if not report.errors:
        return f"{counts}: not conformant (--strict: warnings fail)"
    return f"{counts}: not conformant"


def validate_json(report: ValidationReport, strict: bool) -> str:
    """The `--json` output: one object, then a newline."""
    document: dict[str, Any] = {
        "conformant": report.conformant(strict=strict),
        "strict": strict,
        "files": report.files,
        "counts": {"errors": len(report.errors), "warnings": len(report.warnings)},
        "errors": [f.to_json() for f in report.errors],
        "warnings": [f.to_json() for f in report.warnings],
        "note": CONSUMER_NOTE,
        "extensions": dict(report.extensions),
    }
    return json_text(document, indent=2) + "\n"
