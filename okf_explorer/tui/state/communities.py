"""Pages coloured by community, for the local graph (`g`).

`Brain.communities` partitions the indexed pages (`core.graph.shape`, the same answer
`analyze` prints). The graph gives the largest communities one colour each, so pages
that belong together read together; small groups and single pages stay uncoloured (a
colour for each would be noise). Worked out once per index, in the graph panel's worker:
soon after a small index is built (`GraphPanel.colour_ahead`), else at the first drawing,
which may then come without colours and is redrawn when they arrive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from okf_explorer.core.errors import OkfError

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain

PALETTE = ("#e5c07b", "#61afef", "#98c379", "#c678dd", "#56b6c2", "#e06c75", "#d19a66", "#a9b665")
"""One colour per large community, largest first; readable on dark and light themes."""

MIN_SIZE = 3
"""A community smaller than this is drawn uncoloured."""


@dataclass(frozen=True)
class CommunityColours:
    """Which colour (and which community's label) each coloured page has."""

    colours: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)

    def colour_of(self, slug: str) -> str | None:
        return self.colours.get(slug)

    def label_of(self, slug: str) -> str | None:
        """The community's name (its most central page), for the graph's subtitle."""
        return self.labels.get(slug)


def community_colours(brain: Brain) -> CommunityColours | None:
    """The colours of the brain's largest communities (blocking: run in a worker); None
    while the index is not built (colouring never starts a build: the index loader
    does, with progress and a cancel key). A brain whose graph cannot be analysed (a
    server without an index) has none."""
    if brain.index is None:
        return None
    try:
        communities = brain.communities()
    except OkfError:
        return CommunityColours()
    colours: dict[str, str] = {}
    labels: dict[str, str] = {}
    large = [found for found in communities if found.size >= MIN_SIZE]
    for colour, community in zip(PALETTE, large, strict=False):
        for slug in community.pages:
            colours[slug] = colour
            labels[slug] = community.label
    return CommunityColours(colours, labels)
