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

import itertools
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
    "manager": ("manager", "managed", "coach"),
    "chef": ("chef", "cook"),
    "operator": ("run by", "operated by", "owned by", "operator", "operates", "runs"),
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
    "主教练": ("主教练", "教练", "执教", "主帅"),
    "设计者": ("设计",),
    "厨师": ("厨师", "主厨", "首创"),
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


# -- the kind of entity a relation reaches -------------------------------------------------------------------------
#
# A bridge is followed to the entity the relation's object is: a place for "born in" / "the town where", a person
# for "directed by" / "the founder of", an organisation for "the company that makes" / "the club whose manager".
# The kind the question asks of the bridge is read from the role or the noun that describes it; the kind of a
# candidate entity from its own passage's opening (the head noun after "is a", "是一座城市", a lifespan in
# brackets), so a first hop's sentence that also names an entity of another kind (the town a company operates in)
# does not lead the chain there.

PERSON, PLACE, ORGANIZATION = "person", "place", "organization"

_PERSON_ROLES = ("mother", "father", "parent", "grandfather", "grandmother", "grandparent", "grandson",
                 "granddaughter", "grandchild", "stepmother", "stepfather", "husband", "wife", "spouse",
                 "father-in-law", "mother-in-law", "parent-in-law", "son-in-law", "daughter-in-law", "child-in-law",
                 "brother-in-law", "sister-in-law", "son", "daughter", "child", "children", "brother", "sister",
                 "sibling", "uncle", "aunt", "nephew", "niece", "director", "composer", "screenwriter", "writer",
                 "author", "cinematographer", "illustrator", "editor", "founder", "manager", "designer", "chef",
                 "母亲", "父亲", "丈夫", "妻子", "导演", "作曲", "作者", "创始人", "子女")
OBJECT_KIND: dict[str, str] = {**{r: PERSON for r in _PERSON_ROLES},
                               "manufacturer": ORGANIZATION, "publisher": ORGANIZATION, "生产商": ORGANIZATION,
                               "operator": ORGANIZATION,
                               "birthplace": PLACE}
"""The kind of entity a relation of the chains reaches (a role not listed may be either: a performer is a singer
or a band, an owner a person or a company)."""

_PLACE_NOUNS = ("town", "city", "village", "port", "capital", "county", "district", "province", "region", "island",
                "municipality", "commune", "suburb", "hamlet", "country", "state", "borough", "parish", "settlement",
                "place")
_ORG_NOUNS = ("company", "firm", "club", "university", "college", "school", "band", "manufacturer", "maker",
              "corporation", "publisher", "label", "studio", "team", "museum", "gallery", "institute", "agency",
              "association", "society", "party", "bank", "airline", "brewery", "business", "enterprise", "group",
              "academy", "orchestra", "choir", "foundation", "organisation", "organization", "operator")
_PERSON_NOUNS = ("person", "man", "woman", "people")
_ZH_PLACE = ("城市", "城", "镇", "县", "村", "省", "市", "岛", "国家", "地方", "首都", "港", "乡", "区")
_ZH_ORG = ("公司", "企业", "俱乐部", "大学", "学院", "学校", "乐队", "厂商", "厂家", "工厂", "集团", "出版社", "博物馆",
           "银行", "机构", "协会", "球队", "剧团", "乐团", "研究所")
_ZH_PERSON_END = ("者", "师", "家", "人", "员", "手", "练")  # 作者, 厨师, 画家, 创始人, 演员, 歌手, 教练

_EN_NOUN_KIND = {**{w: PLACE for w in _PLACE_NOUNS}, **{w: ORGANIZATION for w in _ORG_NOUNS},
                 **{w: PERSON for w in _PERSON_NOUNS}}


def _zh_noun_kind(noun: str) -> str | None:
    """The kind a Chinese noun ends in ("青川市的一座城市": a place; "职业足球俱乐部": an organisation; "厨师": a person)."""
    for words, kind in ((_ZH_ORG, ORGANIZATION), (_ZH_PLACE, PLACE)):
        if any(noun.endswith(w) for w in words):
            return kind
    return PERSON if noun.endswith(_ZH_PERSON_END) and not noun.endswith("国家") else None


def noun_kind(noun: str) -> str | None:
    """The kind of entity a noun of a question names ("club", "town", "俱乐部", "厨师"), or None."""
    if re.search(r"[\u4e00-\u9fff]", noun):
        return _zh_noun_kind(noun)
    word = noun.strip().casefold().split()[-1] if noun.strip() else ""
    return _EN_NOUN_KIND.get(word) or _EN_NOUN_KIND.get(word[:-1] if word.endswith("s") else word)


_EN_PERSON_ROLES = ("painter", "designer", "architect", "director", "composer", "author", "writer", "founder",
                    "manager", "coach", "chef", "mother", "father", "husband", "wife", "son", "daughter", "creator",
                    "inventor", "editor", "producer", "screenwriter", "sculptor", "engineer", "head")
_EN_BRIDGE = re.compile(r"\bthe\s+(?:[a-z-]+\s+){0,2}?(" + "|".join(_EN_NOUN_KIND) + r")s?\s+"
                        r"(?:where|that|which|whose|who|in\s+which|at\s+which|founded|based|located|run|owned|"
                        r"operated|made|built|named|known)\b"
                        r"|\bthe\s+(?:first\s+|current\s+|head\s+)?(" + "|".join(_EN_PERSON_ROLES) + r")\s+of\b", re.I)
