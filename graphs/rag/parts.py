"""Question parts: a message that asks several things ("瑜伽课一次多少钱？谁教？", "When does the ferry leave
and how much is a ticket?") read as its parts, each a question of its own that the planner runs through the
same stages (``planning.parts_plan``) and the writer answers part by part (``answer.composed``).

Where a message splits, read structurally, never by its words' topic:
- at question marks: each segment that asks something (an interrogative of its own and some content besides
  it) is a part; a segment that asks nothing ("我住翠湖苑。", "…，对吗？") stays with its neighbour;
- at a clause coordination of interrogatives inside one segment: Chinese clauses joined by a comma (or 还有 /
  以及 / 另外) that each hold an interrogative ("会议哪天开的，谁主持的"); English clauses joined by "and" or a
  comma whose second clause opens a question of its own: an interrogative with its verb inverted ("… and how
  much is a ticket", "…, where is it made"), "and who/what + verb", or an auxiliary with its subject ("… and
  does it ship abroad");
- at a distributive coordination: "X和Y分别/各…" asks the predicate of X and of Y.

Never split (one question, one answer): a coordination of objects or verbs ("Who founded A and B?", "Who
repairs and services the bikes?"), a comparison ("A和B哪个便宜", "Which is cheaper, A or B?"), a relative clause
("the town where X was born and raised": no inversion after "where").

A later part with no subject of its own inherits the first part's topic: its pronoun is replaced ("what is its
power" → "what is the Brisa K5's power"), or, when it names nothing, the topic is joined to it ("谁教？" →
"瑜伽课谁教？", "How much is the deposit?" → "How much is the deposit for Harbour Lane Bikes?"); "X呢？" / "What
about X?" asks the previous part of X.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from graphs.rag.answer.attributes import lexicon
from graphs.text.ellipsis import elliptical_subject, restated
from graphs.text.entity_spotting import tagged_words
from graphs.text.normalize import has_han

MAX_PARTS = 4
"""At most this many parts (a longer run of questions is read as one message)."""

# ---------------------------------------------------------------------------- what asks

_ZH_ASK = re.compile(
    r"谁|什么|哪(?!怕)|多少|几(?!乎)|怎么|怎样|如何|为什么|为何|何时|何地|是否|吗|"
    r"多(?:长|久|大|高|远|重|宽|深|贵|少)|"
    r"(\w)不\1|(\w)没\2|有没有|能不能|可不可以|要不要|是不是")
_EN_WH = r"(?:what(?:'s)?|when|where|who(?:m|'s)?|which|why|how)"
_EN_AUX = (r"(?:is|are|was|were|does|do|did|can|could|will|would|should|has|have|had|may|must|'s)")
_EN_ASK = re.compile(rf"^\s*(?:{_EN_WH}|{_EN_AUX})\b", re.IGNORECASE)
_EN_WH_ANY = re.compile(rf"\b{_EN_WH}\b", re.IGNORECASE)
_SUBJECT_EN = r"(?:it|they|there|the|this|that|these|those|he|she|i|we|you|a|an|my|our|your|its|their)"

_SEGMENT = re.compile(r"(?<=[?？])\s*")
_FILLER_ZH = re.compile(r"^(?:请问|想问一下|想问|问一下|我想知道|另外|还有|以及|那么|那|并且|而且|顺便问一下)[，,\s]*")
_FILLER_EN = re.compile(r"^(?:and|also|plus|so|then|but|also,)[,\s]+", re.IGNORECASE)


def asks(text: str) -> bool:
    """Whether a clause asks something: a Chinese interrogative, or an English clause that opens with an
    interrogative or an auxiliary."""
    if has_han(text):
        return _ZH_ASK.search(text) is not None
    return _EN_ASK.match(text) is not None or _EN_WH_ANY.search(text) is not None


def _content(text: str) -> str:
    """What a clause says besides its interrogatives and punctuation."""
    if has_han(text):
        return re.sub(r"[^\u4e00-\u9fffA-Za-z0-9]", "", _ZH_ASK.sub("", text))
    words = re.findall(r"[A-Za-z0-9']+", text)
    return " ".join(w for w in words if not re.fullmatch(rf"{_EN_WH}|{_EN_AUX}|much|many", w, re.IGNORECASE))


_FRAME_ZH = re.compile(r"(?:中|里|内|时|后|前|之中|当中|以后|以前|之后|之前|的话|期间)$")
"""A Chinese clause ending so frames the next one ("几份报价中，哪家最便宜"): it asks nothing on its own."""
_TAG_ZH = re.compile(r"^(?:对|是|好|行|可以|没错|对不对|是不是|好不好|行不行|可不可以)(?:吗|吧|呢)?[？?]?$")


def _asks_on_its_own(text: str) -> bool:
    """A clause that asks something and says something besides (not "对吗？", "right?", "and when?"), or an
    elliptical one ("书法班呢？")."""
    if elliptical_subject(text) is not None:
        return True
    content = _content(text)
    if has_han(text):
        clause = text.strip("，,；;？? ")
        return asks(text) and len(content) >= 1 and _TAG_ZH.match(clause) is None and not _FRAME_ZH.search(clause)
    return asks(text) and len(content.split()) >= 2


# ---------------------------------------------------------------------------- the splits


def _segments(message: str) -> list[str]:
    """The message cut after each question mark; a segment that asks nothing joins the next (the last one the
    previous)."""
    pieces = [p.strip() for p in _SEGMENT.split(message.strip()) if p.strip()]
    out: list[str] = []
    carry = ""
    for piece in pieces:
        text = f"{carry}{'' if has_han(piece) else ' ' if carry else ''}{piece}".strip()
        if _asks_on_its_own(piece):
            out.append(text)
            carry = ""
        else:
            carry = text
    if carry:
        if out:
            out[-1] = f"{out[-1]}{'' if has_han(carry) else ' '}{carry}"
        else:
            out.append(carry)
    return out


_ZH_JOIN = re.compile(r"[，,；;]\s*(?:还有|以及|另外|并且|而且)?|(?:还有|以及|另外)")
_EN_JOIN = re.compile(
    # "…, and how much is a ticket", "… and where is it made", "…, which colours does it come in"
    rf"\s*(?:,\s*(?:and\s+)?|;\s*(?:and\s+)?|\s+and\s+(?:also\s+)?)(?=(?:"
    rf"how\b(?:\s+(?:much|many|long|old|far|often|big|tall|heavy|large|soon|early|late))?\s+\w"
    rf"|(?:what|when|where|why)\b(?:\s+[\w-]+){{0,2}}?\s+{_EN_AUX}\b))"
    # "… and does it ship abroad", "… and who teaches it": only after "and" (a bare comma before "is a …" or
    # "who …" opens an apposition or a relative clause: "X, is a 2016 film", "X, who …")
    rf"|\s*,?\s+and\s+(?=(?:{_EN_AUX}\s+{_SUBJECT_EN}\b|(?:who|what|which)\s+\w))",
    re.IGNORECASE)


def _clauses(segment: str) -> list[str]:
    """One segment's coordinated interrogative clauses (the segment itself when it holds one)."""
    if has_han(segment):
        pieces = [p for p in _ZH_JOIN.split(segment) if p and p.strip("，,；; ")]
        if len(pieces) > 1 and all(_asks_on_its_own(p) for p in pieces):
            return [p.strip("，,；; ") for p in pieces]
        return [segment]
    if not _EN_ASK.match(segment):
        return [segment]  # only a question coordinates questions ("Tell me …" is read whole)
    pieces = [p.strip(" ,;") for p in _EN_JOIN.split(segment) if p and p.strip(" ,;")]
    if len(pieces) > 1 and all(_asks_on_its_own(p) for p in pieces):
        return pieces
    return [segment]


