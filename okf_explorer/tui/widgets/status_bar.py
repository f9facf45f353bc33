"""The status line: which source, how many pages, and what the index is doing (and a
long text index fill: how far it is)."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar

from okf_explorer.core.text_safety import printable

NO_WAY_ON = "no links: f pages, / find ·"
"""Said after the start rule when the start page links to no other page of the brain
(whole even at 80 columns, where the rule is cut first)."""


class StatusBar(Horizontal):
    """Source label · page count · index state, with a progress bar while indexing.

    The label is whatever the source reports (`PageSource.label`), which never
    holds a token; it and failure reasons show control characters as escapes.
    """

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; padding: 0 1; }
    StatusBar > Label { padding: 0 1 0 0; }
    StatusBar > #status-source { color: $text-accent; text-wrap: nowrap; text-overflow: ellipsis; }
    StatusBar > #status-pages { color: $text-muted; }
    StatusBar > #status-start { color: $text-muted; display: none; }
    StatusBar > #status-start.shown { display: block; }
    StatusBar > #status-from { color: $text-accent; display: none; }
    StatusBar > #status-from.shown { display: block; }
    StatusBar > #status-hint { color: $text-warning; display: none; text-wrap: nowrap; }
    StatusBar > #status-hint.shown { display: block; }
    StatusBar > #status-start, StatusBar > #status-from {
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    StatusBar > #status-start { max-width: 50%; }
    StatusBar > #status-from { max-width: 30%; }
    StatusBar > #status-index {
        width: 1fr; min-width: 8; text-wrap: nowrap; text-overflow: ellipsis;
    }
    StatusBar > #status-index.failed { color: $error; }
    StatusBar > #status-reading { color: $text-muted; display: none; text-wrap: nowrap; }
    StatusBar > #status-reading.shown { display: block; }
    StatusBar > ProgressBar { width: 30; display: none; }
    StatusBar.indexing > ProgressBar { display: block; }
    """

    _start_slug: str | None = None
    """The start page while the status line names the rule that chose it."""
    _start_rule: str | None = None

    def compose(self) -> ComposeResult:
        yield Label(id="status-source")
        yield Label(id="status-pages")
        yield Label(id="status-reading")
        yield Label(id="status-start")
        yield Label(id="status-hint")
        yield Label(id="status-from")
        yield Label("starting…", id="status-index")
        yield ProgressBar(id="status-progress", show_eta=False, show_percentage=False)

    @property
    def index_state(self) -> str:
        return str(self.query_one("#status-index", Label).content)

    def set_source(self, label: str, folder: Path | None = None) -> None:
        """The source's label; for a `folder`, its name (`..` says nothing), the full
        path on hover."""
        source = self.query_one("#status-source", Label)
        if folder is not None:
            source.update(Text(printable(folder.name or str(folder))))
            source.tooltip = Text(printable(str(folder)))
        else:
            source.update(Text(printable(label)))

    def set_page_count(self, count: int) -> None:
        self.query_one("#status-pages", Label).update(
            f"· {count} {'page' if count == 1 else 'pages'} ·"
        )

    def set_start(self, rule: str | None, slug: str | None = None) -> None:
        """Which rule chose the start page `slug` (`core.graph.analysis`); said until
        another page is opened (`page_opened`). The same choice said again (the index
        confirmed it) changes nothing: a hint given meanwhile stays."""
        if rule and (slug, rule) == (self._start_slug, self._start_rule):
            return
        self._start_slug, self._start_rule = (slug, rule) if rule else (None, None)
        label = self.query_one("#status-start", Label)
        label.update(Text(f"start: {printable(rule)} ·" if rule else ""))
        label.set_class(bool(rule), "shown")
        self.query_one("#status-hint", Label).remove_class("shown")
        self.remove_class("-hinted")

    @property
    def start_slug(self) -> str | None:
        """The start page while the status line still names its rule."""
        return self._start_slug

    def start_links_nowhere(self, slug: str) -> None:
        """The start page `slug` links to no page here (a GitHub README): point at the
        ways in (unless another start page has been chosen since it was asked)."""
        if self._start_rule is not None and self._start_slug == slug:
            hint = self.query_one("#status-hint", Label)
            hint.update(NO_WAY_ON)
            hint.add_class("shown")
            self.add_class("-hinted")  # under 100 columns the rule's name gives way

    def page_opened(self, slug: str) -> None:
        """The user moved on from the start page: the rule that chose it is forgotten."""
        if self._start_slug is not None and slug != self._start_slug:
            self.set_start(None)

    def set_path_from(self, slug: str | None) -> None:
        """The page `M` marked as where paths start (`P`), or None."""
        label = self.query_one("#status-from", Label)
        label.update(Text(f"from: {printable(slug)} ·" if slug else ""))
        label.set_class(bool(slug), "shown")

    def set_indexing(self, done: int, total: int) -> None:
        if not self.has_class("indexing"):
            self.add_class("indexing")
        # Until the listing is done there is no total: "0/0" would read as stuck.
        self._state(f"indexing {done}/{total}" if total else "listing pages…")
        self.query_one(ProgressBar).update(total=max(total, 1), progress=done)

    def set_reading(self, done: int, total: int) -> None:
        """How far a long text index fill is (`tui.finder.TextReading`); gone at its end."""
        label = self.query_one("#status-reading", Label)
        reading = done < total
        width = len(f"{total:,}")  # as wide all along: no layout for each step
        label.update(f"reading text {done:>{width},}/{total:,} ·" if reading else "", layout=False)
        if label.has_class("shown") != reading:
            label.set_class(reading, "shown")  # laid out as it shows and goes

    def set_indexed(self, answered_by: str) -> None:
        self.remove_class("indexing")
        self._state(f"indexed · answered by {answered_by}")

    def set_cancelled(self, previous: bool) -> None:
        """The build was cancelled (`ctrl+x`): say what the panes now rest on."""
        self.remove_class("indexing")
        what = (
            "refresh cancelled · previous index kept"
            if previous
            else "index cancelled · links incomplete"
        )
        self._state(f"{what} · r restarts", failed=not previous)

    def set_failed(self, reason: str) -> None:
        self.remove_class("indexing")
        self._state(f"index failed: {printable(reason)}", failed=True)

    def _state(self, text: str, failed: bool = False) -> None:
        label = self.query_one("#status-index", Label)
        # Its width is fixed (1fr), so skip the layout pass: on a long page a
        # screen reflow per progress tick would cost more than the tick itself.
        label.update(Text(text), layout=False)  # Text: a reason's `[` is not markup
        label.set_class(failed, "failed")
