"""The command line's commands, one module per family: `run_command` checks what argparse
could not, then hands the arguments to the command's family.

- `pages`: get, list, links, export; `graph`: stats, path, walk; `search`: search,
  mentions; `save`; `validate`; `audit`; `serve`: serve, web, browse.
- Most commands run over the `Brain` this module opens from the arguments (and closes);
  `serve`, `web`, `validate` and `audit` open what they need themselves (another token,
  a folder check first, two sources).
- A family is imported when its command runs, so `links` never loads the exporters,
  the TUI or the audit.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from okf_explorer.cli.common import note, open_brain
from okf_explorer.cli.reporting import UsageError
from okf_explorer.core.graph.traverse import DEPTH_CAP, clamp_depth

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain

OVER_A_BRAIN: dict[str, tuple[str, str]] = {
    "browse": ("serve", "run_browse"),
    "get": ("pages", "run_get"),
    "list": ("pages", "run_list"),
    "links": ("pages", "run_links"),
    "export": ("pages", "run_export"),
    "stats": ("graph", "run_stats"),
    "path": ("graph", "run_path"),
    "walk": ("graph", "run_walk"),
    "search": ("search", "run_search"),
    "mentions": ("search", "run_mentions"),
    "save": ("save", "run_save"),
}
"""Command → (family module, function taking the open brain and the arguments)."""

ON_THEIR_OWN: dict[str, tuple[str, str]] = {
    "serve": ("serve", "run_serve"),
    "web": ("serve", "run_web"),
    "validate": ("validate", "run_validate"),
    "audit": ("audit", "run_audit_command"),
}
"""Command → (family module, function taking the arguments alone)."""


def run_command(args: argparse.Namespace) -> int:
    """Validate what argparse could not, open the brain, run the command."""
    command = args.command or "browse"
    check_arguments(args)
    if command in ON_THEIR_OWN:
        run_alone: Callable[[argparse.Namespace], int] = _function(*ON_THEIR_OWN[command])
        return run_alone(args)
    run: Callable[[Brain, argparse.Namespace], int] = _function(*OVER_A_BRAIN[command])
    brain = open_brain(args, token_file=args.token_file)
    try:
        return run(brain, args)
    finally:
        brain.close()


def _function(family: str, name: str) -> Callable[..., int]:
    module = importlib.import_module(f"{__name__}.{family}")
    function: Callable[..., int] = getattr(module, name)
    return function


def check_arguments(args: argparse.Namespace) -> None:
    """Before any source is opened: `--backlinks` is `--direction in` (not both), the
    depth is clamped to 1-10 with a note, and `--status` / `--min-trust` are checked."""
    parser = getattr(args, "command_parser", None)
    if getattr(args, "backlinks", False):
        if args.direction is not None:
            raise UsageError(parser, "--backlinks and --direction are mutually exclusive")
        args.direction = "in"
    if getattr(args, "direction", "out") is None:
        args.direction = "out"
    if hasattr(args, "depth"):
        args.depth = _clamped_depth(args.depth)
    if hasattr(args, "min_trust"):
        from okf_explorer.cli.commands.pages import okf_filter_of

        args.okf_filter = okf_filter_of(args)


def _clamped_depth(depth: int) -> int:
    clamped = clamp_depth(depth)
    if clamped != depth:
        note(f"depth {depth} clamped to {clamped} (depth is 1 to {DEPTH_CAP})")
    return clamped
