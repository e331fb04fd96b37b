"""A general Chinese–English dictionary (CC-CEDICT, CC BY-SA 4.0; ``cedict.tsv.gz``, built by
``app.tools.cedict_table``): a question's word as the other language writes it, for any everyday word.

The hand-written tables (the attribute lexicon, ``name_words.json``) cover the words earlier sets asked; a new
user's file asks others ("checkout" over 退房, 洗衣店 over "laundry", "repaired" over 修理). e5 cannot stand in: its
cross-language similarity ranks a same-language sentence on another topic above the other language's answering
line (measured: "What time is checkout?" scores 晚餐需在下午四点前预订 0.797, 退房时间为中午十二点之前 0.763).

- ``english_of``: a Chinese word's senses ("修理": repair, fix …), as the dictionary writes them;
- ``chinese_of``: an English word's or phrase's Chinese words: the headwords one of whose senses is it (or a form of
  it: "repaired" → repair; "checkout" → the phrasal verb "check out"), the headwords whose first sense it is first,
  then the commoner ones (jieba's idf), at most ``MAX_FORMS``;
- ``translations``: either, for a question's term; a Chinese term the dictionary does not know whole is read by its
  dictionary words and its abbreviated morphemes (英译日: 英译 "English translation" + 日 of 日语 "Japanese").
"""

from __future__ import annotations

import functools
import gzip
import re
from importlib import resources

from graphs.text.normalize import has_han

TABLE = "cedict.tsv.gz"
MAX_FORMS = 8
"""Chinese words kept for one English word: the commonest of those whose sense it is (a word of many senses would
otherwise bring dozens: "time" → 时间, 次, 倍, 时候 …)."""
MAX_SENSE_WORDS = 3
"""Senses of more words are definitions, not the words a text writes ("check out of a hotel room")."""
_PARTICLES = frozenset({"out", "up", "in", "off", "on", "down", "over", "back", "away"})
_STOP = frozenset({"a", "an", "the", "of", "to", "and", "or", "for", "in", "on", "at", "by", "sb", "sth", "be",
                   "is", "one's", "oneself", "etc"})


@functools.cache
def _table() -> dict[str, tuple[str, ...]]:
    raw = resources.files("graphs.text").joinpath(TABLE).read_bytes()
    out: dict[str, tuple[str, ...]] = {}
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        word, _, senses = line.partition("\t")
        if word and senses:
            out[word] = tuple(senses.split("|"))
    return out


def english_of(word: str) -> tuple[str, ...]:
    """A Chinese word's senses by the dictionary (empty: unknown)."""
    return _table().get(word.strip(), ())


def _base(word: str) -> tuple[str, ...]:
    """An English word and the forms a dictionary sense writes it in: plural and verb endings taken off
    ("repaired" → repair, "collects" → collect, "studies" → study)."""
    w = word.casefold()
    forms = [w]
    for suffix, put in (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""),
                        ("ing", "e")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            forms.append(w[: len(w) - len(suffix)] + put)
    if len(w) >= 5 and w.endswith("ed") and w[-3] == w[-4]:
        forms.append(w[:-3])  # "stopped" → stop
    return tuple(dict.fromkeys(forms))


def _keys(sense: str) -> list[str]:
    """The keys a sense is found by: itself (of at most ``MAX_SENSE_WORDS`` words), a phrasal verb it opens (and
    that verb written as one word: "check out of a hotel room" → "check out", "checkout")."""
    words = sense.split()
    keys = [sense] if len(words) <= MAX_SENSE_WORDS else []
    if len(words) >= 2 and words[1] in _PARTICLES:
        keys += [f"{words[0]} {words[1]}", f"{words[0]}{words[1]}"]
    return keys


