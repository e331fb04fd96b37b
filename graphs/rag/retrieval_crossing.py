"""Words of a question in the other language, for choosing which chunks of a file still filling to embed first.

A question in English over a Chinese upload (or the reverse) shares no word with it, so while the file's vectors
fill, BM25 over the question chooses none of its chunks and the first ask scores none of them by meaning
(``graphs.ingest.vector_fill.FillingChunks`` embeds at most a few per search). This gives BM25 the question's
words as the other language writes them, from what the service already knows in both languages:

- the attribute lexicon (``graphs/rag/answer/attributes.json``): an attribute the question names ("population",
  "opened", "founded") brings its words in both languages (人口, 启用, 成立 …), and a label or counted noun of its
  bilingual groups (乘客 / "passengers", "minutes" / 记录) the group's words;
- the entity store's names: a name or alias the question spells (also in pinyin: "Lanxi" for 兰溪) brings the
  entity's standard name and every alias;
- the general dictionary (``graphs.text.bilingual``): each of the question's keywords, and each pair of adjacent
  English words ("spring festival"), brings its words in the other language ("checkout": 退房, 洗衣店: "laundry"; a
  compound the dictionary knows by its parts, 英译日, the first sense of each part).

The filling's choice of candidates reads all these words; the candidates are scored by the index's own embedder.

The hybrid and graph searches' BM25 reads the same words, those written in the other language than the
question's only (``other_language_terms``): the passages in the question's language score as before, and those
in the other language are reached by the asked attribute too, not by names alone (a mixed corpus: a Chinese
question now also matches an English passage stating the attribute, which the answer layer then judges).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from graphs.rag.answer.attributes import label_words, lexicon
from graphs.text.bilingual import SPECIFIC_FROM, chinese_of, parts_of, specificity, translations
from graphs.text.gazetteer import Gazetteer
from graphs.text.normalize import has_han
from graphs.text.query_analysis import extract_keywords

QUESTION_WORDS = frozenset({"when", "where", "who"})
"""The lexicon's entries of question words only (什么时候, "what year"): a file states them by a value, not a word."""


def crossing_terms(question: str, gazetteer: Gazetteer | None = None) -> str:
    """The question's attribute words and entity names in both languages, space-separated (empty: none known)."""
    terms: list[str] = []
    for attribute in lexicon():
        if attribute.name in QUESTION_WORDS:
            continue
        if any(p.search(question) for p in (*attribute.asks, *attribute.cues)):
            terms.extend(attribute.words)
    if gazetteer is not None:
        for match in (*gazetteer.matches(question), *gazetteer.pinyin_matches(question)):
            for entity in match.entities:
                terms.extend([entity.standard_name, *entity.aliases])
    # a label or counted noun of the lexicon's bilingual groups ("took the minutes" / 记录, 乘客 / "passengers")
    terms.extend(label_words(question))
    terms.extend(dictionary_terms(question))
    return " ".join(dict.fromkeys(t for t in terms if t.strip()))


_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def dictionary_terms(question: str) -> list[str]:
    """The general dictionary's words in the other language for the question's keywords and its pairs of adjacent
    English words."""
    terms: list[str] = []
    for word in extract_keywords(question):
        # a specific word's only (``SPECIFIC_FROM``: 退房 for "checkout", "boiler" for 锅炉): a common word's
        # translations are written by many passages of the other language (博物馆 by every label of a museum's page,
        # "agree" and "written" by every contract) and outrank, in BM25, the passages the question's own specific
        # words find (the exhibit's code, the style guide's quoted "shall")
        forms = translations(word) or tuple(senses[0] for senses in parts_of(word))
        if forms and specificity(word, translations(word) or None) >= SPECIFIC_FROM:
            terms.extend(forms)
    words = [w.casefold() for w in _WORD.findall(question)]
    for a, b in itertools.pairwise(words):
        terms.extend(chinese_of(f"{a} {b}"))
    return terms


def other_language_terms(question: str, gazetteer: Gazetteer | None = None) -> str:
    """The ``crossing_terms`` written in the other language than the question's (Latin words for a question
    with Chinese in it, Chinese ones for a question without), space-separated: what BM25 over the question's own
    words cannot match (both scripts' words for an English question around a Chinese name)."""
    chinese = has_han(question)
    # a question in English words that writes a Chinese name ("How many piers of 汀月桥 were washed away?") is
    # asked of the Chinese passages that write the name: both scripts' words are the other language's to it
    mixed = chinese and len(_LOWER_WORD.findall(question)) >= MIXED_WORDS
    return " ".join(t for t in crossing_terms(question, gazetteer).split(" ")
                    if t and (mixed or has_han(t) != chinese))


_LOWER_WORD = re.compile(r"(?<![A-Za-z])[a-z]{2,}(?![A-Za-z])")
MIXED_WORDS = 3
"""Lower-case Latin words (not names, which are capitalised) from which a question with Chinese in it is written in
English around a Chinese name."""


def crossing(gazetteer: Callable[[], Gazetteer] | None = None) -> Callable[[str], str]:
    """``crossing_terms`` bound to the service's gazetteer (a callable: it follows the entity store's changes)."""
    return lambda question: crossing_terms(question, gazetteer() if gazetteer is not None else None)
