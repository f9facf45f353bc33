"""gbrain's reply shapes built from our pages and links (GBRAIN_PROTOCOL §4).

Pages: the body is split into `compiled_truth` and the `## Timeline` section;
`type`, `title` and `tags` come out of the frontmatter. Links: one row per
(from, to, relation). A body link is reported as gbrain reports a plain link, `link_type`
`mentions` with `link_source` `markdown`; a typed edge (SPEC §5 `rel`) as its
relation. A link's `context` is the sentence around its first mention, at most 240
characters, the link as written (`core.links.spans`, the sentence `b` shows in the
explorer). Where a typed edge is stated says the rest, as gbrain says it:

- in the frontmatter: `link_source` `frontmatter`, `origin_slug` the page whose
  frontmatter states it, `origin_field` the key, and `context` `frontmatter.<key>:
  <target as written>`;
- in the body (an inline field `rel:: [[x]]`, a Basic Memory relation line `- rel
  [[x]]`): `link_source` `markdown` and the sentence around it, as a body link.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import yaml

from okf_explorer.core.errors import OkfError
from okf_explorer.core.graph.traverse import LINKS
from okf_explorer.core.index.model import ResolvedLink
from okf_explorer.core.links.dialects import as_written
from okf_explorer.core.links.grammar import extract_link_tuples
from okf_explorer.core.links.relation_lines import writes_relations
from okf_explorer.core.links.spans import WikiSpan, first_link_context, link_spans
from okf_explorer.core.links.typed import stating_fields
from okf_explorer.core.pages import Markup, Page, PageInfo, _jsonable
from okf_explorer.core.port import ServerLink, relation_of

SOURCE_ID = "default"
"""gbrain's source id for a single-source brain; we serve exactly one."""
LIFTED_KEYS = frozenset({"type", "title", "tags"})

_TIMELINE = re.compile(r"^##[ \t]+timeline[ \t]*#*[ \t]*$", re.IGNORECASE | re.MULTILINE)
_HEADING = re.compile(r"^#{1,2}[ \t]+\S", re.MULTILINE)
_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)", re.MULTILINE)


class BrainLike(Protocol):
    """What the shapes need of a `Brain` (the facade in `core.brain`)."""

    source: Any

    @property
    def local_root(self) -> Path | None: ...

    def page(self, slug: str) -> Page: ...

    def link_text(self, slug: str) -> str: ...

    def markup(self) -> Markup: ...

    def forward_links(self, slug: str) -> list[ResolvedLink]: ...

    def backlinks(self, slug: str) -> list[str]: ...

    def out_edges(self, slug: str) -> list[tuple[str, str]]: ...

    def in_edges(self, slug: str) -> list[tuple[str, str]]: ...


def split_timeline(body: str) -> tuple[str, str]:
    """`(compiled_truth, timeline)`: the `## Timeline` section cut out of the body.

    The section runs to the next level-1/2 heading or the end; a heading inside
    a fenced code block does not count.
    """
    fenced = _fenced_spans(body)
    start = next((m for m in _TIMELINE.finditer(body) if not _within(m.start(), fenced)), None)
    if start is None:
        return body.strip(), ""
    after = start.end()
    end = next(
        (m.start() for m in _HEADING.finditer(body, after) if not _within(m.start(), fenced)),
        len(body),
    )
    truth = (body[: start.start()].rstrip() + "\n\n" + body[end:].lstrip()).strip()
    return truth, body[start.start() : end].strip()


def _fenced_spans(body: str) -> list[tuple[int, int]]:
    marks = [m.start() for m in _FENCE.finditer(body)]
    if len(marks) % 2:
        marks.append(len(body))
    return list(zip(marks[::2], marks[1::2], strict=True))


def _within(position: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in spans)


def canonical_markdown(page: Page) -> str:
    """Frontmatter re-serialised as YAML (tags as a block list) plus the body."""
    if not page.frontmatter:
        return page.content
    return f"---\n{frontmatter_yaml(_jsonable(page.frontmatter))}---\n\n{page.content.lstrip()}"


