"""The grammar of the `okf-explorer` command line (SPEC §6): `build_parser`, every
command's words and options, and the types that turn a word into a value (each raises
`argparse.ArgumentTypeError` with the one line the user sees). What each command does
and prints is in its family's module under `cli/commands/`.

The shared options (`--source`, `--token-file`, `--timeout`, `--scan`, `--debug`)
are accepted before or after the subcommand: the subcommands get a copy whose
defaults are `SUPPRESS`, so an option given after the subcommand overrides the
same option given before it, and one not given does not clobber it.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from okf_explorer import __version__
from okf_explorer.core.graph.best_paths import WALK_DIRECTIONS
from okf_explorer.core.graph.paths import (
    DEFAULT_K,
    DEFAULT_MAX_HOPS,
    K_CAP,
    MAX_HOPS_CAP,
    PATH_DIRECTIONS,
)
from okf_explorer.core.text_safety import printable
from okf_explorer.net import DEFAULT_HOST, SERVE_PORT, WEB_PORT

PROG = "okf-explorer"
EXPORT_FORMATS = ("json", "jsonl", "dot", "graphml", "mermaid")
DIRECTION_CHOICES = ("out", "in", "both", "neighbourhood")
SLUG_HELP = "a page slug, or a name resolved like a wiki link (case, file name, alias, title)"
PATH_HELP = (
    "the k shortest simple paths between two pages, each hop with its relation, "
    "resolution rule and sentence"
)
WALK_HELP = "best paths from several roots along weighted links, one row per page reached"

EXIT_USAGE = 2
"""Bad arguments: argparse's own status, and ours for what a command cannot use."""
UNRECOGNIZED = "unrecognized arguments:"
"""How argparse starts the error for words no argument takes."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (SPEC §6), pointing at --help."""

    command_names: frozenset[str] = frozenset()
    """The commands' names (`build_parser` sets them)."""

    def error(self, message: str) -> NoReturn:
        shown = printable(message)  # `unrecognized arguments` repeats them raw
        hint = f"see '{self.prog} --help'"
        if message.startswith(UNRECOGNIZED) and (place := source_among(message.split()[2:])):
            hint = f"a source goes in --source {printable(place)}"  # `get SLUG VAULT`
        self.exit(EXIT_USAGE, f"{self.prog}: error: {shown} ({hint})\n")


START, AGAINST = "--start", "--against"
BROWSE_ONLY = frozenset({START, AGAINST})
"""The options only `browse` takes (`build_parser` adds them by these names)."""


def opened_as_browse(argv: Sequence[str], parser: OneLineParser) -> list[str]:
    """`argv`, or `browse` then `argv` when its first word is no command but a source: a
    folder, a path (`./vault`, `notes/`: when it is not there, browse says so) or an
    http(s) URL. `okf-explorer ./my-vault` opens the explorer on it as `okf-explorer
    browse ./my-vault` does. A command's name wins over a folder so named
    (`okf-explorer browse get` opens a folder called `get`). An option only browse takes
    (`--start`, `--against`), with no command, is browse's too."""
    words = list(argv)
    browse_only = any(word.split("=", 1)[0] in BROWSE_ONLY for word in words)
    if browse_only and not parser.command_names.intersection(words):
        return ["browse", *words]  # `okf-explorer --start index`
    if not words or words[0].startswith("-") or words[0] in parser.command_names:
        return words
    first = words[0]
    if first.startswith(("http://", "https://", ".")) or "/" in first or Path(first).is_dir():
        return ["browse", *words]
    return words


def source_among(words: list[str]) -> str | None:
    """The first of `words` that names a source where none is taken: a folder path
    (`~/vault`, `./docs/`; a word without a `/` is a word even if a folder is so named)
    or an MCP URL (`http…/mcp`; a page's URL is a search). `search WORDS VAULT` would
    search the default source for the path's words; `get SLUG VAULT` is an error that
    says where the source goes."""
    for word in words:
        if word.startswith(("http://", "https://")) and word.rstrip("/").endswith("/mcp"):
            return word
        if "/" in word and ":" not in word and Path(word).expanduser().is_dir():
            return word
    return None


