"""Words as the text index sees them: scripts written without spaces, and stop words.

The index's tokenizer (FTS5 `porter` over `unicode61`) splits text at spaces and
punctuation and stems English words. Chinese and Japanese are written without spaces
(Korean often glues particles to words), and so are Thai, Lao, Khmer and Burmese, so
`unicode61` would make a whole run of such characters one token (or, for the last
four, cut it wherever a combining mark stands) and a search for a word inside it would
find nothing. Those runs are indexed one character a token instead (`spaced`: a
zero-width space between two characters, which the tokenizer takes as a separator and
`unspaced` takes out again for display); a query's run is searched as the phrase of
its characters (`cjk_phrase`), or for plain words as the overlapping pairs of them
(the usual way to search such text without a dictionary; Japanese cut first where its
script changes, `japanese_pieces`) or, in an alphabet, the phrase of its letters
(`run_phrases`). A trigram
tokenizer would match the same substrings, but measured on the 10k-page benchmark
bundle it doubled the index's build time (docs/performance.md).

Stop words (`STOP_WORDS`) are the English, Russian, Spanish, Italian, French and Portuguese
words that say how a question is asked rather than what it is about (`how`, `do`, `I`, `a`,
`in`, `my`; `как`, `что`, `в`; `cómo`, `de`, `la`; `di`, `il`, `dell'`; `les`, `dans`,
`l'`; `o`, `você`, `não`):
a plain-word query leaves them out, unless it holds nothing else.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import unicodedata

__all__ = [
    "CJK_CHARS",
    "ELISIONS",
    "STOP_WORDS",
    "TOKENIZER",
    "WORD_CHAR",
    "ZERO_WIDTH_SPACE",
    "char_pairs",
    "cjk_phrase",
    "has_cjk",
    "japanese_pieces",
    "piece_pattern",
    "rough_stem",
    "run_phrases",
    "run_pieces",
    "separates",
    "spaced",
    "split_cjk",
    "unspaced",
]

TOKENIZER = "porter unicode61 remove_diacritics 2"
"""The text index's FTS5 tokenizer (`core.search.text_index`)."""
ZERO_WIDTH_SPACE = "\u200b"
_ALPHABET_RANGES = ((0x0E01, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF))
"""Thai and Lao, Myanmar, Khmer: alphabets written without spaces."""
_ALPHABETS = "".join(f"{chr(first)}-{chr(last)}" for first, last in _ALPHABET_RANGES)
_CJK_ASTRAL = "\U00020000-\U0003134f"  # CJK extensions B-H
_CJK_IN_BMP = (
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u31f0-\u31ff"  # Katakana phonetic extensions
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff66-\uff9f"  # half-width Katakana
) + _ALPHABETS
CJK_CHARS = _CJK_IN_BMP + _CJK_ASTRAL
"""The characters of the scripts written without spaces, as a regular expression's class
(without its brackets). The name says CJK; Thai, Lao, Khmer and Burmese are searched
alike (their combining marks are characters of a run, which the tokenizer drops)."""
_MARKS = "".join(
    chr(code)
    for first, last in _ALPHABET_RANGES
    for code in range(first, last + 1)
    if unicodedata.category(chr(code))[0] == "M"
)
"""The combining marks of those scripts (a Thai tone mark, a Khmer vowel sign)."""
_ALPHABET = re.compile(f"[{_ALPHABETS}]")
"""The first letter of a run written in one of those alphabets."""
_CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
"""A run of those characters (one compiled class serves every use: building one from
`CJK_CHARS` takes 3-6 ms)."""
ONE_WORD = 3
"""Characters of a Japanese run read as one word, searched by its pairs (`晴れ`, sunny,
`新しい`, new: a kanji and its kana ending); a longer run is cut at its scripts."""
_HIRAGANA = "\u3041-\u309f"
_KATAKANA = "\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f"
"""Katakana letters and the long vowel mark `ー` (not the middle dot `・`, a separator)."""
_KANA = re.compile(f"[{_HIRAGANA}{_KATAKANA}]")
_HIRAGANA_ONLY = re.compile(f"[{_HIRAGANA}]+")
_SCRIPT_STRETCH = re.compile(
    f"(?P<katakana>[{_KATAKANA}]+)|(?P<hiragana>[{_HIRAGANA}]+)"
    f"|(?P<other>[^{_HIRAGANA}{_KATAKANA}\u30fb]+)|(?P<separator>.)",
    re.DOTALL,
)
"""A stretch of a Japanese run in one script: katakana, hiragana, anything else (kanji),
or the middle dot `・` that stands between words."""
_ONE_CJK = (re.compile(f"[{_CJK_IN_BMP}]"), re.compile(f"[{_CJK_ASTRAL}]"))
"""`_CJK_RUN`'s characters in two classes, those of the Basic Multilingual Plane and the
rest: `re` looks a character up in a class of one plane at once, and walks the ranges of
a class spanning both (a search of both classes: 4 ns a character, of `_CJK_RUN`: 9-18)."""
WORD_CHAR = r"[^\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]"
"""A character of a word as a query's words are read: an ASCII letter, digit or `_`, or
any character outside ASCII: the class `\\w` and everything from U+0080 up, written
as what it leaves out, which Python's `re` builds in 0.2 ms against 5 ms (it maps every
character of a range written in)."""

