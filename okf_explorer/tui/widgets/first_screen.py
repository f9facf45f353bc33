"""A page body's first screen first: mount the blocks that fill the pane, paint, then the rest.

Textual's `Markdown.update` parses the body again (in a thread: one more hop to wait
for on a busy machine), builds a widget for every block and mounts them all before
anything is painted; the cost grows with the number of widgets (~1.5 ms each here).
`FirstScreen.show` builds the blocks from tokens the page pane already parsed off the
event loop, mounts only the top-level blocks that cover the pane (`covering`), and
`rest` mounts the others once that screen is painted. What the user sees is the same
widgets: only when they are mounted changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from markdown_it.token import Token
from textual.widgets._markdown import MarkdownBlock

from okf_explorer.tui.widgets.vault_body import VaultMarkdown

SPARE_ROWS = 4
"""Rows mounted beyond the pane's height before the first paint (estimates are rough)."""


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

    async def show(self, source: str, tokens: Sequence[Token], rows: int) -> None:
        """Replace the body with `source` (parsed: `tokens`), mounting the blocks that
        cover `rows` rows now; the others wait for `rest`."""
        markdown = self.markdown
        markdown._markdown = source  # what `Markdown.update` records, for `append`
        markdown._table_of_contents = None
        lines = source.splitlines()
        markdown._last_parsed_line = len(lines) - (1 if lines and lines[-1] else 0)
        blocks = markdown._parse_markdown(tokens)
        first = covering(blocks, rows + SPARE_ROWS)
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


def covering(blocks: Iterator[MarkdownBlock], rows: int) -> list[MarkdownBlock]:
    """The next blocks of `blocks` until they cover at least `rows` rows.

    A block's rows are guessed from its source lines (`source_range`) and the margin
    under it: wrapped lines,
    embeds and tables take more rows than that, never fewer except a folded callout;
    so the guess errs on mounting a block or two more than the screen needs.
    """
    taken: list[MarkdownBlock] = []
    covered = 0
    for block in blocks:
        taken.append(block)
        start, end = block.source_range
        covered += max(1, end - start) + 1  # and the blank row after it
        if covered >= rows:
            break
    return taken
