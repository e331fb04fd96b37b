"""calibration.QuestionSide: one run's query-side vectors, each text embedded at most once (the question's own
vector handed over from retrieval, never embedded again). Texts invented here."""

from __future__ import annotations

from collections import Counter

import pytest
from langchain_core.embeddings import Embeddings

from graphs.rag.answer.calibration import QuestionSide, similarities


class _Counting(Embeddings):
    """Vectors by text; counts every text embedded as a query."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors
        self.queries: Counter[str] = Counter()

    def embed_query(self, text: str) -> list[float]:
        self.queries[text] += 1
        return self.vectors.get(text, [0.0, 0.0, 1.0])

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.vectors.get(t, [0.5, 0.5, 0.0]) for t in texts]


@pytest.mark.parametrize(("question", "phrase", "sentences"), [
    ("What time did the Kelso Pier ferry leave?", "what time did leave?",
     ["Passengers boarded at 7.20 am and the ferry left at 8.05 am.", "The ferry left at 8.05 am."]),
    ("码头的渡轮几点开出的？", "几点开出的？", ["乘客七点二十登船，渡轮八点零五开出。", "渡轮八点零五开出。"]),
])
def test_a_phrase_is_embedded_once_per_run_and_the_question_never(question: str, phrase: str,
                                                                    sentences: list[str]) -> None:
    embedder = _Counting({phrase: [1.0, 0.0, 0.0], sentences[0]: [0.9, 0.1, 0.0]})
    side = QuestionSide(embedder, question, [0.0, 1.0, 0.0])
    first = side.similarities(phrase, sentences)
    again = side.similarities(phrase, sentences[1:])  # the clauses of the same sentence, against the same phrase
    by_question = side.similarities(question, sentences)
    assert embedder.queries == Counter({phrase: 1}) and side.embedded == 1
    # the same cosines as embedding the phrase each time
    assert first == similarities(embedder, phrase, sentences)
    assert again == similarities(embedder, phrase, sentences[1:])
    assert by_question == similarities(embedder, question, sentences, [0.0, 1.0, 0.0])


def test_nothing_is_embedded_without_sentences_to_compare() -> None:
    embedder = _Counting({})
    side = QuestionSide(embedder, "Who runs the textiles table?")
    assert side.similarities("who runs the table?", []) == {}
    assert side.held("Who runs the textiles table?") is None and not embedder.queries


def test_a_question_without_retrieval_vector_is_embedded_once_and_then_held() -> None:
    embedder = _Counting({"图书馆周几闭馆？": [1.0, 0.0, 0.0]})
    side = QuestionSide(embedder, "图书馆周几闭馆？", None)
    side.similarities("图书馆周几闭馆？", ["本馆每周一闭馆。"])
    assert side.held("图书馆周几闭馆？") == [1.0, 0.0, 0.0]
    side.similarities("图书馆周几闭馆？", ["开放时间为九点至五点。"])
    assert embedder.queries == Counter({"图书馆周几闭馆？": 1})


def test_a_failing_embedder_raises_for_the_caller_to_record() -> None:
    from graphs.embeddings import EmbedderUnavailable

    class _Down(_Counting):
        def embed_query(self, text: str) -> list[float]:
            raise EmbedderUnavailable("down")

    side = QuestionSide(_Down({}), "When does the pool open?", [1.0, 0.0, 0.0])
    with pytest.raises(EmbedderUnavailable):
        side.similarities("when does open?", ["The pool opens at 6.30 am."])
    # the question's own vector still serves
    assert side.similarities("When does the pool open?", ["The pool opens at 6.30 am."])
