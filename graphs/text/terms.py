"""How much a question's term says: a rare Chinese word (袋鼠) more than a common one (进行), by jieba's
general-domain inverse document frequencies; Latin words alike, entity names more."""

from __future__ import annotations

import functools
import importlib.util
import re
import statistics
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import snowballstemmer

from graphs.text.dates import day_term, days_named
from graphs.text.normalize import has_han

ANCHOR_WEIGHT = 1.5
"""An entity name of the question counts this much more than another term."""
_TYPICAL_IDF = 8.0  # about a content word's idf in jieba's table (公司 3.5, 游戏 7.2, 袋鼠 10.4)


@functools.cache
def _idf() -> tuple[dict[str, float], float]:
    """jieba's idf table (``jieba/analyse/idf.txt``, read once) and its median."""
    spec = importlib.util.find_spec("jieba")
    assert spec is not None and spec.origin is not None, "jieba is a dependency"
    table: dict[str, float] = {}
    with open(Path(spec.origin).parent / "analyse" / "idf.txt", encoding="utf-8") as lines:
        for line in lines:
            word, _, value = line.rstrip().rpartition(" ")
            if word:
                table[word] = float(value)
    return table, statistics.median(table.values())


def dictionary_word(term: str) -> bool:
    """Whether jieba's general-domain table knows the Chinese term as one word (公司, 北京大学; not 拼多多)."""
    return term in _idf()[0]


def rarity(term: str) -> float:
    """A Chinese word's inverse document frequency in jieba's table (the median for a word it does not list)."""
    idf, median = _idf()
    return idf.get(term, median)


def term_weight(term: str, *, anchor: bool = False) -> float:
    """A term's weight in [0.3, 2.25]: Chinese by inverse document frequency, Latin words 1, names ×1.5."""
    if has_han(term):
        idf, median = _idf()
        weight = min(1.5, max(0.3, idf.get(term, median) / _TYPICAL_IDF))
    else:
        weight = 1.0
    return weight * (ANCHOR_WEIGHT if anchor else 1.0)


STEM_CREDIT = 0.75
"""An English word found only in another form ("abbreviation" as "abbreviated") counts this much."""


_STEMMERS = threading.local()


def _english_stemmer() -> Any:
    """This thread's Snowball stemmer: one object keeps the word it is stemming as its state, so two threads
    sharing one (the lexicon built in a search thread while the chains stem in another) broke each other's word
    ("IndexError: string index out of range" in a planner's sub-question)."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball (Porter 2) stem of an English word."""
    return str(_english_stemmer().stemWord(word))


_OTHER_SCRIPT = {True: re.compile(r"[A-Za-z]+"), False: re.compile(r"[\u4e00-\u9fff]+")}
"""The other script than a term's: a weekday is found in the days a text names in its own language's words."""


def found(term: str, text: str) -> float:
    """1 when ``text`` contains the term; half when a Chinese term is not there as a word but each of its
    characters is (the question's word split differs from the passage's: 松有 in 鸡毛松有多高); three quarters
    when an English word is there in another form of the same stem ("founded": "founder"); else 0."""
    if term in text:
        return 1.0
    if (day := day_term(term)) and day <= days_named(re.sub(_OTHER_SCRIPT[has_han(term)], " ", text)):
        return 1.0  # 周三 in 周一至周五, "sunday" in "open daily"; in the term's own script (周日 is no "Sunday" found)
    if has_han(term):
        if (stem_zh := glued_stem(term)) is not None and stem_zh in text:
            return 1.0
        return 0.5 if len(term) > 1 and all(ch in text for ch in term) else 0.0
    if len(term) >= 5 and term.isascii() and term.isalpha():
        root = stem(term)
        if len(root) >= 4 and re.search(rf"\b{re.escape(root)}", text):
            return STEM_CREDIT
    return 0.0


_LOCALIZERS_ZH = ("里", "内", "中", "上")
_ASPECT_ZH = ("了", "过", "着")


def glued_stem(term: str) -> str | None:
    """What a Chinese term says without the particle the segmenter glued to it: a noun and its localizer jieba's
    dictionary does not know as one word (吊厢里 → 吊厢, 房间里 → 房间; not 心里, 国内), a verb and its aspect particle
    (困了 → 困, 修过 → 修): a passage writes the noun or the verb in its own frame (吊厢内, 被困); None otherwise."""
    if len(term) >= 3 and term.endswith(_LOCALIZERS_ZH) and not dictionary_word(term):
        return term[:-1]
    if len(term) == 2 and term.endswith(_ASPECT_ZH) and has_han(term[0]) and term[0] not in "为除到好去来算":
        return term[0]
    return None


def weighted_coverage(weights: dict[str, float], text: str,
                      spellings: Mapping[str, Sequence[str]] | None = None) -> float:
    """Share of the terms' total weight found in ``text`` (normalized terms in normalized text; 1.0 with none).
    A term with ``spellings`` (an entity the question names as 老马, a passage as 马斯克 or by its standard
    name) counts as its best-found spelling."""
    total = sum(weights.values())
    if total <= 0:
        return 1.0
    spelled = spellings or {}
    return sum(w * max(found(f, text) for f in spelled.get(t, (t,))) for t, w in weights.items()) / total


# ---------------------------------------------------------------- content words: what a passage must speak of

_COMPLEMENTS = ("下来", "下去", "上来", "上去", "起来", "出来", "出去", "过来", "回来", "到", "出", "掉", "好",
                "完", "住", "走", "成", "下", "上", "起")
