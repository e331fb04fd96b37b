"""Names across languages: whether an English name and a Chinese one name the same thing, by a fitted score.

A question names a thing in one language and the file in the other ("Yongji Bridge" for 永济桥, "copper kettle"
for 铜水壶, 管风琴 for "organ", 马罗比 for "Marrowby"). No spelling is shared, and e5's similarity of the two
names separates them from their false friends by 0.01–0.09 only (measured session 19: "rye flour" → 全麦粉), so
the reading aligns the names' parts instead, each English word with a run of the Chinese name, by one of:

- **the bilingual word table** (``name_words.json``: everyday words and the Chinese morphemes that translate
  them: copper 铜, kettle 壶 / 水壶, fee 费) and the kind words of proper names (``scripts.KIND_SUFFIXES``:
  bridge 桥, temple 寺);
- **sound**: the toneless pinyin of the run against the word (a romanised name: Yongji 永济), or both reduced
  to their consonant classes (a transliteration: Marrowby ``MLP`` 马罗比 maluobi ``MLP``; Pilates 普拉提).

The alignment's figures (how many words are aligned and how, the share of the Chinese name explained, whether
the head word is translated, whether the whole name is romanised) are the features of a logistic score fitted on
labelled pairs, true counterparts and close false friends in many domains (``app/tools/name_pairs.py``;
``name_match.json`` holds the weights and their held-out measurement). ``counterpart`` finds, in a text of the
other script, the run that best reads as a name, and reads none where two different runs read it almost as well
(two things that both exist are never merged).
"""

from __future__ import annotations

import functools
import json
import math
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from typing import Any

from graphs.text.normalize import has_han, normalize, pinyin_variants

WORDS = "name_words.json"
WEIGHTS = "name_match.json"

MAX_RUN = 6
"""The longest run of Chinese characters one English word is aligned with (托拜厄斯 for Tobias: 4)."""
MAX_NAME = 12
"""The longest Chinese name read as a counterpart (characters)."""
MAX_WORDS = 5
"""The longest English name read as a counterpart (words)."""
MARGIN = 0.1
"""A counterpart must score this much above a different run of the same text that reads the name too (at the
threshold): two runs that both read as the name within it are two things, and the name is read as neither."""
_STOP = frozenset({"the", "a", "an", "of", "and", "for", "with", "in", "on", "at", "to", "s", "st"})
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")


@dataclass(frozen=True)
class Reading:
    """A name read in the other language: the text's words for it and the score of the reading."""

    name: str
    counterpart: str
    score: float

    def why(self) -> str:
        """The reading as a reason says it."""
        return f"read {self.name!r} as {self.counterpart} (score {self.score:.2f})"


@functools.cache
def _table() -> dict[str, tuple[str, ...]]:
    from graphs.text.scripts import KIND_SUFFIXES  # scripts reads names across scripts by this module

    raw: dict[str, Any] = json.loads(resources.files("graphs.text").joinpath(WORDS).read_text(encoding="utf-8"))
    table: dict[str, list[str]] = {k: list(v) for k, v in raw["words"].items()}
    for kind, (endings, _) in KIND_SUFFIXES.items():
        table.setdefault(kind, [])
        table[kind] += [e for e in endings if e not in table[kind]]
    return {k: tuple(v) for k, v in table.items()}


def _singular(word: str) -> str:
    for end, repl in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"), ("sses", "ss"), ("s", "")):
        if word.endswith(end) and len(word) - len(end) >= 3 and not word.endswith("ss"):
            return word[: len(word) - len(end)] + repl
    return word


def translations(word: str) -> tuple[str, ...]:
    """The Chinese words of an English word (or two-word phrase) by the table, alone or plural; empty: unknown."""
    w = word.casefold()
    table = _table()
    return table.get(w) or table.get(_singular(w)) or ()


_MODIFIERS = frozenset({"large", "big", "small", "little", "long", "short", "new", "old", "red", "white", "black",
                        "green", "blue", "yellow", "purple", "grey", "gray", "hot", "cold", "fresh", "dried", "sweet",
                        "whole", "head", "chief", "deputy", "vice", "light", "glass", "can", "well", "spring", "fair",
                        "pass", "court", "field", "wood", "floor", "key", "card", "plan", "class", "service"})
"""Words whose one-character translation (大, 新, 红, 头 …) is written inside too many other words to show the
word is there, or whose English is too many things at once (glass, spring, court)."""


