"""Resolving names to slugs (SPEC §3, the resolution half): the one resolver.

Every path that turns a name into a page asks a `SlugResolver` built over the
corpus: link targets in the index, names typed by a person (resolved as a wiki
target on a root page, `from_slug=ROOT`), the server's fuzzy `get_page`, the
TUI's body links. The rules, in order:

1. path targets (a Markdown link, or a wiki target starting with `/`, `./`,
   `../` or ending in `/`): `/` is the bundle root, anything else the linking
   page's folder; a folder resolves to its `index` page, or without one to its `README`
   (as GitHub shows a folder: a docs repository links `./setup/`; rule `folder-index`).
   A path that matches no slug as written or by case matches the page whose
   slug is its gbrain name (rule `slugified`: a server lowercases and
   hyphenates the file names, `The%20Reason.md` is the page `the-reason`).
   A path without `/`, `./` or `../` in front that misses relative to the page
   is tried from the root with the wiki rules (as Obsidian writes such links).
2. `refdef`: a wiki target whose text equals the label of a reference
   definition on the same page (`[lint]: cli/lint.md`, as Foam writes them)
   resolves through that definition's path (the caller passes it).
3. wiki rules: `exact` slug; `case` (case-insensitive, NFC); `slugified`
   (gbrain's page names); `suffix` (a target containing `/` matches slugs
   ending in `/target`, case-insensitively); `basename` (the file name equals
   the target, case-insensitively); `alias` (frontmatter `aliases`); `title`
   (frontmatter `title`, case-insensitive, whitespace collapsed). A page's
   first heading never resolves links. In a brain whose app opens a folder by its
   name (`wiki_folders`: a Foam workspace, whose `[[projects]]` opens
   `projects/index.md`), last, `folder-index`: a folder named so, or whose path ends
   in `/target`, resolves to its `index` page, else its `README`.
4. ties at one rule: the candidate in the linking page's folder, else the one
   with the fewest folders, else the first in code-point order. The
   resolution then carries every candidate, the winner first.

Choices where the SPEC is silent:
- `.md` is stripped from wiki targets; titles and aliases are tried as written
  first, then without `.md`.
- A path that climbs above the bundle root is dangling; its node keeps the
  unresolvable `..` segments (`../outside`). A dangling folder's node is
  `<folder>/index`; a dangling wiki target's node is the target without `.md`.
The forms of a name the rules compare come first: gbrain's slug form (`slugify`),
case-folded keys (`fold`, `fold_name`), what a target looks like (`looks_like_path`,
`strip_md`) and the order of tied candidates (`tie_key`).

Last, the one suggester for a name that resolves to nothing (`suggest`: the CLI's
`no page` error, the TUI's `--start` notice, the server's fuzzy `get_page`). A page
is scored by its best name among its slug, file name, stated or displayed title and
aliases (case-folded, `.md` stripped):

- a name that starts one of the page's words (`graph` → `graph-view`,
  `Graph View`) scores 0.95, one contained anywhere in a name (`people/alic`)
  0.9;
- otherwise `difflib`'s similarity ratio, kept when at least `CUTOFF` (typos).

Only the best of those three kinds of match is offered (`graph` suggests
`graph-view`, not also `paragraphs`); best score first, then fewest folders,
then code-point order.
"""

from __future__ import annotations

import copy
import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from okf_explorer.core.links.grammar import LinkKind

if TYPE_CHECKING:
    from okf_explorer.core.pages import PageInfo


_WHITESPACE = re.compile(r"\s+")
_DROPPED = re.compile(r"[^\w.\-]")
_HYPHENS = re.compile(r"-{2,}")


def slugify_segment(segment: str) -> str:
    """One path segment in gbrain's slug form (see `slugify`)."""
    if segment.isascii():  # NFKD leaves ASCII as it is, with no combining marks
        plain = segment.lower()
    else:
        decomposed = unicodedata.normalize("NFKD", segment)
        plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    hyphenated = _DROPPED.sub("", _WHITESPACE.sub("-", plain))
    return _HYPHENS.sub("-", hyphenated).strip("-")