def build_parser() -> OneLineParser:
    """The whole grammar of SPEC §6; `main` parses with it."""
    parser = OneLineParser(
        prog=PROG,
        description="Explore a knowledge brain: an OKF bundle or vault folder, or a gbrain "
        "server over MCP. Without a command, opens the terminal explorer "
        "(`okf-explorer SRC` is `okf-explorer browse SRC`).",
        epilog="SRC is a folder or an http(s)://.../mcp URL. Without one: $OKF_SOURCE, then "
        "$GBRAIN_MCP_URL, then the bundled sample brain. Token: --token-file, then "
        "$GBRAIN_TOKEN.",
        parents=[_shared_options(suppress=False)],
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    shared = _shared_options(suppress=True)

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text, parents=[shared])
        sub.set_defaults(command_parser=sub)
        return sub

    browse = command("browse", "open the terminal explorer")
    browse.add_argument("src", nargs="?", metavar="SRC", help="folder or MCP URL")
    browse.add_argument(START, metavar="SLUG", help="page to open first")
    browse.add_argument(
        AGAINST,
        metavar="URL",
        help="a server loaded from this folder: each page shows where it disagrees",
    )

    get = command("get", "print a page body (or the whole page as JSON)")
    get.add_argument("slug", metavar="SLUG", help=SLUG_HELP)
    get.add_argument("--json", action="store_true", help="the whole page as JSON")

    listing = command("list", "one line a page: slug, then type")
    listing.add_argument("--type", metavar="T", help="only pages of this type")
    listing.add_argument(
        "--tag", metavar="T", help="only pages with this tag (or one nested in it)"
    )
    listing.add_argument("-n", type=non_negative, metavar="N", help="at most N pages")
    _okf_filter_options(listing, "only pages")
    listing.add_argument("--json", action="store_true", help="a JSON array of page objects")

    links = command("links", "the pages a page links to (or that link to it)")
    links.add_argument("slug", metavar="SLUG", help=SLUG_HELP)
    links.add_argument("--backlinks", action="store_true", help="same as --direction in")
    _walk_options(links, default_direction=None)
    _implied_option(links)
    _okf_filter_options(links, "only edges between pages")
    links.add_argument("--json", action="store_true", help="OKF edge records as a JSON array")
    links.add_argument(
        "--explain",
        action="store_true",
        help="per link: page, target as written, page it leads to, rule, candidates",
    )

    export = command("export", "write the traversal from a page as OKF edges")
    export.add_argument("slug", metavar="SLUG", help=SLUG_HELP)
    _walk_options(export, default_direction="out")
    _implied_option(export)
    _okf_filter_options(export, "only edges between pages")
    export.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    export.add_argument(
        "--format",
        choices=EXPORT_FORMATS,
        help="default: from the -o file's suffix (.jsonl, .dot, .gv, .graphml, .mmd), else json",
    )

    _walk_arguments(command("walk", WALK_HELP))

    stats = command("stats", "counts, hubs, orphans, dead ends and dangling targets")
    stats.add_argument("--json", action="store_true", help="one JSON object")
    stats.epilog = (
        "Text: 'label: N' counts, then the sections hubs by links in / out (top 10, "
        "'DEGREE SLUG'), orphans, dead ends, dangling targets (each followed by the "
        "pages linking to it) and dangling targets that look like pages ('TARGET → SLUG "
        "(differences)'). --json: {counts, hubs: {in, out}, orphans, dead_ends, dangling, "
        "look_alikes}."
    )

    analyze = command("analyze", "communities, central pages, bridges and suggested links")
    analyze.add_argument("--json", action="store_true", help="one JSON object")
    analyze.add_argument(
        "--top", type=non_negative, default=10, metavar="N", help="list N of each (default 10)"
    )
    analyze.epilog = (
        "Text: five sections, communities ('ID SIZE pages LABEL'), central pages "
        "('PAGERANK IN-DEGREE SLUG'), bridges ('SLUG splits A + B'), bridge edges "
        "('FROM → TO') and suggested links ('SCORE FROM → TO (REASON)'). --json: "
        "{communities, central, bridges, bridge_edges, suggested}."
    )

    validate = command("validate", "check a bundle folder's OKF v0.2 conformance (§11)")
    validate.add_argument("src", nargs="?", metavar="SRC", help="bundle folder")
    validate.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    validate.add_argument(
        "--all", action="store_true", help="every finding on its own line (else folded by kind)"
    )
    validate.add_argument("--json", action="store_true", help="one JSON object")
    validate.epilog = (
        "Text: one 'SLUG<TAB>error|warning<TAB>CODE<TAB>MESSAGE' line per finding (errors "
        "first; the same finding on several pages is one 'N pages' line unless --all), then "
        "'N files: E errors, W warnings: conformant|not conformant', the extension keys "
        "(OKF §4.1) with their page counts, then a note that warnings never make a bundle "
        "non-conformant. --json: {conformant, strict, files, counts: {errors, warnings}, "
        "errors, warnings, note, extensions}. Exit 0 conformant, 1 not, 2 bad "
        "arguments (a missing folder or an MCP server: validate needs a folder)."
    )

    search = command("search", "full-text search of the pages, best first, with snippets")
    search.add_argument(
        "query",
        nargs="+",
        metavar="QUERY",
        help='words, "a phrase", prefix*, OR, NOT, type:T, tag:T, path:PREFIX',
    )
    search.add_argument(
        "--limit", type=non_negative, default=20, metavar="N", help="at most N hits (default 20)"
    )
    search.add_argument("--json", action="store_true", help="a JSON array of hits")
    search.add_argument(
        "--excluded",
        action="store_true",
        help="also the pages the vault's Obsidian settings exclude (Excluded files)",
    )
    search.epilog = (
        "Text: one 'SLUG<TAB>SNIPPET' line a hit, best first; each hit in the snippet is "
        "between « and ». --json: [{slug, title, type, score, snippet}]. Pages the vault's "
        ".obsidian/app.json excludes (userIgnoreFilters) are left out unless --excluded. "
        "Bad query syntax exits 2."
    )

    mentions = command("mentions", "pages that name a page without linking to it")
    mentions.add_argument("slug", metavar="SLUG", help=SLUG_HELP)
    mentions.add_argument("--json", action="store_true", help="a JSON array of mentions")
    mentions.epilog = (
        "Text: one 'SLUG<TAB>SENTENCE' line a page, slug order, the mention between « and ». "
        "--json: [{slug, title, sentence, start, end}]."
    )

    _path_arguments(command("path", PATH_HELP))

    audit = command("audit", "compare a folder's graph with a server's, every difference explained")
    audit.add_argument("folder", metavar="FOLDER", help="the folder the server was loaded from")
    audit.add_argument(
        "--against", required=True, metavar="URL", help="the http(s)://.../mcp server"
    )
    audit.add_argument("--json", action="store_true", help="one JSON record per difference")
    audit.epilog = (
        "Text: the edge and page counts of each side, then the differences grouped by cause, "
        "each cause with its count, its fix and its first examples. --json: a list of "
        "{page, target, written, cause, side, fix}. Exit 0 the graphs agree, 1 they differ, "
        "2 bad arguments."
    )

    save = command("save", "save a slice (or, with --trail, a trail) as a page of the brain")
    save.add_argument("slug", nargs="+", metavar="SLUG", help="the slice's roots, or the trail")
    save.add_argument("--as", dest="new_slug", required=True, metavar="NEW_SLUG", help="new page")
    _walk_options(save, default_direction="out")
    save.add_argument("--trail", action="store_true", help="the SLUGs in order are a trail")
    save.add_argument("--dry-run", action="store_true", help="print the page, write nothing")
    save.add_argument("--json", action="store_true", help="one JSON object")
    save.epilog = (
        "Text: 'OUTCOME<TAB>SLUG<TAB>WHERE' (written or unchanged, exit 0); any other outcome "
        "(refused, conflict, unavailable, failed) exits 1 with one stderr line. --json: "
        "{outcome, slug, where, detail, attempts, idempotency_key}. A page already at NEW_SLUG "
        "is kept when it holds this very slice (unchanged), else refused: choose another --as."
    )

    serve = command("serve", "serve the brain over MCP (streamable HTTP or stdio)")
    serve.add_argument("src", nargs="?", metavar="SRC", help="folder or MCP URL")
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"default {DEFAULT_HOST}")
    serve.add_argument("--port", type=port_number, default=SERVE_PORT, help=f"default {SERVE_PORT}")
    serve.add_argument("--stdio", action="store_true", help="speak MCP on stdin/stdout")
    serve.add_argument(
        "--gbrain-shapes", choices=("current", "0.46.28"), default="current",
        help="answer as current gbrain (default) or as the pinned 0.46.28 where they differ "
        "(traverse_graph without direction: node form)",
    )  # fmt: skip
    serve.add_argument(
        "--show-private", action="store_true",
        help="serve pages marked `visibility: private` too (hidden by default, as gbrain "
        "hides them from every MCP caller)",
    )  # fmt: skip

    web = command("web", "serve the explorer to web browsers (one explorer per tab)")
    web.add_argument("src", nargs="?", metavar="SRC", help="folder or MCP URL")
    web.add_argument("--host", default=DEFAULT_HOST, help=f"default {DEFAULT_HOST}")
    web.add_argument("--port", type=port_number, default=WEB_PORT, help=f"default {WEB_PORT}")
    web.add_argument("--start", metavar="SLUG", help="page each explorer opens first")
    web.epilog = (
        "--token-file F: the token browsers must give (required to listen beyond loopback); "
        "open http://HOST:PORT/#token=TOKEN to give it once in the address. "
        "An MCP source authenticates with $GBRAIN_TOKEN."
    )
    parser.command_names = frozenset(commands.choices)
    return parser


