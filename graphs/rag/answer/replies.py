"""The answer's wording around the evidence: the plain "not found" reply with the related passages, the
sentence that states where sources disagree, and the note that the search stopped at its budget."""

from __future__ import annotations

import re

from graphs.domain import Answerability, Contradiction, Hit
from graphs.rag.state import RagState, RagUpdate
from graphs.text.normalize import has_han, reply_language

_CITED = re.compile(r"\[(\d{1,3})\]")


def no_results_answer(question: str, retrieved: bool = False) -> str:
    """The plain statement that the documents hold no answer (``retrieved``: passages were found, but none
    supports one), in the question's language where the service has the words (``reply_language``), else
    English."""
    language = reply_language(question)
    if language == "zh":
        return "已索引的文档中没有找到这个问题的答案。" if retrieved else "没有在已索引的文档中找到与该问题相关的内容。"
    if language == "ja":
        return ("索引済みの文書には、この質問の答えが見つかりませんでした。" if retrieved
                else "索引済みの文書には、この質問に関する内容が見つかりませんでした。")
    if retrieved:
        return "The indexed documents do not contain an answer to this question."
    return "No relevant information was found in the indexed documents."


def still_filling(question: str, chunks: int) -> str:
    """The sentence a "not found" answer ends with while ``chunks`` of recent uploads still wait for their dense
    vectors: the documents may hold the answer where only meaning search (a question in the other language, a
    paraphrase) would find it."""
    language = reply_language(question)
    if language == "zh":
        return f"（刚上传的文档还有 {chunks} 个片段正在建立语义索引，稍后再问可能找到答案。）"
    if language == "ja":
        return f"（アップロードされたばかりの文書の {chunks} 個の断片は意味検索の索引を作成中です。少し後でもう一度質問すると答えが見つかるかもしれません。）"
    return (f"({chunks} chunk{'s' if chunks != 1 else ''} of documents uploaded moments ago {'are' if chunks != 1 else 'is'} "
            f"still being indexed for meaning search; asking again shortly may find the answer.)")


def still_ingesting(question: str, documents: int) -> str:
    """The sentence a "not found" answer ends with while ingest jobs still have ``documents`` to write: they are
    not searchable at all yet, so the refusal is not the documents' last word."""
    language = reply_language(question)
    if language == "zh":
        return f"（还有 {documents} 个文档正在导入，尚不能检索；导入完成后再问可能找到答案。）"
    if language == "ja":
        return f"（{documents} 件の文書はまだ取り込み中で、検索できません。取り込みが終わってからもう一度質問すると答えが見つかるかもしれません。）"
    return (f"({documents} document{'s' if documents != 1 else ''} of an upload {'are' if documents != 1 else 'is'} "
            f"still being ingested and not searchable yet; asking again once the upload is done may find the answer.)")


RELATED = 3
"""Passages shown as related (never as the answer) when the documents do not answer the question."""


def not_found(question: str, hits: list[Hit], verdict: Answerability) -> RagUpdate:
    """The not-found answer: the plain sentence, the assessment, and the closest passages as related."""
    return {"answer": no_results_answer(question, retrieved=bool(hits)), "answer_span": None, "citations": [],
            "answerability": verdict, "related": hits[:RELATED], "answer_mode": "none", "status": "no_results"}


def disagreement(conflicts: list[Contradiction], hits: list[Hit], chinese: bool) -> str:
    """One sentence per disputed fact, each value with the passages that state it."""
    number = {h.id: n for n, h in enumerate(hits, start=1)}
    out = []
    for c in conflicts:
        sides = [f"{''.join(f'[{number[i]}]' for i in claim.hit_ids if i in number)} {claim.value}".strip()
                 for claim in c.claims]
        out.append(f"资料对“{c.fact}”说法不一：{'；'.join(sides)}。" if chinese
                   else f"Sources disagree on {c.fact}: {'; '.join(sides)}.")
    return ("" if chinese else " ").join(out)


def _states_all_sides(answer: str, conflicts: list[Contradiction], hits: list[Hit]) -> bool:
    """Whether an LLM answer names every disputed value and cites a passage for each."""
    number = {h.id: n for n, h in enumerate(hits, start=1)}
    used = {int(m) for m in _CITED.findall(answer)}
    return all(claim.value in answer and any(number.get(i) in used for i in claim.hit_ids)
               for c in conflicts for claim in c.claims)


INCOMPLETE = {"en": "(The search stopped at its budget: this answer may be incomplete.)",
              "zh": "（检索已达到预算上限，答案可能不完整。）"}


def finish(answer: str, state: RagState, conflicts: list[Contradiction], hits: list[Hit], *,
            llm: bool = False) -> str:
    """Add the disagreement (always to an extractive answer; to an LLM's when it did not state every side)
    and the incompleteness note."""
    chinese = has_han(state["question"])
    if conflicts and not (llm and _states_all_sides(answer, conflicts, hits)):
        answer = f"{answer}{'' if chinese else ' '}{disagreement(conflicts, hits, chinese)}"
    if state.get("possibly_incomplete"):
        answer = f"{answer}{'' if chinese else ' '}{INCOMPLETE['zh' if chinese else 'en']}"
    return answer
