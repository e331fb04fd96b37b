"""A name written in the other script: how passages in Chinese spell a Latin name of the question and the
reverse, by pinyin ("Qingtan City Library" → 青檀, 林登 → "Linden") and by the aliases the passages write in
brackets ("奥克米尔（Oakmere）", "Kestrel Cycles (隼鸟单车)").

A Chinese name romanised in pinyin reads back exactly ("qingtan" = 青檀); a foreign name written in Chinese
characters reads back only roughly ("lindeng" for Linden, "aokemier" for Oakmere), so a near pinyin reading
counts for names of two to four characters, and the bracketed alias a passage gives settles the rest."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable

from rapidfuzz import fuzz

from graphs.text.entity_spotting import _SENTENCE_STARTERS, _TIME_AFTER, placed_words
from graphs.text.name_match import counterpart
from graphs.text.normalize import has_han, normalize, pinyin_variants

NEAR_PINYIN = 90.0
"""rapidfuzz ratio from which a pinyin reading of Chinese characters spells a Latin word of a name."""
MIN_LATIN = 4
"""Latin words shorter than this are never matched by pinyin (too many readings come near)."""

_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")
_LATIN_WORD = re.compile(r"[a-z][a-z'’-]*")
_ALIAS_PREFIX = r"(?:英文名称?|英文|英语|中文名称?|中文|简称|又名|原名|(?i:english name|chinese name|a\.k\.a\.?))?[:：]?\s*"
_HAN_THEN_LATIN = re.compile(rf"([\u3400-\u9fff]{{2,16}})\s*[（(]\s*{_ALIAS_PREFIX}([A-Za-z][\w .&'’-]{{1,60}}?)\s*[)）]")
_LATIN_THEN_HAN = re.compile(rf"((?:[A-Z][\w'’&.-]*[ \t\u00a0]+){{0,5}}[A-Z][\w'’&.-]*)[ \t\u00a0]*[（(]\s*{_ALIAS_PREFIX}"
                             r"([\u3400-\u9fff]{2,16})\s*[)）]")

GENERIC = frozenset([
    "city", "town", "village", "county", "district", "province", "state", "country", "river", "lake", "mountain",
    "mount", "island", "bay", "port", "harbour", "harbor", "library", "museum", "university", "college", "school",
    "hospital", "park", "station", "airport", "bridge", "street", "road", "avenue", "square", "hall", "centre",
    "center", "company", "group", "corporation", "bank", "hotel", "church", "temple", "market", "theatre",
    "theater", "club", "team", "festival", "marathon", "conference", "meeting", "committee", "council", "bureau",
    "office", "department", "ministry", "public", "national", "central", "new", "old", "north", "south", "east",
    "west", "upper", "lower", "great", "little", "international", "people", "republic", "the", "of", "and",
])
"""Words of a Latin name that say what kind of thing it is: translated, never transliterated (City, Library)."""


def han_share(text: str) -> float:
    """Share of Chinese characters among a text's letters."""
    letters = [ch for ch in text if ch.isalpha()]
    return sum(has_han(ch) for ch in letters) / len(letters) if letters else 0.0


_ENGLISH_WORDS = re.compile(r"\b(?:what|who|whom|whose|when|where|which|why|how|is|are|was|were|does|did|do|the|of)\b",
                            re.IGNORECASE)


def written_in_chinese(text: str) -> bool:
    """Whether a question's own words (its names left out) are Chinese: a Chinese character among them, unless they
    are English words with a few Chinese characters between them (under a tenth of the letters: a name the parse did
    not take for one, "the 鹭岩 ferry"). Chinese words hold several letters' worth each: 的 / 是谁 around a Latin
    product name stay Chinese."""
    if not has_han(text):
        return False
    return not (han_share(text) < 0.1 and _ENGLISH_WORDS.search(text) is not None)


def in_script_of_other(name: str, text: str) -> bool:
    """Whether a text is written in the other script than a name: mostly Chinese for a Latin name, under a
    fifth Chinese for a Chinese one (the same cut as a sentence in the other language than a question's)."""
    return han_share(text) < 0.2 if has_han(name) else han_share(text) > 0.5


