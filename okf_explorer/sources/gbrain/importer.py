"""gbrain's importer, as its code does it: how `gbrain import` names and skips a folder's
files, and how `gbrain extract links` reads a page's links, so the audit
(`core.audit.compare`) can tell why an edge is on one side only by running the same
steps on the same text. `GBRAIN` is the model the audit takes (`core.audit.model.ServerImporter`).

A model of gbrain 0.46.28 (garrytan/gbrain at 01aab110, read from its source, MIT):

- **Page names** (`gbrain_slug`, its `slugifyPath`): the path without `.md`/`.mdx`,
  each segment NFD-folded (accents and Hebrew points dropped), lowercased, every
  character but letters, marks, digits, `.`, `_`, `-` and whitespace dropped,
  whitespace runs turned into `-`, hyphen runs collapsed, edge hyphens stripped.
  Dots are kept (`devbox.json`), unlike our own `slugify`.
- **Files import skips** (`import_skip_reason`, its `SYNC_SKIP_FILES`, `pruneDir`,
  `hasMalformedPathSegment`): `schema.md`, `index.md`, `log.md`, `README.md`,
  `RESOLVER.md`; anything under a folder starting with `.`, named `node_modules`,
  `vendor`, `dist`, `build`, `venv` or ending in `.raw`; names with brackets or
  control characters; names that slugify to nothing.
- **File-name index** (`basename_index`, `basename_matches`, its `buildBasenameIndex`):
  raw, lowercase and normalised last segment → slugs.

Its link extraction is a port of `extractPageLinks` on the DB path (`gbrain extract
links --source db`), checked against the real extractor by tests/test_audit_extract.py:

- **Code stripping** (`strip_code`, its `stripCodeBlocks`): a run of three backticks
  pairs with the *next* three backticks anywhere in the text, whatever stands
  between (an inline code span, an info string, a longer fence), and everything
  from one to the other is blanked; an unpaired run blanks the rest of the text.
  A single backtick pairs with the next one on the same line. `~~~` fences and
  indented code are not code to gbrain.
- **Link references** (`entity_refs`, its `extractEntityRefs`), in its pass order:
  `[t](dir/x.md)` with optional `../` runs (pass 1), `[t](name.md)` in the page's
  folder (1b), `[[source:dir/x]]` (2a), `[[dir/x]]` for its fixed folders (2b), any
  other `[[x]]` (2c), each pass blind to the spans the earlier ones took.
- **Candidates** (`page_candidates`, its `extractPageLinks`): a `[[dir/x]]` names
  `dir/x` as written, and (any folder) the pages whose slug is or ends with its
  slugified form, typed `wikilink_basename`; a bare `[[name]]` names the root page
  `slugify(name)`, and every page whose file name matches only with
  `link_resolution.global_basename` on; a slug-shaped `dir/name` in plain text is a
  candidate too; frontmatter fields (`FRONTMATTER_FIELDS`) only with
  `--include-frontmatter`, a name resolved by `GbrainNames.resolve`.
- A candidate is stored only when both its pages exist (`GbrainNames.holds`).

Each candidate says what it needs (`needs`: the settings without which gbrain does
not make it) and where it came from (`origin`, the span or field), so a difference
can be traced to the written link that explains it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from okf_explorer.core.audit.model import GLOBAL_BASENAME, INCLUDE_FRONTMATTER, Candidate

SKIPPED_FILE_NAMES = ("schema.md", "index.md", "log.md", "README.md", "RESOLVER.md")
PRUNED_FOLDER_NAMES = frozenset({"node_modules", "vendor", "dist", "build", "venv", ".raw"})
ENTITY_FOLDERS = frozenset(
    [
        "people",
        "companies",
        "meetings",
        "concepts",
        "deal",
        "civic",
        "project",
        "projects",
        "source",
        "media",
        "yc",
        "tech",
        "finance",
        "personal",
        "openclaw",
        "entities",
        "reference",
    ]
)
"""gbrain's `DIR_PATTERN`: `[[dir/…]]` in these folders is read as the literal slug only
(its pass 2b), never slugified or matched by suffix."""

_HYPHENS = re.compile(r"-+")
_WHITESPACE = re.compile(r"\s+")


def slugify_segment(segment: str) -> str:
    """One path segment as gbrain names it (its `slugifySegment`)."""
    folded = "".join(
        c
        for c in unicodedata.normalize("NFD", segment)
        if not ("\u0300" <= c <= "\u036f" or "\u0591" <= c <= "\u05c7")
    )
    kept = "".join(c for c in unicodedata.normalize("NFC", folded).lower() if _kept(c))
    return _HYPHENS.sub("-", _WHITESPACE.sub("-", kept)).strip("-")


def _kept(char: str) -> bool:
    if char in "._-" or char.isspace():
        return True
    category = unicodedata.category(char)
    return category in ("Ll", "Lm", "Lo") or category[0] in "MN"


def gbrain_slug(path: str) -> str:
    """The slug gbrain gives the file at `path` (relative; `.md` optional)."""
    path = re.sub(r"\.mdx?$", "", path, flags=re.IGNORECASE).replace("\\", "/")
    path = re.sub(r"^\.?/", "", path)
    return "/".join(s for s in map(slugify_segment, path.split("/")) if s)


def import_skip_reason(path: str) -> str | None:
    """Why `gbrain import` skips the file at `path` (relative, with `.md`), or None."""
    segments = path.split("/")
    for segment in segments[:-1]:
        if segment.startswith(".") or segment in PRUNED_FOLDER_NAMES or segment.endswith(".raw"):
            return f"gbrain's import skips the folder {segment}/"
    name = segments[-1]
    if name.startswith("."):
        return "gbrain's import skips hidden files"
    if re.search(r"[\x00-\x1f]", path) or re.search(r"[\[\]]", path):
        return "gbrain's import skips names with brackets or control characters"
    if name in SKIPPED_FILE_NAMES:
        return f"gbrain's import skips {name} files"
    if not gbrain_slug(path):
        return "the file name gives gbrain an empty slug"
    return None


def normalize_basename(name: str) -> str:
    """gbrain's `normalizeBasename` (keys of its file-name index)."""
    folded = "".join(c for c in unicodedata.normalize("NFD", name) if not "\u0300" <= c <= "\u036f")
    kept = "".join(
        c
        for c in unicodedata.normalize("NFC", folded).lower()
        if c == "-" or (_kept(c) and c not in "._")
    )
    return _WHITESPACE.sub("-", kept.strip())