_STOP = """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do
    does doesn't doing don't down during each few for from further get gets got had hadn't
    has hasn't have haven't having he her here hers herself him himself his how i i'd i'll
    i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no
    nor not of off on once only or other ought our ours ourselves out over own same shan't
    she should shouldn't so some such than that that's the their theirs them themselves then
    there these they this those through to too under until up very was wasn't we were
    weren't what when where which while who whom why will with won't would wouldn't you
    your yours yourself yourselves want wants way ways
    s t d ll re ve m
"""
_STOP_RU = """
    а без более бы был была были было быть в вам вас весь во вот все всего всех вы где да
    даже для до его ее её ей если есть еще ещё же за зачем и из или им их к как какая какие
    каким каких какое какой когда кто ли либо мне много может можно мой моя мы на надо нам
    нас не него нее неё нет ни них но ну нужно о об однако он она они оно от по под после
    почему при про с со так также такое такой там те тебя тем то того тоже той только том ты
    у уже хотя чем через что чтобы чья чьё это этого этой этом эти этот я
"""
_STOP_ES = """
    al algo alguna algunas alguno algunos aquí así cada como cómo con cual cuál cuales
    cuáles cuando cuándo de del desde donde dónde el él ella ellas ellos en entre es esa
    esas ese eso esos esta está están estas este esto estos hasta la las le les lo los mis
    muy más nos otra otras otro otros para pero por porque puedo qué que quiero se ser si
    sí sobre su sus también tengo tu tú tus un una unas uno unos y ya yo
"""
_STOP_IT = """
    ad agli ai al alla alle allo anche che ci coi col con cosa cui da dagli dai dal dalla
    dalle dallo degli dei del della delle dello di ed gli ha hai ho il la le lo ma mi mia
    mie miei mio ne negli nei nel nella nelle nello non per perché più posso può quale
    quali quando quanto quella quelle quelli quello questa queste questi questo se si sia
    sono su sua sue sui sul sulla sulle sullo suo suoi tra fra tua tue tuo tuoi un una uno
    voglio vorrei
"""
_STOP_FR = """
    au aux avec ce ceci cela ces cet cette comme d dans de des dont du elle elles est et
    être faire il ils je la le les leur leurs lui ma mes moi mon ne nos notre nous ou où
    pas peux quel quelle quelles quels qui que quoi sa se ses sont sous suis sur ta te tes
    toi tu un une veux voudrais vos votre vous y ça
"""
_STOP_PT = """
    à ao aos às com da das do é essa esse estão estas estes eu foi isso isto mais meu meus
    minha minhas na não nem no o onde ou pela pelas pelo pelos posso qual quais quero seu
    seus suas tenho um uma umas uns você
"""
_ELISIONS = """
    l dell nell all dall sull coll un quest quell c
    d j qu n s m t jusqu lorsqu puisqu
"""
ELISIONS = frozenset(_ELISIONS.split())
"""Italian and French articles, pronouns and prepositions written against the next word
(`dell'applicazione`, `un'altra`, `l'interface`, `qu'est`): a plain-word query searches
such a word without them (`query`)."""
STOP_WORDS = frozenset(
    _STOP.split()
    + _STOP_RU.split()
    + _STOP_ES.split()
    + _STOP_IT.split()
    + _STOP_FR.split()
    + _STOP_PT.split()
    + [*ELISIONS]
)
"""English, Russian, Spanish, Italian, French and Portuguese words a plain-word query
leaves out (compared in lower case); the English list's last line is what is left of
contractions once the apostrophe splits them (`can't` → `can`, `t`). Russian: a Russian
LLM-written wiki's questions (`что такое …`, `как … в …`) listed pages that shared only
`как` and `в` with them. Spanish, Italian, French and Portuguese: an agent-kept Spanish
vault's snippets marked every `de`, `la` and `en`, an Italian student vault's every `di`,
`il` and `la`. Words that are English words too (`son`, `era`, `sin`, `hay`; `come`,
`dove`, `chi`; `pour`, `plus`, `comment`, `par`, `ton`, `sans`; `os`, `dos`, `nas`) are not
in them; German, measured, is not in it (`docs/performance.md`)."""


