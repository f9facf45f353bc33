"""WordLlama's word vectors read straight from its installed wheel: a fast path
(`core.fast_paths`) for `wordllama.WordLlama.load` and its `embed(texts, norm=True)`.

The library's load imports WordLlama's configuration (pydantic, requests, its TOML
files) and copies the whole 32,000 x 256 matrix to float32: about 0.25-0.35 s and
43 MB before the first question is ranked again (`core.search.meaning`), in every
one-shot `search` of a question and at the explorer's first `ctrl+f`. Here the two
files the wheel ships are read with the libraries WordLlama reads them with: the
tokenizer (`tokenizers`) and the float16 matrix (`safetensors`), as the library's own
resolution finds them first (`wordllama/tokenizers/`, `wordllama/weights/`), found
without importing the package. A text's vector is what the library computes: the mean
of its tokens' rows (ids clipped to the matrix, no special tokens, no truncation),
scaled to length 1; each row is made float32 as it is used. A text of no tokens is the
zero vector (its cosine with anything is 0; the library's is NaN).

`load` answers None when fast paths are off or the files are not where this version of
the wheel keeps them: then the library loads, and says what is wrong if anything is.
`tests/test_word_vectors.py` holds it to the library's vectors.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from okf_explorer.core import fast_paths

MODEL = "l2_supercat"
"""WordLlama's model, as `WordLlama.load` names it by default."""
TOKENIZER_FILE = f"tokenizers/{MODEL}_tokenizer_config.json"
WEIGHTS_FILE = f"weights/{MODEL}_256.safetensors"
TENSOR = "embedding.weight"
"""The matrix's name in the weights file (`WordLlama.load`'s `tensor_key`)."""


class WordVectors:
    """The tokenizer and the token matrix; `embed` as the library's `embed(norm=True)`."""

    def __init__(self, tokenizer: Any, matrix: Any) -> None:
        self._tokenizer = tokenizer
        self._matrix = matrix

    def embed(self, texts: Sequence[str]) -> Any:
        """One row of float32 a text, each of length 1 (or zero: a text of no tokens)."""
        import numpy as np

        encodings = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        vectors = np.zeros((len(encodings), self._matrix.shape[1]), dtype=np.float32)
        last = self._matrix.shape[0] - 1
        for row, encoding in enumerate(encodings):
            ids = np.clip(np.asarray(encoding.ids, dtype=np.int64), 0, last)
            if len(ids):
                mean = self._matrix[ids].astype(np.float32).sum(axis=0) / len(ids)
                vectors[row] = mean / np.linalg.norm(mean)
        return vectors


def load() -> WordVectors | None:
    """The wheel's word vectors, or None: fast paths off, WordLlama not installed, or its
    files not where this fast path looks (the library's load then decides)."""
    if not fast_paths.enabled():
        return None
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    tokenizer_file, weights_file = root / TOKENIZER_FILE, root / WEIGHTS_FILE
    if not (tokenizer_file.is_file() and weights_file.is_file()):
        return None
    from safetensors import safe_open
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    with safe_open(str(weights_file), framework="np") as weights:
        matrix = weights.get_tensor(TENSOR)
    return WordVectors(tokenizer, matrix)
