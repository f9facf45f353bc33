"""Where a page's text and the server disagree, in the explorer (issue 12, the audit's
per-page view, `core.audit.page`).

`ServerComparison` answers `view(slug)` off the event loop:

- `browse FOLDER --against URL`: the whole audit runs once (`run_audit`, the
  folder against the server); each page's view comes from its differences.
- a brain over a server with a stored graph: the page's text (the server's own
  body, scanned into the index) against the server's graph, per page.
- otherwise: no view (a folder alone has nothing to compare with).

The link tree marks each outgoing link the server lacks (`−`), holds apart (`+`,
an extra node) or types otherwise (`≠`); the highlighted one says the cause and
the fix. The page header shows `server −N/+M`.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from okf_explorer.core.audit.model import Difference
from okf_explorer.core.audit.page import PageView, RunViews
from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError
from okf_explorer.core.links.typed import LINKS
from okf_explorer.core.pages import is_private
from okf_explorer.core.text_safety import printable

if TYPE_CHECKING:
    from okf_explorer.sources.gbrain.source import McpSource

MARKS = {"files": ("−", "bold red"), "server": ("+", "bold green"), "both": ("≠", "bold yellow")}
"""How the tree marks a link, by the side of its difference."""
SAID = {
    "files": "the server lacks this link",
    "server": "only the server holds this link",
    "both": "the server types this link otherwise",
}


class ServerComparison:
    """The per-page views of one explorer (see the module docstring)."""

    def __init__(self, brain: Brain, against: McpSource | None = None) -> None:
        self.brain = brain
        self.against = against
        self._run: RunViews | None = None
        self._failed = False
        self._lock = threading.Lock()

    def describe(self, answered_by: str) -> str:
        """What answers the panes, for the status line: `index` or `server`, and what the
        pages' text is compared with (the server's links, or the `--against` server)."""
        if self.against is not None:
            return f"{answered_by} · compared with {self.against.label}"
        return f"{answered_by} · text compared" if answered_by == "server" else answered_by

    async def view(self, slug: str, text: str | None = None) -> PageView | None:
        """`slug`'s view, or None when there is nothing to compare with (or no index yet
        for a server brain: its text side is the index)."""
        if self.against is not None:
            if self._failed:
                return None  # said once already (a notification): the tree goes on unmarked
            try:
                runs = await asyncio.to_thread(self._runs)
            except OkfError:
                self._failed = True
                raise
            return runs.view(slug)
        if self.brain.index is None:
            return None
        return await asyncio.to_thread(self.brain.page_view, slug, text)

    def _runs(self) -> RunViews:
        """The whole audit, run once (blocking)."""
        from okf_explorer.sources.audit_gather import run_audit, server_names

        with self._lock:
            if self._run is None:
                assert self.against is not None
                folder = self.brain.local_root
                if folder is None:
                    raise ValueError("--against needs a folder to compare")
                run = run_audit(Path(folder), self.against)
                index = self.brain.ensure_index()
                names = server_names(index.pages, run.naming)
                missing = RunViews(run.differences, names).missing_pages()
                private = frozenset(slug for slug in missing if self._private(slug))
                self._run = RunViews(run.differences, names, private)
            return self._run

    def _private(self, slug: str) -> bool:
        """Whether the folder's page `slug` says `visibility: private` (gbrain hides it)."""
        try:
            return is_private(self.brain.page(slug).frontmatter)
        except OkfError:
            return False

    def forget(self) -> None:
        """`r`: the next view runs the audit again (files or server may have changed).
        Never waits for a running audit (the event loop calls it)."""
        self._run, self._failed = None, False

    def close(self) -> None:
        if self.against is not None:
            self.against.close()


def mark(label: Text, difference: Difference | None) -> Text:
    """`label` with the mark of `difference`'s side in front (unchanged without one)."""
    if difference is None:
        return label
    glyph, style = MARKS[difference.side]
    return Text.assemble((f"{glyph} ", style), label)


def explanation(difference: Difference) -> str:
    """What the highlighted link's subtitle adds: who lacks it, the cause, the fix."""
    return printable(f"{SAID[difference.side]}: {difference.cause} · {difference.fix}")


def badge(view: PageView) -> Text:
    """The page header's `server −N/+M` (and `≠K`, or the page-level cause)."""
    if view.page is not None:
        glyph, style = MARKS[view.page.side]
        return Text.assemble((f"{glyph} server: ", style), printable(view.page.cause))
    text = Text(view.summary, style="bold green" if view.agrees else "bold yellow")
    if view.differs:
        text.append(f" ≠{len(view.differs)}", style="bold yellow")
    return text


def server_note(brain: Brain, page: str, slug: str, view: PageView | None) -> Text | None:
    """What the server says of the link from `page` to `slug`, for the links dialog:
    that it lacks it (the cause), or where it found it (`link_source`) and its context."""
    difference = view.about(slug) if view is not None else None
    if difference is not None:
        glyph, style = MARKS[difference.side]
        return Text.assemble((f"{glyph} ", style), (printable(difference.cause), style))
    stored = brain.server_link(page, slug, LINKS)
    if stored is None:
        return None
    said = f"server: {stored.link_source or 'stored'}"
    if stored.context:
        said += f" · “{shorten(stored.context)}”"
    return Text(printable(said), style="dim italic")


def shorten(context: str, limit: int = 80) -> str:
    """A server's link context on one line, at most `limit` characters."""
    flat = " ".join(context.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