@functools.cache
def _english_of() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for word, chinese in _table().items():
        for z in chinese:
            if len(z) >= 2:
                found.setdefault(z, []).append(word)
    return {z: tuple(ws) for z, ws in found.items()}


@functools.cache
def kind_words() -> frozenset[str]:
    """The kind words of names in both languages (bridge, 桥, church, 教堂 …: ``scripts.KIND_SUFFIXES``): part of a
    name ("Kelby Chapel", 凯尔比教堂), judged with it, never alone."""
    from graphs.text.scripts import KIND_SUFFIXES

    return frozenset({*KIND_SUFFIXES, *(e for endings, _ in KIND_SUFFIXES.values() for e in endings)})


@functools.lru_cache(maxsize=16384)
def spelled_across(term: str) -> tuple[str, ...]:
    """A question's term as the other language writes it, by the word table: an English word's Chinese words
    (kettle → 壶, 水壶; a one-character one only for a word that is no size, colour or many-sensed word), a Chinese
    word's English ones (钢琴 → piano; of two characters or more). Empty where the table knows none."""
    t = normalize(term).strip()
    if not t:
        return ()
    if has_han(t):
        return _english_of().get(t, ()) if len(t) >= 2 else ()
    return tuple(z for z in translations(t) if len(z) >= 2 or (t not in _MODIFIERS and len(t) >= 3))


TRANSLITERATION = frozenset(
    "阿埃艾爱安昂奥巴拜班邦鲍贝本彼毕宾波伯博布查彻达戴丹道德登邓迪蒂丁东杜顿厄恩尔法凡菲费芬丰冯佛弗伏福富盖甘冈"
    "戈哥格根贡古瓜圭哈海汉豪赫亨洪胡华怀惠霍基吉季加贾杰捷金卡凯坎康考柯科克肯库夸奎昆拉莱赖兰朗劳勒雷蕾黎里理利莉丽"
    "列林琳隆卢鲁路伦罗洛吕马玛迈麦曼芒梅门蒙孟米密明缪莫默姆穆纳娜奈南内妮尼涅宁纽努诺欧帕潘庞佩彭皮珀普奇齐契恰乔切"
    "钦琼丘萨塞赛桑瑟森沙莎尚舍什施舒斯松苏索塔泰坦汤唐特提廷图托瓦旺威韦维温翁沃乌伍西希锡夏谢辛欣休胥雅亚扬耶"
    "伊英尤约泽扎詹卓兹茨娅娃夫逊瑞芙琪茜甫勃斐芭文卫")
"""Characters foreign names are transliterated with (安娜·谢尔巴科娃, 利普尼茨卡娅, 霍奇金): the tagger cuts such names
into pieces (安娜 / 尔巴 / 科娃), and a piece is no answer. Characters that are as often a word next to a name (比, 于,
因, 多, 可, 万; 席 of 主席) are left out."""
# consonant classes: a transliteration keeps a name's consonants in their class (Marrowby → 马罗比, r → l)
_CLASS = {"b": "P", "p": "P", "d": "T", "t": "T", "g": "K", "k": "K", "c": "K", "q": "K", "j": "K",
          "s": "S", "z": "S", "x": "S", "l": "L", "r": "L", "m": "M", "n": "N", "f": "F", "v": "F", "w": "W",
          "h": "H", "y": "Y"}
_LATIN_DIGRAPHS = (("ph", "f"), ("ck", "k"), ("th", "t"), ("sh", "s"), ("ch", "j"), ("wh", "w"), ("gh", ""),
                   ("qu", "kw"), ("ng", "n"))
_PINYIN_DIGRAPHS = (("zh", "j"), ("ch", "j"), ("sh", "s"), ("ng", "n"))


def _key(spelling: str, digraphs: tuple[tuple[str, str], ...], silent: str = "") -> str:
    """The consonant classes of a spelling, one for a run of the same class; the letters of ``silent`` dropped
    where no vowel follows them (English "w" and "y" of a vowel: Marrow, Whitby; a non-rhotic "r": Marlow 马洛)."""
    s = spelling
    for a, b in digraphs:
        s = s.replace(a, b)
    out: list[str] = []
    for i, ch in enumerate(s):
        if ch in silent and i > 0 and (i + 1 == len(s) or s[i + 1] not in _VOWELS):
            continue
        c = _CLASS.get(ch)
        if c is not None and (not out or out[-1] != c):
            out.append(c)
    return "".join(out)


