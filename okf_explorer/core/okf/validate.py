"""OKF v0.2 §11 conformance of a bundle: errors (non-conformance) apart from warnings.

Errors, each making the bundle non-conformant (§11):

- `unreadable`: a file that cannot be read or is not UTF-8 (the index's `error`).
- `malformed-frontmatter`: frontmatter that is not parseable YAML or not a mapping.
- `missing-type`: a concept (any non-reserved page) whose frontmatter has no
  non-empty `type` (a page without a frontmatter block has none), or whose `type`
  is a list or a mapping rather than a short string.
- `index-frontmatter`: an `index.md` with frontmatter keys (§8): none are allowed,
  except `okf_version` in the bundle-root `index.md`.
- `log-heading`: a `log.md` level-2 heading (`## …`, outside code fences) that is
  not a real date written `YYYY-MM-DD` (§9).

Warnings, which never make a bundle non-conformant (consumers MUST NOT reject a
bundle for missing optional fields, unknown types, unknown keys or broken links):

- `broken-link`: a link (body or frontmatter) whose target matches no page; one that
  names a page but for look-alike characters (`core.links.look_alikes`: `CWE‑788`
  with a non-breaking hyphen) says which page and what differs.
- `ambiguous-link`: a link several pages match (the index picked the first).
- `unknown-field`: a concept's frontmatter key that OKF v0.2 does not define and that
  looks like a misspelt OKF field (`source` for `sources`, `stale-after`): the warning
  says which field was likely meant.
- `tags-not-list`: `tags` that is not a YAML list (§4.1: "a YAML list of short
  strings"): a quoted flow list (`tags: "[okf, index]"`, read as the list it spells),
  a number or a mapping. A plain string (`tags: journal`, `tags: a, b`) is the shorthand
  Obsidian vaults write, read as its comma-separated parts, and not warned of.

Every other key OKF v0.2 does not define is an **extension**: §4.1 lets producers add
any keys ("Consumers ... MUST NOT reject documents with unrecognized fields") and §11
lists unknown keys among what never makes a bundle non-conformant. Extensions are not
findings; the report counts the pages carrying each (`ValidationReport.extensions`).
`not` is one: the v0.2 text defines no `not` field; the reference bundle `acme_retail`
uses it as a producer convention (terms a metric does not mean), so it counts as an
extension, as `x-llmwiki` does in an LLM-written bundle.

A report reads well at any size: `groups()` folds the findings that say the same thing
(severity, code and message: the same key, the same missing target) into one group
with the pages that carry it, so 5,000 identical warnings are one line of the CLI. A
line number in the message does not part them: the same YAML slip at line 2 of one
template and line 14 of another is one group, `at lines 2-14`.
- `stale`: `stale_after` is in the past (§5.5). As the reference implementation
  does, only an ISO 8601 datetime with an explicit offset counts: a date-only or
  offset-less value is ignored. (A private check: `core.okf.meta` may own this later.)
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, Literal

from okf_explorer.core.errors import OkfError
from okf_explorer.core.links.look_alikes import differences
from okf_explorer.core.okf import meta as okf_meta
from okf_explorer.core.pages import headings
from okf_explorer.core.port import PageMapper

if TYPE_CHECKING:
    from okf_explorer.core.brain import Brain
    from okf_explorer.core.index.model import ResolvedLink
    from okf_explorer.core.pages import Page, PageInfo

Severity = Literal["error", "warning"]

KNOWN_FIELDS = frozenset(
    {
        # §4.1 required and recommended
        "type",
        "title",
        "description",
        "resource",
        "tags",
        # §5 provenance, trust, lifecycle
        "sources",
        "usage_window",
        "generated",
        "verified",
        "status",
        "stale_after",
        # §10 attested computations
        "runtime",
        "parameters",
        "computation",
        "executor",
        "attester",
        # §13.1 the v0.1 field `generated.at` supersedes (consumers MAY still read it)
        "timestamp",
    }
)
"""The frontmatter keys OKF v0.2 defines for a concept."""

MISSPELT_CUTOFF = 0.8
"""How close (difflib's ratio) an unknown key must be to an OKF field to read as a misspelling
of it: `source`/`sources` 0.92, `tag`/`tags` 0.86; `date`/`type` 0.5 and `decision`/
`description` stay extensions."""
MISSPELT_MEMORY = 4096
"""Keys whose reading (`misspelt_field`) is remembered: a bundle's distinct keys, bounded
for one that makes up a new key on every page."""

ROOT_INDEX_KEYS = frozenset({"okf_version"})
"""The only frontmatter key an `index.md` may carry, and only at the bundle root (§8, §12)."""

CONSUMER_NOTE = (
    "OKF v0.2 §11: warnings (broken links, misspelt fields, stale pages, ambiguous links) "
    "never make a bundle non-conformant; consumers must not reject a bundle for missing "
    "optional fields, unknown types or broken links"
)
"""The closing line of every report."""

_LOG_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem of one page (`slug` is the file path without `.md`)."""

    slug: str
    severity: Severity
    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"slug": self.slug, "code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class FindingGroup:
    """Findings that say the same thing (`severity`, `code`, `message`) of `slugs`, in slug
    order: one key misspelt the same way, one target missing from several pages. Or,
    `on_the_page` > 1: that many findings of one code on one page (`slugs`), each saying
    something else (a log's 1,010 headings that are no dates): `messages` are the first
    `FOLDED_SHOWN` of them."""

    severity: Severity
    code: str
    message: str
    slugs: tuple[str, ...]
    on_the_page: int = 1
    messages: tuple[str, ...] = ()


_LINE_NUMBER = re.compile(r"\bline (\d+)")
FOLD_ON_A_PAGE = 10
"""Findings of one code on one page, each its own, past which `groups` folds them in one:
an LLM-kept wiki's `log.md` heads each entry `## 2026-04-11 ingest | Title`, and
`validate` printed one error a heading, 1,010 lines for one file."""
FOLDED_SHOWN = 3
"""The findings a page's folded group quotes."""


def _lines_said(said: str, group: list[Finding]) -> str:
    """`said` (a message with `line #`) with the line numbers of `group`: one number as
    written, several as their range (`lines 2-14`)."""
    numbers = sorted({int(n) for f in group for n in _LINE_NUMBER.findall(f.message)})
    if not numbers:
        return said
    if len(numbers) == 1:
        return said.replace("line #", f"line {numbers[0]}")
    return said.replace("line #", f"lines {numbers[0]}-{numbers[-1]}")


def _folded_on_each_page(groups: list[FindingGroup]) -> list[FindingGroup]:
    """`groups`, with the groups of one page and one code folded in one, at the first's
    place, where there are more than `FOLD_ON_A_PAGE` of them."""
    alone: dict[tuple[Severity, str, str], list[FindingGroup]] = {}
    for group in groups:
        if len(group.slugs) == 1:
            alone.setdefault((group.severity, group.code, group.slugs[0]), []).append(group)
    folded: list[FindingGroup] = []
    for group in groups:
        same = alone.get((group.severity, group.code, group.slugs[0]), [])
        if len(group.slugs) > 1 or len(same) <= FOLD_ON_A_PAGE:
            folded.append(group)
        elif group is same[0]:
            shown = tuple(other.message for other in same[:FOLDED_SHOWN])
            folded.append(replace(group, on_the_page=len(same), messages=shown))
    return folded


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """Every finding over `files` Markdown files, errors first, each in slug order; and
    the extension keys (§4.1) with how many pages carry each, most used first."""

    files: int
    findings: tuple[Finding, ...]
    extensions: tuple[tuple[str, int], ...] = ()

    def groups(self) -> list[FindingGroup]:
        """The findings folded by what they say (a line number aside), errors first, each
        group placed at its first page (so a group of one is the finding itself, in the
        same order); a group's message names the range of its line numbers."""
        found: dict[tuple[Severity, str, str], list[Finding]] = {}
        for finding in self.findings:
            said = _LINE_NUMBER.sub("line #", finding.message)
            found.setdefault((finding.severity, finding.code, said), []).append(finding)
        groups = [
            FindingGroup(severity, code, _lines_said(said, group), tuple(f.slug for f in group))
            for (severity, code, said), group in found.items()
        ]
        return _folded_on_each_page(groups)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "warning")

    def conformant(self, *, strict: bool = False) -> bool:
        """No errors (and, with `strict`, no warnings either)."""
        return not self.errors and not (strict and self.warnings)