def aliases(texts: Iterable[str]) -> list[tuple[str, str]]:
    """The (Chinese, Latin) name pairs the texts write one after the other in brackets, folded: "奥克米尔（Oakmere）"
    → ("奥克米尔", "oakmere"); "杭州隼鸟单车有限公司（英文名 Kestrel Cycles）" → (…, "kestrel cycles")."""
    pairs: list[tuple[str, str]] = []
    for text in texts:
        pairs += [(normalize(m[1]), normalize(m[2])) for m in _HAN_THEN_LATIN.finditer(text)]
        pairs += [(normalize(m[2]), normalize(m[1])) for m in _LATIN_THEN_HAN.finditer(text)]
    return list(dict.fromkeys(pairs))


_ORG_SUFFIX = re.compile(r"(?:股份有限公司|有限责任公司|有限公司|公司|集团)$")
_FUNCTION = re.compile(r"[在于的和与是从到为将由把被向位]")
HAN_NAME = 4
"""Characters kept of the Chinese run before a bracketed Latin alias (the name ends the run)."""


def _han_name(run: str, latin: str) -> str:
    """The name that ends a Chinese run written before its alias ``latin``: after the last function character,
    without a company suffix, the ending (2-6 characters) whose reading is nearest the alias, else its last
    ``HAN_NAME`` ("公司在英国布里斯代尔" → "布里斯代尔", "杭州隼鸟单车有限公司" → "隼鸟单车")."""
    core = _ORG_SUFFIX.sub("", run) or run
    core = _FUNCTION.split(core)[-1] or core
    endings = [core[-k:] for k in range(2, min(6, len(core)) + 1)]
    best = max(endings, key=lambda e: (_reading_ratio(e, latin), -len(e)), default=core)
    return best if _reading_ratio(best, latin) >= 50 else core[-HAN_NAME:]


def _alias_of(name: str, pairs: list[tuple[str, str]]) -> str | None:
    """The other-script spelling of a folded name from the bracketed aliases: the Latin of a Chinese name that
    ends the Chinese run ("奥克米尔" in "英国奥克米尔（Oakmere）"), the Chinese of a Latin name."""
    for han, latin in pairs:
        if has_han(name) and len(name) >= 2 and (han.endswith(name) or name in han):
            return latin
        if not has_han(name) and (latin == name or (len(name) >= MIN_LATIN and name in latin.split())):
            return _han_name(han, latin)
    for han, latin in pairs:  # the question's name may hold the alias with more words ("oakmere town")
        if has_han(name) and han in name:
            return latin
        if not has_han(name) and latin in name and len(latin) >= MIN_LATIN:
            return _han_name(han, latin)
    return None


def _distinctive(name: str) -> list[str]:
    """The Latin words of a name that are transliterated, not translated, and the runs they join into
    ("song mingyuan" → "song", "mingyuan", "songmingyuan")."""
    words = [w for w in _LATIN_WORD.findall(name) if w not in GENERIC]
    joined = ["".join(words[i : i + 2]) for i in range(len(words) - 1)]
    return [w for w in [*joined, *words] if len(w) >= MIN_LATIN]


def _han_windows(blob: str) -> set[str]:
    return {run[i : i + k] for run in _HAN_RUN.findall(blob) for k in (2, 3, 4)
            for i in range(len(run) - k + 1)}


@functools.lru_cache(maxsize=65536)
def _char_readings(ch: str) -> tuple[str, ...]:
    """A Chinese character's toneless pinyin readings (its polyphones), cached per character."""
    return pinyin_variants(ch)


def _readings(han: str, limit: int = 8) -> list[str]:
    """A run's pinyin readings, built from its characters' (a window of a passage is read once per character,
    not once per window: thousands of windows per question)."""
    return ["".join(parts) for parts in itertools.islice(itertools.product(*map(_char_readings, han)), limit)]


def char_readings(ch: str) -> tuple[str, ...]:
    """A Chinese character's toneless pinyin readings (its polyphones)."""
    return _char_readings(ch)


def _reads_as(han: str, latin: str) -> bool:
    return _reading_ratio(han, latin) >= NEAR_PINYIN