def slugify(text: str) -> str:
    """gbrain's slug form of a name: lowercase, accents stripped, whitespace → `-`,
    hyphens collapsed, other punctuation dropped; applied per `/` segment.

    Kept: letters and digits of any script, `-`, `_` and `.` (gbrain keeps all
    three: `devbox.json` stays `devbox.json`, `v1.2` stays `v1.2`); dropped: every
    other character. Segments that end up empty are dropped, so `a//b` and
    `a/!!/b` give `a/b`.
    `notes/My Draft Note` → `notes/my-draft-note`; `Café Über` → `cafe-uber`.
    """
    if text.isascii() and _is_plain_slug(lower := text.lower()):
        return lower  # every step below leaves a plain slug as it is
    segments = (slugify_segment(s) for s in text.split("/"))
    return "/".join(s for s in segments if s)


_PLAIN_SLUG = re.compile(r"[a-z0-9_]+(?:-[a-z0-9_]+)*(?:/[a-z0-9_]+(?:-[a-z0-9_]+)*)*")


def _is_plain_slug(text: str) -> bool:
    return _PLAIN_SLUG.fullmatch(text) is not None


def tie_key(slug: str) -> tuple[int, str]:
    """The order of candidates before the folder preference: fewest folders, then code points."""
    return (slug.count("/"), slug)


def folder_of(slug: str) -> str:
    """The folder of a page (`""` at the root)."""
    return slug.rpartition("/")[0]


def strip_md(target: str) -> str:
    """The target without a trailing `.md` (any case)."""
    return target[:-3] if target.lower().endswith(".md") else target


def fold_name(text: str) -> str:
    """The key of a title or alias: whitespace collapsed, case-folded."""
    return fold(" ".join(text.split()))


def fold(text: str) -> str:
    """Case-insensitive key; NFC first, so a macOS (NFD) file name matches a typed link."""
    return text.casefold() if text.isascii() else unicodedata.normalize("NFC", text).casefold()


def looks_like_path(target: str) -> bool:
    """True for targets the SPEC calls paths: ending in `.md` or `/`, or
    starting with `/`, `./`, `../`."""
    t = target.strip()
    return t.lower().endswith((".md", "/")) or t.startswith(("/", "./", "../"))


ResolveRule = Literal[
    "path",
    "folder-index",
    "refdef",
    "exact",
    "case",
    "slugified",
    "suffix",
    "basename",
    "alias",
    "title",
    "dangling",
]

ROOT = ""
"""The `from_slug` of a name typed by a person: a page at the bundle root."""

_MEMO_LIMIT = 1 << 20
"""At most this many wiki targets are remembered per resolver (bounded memory)."""


_NAME_TABLES = ("_aliases", "_titles")
"""The lookup tables made from titles and aliases (the others come from slugs alone)."""


class NamesNeeded(LookupError):
    """A `slugs_only` resolver met a name only titles or aliases can settle."""


@dataclass(frozen=True, slots=True)
class Resolution:
    """How a raw target resolved.

    `node` is the slug when resolved; for a dangling target it is the id of the
    missing node (the wiki target as written, or the normalised path without
    `.md`), so the graph can keep it. `candidates` is empty unless several pages
    matched at the winning rule: then it lists them all, the chosen one first.
    """

    node: str
    rule: ResolveRule
    candidates: tuple[str, ...] = ()

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1

    @property
    def exists(self) -> bool:
        return self.rule != "dangling"

    @property
    def slug(self) -> str | None:
        return self.node if self.exists else None