def has_cjk(text: str) -> bool:
    """Whether `text` holds a character of a script written without spaces."""
    if text.isascii():  # one fast pass
        return False
    return any(one.search(text) is not None for one in _ONE_CJK)


def spaced(text: str) -> str:
    """`text` with a zero-width space on each side of every CJK character: one token
    each for the index's tokenizer, even glued to a Latin word (`Pythonの`)."""
    if not has_cjk(text):
        return text
    return _CJK_RUN.sub(_spaced_run, text)


def _spaced_run(run: re.Match[str]) -> str:
    return ZERO_WIDTH_SPACE + ZERO_WIDTH_SPACE.join(run.group()) + ZERO_WIDTH_SPACE


def unspaced(text: str) -> str:
    """`text` without the zero-width spaces `spaced` put in (for display)."""
    return text.replace(ZERO_WIDTH_SPACE, "") if ZERO_WIDTH_SPACE in text else text


def split_cjk(word: str) -> list[tuple[str, bool]]:
    """`word` cut into its runs of CJK characters and the rest, in order, each with
    whether it is CJK (`Python入門` → `[("Python", False), ("入門", True)]`)."""
    parts: list[tuple[str, bool]] = []
    at = 0
    for run in _CJK_RUN.finditer(word):
        if run.start() > at:
            parts.append((word[at : run.start()], False))
        parts.append((run.group(), True))
        at = run.end()
    if at < len(word):
        parts.append((word[at:], False))
    return parts


def cjk_phrase(run: str) -> str:
    """A CJK run as an FTS5 phrase of its characters (`東京` → `"東 京"`)."""
    return '"' + " ".join(run) + '"'


def run_phrases(run: str) -> list[str]:
    """A CJK run as the FTS5 phrases a plain word is searched by (`run_pieces`):
    `東京都` → `"東 京"`, `"京 都"`; `ห้องนิรภัย` → `"ห อ ง น ร ภ ย"`."""
    return [cjk_phrase(piece) for piece in run_pieces(run)]


