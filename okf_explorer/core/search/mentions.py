"""Unlinked mentions: pages whose text names a page without linking to it.

A page's names are the ones a link may name it by: its stated title (frontmatter,
a server's), its file name (as written, and with `-`/`_` read as spaces) and its
aliases. A title taken from the first heading is for display only (SPEC §3): a student
vault heading its notes `# Theorem` found 238 "mentions" of each such note. A mention
is a whole-word, case-insensitive occurrence of a name in another page's body, outside code
(fenced blocks, inline spans), outside links (wiki-links, Markdown links and
their text, reference links, URLs) and not part of a path or file name
(`tables/orders`, `orders.md`). A page that already links to the page is no
candidate at all.

Precision comes first (a wrong suggestion costs the user more than a missed
one), so some names are never searched: names shorter than `MIN_NAME` letters,
bare numbers, and one-word names that are common English words (`Home`,
`Notes`, `Index`, ...: `COMMON_WORDS`); reserved `index`/`log` pages have no
mentions. Candidates come from the text index (a phrase query per name), then
each body is checked with the rules above; at most `MAX_CANDIDATES` bodies are
checked, those where a name weighs most (the index's ranking of the phrase), and the
answer says how many were (`Mentions`): in slug order, a wiki's 3,685 pages holding
`workload` were cut to the first 500, all in its `raw/` folder, and none of its own
pages was read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.links.grammar import code_span_ranges, each_prose_range, prose_ranges
from okf_explorer.core.links.spans import link_spans, sentence_around
from okf_explorer.core.pages import PageInfo
from okf_explorer.core.search.words import has_cjk

if TYPE_CHECKING:
    from okf_explorer.core.index.model import LinkIndex
    from okf_explorer.core.search.text_index import TextIndex

MIN_NAME = 3
MAX_CANDIDATES = 500
"""Bodies checked per page at most (pages with the most common names stop there)."""

_COMMON = """
    about account action actions agenda all also and any archive area areas article
    articles attachments backlog blog book books budget calendar can change changelog
    changes chat check class code config contact contacts content context daily dashboard
    data date day default design diary doc docs document documents done draft drafts
    event events example examples faq feature features file files for from general goal
    goals guide guides help her his history home howto idea ideas inbox index info
    inputs intro introduction issue issues item items journal keys later learning
    links list lists log main map meeting meetings memo misc month monthly more name
    names new news next note notes now old one open other our output overview page
    pages people person place plan plans post posts project projects question questions
    quote quotes read reading readme recent reference references report reports
    research resource resources review reviews roadmap rule rules scratch search
    settings setup should some spec start status stuff summary table tags task tasks
    team teams template templates test tests that the their them then there these
    they thing things this thought thoughts time today todo todos tools topic topics
    untitled update updates use user users week weekly welcome what when where which
    who why will with work year yearly you your
