"""`l`: the links of the page body, to follow one by keyboard.

Lists every link of the page in order of appearance as `label  target → slug`
(dangling targets marked `✗ missing`, external URLs as they are): those of the part
on screen as drawn, then those inside `%%` comments there (hidden on the page but
counted in the graph, as in Obsidian: marked `in a comment`), then those of the rest
of a long page (drawn 200 KB at a time) as the link grammar finds them, so `l` counts
the pages the link tree counts (`page_links`). Typing filters the list (by label,
target or slug), `up`/`down` move, `enter` follows the highlighted link exactly as a
click would, `escape` closes. The list holds `ROWS_AT_ONCE` rows at a time (`down` at
its end adds the next), and says how many it lists of how many.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from okf_explorer.core.links.grammar import LinkKind
from okf_explorer.core.links.spans import link_spans
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.markdown.links import kind_of_href, span_link, target_of_href

ROWS_AT_ONCE = 200
"""Rows the list holds at first (and adds each time `down` reaches its end): a 1.5 MB
page has 6,000 links, and an option list lays every row out on the event loop (all
6,000: a 1.4 s freeze at each key typed)."""

COMMENT_MARK = "in a comment · "
"""Before a link inside an Obsidian comment (`%% … %%`)."""


@dataclass(frozen=True, slots=True)
class BodyLink:
    """One body link: what it reads, its href, and where it leads (None: external URL)."""

    label: str
    href: str
    target: str | None
    slug: str | None = None
    exists: bool = True
    server: Text | None = None
    """What the server says of this link (`server_view.server_note`), if anything."""
    comment: bool = False
    """Inside an Obsidian comment (`%% … %%`): counted, not shown on the page."""

    def row(self) -> Text:
        """`label  target → slug` (`label → slug` when the label is the target as
        written), control characters shown as escapes (`printable`), then what the
        server says of the link."""
        text = Text(COMMENT_MARK, style="dim italic") if self.comment else Text()
        label = printable(self.label or self.href)
        text.append(label, style="bold")
        target = printable(self.target or "")
        written = " → " if target == label else f"  {target} → "
        if self.target is None:
            if not label.endswith(href := printable(self.href)):
                text.append(f"  {href}", style="dim")
        elif not self.exists:
            text.append(written, style="dim")
            text.append("✗ missing", style="red")
        else:
            text.append(written + printable(self.slug or self.target), style="dim")
        if self.server is not None:
            text.append("  ")
            text.append(self.server)
        return text

    def matches(self, query: str) -> bool:
        haystack = f"{self.label} {self.href} {self.slug or ''}".lower()
        return all(word in haystack for word in query.lower().split())


Resolve = Callable[[str, LinkKind], "tuple[str, bool] | None"]
"""(slug or dangling node, exists) a link target of the page leads to, if known."""


def body_links(
    hrefs: Sequence[tuple[str, str]], resolve: Resolve, comment: bool = False
) -> list[BodyLink]:
    """The (label, href) pairs of a body as rows, each link once (where it first appears)."""
    links = []
    for label, href in dict.fromkeys(hrefs):
        target = target_of_href(href)
        found = resolve(target, kind_of_href(href)) if target is not None else None
        slug, exists = found if found is not None else (None, target is None)
        links.append(BodyLink(label, href, target, slug, exists, comment=comment))
    return links


def page_links(
    drawn: Sequence[tuple[str, str]], text: str, end: int, resolve: Resolve
) -> list[BodyLink]:
    """Every link of a page whose first `end` characters are drawn, each once: the
    `drawn` ones (as the pane lists them), those inside `%%` comments of that part, then
    those of the rest of `text` (`core.links.spans`). Blocking on a huge page (a 1.5 MB
    page: ~0.1 s): run it in a thread."""
    hidden: list[tuple[str, str]] = []
    rest: list[tuple[tuple[str, str], bool]] = []
    for span in link_spans(text) if "[" in text else ():
        image = text[span.start - 1 : span.start] == "!"
        if span.target is None and (span.kind != "markdown" or image):
            continue  # a same-page heading, an attachment, an image: not listed as drawn
        link = span_link(span, text[span.start : span.end])
        if span.start >= end:
            rest.append((link, span.comment))
        elif span.comment:
            hidden.append(link)
    rows = body_links(drawn, resolve) + body_links(hidden, resolve, comment=True)
    seen = {(row.label, row.href) for row in rows}
    for (label, href), comment in rest:
        if (label, href) not in seen:
            seen.add((label, href))
            rows += body_links([(label, href)], resolve, comment)
    return rows


class LinksDialog(ModalScreen[BodyLink | None]):
    """Dismisses with the chosen link, or None (`escape`)."""

    DEFAULT_CSS = """
    LinksDialog { align: center middle; background: $background; }
    #links-box {
        width: 90; max-width: 100%; height: auto; max-height: 80%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    #links-title { text-style: bold; padding: 0 0 1 0; }
    #links-list { height: auto; max-height: 24; }
    #links-hint { color: $text-muted; padding: 1 0 0 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close", id="close-links"),
        Binding("down", "move(1)", "Next", show=False),
        Binding("up", "move(-1)", "Previous", show=False),
    ]

    def __init__(self, slug: str, links: Sequence[BodyLink]) -> None:
        super().__init__()
        self.slug = slug
        self.links = list(links)
        self.shown: list[BodyLink] = list(links)

    def compose(self) -> ComposeResult:
        with Vertical(id="links-box"):
            count = len(self.links)
            title = f"Links in {printable(self.slug)} ({count})"
            yield Static(title, id="links-title", markup=False)
            yield Input(placeholder="type to filter", id="links-filter")
            yield OptionList(*self._options(0), id="links-list")
            yield Static(self._hint(), id="links-hint")

    @property
    def loaded(self) -> int:
        """Rows of `shown` in the list (the first ones: `ROWS_AT_ONCE` at a time)."""
        return self.query_one(OptionList).option_count

    def _hint(self, loaded: int | None = None) -> str:
        hint = "enter follows · escape closes"
        loaded = min(len(self.shown), ROWS_AT_ONCE) if loaded is None else loaded
        if loaded < len(self.shown):
            return f"{loaded:,} of {len(self.shown):,} listed: ↓ at the end lists more · {hint}"
        return hint

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        if self.shown:
            self.query_one(OptionList).highlighted = 0

    def _options(self, start: int) -> list[Option]:
        """The rows of `shown` from `start`, `ROWS_AT_ONCE` of them."""
        return [Option(link.row()) for link in self.shown[start : start + ROWS_AT_ONCE]]

    @on(Input.Changed)
    def _filter(self, event: Input.Changed) -> None:
        self.shown = [link for link in self.links if link.matches(event.value)]
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(self._options(0))
        options.highlighted = 0 if self.shown else None
        self.query_one("#links-hint", Static).update(self._hint())

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        if self.shown:
            current = options.highlighted or 0
            if current + step >= self.loaded and self.loaded < len(self.shown):
                options.add_options(self._options(self.loaded))
                self.query_one("#links-hint", Static).update(self._hint(self.loaded))
            options.highlighted = max(0, min(self.loaded - 1, current + step))

    @on(Input.Submitted)
    def _submitted(self) -> None:
        highlighted = self.query_one(OptionList).highlighted
        if highlighted is not None and highlighted < len(self.shown):
            self.dismiss(self.shown[highlighted])

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.shown):
            self.dismiss(self.shown[event.option_index])