def run_pieces(run: str) -> list[str]:
    """The pieces of a CJK run a plain word is searched by, its combining marks left
    out (the tokenizer drops them). Chinese and Korean: the overlapping pairs of
    characters (`東京都` → `東京`, `京都`), the usual way to search such text without a
    dictionary; a run of one character is that character. Japanese (a run holding
    kana, longer than `ONE_WORD`): its words as far as its scripts tell them
    (`japanese_pieces`). Thai, Lao, Khmer and Burmese, alphabets: the run's letters
    whole (`ห้องนิรภัย` → `หองนรภย`), since a pair of letters names nothing (`ขวา`,
    right, would find `กว่า`, more than)."""
    letters = run.translate(_NO_MARKS)
    if len(letters) < 2 or _ALPHABET.match(letters):
        return [letters or run]
    if len(letters) > ONE_WORD and _KANA.search(letters) and not _HIRAGANA_ONLY.fullmatch(letters):
        return japanese_pieces(letters)
    return char_pairs(letters)


def japanese_pieces(run: str) -> list[str]:
    """A Japanese run's pieces, cut where its script changes: a stretch of katakana
    whole (a loanword, `プラグイン`) and its pairs (two loanwords may be written as one,
    `エージェントループ`, and found apart, `エージェント的ループ`), a stretch of kanji as
    its pairs (a compound, read as Chinese is); hiragana (particles and verb endings:
    `を`, `する`), a kanji or katakana standing alone (a verb's stem, `見` of `見る`;
    `ー` of `すごーい`: marked alone, it stood inside other words, `意«図»`) and the
    middle dot left out. `プラグイン管理` →
    `プラグイン`, `プラ`, `ラグ`, `グイ`, `イン`, `管理`: the pairs across the cut (`ン管`)
    had put `セッション管理` first. A run left with no piece, or of hiragana alone, is
    searched by its pairs (`run_pieces`)."""
    pieces: list[str] = []
    for stretch in _SCRIPT_STRETCH.finditer(run):
        text = stretch.group()
        if len(text) < 2:  # one character alone would be found inside other words
            continue
        if stretch.lastgroup == "katakana":
            pieces += [text, *(pair for pair in char_pairs(text) if pair != text)]
        elif stretch.lastgroup == "other":
            pieces += char_pairs(text)
    return pieces or char_pairs(run)


def char_pairs(text: str) -> list[str]:
    """The overlapping pairs of characters of `text` (`東京都` → `東京`, `京都`); a text
    of one character is that character."""
    return [text[i : i + 2] for i in range(max(1, len(text) - 1))]


def piece_pattern(piece: str) -> str:
    """A regular expression finding `piece` (of `run_pieces`) in text as written: its
    characters with the combining marks that may stand between them."""
    return f"[{_MARKS}]*".join(re.escape(char) for char in piece)


_NO_MARKS = dict.fromkeys(map(ord, _MARKS))


_SUFFIXES = ("ings", "ing", "ies", "ied", "es", "ed", "ly", "s")


def rough_stem(word: str) -> str:
    """`word` without a plain English suffix (`notes` → `note`, `syncing` → `sync`): to
    compare words in Python where the tokenizer's own stemming is out of reach (the
    ranking's second pass, placing a snippet's window). Both sides of a comparison
    go through it, so its mistakes are the same on both."""
    lower = word.casefold()
    for suffix in _SUFFIXES:
        if lower.endswith(suffix) and len(lower) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


@functools.lru_cache(maxsize=4096)
def separates(char: str) -> bool:
    """Whether the index's tokenizer takes `char` for a separator, part of no word.

    `unicode61` reads Unicode 6.1's categories (letters, digits and private use are
    words): so `⚠` (U+26A0) and `→` separate words while `🗂` (U+1F5C2, assigned after
    6.1) is one, which no category of Python's newer Unicode tells. Outside ASCII, SQLite
    is asked, once a character."""
    if char.isascii():
        return not char.isalnum()
    db = sqlite3.connect(":memory:")
    try:
        db.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{TOKENIZER}')")
        db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')")
        db.execute("INSERT INTO t (x) VALUES (?)", (char,))
        return db.execute("SELECT count(*) FROM v").fetchone()[0] == 0
    finally:
        db.close()
