"""The asked attribute: what a question asks about its subject (stock code, mayor, death toll, price, who chaired,
when founded, where assembled …), read from a bilingual lexicon (``attributes.json``), and whether a sentence
states it.

A passage that names the subject but not the attribute is not evidence: "X的股票代码是什么？" is not answered by
X's founding year. The lexicon holds, for each attribute, the words that ask for it and state it in Chinese and
in English, so an English question over Chinese passages (and the reverse) is judged by the words of the same
attribute in the passage's language, not by words the two share. Where the lexicon knows no attribute of the
question, the answerability score falls back to the question's own relation words and sentence similarity.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from graphs.text.answer_types import AnswerType
from graphs.text.bilingual import ABBREVIATED_FROM, parts_of
from graphs.text.bilingual import translations as dictionary_forms
from graphs.text.dates import asks_event_day
from graphs.text.normalize import has_han, normalize
from graphs.text.scripts import han_share
from graphs.text.terms import stem
from graphs.text.units import money_noun_at

LEXICON = "attributes.json"

NEAR_CHARS = 40
"""How close (characters) a span of the asked type must be to the words stating the attribute."""


@dataclass(frozen=True)
class Attribute:
    """One attribute or relation of the lexicon."""

    name: str
    kind: AnswerType
    cues: tuple[re.Pattern[str], ...]
    """Words that state (and ask for) it, in either language."""
    asks: tuple[re.Pattern[str], ...] = ()
    """Question-only phrasings ("多少人死亡", "where was … born")."""
    generic: bool = False
    """A wide one ("how many", "amount") that gives way to a specific one the question also names ("injured")."""
    by_verb: bool = False
    """One a question asks by the verb of its role (花了多少钱, 要投多少, "how much was spent"): it gives way to an
    attribute of the same kind the question names by its noun ("spend on R&D" asks the R&D spending)."""
    words: tuple[str, ...] = ()
    """The lexicon's words, as written (what the LLM writer is told to look for)."""
    units: re.Pattern[str] | None = None
    """A number with one of the attribute's units of measure ("2,114 m", "32 knots", "17.5 kg"): a statement of
    it without its words."""
    states: tuple[re.Pattern[str], ...] = ()
    """Statement-only constructions (the lexicon's ``states``): a passage states the attribute in them, a question
    does not ask it by them. A year written as the adjective of a work ("a 1998 book", "a 2004 Maravian drama
    film", 1992年的中国电影) states when the work appeared; a life span in parentheses ("Ezer Weizman (15 June
    1924 – 24 April 2005)", 林溪（1955年－）) states a birth and a death. The same words in a question ("the
    2004 film adapted from …") narrow a name and ask nothing."""


def _units(units: list[str]) -> re.Pattern[str] | None:
    if not units:
        return None
    return re.compile(rf"\d[\d,.]*\s?(?:{'|'.join(units)})(?![A-Za-z\u00b2])", re.IGNORECASE)


def _whole(word: str) -> re.Pattern[str]:
    """A word matched whole, alone or plural: one whose stem starts other words ("allowance" → "allow", which
    "allowed" starts too)."""
    return re.compile(rf"\b{re.escape(word)}(?:s|es)?\b", re.IGNORECASE)


def _cue(word: str) -> re.Pattern[str]:
    if not word.isascii():
        # X率 is the rate of X, not X (毛利率 is no 毛利, 死亡率 no death toll): a word the lexicon lists with 率
        # (增长率) matches as written
        return re.compile(re.escape(word) + ("" if word.endswith("率") else "(?!率)"))
    if " " in word or not word.isalpha():
        # a phrase ending in a preposition ends there: "head of" is not the start of "head office", "based in" not
        # of "based inland"
        end = "(?![a-z])" if word.rsplit(" ", 1)[-1].lower() in _PREPOSITIONS else ""
        return re.compile(rf"(?<![a-z]){re.escape(word)}{end}", re.IGNORECASE)
    # the part the word shares with its stem ("warranty" → "warranti": "warrant"), matched at a word start
    word, root = word.lower(), stem(word.lower())
    shared = next((i for i, (a, b) in enumerate(zip(word, root, strict=False)) if a != b), min(len(word), len(root)))
    if shared <= SHORT_ROOT:
        # a short shared part starts other words too ("star" of "starred" starts "start", "die" starts "diet",
        # "age" starts "agent", "host" starts "hostage"): only the forms of the word's own stem
        forms = sorted(_forms(word, root), key=len, reverse=True)
        return re.compile(rf"\b(?:{'|'.join(map(re.escape, forms))})\b", re.IGNORECASE)
    return re.compile(rf"\b{re.escape(word[:shared])}", re.IGNORECASE)