def _shared_options(*, suppress: bool) -> argparse.ArgumentParser:
    """The options every command takes; `suppress` for the copies on subcommands."""

    def default(value: object) -> object:
        return argparse.SUPPRESS if suppress else value

    shared = argparse.ArgumentParser(add_help=False)
    group = shared.add_argument_group("source options")
    group.add_argument(
        "--source", metavar="SRC", default=default(None), help="folder or http(s)://.../mcp URL"
    )
    group.add_argument(
        "--token-file",
        metavar="F",
        type=Path,
        default=default(None),
        help="file holding the bearer token (for serve and web: the token clients must send)",
    )
    group.add_argument(
        "--timeout",
        metavar="S",
        type=positive_seconds,
        default=default(None),
        help="deadline in seconds for each MCP request (default 10)",
    )
    group.add_argument(
        "--scan",
        action="store_true",
        default=default(False),
        help="scan page bodies even when the server has a stored graph",
    )
    group.add_argument(
        "--debug", action="store_true", default=default(False), help="show tracebacks"
    )
    return shared


def _walk_options(parser: argparse.ArgumentParser, *, default_direction: str | None) -> None:
    parser.add_argument(
        "--direction", choices=DIRECTION_CHOICES, default=default_direction, help="default out"
    )
    parser.add_argument(
        "--depth", type=whole_number, default=1, metavar="N", help="hops, 1-10 (default 1)"
    )
    parser.add_argument(
        "--rel",
        action="append",
        type=relation_name,
        metavar="R",
        help="follow only edges of relation R (repeatable): links (body links), "
        "derived_from, related_to, ...",
    )


