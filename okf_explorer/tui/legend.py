"""What the marks on screen mean: one line per pane (its border subtitle) and the
longer legend of the `?` help, kept together so they say the same thing."""

from __future__ import annotations

SLICE_LEGEND = "out: from links to to · in: to links to from"
"""The traversal pane's subtitle: how to read `from` and `to` of each direction."""

BACKLINKS_LEGEND = "linked from · the sentence · b returns"
"""The traversal pane's subtitle while it shows backlinks (`b`)."""

LINKS_LEGEND = "→n: links out of it · ←n: links into it"
"""The link tree's subtitle while no link is highlighted."""

RESERVED_LEGEND = "(reserved): an OKF index or log page"
"""The page pane's subtitle on a reserved page."""

HELP_LEGEND: tuple[tuple[str, str], ...] = (
    ("→10 ←8", "links out of that page / into it"),
    ("(reserved)", "an OKF index or log page (never an orphan)"),
    ("≟", "a link several pages match (subtitle lists them)"),
    ("✗ missing", "a link to a page that does not exist"),
    ("hop", "steps from the slice's first page (its title)"),
    ("out", "`from` links to `to`"),
    ("in", "`to` links to `from` (walked against the link)"),
    ("neighbourhood", "d: pages linked either way, hop by hop"),
    ("backlinks", "b: who links here, and the sentence; b returns"),
    ("paths", "M marks a page, P: paths from it to this one; a avoids hubs"),
    ("1*", "a path through a hub (index pages, the most linked-to)"),
    ("weight", "walk (w): product of the path's link weights; a link weighs its share"),
    ("", "of its page's link mentions, a stated relation 1"),
    ("[ ] + - d a", "in a walk: weight ∓0.1, depth, direction, add roots (slug, tag:T, type:T)"),
)
"""(mark, meaning) rows of the `?` help."""
