"""Live reload: watch a bundle's folder and say when its pages change; `E` edits one.

`FolderWatcher` is a non-visual widget: a thread worker runs `watchfiles.watch` on
the folder (inotify / FSEvents / ReadDirectoryChangesW, polling where there is none)
and posts `FilesChanged` for each batch of changes to `.md` files outside hidden
folders; the screen then refreshes the index, which rescans only the files whose
fingerprint changed (`core.index.build.build_index`). Setting the stop event ends the
watch within one `STEP_MS`; the widget sets it when it is removed (the app quits).
Sources that are not folders (MCP) are never watched.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import threading
from pathlib import Path

from textual import work
from textual.app import App, SuspendNotSupported
from textual.message import Message
from textual.widget import Widget

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.text_safety import printable

STEP_MS = 50
"""Quiet time (ms) that ends a batch of changes: a save is seen ~50 ms after it."""
DEBOUNCE_MS = 400
"""Longest time (ms) changes are gathered into one batch while files keep changing."""
WATCH_GROUP = "watch"
"""The group of the worker that watches the folder: it runs as long as the explorer."""


def wanted_change(root: Path, path: str) -> bool:
    """A change that may alter the pages: a `.md` file, or a folder (one removed or
    renamed takes its pages along), outside hidden folders."""
    try:
        relative = Path(path).relative_to(root)
    except ValueError:
        return False
    if any(part.startswith(".") for part in relative.parts):
        return False
    name = relative.name
    return name.lower().endswith(".md") or "." not in name


class FolderWatcher(Widget):
    """Watches one folder once `start` is called; posts `FilesChanged`."""

    DEFAULT_CSS = "FolderWatcher { display: none; }"

    class FilesChanged(Message):
        """Pages under the watched folder were added, changed or removed."""

        def __init__(self, paths: list[str]) -> None:
            super().__init__()
            self.paths = paths

    class WatchFailed(Message):
        """The folder cannot be watched (too many folders for inotify, say)."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    def __init__(self) -> None:
        super().__init__()
        self.stop_event = threading.Event()
        self.root: Path | None = None
        self.batches = 0
        """Batches of changes seen (tests wait on it)."""

    def start(self, root: Path) -> None:
        """Watch `root` (once; a second call does nothing)."""
        if self.root is None:
            self.root = root
            self._watch(root)

    @work(thread=True, group=WATCH_GROUP, exit_on_error=False)
    def _watch(self, root: Path) -> None:
        from watchfiles import watch  # not needed for the first paint

        try:
            for changes in watch(
                root,
                watch_filter=lambda _change, path: wanted_change(root, path),
                debounce=DEBOUNCE_MS,
                step=STEP_MS,
                stop_event=self.stop_event,
                rust_timeout=1000,
                yield_on_timeout=False,
                raise_interrupt=False,
            ):
                if self.stop_event.is_set():
                    return
                self.batches += 1
                self.post_message(self.FilesChanged(sorted(path for _, path in changes)))
        except (OSError, RuntimeError) as error:  # inotify limits, a folder gone
            if not self.stop_event.is_set():
                self.post_message(self.WatchFailed(str(error) or type(error).__name__))

    def stop(self) -> None:
        self.stop_event.set()

    def on_unmount(self) -> None:
        self.stop()


def edit_page(app: App[None], brain: Brain, slug: str | None) -> bool:
    """`E`: run the editor on page `slug`'s file while the app steps aside; False (and
    a notification saying why) when it cannot. An editor variable that names no
    runnable program, or is not a command at all, is one of those reasons: it must
    never take the explorer down."""
    plan = edit_plan(brain, slug)
    if isinstance(plan, str):
        app.notify(plan, title="edit", severity="warning", markup=False)
        return False
    variable, command, path = plan
    try:
        with app.suspend():
            run_editor(command, path)
    except SuspendNotSupported:
        app.notify("this terminal cannot hand over to an editor", title="edit", markup=False)
        return False
    except OSError as error:
        why = error.strerror or type(error).__name__
        text = f"${variable} cannot be run: {printable(command[0])} ({why})"
        app.notify(text, title="edit", severity="warning", markup=False)
        return False
    return True


def edit_plan(brain: Brain, slug: str | None) -> tuple[str, list[str], Path] | str:
    """The editor variable used, its command and the file to open for page `slug`,
    or why `E` cannot."""
    if slug is None:
        return "no page to edit yet"
    try:
        path = brain.page_file(slug)
    except PageNotFound:
        path = None
    if path is None:
        return "E edits pages of a folder; this source is not one"
    if not path.is_file():
        return f"{printable(slug)} has no file to edit"
    editor = editor_variable()
    if editor is None:
        return "set $EDITOR (or $VISUAL) to edit pages with E"
    variable, value = editor
    try:
        command = shlex.split(value)
    except ValueError as error:  # unbalanced quotes, a trailing backslash
        return f"${variable} cannot be read as a command: {printable(str(error))}"
    return variable, command, path


def editor_variable() -> tuple[str, str] | None:
    """`$VISUAL`, else `$EDITOR`, as (name, value); None when neither is set."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            return name, value
    return None


def run_editor(command: list[str], path: Path) -> int:
    """Run the editor on `path` in the foreground and wait for it; its exit status.
    Raises `OSError` when the program cannot be started."""
    return subprocess.run([*command, str(path)], check=False).returncode
