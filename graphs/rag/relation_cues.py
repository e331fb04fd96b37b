"""How a passage states the relation a multi-hop question follows from its first entity to the next.

A question names the relation by its role ("Lothair II's **mother**", "the **performer** of song B Boy", "the
**father-in-law** of John Ernest"); the passage that leads on states it in other words ("the second son of Emperor
Lothair I and Ermengarde of Tours", "a song by ... recording artist Meek Mill", "married Christine of
Hesse-Kassel"). The second hop (``graphs.rag.expansion.bridge_candidates``) matches a sentence against the
question's relation through these cues as well as through the word itself.

The cues of a role are the ways a passage about the *first* entity names the *next* one: for a kinship role the
link the first entity's own page states (a grandparent is reached through a parent, an in-law through a spouse,
a step-parent through a parent's marriage); for a creative role the verb or phrase that credits the work's maker.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_PARENT = ("son", "daughter", "child of", "born to", "children of", "father", "mother", "parents", "heir")
_SPOUSE = ("married", "marriage", "wife", "husband", "spouse", "consort", "widow", "queen of", "wedded", "wed ")
_CHILD = ("son", "daughter", "children", "child", "father of", "mother of", "heir")
_SIBLING = ("brother", "sister", "sibling", "son of", "daughter of")

ROLE_CUES: dict[str, tuple[str, ...]] = {
    # kinship, reached from the first person's page
    "mother": _PARENT, "father": _PARENT, "parent": _PARENT,
    "grandfather": _PARENT, "grandmother": _PARENT, "grandparent": _PARENT, "grandson": _CHILD,
    "granddaughter": _CHILD, "grandchild": _CHILD,
    "stepmother": _PARENT + _SPOUSE, "stepfather": _PARENT + _SPOUSE,
    "husband": _SPOUSE, "wife": _SPOUSE, "spouse": _SPOUSE,
    "father-in-law": _SPOUSE, "mother-in-law": _SPOUSE, "parent-in-law": _SPOUSE,
    "son-in-law": _CHILD + _SPOUSE, "daughter-in-law": _CHILD + _SPOUSE, "child-in-law": _CHILD + _SPOUSE,
    "brother-in-law": _SPOUSE + _SIBLING, "sister-in-law": _SPOUSE + _SIBLING,
    "son": _CHILD, "daughter": _CHILD, "child": _CHILD, "children": _CHILD,
    "brother": _SIBLING, "sister": _SIBLING, "sibling": _SIBLING,
    "uncle": _PARENT + _SIBLING, "aunt": _PARENT + _SIBLING, "nephew": _SIBLING + _CHILD, "niece": _SIBLING + _CHILD,
    # who made a work, reached from the work's page
    "director": ("directed", "direction of", "director"),
    "performer": ("song by", "single by", "album by", "recorded by", "performed by", "sung by", "recording artist",
                  "'s album", "singer", "band", "rapper", "performed", "recorded"),
    "singer": ("song by", "single by", "recorded by", "performed by", "sung by", "singer", "recording artist"),
    "composer": ("composed", "music by", "score by", "composer", "music was", "score was", "soundtrack"),
    "producer": ("produced", "producer", "production of"),
    "screenwriter": ("written by", "screenplay", "wrote", "writer"),
    "writer": ("written by", "wrote", "writer", "author", "novel by", "screenplay"),
    "author": ("written by", "wrote", "author", "novel by", "book by"),
    "creator": ("created by", "creator", "devised by"),
    "founder": ("founded by", "founder", "established by", "co-founded"),
    "editor": ("edited by", "editor"),
    "cinematographer": ("cinematography", "photographed by", "cinematographer"),
    "illustrator": ("illustrated by", "illustrator"),
    "designer": ("designed by", "designer"),
    "architect": ("designed by", "architect"),
    "publisher": ("published by", "publisher"),
    "developer": ("developed by", "developer"),
    "owner": ("owned by", "owner"),
    "manufacturer": ("manufactured by", "made by", "built by", "manufacturer"),
    # Chinese: the same roles as a Chinese passage states them
    "母亲": ("之子", "之女", "儿子", "女儿", "所生", "母亲", "父亲"),
    "父亲": ("之子", "之女", "儿子", "女儿", "所生", "母亲", "父亲"),
    "丈夫": ("嫁给", "嫁", "娶", "妻子", "丈夫", "结婚", "配偶"),
    "妻子": ("嫁给", "嫁", "娶", "妻子", "丈夫", "结婚", "配偶"),
    "导演": ("执导", "导演"),
    "作曲": ("作曲", "配乐", "谱曲"),
    "演唱者": ("演唱", "歌手", "专辑"),
    "作者": ("所著", "著", "作者", "撰写", "创作"),
    "创始人": ("创办", "创立", "创始人", "成立"),
    "生产商": ("生产", "制造", "出品", "生产商", "制造商"),
    "子女": ("儿子", "女儿", "之子", "之女", "孩子", "子女", "长子", "长女"),
    "制作人": ("制作", "监制", "制片"),
}

_ALIASES = {"mom": "mother", "dad": "father", "grandpa": "grandfather", "grandma": "grandmother",
            "step-mother": "stepmother", "step-father": "stepfather", "performers": "performer",
            "directors": "director", "composers": "composer", "producers": "producer", "writers": "writer",
            "authors": "author", "founders": "founder", "parents": "parent", "sons": "son", "daughters": "daughter",
            "wives": "wife", "husbands": "husband", "siblings": "sibling", "brothers": "brother", "sisters": "sister",
            "grandparents": "grandparent", "grandchildren": "grandchild", "screenwriters": "screenwriter"}

def _bounded(cue: str) -> str:
    """An English cue as whole words ("son" is not in "person" nor "Sony"; "'s album" follows any name)."""
    head = r"(?<![a-z])" if cue[0].isalpha() else ""
    tail = r"(?![a-z])" if cue[-1].isalpha() else ""
    return rf"{head}{re.escape(cue)}{tail}"


_PATTERNS: dict[str, list[re.Pattern[str]]] = {
    role: [re.compile(re.escape(c)) if not c.isascii() else re.compile(_bounded(c)) for c in cues]
    for role, cues in ROLE_CUES.items()
}


def role_of(term: str) -> str | None:
    """The relation role a question's term names ("mother", "paternal grandfather" → "grandfather"), or None."""
    key = term.strip().lower()
    key = _ALIASES.get(key, key)
    if key in ROLE_CUES:
        return key
    last = re.split(r"\s+", key)[-1] if key.isascii() else key
    last = _ALIASES.get(last, last)
    return last if last in ROLE_CUES and last != key else None