@functools.cache
def _reverse() -> dict[str, tuple[str, ...]]:
    from graphs.text.terms import rarity  # jieba's table, loaded with the reverse index only

    ranked: dict[str, list[tuple[int, float, str]]] = {}
    for word, senses in _table().items():
        rare = rarity(word)
        for rank, sense in enumerate(senses):
            for key in _keys(sense):
                ranked.setdefault(key, []).append((min(rank, 1), rare, word))
    return {k: tuple(w for _, _, w in sorted(v)[:MAX_FORMS]) for k, v in ranked.items()}


def chinese_of(term: str) -> tuple[str, ...]:
    """The Chinese words of an English word or phrase by the dictionary (empty: unknown); a function word has
    none."""
    t = " ".join(term.casefold().split())
    if not t or t in _STOP or has_han(t) or not re.fullmatch(r"[a-z][a-z' -]*", t):
        return ()
    reverse = _reverse()
    if " " in t:
        return reverse.get(t, ())
    for form in _base(t):
        if found := reverse.get(form):
            return found
    return ()


ABBREVIATED_FROM = 2
"""Characters from which a Chinese term is read by its parts (英译日)."""


def _morpheme(char: str) -> tuple[str, ...]:
    """What one character stands for inside an abbreviated compound: the senses of the two-character words it
    opens whose sense names a language, people or country ("日": 日语 "japanese language", 日本 "japan"; "英": 英语
    "english"), the way 中英, 英译日, 日译中 abbreviate them. Other characters stand for nothing here."""
    table = _table()
    out: list[str] = []
    for word in sorted(char + kind for kind in "语文国本"):  # the table's own (sorted) order
        out += [s for s in table.get(word, ())[:2] if len(s.split()) <= 2]
    return tuple(dict.fromkeys(out))


def parts_of(term: str) -> list[tuple[str, ...]]:
    """A Chinese term the dictionary does not know whole, as its parts' English senses: the longest dictionary words
    from the left, a character no word takes read as the morpheme it abbreviates (``_morpheme``); empty when a part
    is neither (a name, a word the dictionary lacks)."""
    table = _table()
    parts: list[tuple[str, ...]] = []
    i = 0
    while i < len(term):
        for j in range(min(len(term), i + 6), i + 1, -1):
            if term[i:j] in table:
                parts.append(table[term[i:j]])
                i = j
                break
        else:
            if not (abbreviated := _morpheme(term[i])):
                return []
            parts.append(abbreviated)
            i += 1
    return parts if len(parts) >= 2 else []


def translations(term: str) -> tuple[str, ...]:
    """A question's term in the other language by the dictionary: an English word's Chinese words, a Chinese word's
    English senses of at most ``MAX_SENSE_WORDS`` words (empty: unknown, or a Chinese word of one character)."""
    t = term.strip()
    if not has_han(t):
        return chinese_of(t)
    if len(t) < 2:
        return ()
    return tuple(s for s in english_of(t) if len(s.split()) <= MAX_SENSE_WORDS)


SPECIFIC_FROM = 7.5
"""jieba's inverse document frequency from which a question's word is specific (火星 8.6, 锅炉 8.5, 书面 8.3, 租金 8.2;
an English word by its commonest dictionary word: "monthly" 月度 8.0, "checkout" 退房 10.3): a word of few paraphrases,
written where a text speaks of it, and written by few texts. Commoner words are paraphrased freely and written by
many texts of every kind (名字 6.2, 同意 6.0, 人口 5.3, 时间 4.1; "flat" 7.4, "museum" 博物馆 7.0, "exhibit" 6.2)."""


def specificity(term: str, forms: tuple[str, ...] | None = None) -> float:
    """How specific a question's term is: a Chinese term's own rarity, an English one's by the commonest of its
    dictionary words (``forms``, by default its ``translations``); 0 for an English term the dictionary gives no
    Chinese word."""
    from graphs.text.terms import rarity

    if has_han(term):
        return rarity(term)
    return min((rarity(f) for f in (translations(term) if forms is None else forms) if has_han(f)), default=0.0)
