"""What the marks on screen mean: one line per pane (its border subtitle) and the
longer legend of the `?` help, kept together so they say the same thing."""

from __future__ import annotations

SLICE_LEGEND = "out: from links to to · in: to links to from"
"""The traversal pane's subtitle: how to read `from` and `to` of each direction."""

BACKLINKS_LEGEND = "pages linking here · their sentence · b returns"
"""The traversal pane's subtitle while it shows backlinks (`b`)."""

LINKS_LEGEND = "→n: links out of it · ←n: links into it"
"""The link tree's subtitle while no link is highlighted."""

RESERVED_LEGEND = "(reserved): an OKF index or log page"
"""The page pane's subtitle on a reserved page."""

HELP_LEGEND: tuple[tuple[str, str], ...] = (
    ("→10 ←8", "a linked page links to 10 pages; 8 pages link to it"),
    ("(reserved)", "an OKF reserved page (index, log): never an orphan or dead end"),
    ("≟", "a link several pages match (its subtitle lists them)"),
    ("✗ missing", "a link to a page that does not exist"),
    ("hop", "steps from the page the slice starts at (its title)"),
    ("out", "`from` links to `to`"),
    ("in", "`to` links to `from` (the walk goes against the link)"),
    ("neighbourhood", "d: pages linked either way, hop by hop"),
    ("backlinks", "b: pages linking here, each with its sentence; b again returns"),
)
"""(mark, meaning) rows of the `?` help."""