_DISTRIBUTIVE = re.compile(r"(?<!的)(?:分别|各自|各(?=是|为|要|有|需|收|多少|几))")
"""A distributive adverb (not the noun 分别, "difference", after 的)."""
_ZH_AND = re.compile(r"和|与|跟|及|、")
_NOUN = ("n", "nr", "ns", "nt", "nz", "nrt", "nrfg", "eng", "l", "j", "vn", "an", "x")


def _distributed(clause: str) -> list[str]:
    """"X和Y分别…" → ["X…", "Y…"] (the predicate asked of each side); the clause alone otherwise."""
    m = _DISTRIBUTIVE.search(clause)
    if m is None or not has_han(clause):
        return [clause]
    before, after = clause[: m.start()], clause[m.end():]
    joins = list(_ZH_AND.finditer(before))
    if not joins or not _asks_on_its_own(after):
        return [clause]
    join = joins[-1]
    left, right = before[: join.start()], before[join.end():]
    # the second side is the noun run that opens what follows the conjunction ("许佳" of "许佳在会上"); the first,
    # the noun run that ends before it ("瑜伽课" of "健身房的瑜伽课"), its modifier kept for both
    second = _side(right, from_start=True)
    # a verb on the second side is paralleled by as many words on the first ("摄影开始和结束的时间": 开始 and 结束,
    # 摄影 shared by both)
    verbs = tagged_words(second) if second else []
    first = _side(left, from_start=False,
                  most=len(verbs) if verbs and (verbs[0][1] or "").startswith("v") else None)
    if not first or not second:
        return [clause]
    prefix, middle = left[: len(left) - len(first)], right[len(second):]
    return [f"{prefix}{first}{middle}{after}", f"{prefix}{second}{middle}{after}"]