def validate_brain(brain: Brain, now: datetime | None = None) -> ValidationReport:
    """Check every page of `brain` (a folder brain: its index, then each page's frontmatter).

    A source that can (`PageMapper`: a folder) checks its pages where it reads them, in
    two worker processes for a large bundle (a 35k-page wiki read and parsed one page
    at a time took most of `validate`'s time); a page it cannot read, and one the index
    found malformed, are checked here, one at a time."""
    index = brain.ensure_index()
    moment = now or datetime.now(UTC)
    findings: list[Finding] = []
    extensions: Counter[str] = Counter()
    checked: dict[str, list[Finding]] = {}
    if isinstance(brain.source, PageMapper):
        plain = [s for s, info in index.pages.items() if info.readable and not _malformed(info)]
        for slug, (found, keys) in brain.source.map_pages(plain, _PageCheck(moment)):
            checked[slug] = found
            extensions.update(keys)
    for slug in sorted(index.pages):
        info = index.pages[slug]
        if slug in checked:
            findings += checked[slug]
        else:
            findings += _page_findings(brain, info, moment, extensions)
        findings += _link_findings(brain, slug, index.forward.get(slug, ()))
    order = {"error": 0, "warning": 1}
    unique = sorted(set(findings), key=lambda f: (order[f.severity], f.slug, f.code, f.message))
    used = tuple(sorted(extensions.items(), key=lambda item: (-item[1], item[0])))
    return ValidationReport(files=len(index.pages), findings=tuple(unique), extensions=used)


