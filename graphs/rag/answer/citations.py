"""Citations: every sentence of an answer cites the passages that state it; the citations an answer uses."""

from __future__ import annotations

import re

from graphs.domain import Citation, Hit
from graphs.rag.answer.check import sources_of_facts
from graphs.text.normalize import has_han, normalize
from graphs.text.sentences import split_sentences

_CITED = re.compile(r"\[(\d{1,3})\]")


def _bigrams(text: str) -> set[str]:
    norm = re.sub(r"\W+", "", normalize(text))
    return {norm[i : i + 2] for i in range(len(norm) - 1)}


def attribute(answer: str, hits: list[Hit], threshold: float = 0.5) -> str:
    """Add the best-supporting passage number to each uncited sentence that a passage supports; a sentence that
    joins facts of several passages ("A于1995年成立，而B成立于2011年") gets the passages that state them."""
    passages = [_bigrams(h.text) for h in hits]
    out = []
    for sentence in split_sentences(answer) or [answer]:
        grams = _bigrams(_CITED.sub("", sentence))
        if not _CITED.search(sentence) and grams:
            support = [len(grams & p) / len(grams) for p in passages]
            best = max(range(len(hits)), key=lambda i: support[i])
            if support[best] >= threshold:
                marks = f"[{best + 1}]"
            else:
                marks = "".join(f"[{n}]" for n in sources_of_facts(sentence, hits))
            if marks:
                sentence = re.sub(r"([。！？!?.；;]?)$", rf"{marks}\1", sentence, count=1)
        out.append(sentence)
    joiner = "" if has_han(answer) else " "
    return joiner.join(out)


def cited(answer: str, hits: list[Hit]) -> list[Citation]:
    """The citations an answer actually uses, in order of first use."""
    numbers = dict.fromkeys(int(m) for m in _CITED.findall(answer))
    return [Citation.of(n, hits[n - 1]) for n in numbers if 1 <= n <= len(hits)]
