"""The question as the answer layer reads it: the kind of answer it asks for, its weighted terms, the entities it
names (each with the spellings that count as mentioning it, a misspelled name taken as the passages spell it),
the years and codes it names, and what the passages say their names are."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from graphs.domain import Answerability, Hit, ParsedQuery, ValidatedEntity
from graphs.kg.mentions import strip_disambiguation
from graphs.rag.answer.attributes import asked_attribute, stated_at
from graphs.rag.answer.chains import described_slots
from graphs.text.answer_types import AnswerType, focus_terms, question_word
from graphs.text.bilingual import translations
from graphs.text.dates import Shift, deadline_forms, month_word, shift_of, shifted_year, sole_date, year_words
from graphs.text.entity_spotting import possessor, tagged_words
from graphs.text.name_match import spelled_across
from graphs.text.normalize import file_subject, has_han, normalize, pinyin_variants, without_names
from graphs.text.scripts import GENERIC, KIND_SUFFIXES, in_script_of_other, other_script, written_in_chinese
from graphs.text.short_forms import defined, short_forms
from graphs.text.short_forms import key as short_key
from graphs.text.terms import asker_terms, content_terms, dictionary_word, term_weight, weighted_coverage

if TYPE_CHECKING:
    from graphs.rag.answer.evidence import Evidence

EVIDENCE_PASSAGES = 5
"""Passages read for evidence (the top of the ranking)."""


@dataclass(frozen=True)
class Question:
    """What the writer needs of the question: its kind of answer, weighted terms and named entities."""

    text: str
    kind: AnswerType
    weights: dict[str, float]
    anchors: list[tuple[str, ...]] = field(default_factory=list)
    """Entities the question names, each with the spellings that count as mentioning it: the passages must
    mention every one of them."""
    weak: list[str] = field(default_factory=list)
    """Single capitalised words the rules took for names ("British", "Oahu"): weighted, not required."""
    names: list[str] = field(default_factory=list)
    """How the question writes its entities (for comparisons and yes/no questions about two of them)."""

    focus: dict[str, float] = field(default_factory=dict)
    """The asked relation's terms next to the question word ("headquartered in what city"): the sentence that
    answers states them."""
    years: tuple[str, ...] = ()
    """Years the question names ("2024年苹果…"): the answering evidence must be of that year."""
    relative: tuple[tuple[str, Shift, int], ...] = ()
    """Times the question names by their distance from now (今年, 去年, "last year", 上个月): the word, its
    distance, and the year it names counted from today. ``about`` reads them against the retrieved documents' own
    date (a year-end report's 今年 is its year, not the calendar's), from today only where no document is dated."""
    year_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A year read from a relative word → the words that state it the same way in a passage written that year
    (去年 / "last year" for the year before the document's): they state that year as its number does."""
    year_reading: tuple[str, ...] = ()
    """How each relative word was read, for the reason ("'今年' is read as 2025, the year of its document")."""
    subjects: tuple[str, ...] = ()
    """Titles of retrieved passages that the question writes out (乍都节公园): their words name the
    subject, whatever the word split made of them (乍都 / 节 / 公园)."""
    nested: bool = False
    """A bridge question: what is asked is of an entity the question only describes ("the town where the X300
    is assembled", "X的创始人的妻子"); the first passage names it, a second states what is asked."""
    misspelled: dict[str, str] = field(default_factory=dict)
    """A name as the question spells it → how the retrieved passages spell it, where no passage spells it
    the question's way ("aquapur x300" → "aquapure x300"): a misspelled name is not a missing one."""
    types: dict[str, str] = field(default_factory=dict)
    """What the passages say their names are (folded name → PERSON, LOCATION …): their tags, and what a
    passage's opening sentence says its title is ("M. Ward … is an American singer-songwriter")."""
    columns: dict[str, float] = field(default_factory=dict)
    """Labels of the retrieved tables and field blocks that stand out in meaning as what the question asks (e5:
    the question less its names against each label), by how far each stands above the next label of its table
    (``evidence.columns_by_meaning``): 保质期至 for "when does … expire", "Day rate" for "for a whole day"."""
    rows: dict[str, float] = field(default_factory=dict)
    """Row keys of the retrieved tables, written in the other language than the question's, that stand out in
    meaning as the question's subject, by how far each stands above the next key of its table: 罐头午餐肉 for "canned
    luncheon meat", "E-bike" for 电动自行车 (a key in the question's own language is matched by its words)."""

    @functools.cached_property
    def codes(self) -> tuple[str, ...]:
        """Codes the question names ("E3", "Q7", "X300"): a sentence that answers states the same code, not a
        neighbour of it ("what does E3 mean" is not answered by the E1 line)."""
        return tuple(dict.fromkeys(m[0].casefold() for m in CODE.finditer(self.text)))

    @functools.cached_property
    def chinese(self) -> bool:
        """Whether the question is asked in Chinese: by its own words, the names it writes left out. An English
        question that writes a Chinese name ("How tall is the 鹭岩塔 (Heron Rock Tower)?") is English, its passages
        in Chinese are in the other language; a few Chinese characters the parse did not take for a name, among
        English words, are a name too (``written_in_chinese``)."""
        forms = {f for forms in self.anchors for f in forms if f} | {normalize(n) for n in self.names}
        return written_in_chinese(without_names(normalize(self.text), forms))

    @property
    def relation(self) -> dict[str, float]:
        """The terms that are not names: what is asked about them ("founded", "面积")."""
        named = {forms[0] for forms in self.anchors}
        asked = {t: w for t, w in self.weights.items()
                 if t not in named and not any(t in subject for subject in self.subjects)}
        return asked or self.weights

    @functools.cached_property
    def spellings(self) -> dict[str, tuple[str, ...]]:
        """Each named entity's term and the spellings that count as it (the question's, its standard name); an
        extreme's term ("highest", 最高) and the words of the same bound in either language (``extreme_forms``);
        a term the word table of ``name_match`` translates, its words in the other language (kettle: 水壶), which only
        a passage in that language writes."""
        return {**{t: (t, *across) for t in self.weights if (across := spelled_across(t))},
                **{t: forms for t in self.weights if (forms := extreme_forms(t) or deadline_forms(t))},
                **{forms[0]: forms for forms in self.anchors}}

    @functools.cached_property
    def crossed_spellings(self) -> dict[str, tuple[str, ...]]:
        """``spellings`` and each term's words in the other language by the general dictionary (``bilingual``:
        checkout: 退房, 洗衣店: laundry): how a sentence in the other language writes the question's words."""
        return {**{t: tuple(dict.fromkeys((*self.spellings.get(t, (t,)), *words))) for t in self.weights
                   if (words := translations(t))}, **{forms[0]: forms for forms in self.anchors}}

    def coverage(self, text: str) -> float:
        """Weighted share of the question's terms in a folded text, each named entity under any of its spellings."""
        return weighted_coverage(self.weights, text, self.spellings)

    def about(self, hits: Sequence[Hit]) -> Question:
        """The question with the titles of these passages that it writes out as its subjects, which the
        evidence must then mention like the entities it names."""
        folded = normalize(self.text)
        titles = dict.fromkeys(normalize(strip_disambiguation(h.title)) for h in hits)
        subjects = tuple(t for t in titles if len(t) >= 2 and t in folded)
        named = [f for forms in self.anchors for f in forms]
        extra = [(t,) for t in subjects if not any(t in f for f in named)]
        blob = " ".join(f"{normalize(h.title)} {file_words(h)} {normalize(h.text)} {tagged(h)}"
                        for h in hits[:EVIDENCE_PASSAGES])
        anchors, misspelled = [], dict(self.misspelled)
        apart: dict[str, tuple[str, ...]] = {}
        # the file's name read with its passage: "Hongyuan Bank" is read in 鸿源银行 of the letter's file name
        texts = [f"{h.title}\n{h.text}" + (f"\n{in_name}" if (in_name := file_words(h)) else "")
                 for h in hits[:EVIDENCE_PASSAGES]]
        folded_texts = functools.cache(lambda: [normalize(t) for t in texts])  # folded once, and only if asked
        for forms in [*self.anchors, *extra]:
            if not any(f in blob for f in forms) and (pieces := (
                    words if (words := common_words(forms[0])) is not None
                    and any(all(w in t for w in words) for t in folded_texts())
                    else next((p for t in folded_texts() if (p := written_apart(forms[0], t))), None))):
                # common words the parse joined into a name (果园竞标, 骑行社学生社员) that one passage writes apart
                # ("集体果园 … 公开竞标", "本骑行社 … 学生社员80元"): the question's wording, no name the passages must
                # spell as one run; its words are the question's terms (学生社员 names the item of a price list)
                apart[forms[0]] = pieces
                continue
            if not any(f in blob for f in forms) and (head := mentioned_head(forms[0], blob)) is not None:
                # a Chinese opening phrase that runs on into the relation ("隼鸟单车自有工厂所在的镇"): the name
                # is its leading part that the passages write ("隼鸟单车")
                forms = (*forms, head)
            # a name mentioned only word by word ("qingtan city library" by "city" and "library" of other
            # names) is not spelled out: its near or other-script spelling is looked for too
            if not any(f in blob for f in forms) and (near := shortened_of(forms[0], names_of(hits), blob)
                                               or addressed(forms[0], blob)
                                               or near_spelling(forms[0], blob)
                                               or other_script(forms[0], texts)) is not None:
                # shortened ("银杉合作社" for 银杉蜂业合作社), a person called by title and surname ("Dr Castel"),
                # misspelled, or written in the other script
                # ("Qingtan City Library" / 青檀市图书馆)
                misspelled[forms[0]] = near
                forms = (*forms, near)
            elif (crossed := [t for t in texts if in_script_of_other(forms[0], t)]) and not any(
                    f in normalize(t) for t in crossed for f in forms) and (
                    other := other_script(forms[0], crossed)) is not None:
                # written as asked in some passages and in the other script in others ("Shimen Island" in the
                # English guide, 石门岛 in the Chinese notes): both spellings are the name
                forms = (*forms, other)
            if not any(f in blob for f in forms if has_han(f) == has_han(forms[0])) \
                    and (near := near_spelling(forms[0], blob)) is not None and near not in forms:
                # found only under another script's alias (奥克米尔 of the entity store for "Oakmeer"): the
                # passages that spell it in the question's script ("Oakmere is …") mention it too
                misspelled[forms[0]] = near
                forms = (*forms, near)
            anchors.append(forms)
        anchors = _short_formed(self.text, anchors, hits[:EVIDENCE_PASSAGES], blob)
        weak = []
        for word in self.weak:
            # a single capitalised word no passage spells but one spells almost so ("Oakmeer" / Oakmere) is a
            # misspelled name: the passages must mention it, as they spell it
            if word not in blob and (near := near_spelling(word, blob)) is not None:
                misspelled[word] = near
                anchors.append((word, near))
            elif word not in blob and (written := other_script(word, texts)) is not None \
                    and has_han(written) != has_han(word):
                # one the passages write only in the other script ("Longjing" / 龙井, a tea a Chinese price list
                # names): a name, which the passages must mention, as they spell it
                misspelled[word] = written
                anchors.append((word, written))
            else:
                weak.append(word)
        weights = {t: w for t, w in self.weights.items() if t not in apart} | {
            p: term_weight(p) for pieces in apart.values() for p in pieces if p not in self.weights} \
            if apart else self.weights
        return replace(self, subjects=subjects, anchors=anchors, weak=weak, types=name_types(hits),
                       misspelled=misspelled, weights=weights)._dated(hits[:EVIDENCE_PASSAGES], anchors)

    def _dated(self, hits: Sequence[Hit], anchors: Sequence[tuple[str, ...]]) -> Question:
        """The question's relative times (今年, "last year") read as years against the date of the documents
        that answer (``document_date``: of those that mention every name the question names, where any does), or
        against today where none is dated; and how each was read."""
        if not self.relative:
            return self
        about = [h for h in hits if all(any(f in normalize(f"{h.title} {h.text}") for f in forms) for forms in anchors)]
        written = document_date(about or hits)
        years, said, reading = list(self.years), dict(self.year_words), list(self.year_reading)
        for word, shift, from_today in self.relative:
            year = shifted_year(shift, written) if written is not None else None
            if year is None or written is None:
                year = from_today
                reading.append(f"{word!r} is read as {year}, from today's date: no retrieved document is dated")
            else:
                reading.append(f"{word!r} is read as {year}, from the date of its document ({_date_label(written)})")
            years.append(str(year))
            if shift.unit == "year":
                said[str(year)] = tuple(dict.fromkeys([*said.get(str(year), ()), *year_words(shift.by)]))
        return replace(self, years=tuple(dict.fromkeys(years)), year_words=said, year_reading=tuple(reading),
                       relative=())


