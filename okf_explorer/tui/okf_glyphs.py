"""The OKF v0.2 glyphs of the TUI, styled: one set for the page header, the link
tree rows and the traversal rows (glyphs from `core.okf.meta`; legend in `?` help).

A row marks an OKF concept (`okf_meta.is_okf_concept`) with up to
three glyphs: its status when not the default `stable` (`✎` draft, `⊘` deprecated,
`?` a status OKF does not define), its trust tier (`○` `◐` `◉`), and `⚠` when stale.
A plain note (no OKF key) gets none.
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

LEGEND = (
    f"OKF glyphs (header, link tree, traversal rows) · {okf_meta.STALE_GLYPH} stale\n"
    f"status {okf_meta.STATUS_GLYPHS['draft']} draft · {okf_meta.STATUS_GLYPHS['stable']} "
    f"stable (not in rows) · {okf_meta.STATUS_GLYPHS['deprecated']} deprecated · "
    f"{UNKNOWN_STATUS_GLYPH} other\n"
    f"trust {okf_meta.TRUST_GLYPHS['unverified']} unverified · "
    f"{okf_meta.TRUST_GLYPHS['machine-confirmed']} machine-confirmed · "
    f"{okf_meta.TRUST_GLYPHS['human-reviewed']} human-reviewed"
)
"""Three lines of at most 66 columns (the `?` help box), also for the README."""


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