_ZH_BRIDGE = re.compile(r"的([\u4e00-\u9fff]{1,6}?)(?=是|在|于|建|成立|创立|创办|位于|出生|叫|有|的|[，,？?]|$)")


def bridge_kind(question: str) -> str | None:
    """The kind of entity a bridge question describes its bridge as ("the town where …": a place; "the club
    whose manager …", "承建X的公司": an organisation; "首创X的厨师": a person), or None when it names none."""
    # English nests outwards from the named subject: the description nearest it is the last ("the first director
    # of the museum that holds X": the museum); Chinese inwards: the first ("X创办人的妻子": the founder)
    if (found := list(_EN_BRIDGE.finditer(question))):
        m = found[-1]
        return _EN_NOUN_KIND[m[1].casefold()] if m[1] else PERSON
    for m in _ZH_BRIDGE.finditer(question):
        if (kind := _zh_noun_kind(m[1])) is not None:
            return kind
    return None


_ZH_DESCRIBED = re.compile(r"(?:所[\u4e00-\u9fff]{1,3}|位于[\u4e00-\u9fffA-Za-z0-9]{1,12}|在[\u4e00-\u9fffA-Za-z0-9]{1,12}?"
                           r"(?:上班|工作|举办|举行|演出|学习|就读))的(?:那|这)?[个家座位所间栋幢条处]?"
                           r"[\u4e00-\u9fff]{1,4}?(?=[，,。？?]|是|由|有|在|的|每|哪|几|多)"
                           r"|[\u4e00-\u9fff]的那[个家座位所间栋幢条处]")


def describes_by_clause(question: str) -> bool:
    """Whether a Chinese question describes an entity by a relative clause instead of naming it: 所 + a verb + 的
    (图书馆所在的小区, 办法所适用的那个小区, 她所在的公司), 位于…的 (位于东门的那家店), a place of an act (在河口演出的剧团),
    or a clause closed by a demonstrative (替她看诊的那位医生)."""
    return _ZH_DESCRIBED.search(question) is not None


_LIFESPAN = re.compile(r"^[^.()（）。]{0,80}?[(（]\s*(?:born\s+|b\.\s*)?[^()（）]{0,40}?\d{3,4}")
_IS_A = re.compile(r"\b(?:is|was|are|were)\s+(?:a|an|the|one\s+of\s+the)\s+(.{1,80}?)"
                   r"(?=\s+(?:in|of|on|at|near|based|located|situated|founded|established|formed|created|"
                   r"headquartered|known|named|that|which|who|whose|from|by|for|with|where|run|owned|built)\b|"
                   r"[,.;:(]|$)", re.I)
_ZH_IS = re.compile(r"是([^，。；、]{1,20}?)(?=[，。；、]|$)")
_SHE_HE = re.compile(r"\b(?:she|he|her|his)\b|[她他]", re.I)


def _opens_about(title: str, opening: str) -> bool:
    """Whether a passage's text is its document's opening about its title: a word of the title (three letters or
    more; a Chinese title's first two characters) in its first sentence's reach."""
    head = re.sub(r"\s*[(（][^()（）]*[)）]\s*$", "", title).strip()
    if re.search(r"[\u4e00-\u9fff]", head):
        return head[:2] in opening[:60]
    words = [w for w in re.findall(r"[\w'’-]+", head.casefold()) if len(w) >= 3]
    return not words or any(w in opening[:100].casefold() for w in words)


def entity_kind(title: str, text: str) -> str | None:
    """The kind of entity a passage is about, by its opening: a lifespan in brackets after the name, or "是一位",
    a person; the head noun of "is a …" / "是……" (the last word of the phrase: "a Tollish football club"); a
    Chinese title's own ending ("柳湾镇"); else he or she in the opening, a person. None when none of these
    says (a film, a bridge, a telescope: another kind)."""
    opening = text.strip()[:300]
    if title and opening.startswith("#"):
        opening = opening.split("\n", 1)[-1].strip()
    if title and not _opens_about(title, opening):
        # a later chunk of the document ("In the 1850s (…)" is no lifespan): only a Chinese title's ending says
        kind = _zh_noun_kind(title.strip()) if re.search(r"[\u4e00-\u9fff]", title) else None
        return kind
    if _LIFESPAN.search(opening) or "是一位" in opening[:60]:
        return PERSON
    if (m := _IS_A.search(opening[:200])) is not None:
        # the head noun: the phrase's last word, or one joined to another by "and" ("a camera and lens maker",
        # "the capital and largest city"; not "studio" in "a studio album")
        words = [w.casefold().strip("'’") for w in m[1].split()]
        heads = [words[-1]] + [w for w, nxt in itertools.pairwise(words) if nxt in ("and", "or")]
        nouns = [w if w in _EN_NOUN_KIND else w[:-1] for w in heads
                 if w in _EN_NOUN_KIND or (w.endswith("s") and w[:-1] in _EN_NOUN_KIND)]
        if nouns:
            return _EN_NOUN_KIND[nouns[0]]
        if not _SHE_HE.search(opening[:200]):
            return None
    if (m := _ZH_IS.search(opening[:80])) is not None and (kind := _zh_noun_kind(m[1])) is not None:
        return kind
    if title and re.search(r"[\u4e00-\u9fff]", title) and (kind := _zh_noun_kind(title.strip())) is not None:
        return kind
    return PERSON if _SHE_HE.search(opening[:200]) and not re.search(r"\bit\b|它", opening[:120]) else None