def document_date(hits: Sequence[Hit]) -> int | None:
    """The date the retrieved documents are written on (YYYYMMDD), for reading a question's 今年 or "last year":
    the first passage's that dates it to a day or a month (a header's date, a dateline: what a passage without a
    date of its own is stored with), else the first passage's year where it writes no other (``sole_date``: the
    first of several years a passage states, 1953年建乡 before 2001年撤乡, is no date of the page); None when none
    is dated."""
    dated = [d for h in hits if (d := sole_date(h.date, h.text))]
    precise = [d for d in dated if d % 10000 != 101]
    return precise[0] if precise else dated[0] if dated else None


def _date_label(value: int) -> str:
    year, month, day = value // 10000, value // 100 % 100, value % 100
    if month == 1 and day == 1:
        return f"{year}"
    return f"{year}-{month:02d}" if day == 1 else f"{year}-{month:02d}-{day:02d}"


_ROMAN = re.compile(r"[IVXLCDM]+")


def _short_formed(text: str, anchors: list[tuple[str, ...]], hits: Sequence[Hit], blob: str
                  ) -> list[tuple[str, ...]]:
    """The anchors with the question's short forms ("When was the MSRA founded?", "the TFA") as names the
    passages must mention, each with the full name a passage defines it for ("The Maravian Space Research Agency
    (MSRA)") or whose initials it is (a passage titled "Tollish Football Association"); a short form no passage
    writes nor defines is left as the question's parse had it (no new refusal for "U.S." over "American")."""
    out = list(anchors)
    if has_han(text):
        # a Chinese question keeps a Latin short form as one of its terms ("RCEP生效时间"): made its subject, a
        # dated line of another language that names it answered an RGB question whose passage was removed
        return out
    for short in short_forms(text):
        k = short_key(short)
        if len(k.replace("&", "")) < 2 or _ROMAN.fullmatch(short) or any(
                k != f and re.search(rf"(?<![\w]){re.escape(k)}(?![\w])", f) for forms in out for f in forms):
            continue  # a regnal or generational numeral ("O'Neal, III"), or a word of a name the question names
        fulls = [full for h in hits for sk, full in defined(h.text, strip_disambiguation(h.title)).items() if sk == k]
        at = next((i for i, forms in enumerate(out) if k in forms or normalize(short) in forms), None)
        if at is None and not fulls and re.search(rf"(?<![\w]){re.escape(k)}(?![\w])", blob) is None:
            continue
        forms = out[at] if at is not None else (k,)
        forms = tuple(dict.fromkeys([*forms, *fulls]))
        if at is None:
            out.append(forms)
        else:
            out[at] = forms
    return out