_C_DUMPER = getattr(yaml, "CSafeDumper", None)
_LIBYAML_TEXT = re.compile(r"[\t\n\x20-\x7e\xa0-\ud7ff\ue000-\ufffd]*")
_LIBYAML_KEY_BYTES = 128


def frontmatter_yaml(data: dict[str, Any]) -> str:
    """`yaml.safe_dump(data)` in block style, through libyaml when that writes the same text.

    libyaml is about four times faster, but its emitter differs from PyYAML's on
    empty keys, keys of 128 bytes or more (counted in bytes, not characters),
    control and astral-plane characters; such frontmatter takes the Python emitter,
    so the text never depends on how PyYAML was built.
    """
    dumper = _C_DUMPER if _C_DUMPER is not None and _libyaml_writes_the_same(data) else None
    return yaml.dump(
        data,
        Dumper=dumper or yaml.SafeDumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
    )


def _libyaml_writes_the_same(value: Any) -> bool:
    if isinstance(value, str):
        return _LIBYAML_TEXT.fullmatch(value) is not None
    if isinstance(value, dict):
        return all(
            isinstance(key, str)
            and 0 < len(key.encode("utf-8", "surrogatepass")) < _LIBYAML_KEY_BYTES
            and _libyaml_writes_the_same(key)
            and _libyaml_writes_the_same(item)
            for key, item in value.items()
        )
    if isinstance(value, list):
        return all(_libyaml_writes_the_same(item) for item in value)
    return value is None or isinstance(value, bool | int | float)


def content_hash(brain: BrainLike, page: Page) -> str:
    """sha256 of the page file's bytes when the source is a folder, else of the canonical text."""
    data = _file_bytes(brain, page.slug)
    if data is None:
        data = canonical_markdown(page).encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def _file_bytes(brain: BrainLike, slug: str) -> bytes | None:
    root = brain.local_root
    if root is None:
        return None
    from okf_explorer.sources.folder.page_paths import page_path  # only folder sources have files

    try:
        with open(page_path(str(root), slug), "rb") as handle:
            return handle.read()
    except (OkfError, OSError):
        return None


def page_record(brain: BrainLike, page: Page, *, include_content: bool) -> dict[str, Any]:
    """gbrain's `get_page` object. `created_at` is `updated_at`: files keep no birth time."""
    truth, timeline = split_timeline(page.content)
    frontmatter = {k: v for k, v in page.frontmatter.items() if str(k) not in LIFTED_KEYS}
    record: dict[str, Any] = {
        "slug": page.slug,
        "type": page.type,
        "title": page.title,
        "compiled_truth": truth,
        "timeline": timeline,
        "frontmatter": _jsonable(frontmatter),
        "content_hash": content_hash(brain, page),
        "created_at": page.updated_at,
        "updated_at": page.updated_at,
        "deleted_at": None,
        "source_id": SOURCE_ID,
        "tags": list(page.tags),
    }
    if include_content:
        record["content"] = canonical_markdown(page)
    return record


def list_row(info: PageInfo) -> dict[str, Any]:
    """gbrain's `list_pages` row: exactly these five keys."""
    return {
        "slug": info.slug,
        "source_id": SOURCE_ID,
        "type": info.type,
        "title": info.title,
        "updated_at": info.updated_at,
    }


GENERIC_LINK_TYPE = "mentions"
"""gbrain's `link_type` for a plain link (our relation `links`)."""


def gbrain_link_type(rel: str) -> str:
    """The `link_type` gbrain would report for our relation `rel`."""
    return GENERIC_LINK_TYPE if rel == LINKS else rel


@dataclass(frozen=True, slots=True)
class Stated:
    """Where an edge is written: its `context`, `link_source` (`markdown`: in a page's
    body; `frontmatter`) and, for one a frontmatter states, the page (`origin_slug`) and
    the key (`origin_field`)."""

    context: str
    link_source: str = "markdown"
    origin_slug: str | None = None
    origin_field: str | None = None