_SIDE_STOP = ("u", "p", "c", "r", "d", "f")
"""jieba's flags that end a coordinated side: particles (的), prepositions (在会上), conjunctions, pronouns,
adverbs and locatives."""


def _side(text: str, *, from_start: bool, most: int | None = None) -> str:
    """One side of a distributive coordination: the words after the conjunction up to a particle, preposition
    or adverb ("许佳" of "许佳在会上"), or those before it back to one ("瑜伽课" of "健身房的瑜伽课")."""
    words = tagged_words(text) if text else []
    if not from_start:
        words = words[::-1]
    run: list[str] = []
    for word, flag in words:
        if (flag or "x").startswith(_SIDE_STOP) and not re.fullmatch(r"[A-Za-z0-9-]+", word):
            break
        if most is not None and len(run) >= most:
            break
        run.append(word)
    return "".join(run if from_start else run[::-1])


# ---------------------------------------------------------------------------- the subject a part inherits

_ZH_LEAD = re.compile(r"^(?:请问|想问一下|我想知道)")
_ATTRIBUTE_END = re.compile(r"(?:费|价|钱|人|师|员|长|者|时间|日期|地址|地点|电话|名字|名称|号码|老师|教练|费用|价格|"
                            r"资格|证书|奖项|规定|要求|数量|面积|重量|尺寸|颜色|功率|容量)$")
_PRONOUN_ZH = re.compile(r"它们?的?|其(?![他中实余次])|该(?=[\u4e00-\u9fff])")


def zh_topic(part: str) -> str:
    """What a Chinese question is about: its words before the first interrogative, without adverbials and
    the copula ("瑜伽课" of "瑜伽课一次多少钱", "业主大会" of "业主大会是哪天开的"); when it opens with the
    interrogative, the first noun run after it ("业主大会" of "谁主持了业主大会")."""
    text = _ZH_LEAD.sub("", part.strip())
    m = _ZH_ASK.search(text)
    words: list[tuple[str, str | None]] = []
    at = 0
    for word, flag in tagged_words(text) if m and m.start() else []:
        at += len(word)
        if at > m.start() or _ZH_ASK.search(word):  # type: ignore[union-attr]
            break
        # a count after the noun qualifies the question ("羽毛球场一小时多少钱"): no part of the topic
        if words and (flag or "").startswith("m"):
            break
        words.append((word, flag))
    # without what trails the noun: a pronoun (每周), the copula or a verb (是, 预算是), a particle (的)
    while words and not (words[-1][1] or "x").startswith(_NOUN[:-3]):
        words.pop()
    head = "".join(w for w, _ in words)
    if len(head) < 2 and m and m.start():
        # the tagger read the noun as a verb ("搏击操" as 搏击/v 操): the words before the interrogative, without
        # the copula or a particle
        head = re.sub(r"(?:是|的|在|有)+$", "", text[: m.start()].strip("，, "))
    if len(head) >= 2:
        return head
    words = tagged_words(text[m.end():]) if m else []
    run: list[str] = []
    for word, flag in words:
        if (flag or "x").startswith(_NOUN):
            run.append(word)
        elif run:
            break
    return "".join(run)


def _own_subject_zh(part: str) -> bool:
    """Whether a Chinese part names what it asks about: a noun before its first verb, preposition or
    interrogative that is no attribute word ("书法班几点上课" does; "学费多少", "谁教", "在哪个教室" do not)."""
    nouns: list[str] = []
    for word, flag in tagged_words(part):
        if _ZH_ASK.search(word) or (flag or "").startswith(("v", "p", "r", "d", "c")):
            break
        if (flag or "x").startswith(_NOUN):
            nouns.append(word)
        elif nouns:
            break
    noun = "".join(nouns)
    return len(noun) >= 2 and _ATTRIBUTE_END.search(noun) is None


