"""Typed edges a page states in its frontmatter (SPEC §5 `rel`).

Links in a page's body have the relation `links` (or their inline field's:
`core.links.fields`). Frontmatter states others:

- **OKF v0.2 path-valued fields** (OKF §6.2) that point at a concept:
  `sources[].resource` → `derived_from` (OKF §5.1); `resource`, `computation`,
  `executor.resource` and `attester.resource` → their field name. A value with
  a URL scheme (`https:`), a scope descriptor (`all queries in project X`:
  whitespace, no `.md`) or a non-Markdown file (`references/attesters/x.py`)
  is not a concept and yields no edge. Values resolve by the path rules
  (kind `markdown`); one that misses stays a dangling edge, as a body link would.
- **gbrain's frontmatter link fields** (its `FRONTMATTER_LINK_MAP`, reimplemented
  from its documented behaviour): `related` / `see_also` → `related_to`,
  `source` → `source`, `sources` → `discussed_in` (incoming), and by page type
  `company`/`companies` → `works_at`, `founded` → `founded` (person);
  `key_people` → `works_at`, `partner` → `yc_partner`, `investors` →
  `invested_in` (company, incoming); `investors` → `invested_in`, `lead` →
  `led_round` (deal, incoming); `attendees` → `attended` (meeting, incoming).
  A value is a string or a list; list entries are strings or mappings whose
  `name`, `slug` or `title` names the page; a `[[target|alias]]` value is
  unwrapped to `target`. A name resolves as gbrain resolves it (`resolve_named`):
  a slug as is; else, for a field with folder hints (`company` → `companies/`,
  `sources` → `source/` or `media/`), `<folder>/<slugified name>`, else the
  wiki rules' answer if it lies in one of those folders; for a field without
  hints, the wiki rules (our stand-in for gbrain's fuzzy title match). As in
  gbrain, a name that matches no page yields no edge (free text is common in
  these fields: the sample brain's `sources` are descriptions).
  "Incoming" means the edge runs from the named page to this one
  (`key_people: [Pedro]` on a company: Pedro `works_at` the company).

- **Obsidian properties** (issue 27): any other top-level property whose value, or an
  entry of whose list, holds links in link syntax (`up: "[[a]]"`, `parents: ["[[a]]",
  "[[b]]"]`, `mentor: "[Ann](people/ann.md)"`) states an edge to each, named after the
  property as an inline field's key is (`fields.canonical_key`: `Parent Page` →
  `parent-page`), so `up:` and `up::` are one relation. They are links as written:
  they resolve by the link rules and a target that matches no page is a dangling edge.
  Obsidian's own list properties (`aliases`, `tags`, `cssclasses` and their singular
  forms) and `title` and `type` state none.

A value that names no page is no edge: a URL or any value with a scheme
(`https://…`, `mailto:…`), a protocol-relative `//host/…`, a mail address
(`is_external`). `external_references` lists them (the page header shows them as
external references).

`sources` is claimed by both: an entry that is a mapping with a `resource`
key is OKF provenance (`derived_from`, outgoing); any other entry (a string,
a mapping with `name`/`slug`/`title`) is gbrain's `discussed_in`. The shape of
each entry decides, so one list may hold both.

Not reproduced: gbrain's fuzzy (trigram) title match and its search fallback;
the wiki rules (exact, case, slugified, title, file name) stand in for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from okf_explorer.core.links.fields import canonical_key
from okf_explorer.core.links.grammar import (
    BODY_REL,
    LinkKind,
    RawLink,
    RawTuple,
    extract_link_tuples,
)
from okf_explorer.core.links.resolution import Resolution, SlugResolver, looks_like_path, slugify

MAX_TYPED_LINKS = 1000
"""At most this many frontmatter values are read as links per page (bounded work)."""

LINKS = BODY_REL
"""The relation of a link in a page's body."""


@dataclass(frozen=True, slots=True)
class FieldRelation:
    """One row of gbrain's field map: these fields state `rel` (on pages of `page_type`)."""

    fields: tuple[str, ...]
    rel: str
    incoming: bool = False
    page_type: str | None = None
    folders: tuple[str, ...] = ()