"""
COMMON_WORDS = frozenset(_COMMON.split())
"""One-word names never searched: they are mostly meant as plain words."""

_LINKISH = re.compile(
    r"!?\[\[[^\]\n]*\]\]"  # wiki-links and embeds
    r"|!?\[[^\]\n]*\]\([^)\n]*\)"  # Markdown links and images, text included
    r"|\[[^\]\n]*\]\[[^\]\n]*\]"  # reference links
    r"|^[ \t]*\[[^\]\n]+\]:.*$"  # reference definitions
    r"|<[a-z][a-z0-9+.-]*:[^>\s]*>"  # autolinks
    r"|\b[a-z][a-z0-9+.-]*://\S+",  # bare URLs
    re.IGNORECASE | re.MULTILINE,
)
_SEPARATOR = re.compile(r"[\s_-]+")


@dataclass(frozen=True, slots=True)
class Mention:
    """Page `slug` mentions the page in `sentence` (one line); `start`/`end` place the
    mention in the sentence."""

    slug: str
    title: str
    sentence: str
    start: int
    end: int

    def marked(self, open_mark: str = "«", close_mark: str = "»") -> str:
        s = self.sentence
        return s[: self.start] + open_mark + s[self.start : self.end] + close_mark + s[self.end :]

    def to_json(self) -> dict[str, object]:
        """`{slug, title, sentence, start, end}` (the mention is `sentence[start:end]`,
        unmarked): what `mentions --json` prints and `find_mentions` answers."""
        return {
            "slug": self.slug,
            "title": self.title,
            "sentence": self.sentence,
            "start": self.start,
            "end": self.end,
        }


def mention_names(info: PageInfo) -> list[str]:
    """The names a mention of `info` may use, searchable ones only (see the module doc)."""
    stem = info.slug.rsplit("/", 1)[-1]
    found: dict[str, str] = {}
    title = info.title if info.title_stated else stem
    for name in (title, stem, _SEPARATOR.sub(" ", stem), *info.aliases):
        name = " ".join(name.split())
        key = name.casefold()
        if key and key not in found and _searchable(name):
            found[key] = name
    return list(found.values())


def _searchable(name: str) -> bool:
    words = _SEPARATOR.split(name.casefold())
    letters = sum(ch.isalpha() for ch in name)
    if letters < MIN_NAME:
        return False
    return not (len(words) == 1 and words[0] in COMMON_WORDS)


class NamePattern:
    """Any of some names as whole words, any case, words joined by spaces, `-` or `_`,
    not inside a path or a file name. Chinese and Japanese (and the other scripts
    written without spaces) have no word boundaries: a character of theirs ends a
    word beside it (`压缩家族` in `讲压缩家族的事`, `Kafka` in `用Kafka写`).

    The names are looked for without the boundaries, and a name found is kept when it
    stands alone (`_stands_alone`); at one place the longest name that does. Written
    into the pattern as lookarounds, the class of those scripts' characters took 11 ms
    to build for each page's names (every page the explorer opens), against 0.1 ms."""

    def __init__(self, names: list[str]) -> None:
        parts = sorted(
            {r"[\s_-]+".join(map(re.escape, _SEPARATOR.split(n.strip()))) for n in names},
            key=len,
            reverse=True,
        )
        self._any = re.compile("|".join(parts), re.IGNORECASE)
        self._each = [re.compile(part, re.IGNORECASE) for part in parts]

    def search(self, text: str, at: int = 0) -> re.Match[str] | None:
        """The first name standing alone in `text` from `at`."""
        while (found := self._any.search(text, at)) is not None:
            if (alone := self.match(text, found.start())) is not None:
                return alone
            at = found.start() + 1
        return None

    def match(self, text: str, at: int) -> re.Match[str] | None:
        """The longest name standing alone at `at` in `text`, or None."""
        for name in self._each:
            found = name.match(text, at)
            if found is not None and _stands_alone(text, at, found.end()):
                return found
        return None


