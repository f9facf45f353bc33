"""A plain-word question's best hits ranked again by what it means (`core.search.meaning`):
the real WordLlama embeddings its wheel ships (the `meaning` extra, part of the test
extra: a missing package fails here, it does not skip). In the plain pass WordLlama loads
them itself (`core.search.word_vectors` is the fast path)."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.search import meaning
from okf_explorer.core.search.query import parse_query
from okf_explorer.core.search.text_index import MEANING_MARGIN
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_pages

pytestmark = pytest.mark.plain

PAGES = {
    # each holds "money" once: by keywords the two shortest bodies (a heading repeating
    # the title is not the body's) tie, and slug order puts petty cash first
    "finance/refund-policy": (
        "# Refund policy\n\nCustomers returning goods are repaid the money spent.\n"
    ),
    "finance/payroll": (
        "# Payroll\n\nStaff are paid the money on the last Friday of every month.\n"
    ),
    "finance/petty-cash": "# Petty cash\n\nThe money box sits in the office safe.\n",
}
QUESTION = "can I get my money back"


@pytest.fixture
def brain(tmp_path: Path) -> Iterator[Brain]:
    write_pages(tmp_path, PAGES)
    brain = Brain(BundleSource(tmp_path), cache_dir=False)
    yield brain
    brain.close()


def slugs(brain: Brain, query: str) -> list[str]:
    return [hit.slug for hit in brain.text_search().search(query, 10)]


def test_the_package_is_installed_and_loads_without_the_network(monkeypatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("the embeddings tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(meaning, "_loaded", False)
    monkeypatch.setattr(meaning, "_model", None)
    assert meaning.enabled()
    money, keys = meaning.similarities(QUESTION, ["Refund policy", "Keyboard shortcuts"])
    assert money > keys


def test_a_question_in_other_words_ranks_the_page_it_means_first(brain: Brain) -> None:
    assert slugs(brain, QUESTION)[0] == "finance/refund-policy"


def test_turned_off_the_keywords_rank_alone(brain: Brain, monkeypatch) -> None:
    monkeypatch.setenv(meaning.SWITCH, "off")
    assert not meaning.enabled()
    assert slugs(brain, QUESTION)[0] == "finance/petty-cash"


def test_without_the_package_the_keywords_rank_alone(brain: Brain, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "wordllama", None)  # `import wordllama` fails
    monkeypatch.setattr(meaning, "_loaded", False)
    monkeypatch.setattr(meaning, "_model", None)
    assert not meaning.enabled()
    assert slugs(brain, QUESTION)[0] == "finance/petty-cash"


def test_the_page_called_by_the_query_stays_first(brain: Brain) -> None:
    assert slugs(brain, "payroll")[0] == "finance/payroll"
    assert slugs(brain, "petty cash")[0] == "finance/petty-cash"


def test_scores_still_fall_from_the_first_hit_to_the_last(brain: Brain) -> None:
    scores = [hit.score for hit in brain.text_search().search(QUESTION, 10)]
    assert len(scores) == 3
    assert scores == sorted(scores, reverse=True)


def test_explicit_syntax_is_not_ranked_again(brain: Brain, monkeypatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr(meaning, "rerank", lambda question, *rest: asked.append(question))
    slugs(brain, '"the money"')
    assert asked == []
    slugs(brain, QUESTION)
    assert asked == ["can I get my money back"]


def test_embeddings_are_remembered_up_to_memory(monkeypatch) -> None:
    monkeypatch.setattr(meaning, "MEMORY", 3)
    monkeypatch.setattr(meaning, "_vectors", type(meaning._vectors)())
    meaning.similarities("a", ["one", "two", "three", "four", "five"])
    assert list(meaning._vectors) == ["three", "four", "five"]
    meaning.similarities("a", ["three", "six"])
    assert list(meaning._vectors) == ["five", "three", "six"]


def test_the_model_loads_when_a_question_needs_it_or_ctrl_f_prepares(
    brain: Brain, monkeypatch
) -> None:
    monkeypatch.setattr(meaning, "_loaded", False)
    monkeypatch.setattr(meaning, "_model", None)
    slugs(brain, '"the money"')  # explicit syntax: a one-shot `search` loads nothing
    assert not meaning._loaded
    brain.text_search().prepare()  # what `ctrl+f` runs in a worker as it opens
    assert meaning._loaded and meaning._model is not None


def test_a_question_in_japanese_keeps_the_keyword_ranking(tmp_path: Path, monkeypatch) -> None:
    write_pages(
        tmp_path,
        {"ja/返金": "# 返金\n\nお金を返す方法。\n", "ja/給与": "# 給与\n\nお金の支払い。\n"},
    )
    asked: list[str] = []
    monkeypatch.setattr(meaning, "rerank", lambda question, *rest: asked.append(question))
    monkeypatch.setattr(meaning, "_loaded", False)
    monkeypatch.setattr(meaning, "_model", None)
    brain = Brain(BundleSource(tmp_path), cache_dir=False)
    try:
        assert len(slugs(brain, "お金を返す")) == 2
        assert asked == []
        assert not meaning._loaded  # nor is the model loaded for it
    finally:
        brain.close()


def test_a_first_question_with_little_time_left_answers_by_keywords(
    brain: Brain, monkeypatch
) -> None:
    """The embeddings load before a search's deadline starts (a first question cut by the
    load failed `serve`'s search under a short deadline); with less than
    `MEANING_MARGIN` left, the keywords answer alone rather than not at all."""
    monkeypatch.setattr(meaning, "_loaded", False)
    monkeypatch.setattr(meaning, "_model", None)
    index = brain.text_search().text_index()
    hits = index.search(parse_query(QUESTION), 10, deadline=MEANING_MARGIN / 2)
    assert hits[0].slug == "finance/petty-cash"  # by keywords
    assert meaning._loaded and meaning._model is not None
    hits = index.search(parse_query(QUESTION), 10, deadline=MEANING_MARGIN * 8)
    assert hits[0].slug == "finance/refund-policy"