_ORGS = ("companies", "funds", "people")
GBRAIN_FIELDS: tuple[FieldRelation, ...] = (
    FieldRelation(("company", "companies"), "works_at", False, "person", ("companies",)),
    FieldRelation(("founded",), "founded", False, "person", ("companies",)),
    FieldRelation(("key_people",), "works_at", True, "company", ("people",)),
    FieldRelation(("partner",), "yc_partner", True, "company", ("people",)),
    FieldRelation(("investors",), "invested_in", True, "company", _ORGS),
    FieldRelation(("investors",), "invested_in", True, "deal", _ORGS),
    FieldRelation(("lead",), "led_round", True, "deal", _ORGS),
    FieldRelation(("attendees",), "attended", True, "meeting", ("people",)),
    FieldRelation(("sources",), "discussed_in", True, None, ("source", "media")),
    FieldRelation(("source",), "source", False),
    FieldRelation(("related", "see_also"), "related_to", False),
)
"""gbrain's `FRONTMATTER_LINK_MAP`, in its order (page-type rows apply to that type only);
`folders` are its folder hints: where a name is looked for."""

FOLDER_HINTS: dict[tuple[str, bool], tuple[str, ...]] = {
    (row.rel, row.incoming): row.folders for row in GBRAIN_FIELDS
}
"""`(rel, incoming)` → the folders a named page must lie in (each pair has one row's)."""

OKF_TOP_FIELDS: tuple[str, ...] = ("resource", "computation")
OKF_NESTED_FIELDS: tuple[str, ...] = ("executor", "attester")
DERIVED_FROM = "derived_from"

_LINK_FIELDS = frozenset(
    {*OKF_TOP_FIELDS, *OKF_NESTED_FIELDS, *(f for row in GBRAIN_FIELDS for f in row.fields)}
)
"""Every field that states a relation by its own rules (OKF, gbrain)."""
NOT_LINK_PROPERTIES = frozenset(
    {"aliases", "alias", "tags", "tag", "cssclasses", "cssclass", "title", "type"}
)
"""Properties whose links state no edge (Obsidian's own lists, the page's name and type)."""
_NO_PROPERTY_LINKS = _LINK_FIELDS | NOT_LINK_PROPERTIES
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\s]")
_MAIL = re.compile(r"[^\s@/:\[\]]+@[^\s@/:\[\]]+\.[^\s@/:\[\]]+")
_WIKI_VALUE = re.compile(r"\s*\[\[(.+?)\]\]\s*", re.DOTALL)


def frontmatter_links(frontmatter: Mapping[str, Any], page_type: str | None) -> list[RawTuple]:
    """Every typed link `frontmatter` states, as `RawLink.to_row()` tuples, first
    appearance first, de-duplicated by `(target, rel, incoming)` (repeats add to the
    count); at most `MAX_TYPED_LINKS` values are read."""
    if not frontmatter:
        return []
    found: dict[tuple[str, str, bool], RawLink] = {}
    for n, (link, _field) in enumerate(_stated(frontmatter, page_type)):
        if n >= MAX_TYPED_LINKS:
            break
        key = (link.target, link.rel, link.incoming)
        first = found.get(key)
        found[key] = link if first is None else replace(first, count=first.count + link.count)
    return [link.to_row() for link in found.values()]


def stating_fields(
    frontmatter: Mapping[str, Any], page_type: str | None
) -> dict[tuple[str, str, bool], str]:
    """The frontmatter key that states each of `frontmatter_links`' links, by its
    `(target, rel, incoming)`: the first that does (gbrain's `origin_field`, and the
    `frontmatter.<key>` of its context). A relation gbrain maps from a field is named
    by the field (`company` for `works_at`)."""
    fields: dict[tuple[str, str, bool], str] = {}
    if frontmatter:
        for n, (link, field) in enumerate(_stated(frontmatter, page_type)):
            if n >= MAX_TYPED_LINKS:
                break
            fields.setdefault((link.target, link.rel, link.incoming), field)
    return fields


def _stated(frontmatter: Mapping[str, Any], page_type: str | None) -> Iterator[tuple[RawLink, str]]:
    """Each link the frontmatter states, field by field (repeats included), with the key
    that states it."""
    if not _LINK_FIELDS.isdisjoint(frontmatter):
        for target, kind, rel, incoming, named, field in _field_relations(frontmatter, page_type):
            yield RawLink(target, kind, 1, None, rel, incoming, named), field
    for key, value in frontmatter.items():
        if key in _NO_PROPERTY_LINKS or not isinstance(key, str):
            continue
        for entry in value if isinstance(value, list) else (value,):
            if isinstance(entry, str) and "[" in entry:
                rows = extract_link_tuples(entry, inline_fields=False)
                rel = canonical_key(key) if rows else ""
                for target, kind, count, *_ in rows if rel else ():
                    yield RawLink(target, kind, count, None, rel), key