def other_script(name: str, texts: Iterable[str]) -> str | None:
    """How the texts spell a folded name of the question in the other script, or None: by a bracketed alias
    they write, else by pinyin (a Latin word of the name read as Chinese characters of the texts, or the
    Chinese name read as a Latin word of the texts)."""
    texts = list(texts)
    if (alias := _alias_of(name, aliases(texts))) is not None:
        return alias
    blob = " ".join(normalize(t) for t in texts)
    if (coded := _by_code(name, blob)) is not None:
        return coded
    if has_han(name):
        if not 2 <= len(name) <= 8:
            return None
        latin = _LATIN_WORD.findall(blob)
        # single words, and two in a row: a Chinese person's name is written in two ("Chen Xiaomei")
        words = {w for w in latin if len(w) >= MIN_LATIN and w not in GENERIC}
        words |= {f"{a} {b}" for a, b in itertools.pairwise(latin) if a not in GENERIC and b not in GENERIC}
        # the name's leading characters romanised ("林登" of 林登公共图书馆 → "linden")
        for k in range(min(4, len(name)), 1, -1):
            head = name[:k]
            found = sorted(w for w in words if _reads_as(head, w))
            if found:
                return found[0]
        return _read_across(name, texts)
    windows = _han_windows(blob)
    for word in _distinctive(name):
        scored = [(r, w) for w in windows if (r := _reading_ratio(w, word)) >= NEAR_PINYIN]
        if scored:
            return max(scored, key=lambda rw: (rw[0], len(rw[1]), rw[1]))[1]
    return _read_across(name, texts)


def _read_across(name: str, texts: list[str]) -> str | None:
    """The name as the texts write it by the fitted cross-language name score (``name_match``: a translated
    word, a transliteration, a kind word: "copper kettle" / 铜水壶, 管风琴 / "organ", 马罗比 / "Marrowby"), where
    no alias, code or pinyin reading found it. A name of kind words alone ("city library") names no one thing."""
    if not has_han(name) and all(w in GENERIC for w in _LATIN_WORD.findall(name)):
        return None
    # only the passages written in the other language: a Latin word inside Chinese prose (or the reverse) is no
    # translation of the question's name
    other = "\n".join(t for t in texts if in_script_of_other(name, t))
    reading = counterpart(name, other) if other else None
    return reading.counterpart if reading is not None else None


_CODE = re.compile(r"(?<![a-z0-9])(?=[a-z0-9-]*\d)(?=[a-z0-9-]*[a-z])[a-z0-9][a-z0-9-]{1,9}(?![a-z0-9])")
"""A model code of a folded name: letters and digits in one token ("k7", "x300", "d-12")."""


def _by_code(name: str, blob: str) -> str | None:
    """A product name written with a model code, spelled in the other script before the same code ("Borealis D3"
    / 北岚 D3; 北岚 D3 / "Borealis D3"): the code is written the same in both scripts, the words before it are the
    name's other spelling (a translated name no pinyin reading finds). None without a code, or where the texts
    write the code after no word of the other script."""
    codes = [c for c in _CODE.findall(name) if not c.isdigit()]
    if not codes or name.strip() in codes:
        return None
    for code in codes:
        before = (r"([\u3400-\u9fff]{2,4})\s?" if not has_han(name)
                  else r"((?:[a-z][a-z'’-]+ ){0,2}[a-z][a-z'’-]{2,}) ")
        if (m := re.search(before + re.escape(code) + r"(?![a-z0-9])", blob)) is not None:
            return re.sub(r"^(?:(?:the|a|an|its|our) )+", "", m[0])
    return None


def _reading_ratio(han: str, latin: str) -> float:
    latin = latin.replace(" ", "")
    if not any(r[:1] == latin[:1] for r in _char_readings(han[0])):
        return 0.0  # a reading that starts with another letter is never near enough
    return max((fuzz.ratio(reading, latin) for reading in _readings(han)), default=0.0)


# --- names linked across scripts in a workspace's documents (``graphs.ingest.name_links``)

_LATIN_NAME = r"[A-Z][\w'’&.-]*(?:[ \t\u00a0]+(?:of|and|the|de|&|[A-Z][\w'’&.-]*)){0,6}"
"""A Latin name as written: its words on one line (a heading above a sentence is not part of its first name)."""
_STATED_EN_AFTER_HAN = re.compile(
    r"([\u3400-\u9fff]{2,16})[，,、]?\s*(?:英文名称?|英文名字|英文|英语名称?|外文名)(?:为|是|叫做?)?[:：]?\s*[“\"「]?"
    rf"({_LATIN_NAME})")