def basename_index(slugs: Iterable[str]) -> dict[str, list[str]]:
    """gbrain's file-name index: raw, lowercase and normalised last segment → slugs."""
    index: dict[str, list[str]] = {}
    for slug in slugs:
        tail = slug.rsplit("/", 1)[-1]
        for key in dict.fromkeys((tail, tail.lower(), normalize_basename(tail))):
            if key:
                index.setdefault(key, []).append(slug)
    return index


def basename_matches(index: Mapping[str, list[str]], name: str) -> list[str]:
    """What gbrain's file-name lookup answers for `name` (raw, then lower, then normalised)."""
    name = name.strip()
    if not name:
        return []
    hit = index.get(name) or index.get(name.lower()) or index.get(normalize_basename(name))
    return sorted(hit or (), key=lambda s: (len(s), s))


# -- link extraction -------------------------------------------------------------

RefKind = Literal["markdown", "same_dir", "qualified", "wiki", "generic"]

_DIRS = "(?:" + "|".join(sorted(ENTITY_FOLDERS, key=lambda d: -len(d))) + ")"
_ANY_DIR = r"[a-z0-9][a-z0-9_-]*"
_ENTITY_REF = re.compile(r"\[([^\]]+)\]\((?:\.\./)*(" + _ANY_DIR + r"/[^)\s]+?)(?:\.md)?\)")
_SAME_DIR = re.compile(r"\[([^\]]+)\]\(([^)/:#\s]+?)\.md\)")
_QUALIFIED = re.compile(
    r"\[\[([a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?):("
    + _DIRS
    + r"/[^|\]#]+?)(?:#[^|\]]*?)?(?:\|([^\]]+?))?\]\]"
)
_WIKI = re.compile(r"\[\[(" + _DIRS + r"/[^|\]#]+?)(?:#[^|\]]*?)?(?:\|([^\]]+?))?\]\]")
_GENERIC = re.compile(r"\[\[([^|\]#\n\[]+?)(?:#[^|\]]*?)?(?:\|([^\]]+?))?\]\]")
_LABEL_WIKI = re.compile(r"\[[^\]\n]*\[\[[^\]\n]+\]\][^\]\n]*\]\([^)\n]+\)")
_WIKI_SPAN = re.compile(r"\[\[[^\]]*\]\]")
_PROSE = re.compile(r"\b(" + _ANY_DIR + r"/[a-z0-9][a-z0-9/-]*[a-z0-9])\b", re.ASCII)
_UPS = re.compile(r"^(?:\.\./)+")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_SLUG_SHAPED = re.compile(r"[a-z0-9][a-z0-9/_-]*")
_WIKI_VALUE = re.compile(r"^\s*\[\[(.+?)\]\]\s*$", re.DOTALL)
_TRIGRAM_WORD = re.compile(r"[^\W_]+")

