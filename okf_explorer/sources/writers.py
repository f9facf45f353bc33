"""Which `PageWriter` (`core.page_write`) can save pages into a source.

A folder bundle gets a `FolderWriter`; a gbrain server over MCP gets the
`GbrainWriter` of `sources.gbrain.write` (its `put_page` tool), imported lazily so
reading a brain never loads the write side. Any other source cannot take pages:
`CannotSave`, one sentence.
"""

from __future__ import annotations

import importlib

from okf_explorer.core.errors import OkfError
from okf_explorer.core.page_write import PageWriter
from okf_explorer.core.port import LocalFolder, PageSource


class CannotSave(OkfError):
    """This source cannot take pages."""


def writer_for(source: PageSource) -> PageWriter:
    """The writer for `source`; constructing it makes no request to any server."""
    if isinstance(source, LocalFolder):
        from okf_explorer.sources.folder.write import FolderWriter

        return FolderWriter(source.local_root)
    from okf_explorer.sources.gbrain.source import McpSource

    if isinstance(source, McpSource):
        try:
            module = importlib.import_module("okf_explorer.sources.gbrain.write")
            writer_class = module.GbrainWriter
        except (ImportError, AttributeError):
            raise CannotSave(
                f"this source cannot take pages: {source.label} (no put_page writer here)"
            ) from None
        writer: PageWriter = writer_class(source)
        return writer
    raise CannotSave(f"this source cannot take pages: {source.label}")