_STATED_HAN_AFTER_EN = re.compile(
    rf"({_LATIN_NAME}),?\s+(?:is\s+)?(?:known in Chinese as|called in Chinese|whose Chinese name is|"
    r"(?:in Chinese|Chinese name)[:,]?)\s*[“\"「]?([\u3400-\u9fff]{2,16})")
_AKA_HAN_LATIN = re.compile(rf"([\u3400-\u9fff]{{2,16}})[，,]?\s*(?:又称|又名|亦称|简称|也叫)[:：]?\s*[“\"「]?({_LATIN_NAME})")
_AKA_LATIN_HAN = re.compile(
    rf"({_LATIN_NAME}),?\s+(?:also known as|also called|a\.k\.a\.?|aka)\s+[“\"「]?([\u3400-\u9fff]{{2,16}})")
_LEAD_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_TRAIL_LOWER = re.compile(r"(?:\s+(?:of|and|the|de|&))+$")


def _clean_latin(name: str) -> str:
    return _TRAIL_LOWER.sub("", _LEAD_ARTICLE.sub("", name.strip(" .,'’\"”"))).strip()


def _clean_han(run: str) -> str:
    """The name that ends a Chinese run written next to its other-script name: after the last function
    character ("位于岚溪村的银杉蜂业合作社" → "银杉蜂业合作社")."""
    return (_FUNCTION.split(run)[-1] or run).strip()


_DATE_WORD = re.compile(r"\d|[年月日号]$")
LEAD_CONTEXT = 8
"""Characters before a Chinese run that the tagger reads with it (the year of 2002年 before 年创办…)."""


def _clause_word(word: str, flag: str) -> bool:
    """A word no name holds: a particle (的, 了), a preposition (于, 由, 在), a conjunction, a number or a date
    (2002, the 年 of 2002年, 去年)."""
    return (flag.startswith("u") or flag in ("p", "c") or any(ch.isdigit() for ch in word)
            or (flag[:1] in ("m", "t") and (_DATE_WORD.search(word) is not None or _TIME_AFTER.fullmatch(word) is not None)))


def _predicate(words: list[tuple[int, int, str, str]], i: int) -> bool:
    """Whether the verb ``words[i]`` is a clause's, its object the name after it: right after a word no name
    holds, a pronoun or an adverb (该, 已, 曾), or a person's name, its subject ("于2002年创办…", "由张三创办…",
    "马斯克创办…"). After a place or an organisation, or opening the run, a verb may be part of the name
    (北京创新工场, 美团点评, 招商银行)."""
    if not words[i][3].startswith("v") or words[i][3] == "vn" or i == 0:
        return False
    word, flag = words[i - 1][2], words[i - 1][3]
    return _clause_word(word, flag) or flag in ("r", "d") or flag.startswith("nr")


def _name_before(text: str, start: int, end: int) -> str:
    """The words of the Chinese run ``text[start:end]`` that a name written before its other-script name can
    be: those after the last word no name holds, a number or a date, or a clause's verb ("马斯克于2002年创办太空
    探索技术公司（SpaceX）" → 太空探索技术公司; "由张三创办的李四科技" → 李四科技); the tagger reads the run with
    the characters before it, so that the year before 年 is seen."""
    lead = max(0, start - LEAD_CONTEXT)
    words = placed_words(text[lead:end])
    for i in range(len(words) - 1, -1, -1):
        if lead + words[i][1] <= start:
            break
        # a verb with no name after it is the name's own last word (双柏忌: 忌 tagged a verb)
        if _clause_word(words[i][2], words[i][3]) or (_predicate(words, i) and end - lead - words[i][1] >= 2):
            return text[max(start, lead + words[i][1]) : end]
    return text[start:end]


def _name_after(run: str, whole: bool) -> str | None:
    """The words a Chinese run written after its other-script name opens with, up to the first word no name
    holds ("also known as 北风贸易，…"); ``whole``: the run is a bracket's, a name or a remark, never a name
    and more ("Northwind（创办于上世纪）" is no name). None when nothing is left."""
    words = placed_words(run)
    for i, (begin, _, word, flag) in enumerate(words):
        if _clause_word(word, flag):
            if whole:
                return None
            # a verb right before it is the clause's ("北风贸易成立于…"), unless it is the run's only word
            cut = words[i - 1][0] if i > 1 and words[i - 1][3].startswith("v") and words[i - 1][3] != "vn" else begin
            return run[:cut] or None
    return run


