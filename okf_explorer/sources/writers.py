"""Which `PageWriter` (`core.port`) can save pages into a source, and under
which names.

A folder bundle gets a `FolderWriter`; a gbrain server over MCP gets the
`GbrainWriter` of `sources.gbrain.write` (its `put_page` tool), imported lazily so
reading a brain never loads the write side. Any other source cannot take pages:
`CannotSave`, one sentence. `check_target` says whether a name can be saved as,
by the rules of the source's writer, before anything is sent or written.
"""

from __future__ import annotations

import importlib

from okf_explorer.core.errors import OkfError
from okf_explorer.core.export.saved_page import check_new_slug
from okf_explorer.core.port import Folder, PageSource, PageWriter


class CannotSave(OkfError):
    """This source cannot take pages."""


def writer_for(source: PageSource) -> PageWriter:
    """The writer for `source`; constructing it makes no request to any server."""
    if isinstance(source, Folder):
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


def check_target(source: PageSource, slug: str) -> str:
    """The page name `slug` is saved as in `source`, or `ValueError` (one sentence)
    for a name its writer would refuse or store renamed: a relative path of plain
    segments for any source (`check_new_slug`), and for gbrain also its own slug
    rules (lowercase, no encoded separators; `gbrain_stored.check_slug`). Sends nothing."""
    name = check_new_slug(slug)
    if isinstance(source, Folder):
        return name
    from okf_explorer.sources.gbrain.source import McpSource

    if isinstance(source, McpSource):
        from okf_explorer.sources.gbrain.stored import check_slug

        check_slug(name)
    return name