def _table(pairs: Iterable[tuple[str, str]]) -> dict[str, str | tuple[str, ...]]:
    """key → its slug, or a tuple of slugs in `tie_key` order when several share the
    key (pairs must come in that order). Most keys are unique: a bare string each."""
    table: dict[str, str | tuple[str, ...]] = {}
    for key, slug in pairs:
        found = table.setdefault(key, slug)
        if found is not slug:
            if isinstance(found, str):
                if found != slug:
                    table[key] = (found, slug)
            elif slug not in found:
                table[key] = (*found, slug)
    return table


def _choose(candidates: str | Sequence[str], folder: str, rule: ResolveRule) -> Resolution:
    """The winner of a tie (SPEC §3 rule 4), carrying every candidate, winner first."""
    if isinstance(candidates, str):
        return Resolution(candidates, rule)
    if len(candidates) == 1:
        return Resolution(candidates[0], rule)
    winner = next((c for c in candidates if folder_of(c) == folder), candidates[0])
    rest = tuple(c for c in candidates if c != winner)
    return Resolution(winner, rule, (winner, *rest))


class SlugResolver:
    """Resolves raw targets against one corpus (SPEC §3 rules, in order).

    Build once per corpus (`for_pages`, or slugs with their stated titles and
    aliases), then call `resolve` for each name. Only the slug set and the
    case-folded table are built up front; the other tables are built on the
    first miss that needs them, so a corpus whose links all match exactly or
    by case never slugifies a path. Safe to call from several threads: the
    only state a call changes is a memo of wiki results and the lazy tables.
    """

    def __init__(
        self,
        slugs: Iterable[str],
        titles: Mapping[str, str] | None = None,
        aliases: Mapping[str, Sequence[str]] | None = None,
        *,
        names_known: bool = True,
        wiki_folders: bool = False,
    ) -> None:
        ordered = sorted(set(slugs), key=tie_key)
        self._ordered = ordered
        self._slugs = frozenset(ordered)
        self._given_titles = titles or {}
        self._given_aliases = aliases or {}
        self._names_known = names_known
        self._wiki_folders = wiki_folders
        self._casefold = _table((fold(slug), slug) for slug in ordered)
        self._lazy: dict[str, Any] = {}
        self._wiki_memo: dict[str, tuple[ResolveRule, str | tuple[str, ...]]] = {}

    @classmethod
    def slugs_only(cls, slugs: Iterable[str], *, wiki_folders: bool = False) -> SlugResolver:
        """A resolver that knows the slugs but not yet the titles and aliases (a build
        resolves while pages are still being read): it answers every name the rules
        before `alias` settle, and raises `NamesNeeded` for any other, so whatever it
        answers is what the full resolver answers (`core.index.build`)."""
        return cls(slugs, names_known=False, wiki_folders=wiki_folders)

    @classmethod
    def for_pages(cls, pages: Iterable[PageInfo], *, wiki_folders: bool = False) -> SlugResolver:
        """The resolver of a corpus: its slugs, frontmatter titles and aliases
        (`wiki_folders`: a wiki name may name a folder, see the module doc)."""
        infos = list(pages)
        titles = {info.slug: info.title for info in infos if info.title_stated}
        aliases = {info.slug: info.aliases for info in infos if info.aliases}
        return cls((info.slug for info in infos), titles, aliases, wiki_folders=wiki_folders)

    @property
    def slugs(self) -> frozenset[str]:
        return self._slugs

    def _lookup(self, name: str) -> Any:
        """A lookup table by name, built once (a race builds it twice, harmlessly)."""
        found = self._lazy.get(name)
        if found is None:
            found = self._lazy[name] = getattr(self, "_build" + name)()
        return found

    def warm(self, *, names: bool = True) -> None:
        """Build every lookup table now (else each is built by the first name needing it);
        `names=False`: only the slug tables nearly every corpus needs (no folders, no
        titles, no aliases)."""
        tables = ("_slugified", "_basenames", "_folders") if names else ("_slugified", "_basenames")
        tables += _NAME_TABLES if names else ()
        for name in tables:
            self._lookup(name)

    def with_names(self, pages: Iterable[PageInfo]) -> SlugResolver:
        """The full resolver of `pages` (the same slugs as this one), sharing this one's
        slug tables and remembered answers (a `slugs_only` resolver, completed)."""
        infos = list(pages)
        full = copy.copy(self)
        full._given_titles = {info.slug: info.title for info in infos if info.title_stated}
        full._given_aliases = {info.slug: info.aliases for info in infos if info.aliases}
        full._names_known = True
        full._lazy = {k: v for k, v in self._lazy.items() if k not in _NAME_TABLES}
        full._wiki_memo = dict(self._wiki_memo)
        return full

    def _build_slugified(self) -> dict[str, tuple[str, ...]]:
        return _table((slugify(slug), slug) for slug in self._ordered)

    def _build_folders(self) -> dict[str, str]:
        """Casefolded folder → folder as written (the first in code-point order)."""
        table: dict[str, str] = {}
        for slug in sorted(self._ordered):
            parts = slug.split("/")
            for i in range(1, len(parts)):
                folder = "/".join(parts[:i])
                table.setdefault(fold(folder), folder)
        return table

    def _build_folder_names(self) -> dict[str, tuple[str, ...]]:
        """Case-folded last name of a folder → the folders so named (as written)."""
        return _table(
            (fold(folder.rpartition("/")[2]), folder)
            for folder in sorted(set(self._lookup("_folders").values()), key=tie_key)
        )

    def _folder_pages(self, name: str) -> str | tuple[str, ...] | None:
        """The `index` (else `README`) page of each folder called `name` or whose path ends
        in `/name`, case-insensitively; None when there is none."""
        folded = fold(name.strip("/"))
        found = self._lookup("_folder_names").get(folded.rpartition("/")[2], ())
        folders = (found,) if isinstance(found, str) else found
        pages: list[str] = []
        for folder in folders:
            if fold(folder) != folded and not fold(folder).endswith("/" + folded):
                continue
            for page in (f"{folder}/index", f"{folder}/README"):
                known = self._casefold.get(fold(page))
                if known is not None:
                    pages.append(known if isinstance(known, str) else known[0])
                    break
        if not pages:
            return None
        return pages[0] if len(pages) == 1 else tuple(sorted(pages, key=tie_key))

    def _suffix_matches(self, folded: str) -> tuple[str, ...]:
        """Slugs ending in `/folded` (case-folded): among those of the same file name."""
        found = self._lookup("_basenames").get(folded.rpartition("/")[2], ())
        candidates = (found,) if isinstance(found, str) else found
        tail = "/" + folded
        return tuple(c for c in candidates if fold(c).endswith(tail))

    def _build_basenames(self) -> dict[str, tuple[str, ...]]:
        return _table((fold(slug.rpartition("/")[2]), slug) for slug in self._ordered)

    def _build_aliases(self) -> dict[str, tuple[str, ...]]:
        given = self._given_aliases
        pairs = [
            (fold_name(alias), slug)
            for slug in self._ordered
            for alias in given.get(slug, ())
            if alias.strip()
        ]
        return _table(pairs)

    def _build_titles(self) -> dict[str, tuple[str, ...]]:
        given = self._given_titles
        return _table(
            (fold_name(title), slug)
            for slug in self._ordered
            if (title := given.get(slug)) and title.strip()
        )

    def resolve(
        self,
        target: str,
        from_slug: str = ROOT,
        kind: LinkKind = "wiki",
        refdef: str | None = None,
    ) -> Resolution:
        """Resolve one target written on page `from_slug` (SPEC §3).

        `markdown` targets (and wiki targets that are clearly paths: leading
        `/`, `./`, `../` or a trailing `/`) use the path rules; others (`wiki`,
        `embed`) the wiki rules. `refdef` is the destination of a reference
        definition on the page whose label equals the wiki target, if any.
        A name typed by a person is resolved with `from_slug=ROOT`.
        """
        written = target.strip()
        if not written:
            return Resolution("", "dangling")
        folder = folder_of(from_slug)
        if kind == "markdown" or _is_explicit_path(written):
            resolution = self._resolve_path(written, from_slug)
            if resolution.exists or _is_anchored(written):
                return resolution
            if written.endswith("/"):
                fallback = self._resolve_path("/" + written, from_slug)
            else:
                fallback = self._resolve_wiki(written, folder)
            return fallback if fallback.exists else resolution
        if refdef is not None and kind != "markdown":
            defined = self.resolve(refdef, from_slug, "markdown")
            if defined.exists:
                return Resolution(defined.node, "refdef", defined.candidates)
        return self._resolve_wiki(written, folder)

    # --- wiki rules ---------------------------------------------------------

    def _resolve_wiki(self, target: str, folder: str) -> Resolution:
        """Wiki rules; the matches are memoised per target (they do not depend on
        the linking page), the tie-break per call (it does)."""
        rule, candidates = self.wiki_matches(target)
        if rule == "dangling":
            return Resolution(candidates, "dangling")  # type: ignore[arg-type]
        return _choose(candidates, folder, rule)

    def wiki_matches(self, target: str) -> tuple[ResolveRule, str | tuple[str, ...]]:
        """The rule and the page(s) of a stripped wiki target that is no path, before
        the tie-break (one slug, or several in `tie_key` order; a dangling name's node)."""
        known = self._wiki_memo.get(target)
        if known is None:
            known = self._wiki_matches(target)
            if len(self._wiki_memo) < _MEMO_LIMIT:
                self._wiki_memo[target] = known
        return known

    def _wiki_matches(self, target: str) -> tuple[ResolveRule, str | tuple[str, ...]]:
        name = strip_md(target)
        if name in self._slugs:
            return "exact", name
        folded = fold(name)
        if (found := self._casefold.get(folded)) is not None:
            return "case", found
        slugified = slugify(name)
        if slugified and (found := self._lookup("_slugified").get(slugified)) is not None:
            return "slugified", found
        if "/" in folded:
            if found := self._suffix_matches(folded):
                return "suffix", found
        elif (found := self._lookup("_basenames").get(folded)) is not None:
            return "basename", found
        if not self._names_known:
            raise NamesNeeded(target)
        return self._name_matches(target, name)

    def _name_matches(self, target: str, name: str) -> tuple[ResolveRule, str | tuple[str, ...]]:
        """The wiki rules after every slug rule missed: aliases, titles, else dangling."""
        keys = (fold_name(target), fold_name(name)) if name != target else (fold_name(target),)
        for rule, table in (("alias", "_aliases"), ("title", "_titles")):
            names = self._lookup(table)
            for key in keys:
                found = names.get(key)
                if found is not None:
                    return rule, found  # type: ignore[return-value]
        if self._wiki_folders and name and (found := self._folder_pages(name)) is not None:
            return "folder-index", found
        return "dangling", name

    def names_settle(self, targets: Iterable[str]) -> None:
        """Remember, for wiki targets a `slugs_only` resolver over the same slugs found
        no slug rule for (its `NamesNeeded`), what the name rules say: their slug
        rules are not tried again."""
        memo = self._wiki_memo
        for target in targets:
            if target not in memo and len(memo) < _MEMO_LIMIT:
                memo[target] = self._name_matches(target, strip_md(target))

    # --- path rules ---------------------------------------------------------

    def _resolve_path(self, target: str, from_slug: str) -> Resolution:
        is_folder = target.endswith("/") or target.rsplit("/", 1)[-1] in (".", "..")
        base = [] if target.startswith("/") else from_slug.split("/")[:-1]
        path = target if is_folder else strip_md(target)
        parts, climbed = _normalise(base, path.split("/"))
        joined = "/".join(parts)
        if climbed:
            return Resolution("/".join([".."] * climbed + parts), "dangling")
        folder = folder_of(from_slug)
        if not is_folder and joined:
            if (found := self._page_at(joined, folder, "path", "slugified")) is not None:
                return found
            named = None if path != target else self._lookup("_folders").get(fold(joined))
            if named is None:  # `x.md` names a file, never a folder
                return Resolution(joined, "dangling")
            joined = named
        index = f"{joined}/index" if joined else "index"
        for name in (index, f"{joined}/README" if joined else "README"):
            if (found := self._page_at(name, folder, "folder-index", "folder-index")) is not None:
                return found
        return Resolution(index, "dangling")

    def _page_at(
        self, path: str, folder: str, rule: ResolveRule, slugified: ResolveRule
    ) -> Resolution | None:
        """The page at `path`: exactly, case-insensitively (both `rule`), or in gbrain's
        naming (`slugified`); None when there is none."""
        if path in self._slugs:
            return Resolution(path, rule)
        if (found := self._casefold.get(fold(path))) is not None:
            return _choose(found, folder, rule)
        if (found := self._slugified_path(path)) is not None:
            return _choose(found, folder, slugified)
        return None

    def _slugified_path(self, joined: str) -> str | tuple[str, ...] | None:
        """The pages whose slug is `joined` in gbrain's naming (`A/The Reason.md` is the
        server's `a/the-reason`): how a path link finds a page a server renamed."""
        slugified = slugify(joined)
        return self._lookup("_slugified").get(slugified) if slugified else None


