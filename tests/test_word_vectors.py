"""`core.search.word_vectors` (a fast path) gives the vectors WordLlama's own load and
`embed(norm=True)` give, from the same files of the installed wheel."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import wordllama
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from okf_explorer.core import fast_paths
from okf_explorer.core.search import meaning, word_vectors

pytestmark = pytest.mark.plain

TEXTS = [
    "can I get my money back",
    meaning.page_text(
        "Refund policy",
        "refunds returns",
        "Who is repaid; How long it takes",
        "Customers returning goods are repaid.",
        "Customers returning goods are repaid the money spent, within 30 days. " * 12,
    ),
    "Backlinks",
    "which notes link to the note I am reading",
    "naïve café — 東京の地図 and emoji 🗂️ in one line",
    "x" * 2000,
    " .  .  ",
]


@pytest.fixture(autouse=True)
def fast_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fast_paths.PLAIN_ENV, "0")


@pytest.fixture(scope="module")
def library() -> wordllama.WordLlamaInference:
    return wordllama.WordLlama.load(
        cache_dir=Path(wordllama.__file__).parent, disable_download=True
    )


@pytest.fixture(scope="module")
def ours() -> word_vectors.WordVectors:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(fast_paths.PLAIN_ENV, "0")  # the plain pass too holds it to the library
        vectors = word_vectors.load()
    assert vectors is not None, "the wheel's files are not where the fast path looks"
    return vectors


def test_the_vectors_are_the_library_s(library, ours) -> None:
    expected = library.embed(TEXTS, norm=True)
    got = ours.embed(TEXTS)
    assert got.dtype == np.float32 and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, atol=1e-6)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=80), min_size=1, max_size=5))
def test_any_texts_get_the_library_s_vectors(library, ours, texts: list[str]) -> None:
    tokens = library.tokenizer.encode_batch(texts, add_special_tokens=False)
    assume(all(encoding.ids and any(encoding.attention_mask) for encoding in tokens))
    np.testing.assert_allclose(ours.embed(texts), library.embed(texts, norm=True), atol=1e-6)


def test_a_text_of_no_tokens_is_the_zero_vector(ours) -> None:
    vectors = ours.embed(["", "money"])
    assert not vectors[0].any()
    assert float(vectors[1] @ vectors[1]) == pytest.approx(1.0)


def test_fast_paths_off_leave_the_load_to_the_library(monkeypatch) -> None:
    monkeypatch.setenv(fast_paths.PLAIN_ENV, "1")
    assert word_vectors.load() is None
    monkeypatch.setattr(meaning, "_loaded", False)
    monkeypatch.setattr(meaning, "_model", None)
    money, keys = meaning.similarities("can I get my money back", ["Refund policy", "Keys"])
    assert money > keys


def test_files_the_wheel_no_longer_keeps_there_leave_it_to_the_library(monkeypatch) -> None:
    monkeypatch.setattr(word_vectors, "WEIGHTS_FILE", "weights/moved.safetensors")
    assert word_vectors.load() is None
