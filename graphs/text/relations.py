"""The relations comparisons ask about most (founded, born, died, released, opened, built), each with the words
that state it in Chinese and English: "特斯拉和SpaceX谁先成立？" is answered by "Tesla Motors was incorporated in
July 2003" and "马斯克于2002年创办SpaceX", not by the year a Tesla truck was unveiled."""

from __future__ import annotations

import re

from graphs.text.terms import stem

RELATIONS: dict[str, tuple[str, ...]] = {
    "founded": ("成立", "创立", "创办", "创建", "建立", "组建", "创刊", "始创", "设立", "开办", "兴办", "创设", "founded",
                "founding", "established", "incorporated", "formed", "started", "created", "co-founded", "cofounded",
                "set up", "sets up", "setting up"),
    "born": ("出生", "生于", "诞生", "出世", "born", "birth"),
    "died": ("去世", "逝世", "死于", "病逝", "辞世", "died", "death", "passed away"),
    "released": ("发布", "推出", "发行", "上映", "首映", "出版", "问世", "released", "release", "premiered",
                 "published", "debuted", "launched", "unveiled", "introduced"),
    "opened": ("开业", "开幕", "开通", "启用", "开馆", "开放", "opened", "opening", "inaugurated"),
    "built": ("建成", "竣工", "落成", "修建", "建造", "建于", "始建", "兴建", "built", "completed", "constructed",
              "erected"),
}


_INFLECTED = r"(?:e|d|ed|s|es|ing|ion|ions|tion|ation|ations|ment|ments|ate|ated|ates|ating)?\b"
"""The endings of a stem's own inflections and nominalisations (founded, founding, foundation; establishment;
completion), and none of another word that opens with it: a "foundry" or a "founder" states no founding, a
"former" mayor no forming, a "diet" no death (the stem alone matched these, so that "As of 2025 the foundry employs
37 people" answered "when was the foundry set up")."""


def _english(word: str) -> re.Pattern[str]:
    if " " in word:
        return re.compile(rf"\b{re.escape(word)}\b", re.IGNORECASE)
    return re.compile(rf"\b{re.escape(stem(word))}{_INFLECTED}", re.IGNORECASE)


_PATTERNS = {name: [_english(w) if w.isascii() else re.compile(re.escape(w)) for w in words]
             for name, words in RELATIONS.items()}


ORIGIN = ("founded", "built", "opened", "born", "released")
"""The relations that date a thing's start: how old it is, or how long its history, when the question names
none ("哪座桥的历史更久", "Which is older, the ferry or the theatre?")."""


def asked_relation(question: str) -> str | None:
    """The relation a question asks about (the first named in it), or None."""
    found = [(m.start(), name) for name, patterns in _PATTERNS.items() for p in patterns if (m := p.search(question))]
    return min(found)[1] if found else None


def states(relation: str, sentence: str) -> bool:
    """Whether a sentence states the relation, in either language."""
    return any(p.search(sentence) for p in _PATTERNS[relation])


def stated_at(relation: str, sentence: str) -> list[tuple[int, int]]:
    """Where a sentence states the relation, in either language (its words' spans); empty when it does not."""
    return [m.span() for p in _PATTERNS[relation] for m in p.finditer(sentence)]