@dataclass(frozen=True, slots=True)
class _PageCheck:
    """A page read by its source → its findings and the extension keys it carries
    (picklable: it runs where the page is read). For pages the index read as readable
    and not malformed: `_page_findings` otherwise."""

    now: datetime

    def __call__(self, page: Page) -> tuple[list[Finding], list[str]]:
        extensions: Counter[str] = Counter()
        return _read_page_findings(page, None, self.now, extensions), list(extensions)


def _malformed(info: PageInfo) -> bool:
    return info.error_kind == "malformed"


def _page_findings(
    brain: Brain, info: PageInfo, now: datetime, extensions: Counter[str]
) -> list[Finding]:
    slug = info.slug
    if not info.readable:
        return [Finding(slug, "error", "unreadable", info.error or "cannot be read")]
    try:
        page = brain.page(slug)
    except OkfError as error:  # it went away or became unreadable since the scan
        return [Finding(slug, "error", "unreadable", " ".join(str(error).split()))]
    return _read_page_findings(page, info, now, extensions)


def _read_page_findings(
    page: Page, info: PageInfo | None, now: datetime, extensions: Counter[str]
) -> list[Finding]:
    """The findings of a page read; `info`: the index's row of it, when it may say the
    frontmatter is malformed (None: it does not)."""
    slug = page.slug
    if not page.readable:
        return [Finding(slug, "error", "unreadable", page.error or "cannot be read")]
    index_malformed = info is not None and _malformed(info)
    if page.error_kind == "malformed" or (index_malformed and not page.frontmatter):
        reason = page.error or (info.error if info is not None else None) or ""
        return [Finding(slug, "error", "malformed-frontmatter", reason)]
    # validate checks the folder as an OKF bundle: the reserved names apply even
    # where the explorer reads `index`/`log` as a vault's ordinary pages
    name = slug.rsplit("/", 1)[-1]
    if name == "index":
        return _index_findings(page)
    if name == "log":
        return _log_findings(page)
    return _concept_findings(page, now, extensions)


def _index_findings(page: Page) -> list[Finding]:
    allowed = ROOT_INDEX_KEYS if "/" not in page.slug else frozenset()
    extra = sorted(str(key) for key in page.frontmatter if key not in allowed)
    if not extra:
        return []
    where = "only okf_version, at the bundle root" if allowed else "none in a subfolder"
    keys = ", ".join(extra)
    message = f"index.md carries frontmatter keys {keys} ({where}; OKF §8)"
    return [Finding(page.slug, "error", "index-frontmatter", message)]


