"""The marks on screen and what they mean, kept together so they say the same thing:
the OKF glyphs drawn before a page's name, each pane's one-line legend (its border
subtitle), and the longer legend of the `?` help.

OKF v0.2 glyphs (from `core.okf.meta`), one set for the page header, the link tree
rows and the traversal rows: a row marks an OKF concept (`okf_meta.is_okf_concept`)
with up to three glyphs: its status when not the default `stable` (`✎` draft, `⊘`
deprecated, `?` a status OKF does not define), its trust tier (`○` `◐` `◉`), and `⚠`
when stale. A plain note (no OKF key) gets none.
"""

from __future__ import annotations

from datetime import UTC, datetime

from rich.text import Text

from okf_explorer.core.okf import meta as okf_meta
from okf_explorer.core.pages import PageInfo

STATUS_STYLES = {"draft": "yellow", "stable": "green", "deprecated": "bold red"}
TRUST_STYLES = {"human-reviewed": "green", "machine-confirmed": "cyan", "unverified": "dim"}
STALE_STYLE = "bold yellow"
UNKNOWN_STATUS_GLYPH = "?"


def status_glyph(status: str) -> Text:
    glyph = okf_meta.STATUS_GLYPHS.get(status, UNKNOWN_STATUS_GLYPH)
    return Text(glyph, style=STATUS_STYLES.get(status, "magenta"))


def trust_glyph(tier: str) -> Text:
    glyph = okf_meta.TRUST_GLYPHS.get(tier, okf_meta.TRUST_GLYPHS["unverified"])  # type: ignore[call-overload]
    return Text(glyph, style=TRUST_STYLES.get(tier, "dim"))


def is_stale(info: PageInfo, now: datetime | None = None) -> bool:
    deadline = okf_meta.instant(info.okf_stale_after)
    return deadline is not None and (now or datetime.now(UTC)) >= deadline


def row_badge(info: PageInfo | None, now: datetime | None = None) -> Text:
    """The glyphs of one row (see the module doc), then a space; empty for a plain note."""
    badge = Text()
    if info is None or info.okf_trust is None:
        return badge
    if info.okf_status not in (None, "stable"):
        badge.append_text(status_glyph(info.okf_status or ""))
    badge.append_text(trust_glyph(info.okf_trust))
    if is_stale(info, now):
        badge.append(okf_meta.STALE_GLYPH, style=STALE_STYLE)
    badge.append(" ")
    return badge


# ------------------------------------------------------------------ what the marks mean

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
    ("weight", "walk (w): the product of the path's link weights"),
    ("", "a link weighs its share of its page's link mentions, a stated relation 1"),
    ("[ ] + - d a", "in a walk: weight ∓0.1, depth, direction, add roots (slug, tag:T, type:T)"),
)
"""(mark, meaning) rows of the `?` help."""

OKF_LEGEND = (
    f"OKF glyphs (header, link tree, traversal rows) · {okf_meta.STALE_GLYPH} stale\n"
    f"status {okf_meta.STATUS_GLYPHS['draft']} draft · {okf_meta.STATUS_GLYPHS['stable']} "
    f"stable (not in rows) · {okf_meta.STATUS_GLYPHS['deprecated']} deprecated · "
    f"{UNKNOWN_STATUS_GLYPH} other\n"
    f"trust {okf_meta.TRUST_GLYPHS['unverified']} unverified · "
    f"{okf_meta.TRUST_GLYPHS['machine-confirmed']} machine-confirmed · "
    f"{okf_meta.TRUST_GLYPHS['human-reviewed']} human-reviewed"
)
"""Three lines of at most 66 columns (the `?` help box), also for the README."""