_VOWELS = frozenset("aeiouy")


_NEAR_CLASSES = frozenset({("M", "N"), ("N", "M"), ("K", "S"), ("S", "K")})
"""Classes a transliteration trades for each other (Zumba 尊巴 m → n, Jessica 杰西卡): half a substitution."""


def _distance(a: str, b: str) -> float:
    prev: list[float] = [float(j) for j in range(len(b) + 1)]
    for i, x in enumerate(a, 1):
        cur = [float(i)]
        for j, y in enumerate(b, 1):
            swap = 0.0 if x == y else 0.5 if (x, y) in _NEAR_CLASSES else 1.0
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + swap))
        prev = cur
    return prev[-1]


ROMANISED_SOUND = 0.45
"""A word that is itself a pinyin spelling ("Yongan", "Baisha") romanises a name exactly: its consonants agreeing
with another run's (永宁 for "Yongan") count this much only, under ``SOUND_FROM``: never a reading by sound."""
_PINYIN_MARK = re.compile(r"ng|zh|ch|sh|x|q|j|ao|ou|ui|iu|ie|uo|ai|ei")
"""Spellings only pinyin has among short name words (a final ng, zh, x, q, ao …): "Elena" and "Anna" spell pinyin
syllables too, but are names of their own."""


@functools.cache
def _syllables() -> frozenset[str]:
    from pypinyin import Style
    from pypinyin.constants import PINYIN_DICT
    from pypinyin.style import convert

    readings = {r for v in PINYIN_DICT.values() for r in v.split(",")}
    plain = {convert(r, Style.NORMAL, strict=False) for r in readings}
    # the interjections' lone consonants (呣 m, 嗯 n) are no syllable of a romanised name
    return frozenset(x for x in plain if x.isascii() and x.isalpha() and x not in {"m", "n", "ng", "hm", "hng"})


@functools.lru_cache(maxsize=16384)
def is_pinyin(word: str) -> bool:
    """Whether a Latin word (letters only) spells whole pinyin syllables ("yongan", "baisha"; not "marrowby")."""
    w = word.casefold()
    syllables = _syllables()
    ok = [True] + [False] * len(w)
    for j in range(1, len(w) + 1):
        ok[j] = any(ok[i] and w[i:j] in syllables for i in range(max(0, j - 6), j))
    return len(w) >= 2 and ok[-1] and _PINYIN_MARK.search(w) is not None


@functools.lru_cache(maxsize=65536)
def sound_alike(latin: str, han: str) -> float:
    """How alike a Latin word (or name) sounds to a Chinese run, 0–1: 1 for its toneless pinyin (a romanised name,
    "Yongji" 永济), else the share of their consonant classes that agree (a transliteration)."""
    spelled = "".join(ch for ch in latin.casefold() if ch.isascii() and ch.isalpha())
    if not spelled or not han:
        return 0.0
    variants = pinyin_variants(han)
    if spelled in variants:
        return 1.0
    if sum(ch in TRANSLITERATION for ch in han) * 2 < len(han):
        return 0.0  # a run mostly of characters no name is transliterated with (件比 for "ember")
    keys = {_key(spelled, _LATIN_DIGRAPHS), _key(spelled, _LATIN_DIGRAPHS, silent="wyr")}
    # a final s the transliteration drops (Pilates 普拉提)
    keys |= {k[:-1] for k in keys if len(k) > 2 and k.endswith("S")}
    best = 0.0
    for v in variants[:4]:
        han_key = _key(v, _PINYIN_DIGRAPHS)
        for latin_key in keys:
            if not latin_key or not han_key:
                continue
            longest = max(len(latin_key), len(han_key))
            # each Chinese syllable carries at most two of a word's consonants: a run far too short or long is no
            # transliteration of it
            if len(han) * 2 < len(latin_key) - 1 or len(han) > len(latin_key) + 2:
                continue
            similar = 1.0 - _distance(latin_key, han_key) / longest
            if latin_key[0] != han_key[0]:
                similar *= 0.8  # a transliteration keeps the first sound
            best = max(best, similar)
    return best * ROMANISED_SOUND if is_pinyin(spelled) else best