_PREPOSITIONS = frozenset({"of", "in", "at", "on", "by", "to", "for", "from", "with", "as"})
SHORT_ROOT = 4
"""A cue's part shared with its stem this short or shorter matches only the forms of its own stem."""
_ENDINGS = ("", "s", "es", "e", "ed", "d", "ing", "er", "ers", "or", "ors", "ion", "ions", "y", "ies", "ied", "ment",
            "ments", "ation", "ations", "al", "ance", "ence", "ings", "ate", "ates", "ated", "ating", "ator", "ators")


def _forms(word: str, root: str) -> set[str]:
    """The word and the inflected forms whose stem is its stem (starred: star, stars, starring; not start)."""
    bases = {root, root[:-1] + "i" if root.endswith("y") else root, root + root[-1:], root.rstrip("i") + "y",
             root[:-1] if root.endswith("e") else root, root[:-2] + "y" if root.endswith("ie") else root}
    return {word} | {b + e for b in bases for e in _ENDINGS if b and stem(b + e) == root}


@functools.cache
def lexicon() -> tuple[Attribute, ...]:
    """The attributes of the bundled lexicon."""
    raw: dict[str, Any] = json.loads(resources.files("graphs.rag.answer").joinpath(LEXICON).read_text(encoding="utf-8"))
    return tuple(
        Attribute(name=name, kind=entry["type"],
                  cues=(*(_cue(w) for w in [*entry.get("zh", []), *entry.get("en", [])]),
                        *(_whole(w) for w in entry.get("whole", [])),
                        *(re.compile(p, re.IGNORECASE) for p in entry.get("re", []))),
                  asks=tuple(re.compile(p, re.IGNORECASE) for p in entry.get("ask", [])),
                  generic=bool(entry.get("generic", False)), by_verb=bool(entry.get("by_verb", False)),
                  words=(*entry.get("zh", []), *entry.get("en", []), *entry.get("whole", [])),
                  units=_units(entry.get("units", [])),
                  states=tuple(re.compile(p, re.IGNORECASE) for p in entry.get("states", [])))
        for name, entry in raw["attributes"].items()
    )


@dataclass(frozen=True)
class Asked:
    """The attribute a question asks about, where the question says it, and the other relations it names
    (a bridge question's first hop: "the town where the X300 is assembled")."""

    attribute: Attribute
    start: int
    end: int
    others: tuple[Attribute, ...] = ()


def _matches(attribute: Attribute, text: str) -> list[re.Match[str]]:
    return [m for p in (*attribute.asks, *attribute.cues) if (m := p.search(text))]