def link_row(frm: str, to: str, stated: Stated, rel: str = LINKS) -> dict[str, Any]:
    """gbrain's `get_links` / `get_backlinks` row for one edge of relation `rel`."""
    return {
        "from_slug": frm,
        "from_source_id": SOURCE_ID,
        "to_slug": to,
        "to_source_id": SOURCE_ID,
        "link_type": gbrain_link_type(rel),
        "context": stated.context,
        "link_source": stated.link_source,
        "origin_slug": stated.origin_slug,
        "origin_source_id": None if stated.origin_slug is None else SOURCE_ID,
        "origin_field": stated.origin_field,
    }


class ContextCache:
    """Where links are written (`Stated`: their contexts), kept across calls, each valid
    while the pages it was read from are unchanged (their `fingerprint`).

    Without it every `get_backlinks` of a hub re-reads every page linking to it.
    Bounded (least recently used out first) and thread-safe.
    """

    def __init__(self, size: int = 100_000) -> None:
        self._size = size
        self._items: OrderedDict[tuple[str, str, str], tuple[str, Stated]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, edge: tuple[str, str, str], fingerprint: str) -> Stated | None:
        """What was kept of `edge` `(from, to, rel)`, if read from pages of `fingerprint`."""
        with self._lock:
            found = self._items.get(edge)
            if found is None or found[0] != fingerprint:
                return None
            self._items.move_to_end(edge)
            return found[1]

    def put(self, edge: tuple[str, str, str], fingerprint: str, stated: Stated) -> None:
        with self._lock:
            self._items[edge] = (fingerprint, stated)
            self._items.move_to_end(edge)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


CONTEXTS: ContextVar[ContextCache | None] = ContextVar("okf_link_contexts", default=None)
"""The cache the current tool call may use (set by the transport; None in plain calls)."""


