"""A page body's first screen first: mount the blocks that fill the pane, paint, then the rest.

Textual's `Markdown.update` parses the body again (in a thread: one more hop to wait
for on a busy machine), builds a widget for every block and mounts them all before
anything is painted; the cost grows with the number of widgets (~1 ms each here).
`FirstScreen.show` builds the blocks from tokens the page pane already parsed off the
event loop, mounts only the top-level blocks that cover the pane (`covering`, which
estimates each block's rows from its type, text and the pane's width), and `rest`
mounts the others once that screen is painted. What the user sees is the same
widgets: only when they are mounted changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from markdown_it.token import Token
from rich.cells import cell_len
from textual.content import Content
from textual.widgets._markdown import (
    MarkdownBlock,
    MarkdownBlockQuote,
    MarkdownFence,
    MarkdownH1,
    MarkdownH2,
    MarkdownHeader,
    MarkdownHorizontalRule,
    MarkdownList,
    MarkdownListItem,
    MarkdownParagraph,
    MarkdownTable,
)

from okf_explorer.tui.markdown.vault_body import CalloutQuote, EmbedBlock, VaultMarkdown

SPARE_ROWS = 1
"""Rows mounted beyond the body's visible rows before the first paint."""


class FirstScreen:
    """Shows a body in a `VaultMarkdown` a first screenful at a time (`show`, then `rest`)."""

    def __init__(self, markdown: VaultMarkdown) -> None:
        self.markdown = markdown
        self._rest: Iterator[MarkdownBlock] | None = None
        self.then: list[Callable[[], object]] = []
        """Run after the refresh that follows mounting the rest (scrolls that need it)."""

    @property
    def pending(self) -> bool:
        """Whether blocks of the body shown are still to be mounted (`rest`)."""
        return self._rest is not None

    async def show(self, source: str, tokens: Sequence[Token], rows: int, width: int) -> None:
        """Replace the body with `source` (parsed: `tokens`), mounting the blocks that
        cover `rows` rows of a body `width` columns wide now; the others wait for `rest`."""
        markdown = self.markdown
        markdown._markdown = source  # what `Markdown.update` records, for `append`
        markdown._table_of_contents = None
        lines = source.splitlines()
        markdown._last_parsed_line = len(lines) - (1 if lines and lines[-1] else 0)
        blocks = markdown._parse_markdown(tokens)
        first = covering(blocks, rows + SPARE_ROWS, width)
        self._rest = blocks
        async with markdown.lock:
            with markdown.app.batch_update():
                await markdown.query_children(MarkdownBlock).remove()
                await markdown.mount_all(first)

    async def rest(self) -> None:
        """Mount the blocks `show` left for after the first paint (none: nothing),
        then run the `then` callbacks after the next refresh."""
        blocks = self._rest
        if blocks is None:
            return
        async with self.markdown.lock:  # a second call waits for the first to finish
            later = list(blocks)
            if later:
                await self.markdown.mount_all(later)
        if self._rest is blocks:  # not replaced by another body meanwhile
            self._rest, then, self.then = None, self.then, []
            for callback in then:
                self.markdown.call_after_refresh(callback)

    def when_whole(self, callback: Callable[[], object]) -> None:
        """Run `callback` after the refresh that follows mounting the whole body."""
        if self.pending:
            self.then.append(callback)
        else:
            self.markdown.call_after_refresh(callback)

    def drop(self) -> None:
        """Forget blocks not mounted yet (another body replaces this one)."""
        self._rest, self.then = None, []


def covering(blocks: Iterator[MarkdownBlock], rows: int, width: int) -> list[MarkdownBlock]:
    """The next blocks of `blocks` until they cover at least `rows` rows `width` wide.

    Each block's rows are a lower bound (`block_rows`), so the blocks taken fill the
    rows: the screen is never left part empty, and at most the last block taken
    starts below it.
    """
    taken: list[MarkdownBlock] = []
    covered = 0
    for block in blocks:
        covered += block_rows(block, width, first=not taken)
        taken.append(block)
        if covered >= rows:
            break
    return taken


def block_rows(block: MarkdownBlock, width: int, first: bool = False) -> int:
    """At least the rows a top-level `block` of a body `width` wide takes, with the
    margin under it (one row for every block of ours) and what its margin above adds
    (margins between blocks collapse to the larger one)."""
    above = top_margin(block)
    return (above if first else max(0, above - 1)) + inner_rows(block, width) + 1


def top_margin(block: MarkdownBlock) -> int:
    """The margin above a top-level block, as Textual's `Markdown` CSS sets it."""
    if isinstance(block, MarkdownH1 | MarkdownH2):
        return 2
    if isinstance(block, MarkdownHeader | MarkdownBlockQuote | MarkdownFence):
        return 1
    return 0


def inner_rows(block: MarkdownBlock, width: int) -> int:
    """At least the rows `block` draws (margins aside): its text wrapped to `width`."""
    if isinstance(block, MarkdownParagraph | MarkdownHeader):
        return text_rows(block._content, width)
    if isinstance(block, CalloutQuote) and block.folded:
        return 1
    if isinstance(block, MarkdownBlockQuote | MarkdownList | MarkdownListItem):
        return sum(inner_rows(child, width) for child in block._blocks)
    if isinstance(block, MarkdownTable):
        _, table_rows = block._get_headers_and_rows()
        return 2 * (len(table_rows) + 1) + 1  # rows, the lines between them, the frame
    if isinstance(block, MarkdownFence):
        return block.code.count("\n") + 3  # its padding above and below
    if isinstance(block, MarkdownHorizontalRule):
        return 2
    if isinstance(block, EmbedBlock):
        return 2  # the name and a line of note until the page pane fills it in
    start, end = block.source_range
    return max(1, end - start)


def text_rows(content: Content, width: int) -> int:
    """At least the rows `content` wraps to in `width` columns."""
    width = max(1, width)
    return sum(max(1, -(-cell_len(line) // width)) for line in content.plain.split("\n"))
