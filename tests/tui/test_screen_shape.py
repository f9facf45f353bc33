"""The explorer's shape (issue 23 §3): one main screen that wires keys and messages;
no helper holds the screen or reaches into it; plain state knows no widget; the path
and walk views own their keys and the panes their workers; every modal a `…Dialog`
in `tui/dialogs/`; a small App; Textual's private modules only in `tui/markdown/`."""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

from textual.binding import Binding
from textual.screen import ModalScreen

import okf_explorer
from okf_explorer.tui.failures import ReportsWorkers
from okf_explorer.tui.widgets.graph.graph_panel import GraphPanel
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.path_view import PathView
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.graph.walk_view import WalkView
from okf_explorer.tui.widgets.page.pane import PagePane

PACKAGE = Path(okf_explorer.__file__).parent
TUI = PACKAGE / "tui"
OWN_PARTS = ("markdown", "web")
"""Parts of `tui/` with rules of their own (the Markdown engine, the web server)."""


def explorer_modules() -> Iterator[Path]:
    for path in sorted(TUI.rglob("*.py")):
        if path.relative_to(TUI).parts[0] not in OWN_PARTS:
            yield path


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def test_no_helper_reaches_into_the_screen() -> None:
    """`self._screen.query_one(…)`, `self.screen.run_worker(…)`, `owner.screen.…`: work
    or DOM reached through a screen the code does not own."""
    reach = re.compile(r"(\b_screen|\.screen)\.\w")
    found = [
        f"{path.relative_to(TUI)}:{number}: {line.strip()}"
        for path in explorer_modules()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if reach.search(line)
    ]
    assert found == []


TEXTUAL_SIGNATURES = {"PinnedFooter.bindings_changed"}
"""Overrides of Textual's own callbacks, whose signature Textual fixes (the footer's
`bindings_updated_signal` handler is handed the screen for the call, not kept)."""


def test_only_the_app_and_screens_take_a_screen() -> None:
    """No other class has a parameter typed as a screen (a pointer back to it); a
    screen's message (`MainScreen.SourceFailed`) is not a screen, nor is an override of
    a Textual callback (`TEXTUAL_SIGNATURES`)."""
    screen = re.compile(r"\b\w*Screen\b(?!\.)")
    found = []
    for path in explorer_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ClassDef):
                continue
            if any(re.search(r"Screen|App", ast.unparse(base)) for base in node.bases):
                continue
            for function in (n for n in node.body if isinstance(n, ast.FunctionDef)):
                if f"{node.name}.{function.name}" in TEXTUAL_SIGNATURES:
                    continue
                for arg in function.args.args + function.args.kwonlyargs:
                    if arg.annotation is not None and screen.search(ast.unparse(arg.annotation)):
                        found.append(f"{path.relative_to(TUI)}: {node.name}.{function.name}")
    assert found == []


def test_state_knows_no_widget_screen_or_dialog() -> None:
    """`tui/state/` is what the screen hands down: it imports no widget, screen or
    dialog and queries no DOM."""
    found = []
    for path in sorted((TUI / "state").glob("*.py")):
        text = path.read_text()
        imports = re.findall(r"okf_explorer\.tui\.(widgets|screens|dialogs)\b", text)
        queries = re.findall(r"\.query(_one)?\(", text)
        if imports or queries:
            found.append(path.name)
    assert found == []


def test_the_path_and_walk_views_own_their_keys() -> None:
    """Each binding of the two views runs one of the view's own actions."""
    for view in (PathView, WalkView):
        for binding in view.BINDINGS:
            assert isinstance(binding, Binding)
            action = binding.action.split("(", 1)[0]
            assert "." not in action and hasattr(view, f"action_{action}"), binding


def test_the_panes_run_their_own_workers_and_report_them() -> None:
    panes = (PagePane, LinkTree, TraversalPanel, PathView, WalkView, GraphPanel)
    assert [pane for pane in panes if not issubclass(pane, ReportsWorkers)] == []


def test_every_modal_is_a_dialog_in_dialogs() -> None:
    for path in explorer_modules():
        importlib.import_module(module_name(path))
    modals, stack = [], list(ModalScreen.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("okf_explorer."):
            modals.append(cls)
    assert len(modals) >= 9
    misplaced = [
        f"{cls.__module__}.{cls.__name__}"
        for cls in modals
        if not cls.__module__.startswith("okf_explorer.tui.dialogs.")
        or not cls.__name__.endswith("Dialog")
    ]
    assert misplaced == []


def test_the_app_is_small() -> None:
    """It reads options and pushes the main screen (frogmouth's is under 100 lines)."""
    assert len((TUI / "app.py").read_text().splitlines()) <= 150


def test_textual_private_modules_only_in_the_markdown_engine() -> None:
    private = re.compile(r"^\s*(from|import) textual(\.\w+)*\._", re.MULTILINE)
    found = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if private.search(path.read_text()) and "markdown" not in path.relative_to(PACKAGE).parts
    ]
    assert found == []