FUZZY_TITLE_MIN = 0.55
"""gbrain's `findByTitleFuzzy` threshold for frontmatter names (pg_trgm similarity)."""


@dataclass(frozen=True, slots=True)
class FieldRule:
    """One row of gbrain's `FRONTMATTER_LINK_MAP`."""

    fields: tuple[str, ...]
    link_type: str
    incoming: bool
    hints: tuple[str, ...] = ()
    page_type: str | None = None


_ORGS = ("companies", "funds", "people")
FRONTMATTER_FIELDS: tuple[FieldRule, ...] = (
    FieldRule(("company", "companies"), "works_at", False, ("companies",), "person"),
    FieldRule(("founded",), "founded", False, ("companies",), "person"),
    FieldRule(("key_people",), "works_at", True, ("people",), "company"),
    FieldRule(("partner",), "yc_partner", True, ("people",), "company"),
    FieldRule(("investors",), "invested_in", True, _ORGS, "company"),
    FieldRule(("investors",), "invested_in", True, _ORGS, "deal"),
    FieldRule(("lead",), "led_round", True, _ORGS, "deal"),
    FieldRule(("attendees",), "attended", True, ("people",), "meeting"),
    FieldRule(("sources",), "discussed_in", True, ("source", "media")),
    FieldRule(("source",), "source", False),
    FieldRule(("related", "see_also"), "related_to", False),
)
"""gbrain's frontmatter fields in its order: `sources` entries are read by their
`name`, `slug` or `title` (never `resource`), as incoming `discussed_in` edges."""


@dataclass(frozen=True, slots=True)
class Ref:
    """One link reference gbrain finds in a text: `target` as it captured it (for a
    Markdown link the path after any `../` run, `ups` their count), `start`/`end` the
    span of the whole link."""

    kind: RefKind
    target: str
    start: int
    end: int
    ups: int = 0
    source_id: str | None = None


def strip_code(text: str) -> str:
    """`text` with code blanked to spaces (same length), as gbrain's `stripCodeBlocks`."""
    if "`" not in text:
        return text
    out: list[str] = []
    i, size = 0, len(text)
    while i < size:
        tick = text.find("`", i)
        if tick < 0:
            out.append(text[i:])
            break
        out.append(text[i:tick])
        i = tick
        if text.startswith("```", i):
            end = text.find("```", i + 3)
            if end < 0:
                out.append(" " * (size - i))
                break
            out.append(" " * (end + 3 - i))
            i = end + 3
            continue
        end = text.find("`", i + 1)
        if end < 0 or "\n" in text[i + 1 : end]:
            out.append("`")
            i += 1
            continue
        out.append(" " * (end + 1 - i))
        i = end + 1
    return "".join(out)


def code_pairs(text: str) -> list[tuple[int, int]]:
    """`(start, end)` of every ``` … ``` stretch gbrain blanks (an unpaired run to the end)."""
    pairs: list[tuple[int, int]] = []
    i, size = 0, len(text)
    while i < size:
        tick = text.find("`", i)
        if tick < 0:
            break
        if text.startswith("```", tick):
            end = text.find("```", tick + 3)
            pairs.append((tick, size if end < 0 else end + 3))
            if end < 0:
                break
            i = end + 3
            continue
        end = text.find("`", tick + 1)
        i = tick + 1 if end < 0 or "\n" in text[tick + 1 : end] else end + 1
    return pairs


def _mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _decoded(path: str) -> str:
    """`decodeURIComponent`, keeping the raw text when it would throw."""
    if "%" not in path or _BAD_ESCAPE.search(path):
        return path
    try:
        return bytes(_percent_bytes(path)).decode("utf-8")
    except UnicodeDecodeError:
        return path


