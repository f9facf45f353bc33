"""Mermaid diagrams drawn as text, where Obsidian draws them as pictures: flowcharts
(`flowchart.py`) and sequence diagrams (`sequence.py`), on cells of box-drawing lines
(`canvas.py`), read from Mermaid's statements and texts (`mermaid_text.py`)."""

from __future__ import annotations

from okf_explorer.core.diagrams import flowchart, sequence
from okf_explorer.core.diagrams.canvas import Drawing

__all__ = ["Drawing", "drawing"]


def drawing(source: str) -> Drawing | None:
    """The diagram written in `source` (a Mermaid block's text) drawn; None when it is
    not a flowchart or a sequence diagram drawn whole."""
    return flowchart.flowchart(source) or sequence.sequence_diagram(source)