@dataclass(frozen=True)
class Alignment:
    """How an English name's words align with a Chinese name's runs."""

    words: int
    by_word: int
    """Words aligned by the word table."""
    by_sound: float
    """Summed sound scores of the words aligned by sound."""
    sounded: int
    """Words aligned by sound."""
    chars: int
    covered: int
    """Chinese characters inside an aligned run."""
    head: bool
    """The last English word translated by the run that ends the Chinese name."""
    romanised: bool
    """The English name's words (kind word aside) spell the Chinese name's pinyin."""


def _tokens(latin: str) -> list[str]:
    words = [w.casefold().replace("'", "").replace("’", "").strip("-") for w in _LATIN_WORD.findall(latin)]
    words = [w for w in words if w and w not in _STOP]
    out: list[str] = []
    i = 0
    while i < len(words):  # a two-word entry of the table ("table tennis", "car park") is one word
        if i + 1 < len(words) and translations(f"{words[i]} {words[i + 1]}"):
            out.append(f"{words[i]} {words[i + 1]}")
            i += 2
        else:
            out.append(words[i])
            i += 1
    return out


def _by_word(word: str, run: str) -> bool:
    return run in translations(word)


def _sounded(word: str) -> bool:
    """Whether a word may be written by its sound: a word the table translates is written by its meaning ("paper"
    is 纸, never 布 for its p)."""
    return len(word) >= 3 and not translations(word)


SOUND_FROM = 0.5
"""A word aligns with a run by sound from this sound score."""


def _capitalised(latin: str) -> frozenset[str]:
    """The words a text writes capitalised, folded: a name's, which alone a transliteration writes by sound."""
    return frozenset(w.casefold().replace("'", "").replace("’", "") for w in _LATIN_WORD.findall(latin)
                     if w[:1].isupper())