def role_patterns(role: str) -> list[re.Pattern[str]]:
    """The compiled cues of a role (matched on lower-case text)."""
    return _PATTERNS[role]


def states_role(role: str, sentence: str) -> bool:
    """Whether ``sentence`` (any case) states the relation of ``role`` in one of its cue words."""
    text = sentence.lower()
    return any(p.search(text) for p in _PATTERNS[role])


def bridge_terms(terms: Sequence[str], question: str) -> list[str]:
    """The question's terms as the second hop matches them: a role the parser missed or split ("child-in-law"
    → "child", "law") is added whole, and the pieces of a split role are dropped (an in-law is not a child)."""
    roles = roles_in(terms, question)
    pieces = {p for r in roles if "-" in r for p in r.split("-")}
    return [t for t in terms if t not in pieces] + [r for r in roles if r not in terms]


def roles_in(terms: Sequence[str], question: str = "") -> list[str]:
    """The roles named by the question's terms, or by its words when the terms miss one ("father-in-law" split
    by the parser), in order of appearance."""
    out = [r for t in terms if (r := role_of(t))]
    if question:
        words = re.findall(r"[a-z]+(?:-[a-z]+)*", question.lower())
        out += [r for w in words if (r := role_of(w))]
        out += [r for role in ROLE_CUES if not role.isascii() and role in question for r in [role]]
    return list(dict.fromkeys(out))