_KIND_WORDS = {
    "PERSON": r"actor|actress|singer|songwriter|singer-songwriter|musician|politician|writer|author|novelist|"
              r"director|filmmaker|player|footballer|rapper|poet|painter|composer|producer|journalist|"
              r"businessman|businesswoman|scientist|engineer|lawyer|coach|comedian|model|artist|king|queen|"
              r"prince|princess|saint|bishop|general|officer|athlete|guitarist|drummer|dancer|presenter",
    "LOCATION": r"city|town|village|county|state|country|province|region|district|municipality|borough|suburb|"
                r"island|river|lake|mountain|capital|neighbou?rhood|commune|parish|peninsula|valley",
    "ORGANIZATION": r"company|corporation|band|group|university|college|school|club|team|organi[sz]ation|label|"
                    r"airline|manufacturer|network|channel|newspaper|magazine|agency|party|firm|brand",
}
_LEAD_EN = [(etype, re.compile(rf"^[^.]{{0,200}}?\b(?:is|was|are|were)\s+(?:a|an|the|one of the)\s+"
                               rf"(?:[\w'-]+\s+){{0,5}}?(?:{words})\b", re.IGNORECASE))
            for etype, words in _KIND_WORDS.items()]
_BORN = re.compile(r"^[^.]{0,120}?\((?:born|b\.|né|née)\b|^[^。]{2,12}[（(]\d{4}年")
_LEAD_ZH = [("PERSON", re.compile(r"^[^。]{0,30}?是[^。]{0,20}?(?:演员|歌手|作家|导演|政治家|运动员|科学家|画家|诗人|"
                                  r"企业家|音乐家|主持人|教练)")),
            ("LOCATION", re.compile(r"^[^。]{0,30}?是[^。]{0,20}?(?:城市|县|镇|乡|村|省|自治区|国家|地区|首都|河流|山)")),
            ("ORGANIZATION", re.compile(r"^[^。]{0,30}?是[^。]{0,20}?(?:公司|企业|集团|大学|学院|机构|组织|乐队|球队|银行)"))]


def lead_type(text: str) -> str | None:
    """What a passage's opening sentence says its subject is: a person ("(born 1963)", "is an American
    singer"), a place ("is a town in …"), an organization ("is a company …"), or None."""
    head = text.lstrip()[:300]
    if _BORN.search(head):
        return "PERSON"
    found = [(m.end(), etype) for etype, pattern in (*_LEAD_EN, *_LEAD_ZH) if (m := pattern.search(head))]
    return min(found)[1] if found else None


def name_types(hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES) -> dict[str, str]:
    """Folded name → entity type, from what the top passages' openings say their titles are, then their tags."""
    out: dict[str, str] = {}
    for hit in hits[:limit]:
        title = normalize(strip_disambiguation(hit.title))
        if title and (etype := lead_type(hit.text)) is not None:
            out.setdefault(title, etype)
    for hit in hits[:limit]:
        for etype, names in hit.entities.items():
            for name in names:
                out.setdefault(normalize(name), etype)
    return out


CODE = re.compile(r"(?<![A-Za-z0-9])(?:[A-Za-z]{1,3}-?\d{1,4}[A-Za-z]?|[A-Za-z][a-z]{2,9}-\d{1,4})(?![A-Za-z0-9-])")
"""A code: a few letters and digits ("E3", "Q7", "X300", "A-10"), or a capitalised word, a hyphen and a number
("Orla-3", "Sentinel-2": the third of a series; "Orla-5" is another satellite, not a misspelling of it)."""
CODE_PENALTY = 0.6
"""What evidence loses for not stating a code the question names."""


def states_codes(codes: Sequence[str], text: str) -> bool:
    """Whether a text states every code, as a whole token ("E3" is not in "E30")."""
    found = {m[0].casefold() for m in CODE.finditer(text)}
    return all(c in found for c in codes)


