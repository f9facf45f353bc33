"""Why a page links where it does: one record per distinct link of a walk, with the
target as written, the page it leads to, the SPEC §3 rule that resolved it and, when
several pages matched at that rule, every candidate.

The one entry point `links --explain` prints and `serve`'s `explain_links` answers
(faces are skins). An edge walked against its link (`in`) is explained on the page
the link is written on. A link a server's stored graph holds but no page body shows
(the index knows nothing of it) has no `written` and no `rule` (None; the CLI prints
`-`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from okf_explorer.core.graph.traverse import Edge
    from okf_explorer.core.index.model import ResolvedLink

LinkBetween = Callable[[str, str], "ResolvedLink | None"]
"""`link_between(frm, to)`: the resolved link written on `frm` that leads to `to`
(`Brain.link_between`)."""


@dataclass(frozen=True, slots=True)
class LinkExplanation:
    """One link: written on `frm` as `written`, leading to `to` (a slug, or the dangling
    node id) by `rule`; `candidates` are the pages that matched at that rule, the chosen
    one first, when there were several (else empty)."""

    frm: str
    to: str
    written: str | None
    rule: str | None
    candidates: tuple[str, ...] = ()

    def fields(self) -> list[str]:
        """The `links --explain` fields: FROM, WRITTEN, TO, RULE, then any candidates
        (`-` for what no page states)."""
        return [self.frm, self.written or "-", self.to, self.rule or "-", *self.candidates]

    def to_json(self) -> dict[str, Any]:
        """`{from, written, to, rule, candidates}` (what `explain_links` answers)."""
        return {
            "from": self.frm,
            "written": self.written,
            "to": self.to,
            "rule": self.rule,
            "candidates": list(self.candidates),
        }


def explain_edges(link_between: LinkBetween, edges: Iterable[Edge]) -> list[LinkExplanation]:
    """One explanation per distinct link of `edges`, in edge order."""
    found: dict[tuple[str, str], LinkExplanation] = {}
    for edge in edges:
        frm, to = (edge.frm, edge.to) if edge.direction == "out" else (edge.to, edge.frm)
        if (frm, to) in found:
            continue
        link = link_between(frm, to)
        if link is None:
            found[frm, to] = LinkExplanation(frm, to, None, None)
            continue
        candidates = tuple(link.candidates) if link.ambiguous else ()
        found[frm, to] = LinkExplanation(frm, link.to, link.written, link.rule, candidates)
    return list(found.values())
