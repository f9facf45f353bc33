"""Export of the slice on screen (`e`): OKF edge JSON, written atomically, a record
at a time (`core.export`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from okf_explorer.core.export import default_export_name, render, render_pieces, write_export
from okf_explorer.core.graph import Edge
from okf_explorer.tui.history import View


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


def slice_file(edges: Sequence[Edge], view: View) -> tuple[str, str]:
    """The export of the slice as (file name, JSON text): what `export_slice` writes,
    and what the browser downloads under `okf-explorer web`."""
    text = render(list(edges), "json", root=view.slug, depth=view.depth, direction=view.direction)
    return default_export_name(view.slug, view.depth, view.direction, "json"), text
