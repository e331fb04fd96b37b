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
    "released": ("发布", "推出", "发行", "上映", "首映", "出版", "问世", "印发", "签发", "released", "release", "premiered",
                 "published", "debuted", "launched", "unveiled", "introduced", "issued"),
    "opened": ("开业", "开幕", "开通", "启用", "开馆", "开放", "opened", "opening", "inaugurated"),
    "built": ("建成", "竣工", "落成", "修建", "建造", "建于", "始建", "兴建", "built", "completed", "constructed",
              "erected"),
    "joined": ("加入", "入职", "入团", "入会", "入党", "入伍", "加盟", "入队", "joined", "signed for", "came to us"),
    "elected": ("当选", "选为", "选举为", "推选为", "选任", "elected", "voted in", "re-elected"),
    "moved": ("搬入", "搬进", "搬到", "搬迁", "迁入", "迁至", "迁往", "迁到", "moved", "relocated"),
    "closed": ("关闭", "停业", "倒闭", "停办", "关停", "闭店", "撤销", "closed", "shut", "shut down", "closure"),
    "retired": ("退休", "卸任", "离任", "辞职", "离职", "retired", "stepped down", "resigned", "left the"),
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


KINDRED = (frozenset({"founded", "built"}),)
"""Relations a sentence may state for one another: 始建于, 创建于 and "built in" date a school's or a mill's
founding as often as its building."""

_CLAUSE_CUT = re.compile(r"[，,；;。！？!?：:]|(?<![\d A-Z])\.(?=\s|$)")
_BARE = re.compile(r"^[\W\s]*(?:on|in|at|since|from|by|于|在|自|从)?[\W\s]*$", re.IGNORECASE)


def _clause(sentence: str, start: int, end: int) -> tuple[int, int]:
    """The clause around ``sentence[start:end]``; a value that is its clause alone ("On 3 May 2011, she joined",
    2011年，她加入) takes the next clause, the one it dates."""
    cuts = [m.end() for m in _CLAUSE_CUT.finditer(sentence, 0, start)]
    begin = cuts[-1] if cuts else 0
    nxt = _CLAUSE_CUT.search(sentence, end)
    stop = nxt.start() if nxt else len(sentence)
    if nxt is not None and _BARE.match(sentence[begin:start]) and _BARE.match(sentence[end:stop]):
        after = _CLAUSE_CUT.search(sentence, nxt.end())
        stop = after.start() if after else len(sentence)
    return begin, stop


def governing(sentence: str, start: int, end: int) -> frozenset[str]:
    """The relations whose words, within the clause of the value at ``sentence[start:end]``, stand nearest it
    (成立 of 成立于二〇〇八年, 当选 of 于二零二二年三月当选, "joined" of "joined the company … on 3 May 2011");
    empty when its clause states none of them. The relation a date belongs to: the founding year does not answer
    when someone joined."""
    begin, stop = _clause(sentence, start, end)
    clause = sentence[begin:stop]
    found: list[tuple[int, str]] = []
    for name, patterns in _PATTERNS.items():
        for p in patterns:
            for m in p.finditer(clause):
                a, b = begin + m.start(), begin + m.end()
                if a < end and start < b:
                    continue
                found.append((start - b if b <= start else a - end, name))
    if not found:
        return frozenset()
    near = min(d for d, _ in found)
    return frozenset(name for d, name in found if d == near)


LOOSE = frozenset({"started", "created", "formed", "set up", "sets up", "setting up", "introduced", "completed",
                   "shut", "left the", "moved", "开放"})
"""Words of the lexicon that state their relation only loosely: one may start a firm or start working at it, form a
band or a habit, open a museum or open it every day. A question that asks by one of them asks a relation the date's
own verb may state in other words (started working at → joined), so none of its dates is judged another's."""
_SPECIFIC = {name: [p for w, p in zip(words, _PATTERNS[name], strict=True) if w not in LOOSE]
             for name, words in RELATIONS.items()}


def _asked_specifically(question: str) -> str | None:
    """The relation a question asks by a word of its own (当选, joined, founded), not by a loose one (``LOOSE``)."""
    found = [(m.start(), name) for name, patterns in _PATTERNS.items() for p in patterns if (m := p.search(question))]
    if not found:
        return None
    _, name = min(found)
    return name if any(p.search(question) for p in _SPECIFIC[name]) else None


def asked_elsewhere(question: str, sentence: str, start: int, end: int) -> bool | None:
    """Whether the date at ``sentence[start:end]`` belongs to the relation the question asks (True), to another
    one its clause states instead (False: 成立于二〇〇八年 for 现任团长哪一年当选, "founded in 1994" for "when did
    she join"), or neither is known (None: the question asks no relation of the lexicon, or the clause states
    none, or the question asks by a loose word only: "start working at" is joining)."""
    asked = _asked_specifically(question)
    if asked is None:
        return None
    stated = governing(sentence, start, end)
    if not stated:
        return None
    kin = next((k for k in KINDRED if asked in k), frozenset({asked}))
    return bool(stated & kin)