_NAME_RUN = re.compile(r"(?<![\w'])((?:[A-Z][\w'&.-]*|[A-Za-z]*\d[\w-]*)(?:\s+(?:of\s+|de\s+|&\s+)?(?:[A-Z][\w'&.-]*|[A-Za-z]*\d[\w-]*))*)")
_QUALIFIED = re.compile(r"\b(?:for|of|at|on|in)\s+(?:the\s+|a\s+|an\s+)?[a-z][\w-]+", re.IGNORECASE)
_PRONOUN_EN = re.compile(r"\b(its|their|it|they|them)\b", re.IGNORECASE)
_DO_AUX = re.compile(r"^(?:does|do|did|can|could|will|would|should)$", re.IGNORECASE)
_NP_STOP = frozenset({"of", "for", "in", "on", "at", "to", "from", "by", "with", "and", "or", "per", "is", "are", "was",
                      "were", "be", "been", "does", "do", "did", "has", "have", "had", "can", "will", "when", "where",
                      "while", "after", "before", "since", "who", "which", "that", "whose", "if"})


def en_names(part: str) -> list[str]:
    """The capitalised or coded names of an English part ("Brisa K5", "Harbour Lane Bikes"), its opening word
    left out (an interrogative or auxiliary is capitalised by position)."""
    body = re.sub(rf"^\s*(?:{_EN_WH}|{_EN_AUX}|how)\b", lambda m: " " * len(m[0]), part, flags=re.IGNORECASE)
    found = []
    for m in _NAME_RUN.finditer(body):
        name = re.sub(r"['’]s$", "", m[1].strip()).strip(".")
        if name and not re.fullmatch(rf"{_EN_WH}|{_EN_AUX}|I|A|The", name, re.IGNORECASE):
            found.append(re.sub(r"^The\s+", "", name))
    return found


_BE = re.compile(r"^(?:is|are|was|were)$", re.IGNORECASE)
_CALENDAR = re.compile(r"^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$|^(?:january|february|march|april|may|june|july|"
                       r"august|september|october|november|december)$", re.IGNORECASE)


def en_topic(part: str) -> str:
    """What an English question is about: its first noun phrase with an article or a name ("the ferry" of "When
    does the ferry leave", "the bike rental shop" of "Who manages the bike rental shop", "Brisa K5" of "How heavy
    is the Brisa K5"), with an of-phrase or a place name after it ("the tour of the mill", "the class at
    Glenrock"); its first name when it has no such phrase."""
    words = re.findall(r"(?:[^\W_]|['’-])+", part)  # letters of any script: "Café" is not "Caf"
    for i, word in enumerate(words):
        if word.casefold() not in ("the", "a", "an"):
            continue
        phrase = [word]
        for n, w in enumerate(words[i + 1: i + 8]):
            after = words[i + 2 + n] if i + 2 + n < len(words) else ""
            # an of-phrase belongs to the noun ("the tour of the mill"), so does a place name ("the class at Glenrock")
            joined = (w.casefold() == "of" and n > 0) or (w.casefold() in ("at", "in", "on") and after[:1].isupper()
                                                           and _CALENDAR.match(after) is None)
            if w.casefold() in _NP_STOP | {"at"} and not joined:
                break
            # a model code ends a name ("the Vela X9 | ship first"): what follows it in lower case is the verb
            if w[:1].islower() and re.search(r"\d", phrase[-1]) and phrase[-1][:1].isupper():
                break
            phrase.append(w)
        opening = words[:i]
        # after a do-auxiliary the phrase's last word is the clause's verb ("When does the ferry leave"), after a
        # form of "be" a participle is ("When was the K5 launched"): no part of the noun
        if len(phrase) > 2 and phrase[-1][:1].islower() and (any(_DO_AUX.match(w) for w in opening)
                                or (any(_BE.match(w) for w in opening) and phrase[-1].endswith(("ed", "en")))):
            phrase = phrase[:-1]
        if len(phrase) < 2:
            continue
        if (owner := _attribute_of(phrase, words[i + len(phrase):])) is not None:
            return owner
        if all(w[:1].isupper() or w[:1].isdigit() for w in phrase[1:]):
            return " ".join(phrase[1:])  # "the Brisa K5": the name
        return " ".join(phrase)
    if names := en_names(part):
        return names[0]
    # no article, no name: the words between the auxiliary and the verb ("wholemeal flour" of "How much does
    # wholemeal flour cost?")
    m = re.match(rf"^\s*{_EN_WH}(?:\s+(?:much|many|long|often|far))?\s+({_EN_AUX})\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)*)",
                 part, re.IGNORECASE)
    if m is None:
        return ""
    phrase = []
    for w in m[2].split():
        if w.casefold() in _NP_STOP:
            break
        phrase.append(w)
    if len(phrase) > 1 and (_DO_AUX.match(m[1]) or phrase[-1].endswith(("ed", "en"))):
        phrase = phrase[:-1]  # the verb after a do-auxiliary, the participle after "be"
    return " ".join(phrase) if len(phrase) > 1 else ""


