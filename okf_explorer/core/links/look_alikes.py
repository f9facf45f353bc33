"""Characters of a link target that look like plainer ones: a non-breaking hyphen
(U+2011) for `-`, a no-break space for a space, a curly apostrophe for `'`, an
invisible joiner for nothing. Language models and word processors write them, and a
target holding one misses the page whose name has the plain character (`[[CWE‑788]]`
and the page `CWE-788`), in Obsidian as here: a name is matched as written (SPEC §3).

Nothing resolves through them: the link stays dangling, and where a dangling link is
explained (the link tree's subtitle, `Brain.look_alike`) the explorer says which page
it looks like and which characters differ."""

from __future__ import annotations

import unicodedata

PLAIN: dict[str, str] = {
    "\u2010": "-",  # hyphen
    "\u2011": "-",  # non-breaking hyphen
    "\u2012": "-",  # figure dash
    "\u2013": "-",  # en dash
    "\u2212": "-",  # minus sign
    "\u00a0": " ",  # no-break space
    "\u2007": " ",  # figure space
    "\u202f": " ",  # narrow no-break space
    "\u2018": "'",  # left single quotation mark
    "\u2019": "'",  # right single quotation mark (the curly apostrophe)
    "\u201c": '"',  # left double quotation mark
    "\u201d": '"',  # right double quotation mark
    "\u200b": "",  # zero width space
    "\u200c": "",  # zero width non-joiner
    "\u200d": "",  # zero width joiner
    "\u2060": "",  # word joiner
    "\ufeff": "",  # zero width no-break space (a byte order mark inside text)
}
"""Each look-alike character, and what it looks like (nothing, for an invisible one)."""
_TABLE = str.maketrans(PLAIN)


def plain_form(target: str) -> str | None:
    """`target` with each look-alike character written as the one it looks like; None
    when it holds none."""
    plain = target.translate(_TABLE)
    return plain if plain != target else None


def differences(target: str) -> list[str]:
    """What `target` writes instead of a plain character, each once, in order:
    `U+2011 NON-BREAKING HYPHEN for "-"`, `U+200B ZERO WIDTH SPACE for nothing`."""
    found = dict.fromkeys(char for char in target if char in PLAIN)
    return [
        f"U+{ord(char):04X} {unicodedata.name(char, '?')} for "
        + (f'"{PLAIN[char]}"' if PLAIN[char] else "nothing")
        for char in found
    ]