class LinkReader:
    """Resolved links and contexts for one tool call, each page read at most once.

    Dangling targets are dropped, as gbrain never stores them. A page that
    cannot be read has no links and empty contexts.
    """

    def __init__(self, brain: BrainLike, hidden: Collection[str] = ()) -> None:
        self._brain = brain
        self._hidden = hidden
        """Pages the caller may not see: no edge to or from them is read."""
        self._forward: dict[str, list[ResolvedLink]] = {}
        self._edges: dict[tuple[str, str], list[ServerLink]] = {}
        self._bodies: dict[str, tuple[str, list[WikiSpan]]] = {}
        self._pages: dict[str, Page | None] = {}
        self._fields: dict[str, dict[tuple[str, str, bool], str]] = {}
        self._in_body: dict[str, set[tuple[str, str, bool]]] = {}
        self._cache = CONTEXTS.get()
        self._markup = brain.markup()  # `Brain.link_text`'s links, as the page writes them

    def out(self, slug: str) -> list[ResolvedLink]:
        """Existing body-link targets of `slug`, first appearance order, one per target slug."""
        if slug not in self._forward:
            try:
                links = self._brain.forward_links(slug)
            except OkfError:
                links = []
            seen: set[str] = set()
            kept = []
            for link in links:
                if (
                    link.exists
                    and link.rel == LINKS
                    and link.to not in seen
                    and link.to not in self._hidden
                ):
                    seen.add(link.to)
                    kept.append(link)
            self._forward[slug] = kept
        return self._forward[slug]

    def out_slugs(self, slug: str) -> list[str]:
        """The edges leaving `slug` to existing pages, each a `ServerLink` carrying its
        relation, one per (page, relation), first appearance first."""
        return self._edges_of(slug, "out")

    def in_slugs(self, slug: str) -> list[str]:
        """The edges into `slug` as `ServerLink`s, slug order, one per (page, relation)."""
        return self._edges_of(slug, "in")

    def _edges_of(self, slug: str, way: str) -> list[ServerLink]:
        key = (slug, way)
        if key not in self._edges:
            try:
                pairs = self._brain.out_edges(slug) if way == "out" else self._brain.in_edges(slug)
            except OkfError:
                pairs = []
            index = getattr(self._brain, "index", None)
            self._edges[key] = [
                ServerLink(node, rel)
                for node, rel in dict.fromkeys(pairs)
                if (index is None or index.exists(node)) and node not in self._hidden
            ]
        return self._edges[key]

    def stated(self, frm: str, to: str, rel: str = LINKS) -> Stated:
        """Where the edge `frm → to` of relation `rel` is written (see the module doc):
        read from `frm`'s page (a body link) or from both pages (a typed edge, stated on
        either side), and kept while they are unchanged."""
        edge = (frm, to, rel)
        fingerprint = self._fingerprint(frm)
        if rel != LINKS and fingerprint:
            fingerprint = f"{fingerprint} {self._fingerprint(to)}"
        if self._cache is not None and fingerprint:
            cached = self._cache.get(edge, fingerprint)
            if cached is not None:
                return cached
        stated = Stated(self._context(frm, to)) if rel == LINKS else self._typed(frm, to, rel)
        if self._cache is not None and fingerprint:
            self._cache.put(edge, fingerprint, stated)
        return stated

    def edge_context(self, frm: str, to: str, rel: str = LINKS) -> str:
        """The `context` of the edge `frm → to` of relation `rel` (`stated`'s)."""
        return self.stated(frm, to, rel).context

    def _context(self, frm: str, to: str) -> str:
        """The context of the body link `frm → to`: the text around the raw target that
        resolved to `to`."""
        target = next((link.target for link in self.out(frm) if link.to == to), None)
        if target is None:
            return ""
        body, spans = self._spans(frm)
        return as_written(self._markup, first_link_context(body, target, spans))

    def _typed(self, frm: str, to: str, rel: str) -> Stated:
        """Where the typed edge is written: on `frm`'s page, or on `to`'s (a relation
        stated from the target's side); in its frontmatter, else in its body."""
        for stater, other in ((frm, to), (to, frm)):
            link = next(
                (ln for ln in self._links_of(stater) if ln.to == other and ln.rel == rel), None
            )
            if link is None:
                continue
            key = (link.target, rel, link.incoming)
            field = self._stating_fields(stater).get(key)
            if field is None and key in self._typed_in_body(stater):
                body, spans = self._spans(stater)
                return Stated(
                    as_written(self._markup, first_link_context(body, link.target, spans))
                )
            field = field or rel
            return Stated(f"frontmatter.{field}: {link.target}", "frontmatter", stater, field)
        return Stated("", "frontmatter")

    def _links_of(self, slug: str) -> list[ResolvedLink]:
        try:
            return self._brain.forward_links(slug)
        except OkfError:
            return []

    def _page(self, slug: str) -> Page | None:
        if slug not in self._pages:
            try:
                self._pages[slug] = self._brain.page(slug)
            except OkfError:
                self._pages[slug] = None
        return self._pages[slug]

    def _stating_fields(self, slug: str) -> dict[tuple[str, str, bool], str]:
        """The frontmatter key stating each typed link of `slug`'s frontmatter, by
        `(target, rel, incoming)` (`typed.stating_fields`)."""
        if slug not in self._fields:
            page = self._page(slug)
            self._fields[slug] = {} if page is None else stating_fields(page.frontmatter, page.type)
        return self._fields[slug]

    def _typed_in_body(self, slug: str) -> set[tuple[str, str, bool]]:
        """The typed links `slug`'s body states (inline fields, Basic Memory's relation
        lines), by `(target, rel, incoming)`."""
        if slug not in self._in_body:
            page = self._page(slug)
            found: set[tuple[str, str, bool]] = set()
            if page is not None:
                body, _ = self._spans(slug)
                rows = extract_link_tuples(body, relation_lines=writes_relations(page.frontmatter))
                found = {(row[0], row[4], row[5]) for row in rows if row[4] != LINKS}
            self._in_body[slug] = found
        return self._in_body[slug]

    def _fingerprint(self, slug: str) -> str:
        index = getattr(self._brain, "index", None)
        info = index.pages.get(slug) if index is not None else None
        return info.fingerprint if info is not None else ""

    def _spans(self, slug: str) -> tuple[str, list[WikiSpan]]:
        """The page's body and its links' spans, found once per call."""
        if slug not in self._bodies:
            try:
                body = self._brain.link_text(slug)  # a Logseq graph's tags are links
            except OkfError:
                body = ""
            self._bodies[slug] = (body, link_spans(body))
        return self._bodies[slug]

    def forward_rows(self, slug: str) -> list[dict[str, Any]]:
        return [self._row(slug, to, relation_of(to)) for to in self.out_slugs(slug)]

    def backward_rows(self, slug: str) -> list[dict[str, Any]]:
        return [self._row(frm, slug, relation_of(frm)) for frm in self.in_slugs(slug)]

    def _row(self, frm: str, to: str, rel: str) -> dict[str, Any]:
        frm, to = str(frm), str(to)
        return link_row(frm, to, self.stated(frm, to, rel), rel)