"""Result and direction complements of a Chinese verb (达到, 塌下来, 修好, 卖出, 建成): they say the act came to an
end or took a direction, not which act; the verb before them is its content."""
LIGHT_IDF = 5.0
"""A Chinese verb (alone or before a complement) at most this rare in jieba's table is a light verb, as common as a
function word and saying nothing of what is asked (做 4.0, 走 4.1, 达 4.9, 拿 5.0, 打 5.0); content verbs are rarer
(跑 5.2, 买 5.5, 修 7.5, 塌 8.6)."""
_LIGHT_EN = frozenset({
    "manage", "manages", "managed", "managing", "end", "ends", "ended", "ending", "keep", "keeps", "kept", "keeping",
    "happen", "happens", "happened", "tend", "tends", "tended", "try", "tries", "tried", "trying", "bother",
    "bothered", "able", "thinking", "wondering", "planning", "going",
})
"""English aspect verbs and the asker's framing ("managed to carry", "ended up taking over", "keeps flashing",
"I was wondering if"): light only where they govern another verb (``_GOVERNS_VERB``); "how many hives does it
keep" asks what is kept."""
_GOVERNS_VERB = r"\s+(?:to|up|on|about|of|if|whether|\w+ing)\b"
_ASKER_EN = re.compile(
    r"\b(?:i'?m|i am|i'?ve|i have|i was|we'?re|we are|we'?ve|my|our)\b[^?!.;:\-–—,]*", re.IGNORECASE)
_ASKER_ZH = re.compile(r"(?:我|咱|俺)(?:们|家|的)?[^，,。？?！!；;：:]*[，,；;]")
"""The asker's own circumstances: a clause of theirs (English from I'm / my up to a stop or dash; Chinese a
clause opened by 我/我家/我们 and closed by a comma before the question)."""
_OWN_NUMBER_ZH = re.compile(r"\d+(?:\.\d+)?\s*(?:岁|周岁|个月|口人|口|人|个|张|位)?|[一二三四五六七八九十两]+(?:岁|周岁|口人)")
_OWN_NUMBER_EN = re.compile(r"(?:\b(?:i'?m|i am|we'?re|we are|is|are|'s|turned|turning|aged?)\s+)(\d+)\b"
                            r"|\b(\d+)(?=\s*(?:years?[\s-]old|yo)\b)")
_OWN_WORDS = frozenset({"i'm", "im", "i've", "ive", "我", "我家", "我们", "咱们", "俺", "今年", "me"})


def _jieba_tag(word: str) -> str | None:
    from graphs.text.entity_spotting import _pos_tokenizer  # lazy: the tokenizer loads jieba (about a second)

    return _pos_tokenizer().word_tag_tab.get(word)


def verb_content(term: str) -> str | None:
    """What a Chinese verb term says of the act: None for a light verb alone or with its result or direction
    complement (走, 达到, 拿到, 做到), and for a verb and complement jieba's dictionary does not know as one word (烧到,
    塌掉: glued by its HMM; the verb left is one character, no word a passage must repeat, and 修 alone would be
    "stated" by 修缮); the term itself otherwise (修好, 建成, 控温, nouns)."""
    if not has_han(term) or not term.isalpha():
        return term
    head = next((term[: -len(c)] for c in _COMPLEMENTS if term.endswith(c) and len(term) - len(c) == 1), term)
    tag = _jieba_tag(term)
    if head == term and (len(term) != 1 or not (tag or "").startswith("v")):
        return term  # no complement: a verb of two characters or more (控温, 建设) or no verb at all
    if not (_jieba_tag(head) or "").startswith("v"):
        return term  # 形成, 学成: the first character is no verb of its own
    idf = _idf()[0].get(head)
    if idf is not None and idf <= LIGHT_IDF:
        return None
    return None if head != term and tag is None else term


def asker_terms(text: str) -> frozenset[str]:
    """The terms of a question that state the asker's own circumstances, not what is asked: their age or count
    and the pronoun of the clause ("I'm 22 -", "my kid is 12", "我今年20岁，", "我家孩子8岁，"), folded. Names and
    nouns of such a clause stay (the club one joins, the kiln one owns is the subject)."""
    out: set[str] = set()
    for pattern in (_ASKER_EN, _ASKER_ZH):
        for m in pattern.finditer(text):
            clause = m.group().casefold()
            if pattern is _ASKER_ZH:
                out.update(n.group().strip() for n in _OWN_NUMBER_ZH.finditer(clause) if n.group().strip())
            else:
                out.update(n.group(1) or n.group(2) for n in _OWN_NUMBER_EN.finditer(clause))
            out.update(w for w in re.findall(r"[a-z']+|[\u3400-\u9fff]+", clause) if w in _OWN_WORDS)
            out.update(w for w in _OWN_WORDS if has_han(w) and w in clause)
    return frozenset(out)


def content_terms(text: str, terms: Sequence[str]) -> list[str]:
    """Of a question's terms (folded), those a passage that answers must speak of, each in its content form: no
    light verb or its complement (达到, 拿到 → none; 塌下来 → 塌; "got", "managed"), nothing the asker says of
    themselves (``asker_terms``). A term in the question only once as the asker's is dropped; the rest keep their
    order."""
    own = asker_terms(text)
    out: list[str] = []
    for term in terms:
        if term in own or (term.casefold() in _LIGHT_EN
                           and re.search(rf"\b{re.escape(term)}{_GOVERNS_VERB}", text, re.IGNORECASE)):
            continue
        content = verb_content(term)
        if content:
            out.append(content)
    return list(dict.fromkeys(out))