def _implied_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--implied",
        action="store_true",
        help="also walk implied inverse edges (down for up, employs for works_at, …), "
        "marked implied",
    )


def _okf_filter_options(parser: argparse.ArgumentParser, kept: str) -> None:
    """`--status S` (repeatable, or a comma list) and `--min-trust T` (`core.okf.filter`)."""
    parser.add_argument(
        "--status",
        action="append",
        metavar="S",
        help=f"{kept} of OKF status S (draft, stable, deprecated; absent means stable); "
        "repeatable or a comma list",
    )
    parser.add_argument(
        "--min-trust",
        metavar="T",
        help=f"{kept} of at least trust tier T: unverified < machine-confirmed < human-reviewed",
    )


def _path_arguments(parser: argparse.ArgumentParser) -> None:
    """`path A B` (output in `cli.commands.graph`)."""
    parser.add_argument("frm", metavar="A", help=SLUG_HELP)
    parser.add_argument("to", metavar="B", help=SLUG_HELP)
    parser.add_argument(
        "--k", type=whole_number, default=DEFAULT_K, metavar="N",
        help=f"how many paths, 1-{K_CAP} (default {DEFAULT_K})",
    )  # fmt: skip
    parser.add_argument(
        "--direction", choices=PATH_DIRECTIONS, default="out",
        help="out: follow links (default); in: follow backlinks; any: either way",
    )  # fmt: skip
    parser.add_argument(
        "--avoid", action="append", default=[], metavar="hubs|reserved|SLUG",
        help="never pass through hubs, OKF reserved pages (index, log) or this page "
        "(repeatable; A and B are kept)",
    )  # fmt: skip
    parser.add_argument(
        "--rel", action="append", type=relation_name, metavar="R",
        help="follow only edges of relation R (repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--max-hops", type=whole_number, default=DEFAULT_MAX_HOPS, metavar="N",
        help=f"list no path longer than N hops, 1-{MAX_HOPS_CAP} (default {DEFAULT_MAX_HOPS})",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="a JSON list of paths")
    parser.epilog = (
        "Text: 'path N · H hops[ · via hub SLUG…]', then one line a hop: "
        "'FROM ─rel→ TO  (RULE)  \"sentence\"' ('←rel─': walked against the link). "
        "--json: [{path, via_hub, edges: [OKF edge records, hop = position], hops: "
        "[{written_on, written, rule, ambiguous, context}]}]. Hubs: the top 1 % of pages "
        "by pages linking in (at least 10), and every index page. No path: exit 1."
    )