def _percent_bytes(path: str) -> Iterator[int]:
    i = 0
    while i < len(path):
        if path[i] == "%":
            yield int(path[i + 1 : i + 3], 16)
            i += 3
        else:
            yield from path[i].encode("utf-8")
            i += 1


def _wiki_slug(captured: str) -> str | None:
    """A wiki target as gbrain keeps it (escaped-pipe tail and `.md` stripped), or
    None when it is skipped (empty, a URL)."""
    slug = re.sub(r"\\+$", "", captured.strip())
    if not slug or "://" in slug:
        return None
    return slug[:-3] if slug.endswith(".md") else slug


def entity_refs(text: str) -> list[Ref]:
    """Every link reference gbrain finds in `text`, in its pass order."""
    stripped = strip_code(text)
    refs: list[Ref] = []
    markdown_spans: list[tuple[int, int]] = []
    if "](" in stripped:
        for match in _ENTITY_REF.finditer(stripped):
            raw = match.group(0)
            destination = raw[raw.index("](") + 2 : -1]
            ups = _UPS.match(destination)
            refs.append(
                Ref(
                    "markdown",
                    _decoded(match.group(2)),
                    match.start(),
                    match.end(),
                    ups=len(ups.group(0)) // 3 if ups else 0,
                )
            )
            markdown_spans.append(match.span())
        for match in _SAME_DIR.finditer(stripped):
            refs.append(Ref("same_dir", _decoded(match.group(2)), match.start(), match.end()))
            markdown_spans.append(match.span())
    if "[[" not in stripped:
        return refs
    qualified_spans: list[tuple[int, int]] = []
    for match in _QUALIFIED.finditer(stripped):
        slug = _wiki_slug(match.group(2))
        if slug is None:
            continue
        refs.append(Ref("qualified", slug, match.start(), match.end(), source_id=match.group(1)))
        qualified_spans.append(match.span())
    wiki_spans: list[tuple[int, int]] = []
    for match in _WIKI.finditer(_mask(stripped, qualified_spans)):
        slug = _wiki_slug(match.group(1))
        if slug is None:
            continue
        refs.append(Ref("wiki", slug, match.start(), match.end()))
        wiki_spans.append(match.span())
    labels = [m.span() for m in _LABEL_WIKI.finditer(stripped)]
    generic = _mask(stripped, [*markdown_spans, *qualified_spans, *wiki_spans, *labels])
    for match in _GENERIC.finditer(generic):
        slug = _wiki_slug(match.group(1))
        if slug is None or ":" in slug:
            continue
        refs.append(Ref("generic", slug, match.start(), match.end()))
    return refs


def trigrams(text: str) -> frozenset[str]:
    """pg_trgm's trigrams of `text`: each alphanumeric word, lowercased, padded with
    two spaces before and one after."""
    found: set[str] = set()
    for word in _TRIGRAM_WORD.findall(text.lower()):
        padded = f"  {word} "
        found.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return frozenset(found)


def similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """pg_trgm's `similarity`: shared trigrams over all trigrams of both."""
    if not a or not b:
        return 0.0
    common = len(a & b)
    return common / (len(a) + len(b) - common)