def asked_attribute(question: str, kind: AnswerType, subjects: tuple[str, ...] = ()) -> Asked | None:
    """The attribute the question asks about: among those it names (outside its subjects' names), the one of
    the asked answer type, then a specific one before a generic one, then the longest phrase, then the last (the
    relation of the question word: "when was the town where X is assembled founded" asks "founded")."""
    found: list[tuple[tuple[bool, bool, bool, bool, int, int], Attribute, re.Match[str]]] = []
    folded = question.casefold()
    event_day = asks_event_day(question)
    inside = [(m.start(), m.end()) for s in subjects if s for m in re.finditer(re.escape(s.casefold()), folded)]
    for attribute in lexicon():
        ms = [m for m in _matches(attribute, question)
              if not any(a <= m.start() and m.end() <= b for a, b in inside) and not _asks_its_noun(question, m)
              and not (attribute.name in _CLAUSES and kind in _VALUES)
              and not (attribute.name in _SCHEDULES and event_day)]
        if ms:
            m = max(ms, key=lambda m: (m.end() - m.start(), m.start()))
            # a question word's phrase ("how much", "how many", 多少钱) gives way to the attribute the question's own
            # words name: "How much does X weigh?" asks its weight, not its price; 补贴是多少钱 asks the allowance
            worded = m[0].casefold() not in QUESTION_PHRASES
            found.append(((attribute.kind == kind, not attribute.generic, worded, not attribute.by_verb,
                           m.end() - m.start(), m.start()), attribute, m))
    # a measure the question names where its question word asks a time, a person or a place is no attribute it
    # asks ("at what time did the first passengers board": the passengers are who boarded, not a capacity; 哪位
    # 乘客先下的船: a person): the question word's own type decides what answers
    found = [f for f in found if not (f[1].kind == "number" and kind in _NAMED_KINDS)]
    if not found:
        return None
    found.sort(key=lambda f: f[0], reverse=True)
    _, best, m = found[0]
    return Asked(best, m.start(), m.end(), tuple(a for _, a, _ in found[1:] if not a.generic))


def also_asked(question: str, label: str) -> bool:
    """Whether a label states a specific attribute of the lexicon that the question also asks for (价格 and 多少钱:
    the price), whichever the question's asked one is (a generic one, 时间 and 哪一年, says only the kind)."""
    return any(not a.generic and _matches(a, label) and _matches(a, question) for a in lexicon())


def other_attributes(question: str, label: str) -> tuple[str, ...]:
    """The specific attributes of the lexicon a label states that the question does not ask in either language
    (发布 states a release, which "What time does it close?" does not ask), by name; empty for a label the lexicon
    does not read or one that states an attribute the question asks."""
    said = [a for a in lexicon() if not a.generic and _matches(a, label)]
    if any(_matches(a, question) for a in said):
        return ()
    return tuple(a.name for a in said)


def schedule_label(label: str) -> bool:
    """Whether a label states a recurring schedule (``_SCHEDULES``: 营业时间, "Opening hours"), whose value holds
    every time of its day: the opening and the closing one."""
    return any(a.name in _SCHEDULES and _matches(a, label) for a in lexicon())


def translations(word: str) -> tuple[str, ...] | None:
    """The lexicon's words, in the other script than ``word``'s, of every attribute whose words state or ask for
    ``word`` (渡轮 → none known; 营业收入 → "revenue", "turnover" …): how a passage in the other language writes
    it. None where the lexicon knows no attribute of the word (its translation is unknown, not empty)."""
    chinese = has_han(word)
    found = [w for a in lexicon() if _matches(a, word) for w in a.words if w and has_han(w) != chinese]
    return tuple(dict.fromkeys(normalize(w) for w in found)) if found else None


def same_attribute(word: str, other: str) -> bool:
    """Whether the lexicon lists two words under one attribute (年费 and 会费: the yearly fee is the membership
    fee; "annual fee" and "membership fee"): two compounds of one head the lexicon does not tell apart."""
    a, b = normalize(word), normalize(other)
    return any(a in folded and b in folded for folded in _folded_words())


@functools.cache
def _folded_words() -> tuple[frozenset[str], ...]:
    return tuple(frozenset(normalize(w) for w in a.words if w) for a in lexicon())


QUESTION_PHRASES = frozenset({"how much", "how many", "多少钱"})
"""The lexicon's words that are only a question word's phrase: they name an attribute only when the question names
no other."""

