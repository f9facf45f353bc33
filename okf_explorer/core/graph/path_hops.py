"""What each hop of a path says: the link's resolution rule and the sentence around it.

A hop `frm → to` is a link written on one of its two pages: on `frm` when it
runs that way (an `out` hop), on `to` for an `in` hop; a relation stated from
the other side (gbrain's incoming fields) is written on the page it points to.
The index keeps the rule of every link (`ResolvedLink`); the sentence is cut
from the writing page's body by the core grammar's spans (`core.links.spans`),
matching the link's target as written, else (another spelling of the same
link) by the one resolver. Reading a page is blocking: call this in a worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from okf_explorer.core.errors import OkfError
from okf_explorer.core.graph.paths import NoPath, no_path_message
from okf_explorer.core.graph.traverse import LINKS, edge_records
from okf_explorer.core.links.spans import link_contexts

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.graph.paths import FoundPath, PathQuery, Step
    from okf_explorer.core.index.model import ResolvedLink
    from okf_explorer.core.links.grammar import LinkKind

WRITTEN = {"wiki": "[[{}]]", "embed": "![[{}]]", "markdown": "({})"}
"""How a link of each kind is written (as `links --explain` shows it)."""


@dataclass(frozen=True, slots=True)
class HopDetail:
    """Why a hop exists: the page the link is written on, the target as written,
    the SPEC §3 rule that resolved it (None when no page states it: a server's
    stored link), whether several pages matched, and the sentence around it
    (None for a frontmatter relation, or when none is found)."""

    written_on: str
    written: str | None = None
    rule: str | None = None
    ambiguous: bool = False
    context: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "written_on": self.written_on,
            "written": self.written,
            "rule": self.rule,
            "ambiguous": self.ambiguous,
            "context": self.context,
        }


def path_details(brain: Brain, paths: list[FoundPath]) -> list[tuple[HopDetail, ...]]:
    """The details of every hop of `paths` (each page read at most once). Blocking."""
    bodies: dict[str, str | None] = {}
    return [tuple(_detail(brain, step, bodies) for step in path.steps) for path in paths]


def _detail(brain: Brain, step: Step, bodies: dict[str, str | None]) -> HopDetail:
    linker, linked = (step.frm, step.to) if step.direction == "out" else (step.to, step.frm)
    link = _stated(brain, linker, linked, step.rel)
    if link is None:
        return HopDetail(written_on=linker)
    on = linked if link.incoming else linker
    written = WRITTEN.get(link.kind, "{}").format(link.target)
    detail = HopDetail(on, written, link.rule, link.ambiguous)
    if link.rel != LINKS:
        return detail
    sentence = _sentence(brain, on, link, bodies)
    return HopDetail(on, written, link.rule, link.ambiguous, sentence)


def _stated(brain: Brain, linker: str, linked: str, rel: str) -> ResolvedLink | None:
    """The resolved link behind the edge `linker` → `linked` of relation `rel`."""
    forward = brain.ensure_index().forward
    for link in forward.get(linker, ()):
        if link.to == linked and link.rel == rel and not link.incoming:
            return link
    for link in forward.get(linked, ()):
        if link.to == linker and link.rel == rel and link.incoming:
            return link
    return None


def _sentence(
    brain: Brain, on: str, link: ResolvedLink, bodies: dict[str, str | None]
) -> str | None:
    if on not in bodies:
        try:
            bodies[on] = brain.page(on).content
        except OkfError:
            bodies[on] = None
    text = bodies[on]
    if text is None:
        return None
    found = link_contexts(text, lambda target, kind: target == link.target)
    if not found:

        def leads_here(target: str, kind: LinkKind) -> bool:
            try:
                return brain.resolve_link(on, target, kind, definitions=False).node == link.to
            except OkfError:
                return False

        found = link_contexts(text, leads_here)
    return found[0].text if found else None


def explained_paths(
    brain: Brain, query: PathQuery
) -> list[tuple[FoundPath, tuple[HopDetail, ...]]]:
    """The paths of `query` with their hops' details; `NoPath` when there is none.
    Blocking (builds the index and its path graph on first use, reads pages)."""
    found = brain.path_graphs().find(query)
    if not found:
        raise NoPath(no_path_message(query))
    return list(zip(found, path_details(brain, found), strict=True))


def path_record(path: FoundPath, details: tuple[HopDetail, ...]) -> dict[str, object]:
    """One path as `path --json` prints it: `{path, via_hub, edges, hops}`, where
    `edges` are SPEC §5 records (`hop` = position along the path) and `hops[i]`
    explains `edges[i]`."""
    return {
        "path": path.number,
        "via_hub": list(path.via_hub),
        "edges": edge_records(path.edges()),
        "hops": [detail.to_json() for detail in details],
    }