def _walk_arguments(parser: argparse.ArgumentParser) -> None:
    """`walk --root …` (output in `cli.commands.graph`)."""
    parser.add_argument(
        "--root",
        action="append",
        required=True,
        metavar="ROOT",
        help="a page (slug or name), tag:T (every page with tag T) or type:T; repeatable",
    )
    parser.add_argument(
        "--depth", type=whole_number, default=3, metavar="N", help="hops, 1-10 (default 3)"
    )
    parser.add_argument(
        "--min-weight",
        type=minimum_weight,
        default=0.0,
        metavar="W",
        help="follow only links weighing at least W, 0-1 (default 0: every link)",
    )
    parser.add_argument("--direction", choices=WALK_DIRECTIONS, default="out", help="default out")
    parser.add_argument(
        "--rel", action="append", type=relation_name, metavar="R",
        help="follow only edges of relation R (repeatable): links (body links), up, related_to…",
    )  # fmt: skip
    _implied_option(parser)
    parser.add_argument("--json", action="store_true", help="a JSON array, one object per row")
    parser.epilog = (
        "A link's weight: 1 for a stated relation (frontmatter, sources); for a body link, "
        "its share of the linking page's link mentions. A path weighs the product of its "
        "links. Text: 'WEIGHT<TAB>HOPS<TAB>SLUG<TAB>via PATH' by weight; --json: "
        "[{slug, weight, hops, root, path, edges, weights}]."
    )


# --- argument types: a word → a value, or the one line the user sees ----------------


def relation_name(text: str) -> str:
    """`--rel R`: a relation name, not empty."""
    name = text.strip()
    if not name:
        raise argparse.ArgumentTypeError("a relation name must not be empty")
    return name


def whole_number(text: str) -> int:
    """`--depth N`: any whole number (the command clamps it to 1-10)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"depth must be a whole number from 1 to 10, not {text!r}"
        ) from None


def non_negative(text: str) -> int:
    """A count: a whole number 0 or more."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number 0 or more, not {text!r}")
    return value


def positive_seconds(text: str) -> float:
    """A duration: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}")
    return value


def port_number(text: str) -> int:
    """A TCP port, 0 to 65535."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535, not {text!r}")
    return value


def minimum_weight(text: str) -> float:
    """`--min-weight W`: a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, not {text!r}")
    return value