_CLAUSES = frozenset({"cause"})
"""Attributes answered by a clause, never by a typed value: "How much damage did the flood cause?" asks an amount,
its verb "cause" is no cause asked."""
_VALUES = frozenset({"number", "date", "person", "place", "organization"})
_SCHEDULES = frozenset({"opening_hours"})
"""Attributes of a recurring schedule: a question that asks the calendar day of an event (``asks_event_day``:
新馆是哪天对外开放的, "What date did the tower open to the public?") asks when it happened (``opened``), not its
weekly hours, though its words are the schedule's."""
_NAMED_KINDS = frozenset({"date", "person", "place"})
"""Question types a measure (an attribute of type number) never answers: a when, a who, a where."""
_NOUN_AFTER = re.compile(r"\s+(?!(?:does|did|do|is|was|are|were|will|would|can|could|should|has|have|had|it|the|a|an|"
                         r"of|for|to|in|on|at)\b)[a-z][a-z-]+", re.IGNORECASE)


def _asks_its_noun(question: str, m: re.Match[str]) -> bool:
    """"How much" (or "how many") followed by a noun asks the amount of that noun ("How much damage did the flood
    cause?", "How much rain fell?"), not a price (but "how much prize money" asks money): the question word's phrase
    then names no attribute itself."""
    return m[0].casefold() in ("how much", "how many") and _NOUN_AFTER.match(question, m.end()) is not None \
        and not money_noun_at(question, m.end())


def stated_at(attribute: Attribute, sentence: str) -> list[tuple[int, int]]:
    """Where a sentence states the attribute (its words in either language, or a number in one of its units);
    empty when it does not."""
    marks = [(m.start(), m.end()) for p in attribute.cues for m in p.finditer(sentence)]
    # a construction marks where it states the attribute (its group "at": the birth date of a life span)
    marks += [m.span("at") if "at" in p.groupindex else m.span() for p in attribute.states for m in p.finditer(sentence)]
    if attribute.units is not None:
        marks += [(m.start(), m.end()) for m in attribute.units.finditer(sentence)]
    return marks


def near(span: tuple[int, int], marks: list[tuple[int, int]], chars: int = NEAR_CHARS) -> bool:
    """Whether a span lies within ``chars`` of one of the marks."""
    return any(span[0] - b <= chars and a - span[1] <= chars for a, b in marks)


@functools.cache
def label_groups() -> tuple[frozenset[str], ...]:
    """The lexicon's bilingual label groups (``labels``: 乘客 / passengers, 记录 / minutes), folded."""
    raw: dict[str, Any] = json.loads(resources.files("graphs.rag.answer").joinpath(LEXICON).read_text(encoding="utf-8"))
    return tuple(frozenset(normalize(w) for w in group if w.strip()) for group in raw.get("labels", []))


def _in_group(word: str, group: frozenset[str]) -> bool:
    """Whether a folded word is one of a group's: a Chinese word as written or holding a group word of two
    characters or more (乘客人数 holds 乘客; a one-character word, 级 or 层, only alone), an English word or
    phrase as written, alone or plural (passenger, passengers; not village and villagers)."""
    if has_han(word):
        return word in group or any(len(w) >= 2 and has_han(w) and w in word for w in group)
    return any(not has_han(w) and _one_word(w, word) for w in group)


def _one_word(word: str, other: str) -> bool:
    """Whether two folded English words or phrases are one, alone or plural (passenger, passengers; not village
    and villagers)."""
    singular = lambda x: re.sub(r"(?:es|s)$", "", x) if len(x) > 3 else x  # noqa: E731
    return word == other or singular(word) == singular(other)


def same_label(word: str, other: str) -> bool:
    """Whether two words in different scripts name the same thing by the bilingual lexicon: one attribute's words
    (营业收入 and "revenue") or one label group's (乘客 and "passengers", 记录 and "minutes"). Words of one script
    are compared as written elsewhere (``governors.same_measure``); False for them here."""
    a, b = normalize(word).strip(), normalize(other).strip()
    if not a or not b or has_han(a) == has_han(b):
        return False
    if any(_matches(x, a) and _matches(x, b) for x in lexicon() if not x.generic):
        return True
    return same_group(a, b)