def align(latin: str, han: str, names_only: bool = False) -> Alignment:
    """The best order-keeping alignment of an English name's words with runs of a Chinese name (a word may stay
    unaligned, a character unexplained)."""
    words = _tokens(latin)
    caps = _capitalised(latin) if names_only else None
    han = "".join(_HAN_RUN.findall(normalize(han)))
    n, m = len(words), len(han)
    # best[i][j]: (score, by_word, by_sound, covered, head, sounded) aligning the first i words within the first
    # j chars
    Cell = tuple[float, int, float, int, bool, int]
    best: list[list[Cell]] = [[(0.0, 0, 0.0, 0, False, 0)] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            options: list[Cell] = [best[i][j]] if i == 0 and j == 0 else []
            if j > 0:
                options.append(best[i][j - 1])  # character j unexplained
            if i > 0:
                options.append(best[i - 1][j])  # word i unaligned
                for k in range(max(0, j - MAX_RUN), j):
                    run = han[k:j]
                    s0, w0, so0, c0, _, n0 = best[i - 1][k]
                    if _by_word(words[i - 1], run):
                        options.append((s0 + 1.0, w0 + 1, so0, c0 + len(run), i == n and j == m, n0))
                    elif _sounded(words[i - 1]) and (caps is None or words[i - 1] in caps) \
                            and (snd := sound_alike(words[i - 1], run)) >= SOUND_FROM:
                        options.append((s0 + snd, w0, so0 + snd, c0 + len(run), False, n0 + 1))
            if options:
                best[i][j] = max(options, key=lambda c: (c[0], c[3]))
    _, by_word, by_sound, covered, head, sounded = best[n][m]
    plain = [w for w in words if not translations(w)]
    romanised = bool(plain) and any(
        "".join(plain).replace(" ", "") in v or v.startswith("".join(plain)) for v in pinyin_variants(han))
    return Alignment(n, by_word, by_sound, sounded, m, covered, head, romanised)


FEATURES = ("word_share", "sound_share", "char_share", "head", "romanised", "whole")


def features(latin: str, han: str, names_only: bool = False) -> dict[str, float]:
    """The alignment's figures the score reads."""
    a = align(latin, han, names_only)
    if a.words == 0 or a.chars == 0:
        return dict.fromkeys(FEATURES, 0.0)
    return {"word_share": a.by_word / a.words, "sound_share": a.by_sound / a.words,
            "char_share": a.covered / a.chars, "head": float(a.head), "romanised": float(a.romanised),
            "whole": float(a.by_word + a.sounded == a.words)}


@dataclass(frozen=True)
class Weights:
    """The fitted logistic score: coefficients by feature, bias and the threshold a reading must reach."""

    coef: dict[str, float]
    bias: float
    threshold: float


@functools.cache
def weights() -> Weights:
    """The bundled fit (``name_match.json``)."""
    raw: dict[str, Any] = json.loads(resources.files("graphs.text").joinpath(WEIGHTS).read_text(encoding="utf-8"))
    return Weights(coef=dict(raw["coef"]), bias=float(raw["bias"]), threshold=float(raw["threshold"]))


def score(first: str, second: str, fitted: Weights | None = None, names_only: bool = False) -> float:
    """The probability, by the fitted score, that two names of different scripts name the same thing (0 for two
    names of one script)."""
    if has_han(first) == has_han(second):
        return 0.0
    latin, han = (second, first) if has_han(first) else (first, second)
    w = fitted or weights()
    f = features(latin, han, names_only)
    z = w.bias + sum(w.coef.get(k, 0.0) * v for k, v in f.items())
    return 1.0 / (1.0 + math.exp(-z))


def _han_runs(name: str, text: str) -> list[str]:
    """Runs of a Chinese text that may write an English name: within a run of Chinese characters, as long as the
    name's words can be written, starting and ending where one of the name's words is explained (translated or
    sounding alike)."""
    words = _tokens(name)
    longest = min(MAX_NAME, 2 + MAX_RUN * max(1, len(words)))
    runs: set[str] = set()
    for m in _HAN_RUN.finditer(text):
        s = m[0]
        explained = {(i, j) for i in range(len(s)) for j in range(i + 1, min(len(s), i + MAX_RUN) + 1)
                     if _explained(words, s[i:j])}
        starts = sorted({i for i, _ in explained})
        ends = sorted({j for _, j in explained})
        runs.update(s[i:j] for i in starts for j in ends if i < j <= i + longest)
    return sorted(runs)


def _explained(words: list[str], run: str) -> bool:
    return any(run in translations(w) or (_sounded(w) and sound_alike(w, run) >= SOUND_FROM) for w in words)


def _latin_runs(text: str) -> list[str]:
    words = _LATIN_WORD.findall(text)
    return sorted({" ".join(words[i:j]) for i in range(len(words))
                   for j in range(i + 1, min(len(words), i + MAX_WORDS) + 1)})


def counterpart(name: str, text: str, fitted: Weights | None = None) -> Reading | None:
    """The words of ``text`` (in the other script than ``name``) that read as the name, by the fitted score at
    its threshold; None when none does, or when a different run reads it almost as well (two things)."""
    w = fitted or weights()
    folded = normalize(text)
    chinese = has_han(name)
    if chinese:
        target = "".join(_HAN_RUN.findall(normalize(name)))
        if not target or len(target) > MAX_NAME:
            return None
        # the text as written: only its capitalised words (names) may write a Chinese name by sound ("has pipes
        # across" is no 羽管键琴)
        candidates = [c for c in _latin_runs(unicodedata.normalize("NFKC", text)) if _plausible(c, target)]
    else:
        if not _tokens(name) or len(_tokens(name)) > MAX_WORDS:
            return None
        candidates = _han_runs(name, folded)
    scored = sorted(((score(name, c, w, names_only=chinese), c) for c in candidates), reverse=True)
    if not scored or scored[0][0] < w.threshold:
        return None
    top, best = scored[0]
    # the shortest run of the best score (桥 of 永济桥 aside, 永济桥 and 永济桥头 score alike: the name ends at
    # the aligned run)
    best = min((c for s, c in scored if s >= top - 1e-9), key=len)
    rivals = [c for s, c in scored if s >= max(w.threshold, top - MARGIN) and not _overlap(c, best)]
    if rivals:
        return None
    return Reading(name, normalize(best), round(top, 3))


def _overlap(a: str, b: str) -> bool:
    a, b = normalize(a), normalize(b)
    return a in b or b in a


def _plausible(latin: str, han: str) -> bool:
    """A cheap filter before the alignment: the Chinese run's first and last characters are each explained by one
    of the English words (translated or sounding alike)."""
    words = _tokens(latin)
    if not words or not han:
        return False
    caps = _capitalised(latin)
    return _explains(words, han, True, caps) and _explains(words, han, False, caps)


def _explains(words: list[str], han: str, first: bool, caps: frozenset[str]) -> bool:
    for k in range(1, min(MAX_RUN, len(han)) + 1):
        run = han[:k] if first else han[-k:]
        for word in words:
            if run in translations(word) or (_sounded(word) and word in caps and sound_alike(word, run) >= SOUND_FROM):
                return True
    return False