def _latin_before(text: str, start: int, latin: str) -> str:
    """A Latin name written before its other-script name, without what runs into it: a possessor ("Jane
    Smith's Northwind Traders" → "Northwind Traders"), a word capitalised only because it opens the sentence
    ("Yesterday Northwind Traders")."""
    words = latin.split()
    owner = max((i + 1 for i, w in enumerate(words[:-1]) if re.search(r"['’]s?$", w)), default=0)
    words = words[owner:]
    if owner == 0 and re.search(r"(?:^|[.!?。！？\n])\s*$", text[:start]):
        while len(words) > 1 and re.sub(r"['’]s?$", "", words[0].lower()) in _SENTENCE_STARTERS:
            words = words[1:]
    return " ".join(words)


def stated_pairs(text: str) -> list[tuple[str, str]]:
    """The (Chinese, Latin) names a text states to be one, as written: in brackets either way ("明爪（Brightpaw）",
    "Brightpaw (明爪)", "（英文名 Brightpaw）"), by an English-name phrase ("明爪，英文名 Brightpaw", "Brightpaw,
    known in Chinese as 明爪") or an also-called phrase ("又称 …", "also known as …"). Each side is a name, never
    a run of a clause: the Chinese one ends after the last date, number, function word or clause verb before it
    (``_name_before``), a bracket's or a following one is a name whole (``_name_after``), the Latin one without a
    possessor or a sentence's opening word (``_latin_before``)."""
    found: list[tuple[str, str]] = []
    for pattern, han_first, bracketed in (
            (_HAN_THEN_LATIN, True, False), (_STATED_EN_AFTER_HAN, True, False), (_AKA_HAN_LATIN, True, False),
            (_LATIN_THEN_HAN, False, True), (_STATED_HAN_AFTER_EN, False, False), (_AKA_LATIN_HAN, False, False)):
        for m in pattern.finditer(text):
            h, la = (1, 2) if han_first else (2, 1)
            if han_first:
                latin = _clean_latin(m[la])
                run: str | None = _name_before(text, m.start(h), m.end(h))
            else:
                latin = _clean_latin(_latin_before(text, m.start(la), m[la]))
                run = _name_after(m[h], bracketed)
            han = _name_end(_clean_han(run), latin) if run else None
            if han is not None and len(latin) >= 3 and latin[:1].isupper() and not _ACRONYM.fullmatch(latin) \
                    and not han.startswith("第"):
                found.append((han, latin))
    return list(dict.fromkeys(found))


_ACRONYM = re.compile(r"[A-Z0-9&.\s-]{2,8}")
"""An acronym ("ABC", "TSN"): too ambiguous to link a workspace's name by (美国（ABC）is a channel, not the country)."""
_LEAD_WORDS = re.compile(r"^(?:又译|译作|译为|又称|又名|简称|原名|亦称|也叫|即)")
SHORT_NAME = 6
"""Characters up to which a Chinese run written next to a Latin name is taken whole as its name."""


def _name_end(run: str, latin: str) -> str | None:
    """The Chinese name a run written next to ``latin`` ends with, or None when the run reads as more than a
    name: whole when it ends with the ending of the Latin name's kind word or a company suffix (银杉蜂业合作社 for
    "… Cooperative") or is short; else its ending read nearest the Latin in pinyin (英国奥克米尔 → 奥克米尔 for
    "Oakmere"), never inside a person's name the tagger ends it with; else nothing ("一直兼任埃纳省地区首府韦尔万"
    is a clause, not a name)."""
    run = _LEAD_WORDS.sub("", run)
    if len(run) < 2:
        return None
    kind = kind_of(latin)
    if (kind is not None and run.endswith(kind[0])) or (_ORG_SUFFIX.search(run) and len(run) <= 14):
        return run
    latin_key = re.sub(r"[^a-z]", "", latin.lower())
    # endings that open at one of the tagger's words first (加拿大, not 拿大, for "Canadian"), then any other (the
    # tagger splits a transliteration anywhere: 之巴|差铁|巴黛路), never inside a person's name the tagger ends
    # the run with (飞飞 of 李飞飞 for "Fei-Fei Li": the Latin writes the given name first)
    words = placed_words(run)
    starts = {begin for begin, _, _, _ in words}
    last = words[-1] if words and words[-1][3].startswith("nr") and words[-1][1] == len(run) else None
    endings = [run[-k:] for k in range(2, min(6, len(run)) + 1) if last is None or len(run) - k <= last[0]]
    for tier in ([e for e in endings if len(run) - len(e) in starts], endings):
        scored = [(max(fuzz.ratio(r, latin_key) for r in _readings(e)), -len(e), e) for e in tier]
        best = max(scored, default=None)
        if best is not None and best[0] >= 60:
            return best[2]
    return run if len(run) <= SHORT_NAME else None