_UPPER = ("highest", "maximum", "max", "max.", "upper limit", "up to", "at most", "最高", "最大", "上限", "不超过")
_LOWER = ("lowest", "minimum", "min", "min.", "lower limit", "at least", "最低", "最小", "下限", "不低于")
_EXTREMES = (_UPPER, _LOWER)
"""The words of an upper and a lower bound, Chinese and English: a question's extreme is stated by any word of its
own bound ("the highest temperature you can program" by "Maximum programmable temperature: 1,320 °C", 最高 by
"max."), never by the other's."""


def extreme_forms(term: str) -> tuple[str, ...]:
    """The words of the bound a question's term asks (``_EXTREMES``), the term first; () for any other term."""
    bound = next((b for b in _EXTREMES if term in b), None)
    return () if bound is None else (term, *(f for f in bound if f != term and (len(f) > 3 or has_han(f))))


def other_bound(q: Question, text: str) -> bool:
    """Whether a folded sentence states only the other bound than the one the question asks (最高热风温度 for
    最低热风温度, "Maximum load" for "the lowest load"): its value is that bound's, not the asked one's."""
    asked = [b for b in _EXTREMES if any(t in b for t in q.weights)]
    if len(asked) != 1:
        return False
    other = next(b for b in _EXTREMES if b is not asked[0])
    return _states_bound(other, text) and not _states_bound(asked[0], text)


def _states_bound(bound: tuple[str, ...], text: str) -> bool:
    return any((w in text) if has_han(w) else re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", text) is not None
               for w in bound)