@dataclass
class GbrainNames:
    """The server's pages as gbrain's extractor sees them: the slug set, its file-name
    index and the titles (for frontmatter names, `findByTitleFuzzy`)."""

    slugs: frozenset[str]
    titles: Mapping[str, str] = field(default_factory=dict)
    _index: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False)
    _title_grams: list[tuple[str, frozenset[str]]] | None = field(
        default=None, init=False, repr=False
    )
    _resolved: dict[tuple[str, tuple[str, ...]], str | None] = field(
        default_factory=dict, init=False, repr=False
    )

    def __post_init__(self) -> None:
        self._index = basename_index(self.slugs)

    def holds(self, candidate: Candidate) -> bool:
        """Whether gbrain stores `candidate` (both its pages exist)."""
        return candidate.target in self.slugs and candidate.page in self.slugs

    def by_file_name(self, name: str) -> list[str]:
        """Its `resolveBasenameMatches(name)`."""
        return basename_matches(self._index, name)

    def candidates(
        self,
        page: str,
        text: str,
        *,
        frontmatter: Mapping[str, Any] | None = None,
        page_type: str | None = None,
    ) -> list[Candidate]:
        """`page_candidates` of `page` over these pages."""
        return page_candidates(page, text, self, frontmatter=frontmatter, page_type=page_type)

    def resolve(self, name: str, hints: tuple[str, ...]) -> str | None:
        """Its batch `makeResolver().resolve(name, dirHint)`: a slug-shaped name as is,
        `<hint>/<name>` by the file-name form, then the best title match (pg_trgm,
        at least `FUZZY_TITLE_MIN`) within each hinted folder (or anywhere)."""
        name = name.strip()
        if not name:
            return None
        key = (name, hints)
        if key in self._resolved:
            return self._resolved[key]
        found: str | None = None
        if "/" in name and _SLUG_SHAPED.fullmatch(name) and name in self.slugs:
            found = name
        if found is None:
            plain = normalize_basename(name)
            found = next((f"{h}/{plain}" for h in hints if f"{h}/{plain}" in self.slugs), None)
        if found is None:
            for hint in hints or (None,):
                found = self._fuzzy_title(name, hint)
                if found is not None:
                    break
        self._resolved[key] = found
        return found

    def _fuzzy_title(self, name: str, folder: str | None) -> str | None:
        if self._title_grams is None:
            self._title_grams = [(slug, trigrams(t)) for slug, t in sorted(self.titles.items())]
        wanted = trigrams(name)
        prefix = f"{folder}/" if folder else ""
        best: tuple[float, str] | None = None
        for slug, grams in self._title_grams:
            if not slug.startswith(prefix):
                continue
            score = similarity(wanted, grams)
            if score >= FUZZY_TITLE_MIN and (best is None or score > best[0]):
                best = (score, slug)
        return best[1] if best else None


def page_candidates(
    page: str,
    text: str,
    names: GbrainNames,
    *,
    frontmatter: Mapping[str, Any] | None = None,
    page_type: str | None = None,
) -> list[Candidate]:
    """Every edge gbrain's extractor proposes for `page` whose body is `text` (compiled
    truth and timeline), with the settings each needs (see the module doc); the
    existence check (`names.holds`) is left to the caller."""
    found: list[Candidate] = []
    for ref in entity_refs(text):
        found.extend(_ref_candidates(page, ref, names))
    found.extend(_prose_candidates(page, text))
    if frontmatter:
        found.extend(_field_candidates(page, frontmatter, page_type, names))
    return found


def _ref_candidates(page: str, ref: Ref, names: GbrainNames) -> Iterator[Candidate]:
    def made(
        target: str, source: str = "markdown", needs: frozenset[str] = frozenset()
    ) -> Candidate:
        return Candidate(page, target, source, "link", ref.target, needs, ref.start, ref.end)

    if ref.kind == "same_dir":
        folders = page.split("/")[:-1]
        target = gbrain_slug("/".join([*folders, ref.target]))
        if target and target != page:
            yield made(target)
        return
    if ref.kind != "generic":
        if ref.ups:
            folders = page.split("/")[:-1]
            keep = max(0, len(folders) - ref.ups)
            yield made("/".join([*folders[:keep], ref.target]))
        else:
            yield made(ref.target)
        return
    bare = ""
    if "/" in ref.target:
        if ref.target != page:
            yield made(ref.target)
    else:
        bare = gbrain_slug(ref.target)
        if bare and bare != page:
            yield made(bare)
    slugified = gbrain_slug(ref.target) if "/" in ref.target else ""
    if "/" in slugified:
        tail = slugified.rsplit("/", 1)[1]
        matches = [
            m
            for m in names.by_file_name(tail)
            if m != ref.target and (m == slugified or m.endswith("/" + slugified))
        ]
        needs: frozenset[str] = frozenset()
    elif "/" not in ref.target:
        matches = [m for m in names.by_file_name(ref.target) if m != bare]
        needs = frozenset({GLOBAL_BASENAME})
    else:
        matches = []
    for match in matches:
        if match != page:
            yield made(match, "wikilink-resolved", needs)