KIND_SUFFIXES: dict[str, tuple[tuple[str, ...], str]] = {
    # a Latin name's kind word → the Chinese endings that translate it, and the entity type they give
    "village": (("村",), "LOCATION"), "town": (("镇",), "LOCATION"), "city": (("市", "城"), "LOCATION"),
    "county": (("县",), "LOCATION"), "district": (("区",), "LOCATION"), "island": (("岛", "屿"), "LOCATION"),
    "islands": (("群岛", "列岛"), "LOCATION"), "river": (("河", "江"), "LOCATION"),
    "lake": (("湖",), "LOCATION"), "mountain": (("山",), "LOCATION"), "mount": (("山",), "LOCATION"),
    "hill": (("山", "岭"), "LOCATION"), "valley": (("谷",), "LOCATION"), "bay": (("湾",), "LOCATION"),
    "port": (("港",), "LOCATION"), "harbour": (("港",), "LOCATION"), "harbor": (("港",), "LOCATION"),
    "bridge": (("桥",), "LOCATION"), "road": (("路",), "LOCATION"), "street": (("街", "路"), "LOCATION"),
    "lane": (("巷", "路"), "LOCATION"), "avenue": (("大道",), "LOCATION"),
    "park": (("公园",), "LOCATION"), "square": (("广场",), "LOCATION"), "temple": (("寺", "庙"), "LOCATION"),
    "station": (("站",), "LOCATION"), "lighthouse": (("灯塔",), "LOCATION"),
    "concert hall": (("音乐厅",), "ORGANIZATION"), "hall": (("厅", "馆", "堂"), "ORGANIZATION"),
    "museum": (("博物馆",), "ORGANIZATION"), "library": (("图书馆",), "ORGANIZATION"),
    "theatre": (("剧院",), "ORGANIZATION"), "theater": (("剧院",), "ORGANIZATION"),
    "school": (("学校", "小学", "中学"), "ORGANIZATION"), "university": (("大学",), "ORGANIZATION"),
    "college": (("学院",), "ORGANIZATION"), "hospital": (("医院",), "ORGANIZATION"),
    "clinic": (("医院", "诊所"), "ORGANIZATION"), "orchestra": (("乐团", "管弦乐团"), "ORGANIZATION"),
    "choir": (("合唱团",), "ORGANIZATION"), "band": (("乐队",), "ORGANIZATION"),
    "cooperative": (("合作社",), "ORGANIZATION"), "company": (("公司",), "ORGANIZATION"),
    "group": (("集团",), "ORGANIZATION"), "bank": (("银行",), "ORGANIZATION"), "club": (("俱乐部",), "ORGANIZATION"),
    "association": (("协会",), "ORGANIZATION"), "society": (("学会", "协会"), "ORGANIZATION"),
    "factory": (("厂",), "ORGANIZATION"), "farm": (("农场",), "ORGANIZATION"), "hotel": (("酒店", "宾馆"), "ORGANIZATION"),
    "shipping": (("航运",), "ORGANIZATION"), "airlines": (("航空",), "ORGANIZATION"),
    "board": (("委员会", "局"), "ORGANIZATION"), "council": (("委员会", "议会"), "ORGANIZATION"),
    "committee": (("委员会",), "ORGANIZATION"), "authority": (("管理局", "局"), "ORGANIZATION"),
    "agency": (("局", "署"), "ORGANIZATION"), "trust": (("基金会",), "ORGANIZATION"),
    "ltd": (("有限公司",), "ORGANIZATION"), "limited": (("有限公司",), "ORGANIZATION"),
    "infirmary": (("医院",), "ORGANIZATION"), "centre": (("中心",), "LOCATION"), "center": (("中心",), "LOCATION"),
    "church": (("教堂",), "LOCATION"), "cathedral": (("大教堂",), "LOCATION"), "car park": (("停车场",), "LOCATION"),
    "stadium": (("体育场",), "LOCATION"), "airport": (("机场",), "LOCATION"), "pier": (("码头",), "LOCATION"),
    "observatory": (("天文台",), "ORGANIZATION"), "institute": (("研究所", "研究院"), "ORGANIZATION"),
    "academy": (("学院", "研究院"), "ORGANIZATION"), "laboratory": (("实验室",), "ORGANIZATION"),
    "foundry": (("铸造厂", "厂"), "ORGANIZATION"), "brewery": (("酒厂", "酿酒厂"), "ORGANIZATION"),
    "winery": (("酒庄",), "ORGANIZATION"), "gallery": (("美术馆", "画廊"), "ORGANIZATION"),
    "studio": (("工作室",), "ORGANIZATION"), "workshop": (("工坊", "作坊"), "ORGANIZATION"),
    "zoo": (("动物园",), "ORGANIZATION"), "aquarium": (("水族馆",), "ORGANIZATION"),
    "gym": (("健身房", "健身馆", "攀岩馆"), "ORGANIZATION"), "pool": (("游泳馆", "泳池"), "LOCATION"),
    "castle": (("城堡",), "LOCATION"), "abbey": (("修道院",), "LOCATION"), "monastery": (("修道院", "寺"), "LOCATION"),
    "pagoda": (("塔",), "LOCATION"), "market": (("市场",), "LOCATION"),
}
"""Kind words of a name that are translated, never transliterated (Lanxi Village = 岚溪村, Morningstar Youth
Orchestra = 晨星青年管弦乐团): a general word list, not a list of names."""