def _log_findings(page: Page) -> list[Finding]:
    why = "is not a YYYY-MM-DD date (OKF §9)"
    return [
        Finding(page.slug, "error", "log-heading", f"'## {heading}' {why}")
        for heading in headings(page.content, 2)
        if not _is_log_date(heading)
    ]


def _is_log_date(text: str) -> bool:
    if _LOG_DATE.fullmatch(text) is None:
        return False
    try:
        date.fromisoformat(text)
    except ValueError:  # 2026-13-40
        return False
    return True


def _concept_findings(page: Page, now: datetime, extensions: Counter[str]) -> list[Finding]:
    findings: list[Finding] = []
    problem = _type_problem(page.frontmatter.get("type"))
    if problem is not None:
        findings.append(Finding(page.slug, "error", "missing-type", problem))
    for key in sorted(str(key) for key in page.frontmatter if key not in KNOWN_FIELDS):
        meant = misspelt_field(key)
        if meant is None:
            extensions[key] += 1
            continue
        message = f"frontmatter key '{key}' is not an OKF v0.2 field (did you mean '{meant}'?)"
        findings.append(Finding(page.slug, "warning", "unknown-field", message))
    tags_problem = _tags_problem(page.frontmatter.get("tags"))
    if tags_problem is not None:
        findings.append(Finding(page.slug, "warning", "tags-not-list", tags_problem))
    stale_after = okf_meta.stale_after(page.frontmatter)
    if stale_after is not None and now >= stale_after:
        message = f"stale since {stale_after.isoformat()} (stale_after)"
        findings.append(Finding(page.slug, "warning", "stale", message))
    return findings


@functools.lru_cache(maxsize=MISSPELT_MEMORY)
def misspelt_field(key: str) -> str | None:
    """The OKF v0.2 field `key` most likely misspells (`stale-after`, `Source`, `tag`), or
    None for an extension key (§4.1). An `x-` prefix always marks an extension.
    Remembered: a bundle repeats its keys on every page (a 35k-page wiki asked 224,763
    times about 131 keys, 60 % of its `validate` in `difflib`)."""
    loose = key.strip().casefold().replace("-", "_")
    if loose.startswith("x_"):
        return None
    if loose in KNOWN_FIELDS:
        return loose
    close = difflib.get_close_matches(loose, KNOWN_FIELDS, n=1, cutoff=MISSPELT_CUTOFF)
    return close[0] if close else None


def _tags_problem(value: Any) -> str | None:
    """Why `tags` is not a YAML list, or None when it is (or is absent, or a plain
    string: `tags: journal`, `tags: a, b`, the shorthand Obsidian vaults write, read as
    its comma-separated parts). The message names no tag, so that a bundle's pages
    written alike are one group."""
    if value is None or isinstance(value, list):
        return None
    if isinstance(value, str):
        listed = value.strip()
        if listed.startswith("[") and listed.endswith("]"):
            return "'tags' is a quoted string, not a YAML list: write tags: [a, b] unquoted"
        return None
    kind = "a mapping" if isinstance(value, dict) else f"a {type(value).__name__}"
    return f"'tags' is {kind}, not a YAML list of short strings"


def _type_problem(value: Any) -> str | None:
    """Why `type` is not a non-empty short string, or None when it is."""
    if value is None:
        return "no 'type' in the frontmatter (a page without frontmatter has none)"
    if isinstance(value, (dict, list)):
        kind = "a list" if isinstance(value, list) else "a mapping"
        return f"'type' is {kind}, not a short string"
    if not str(value).strip():
        return "'type' is empty"
    return None


def _link_findings(brain: Brain, slug: str, links: Iterable[ResolvedLink]) -> list[Finding]:
    findings: list[Finding] = []
    for link in links:
        if not link.exists:
            message = f"link '{link.target}' matches no page"
            if (like := brain.look_alike(slug, link)) is not None:  # `[[CWE‑788]]`
                message += f"; it looks like {like}: {', '.join(differences(link.target))}"
            findings.append(Finding(slug, "warning", "broken-link", message))
        elif link.ambiguous:
            count, others = len(link.candidates), ", ".join(link.candidates)
            message = f"link '{link.target}' matches {count} pages ({others}); opens {link.to}"
            findings.append(Finding(slug, "warning", "ambiguous-link", message))
    return findings