def group_words_across(word: str) -> tuple[str, ...]:
    """The words, in the other script than ``word``'s, of the label groups it is one of (押金 for "deposit",
    "guests" for 住客): how a passage in the other language names that thing; none where no group holds it."""
    folded = normalize(word).strip()
    chinese = has_han(folded)
    return tuple(dict.fromkeys(w for g in label_groups() if folded and _in_group(folded, g)
                               for w in g if has_han(w) != chinese))


def same_group(word: str, other: str) -> bool:
    """Whether two words of one label group name the same thing, whatever their scripts ("hurt" and "injured", 乘客
    and 旅客): a group lists a thing's words in both languages, its synonyms in each included."""
    a, b = normalize(word).strip(), normalize(other).strip()
    return bool(a) and bool(b) and any(_in_group(a, g) and _in_group(b, g) for g in label_groups())


def written_across(word: str, folded: str) -> str | None:
    """The word of the other script that a folded text writes for ``word`` by the bilingual lexicon (滑坡 in a
    report that writes "landslip"; "minutes" in notes that write 记录), or None: a question's word that no passage
    of its language spells may be spelled in the other language's passages."""
    w = normalize(word).strip()
    if not w:
        return None
    chinese = has_han(w)
    # the word itself a group's (a Chinese name holding one, 滑坡村, is a name)
    groups = [g for g in label_groups() if w in g or (not chinese and _in_group(w, g))]
    candidates = [x for g in groups for x in g if has_han(x) != chinese]
    # the word itself one of an attribute's (a name that holds one, "Open Day Preparation Meeting", is a name)
    candidates += [normalize(x) for a in lexicon() if not a.generic and w in {normalize(y) for y in a.words}
                   for x in a.words if x and has_han(x) != chinese]
    # then the general dictionary's words for it (春节 for "Spring Festival", "laundry" for 洗衣店), only where the
    # text is mostly of the other language: a Chinese page's English aside ("（英语：2023 Dallas Open）") does not
    # write a Chinese question's 公开赛 or 中国
    crossing = not chinese or han_share(folded) < CROSSING_SHARE
    candidates += [x for x in dictionary_forms(w) if x not in candidates] if crossing else []
    for x in sorted(dict.fromkeys(candidates), key=len, reverse=True):
        if _writes(x, folded):
            return x
    return _across_by_words(w, folded) or (_across_by_parts(w, folded) if crossing else None)


CROSSING_SHARE = 0.5
"""The share of Chinese characters under which a text is read as English for a Chinese word's dictionary forms."""


def _writes(word: str, folded: str) -> bool:
    """Whether a folded text writes a word: a Chinese one anywhere, an English one whole, alone or plural."""
    return (word in folded) if has_han(word) else \
        re.search(rf"(?<![a-z]){re.escape(word)}(?:s|es)?(?![a-z])", folded) is not None


def _across_by_parts(term: str, folded: str) -> str | None:
    """The English words a folded text writes for a Chinese compound the dictionary knows only by its parts, a sense
    of every part written but one at most (中译法: "chinese" and "french" in a rate card's "Chinese → French" line,
    whose 译 no line repeats; 食品饮料: "food" and "drink"), two at least; or None."""
    if not re.fullmatch(r"[\u3400-\u9fff]+", term) or len(term) < ABBREVIATED_FROM:
        return None
    parts = parts_of(term)
    found = [next((x for s in senses for x in (s, *s.split()[:1]) if len(x) >= 3 and _writes(x, folded)), None)
             for senses in parts]
    written = [x for x in found if x is not None]
    return " ".join(written) if len(written) >= 2 and len(written) >= len(parts) - 1 else None


_NAME_FLAGS = ("nr", "ns", "nt", "nz")
"""The tagger's flags of a person's, place's, organisation's or other proper name: never a common word."""
PHRASE_CHARS = 4
"""Characters from which a Chinese phrase may be read word by word across scripts (学生志愿者)."""
_PHRASE_GLUE = frozenset({"the", "a", "an", "of", "for", "and"})