_OF_PREPOSITIONS = frozenset({"of", "for", "at", "in", "on"})


@functools.lru_cache(maxsize=1)
def _attribute_words() -> frozenset[str]:
    """The English words of the attribute lexicon (price, fee, address, population …)."""
    return frozenset(w.casefold() for a in lexicon() for w in a.words if not has_han(w))


def _attribute_of(phrase: list[str], rest: list[str]) -> str | None:
    """The entity an attribute phrase is of: "the fee for the pottery class at Glenrock" is about the class, "the
    address of Marl House" about Marl House; a later part's pronoun stands for it, not for the fee. None when the
    phrase's head is no attribute word of the lexicon or nothing follows its preposition."""
    joiner = next((n for n, w in enumerate(phrase) if n > 1 and w.casefold() in _OF_PREPOSITIONS), None)
    head = " ".join(phrase[1:joiner]).casefold()
    if head not in _attribute_words():
        *modifiers, last = head.split() if head else [""]
        # "the ferry fare to Inchkeld": the fare is the ferry's (the words before the attribute word name its owner)
        return f"{phrase[0]} {' '.join(phrase[1:1 + len(modifiers)])}" if modifiers and \
            last in _attribute_words() else None
    after = [*phrase[joiner + 1:], *rest] if joiner is not None else \
        rest[1:] if rest and rest[0].casefold() in _OF_PREPOSITIONS else []
    if not after:
        return None
    owner = en_topic(" ".join(after))
    return owner or None


def _possessive(topic: str) -> str:
    return f"{topic}'" if topic.endswith("s") and topic[:1].isupper() else f"{topic}'s"


def inherit(part: str, topic: str) -> str:
    """The part with the earlier part's topic where it names no subject of its own: its pronoun replaced, else
    the topic joined to it; unchanged when it names one or there is no topic."""
    if not topic or topic in part:
        return part
    if has_han(part):
        if _PRONOUN_ZH.search(part):
            return _PRONOUN_ZH.sub(lambda m: f"{topic}的" if m[0].endswith("的") or m[0] == "其" else topic, part, count=1)
        if _own_subject_zh(part):
            return part
        return f"{topic}{_FILLER_ZH.sub('', part)}"
    if _PRONOUN_EN.search(part):
        return _PRONOUN_EN.sub(lambda m: _possessive(topic) if m[1].casefold() in ("its", "their") else topic, part,
                               count=1)
    if en_names(part) or _QUALIFIED.search(part):
        return part  # it names its subject, or says whose it is ("the delivery charge for small orders")
    body = part.rstrip(" ?")
    return f"{body} for {topic}?"


# ---------------------------------------------------------------------------- the parts


_RELATIVE = re.compile(r"\b(?:the|a|an)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:where|which|that|who|whose|whom)\b|所在的|的(?:那个|那家|那位)",
                       re.IGNORECASE)


def question_parts(message: str) -> list[str]:
    """The message's parts, each a question of its own (the message alone when it asks one thing)."""
    clauses = [(c, len(sides) > 1) for segment in _segments(message) for clause in _clauses(segment)
               for sides in [_distributed(clause)] for c in sides]
    if not 2 <= len(clauses) <= MAX_PARTS:
        return [message]
    first = clauses[0][0]
    topic_of: Callable[[str], str] = zh_topic if has_han(first) else en_topic
    topic = topic_of(first)
    if has_han(topic) and _ATTRIBUTE_END.search(topic):
        topic = ""  # the first part asks of an attribute ("伙食费每天多少钱"): no subject to pass on
    parts = [_asked(first)]
    for clause, distributed in clauses[1:]:
        if (subject := elliptical_subject(clause)) is not None:
            parts.append(restated(parts[-1], subject, topic_of(parts[-1])) or clause)
            continue
        if distributed:  # each side of "X和Y分别…" is its own subject
            parts.append(_asked(clause))
            continue
        bare = _FILLER_EN.sub("", _FILLER_ZH.sub("", clause))
        if _RELATIVE.search(first) and (_PRONOUN_EN.search(bare) or _PRONOUN_ZH.search(bare)):
            # "When was the town where X stands granted its charter, and what is its population?": the pronoun
            # may stand for the entity the first part reaches, not for one it names; the message is read whole
            return [message]
        part = _asked(inherit(bare, topic))
        parts.append(part[:1].upper() + part[1:] if not has_han(part) else part)
    return parts


def _asked(part: str) -> str:
    """The part as a question (its question mark, in its language)."""
    body = part.strip().rstrip("?？,，。.;； ")
    return f"{body}？" if has_han(body) else f"{body}?"
