"""What a question means: its best hits ranked again by static word embeddings.

A plain-word question often asks in other words than the page that answers it
(`which notes link to the note I am reading` → *Backlinks*). Keyword ranking
(`core.search.ranking`) cannot see that; word embeddings can, a little. Here the
`RERANKED` best pages of a plain-word question are ranked again by their keyword score
scaled to 0..1 among them plus `WEIGHT` times the cosine of the question's embedding
and the page's (its title, names, summary, headings and the start of its body,
`page_text`). Pages called by the query still come first, and a question in Chinese or
Japanese keeps the keyword ranking (`core.search.text_index`).

The embeddings are WordLlama's `l2_supercat` (256 dimensions), which its PyPI wheel
ships: installed with the `meaning` extra (`pip install 'okf-explorer[meaning]'`),
loaded from the installed package only, never downloaded (its files read straight by
`core.search.word_vectors`, a fast path, else by WordLlama's own load). Without it, or
with `OKF_EXPLORER_MEANING=off`, the keyword ranking stands alone. A page's embedding is
remembered by its text (`MEMORY` pages), so the next question over the same pages costs
the question's embedding only. The model loads before a search's deadline starts, and a
search with little time left answers by keywords alone (`text_index.MEANING_MARGIN`).

Measured on the labelled questions (`tests/bench/bench_search_quality.py`, tuning
half for `WEIGHT`, `RERANKED` and the text's length; figures in docs/performance.md).
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from okf_explorer.core.search import word_vectors

log = logging.getLogger(__name__)

RERANKED = 20
"""How many of a plain-word question's best pages are ranked again."""
WEIGHT = 1.0
"""What the cosine of question and page adds to the keyword score scaled to 0..1."""
BODY_CHARS = 500
"""How much of the body's text a page's embedding reads."""
MEMORY = 4096
"""How many pages' embeddings are remembered."""
SWITCH = "OKF_EXPLORER_MEANING"
"""The environment variable that turns the embeddings off (`off`, `0`, `no`)."""

_lock = threading.Lock()
_model: Callable[[list[str]], Any] | None = None
"""The loaded embeddings: texts to their vectors, each of length 1."""
_loaded = False
_vectors: OrderedDict[str, Any] = OrderedDict()


def page_text(title: str, names: str, headings: str, summary: str, body: str) -> str:
    """What a page's embedding reads: its names, headings and summary, and the start of
    its body (the text index's columns, in `core.search.document.FIELDS` order)."""
    return f"{title}. {names}. {headings}. {summary}. {body[:BODY_CHARS]}"


def enabled() -> bool:
    """Whether the embeddings are installed and not turned off (loads them once)."""
    return _embedder() is not None


def similarities(question: str, texts: Sequence[str]) -> list[float] | None:
    """The cosine of `question`'s embedding and each text's, or None without the
    embeddings."""
    model = _embedder()
    if model is None:
        return None
    with _lock:
        missing = list(dict.fromkeys(t for t in texts if t not in _vectors))
        if missing:
            for text, vector in zip(missing, model(missing), strict=True):
                _vectors[text] = vector
        vectors = [_vectors[text] for text in texts]
        for text in texts:
            _vectors.move_to_end(text)
        while len(_vectors) > MEMORY:
            _vectors.popitem(last=False)
        asked = model([question])[0]
    return [float(vector @ asked) for vector in vectors]


def rerank(question: str, rows: Sequence[tuple], texts: Sequence[str]) -> list[tuple] | None:
    """`rows` (best first; each a tuple whose last item is its keyword score) ranked
    again by their score scaled to 0..1 plus `WEIGHT` times the cosine of `question`
    and the row's text (`texts`, in the same order); None without the embeddings. Each
    row comes back with a score last that keeps that order within the rows' old range
    of scores (so the rows after them still score less)."""
    cosines = similarities(question, texts)
    if cosines is None:
        return None
    scores = [row[-1] for row in rows]
    low, high = min(scores, default=0.0), max(scores, default=0.0)
    span = (high - low) or 1.0
    meant = [
        ((score - low) / span + WEIGHT * max(0.0, cosine), row)
        for score, cosine, row in zip(scores, cosines, rows, strict=True)
    ]
    meant.sort(key=lambda pair: -pair[0])
    return [(*row[:-1], low + span * value / (1 + WEIGHT)) for value, row in meant]


def _embedder() -> Callable[[list[str]], Any] | None:
    """The loaded embeddings, or None (not installed, turned off, or broken)."""
    global _model, _loaded
    if os.environ.get(SWITCH, "").strip().lower() in {"off", "0", "no", "false"}:
        return None
    with _lock:
        if not _loaded:
            _loaded = True
            _model = _load()
        return _model


def _load() -> Callable[[list[str]], Any] | None:
    try:
        vectors = word_vectors.load()
        return vectors.embed if vectors is not None else _wordllama()
    except Exception as error:  # a broken install: say so once, rank by keywords
        log.warning("word embeddings not loaded (%s): keyword ranking only", error)
        return None


def _wordllama() -> Callable[[list[str]], Any] | None:
    """WordLlama's own load (fast paths off, or its files moved), or None without it."""
    try:
        import wordllama
    except ImportError:
        return None
    # The package's own folder holds `weights/` and `tokenizers/`: read as a cache, with
    # downloads off, nothing leaves the machine.
    model = wordllama.WordLlama.load(
        cache_dir=Path(wordllama.__file__).parent, disable_download=True
    )
    return partial(model.embed, norm=True)
