"""A vault of our own with the shape of a graph known by heart (issue 27): every inline
field form and link properties, relations with inverses, two communities joined through
one page, a third hanging off by one edge, and pendants.

The link structure, undirected, between existing pages:

    garden: rose tulip soil compost water      (each links to most of the others)
    kitchen: bread flour oven yeast salt       (likewise)
    seasons ── garden/compost, seasons ── kitchen/bread: `seasons` is the only way
        between them (an articulation page; both its edges are bridge edges)
    people/ann ── garden/rose: the people part (ann, bob, companies/acme) hangs off
        the garden by that one edge (a bridge edge; garden/rose and people/ann are
        articulation pages)
    notes/lonely ── garden/rose: a pendant page (another bridge edge)

Relations written as fields or properties (each in a comment below), with their inverses
where the table (`core.graph.implied`) knows one: `up`/`down`, `next`/`prev`, `same`,
`works_at`/`employs`. `kitchen/salt` names `garden/soil` in its text without linking it
(an unlinked mention); `garden/water` and `kitchen/oven` share no neighbour.
"""

from __future__ import annotations

from pathlib import Path

from tests.bundles import write_bundle

PAGES: dict[str, str] = {
    # -- garden ------------------------------------------------------------------------
    "garden/rose.md": (
        "# Rose\n"
        "Grows in [[garden/soil]] beside [[garden/tulip]]; fed by [[compost]].\n"
        "up:: [[garden/water]]\n"  # a whole-line field
        "Tended by [[people/ann]]. See also [[notes/lonely]].\n"
    ),
    "garden/tulip.md": (
        '---\nup: "[[garden/water]]"\n---\n'  # a link property
        "# Tulip\n[[garden/rose]], [[garden/soil]] and [[garden/compost]].\n"
        "- next:: [[garden/rose]]\n"  # a field in a list item
    ),
    "garden/soil.md": (
        "# Soil\nHolds [[garden/water]]; made richer by [[garden/compost]].\n"
        "Loved by [[garden/rose]] and [[garden/tulip]].\n"
    ),
    "garden/compost.md": (
        "# Compost\nFeeds [[garden/soil]] and [[garden/rose]] (same:: [tulip](tulip.md)).\n"
        "**Season**:: [[seasons]]\n"  # a bold key
    ),
    "garden/water.md": (
        "# Water\nFor [[garden/rose]], [[garden/tulip]] and [[garden/soil]].\n"
        "```\ndown:: [[not-a-field-in-code]]\n```\n"
    ),
    # -- the page between --------------------------------------------------------------
    "seasons.md": (
        "# Seasons\nAutumn brings [[garden/compost]]; "
        "winter bakes [kitchen bread](kitchen/bread.md).\n"
    ),
    # -- kitchen -----------------------------------------------------------------------
    "kitchen/bread.md": (
        "# Bread\nMade of [[kitchen/flour]], [[kitchen/yeast]] and [[kitchen/salt]] in the "
        "[[kitchen/oven]]. [made in:: [[seasons]]]\n"  # a bracketed field
    ),
    "kitchen/flour.md": (
        "# Flour\nFor [[kitchen/bread]]; mixed with [[kitchen/yeast]] and [[kitchen/salt]].\n"
    ),
    "kitchen/oven.md": (
        "# Oven\nBakes [[kitchen/bread]] with [[kitchen/yeast]] and [[kitchen/flour]].\n"
    ),
    "kitchen/yeast.md": (
        "# Yeast\nRaises [[kitchen/bread]] and [[kitchen/flour]].\n"
        "prev:: [[kitchen/flour]], [[nowhere]]\n"  # two links, one to no page
        "`up:: [[in-code]]`\n"
    ),
    "kitchen/salt.md": (
        '---\nParent Page: ["[[kitchen/bread]]", "[[kitchen/flour|Flour]]"]\n---\n'
        "# Salt\nFor [[kitchen/bread]], [[kitchen/flour]] and [[kitchen/yeast]]. "
        "Never on Garden Soil.\n"
    ),
    # -- people, off the garden by one edge ---------------------------------------------
    "people/ann.md": (
        '---\ntype: person\nmentor: "[Bob](bob.md)"\n---\n'
        "# Ann\nworks_at:: [[companies/acme]]\nKeeps [[garden/rose]].\n"
    ),
    "people/bob.md": "---\ntype: person\n---\n# Bob\nworks_at:: [[companies/acme]]\n",
    "companies/acme.md": "---\ntype: company\n---\n# Acme\nA company.\n",
    # -- a pendant ----------------------------------------------------------------------
    "notes/lonely.md": "# Lonely\nOnly the rose links here.\n",
}

GARDEN = ("garden/compost", "garden/rose", "garden/soil", "garden/tulip", "garden/water")
KITCHEN = ("kitchen/bread", "kitchen/flour", "kitchen/oven", "kitchen/salt", "kitchen/yeast")
PEOPLE = ("companies/acme", "people/ann", "people/bob")


def make_shape_vault(root: Path) -> Path:
    """Write the vault under `root`; returns `root`."""
    write_bundle(root, PAGES)
    return root