def question_of(text: str, kind: AnswerType, parsed: ParsedQuery, entities: Sequence[ValidatedEntity]) -> Question:
    """Weighted terms (keywords; entity names count more) and anchors (entities, each with its spellings)."""
    anchors: dict[str, tuple[str, ...]] = {}
    years: list[str] = []
    weak: list[str] = []
    names: list[str] = []

    def known(key: str) -> bool:
        return any(key in forms for forms in anchors.values()) or key in weak

    relative: list[tuple[str, Shift, int]] = []
    own = asker_terms(text)  # "I'm 22", 我今年20岁: the asker's circumstances, nothing a passage must state
    for e in entities:
        if normalize(e.text) in own:
            continue
        if e.type == "DATE" and e.date_range is not None and (shift := shift_of(e.text)) is not None:
            # 今年, "last year": which year is read against the documents' date (``about``), not fixed here
            relative.append((e.text, shift, e.date_range.start // 10000))
        elif e.type == "DATE" and e.date_range is not None and e.date_range.start // 10000 == e.date_range.end // 10000:
            years.append(str(e.date_range.start // 10000))  # a year the question names ("2024年", "in March 2024")
        elif e.type != "DATE" and e.valid:
            forms = tuple(dict.fromkeys(normalize(f) for f in (e.text, e.standard_name or "") if f and normalize(f)))
            if forms:
                anchors.setdefault(forms[0], forms)
                names.append(e.text)
    for pe in parsed.entities:
        key = normalize(pe.text)
        if pe.type == "DATE" or not key or known(key) or key in own:
            continue
        names.append(pe.text)
        if pe.source == "title_case" and len(key.split()) < 2:
            weak.append(key)
        else:
            anchors.setdefault(key, (key,))
    owner = possessor(text)
    # a date the question names inside its opening phrase ("2025年松风图书馆", "X协会2025年春季赛") is the question's
    # year, not part of a name: the phrase's names are the parts around it
    dates = sorted({pe.text for pe in parsed.entities if pe.type == "DATE" and pe.text}, key=len, reverse=True)
    owners = [p for p in re.split("|".join(map(re.escape, dates)), owner) if p] if owner and dates else [owner]
    for owner in owners:
        if (owner is not None and has_han(owner) and len(owner) >= 2 and not dictionary_word(owner)
                and not any(owner in n or n in owner for n in names)):
            # a Chinese question's opening phrase that no dictionary knows as one word is a name the passages
            # must mention ("拼多多的创始人是谁": a passage about 百度's founder does not answer it)
            anchors.setdefault(normalize(owner), (normalize(owner),))
            names.append(owner)
    for quoted in _QUOTED.findall(text):  # a title the question quotes is a name ("They Flew Alone")
        key = normalize(quoted)
        if len(key) >= 2 and not known(key):
            anchors.setdefault(key, (key,))
            names.append(quoted)
    # the head noun of a description (那家玻璃厂所在的小镇) is the kind of the entity the first hop fills in, not a
    # name the passages must write: a term, never an anchor
    for slot in described_slots(text):
        anchors.pop(normalize(slot), None)
    # a month is weighed as the passages write it: "八月份" is stated by 2024年8月16日 (``month_word``)
    terms = [f"{month}月" if (month := month_word(k, text)) is not None else normalize(k) for k in parsed.keywords]
    # what a passage must speak of: content words, not light verbs (达到, "got") nor the asker's own circumstances
    terms = content_terms(text, [t for t in terms if t])
    weights = {t: term_weight(t) for t in terms}
    for key in [*(forms[0] for forms in anchors.values()), *weak]:
        weights[key] = term_weight(key, anchor=True)
    # a keyword inside a name ("nolan" in "christopher nolan") is counted with it, not twice
    named = [*anchors, *weak]
    weights = {t: w for t, w in weights.items() if t in named or not any(t in a and t != a for a in named)}
    relation = {t: w for t, w in weights.items() if t not in anchors and t not in weak}
    features = parsed.complexity_features
    nested = features.get("bridge", 0) > 0 or features.get("nesting", 0) > 0
    focus = {t: relation[t] for t in focus_terms(normalize(text), relation)}
    if not nested:  # a bridge's words after the noun describe the entity the first hop fills, not the asked act
        focus = _asked_act(normalize(text), kind, focus, relation)
    return Question(text=text, kind=kind, weights=weights, anchors=list(anchors.values()), weak=weak,
                    names=list(dict.fromkeys(names)), focus=focus, years=tuple(dict.fromkeys(years)),
                    relative=tuple(relative),
                    nested=nested)


_HEAD_GAP = re.compile(r"^\s*(?:[个家所位座支条名间]\s*)?$")
"""What may stand between a question word and the noun it asks for: a space, a Chinese measure word (哪家公司)."""


def _asked_act(text: str, kind: AnswerType, focus: dict[str, float], relation: Mapping[str, float]
               ) -> dict[str, float]:
    """The focus of a name question whose question word asks for a noun ("which firm will rebuild …", 哪家公司收购了
    …): the noun says what kind of name answers, and what the question says after it (the act asked, whatever
    the order of its words: "which infirmary were the climbers flown to") is focus too: the sentence that answers
    states it ("chose Marsh & Finch to rebuild", 华窑集团收购了) where a sentence listing the firms only names the
    noun, which weighs half as much."""
    where = question_word(text)
    if kind not in ("person", "organization", "place") or where is None:
        return focus
    folded = text.casefold()
    out = dict(focus)
    for term in focus:
        at = folded.find(term, where[0])
        if at < 0 or not _HEAD_GAP.match(folded[where[1] : at]):
            continue
        later = [t for t in relation if t != term and folded.find(t, at + len(term)) >= 0]
        if later:  # the noun stays: "on the River Lisk" writes it
            out[term] = focus[term] / 2
            out.update({t: relation[t] for t in later})
    return out


_QUOTED = re.compile(r"[\"“《「『]([^\"”》」』]{2,80})[\"”》」』]")
_MINOR = frozenset(["of", "the", "a", "an", "and", "de", "la", "le", "van", "von", "der", "den", "du", "des", "di", "da", "del", "y", "al", "bin", "ibn", "in", "on", "at", "for", "to"])


def mentioned(forms: tuple[str, ...], blob: str) -> bool:
    """Whether a folded text mentions a name: one of its spellings, or every word of a name of three words
    or more (a title-case run may carry a neighbouring word: "Besides Little Rock", "Queensland Senator")
    but one."""
    if any(f in blob for f in forms):
        return True
    if any(titled_apart(f, blob) for f in forms):
        return True
    # every spelling of it, the one the passages write too ("Corvell Valley Choir Festival" taken as "Corvel …":
    # a page titled "corvel choir festival" writes all its words but one)
    for form in forms:
        words = [w for w in form.split() if w not in _MINOR]
        if len(words) >= 3 and sum(w in blob for w in words) >= len(words) - 1:
            return True
    return by_code(forms[0], blob) or reordered(forms[0], blob)


_TITLE = re.compile(r"《([^《》]{1,40})》")


def titled_apart(name: str, blob: str) -> bool:
    """Whether a folded text writes a name made of a 《title》 and words beside it (《北纬三十度》修复版, 修复版《北纬三十
    度》, 《雾港来信》英文版) as the title and those words apart: the text's "4K修复版《北纬三十度》" names it."""
    m = _TITLE.search(name)
    if m is None or m[0] == name.strip() or m[0] not in blob:
        return False
    rest = [part for part in (name[: m.start()].strip(), name[m.end():].strip()) if part]
    return all(part in blob for part in rest)


def reordered(name: str, blob: str) -> bool:
    """Whether a folded text writes a Latin name with a generic word (lake, club, museum: ``scripts.GENERIC``)
    in another word order: its words, each once, as one run ("orrin lake rescue" names "lake orrin"; "museum of
    canal history" is not "canal history museum": the words must be adjacent)."""
    words = name.split()
    if not 2 <= len(words) <= 4 or len(set(words)) != len(words) or not any(w in GENERIC for w in words):
        return False
    pattern = r"(?<![\w-])(?:" + "|".join(map(re.escape, words)) + r")(?:\s+(?:" + "|".join(
        map(re.escape, words)) + r")){" + str(len(words) - 1) + r"}(?![\w-])"
    return any(set(m.group().split()) == set(words) for m in re.finditer(pattern, blob))


_MODEL_CODE = re.compile(r"(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{2,}")
_CODE_LEAD = frozenset({"the", "its", "this", "that", "each", "every", "our", "their", "a", "an", "该", "其"})


def by_code(name: str, blob: str) -> bool:
    """Whether a folded text names a product by the model code of its name alone, as a passage does after its
    first full mention ("The Tidewren P2 is …. The P2 is assembled in …"): the name's one code (letters and
    digits), written as a word at a sentence's start or after a determiner, never after another word ("the
    Aquafin P2" names another maker's P2)."""
    words = name.split()
    codes = [w for w in words if _MODEL_CODE.fullmatch(w)]
    if len(words) < 2 or len(codes) != 1:
        return False
    for m in re.finditer(rf"(?<![\w-]){re.escape(codes[0])}(?![\w-])", blob):
        before = blob[: m.start()].split()
        lead = before[-1] if before else ""
        if not lead or lead in _CODE_LEAD or lead[-1] in ".;:!?。；：！？\n" or (
                len(before) >= 2 and lead in ("the", "its") and before[-2][-1:] in ".;:!?"):
            return True
    return False


HEAD_CHARS = 4
"""Characters a Chinese name's leading part must have to stand for the whole phrase."""


def mentioned_head(name: str, blob: str) -> str | None:
    """The longest leading part (``HEAD_CHARS`` characters or more, not a dictionary word, shorter than the
    phrase) of a Chinese phrase taken for a name that a folded text writes; None for a Latin name or when the
    text writes none."""
    if not _HAN_RUN.fullmatch(name) or len(name) <= HEAD_CHARS:
        return None
    for k in range(len(name) - 1, HEAD_CHARS - 1, -1):
        head = name[:k]
        if head in blob and not dictionary_word(head):
            return head
    return None


NEAR_LATIN = 85.0
"""rapidfuzz ratio from which a Latin name of the passages is the question's name misspelled."""
NEAR_TIE = 1.0
"""rapidfuzz points within which two different near spellings leave a misspelled name undecided."""
_TOKEN = re.compile(r"[\w'’&.-]+")
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")


def homophones(a: str, b: str) -> bool:
    """Whether two Chinese characters share a toneless reading (琴 / 芹: qin)."""
    return bool(set(pinyin_variants(a)) & set(pinyin_variants(b)))


def near_spelling(name: str, blob: str) -> str | None:
    """How a folded text spells a name it does not spell the question's way: a run of as many words (±1) that
    rapidfuzz finds at least ``NEAR_LATIN`` alike (names of 6 letters or more), or, for a Chinese name of 4
    characters or more, one that differs in a single character (阿里巴吧 / 阿里巴巴), of 3 characters, in a
    single homophone (周雅芹 / 周雅琴). None when none is near."""
    if has_han(name):
        if len(name) < 3 or not _HAN_RUN.fullmatch(name):
            return None
        for run in _HAN_RUN.findall(blob):
            for i in range(len(run) - len(name) + 1):
                window = run[i : i + len(name)]
                off = [(a, b) for a, b in zip(window, name, strict=True) if a != b]
                # one character off: any in a name of 4 or more; in a 3-character name only a homophone, the
                # slip of a pinyin input method (周雅芹 / 周雅琴), since many 3-character names differ by one
                if len(off) == 1 and (len(name) >= 4 or homophones(*off[0])):
                    return window
        return None
    if len(name.replace(" ", "")) < 6:
        return None
    words = [w.strip(".'’-") for w in _TOKEN.findall(blob)]
    size = len(name.split())
    windows = {" ".join(words[i : i + k]) for k in (size - 1, size, size + 1) if k >= 1
               for i in range(len(words) - k + 1)}
    # a model code's digits are not misspelled but another model ("Aeroclean A530" is not the A350): a near
    # spelling keeps the name's digits as they are
    digits = re.findall(r"\d+", name)
    windows = {w for w in windows if re.findall(r"\d+", w) == digits}
    found = process.extract(name, windows, scorer=fuzz.ratio, score_cutoff=NEAR_LATIN, limit=12)
    if not found:
        return None
    best, score = found[0][0], found[0][1]
    # two different names of the passages as near as each other ("Harwick" and "Harwich" for "Harwik"): the slip
    # could be of either, so it is read as neither (a window inside another is the same name, one word more or less)
    if any(other_score >= score - NEAR_TIE and other not in best and best not in other
           for other, other_score, _ in found[1:]):
        return None
    return best


_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
KIND_WORDS = frozenset({*KIND_SUFFIXES, *(w for words in _KIND_WORDS.values() for w in words.split("|")),
                        "lighthouse", "library", "cooperative", "orchestra", "festival", "society", "association"})
"""A name's last word that says what kind of thing it is (a shortened name keeps it)."""


def names_of(hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES) -> list[str]:
    """The names the top passages are about (folded): their tags and titles."""
    out = [normalize(n) for h in hits[:limit] for names in h.entities.values() for n in names]
    out += [normalize(strip_disambiguation(h.title)) for h in hits[:limit]]
    return list(dict.fromkeys(n for n in out if n))


def _shortens(short: str, name: str) -> bool:
    """Whether a folded name is a shortening of another: its head and its kind word kept, the words between
    left out — "银杉合作社" of 银杉蜂业合作社 (a head of two characters or more, an ending of two or more; never a
    word the dictionary knows: 北京大学 is not 北京师范大学), "silverfir cooperative" of "silverfir apiary
    cooperative" (the first word kept, the others in order, the last the name's kind word or its leading part:
    "gull rock light" of "gull rock lighthouse")."""
    if short == name or has_han(short) != has_han(name):
        return False
    if has_han(short):
        if not (_HAN_RUN.fullmatch(short) and _HAN_RUN.fullmatch(name)) or not 4 <= len(short) < len(name) \
                or dictionary_word(short):
            return False
        return any(name.startswith(short[:k]) and name.endswith(short[k:]) for k in range(2, len(short) - 1))
    words, full = _ARTICLE.sub("", short).split(), name.split()
    if not 2 <= len(words) <= len(full) or words[0] != full[0] or len(words[0]) < 4:
        return False
    last = words[-1]
    if not (full[-1] == last or (len(last) >= 4 and full[-1].startswith(last))) or full[-1] not in KIND_WORDS:
        return False
    at = 0
    for w in words[:-1]:
        if w not in full[at:-1]:
            return False
        at = full.index(w, at) + 1
    return True


_TITLES = frozenset({"dr", "mr", "mrs", "ms", "miss", "mx", "prof", "professor", "sir", "dame", "rev", "capt"})
"""Titles a Latin name opens with when it calls a person by the surname alone ("Dr Castel", "Ms Pryce")."""
_TITLES_ZH = ("老师", "医生", "大夫", "先生", "女士", "经理", "主任", "教授", "律师", "师傅", "院长", "校长", "所长",
              "科长", "队长", "会计", "护士")
"""Titles a Chinese surname takes to call a person by it (王医生, 林老师)."""


def addressed(name: str, blob: str) -> str | None:
    """How a folded text writes the person a question calls by a title and the surname: "dr castel" over "Dr
    Imogen Castell" (the surname, or its near spelling, ``near_spelling``), 王医生 over 王晓岚医生 or 医生王晓岚
    (the full name next to the same title). A letter, a report or minutes name a person in full once and by the
    surname after; the question may take either. None when the name is no such form or the text writes none."""
    words = name.replace(".", " ").split()
    if len(words) == 2 and words[0] in _TITLES and len(words[1]) >= 3 and not has_han(name):
        surname = words[1]
        if re.search(rf"(?<![\w-]){re.escape(surname)}(?![\w-])", blob):
            return surname
        return near_spelling(surname, blob) if len(surname) >= 6 else None
    title = next((t for t in _TITLES_ZH if name.endswith(t)), None)
    if title is None or len(name) != len(title) + 1 or not _HAN_RUN.fullmatch(name):
        return None
    found = {m[1] or m[2] for m in re.finditer(rf"({re.escape(name[0])}[\u3400-\u9fff]{{1,2}}?){re.escape(title)}|"
                                               rf"{re.escape(title)}({re.escape(name[0])}[\u3400-\u9fff]{{1,2}})",
                                               blob)}
    return found.pop() if len(found) == 1 else None


def spelled_out(short: str, blob: str) -> list[str]:
    """The names a folded text writes that a shortened name could stand for: its head and its ending with up to
    six characters (Chinese) or three words (Latin) between them."""
    if has_han(short):
        pattern = "|".join(f"{re.escape(short[:k])}[\u3400-\u9fff]{{1,6}}?{re.escape(short[k:])}"
                           for k in range(2, len(short) - 1))
    else:
        words = _ARTICLE.sub("", short).split()
        if len(words) < 2:
            return []
        pattern = (rf"\b{re.escape(words[0])}(?:\s+[\w'’-]+){{0,3}}?\s+{re.escape(words[-1])}[a-z]*\b")
    return list(dict.fromkeys(m[0] for m in re.finditer(pattern, blob))) if pattern else []


def shortened_of(name: str, names: Sequence[str], blob: str = "") -> str | None:
    """The one name (of ``names``, or spelled out in the folded ``blob``) that a question's name shortens
    (``_shortens``), or None (none, or more than one: "九叠俱乐部" is no name when two clubs start with 九叠)."""
    found = {n for n in [*names, *spelled_out(name, blob)] if _shortens(name, n)}
    return found.pop() if len(found) == 1 else None


def tagged(hit: Hit) -> str:
    """The standard names a passage is tagged with (folded): it mentions them, maybe under an alias or in
    another language ("Beijing" in a passage tagged 北京)."""
    return " ".join(dict.fromkeys(normalize(name) for names in hit.entities.values() for name in names))


def linked_across(q: Question) -> bool:
    """Whether a name the question writes is linked to its spelling in the other script (an alias in the entity
    store, a pair a passage states, a pinyin reading): "Lanxi Village" with 岚溪村. A crossing carried by such a
    name is supported: the other language's passage is about the question's subject."""
    return any(len(forms) > 1 and any(has_han(f) != q.chinese for f in forms[1:]) for forms in q.anchors)


def second_look_stands(q: Question, verdict: Answerability, evidence: Sequence[Evidence] = ()) -> bool:
    """Whether the verdict on the other language's passages, judged after those in the question's language did
    not answer, stands: the score's, or the bilingual lexicon's when a name linked across scripts carries the
    question over (the passage is then about its subject; without such a link the lexicon's override is for
    evidence the words themselves chose, not for a second look after a refusal), or, for a question that names
    nothing, the lexicon's words of what it is about (``carried_by_lexicon``)."""
    return verdict.decided_by == "score" or (verdict.decided_by in ("lexicon", "meaning") and (
        linked_across(q) or carried_by_lexicon(q, evidence)))


def carried_by_lexicon(q: Question, evidence: Sequence[Evidence]) -> bool:
    """Whether a question that names nothing ("How long did the power cut last?") is carried over to the answering
    sentence in the other language by the other attributes it names besides the asked one: the sentence states each
    of them in the lexicon's words (停电 for "power cut", beside 持续52分钟 for "how long … last"). A question
    whose only lexicon word is the asked attribute is not: a duration of anything would do."""
    if q.anchors or not evidence:
        return False
    found = asked_attribute(q.text, q.kind)
    best = evidence[0]
    sentence = best.sentences[best.span_in].text
    return found is not None and bool(found.others) and all(stated_at(a, sentence) for a in found.others)


def passage_words(hit: Hit) -> str:
    """What a passage says of itself, folded, as the checks of what it mentions read it: its title, the heading
    path of its section (a chunk under "## CH-03 青釉刻花莲瓣纹碗" or "## 3.1.0 — 2026-05-20" does not repeat the
    heading that names its subject), the name of its file (``file_words``), its text and the standard names it
    is tagged with."""
    return f"{normalize(hit.title)} {normalize(hit.section or '')} {file_words(hit)} {normalize(hit.text)} {tagged(hit)}"


def file_words(hit: Hit) -> str:
    """The words of the file name of a passage's document (``normalize.file_subject``): what every passage of a
    user's file is about ("鸿源银行" of "鸿源银行_个人住房贷款批贷通知书.docx" over a passage of its rates)."""
    return file_subject(hit.source, hit.doc_id)


def unmentioned(q: Question, hits: Sequence[Hit]) -> list[str]:
    """The question's names (first spelling) that no top passage (title, section heading, text, tags) mentions:
    the rule both ``answerability.assess`` and ``foregone`` read."""
    blob = " ".join(passage_words(h) for h in hits[:EVIDENCE_PASSAGES])
    return [forms[0] for forms in q.anchors if not mentioned(forms, blob)]


_KIND_ENDINGS = {ending: tuple(k for k, (ends, _) in KIND_SUFFIXES.items() if ending in ends)
                 for ends, _ in KIND_SUFFIXES.values() for ending in ends if len(ending) >= 2}
"""Each Chinese kind ending of two characters or more (动物园, 医院, 小学) and the English kind words it translates."""
_KIND_AFTER_LATIN = re.compile(r"^\s+(?:[a-z]+[^\S\r\n]+)?([a-z]+(?:\s[a-z]+)?)\b")


_ASKED_BEFORE = re.compile(r"(?:\b(?:which|what)\s+|(?:哪|什么)[个座家所条处种]?\s*)$", re.IGNORECASE)
"""An interrogative right before a name: the kind word after the name is the answer's kind ("which California city").
"""


def kind_after(q: Question, name: str) -> tuple[str, tuple[str, ...]] | None:
    """The kind word the question writes right after one of its names, outside the name (青溪 + 动物园, "Redstone
    climbing gym"), with every spelling of it in both languages (动物园, "zoo"): the question's subject is the name's
    institution of that kind, not the name alone (a district 青溪 names no zoo). None where no kind word follows."""
    at = q.text.find(name)
    if at < 0 or _ASKED_BEFORE.search(q.text[:at]):
        # "in which California city", 哪个青溪小区: the kind is the thing asked for, not an institution named
        return None
    rest = q.text[at + len(name) :]
    if has_han(name):
        ending = next((e for e in sorted(_KIND_ENDINGS, key=len, reverse=True) if rest.startswith(e)), None)
        return (f"{name}{ending}", (ending, *_KIND_ENDINGS[ending])) if ending is not None else None
    m = _KIND_AFTER_LATIN.match(rest)
    if m is None:
        return None
    for kind in (m[1], m[1].split()[-1]):
        if kind in KIND_SUFFIXES:
            return (f"{name}{m[0]}", (kind, *KIND_SUFFIXES[kind][0]))
    return None


def unnamed_kinds(q: Question, hits: Sequence[Hit]) -> list[str]:
    """The question's named institutions (a name with the kind word after it: 青溪动物园, "the Redstone climbing
    gym") whose kind no top passage writes in either language: the passages may name the place or the word (青溪区,
    青溪小学) but no zoo at all, so the subject asked of is not among them, whatever line answers of another thing.
    Only names the passages write as the question does, or lone capitalised words they never write."""
    blob = " ".join(passage_words(h) for h in hits[:EVIDENCE_PASSAGES])
    out = []
    for name in q.names:
        key = normalize(name)
        if not (key in blob or (key in q.weak and key not in q.misspelled)) or (found := kind_after(q, name)) is None:
            # a name read in the other language (白鹭湾 for "Bailu Bay") may be of a kind the word table does not
            # translate (跑团 for "running club"): its kind is not looked for; a name the passages write as the
            # question does, or a lone capitalised word they never write, is
            continue
        phrase, forms = found
        if not any((f in blob) if has_han(f) else re.search(rf"(?<![a-z]){re.escape(f)}s?(?![a-z])", blob)
                   for f in forms):
            out.append(phrase.strip())
    return out


_NAME_FLAGS = ("nr", "ns", "nt", "nz", "eng")
"""jieba's flags of person, place, organisation and other proper names, and of Latin words."""


def common_words(name: str) -> tuple[str, ...] | None:
    """The words of a Chinese phrase the parse took for a name that is common words only: two or more words of
    two characters or more, none a proper name by its part of speech (果园竞标 → 果园, 竞标; not 青溪图书馆, whose 青溪
    is a place, nor 蕨坪村). Such a phrase is the question's wording, not a name a passage must spell as one run:
    one passage writing each of its words mentions it ("集体果园…公开竞标"). A compound of an organisation word and a
    category (跑团学生会员 → 跑团, 学生会员's words) may hold a word jieba's table lacks (跑团) beside dictionary words;
    single characters that make a dictionary word together are one word (会员年费 → 会员, 年费); a measure or month
    the phrase qualifies itself with (体重18公斤, 5月份总磷) is a value of the question, not part of a name."""
    words, valued = _measured_away(name)
    if words is None:
        return None
    if len(words) == 1 and len(words[0][0]) >= 4 and not valued:
        # one dictionary word the tagger reads as a name (安全检查 tagged nr): its two common words (安全, 检查)
        whole = words[0][0]
        words = next(([(a, fa), (b, fb)] for i in range(2, len(whole) - 1)
                      if dictionary_word(a := whole[:i]) and dictionary_word(b := whole[i:])
                      and len(pa := tagged_words(a)) == 1 and len(pb := tagged_words(b)) == 1
                      for fa, fb in [(pa[0][1], pb[0][1])]), words)
    words = _singles_joined(words)
    if len(words) < (1 if valued else 2) or any(len(w) < 2 or (flag or "").startswith(_NAME_FLAGS)
                                                for w, flag in words):
        return None
    known = [w for w, _ in words if dictionary_word(w)]
    # a word jieba's table lacks (跑团, 蕨坪) is common only beside dictionary words: alone, or among unknown
    # words, it may be a place's or a shop's own name
    if not known or (len(known) < len(words) and len(known) < 2):
        return None
    return tuple(w for w, _ in words)


_KINDS_ZH = tuple(sorted({z for endings, _ in KIND_SUFFIXES.values() for z in endings}, key=len, reverse=True))
"""The Chinese endings of a named place's or organisation's kind (公司, 合作社, 村, 路)."""


def written_apart(name: str, text: str) -> tuple[str, ...] | None:
    """The pieces of two characters or more, fewest first, that a folded text writes apart and that make up a
    Chinese phrase of common words the text never writes whole (骑行社学生社员 → 骑行社, 学生社员 where the word split
    cuts 骑 | 行社), or None: the last piece, the category the phrase asks about, holds a dictionary word of two
    characters or more, and no word of the phrase is a proper name by its part of speech (白鹭湾跑团, 青枫村茶叶合作社
    are names: their passages must write them), nor does the phrase end with a place's or an organisation's kind
    (鸮岭公司, 松风合作社: a name, which a passage may shorten, never a phrase of common words)."""
    if not _HAN_RUN.fullmatch(name) or len(name) < 4 or name in text or name.endswith(_KINDS_ZH) \
            or any((flag or "").startswith(_NAME_FLAGS) for _, flag in tagged_words(name)):
        return None

    @functools.cache
    def split(i: int) -> tuple[str, ...] | None:
        if i == len(name):
            return ()
        best: tuple[str, ...] | None = None
        for j in range(len(name), i + 1, -1):
            if name[i:j] in text and (rest := split(j)) is not None and (best is None or len(rest) + 1 < len(best)):
                best = (name[i:j], *rest)
        return best

    pieces = split(0)
    if pieces is None or len(pieces) < 2 or not any(
            dictionary_word(pieces[-1][a:b]) for a in range(len(pieces[-1])) for b in range(a + 2, len(pieces[-1]) + 1)):
        return None
    return pieces


_MEASURED = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_CALENDAR_UNITS = ("月", "月份", "岁", "周岁")
"""Units after a number that make it a month or an age (5月份, 3岁): with jieba's quantifiers (公斤, 公里), a value
the question qualifies a phrase with, never an identifier (2号, 12号线, 第3期 are)."""


def _measured_away(name: str) -> tuple[list[tuple[str, str | None]] | None, bool]:
    """The tagged words of a Chinese phrase less a number with its unit of measure, month or age (体重18公斤 →
    体重; 5月份总磷 → 总, 磷), and whether one was taken away; None for a phrase with anything else (Latin letters,
    an identifier's number: 2号会议室, 第3期)."""
    if not re.fullmatch(r"[\u3400-\u9fff0-9.]+", name) or not _HAN_RUN.search(name):
        return None, False
    tagged = tagged_words(name)
    words: list[tuple[str, str | None]] = []
    valued, i = False, 0
    while i < len(tagged):
        word, flag = tagged[i]
        if _MEASURED.fullmatch(word):
            unit = tagged[i + 1] if i + 1 < len(tagged) else None
            if unit is None or not ((unit[1] or "") == "q" or unit[0] in _CALENDAR_UNITS) or (
                    words and words[-1][0] == "第"):
                return None, False
            valued, i = True, i + 2
            continue
        if re.search(r"[0-9]", word):
            return None, False
        words.append((word, flag))
        i += 1
    return words, valued


def _singles_joined(words: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """Runs of single characters joined where together they are a dictionary word (年 费 → 年费)."""
    out: list[tuple[str, str | None]] = []
    run: list[str] = []
    for word, flag in [*words, ("", "")]:
        if len(word) == 1 and not (flag or "").startswith(_NAME_FLAGS):
            run.append(word)
            continue
        if run:
            joined = "".join(run)
            out.append((joined, "n") if len(run) > 1 and dictionary_word(joined) else (joined, "x"))
            run = []
        if word:
            out.append((word, flag))
    return out


def years_unstated(q: Question, contexts: Iterable[str]) -> list[str]:
    """The question's years that none of the given sentence contexts states."""
    contexts = list(contexts)
    return [y for y in q.years if not any(y in c or any(w in c.casefold() for w in q.year_words.get(y, ()))
                                          for c in contexts)]