# --- get_backlinks {group: "page"}: one row per referring page ------------------------

PREVIEW_CHARS = 160
"""gbrain's preview: the first characters of a referrer's body text."""
COVERAGE = {"state": "complete", "pending_pages": 0, "last_pass_at": None}
"""gbrain's mention-index coverage: ours is the index itself, always complete."""
_FIRST_H1 = re.compile(r"\A\s*#[ \t][^\n]*\n?")
Cursor = tuple[str | None, str, str]


def referrer_type(info: PageInfo) -> str:
    """gbrain's `canonical_type` of a referring page: its type, `untyped` for none."""
    return info.type or "untyped"


def referrer_page(
    referrers: list[PageInfo], body: Callable[[str], str], limit: int, cursor: Cursor | None
) -> dict[str, Any]:
    """gbrain's `{rows, total, truncated, cursor, coverage}`: the referring pages newest
    first (`updated_at` descending, then slug; pages without a time last), `limit` of
    them after `cursor` (the last row of the page before)."""
    ordered = sorted(referrers, key=lambda info: info.slug)
    ordered.sort(key=lambda info: info.updated_at or "", reverse=True)
    if cursor is not None:
        keys = [_key(info) for info in ordered]
        ordered = ordered[keys.index(cursor) + 1 :] if cursor in keys else []
    kept = ordered[:limit]
    truncated = len(ordered) > limit
    return {
        "rows": [_referrer_row(info, body(info.slug)) for info in kept],
        "total": len(referrers),
        "truncated": truncated,
        "cursor": encode_cursor(_key(kept[-1])) if truncated and kept else None,
        "coverage": dict(COVERAGE),
    }


def _key(info: PageInfo) -> Cursor:
    return (info.updated_at, SOURCE_ID, info.slug)


def _referrer_row(info: PageInfo, body: str) -> dict[str, Any]:
    return {
        "slug": info.slug,
        "source_id": SOURCE_ID,
        "title": info.title,
        "type": info.type,
        "canonical_type": referrer_type(info),
        "date": info.updated_at,
        "date_source": "updated_at",
        "preview": preview(body),
    }


def preview(body: str) -> str:
    """gbrain's referrer preview: the body without its timeline and first `#` heading,
    whitespace collapsed, `PREVIEW_CHARS` characters at most."""
    truth, _ = split_timeline(body)
    text = " ".join(_FIRST_H1.sub("", truth, count=1).split())
    return text[:PREVIEW_CHARS]


def encode_cursor(key: Cursor) -> str:
    """gbrain's keyset cursor: the last row's `[date, source_id, slug]`, base64url JSON."""
    raw = json.dumps(list(key), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(text: str) -> Cursor | None:
    """The key `encode_cursor` wrote, or None for anything else."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    if (
        isinstance(value, list)
        and len(value) == 3
        and (value[0] is None or isinstance(value[0], str))
        and all(isinstance(part, str) for part in value[1:])
    ):
        return (value[0], value[1], value[2])
    return None