def _normalise(base: list[str], parts: list[str]) -> tuple[list[str], int]:
    """Join and normalise `.`/`..`; also how many `..` climbed above the root."""
    result = list(base)
    climbed = 0
    for part in parts:
        if part in ("", "."):
            continue
        if part == "..":
            if result:
                result.pop()
            else:
                climbed += 1
        else:
            result.append(part)
    return result, climbed


def _is_anchored(target: str) -> bool:
    """A path that says where it starts: the root (`/`) or this folder (`./`, `../`)."""
    return target.startswith(("/", "./", "../")) or target in (".", "..")


def _is_explicit_path(target: str) -> bool:
    return target.startswith(("/", "./", "../")) or target.endswith("/")


CUTOFF = 0.75
"""The least `difflib` ratio that counts as a typo of a name."""
_WORD = re.compile(r"[^\W_]+")
_WORD_START = 0.95
_SUBSTRING = 0.9


def _names(info: PageInfo) -> set[str]:
    names = {fold(info.slug), fold(info.slug.rpartition("/")[2])}
    if info.title:
        names.add(fold_name(info.title))
    names.update(fold_name(alias) for alias in info.aliases)
    return names


def _score(needle: str, names: Iterable[str]) -> float:
    best = 0.0
    matcher = difflib.SequenceMatcher(b=needle, autojunk=False)
    for name in names:
        if not name:
            continue
        if any(word.startswith(needle) for word in _WORD.findall(name)) and needle[0].isalnum():
            return _WORD_START
        if needle in name:
            best = max(best, _SUBSTRING)
            continue
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() >= CUTOFF and matcher.quick_ratio() >= CUTOFF:
            best = max(best, matcher.ratio())
    return best if best >= CUTOFF else 0.0


def suggest(name: str, pages: Iterable[PageInfo], limit: int = 3) -> list[str]:
    """Up to `limit` slugs of pages whose names are close to `name`, best first."""
    needle = fold_name(strip_md(name.strip()))
    if not needle or limit <= 0:
        return []
    scored = []
    for info in pages:
        score = _score(needle, _names(info))
        if score > 0:
            scored.append((-score, tie_key(info.slug), info.slug))
    scored.sort()
    if scored and -scored[0][0] >= _SUBSTRING:  # word or substring matches: only that kind
        best = -scored[0][0]
        scored = [entry for entry in scored if -entry[0] == best]
    return [slug for _, _, slug in scored[:limit]]