_TITLE_RUN = re.compile(r"(?<![\w'’])(?:[A-Z][a-z'’]+(?:-[A-Z]?[a-z]+)?[^\S\r\n]+){0,4}[A-Z][a-z'’]+(?:-[A-Z]?[a-z]+)?")


def kind_of(latin: str) -> tuple[tuple[str, ...], str] | None:
    """The Chinese endings and entity type of a Latin name's last kind word(s), or None ("Yuntai Concert Hall" →
    (("音乐厅",), ORGANIZATION))."""
    words = latin.lower().split()
    for n in (2, 1):
        if len(words) > n and (tail := " ".join(words[-n:])) in KIND_SUFFIXES:
            return KIND_SUFFIXES[tail]
    return None


def latin_names(text: str) -> list[str]:
    """Capitalised runs of a text that read as names (not a sentence's first word alone): "Lanxi Village",
    "Anna Kovac", "Morningstar Youth Orchestra"."""
    out = []
    for m in _TITLE_RUN.finditer(text):
        name = _clean_latin(m[0])
        before = text[: m.start()].rstrip()
        sentence_start = not before or before[-1] in ".!?\n:;"
        if len(name.split()) == 1 and (sentence_start or name.lower() in GENERIC):
            continue
        out.append(name)
    return list(dict.fromkeys(out))


def distinctive_reading(latin: str) -> str:
    """The transliterated part of a Latin name, joined and folded ("Yuntai Concert Hall" → "yuntai", "He Jing"
    → "hejing"); "" when a kind word is followed by more name."""
    words = [w for w in _LATIN_WORD.findall(normalize(latin))]
    kind = kind_of(latin)
    if kind is not None:
        cut = len(latin.split()) - (2 if " ".join(latin.lower().split()[-2:]) in KIND_SUFFIXES else 1)
        words = words[:cut]
    if any(w in GENERIC for w in words):
        return ""
    return "".join(w.replace("'", "").replace("’", "").replace("-", "") for w in words)


def readings_of(han: str) -> set[str]:
    """The pinyin readings of some Chinese characters, joined (at most 16: their polyphones)."""
    return set(_readings(han, 16))


def reads_exactly(han: str, reading: str) -> bool:
    """Whether some pinyin reading of the characters is the Latin reading itself."""
    return bool(reading) and reading in readings_of(han)
