"""search_hybrid: dense + BM25 with no filter, the request's fusion, the lexical side naming the entities."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from graphs.domain import Hit, ParsedQuery, SearchRecord, ValidatedEntity
from graphs.rag.nodes.search_hybrid import search_hybrid
from graphs.stores.base import StoreUnavailable
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime


@dataclass
class HybridIndex(ScriptedIndex):
    """Records what each hybrid search was asked with."""

    asked: list[tuple[str, int, str]] = field(default_factory=list)
    questions: list[str | None] = field(default_factory=list)

    def search_hybrid(self, vector: Sequence[float], text: str, *, filter: str | None, limit: int,
                      fusion: str = "rrf", dense_weight: float | None = None,
                      question: str | None = None) -> list[Hit]:
        self.asked.append((text, limit, fusion))
        self.questions.append(question)
        return super().search_hybrid(vector, text, filter=filter, limit=limit, fusion=fusion)


async def test_search_hybrid_returns_its_hits_record_and_the_question_vector(tmp_path: Path) -> None:
    index = HybridIndex(respond=lambda channel, expr: [hit("tesla#0", "Tesla is in Austin.", 0.7, channel)])
    ctx = make_context(tmp_path, index, candidate_k=5)
    question = "Where is Ostrava?"  # no attribute of the bilingual lexicon, no name of the fake entity store
    out = await search_hybrid({"question": question, "top_k": 8, "fusion": "weighted"}, runtime(ctx))
    took = out["searches"][0].duration_ms
    assert out == {"hits": [hit("tesla#0", "Tesla is in Austin.", 0.7, "hybrid")],
                   "searches": [SearchRecord(channel="hybrid", filter=None, count=1, duration_ms=took)],
                   "query_vector": ctx.embedder.embed_query(question), "lexical_text": question}
    assert index.calls == [("hybrid", None)]
    assert index.asked == [(question, 8, "weighted")]  # the larger of top_k and candidate_k
    assert index.questions == [question]  # fusion reads the question's language


async def test_search_hybrid_matches_an_entity_s_standard_name_lexically(tmp_path: Path) -> None:
    index = HybridIndex()
    musk = ValidatedEntity(text="老马", type="PERSON", valid=True, standard_name="Elon Musk", match="alias",
                           score=1.0)
    state = {"question": "老马创办的公司", "parsed": ParsedQuery(original_query="老马创办的公司"), "entities": [musk]}
    await search_hybrid(state, runtime(make_context(tmp_path, index)))  # type: ignore[arg-type]
    [(text, _, fusion)] = index.asked
    assert "Elon Musk" in text and "老马创办的公司" in text and fusion == "rrf"


async def test_search_hybrid_raises_an_outage_instead_of_finding_nothing(tmp_path: Path) -> None:
    with pytest.raises(StoreUnavailable):
        await search_hybrid({"question": "q"}, runtime(make_context(tmp_path, ScriptedIndex(fail=True))))


async def test_search_hybrid_reads_the_question_s_words_in_the_other_language_lexically(tmp_path: Path) -> None:
    """A question over files in the other language shares only names with them: BM25 also reads the asked
    attribute as the other language writes it (the bilingual lexicon), and never the question's own language's
    synonyms (a question over its own language's files keeps its ranking)."""
    index = HybridIndex()
    await search_hybrid({"question": "Ostrava Tiles 去年的营业收入是多少？"}, runtime(make_context(tmp_path, index)))
    await search_hybrid({"question": "How many employees does the Qinglan tea factory have?"}, runtime(make_context(tmp_path, index)))
    [(zh, _, _), (en, _, _)] = index.asked
    assert zh.startswith("Ostrava Tiles 去年的营业收入是多少？") and "revenue" in zh.split() and "营收" not in zh
    assert en.startswith("How many employees does the Qinglan tea factory have?") and "员工" in en.split() and "staff" not in en