def _across_by_words(phrase: str, folded: str) -> str | None:
    """The other script's words a folded text writes for a phrase of common words that the lexicon knows only word
    by word (学生志愿者: "students" and "volunteers", in a handbook that writes "students pay 60 yuan" beside "the
    annual volunteer membership fee"; "student volunteers": 学生 and 志愿者), or None: a phrase of one word, a word
    of a name (李明华 is no common word), a word the lexicon does not know, or one the text does not write."""
    if re.fullmatch(r"[\u3400-\u9fff]+", phrase):
        from graphs.text.entity_spotting import placed_words  # the tagger, loaded only for such a phrase

        if len(phrase) < PHRASE_CHARS:
            return None
        tagged = [(word, flag) for _, _, word, flag in placed_words(phrase)]
        if any(len(word) < 2 or flag.startswith(_NAME_FLAGS) for word, flag in tagged):
            return None
        words = [word for word, _ in tagged]
    elif re.fullmatch(r"[a-z][a-z' -]*", phrase):
        words = [word for word in phrase.split() if word not in _PHRASE_GLUE]
        if any(len(word) < 3 for word in words):
            return None
    else:
        return None
    if len(words) < 2:
        return None
    found = [written_across(word, folded) for word in words]
    return None if any(f is None for f in found) else " ".join(f for f in found if f is not None)


def label_words(question: str) -> tuple[str, ...]:
    """The words of every label group the question names (a Chinese word of two characters or more as written,
    an English word or phrase whole, alone or plural): "took the minutes" names the group of 记录 and 纪要, 乘客 the group
    of "passengers". What retrieval adds to reach a passage of the other language."""
    folded = normalize(question)
    found: list[str] = []
    for group in label_groups():
        if any((len(w) >= 2 and w in folded) if has_han(w) else
               re.search(rf"(?<![a-z]){re.escape(w)}(?:s|es)?(?![a-z])", folded) is not None for w in group):
            found.extend(sorted(group))
    return tuple(dict.fromkeys(found))


_NEGATED = re.compile(r"[非无未不][\u4e00-\u9fff]{2,4}")
"""A Chinese word with its negating prefix (非会员, 非居民): the complement of the word, not the word."""
_LABEL_ASIDE = re.compile(r"\s*[（(][^（()）]*[)）]\s*")


def group_names_label(phrase: str, label: str) -> bool:
    """Whether one of the bilingual lexicon's label groups holds both a word the phrase writes and the label, less
    its aside (押金 and "Deposit (yuan)", "deposit" and 押金（元）, "guests" and 住客人数; ``_in_group``): the phrase,
    what a question asks, names that column in either language."""
    bare = normalize(_LABEL_ASIDE.sub(" ", label)).strip()
    if not bare:
        return False
    asked = normalize(phrase)
    named = [g for g in label_groups() if any((len(w) >= 2 and w in asked) if has_han(w) else
                                              re.search(rf"(?<![a-z]){re.escape(w)}(?:s|es)?(?![a-z])",
                                                        asked) is not None for w in g)]
    # a Chinese label that negates the group's word (非会员价 holds 会员) names its complement, unless asked so
    negated = [m[0] for m in _NEGATED.finditer(bare)] if has_han(bare) else []
    return any(_in_group(bare, g) and not any(n[1:] in g or any(len(w) >= 2 and n[1:].startswith(w) for w in g)
                                              for n in negated if n not in asked) for g in named)


def labels_it(attribute: Attribute, label: str) -> bool:
    """Whether a field's label states the attribute: as written, or as a label is written, with its colon (记录：
    is the lexicon's label of the minutes' recorder, "Minutes:" of an English file's)."""
    bare = label.strip().rstrip("：:").strip()
    return bool(stated_at(attribute, label) or stated_at(attribute, f"{bare}：") or stated_at(attribute, f"{bare}:"))
