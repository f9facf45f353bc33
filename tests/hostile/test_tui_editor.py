"""Issue 22 item 5: `E` with an `$EDITOR` / `$VISUAL` that cannot be run.

A missing program (`definitely-missing-editor`, `my editor`: a program `my`) raised
`FileNotFoundError` and unbalanced quotes (`vim "x`) raised shlex's `ValueError`
out of the key's action: Textual printed a traceback and the whole explorer exited
with status 1. Now each is a notification naming the variable, and browsing goes on.

The app runs headless under Pilot, so the hand-over to the terminal
(`App.suspend`) is replaced by a no-op context, as in tests/tui/test_live_reload.py;
the editor itself is really started with `subprocess`.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from tests.bundles import write_pages
from tests.tui.conftest import settle

pytestmark = pytest.mark.slow

BROKEN = {
    "missing program": (
        "definitely-missing-editor",
        "$EDITOR cannot be run: definitely-missing-editor (No such file or directory)",
    ),
    "a space in the name": ("my editor", "$EDITOR cannot be run: my (No such file or directory)"),
    "unbalanced quotes": ('vim "x', "$EDITOR cannot be read as a command: No closing quotation"),
    "a folder": ("/", "$EDITOR cannot be run: / (Permission denied)"),
}


@pytest.mark.parametrize("variable", ["EDITOR", "VISUAL"])
@pytest.mark.parametrize("case", list(BROKEN))
async def test_a_broken_editor_is_a_notification_and_browsing_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, variable: str
) -> None:
    value, said = BROKEN[case]
    for name in ("EDITOR", "VISUAL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, value)
    bundle = write_pages(tmp_path / "b", {"index": "# Home\n\n[[other]]\n", "other": "# Other\n"})
    app = make_app(Brain(BundleSource(bundle), cache_dir=False), start="index", watch_files=False)
    monkeypatch.setattr(app, "suspend", contextlib.nullcontext)  # no terminal to hand over
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("E")
        await settle(pilot)
        messages = [note.message for note in app._notifications]
        assert messages[-1] == said.replace("$EDITOR", f"${variable}")
        assert app.is_running and app.return_code is None
        await pilot.press("plus")
        panel = app.screen.query_one(TraversalPanel)
        await settle(pilot, lambda: panel.loaded)
        assert str(panel.border_title) == "index · depth 2 · out"