def _stands_alone(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` is not inside a word, a path or a file name: no letter,
    digit or `_` (but a CJK one), `/`, `\\`, `#`, `@`, `.` or `-` before it; none of
    those (but `#`, `@`, `.`) after it, nor a `.` and a letter (`name.md`)."""
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if before and (before in "/\\#@.-" or _word_letter(before)):
        return False
    if after and (after in "/\\-" or _word_letter(after)):
        return False
    return not (after == "." and end + 1 < len(text) and _word_letter(text[end + 1], cjk=True))


def _word_letter(char: str, *, cjk: bool = False) -> bool:
    """Whether `char` is a character of a word (`\\w`), CJK ones only when `cjk`."""
    return (char.isalnum() or char == "_") and (cjk or not has_cjk(char))


def name_pattern(names: list[str]) -> NamePattern | None:
    """Any of `names` as whole words (`NamePattern`), or None when there is none."""
    return NamePattern(names) if names else None


def masked_prose(body: str) -> str:
    """`body` with code and links blanked out (same length, newlines kept)."""
    text = code_masked(body)
    return _blanked(text, [match.span() for match in _LINKISH.finditer(text)])


def code_masked(body: str) -> str:
    """`body` with code (fences, indented code, code spans) blanked out (same length,
    newlines kept)."""
    blanks: list[tuple[int, int]] = []
    pos = 0
    for start, end in prose_ranges(body):
        blanks.append((pos, start))
        blanks += [(start + s, start + e) for s, e in code_span_ranges(body[start:end])]
        pos = end
    blanks.append((pos, len(body)))
    return _blanked(body, blanks)


def _blanked(text: str, ranges: list[tuple[int, int]]) -> str:
    """`text` with every character in `ranges` but a newline a space."""
    kept: list[str] = []
    at = 0
    for start, end in sorted(ranges):
        start = max(start, at)
        if start < end:
            kept += [text[at:start], spaces_kept_lines(text[start:end])]
            at = end
    kept.append(text[at:])
    return "".join(kept)


def spaces_kept_lines(text: str) -> str:
    """`text` with every character but a newline a space: each line as spaces, joined
    again (a regex replacing one character at a time took 10x as long: the code of a
    wiki's 10k GitHub pages blanked in 7 s of a 12 s `analyze`)."""
    return "\n".join(" " * len(line) for line in text.split("\n"))


def find_mention(body: str, pattern: NamePattern) -> tuple[str, int, int] | None:
    """The first mention in `body`, the first name outside code and links: its sentence
    and the mention's place in it.

    Links are looked for only on the lines of each name found outside code, not over the
    whole body (a link never spans a line). A hub page's mentions (obsidian-hub's `Digital
    garden`, 20 pages read) took 65 ms, a third of it finding every link of every page
    read; now 32-50 ms. Code is read a stretch between fences at a time, up to the
    stretch holding the first mention: a wiki of 10k GitHub threads, full of code,
    blanked every fence of each page read for its mentions. `tests/test_mentions.py`
    holds it to a scan of the whole body."""
    if not pattern.search(body):
        return None
    for start, end in each_prose_range(body):
        segment = body[start:end]
        if not pattern.search(segment):  # blanking code never makes a name appear
            continue
        prose = _blanked(segment, code_span_ranges(segment))
        at = 0
        while (found := pattern.search(prose, at)) is not None:
            if not _in_a_link(prose, found.start(), found.end()):
                return sentence_of(body, start + found.start(), start + found.end())
            at = found.start() + 1  # a shorter name may start inside one that is in a link
    return None


def _in_a_link(text: str, start: int, end: int) -> bool:
    """Whether `[start, end)` overlaps a link on the lines it is on."""
    first = text.rfind("\n", 0, start) + 1
    last = text.find("\n", end)
    for link in _LINKISH.finditer(text, first, len(text) if last < 0 else last):
        if link.start() < end and start < link.end():
            return True
    return False


def sentence_of(body: str, start: int, end: int) -> tuple[str, int, int]:
    """The sentence of `body` holding `[start, end)`, on one line, read as the page
    renders it (links as their text, emphasis marks and list markers dropped), as a
    backlink's sentence is (`core.links.spans`). The sentence is on one line: the
    page's links are read only when that line may hold one (a `[`)."""
    line_end = body.find("\n", end)
    line = body[body.rfind("\n", 0, start) + 1 : len(body) if line_end < 0 else line_end]
    spans = link_spans(body) if "[" in line else []
    found = sentence_around(body, start, end, body[start:end], spans)
    return found.text, found.start, found.end


@dataclass(frozen=True, slots=True)
class Mentions:
    """What `unlinked_mentions` found: the mentions, in slug order, and how many pages
    were read for them: `checked` of the `holding` pages whose text holds a name and that
    do not link to the page."""

    found: list[Mention]
    checked: int
    holding: int

    @property
    def partial(self) -> bool:
        """Whether some pages holding a name were not read (past `MAX_CANDIDATES`)."""
        return self.checked < self.holding

    def only(self, keep: Callable[[str], bool]) -> Mentions:
        """These mentions, those of the pages `keep` says yes to."""
        return Mentions([m for m in self.found if keep(m.slug)], self.checked, self.holding)


NO_MENTIONS = Mentions([], 0, 0)


def unlinked_mentions(index: LinkIndex, text_index: Callable[[], TextIndex], slug: str) -> Mentions:
    """Pages that mention `slug`'s page without linking to it, in slug order
    (`Brain.unlinked_mentions`). `text_index()` is asked only when the page has a name
    to search for (it may sync the full-text index first)."""
    info = index.pages.get(slug)
    if info is None:
        raise PageNotFound(slug)
    if info.reserved:
        return NO_MENTIONS
    names = mention_names(info)
    pattern = name_pattern(names)
    if pattern is None:
        return NO_MENTIONS
    texts = text_index()
    rank: dict[str, int] = {}  # each page's best place in a name's ranking
    for name in names:
        for place, other in enumerate(texts.pages_with_phrase(_SEPARATOR.sub(" ", name))):
            rank[other] = min(place, rank.get(other, place))
    rank.pop(slug, None)
    for linking in index.reverse.get(slug, ()):
        rank.pop(linking, None)
    checked = sorted(rank, key=lambda other: (rank[other], other))[:MAX_CANDIDATES]
    mentions: list[Mention] = []
    for other in sorted(checked):
        body = texts.body(other)
        found = find_mention(body, pattern) if body else None
        if found is not None:
            title = index.pages[other].title if other in index.pages else other
            mentions.append(Mention(other, title, *found))
    return Mentions(mentions, len(checked), len(rank))
