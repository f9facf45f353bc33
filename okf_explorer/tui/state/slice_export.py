"""Export of the slice on screen (`e`): OKF edge JSON, written atomically, a record
at a time (`core.export.formats`)."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from okf_explorer.core.export.formats import (
    default_export_name,
    render_pieces,
    text_blocks,
    write_export,
)
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.tui.state.navigator import View


def export_slice(
    edges: Sequence[Edge], view: View, directory: Path, forbidden_root: Path | None = None
) -> Path:
    """Write the slice as JSON into `directory` under the default export name.

    The name depends only on root, depth and direction, so exporting the same
    slice twice rewrites the same file with the same bytes. `forbidden_root`
    (the bundle folder) keeps the explorer from writing into the brain itself.
    Raises `ExportFailed`.
    """
    name = default_export_name(view.slug, view.depth, view.direction, "json")
    pieces = render_pieces(
        edges, "json", root=view.slug, depth=view.depth, direction=view.direction
    )
    return write_export(directory / name, pieces, forbidden_root=forbidden_root)


SPOOL_BYTES = 8 * 1024 * 1024
"""A download held in memory up to this size; a larger one in an unnamed temporary file."""


def slice_file(edges: Sequence[Edge], view: View) -> tuple[str, IO[bytes]]:
    """The export of the slice as (file name, its bytes in a file at offset 0): what
    the browser downloads under `okf-explorer web` (the same bytes `export_slice`
    writes). Rendered a record at a time, and spilled to an unnamed temporary file
    past `SPOOL_BYTES`, so a huge slice is never held whole; closing the file (the
    download does, when it ends) frees it."""
    pieces = render_pieces(
        edges, "json", root=view.slug, depth=view.depth, direction=view.direction
    )
    data: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115
    for block in text_blocks(pieces):
        data.write(block.encode("utf-8"))
    data.seek(0)
    return default_export_name(view.slug, view.depth, view.direction, "json"), data