def _field_relations(
    frontmatter: Mapping[str, Any], page_type: str | None
) -> Iterator[tuple[str, LinkKind, str, bool, bool, str]]:
    """`(target, kind, rel, incoming, named, field)` of each OKF and gbrain field
    relation, `field` the key that states it."""
    for field in OKF_TOP_FIELDS:
        if (path := concept_path(frontmatter.get(field))) is not None:
            yield path, "markdown", field, False, False, field
    for field in OKF_NESTED_FIELDS:
        nested = frontmatter.get(field)
        path = concept_path(nested.get("resource")) if isinstance(nested, Mapping) else None
        if path is not None:
            yield path, "markdown", f"{field}.resource", False, False, field
    for row in GBRAIN_FIELDS:
        if row.page_type is not None and row.page_type != page_type:
            continue
        for field in row.fields:
            for entry in _entries(frontmatter.get(field)):
                if field == "sources" and isinstance(entry, Mapping) and "resource" in entry:
                    if (path := concept_path(entry.get("resource"))) is not None:
                        yield path, "markdown", DERIVED_FROM, False, False, field
                elif (name := _named(entry)) is not None and not _external_entry(entry):
                    kind: LinkKind = "markdown" if looks_like_path(name) else "wiki"
                    yield name, kind, row.rel, row.incoming, True, field


def is_external(value: str) -> bool:
    """Whether a link field's value names something outside the brain: a URL or any
    value with a scheme (`https://x`, `mailto:a@b.c`), `//host/x`, or a mail address."""
    text = value.strip()
    return bool(
        _URL.match(text) or text.startswith("//") or _MAIL.fullmatch(text)
    ) and not _WIKI_VALUE.fullmatch(text)


def external_href(value: str) -> str:
    """What opening an external reference opens: the URL, `mailto:` a mail address,
    `https:` before a protocol-relative `//host/x`."""
    text = value.strip()
    if text.startswith("//"):
        return "https:" + text
    if _MAIL.fullmatch(text) and not _URL.match(text):
        return "mailto:" + text
    return text


def external_references(frontmatter: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, value) of every external reference in a gbrain link field, in field
    order: values that are no page edge (`is_external`)."""
    found: list[tuple[str, str]] = []
    for row in GBRAIN_FIELDS:
        for field in row.fields:
            for entry in _entries(frontmatter.get(field)):
                name = _named(entry)
                if name is not None and _external_entry(entry) and (field, name) not in found:
                    found.append((field, name))
    return found


def _external_entry(entry: Any) -> bool:
    """Whether a field entry (a string, or a mapping's name) is an external reference."""
    if isinstance(entry, Mapping):
        entry = next((entry[k] for k in ("name", "slug", "title") if k in entry), None)
    return isinstance(entry, str) and is_external(entry)


def _entries(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _named(entry: Any) -> str | None:
    """The page a gbrain field entry names: a string, or a mapping's `name`/`slug`/`title`;
    a wholly wrapped `[[target#heading|alias]]` gives `target`."""
    if isinstance(entry, Mapping):
        entry = next((entry[k] for k in ("name", "slug", "title") if k in entry), None)
    if not isinstance(entry, str):
        return None
    wrapped = _WIKI_VALUE.fullmatch(entry)
    if wrapped is not None:
        entry = re.split(r"[|#^]", wrapped.group(1), maxsplit=1)[0]
    name = entry.strip()
    return name or None


def concept_path(value: Any) -> str | None:
    """An OKF path-valued field's value when it names a concept in the bundle, else None.

    A concept is a `.md` file, a folder (`tables/`), or a concept ID without an
    extension (`tables/orders`); URLs, scope descriptors (whitespace without
    `.md`) and other files (`x.py`, `x.sql`) are not.
    """
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or _SCHEME.match(text) or text.startswith("//"):
        return None
    if text.lower().endswith((".md", "/")):
        return text
    if any(c.isspace() for c in text):
        return None
    last = text.rstrip("/").rsplit("/", 1)[-1]
    if "." in last.strip("."):
        return None
    return text


def resolve_named(
    resolver: SlugResolver,
    slugs: Mapping[str, object],
    name: str,
    from_slug: str,
    rel: str,
    incoming: bool,
) -> Resolution:
    """Resolve a name from a gbrain link field the way gbrain does (see the module doc):
    a slug as is, else the field's folder hints, else the wiki rules (restricted to
    the hinted folders when there are any). Dangling when nothing fits."""
    if name in slugs:
        return Resolution(name, "exact")
    folders = FOLDER_HINTS.get((rel, incoming), ())
    plain = slugify(name)
    for folder in folders:
        if plain and (candidate := f"{folder}/{plain}") in slugs:
            return Resolution(candidate, "slugified")
    found = resolver.resolve(name, from_slug, "wiki")
    if found.exists and folders and not found.node.startswith(tuple(f + "/" for f in folders)):
        return Resolution(name, "dangling")
    return found