def _prose_candidates(page: str, text: str) -> Iterator[Candidate]:
    plain = _WIKI_SPAN.sub(lambda m: " " * len(m.group(0)), strip_code(text))
    for match in _PROSE.finditer(plain):
        before = plain[match.start() - 1] if match.start() else ""
        if before in ("/", "(") or match.group(1) == page:
            continue
        yield Candidate(
            page, match.group(1), "markdown", "prose", match.group(1), start=match.start(),
            end=match.end(),
        )  # fmt: skip


def field_names(value: Any) -> Iterator[str]:
    """The names a gbrain frontmatter field holds: strings, and mappings' `name`,
    `slug` or `title` (the first that is set; a non-string skips the entry)."""
    for entry in value if isinstance(value, list) else [value]:
        if isinstance(entry, Mapping):
            keys = ("name", "slug", "title")
            entry = next((entry[k] for k in keys if entry.get(k) is not None), None)
        if isinstance(entry, str) and entry:
            yield entry


def unwrap_wikilink(value: str) -> str:
    """Its `unwrapWikilink`: a wholly wrapped `[[target#x|alias]]` → `target`."""
    match = _WIKI_VALUE.match(value)
    if match is None:
        return value
    return re.split(r"[|#^]", match.group(1), maxsplit=1)[0].strip()


def _field_candidates(
    page: str, frontmatter: Mapping[str, Any], page_type: str | None, names: GbrainNames
) -> Iterator[Candidate]:
    for rule in FRONTMATTER_FIELDS:
        if rule.page_type is not None and rule.page_type != page_type:
            continue
        for name in rule.fields:
            value = frontmatter.get(name)
            if value is None:
                continue
            for written in field_names(value):
                target = unwrap_wikilink(written)
                needs = frozenset({INCLUDE_FRONTMATTER})
                resolved = names.resolve(target, rule.hints)
                if resolved is None:
                    matches = [m for m in names.by_file_name(target) if m != page]
                    if len(matches) != 1:
                        continue
                    resolved, needs = matches[0], needs | {GLOBAL_BASENAME}
                frm, to = (resolved, page) if rule.incoming else (page, resolved)
                yield Candidate(
                    frm, to, "frontmatter", "field", written, needs, field=name,
                    link_type=rule.link_type,
                )  # fmt: skip


# -- the model the audit takes ---------------------------------------------------


def field_stating(frontmatter: Mapping[str, Any], rel: str, written: str) -> str:
    """The gbrain field of `frontmatter` that states `written` with relation `rel`
    (`rel` itself when none does)."""
    for rule in FRONTMATTER_FIELDS:
        if rule.link_type != rel:
            continue
        for name in rule.fields:
            values = frontmatter.get(name)
            if values is not None and any(
                unwrap_wikilink(v).strip() == written for v in field_names(values)
            ):
                return name
    return rel


_ASCII_DROPPED = re.compile(r"[^a-z0-9\-\s]")


def file_name_keys(name: str) -> tuple[str, ...]:
    """The keys gbrain's file-name index files `name`'s last segment under (as
    `basename_index`: raw, lowercase, normalised), the ASCII case fast."""
    tail = name.strip().rsplit("/", 1)[-1]
    if tail.isascii():
        normal = _WHITESPACE.sub("-", _ASCII_DROPPED.sub("", tail.lower()).strip())
    else:
        normal = normalize_basename(tail)
    return tuple(key for key in dict.fromkeys((tail, tail.lower(), normal)) if key)


class GbrainImporter:
    """gbrain's import and link extraction as the audit's `ServerImporter`."""

    name = "gbrain"

    def page_name(self, path: str) -> str:
        return gbrain_slug(path)

    def skip_reason(self, path: str) -> str | None:
        return import_skip_reason(path)

    def file_name_keys(self, name: str) -> tuple[str, ...]:
        return file_name_keys(name)

    def reader(self, slugs: frozenset[str], titles: Mapping[str, str]) -> GbrainNames:
        return GbrainNames(slugs, titles)

    def code_spans(self, text: str) -> list[tuple[int, int]]:
        return code_pairs(text)

    def field_value(self, written: str) -> str:
        return unwrap_wikilink(written).strip()

    def field_stating(self, frontmatter: Mapping[str, Any], rel: str, written: str) -> str:
        return field_stating(frontmatter, rel, written)


GBRAIN = GbrainImporter()
"""The model of gbrain's importer (what `sources.audit_gather` and `McpSource.importer`
hand the audit)."""
