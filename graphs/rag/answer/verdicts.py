"""Verdicts: a comparison's verdict computed from the value found for each side; yes/no from whether each side's
passage states what is asked."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from graphs.rag.answer.attributes import Attribute, asked_attribute, lexicon, stated_at
from graphs.rag.answer.evidence import Evidence, Sentence, anchored, marks
from graphs.rag.answer.question import Question, mentioned
from graphs.text.answer_types import AnswerType, describes_set
from graphs.text.consistency import opens_with
from graphs.text.entity_spotting import tagged_words
from graphs.text.fields import field_of, names_column
from graphs.text.normalize import has_han, normalize, without_names
from graphs.text.question_shapes import comparison_pair
from graphs.text.relations import ORIGIN, asked_relation, states
from graphs.text.relations import stated_at as relation_at
from graphs.text.spans import candidates, nearest
from graphs.text.units import DOING_CLASSIFIERS_ZH, MEASURES, alternation, label_dimension, value_dimension

Direction = Literal["min_date", "max_date", "max_number", "min_number"]
# older/younger (and 年轻) are the age patterns' (``_OLDER``/``_YOUNGER``, read first); 老 stays for 更古老 (哪座桥更古老:
# the earlier date), which names no age
# a longer history is an earlier start (哪座桥的历史更久, 历史更悠久, 年代更久远, "the longer history", "has been around
# longer"): read before the quantities, where "longer" and 久 would ask for the larger number
_EARLIER = re.compile(r"\b(?:first|earlier|earliest|before|sooner)\b|先|早|老|前|历史[^，,。？?]{0,3}?(?:久|长)|久远|悠久|"
                      r"\b(?:longer|longest|older|oldest) (?:history|histories|heritage|pedigree)\b|"
                      r"\b(?:been around|in (?:business|existence|operation|service)) (?:longer|the longest)\b|"
                      r"\b(?:existed|operated|run) (?:longer|the longest)\b", re.IGNORECASE)
_LATER = re.compile(r"\b(?:later|latest|last|newer|newest|after|(?:more|most) recent(?:ly)?)\b|后|晚|新", re.IGNORECASE)
# a measurable quantity compared ("larger", "more albums", "更高"); "more popular" or "more diverse" is no number
_MORE = re.compile(r"\b(?:larger|largest|bigger|biggest|longer|longest|higher|highest|taller|tallest|greater|"
                   r"heavier|faster|farther|further|louder|noisier|more populous|(?:more|most) [a-z]+s|pricier|priciest|costlier|"
                   r"dearer|(?:more|most) expensive|costs? more|(?!(?:was|has|does|is)\b)[a-z]{2,}s more)\b|更?(?:多|大|高|长|重|快|远|贵|吵|久)",
                   re.IGNORECASE)
_LESS = re.compile(r"\b(?:fewer|smaller|smallest|shorter|shortest|lower|lighter|slower|closer|less populous|quieter|quietest|"
                   r"cheaper|cheapest|(?:less|least) expensive|costs? less|(?!(?:was|has|does|is)\b)[a-z]{2,}s less)\b|"
                   r"更?(?:少|小|低|短|轻|慢|近|便宜|实惠|安静)", re.IGNORECASE)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


_OLDER = re.compile(r"\b(?:older|oldest|elder|eldest)\b|年长|(?:年纪|年龄|岁数)更?大|更老", re.IGNORECASE)
_PEOPLE = re.compile(r"\bwho(?:m|se)?\b|谁|\b(?:people|persons?|m[ae]n|wom[ae]n|brothers?|sisters?|siblings?)\b|年纪|年龄|岁数",
                     re.IGNORECASE)
"""An age compared of people (who, 谁, 年龄), whose dates are births; a thing's age is its start (built, founded)."""
_YOUNGER = re.compile(r"\b(?:younger|youngest)\b|年轻|年少|(?:年纪|年龄|岁数)更?小", re.IGNORECASE)


def direction(question: str) -> Direction | None:
    """What the comparison asks for: the earlier or later date, the larger or smaller number. Who is older is
    who was born first (谁更年长, 谁年龄更大: the earlier birth date, not the larger number "1975")."""
    if _OLDER.search(question) or _YOUNGER.search(question):
        return "min_date" if _OLDER.search(question) else "max_date"
    for pattern, way in ((_EARLIER, "min_date"), (_LATER, "max_date"), (_LESS, "min_number"), (_MORE, "max_number")):
        if pattern.search(question):
            return way  # type: ignore[return-value]
    return None


_MAGNITUDES = {"万": 1e4, "亿": 1e8, "千": 1e3, "百": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "k": 1e3,
               "m": 1e6, "bn": 1e9}
_MAGNITUDE_AFTER = re.compile(r"\s*(万|亿|千|百|thousand\b|million\b|billion\b|bn\b|k\b|m\b)", re.IGNORECASE)


def compared_way(q: Question, sides: Sequence[str] = ()) -> Direction | None:
    """``direction`` read on the question's words less the compared sides' names: a name's 小 or 老 is no
    comparative (茉莉花茶跟正山小种，哪样贵一点: 贵, not the 小 of 正山小种)."""
    return direction(without_names(q.text, [n for n in {*sides, *q.names} if len(n) >= 2]))


def _value(text: str, way: Direction) -> float | None:
    """The number a value states, its magnitude word read (28.6万元 is 286,000; "£1.2 million" 1,200,000): two
    sides' values are compared as numbers, whatever magnitude each is written in."""
    if way in ("min_date", "max_date"):
        m = _YEAR.search(text)
        return float(m[1]) if m else None
    m = _NUMBER.search(text)
    if m is None:
        return None
    number = float(m[0].replace(",", ""))
    magnitude = _MAGNITUDE_AFTER.match(text, m.end())
    if magnitude is None or (len(magnitude[1]) <= 2 and magnitude[1].isascii() and not re.search(r"[£$€¥￥]", text)):
        return number  # "m" and "k" are magnitudes of money only ("£1.5m"; "62 m" is metres)
    return number * _MAGNITUDES[magnitude[1].casefold()]


@dataclass(frozen=True)
class Side:
    """One side of a comparison or of a yes/no question about two entities."""

    name: str
    sentence: Sentence | None
    value: str | None = None
    number: float | None = None


def spellings(q: Question, name: str) -> tuple[str, ...]:
    """How a side of the question may be written: its anchor's spellings (the question's, the standard name,
    a misspelling's and the other script's: 林登 / "linden")."""
    key = normalize(name)
    return next((f for f in q.anchors if key in f), (key,))


_compared_words: dict[str, re.Pattern[str]] = {
    # what a comparative asks about when the question names no attribute word ("Which is cheaper, A or B?")
    "price": re.compile(r"\b(?:cheap\w*|pricier|priciest|costlier|dearer|(?:more|most|less|least) expensive)\b|"
                        r"便宜|贵|实惠", re.IGNORECASE),
    "speed": re.compile(r"\b(?:faster|fastest|slower|slowest|quicker)\b|更快|更慢", re.IGNORECASE),
    "weight": re.compile(r"\b(?:heavier|heaviest|lighter|lightest)\b|更重|更轻", re.IGNORECASE),
    "noise": re.compile(r"\b(?:quieter|quietest|louder|loudest|noisier)\b|更安静|更吵", re.IGNORECASE),
    "population": re.compile(r"\b(?:more|fewer) (?:people|residents|inhabitants)\b|more populous|人口更多|人口更少",
                             re.IGNORECASE),
}


def compared_attribute(q: Question) -> Attribute | None:
    """The attribute the two sides are compared on: the lexicon's specific attribute the question names
    ("哪艘船载客更多": capacity), else the one its comparative word asks about ("cheaper": price)."""
    # read on the question less the things compared (their attribute words kept): the 酒店 of 锦澜酒店, the "Hotel"
    # of "the Grand Hotel suite" are the names' kind words, not the accommodation asked
    said = [_without_attribute(s.strip()) for s in offered(q.text)]
    text = without_names(q.text, [n for n in {*said, *q.names} if len(n) >= 2])
    asked = asked_attribute(text, q.kind, tuple(f[0] for f in q.anchors))
    if asked is not None and not asked.attribute.generic:
        return asked.attribute
    name = next((n for n, pattern in _compared_words.items() if pattern.search(q.text)), None)
    return next((a for a in lexicon() if a.name == name), None) if name else None


def _about(forms: tuple[str, ...], sentences: Sequence[Sentence]) -> list[Sentence]:
    """Sentences that mention a name under any of its spellings, by themselves or by their context (the
    passage's title and tags, the sentences around them), in passage order."""
    return [s for s in sentences if any(f and f in s.context for f in forms)]


def _named(forms: Sequence[str], text: str, rivals: Sequence[str]) -> bool:
    """Whether ``text`` names a side by one of its forms, not as the start of the other side's longer name: in
    "kelvo h7 pro — noise level" the side "Kelvo H7" is not named when the other is "H7 Pro" (the rival's
    mention overlaps it and runs on past its end)."""
    for f in forms:
        for m in re.finditer(re.escape(f), text) if f else ():
            if not any(r.start() < m.end() < r.end() and r.start() >= m.start() - len(r[0])
                       for g in rivals if g and g not in f for r in re.finditer(re.escape(g), text)):
                return True
    return False


def _headed_for(forms: Sequence[str], s: Sentence, rivals: Sequence[str]) -> bool:
    """Whether the heading a sentence is under names the side and not its rival: the section is about the side."""
    under = normalize(s.under)
    return bool(under) and _named(forms, under, rivals) and not _named(rivals, under, forms)


def _opens_with_side(text: str, forms: Sequence[str], rivals: Sequence[str]) -> bool:
    """Whether a folded sentence opens with a side as its subject (and not with the other side first)."""
    own = _mentions(forms, text, rivals)
    other = _mentions(rivals, text, forms)
    return bool(own) and any(opens_with(text, f) for f in forms if f) and (not other or own[0] < other[0])


def _mentions(forms: Sequence[str], text: str, rivals: Sequence[str]) -> list[int]:
    """Where ``text`` names a side (see ``_named``), in order."""
    return sorted(m.start() for f in forms if f for m in re.finditer(re.escape(f), text)
                  if _named((f,), text[m.start():m.start() + len(f) + 40], rivals)
                  and _named((f,), text[max(0, m.start() - 40):m.start() + len(f) + 40], rivals))


def _own_part(text: str, forms: Sequence[str], rivals: Sequence[str]) -> str:
    """The part of a sentence that speaks of one side when it names both ("A型额定功率为18千瓦，售价4.6万元；B型额定
    功率为24千瓦"): from the side's mention to the other side's next one; the whole sentence otherwise."""
    folded = text.casefold()
    if len(folded) != len(text) or not rivals:
        return text
    own, other = _mentions(forms, folded, rivals), _mentions(rivals, folded, forms)
    if not own or not other:
        return text
    start = own[0]
    end = next((at for at in other if at > start), len(text))
    return text[start:end]


_QUALIFIED = re.compile(r"^(.{3,40}?)\s+(?:in|at|of|on|near|from)\s+(?:the\s+)?(.{2,40})$", re.IGNORECASE)


def _described_side(q: Question, side: str) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """How a side is written, and the names that must stand in a sentence's context for it to be about that
    side: a name's spellings; for a side the question describes ("the harbour wall at Kessford", "the Old Toll
    Bridge in Tollbridge") its head ("harbour wall") in a context that names the place or owner it is of."""
    key = normalize(side)
    if any(key in f for f in q.anchors) or (m := _QUALIFIED.match(side)) is None:
        return spellings(q, side), []
    return spellings(q, m[1]), [spellings(q, m[2])]


def _side(q: Question, name: str, sentences: Sequence[Sentence], way: Direction | None,
          rival: str = "") -> Side:
    """The best sentence about one side. For a comparison, the value comes from the first sentence that has
    one, trying first those that name the side themselves and state the relation asked about ("成立":
    "incorporated"), then those that name it, then the rest; the side as their subject, then the question's
    terms, break ties. A sentence that names only the other side is the other side's, whatever its passage's
    title names ("Kelvo H7 Pro — Noise level: 38 dB" in a manual of both models)."""
    forms, where = _described_side(q, name)
    rivals = _described_side(q, rival)[0] if rival else ()
    # a sentence under a heading that names the side is the side's, whatever other name it says in passing
    # ("## The Tansy Belle" … "She had been launched in 1938 and came when the Marram Queen needed a relief boat"),
    # unless it opens with the other side as its own subject: a news piece headed by one bridge that goes on to
    # another ("通济桥建于1902年，规模比永济桥小" under "永济桥修缮完工") speaks of the one it opens with
    about = [s for s in _about(forms, sentences)
             if (_named(forms, s.folded, rivals) or _headed_for(forms, s, rivals)
                 or not _named(rivals, s.folded, forms))
             and (not _headed_for(rivals, s, forms) or _opens_with_side(s.folded, forms, rivals))
             and all(any(f in s.context for f in w) for w in where)]
    if not about:
        return Side(name, None)
    best = max(about, key=lambda s: (q.coverage(s.folded), -s.hit, -s.position))
    if way is None:
        return Side(name, best)
    kind: AnswerType = "date" if way in ("min_date", "max_date") else "number"
    relation = asked_relation(q.text)
    # a date compared without a relation named (older, the longer history) is the side's start: founded, built,
    # opened, born, released, whichever its sentence states
    origin = (relation,) if relation is not None else ORIGIN if kind == "date" else ()
    attribute = compared_attribute(q) if kind == "number" else None
    # a table whose column the question names ("to take a bicycle on": the Bicycle column) is read in that
    # column only: a side whose cell there is empty has no value, whatever its other columns say
    # a table cell is a side's when it names the side itself or by another cell of its row, not when the line
    # next to it does (the next row's first cell)
    about = [s for s in about if (f := field_of(s.text)) is None or not f.row
             or any(g in s.folded or g in s.block for g in forms if g)]
    about = _own_rows(about, forms)
    tables = {s.hit for s in sentences if (f := field_of(s.text)) is not None and names_column(f, q.text)}
    about = [s for s in about if s.hit not in tables or (f := field_of(s.text)) is None or not f.row
             or names_column(f, q.text)]
    if attribute is not None:
        # the value of what is compared, not any number said of the side: "Which is cheaper?" is decided by
        # the price list's 5980元, not by the catalogue's "a range of 60 km"; the value next to the attribute.
        # A side no sentence states it of has no value (no verdict), not the first number found about it
        # (a table's cell under a column whose header names the dimension: "list_price_eur", 价格（元）)
        measure = _DIMENSION_OF.get(attribute.name, attribute.name)
        about = [s for s in about if stated_at(attribute, s.text) or _measured(attribute, s.text)
                 or _in_column(s, measure)]
        about = _qualified_columns(about, q.text)

    def preference(s: Sentence) -> tuple[bool, bool, bool, bool, bool, bool, float]:
        names = _named(forms, s.folded, rivals) or any(f in s.title for f in forms) or _headed_for(forms, s, rivals)
        said = any(states(r, s.text) for r in origin)
        # the side's own passage (titled by it) before another's that names it in passing ("The association …
        # is based in Dresk" does not date Dresk)
        own = any(f == s.title or f in s.about for f in forms)
        # a table cell of the side's own row (its block holds the side as a cell: "价格 — C01: 95元" of the row
        # whose 项目 is 血常规) before a row that names it in passing (备注: 含血常规)
        row = any(line == f for line in s.block.split("\n") for f in forms if f)
        return (names and said, own and said, row, names, said, any(opens_with(s.folded, f) for f in forms),
                q.coverage(s.folded))

    dimension = _DIMENSION_OF.get(attribute.name, attribute.name) if attribute is not None else \
        next((d for d, pattern in _COMPARED_DIMENSIONS.items() if pattern.search(q.text)), None)
    if dimension is not None:
        # a table's column that names the compared dimension ("Length (m)" for "longer", price_gbp for "cheaper")
        # is where both sides' values are read: not another column's number of the same row (its "Built" year)
        columns = [s for s in about if _in_column(s, dimension)]
        if columns:
            about = [s for s in about if (f := field_of(s.text)) is None or not f.row or s in columns]
    for s in sorted(about, key=preference, reverse=True):
        text = _own_part(s.text, forms, rivals)
        at = stated_at(attribute, text) if attribute is not None else [p for r in origin for p in relation_at(r, text)]
        found = candidates(text, kind, q.text)
        if (cell := _cell(text)) is not None and (value_at := len(text.rstrip()) - len(cell[2])) > 0:
            # a cell's value is its value: not a number its column header or row label writes (the 50 of
            # "价格（元/50克） — T05: 160")
            found = [c for c in found if c.start >= value_at]
        if kind == "number" and field_of(text) is None:
            # a year in running text dates the side ("built in 1868", 建于1974年): it is no quantity compared
            found = [c for c in found if not (_YEAR_ONLY.match(c.text)
                                              and value_dimension(text, c.start, c.end) in (None, "duration"))]
        if dimension in MEASURES:
            # a value in the compared attribute's own dimension ("62 metres" for "longer"), not the year beside it
            found = [c for c in found if value_dimension(text, c.start, c.end) == dimension] or found
        span = nearest(found, at or marks(q, text.casefold()))
        if span is not None and (number := _value(span.text, way)) is not None:
            return Side(name, s, _with_sign(text, span.start, span.text), number)
    return Side(name, best)


def _distinct(label: str, other: str) -> str:
    """What a column header says that another header of the same attribute does not: the header less the
    beginning and the end the two share ("价格（元/壶）" against "价格（元/50克）": 壶; "Price per pot" against "Price
    per 50 g": pot)."""
    def shared(a: str, b: str) -> int:
        return next((n for n, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))

    start = shared(label, other)
    end = shared(label[start:][::-1], other[start:][::-1])
    return label[start: len(label) - end]


def _one_column(q: Question, names: Sequence[str], sentences: Sequence[Sentence], way: Direction,
                a: Side, b: Side) -> tuple[Side, Side]:
    """Two sides valued from cells of one table under two different columns (one's per-pot price against the
    other's per-50 g price) are valued again under one column: the first of the two under which both have a
    value; as they were when none has both."""
    ca = _cell(a.sentence.text) if a.sentence is not None and a.number is not None else None
    cb = _cell(b.sentence.text) if b.sentence is not None and b.number is not None else None
    if ca is None or cb is None or a.sentence is None or b.sentence is None or \
            a.sentence.hit != b.sentence.hit or normalize(ca[0]) == normalize(cb[0]):
        return a, b
    for label in (normalize(ca[0]), normalize(cb[0])):
        kept = [s for s in sentences if (c := _cell(s.text)) is None or s.hit != a.sentence.hit
                or normalize(c[0]) == label]
        x, y = _side(q, names[0], kept, way, names[1]), _side(q, names[1], kept, way, names[0])
        if x.number is not None and y.number is not None:
            return x, y
    return a, b


_MONEY_MARK = re.compile(r"[元块¥￥£$€]")


def _said_qualifier(piece: str, question: str) -> bool:
    """Whether the question writes a header's distinct part: its Chinese (less digits, marks and the currency)
    whole, or one of its English words of three letters or more."""
    if has_han(piece):
        han = re.sub(r"[^\u4e00-\u9fff]", "", _MONEY_MARK.sub("", piece))
        return bool(han) and han in question
    words = {w for w in re.findall(r"[a-z]{3,}", piece)}
    return bool(words) and bool(words & set(re.findall(r"[a-z]{3,}", question)))


def _qualified_columns(about: Sequence[Sentence], question: str) -> list[Sentence]:
    """The table cells under the one column, of several that state the compared attribute, whose header's own
    qualifier the question writes ("按壶点哪个更便宜": 价格（元/壶）, not 价格（元/50克）; "by the pot"); all of them
    when the question picks none or every one. Prose is kept."""
    # a column's words: its header and the unit its cells write ("价格" over "108元/壶": 价格 元/壶)
    columns: dict[str, str] = {}
    for s in about:
        if (c := _cell(s.text)) is not None:
            columns.setdefault(normalize(c[0]), normalize(c[0]) + " " + _NUMBER.sub(" ", normalize(c[2])).strip())
    if len(columns) < 2:
        return list(about)
    folded = normalize(question)
    picked = {label for label, words in columns.items()
              if all(_said_qualifier(_distinct(words, other), folded) for o, other in columns.items() if o != label)}
    if len(picked) != 1:
        return list(about)
    return [s for s in about if (c := _cell(s.text)) is None or normalize(c[0]) in picked]


def _in_column(s: Sentence, dimension: str) -> bool:
    """Whether a sentence is a table cell under a column whose header names ``dimension`` ("list_price_eur" a
    price, "Length (m)" a length) and whose value is a bare number or one of that dimension ("70 g" under
    "Refrigerant charge" is a weight, no price)."""
    cell = _cell(s.text)
    if cell is None or label_dimension(cell[0]) != dimension:
        return False
    value = cell[2]
    numbers = list(_NUMBER.finditer(value))
    return bool(numbers) and all(value_dimension(value, m.start(), m.end()) in (None, dimension) for m in numbers)


_FOR_BEFORE = re.compile(r"\b(?:for|of|to|with|fits?|fitting)\s*$|(?:适用于|适配|配套|用于)\s*$")
_FOR_AFTER = re.compile(r"^\s*(?:专用|配套|适用|通用|用的|的)")


def _accessory(row: str, form: str) -> bool:
    """Whether a row names the side only as what it is made for ("Plover filter pack for Heron P20", 云雀K5咖啡机专用
    滤网, 适用于白鹭B8的除垢剂): an accessory's row, not the side's own."""
    at = row.find(form)
    return at >= 0 and (_FOR_BEFORE.search(row[:at]) is not None or _FOR_AFTER.match(row[at + len(form):]) is not None)


def _own_rows(about: Sequence[Sentence], forms: Sequence[str]) -> list[Sentence]:
    """The table cells of a side's own row: of the rows whose label names the side, those that name it as
    themselves and not more — an accessory's row (``_accessory``) left out, and of the rest, in each column, the
    rows whose label writes the fewest other words beside the side ("Orca M7 blender", not "Orca M7 Pro
    blender"; 云雀K5咖啡机, not 云雀K5咖啡机加强版). Prose and other cells are kept as they are."""
    extra: dict[int, int] = {}
    for n, s in enumerate(about):
        if (cell := _cell(s.text)) is None:
            continue
        row = normalize(cell[1])
        named = [g for g in forms if g and g in row]
        if not named:
            continue
        if all(_accessory(row, g) for g in named):
            extra[n] = -1
            continue
        g = max(named, key=len)
        rest = row.replace(g, " ", 1)
        # the words beside the side, a code of letters and digits (the row's SKU, "MF-OR7P") not counted
        extra[n] = len(re.sub(r"[a-z]*[-‐–]?[a-z]*\d[\w-]*|\W", "", rest))
    fewest: dict[str, int] = {}
    for n, x in extra.items():
        if x >= 0 and (cell := _cell(about[n].text)) is not None:
            fewest[normalize(cell[0])] = min(fewest.get(normalize(cell[0]), x), x)
    return [s for n, s in enumerate(about) if n not in extra or (
        extra[n] >= 0 and (cell := _cell(s.text)) is not None and extra[n] <= fewest.get(normalize(cell[0]), extra[n]))]


_ROW_CELL = re.compile(r"^(?P<label>[^:：\n]{1,48}?)\s+—\s+(?P<row>[^\n]{1,160}?)\s*[:：]\s*(?P<value>\S[^\n]{0,80})$")


def _cell(text: str) -> tuple[str, str, str] | None:
    """A table cell's column header, row label and value ("list_price_eur — BW-PF20 Plover filter pack for Heron
    P20 (2 filters): 31.00"), a long row's too (``field_of`` takes short labels only), or None."""
    if (f := field_of(text)) is not None:
        return (f.label, f.row, f.value) if f.row else None
    m = _ROW_CELL.match(text.strip())
    return (m["label"], m["row"], m["value"]) if m else None


_YEAR_ONLY = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2})\s*年?$")
_COMPARED_DIMENSIONS = {"length": re.compile(r"\b(?:longer|longest|shorter|shortest|taller|tallest|higher|highest)\b|"
                                              r"(?:更|最|较)(?:长|短|高|矮)", re.IGNORECASE)}
"""A comparative that prefers a value of its dimension where a side's sentence has one ("is 71 metres long" over
the year beside it for "longer"), without asking for it: "Who lived longer?" is read from the life's dates."""
_DIMENSION_OF = {"price": "money"}
"""The dimension of a value that states an attribute by its unit alone (a cell "£62.00" is a price)."""


_MONEY_LABEL = re.compile(r"(?:^|[^a-z])(?:gbp|usd|eur|rmb|cny|jpy|hkd|aud|cad|chf|nzd)(?:$|[^a-z])|[£$€¥￥元]|"
                          r"\b(?:price|prices|cost|fee|fees|fare|fares|rate|tariff|charge)\b|价|费", re.IGNORECASE)
"""A table column whose header names a currency or a price ("adult_nonmember_gbp", "Fee (EUR)", "单价（元）"): its
cells are prices written as bare numbers."""


def _measured(attribute: Attribute, text: str) -> bool:
    """Whether ``text`` holds a value in the attribute's own dimension (a fare cell "Car with driver — Corran
    Isle: £62.00" states a price without a price word; "11.8 kg" a weight; a bare number in a column whose header
    names a currency, "adult_nonmember_gbp — Corrie Dubh: 38")."""
    dimension = _DIMENSION_OF.get(attribute.name, attribute.name)
    if dimension == "money" and (f := field_of(text)) is not None and f.row and _MONEY_LABEL.search(f.label) \
            and _NUMBER.match(f.value.strip()):
        return True
    if dimension not in MEASURES:
        return False
    return any(value_dimension(text, c.start, c.end) == dimension for c in candidates(text, "number", ""))


_PAIR_ZH = re.compile(r"^\s*(?:请问)?(?:[^，,。？?]{1,30}[，,：:]\s*)?([^，,。：:]{2,20}?)(?:和|与|跟|同|还是)"
                      r"([^，,。：:？?]{2,20}?)(?:相比)?(?:[，,][^，,。？?]{1,20}?)?[，,]?(?:哪|谁|更|较)")
"""A choice offered of two things ("A和B哪个更便宜"), after a clause that sets where to look ("价目表上，A和B…") or
before one that sets how to compare ("A跟B，按会员价算哪个便宜": the clause is no part of B)."""
_PAIR_EN = re.compile(r"^\s*(?:(?:at|on|in|for|from|of|according to|among|between)\b[^,?:]{1,60},\s*)?(?:which|who|what)\b[^,:]{0,60}[,:]\s*(?:the\s+)?(.{2,60}?)\s+or\s+(?:the\s+)?(.{2,60}?)\s*\?*\s*$",
                      re.IGNORECASE)
_PAIR_IS = re.compile(r"\b(?:is|are|was|were|does|do|did)\s+(?:the\s+)?(\S.{1,50}?)\s+or\s+(?:the\s+)?(\S.{1,50}?)\s+"
                      r"(?:(?:more|less)\s+[a-z]+|[a-z]{3,}er)\b", re.IGNORECASE)
"""A choice offered in a yes/no frame ("At the gym, is shoe hire or harness hire cheaper for …?")."""
_PAIR_BETWEEN = re.compile(r"\bbetween\s+(?:the\s+)?(\S.{1,59}?)\s+and\s+(?:the\s+)?(\S.{1,59}?),\s*(?:which|who|what)\b",
                           re.IGNORECASE)


def offered(text: str) -> tuple[str, ...]:
    """The two things a question offers as a choice, as it writes them ("A和B哪个更便宜", "Which is cheaper, A or
    B?", "is A or B cheaper"); () when it offers none."""
    m = (_PAIR_ZH.search(text) if has_han(text) else None) or _PAIR_EN.search(text) or \
        _PAIR_BETWEEN.search(text) or _PAIR_IS.search(text)
    return (m[1], m[2]) if m else ()


def without_owner(first: str, second: str) -> str:
    """The first side of a Chinese choice less the owner both sides share ("锦澜酒店的如意宴和龙凤宴": the hotel's
    如意宴 and 龙凤宴): what follows its last 的 when the second side has no 的 and two characters follow."""
    if not has_han(first) or "的" not in first or "的" in second:
        return first
    rest = first.rsplit("的", 1)[1].strip()
    return rest if len(rest) >= 2 else first


def sides_of(q: Question) -> list[str]:
    """The two entities a comparison or a yes/no question is about: a pair of its names, else the two the
    question offers as a choice ("A和B哪个更便宜", "Which is cheaper, A or B?") when its names are fewer."""
    choice = _PAIR_EN.search(q.text)
    names = {normalize(n) for n in q.names}
    # a side offered as a measure of it ("a box of Amber Russet") is the thing measured, not a box described by it
    phrases = [bare_side(p) for p in choice.groups()] if choice is not None else []
    if choice is not None and all(_QUALIFIED.match(p) for p in phrases) and \
            not all(normalize(p) in names for p in phrases):
        # the choice offered of two described things ("the Old Toll Bridge in Tollbridge or the harbour wall at
        # Kessford"): its phrases are the sides, not two of the names inside one of them
        return phrases
    pair = comparison_pair(q.text, q.names)
    said = _PAIR_ZH.search(q.text) if has_han(q.text) else None
    if said is not None:
        # the choice as the Chinese sentence offers it, unless each of its two sides holds a name the tagger found
        # (those are the sides' own cuts: "禾家电饭煲HJ-R30和HJ-R50" is HJ-R30's, the brand before it context);
        # names cut across its 和 ("苏迅电梯和德嘉电梯的报价": 苏迅 / 和德嘉) are fragments
        # (a name that owns the first side, before its 的, is context: 锦澜酒店 of 锦澜酒店的如意宴)
        first = without_owner(said[1].strip(), said[2].strip())
        within = [next((n for n in sorted(q.names, key=len, reverse=True) if n in side), None)
                  for side in (first, said[2])]
        # (nor where a name is what a side's service is done to: "小提琴换个琴码" is the bridge replaced)
        if within[0] is None or within[1] is None or within[0] == within[1] or any(
                _acted_on(said[i + 1], n) for i, n in enumerate(within) if n is not None):
            return [bare_side(_without_attribute(first)), bare_side(_without_attribute(said[2].strip()))]
        if pair is None:
            return [bare_side(within[0]), bare_side(within[1])]
    if pair is not None:
        return [bare_side(pair[0].text), bare_side(pair[1].text)]
    if len(q.names) < 2 and (given := offered(q.text)):
        return [bare_side(_without_attribute(side.strip())) for side in given]
    return [bare_side(n) for n in q.names[:2]] if len(q.names) >= 2 else []


def _acted_on(side: str, name: str) -> bool:
    """Whether a Chinese side names a thing and goes on with what is done to it ("小提琴换个琴码": the violin's
    bridge replaced; "给琴弓换马尾"): the side is the service, the name its context, not the side."""
    rest = side[side.find(name) + len(name):].strip()
    if len(rest) < 2 or not has_han(rest) or rest.startswith(("的", "之")):
        return False
    # a verb goes on after the name (换, 校直), not a kind noun that ends it (松林 | 图书馆)
    return any((flag or "").startswith("v") for _, flag in tagged_words(rest)) or _INSIDE_ZH.search(rest) is not None


def written_sides(q: Question, blob: str) -> list[str]:
    """``sides_of`` as the passages write them: a Chinese side they do not write whole is the longest tail of it
    they do write (two characters at least): what it is offered with in front of it is context — the subject's
    name or the kind of thing ("凤栖口腔洗牙" is the clinic's 洗牙, "自行车补胎" the 补胎 of a bicycle price list)."""
    sides = sides_of(q)
    said = _PAIR_ZH.search(q.text) if has_han(q.text) and len(sides) == 2 else None
    out = []
    for n, side in enumerate(sides):
        other = sides[1 - n] if len(sides) == 2 else ""
        whole = bare_side(_without_attribute(said[n + 1].strip())) if said is not None else side
        if whole != side and side in whole and mentioned((normalize(whole),), blob):
            side = whole  # the name as the sentence offers it whole, where the passages write it so (青木 → 青木装饰)
        if (title := _TITLE_IN.search(side)) is not None and title[0] != side and \
                not any(f in blob for f in spellings(q, side)) and title[0] in blob:
            side = title[0]  # a 《title》 with a word beside it (《北纬三十度》修复版): the passages' title, the word context
        if has_han(side) and not mentioned(spellings(q, side), blob):
            # the context cut is two characters at least, and the tail is not the other side's too (丙型泵 is not
            # 型泵: 甲型泵 ends so; the one character told them apart)
            # (or the one-character verb it is used with: 坐包间 is the 包间 of a tea house's price list, 买日票 its 日票)
            side = next((side[i:] for i in [*_used_with(side), *range(2, len(side) - 1)]
                         if has_han(side[i:]) and not other.endswith(side[i:])
                         and mentioned(spellings(q, side[i:]), blob)), side)
        out.append(side)
    return out


_TITLE_IN = re.compile(r"《[^《》]{1,40}》")


def _used_with(side: str) -> list[int]:
    """Where a Chinese side starts after the one-character verb it opens with (坐 of 坐包间, 买 of 买日票, 住 of 住单间),
    when two characters or more follow: how the thing is used or bought, no part of its name."""
    words = tagged_words(side)
    return [1] if len(words) >= 2 and len(words[0][0]) == 1 and (words[0][1] or "").startswith("v") \
        and len(side) >= 3 else []


_MEASURE_ZH = alternation(DOING_CLASSIFIERS_ZH)
_DOING_ZH = re.compile(rf"^(?:(?:(?![一二两三四五六七八九十百千万几半])[\u4e00-\u9fff]){{1,2}}?(?:(?:一|两|几|半){_MEASURE_ZH}|个)|(?:一|两){_MEASURE_ZH})"
                       r"(?=[\u4e00-\u9fffA-Za-z0-9]{2,}$|[A-Za-z0-9][\u4e00-\u9fffA-Za-z0-9]+$)")
"""How a Chinese side is said as something done or bought: a verb with a numeral and a measure word (拍一张, 坐一趟,
报一个), a verb with 个 alone (验个, 做个), or the numeral and measure word alone (一份, 两张): not the side's name.
A measure word with neither a numeral nor 个 before it is left (老张家面馆 keeps its 张)."""
_INSIDE_ZH = re.compile(rf"(?<=[\u4e00-\u9fff])(?<![第每这那哪])(?:一|两|几|半){_MEASURE_ZH}(?=[\u4e00-\u9fff])|"
                        r"(?<=[\u4e00-\u9fff])(?<![第每这那哪几各一两三四五六七八九十整某])个(?=[\u4e00-\u9fff])(?![人体性子])")
"""A numeral and measure word split into a separable verb (洗一次牙, 拔一颗牙, 补一个洞), or 个 alone (补个洞, 换个链条):
the side as documents name it is the verb and its object together."""
_FOR_ZH = re.compile(r"^(?:给|为|帮|替)(?=[\u4e00-\u9fffA-Za-z0-9]{3,})")
"""The preposition that brings in what a service is done for ("给内胎补个洞", "帮孩子报个班"): no part of the side."""
_DOING_EN = re.compile(r"^(?:[a-z]+ing\s+)?(?:(?:a|an|one|two|the)\s+)?(?:(?:cup|glass|bottle|box|pack|packet|bag|"
                       r"piece|slice|session|round|course|dose|shot|pair|set|night|ticket|bowl|portion|jar|tin)s?\s+"
                       r"of\s+|(?<=a |n |e |o )[a-z]+s?\s+of\s+(?=[A-Z0-9]))?(?=\S)")
"""How an English side is said as something done or bought: a gerund ("getting a blood test", "taking the
ferry"), an article, a measure ("a cup of", "two nights of", any "a <noun> of" before a capitalised name: "a crate
of Galloway Gold"): not the side's name."""


def bare_side(side: str) -> str:
    """A side of a comparison as the documents would name it: without the verb, numeral and measure word it is
    offered with ("验个血常规" → 血常规, "拍一张X光" → X光, "booking a session of X" → X), by the shape of the
    words, in either language; a side that would be left shorter than two characters (or one word) stays whole."""
    side = side.strip()
    if has_han(side):
        side = _FOR_ZH.sub("", side)
        m = _DOING_ZH.match(side)
        side = _predicate_cut(side[m.end():] if m is not None else side)
        # a numeral and measure word inside a separable verb ("洗一次牙" is 洗牙, "拔一颗牙" 拔牙), not after 第/每/这/那
        joined = _INSIDE_ZH.sub("", side)
        return joined if len(joined) >= 2 else side
    m = _DOING_EN.match(side)
    if m is None or not m.end():
        return side
    rest = side[m.end():]
    gerund = bool(re.match(r"[a-z]+ing\s", side))
    # a leading article alone is the side's ("the Old Toll Bridge" is matched as the question writes it)
    return rest if gerund or re.match(r"(?:a|an|one|two|the)\s+\S+\s+of\s|(?:a|an)\s", side) else side


_PREDICATE_TAGS = ("d", "r", "c", "p")
"""jieba's tags of the words that end a Chinese side's noun phrase and start what is said of it: an adverb (都, 各),
a distributive pronoun (各), a conjunction (如果), a preposition, and the conditional particle 的话; not a verb alone
(洗头 of 青柚理发店洗头 is the side's service, 贸易 of 禾丰贸易 its name) nor 的 (琉光工坊的吹制体验课 is the workshop's
course)."""


def _predicate_cut(side: str) -> str:
    """A Chinese side less what the question goes on to say of it ("雾岭白毫都买250克礼盒的话" → 雾岭白毫, "金秋梨各买一箱
    的话" → 金秋梨): the words from the first adverb, conjunction or particle after a noun run of two characters,
    where a verb, a number or a conditional follows there; a name that holds a verb ("拍X光") stays whole."""
    words = tagged_words(side)
    at = 0
    for n, (word, flag) in enumerate(words):
        rest = words[n:]
        if at >= 2 and ((flag or "") in _PREDICATE_TAGS or word == "的话") and any(
                (f or "")[:1] in ("v", "m") or w in ("的话", "如果") for w, f in rest):
            return side[:at]
        at += len(word)
    return side


def _without_attribute(side: str) -> str:
    """A side as offered less the attribute word the question writes after it ("乙型泵功率更大": 乙型泵)."""
    if not has_han(side):
        return side
    words = sorted((w for a in lexicon() for w in a.words if has_han(w) and len(w) >= 2), key=len, reverse=True)
    end = next((w for w in words if side.endswith(w) and len(side) - len(w) >= 2), None)
    return side[: -len(end)].rstrip("的") if end else side


@dataclass(frozen=True)
class Verdict:
    """A computed answer to a comparison or a yes/no question, and the sides it rests on."""

    text: str
    span: str | None
    sides: list[Side]


_ANNOUNCES = re.compile(r"[:：]\s*$")
"""A sentence that announces the items after it ("共征集到两份报价：", "Three quotes were received:")."""
_MARKER = re.compile(r"^\s*(?:[-*•·–]\s*|\d{1,2}\s*[.、)）]\s*|[（(]\d{1,2}[)）]\s*|[一二三四五六七八九十]{1,2}、\s*)")
"""A list item's marker ("- ", "2.", "（3）", "二、"); a marker alone is a sentence of its own when the list
numbers its items on lines of their own."""
_HEAD_END = re.compile(r"\s*(?:[:：，,;；（(]|\s[—–-]\s|\s(?=[£$€¥￥]))")
"""Where an item's name ends: the first colon, comma, bracket or dash after it ("星河电子 FM-300 型（300瓦），报价…",
"Pennant Building Services: £8,120 …")."""
LISTED_MOST = 8
"""Items of one list read as the candidates the question describes, at most."""


def _item_value(q: Question, text: str, way: Direction, attribute: Attribute | None) -> tuple[str, float] | None:
    """An item's value of the compared dimension: the year (a date compared), else a number of the attribute's
    own dimension (a price is money), the one nearest the attribute's word ("每台报价24.9万元，拆旧另收每台8,000元":
    the 报价's)."""
    kind: AnswerType = "date" if way in ("min_date", "max_date") else "number"
    found = candidates(text, kind, q.text)
    dimension = _DIMENSION_OF.get(attribute.name, attribute.name) if attribute is not None else None
    if kind == "number" and dimension in MEASURES:
        found = [c for c in found if value_dimension(text, c.start, c.end) == dimension]
    found = [c for c in found if _value(c.text, way) is not None]
    if not found:
        return None
    at = stated_at(attribute, text) if attribute is not None else []
    span = nearest(found, at) if at else found[0]
    if span is None:
        return None
    number = _value(span.text, way)
    return None if number is None else (_with_sign(text, span.start, span.text), number)


def _with_sign(text: str, start: int, value: str) -> str:
    """A value as shown, with the currency sign written before it ("£8,120", not "8,120")."""
    sign = re.search(r"[£$€¥￥]\s*$", text[max(0, start - 2) : start])
    return f"{sign[0].strip()}{value}" if sign and not value.startswith(sign[0].strip()) else value


def _head(text: str) -> str | None:
    """An item's name: its words before the value's clause, without the list marker; None when no name of two
    characters (one word) at least leads the item."""
    body = _MARKER.sub("", text, count=1)
    end = _HEAD_END.search(body)
    head = (body[: end.start()] if end else body).strip(" 　-–—")
    if len(head) < 2 or re.search(r"\d", head[:1]) or len(head) > 40 or not (has_han(head) or head[:1].isupper()):
        return None
    return head


def listed(q: Question, sentences: Sequence[Sentence], way: Direction) -> list[Side]:
    """The candidates a question describes instead of naming ("换发射机的两份报价里，哪一家便宜", "Of the three
    roofing quotes, which firm …"): the items of a list in one passage — the sentences after one that announces
    them with a colon, or a run of marked items — each led by its name and holding a value of the compared
    dimension; of the lists found, the one whose passage covers the question best. Empty when none has two."""
    attribute = compared_attribute(q) if way in ("min_number", "max_number") else None
    by_place = {(s.hit, s.position): s for s in sentences}
    size = _set_size(q.text)
    best: tuple[tuple[float, bool, float, int], list[Side]] = ((-1.0, False, -1.0, 0), [])
    for s in sentences:
        announces = bool(_ANNOUNCES.search(s.text))
        if not announces and not (_MARKER.match(s.text) and (s.hit, s.position - 1) not in by_place):
            continue
        items: list[Side] = []
        at = s.position + 1 if announces else s.position
        while len(items) < LISTED_MOST and (item := by_place.get((s.hit, at))) is not None:
            at += 1
            if not _MARKER.sub("", item.text).strip():
                continue  # the marker on a line of its own ("1."): its item follows
            value = _item_value(q, item.text, way, attribute)
            head = _head(item.text)
            if value is None or head is None:
                break
            items.append(Side(head, item, value[0], value[1]))
        if len(items) >= 2:
            # the list of as many items as the question says ("两份报价"), then the one whose words cover the
            # question best (none does across languages: the best ranked passage's)
            # (first the lists whose passage names what the question names: "Hollybrook 村礼堂…的几份报价" is
            # Hollybrook's list, not another passage's in the question's language)
            key = (anchored(q, s.context), size == len(items),
                   q.coverage(" ".join([s.folded, *(i.sentence.folded for i in items if i.sentence)])), -s.hit)
            if key > best[0]:
                best = (key, items)
    return best[1]


_SET_NOUN_EN = re.compile(r"\b(?:two|three|four|five|both)\s+(?:[a-z][\w-]*\s+){0,2}?([a-z]{3,})(?=\s*(?:[,?:]|$|\b(?:is|are|was|"
                          r"were|has|have|had|does|do|did|in|of|on|at|that|which)\b))", re.IGNORECASE)
_SET_NOUN_ZH = re.compile(r"(?:两|二|俩|三|四|五)(?:份|家|个|款|种|位|座|所|条|台|辆|项|类|件|样|处|间|支|艘|栋|名|套)"
                          r"([\u4e00-\u9fff]{1,4}?)(?=中|里|之中|当中|之间|[，,？?]|哪|谁|$)")
_MEMBER_ZH = r"(?:^|(?<=[，,。；;：:、\s（(]))((?:(?![两二三四五六七八九十几这那该每各座个家所])[\u4e00-\u9fff]){{1,4}}?){noun}"
_NOT_MEMBER = frozenset({"the", "a", "an", "both", "two", "three", "four", "five", "its", "their", "these", "those"})


def _set_noun(question: str) -> str | None:
    """The noun the question names its described set by ("the Trust's two lighthouses" → lighthouse, "两座水塔" →
    水塔), singular; None when it names none."""
    m = _SET_NOUN_ZH.search(question) if has_han(question) else _SET_NOUN_EN.search(question)
    if m is None:
        return None
    noun = m[1].casefold()
    if has_han(noun):
        return noun
    return noun[:-3] + "y" if noun.endswith("ies") else noun[:-2] if noun.endswith(("ches", "shes", "sses", "xes")) \
        else noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun


def _headed_by(name: str, noun: str) -> bool:
    """Whether a name is one of the set's kind by its own head word ("Skerrow Head Light" of lighthouses, "North
    Tower" of towers, 北水塔 of 水塔): its last word is the noun or a clipped form of it (four letters at least)."""
    if has_han(noun):
        return name.endswith(noun) and len(name) > len(noun)
    last = name.split()[-1].casefold() if len(name.split()) >= 2 else ""
    return len(last) >= 4 and (noun.startswith(last) or last.startswith(noun))


def members(q: Question, sentences: Sequence[Sentence]) -> list[str]:
    """The members of a set the question describes by a noun and a size ("which of the Trust's two lighthouses",
    "两座水塔中哪一座") as the passages name them: names headed by the noun ("Greyharbor Point Light", 北水塔), else
    the names of a sentence that states the set ("It owned two ferries, the Marram Queen and the Tansy Belle"),
    never a name the question writes itself; empty when fewer than two are found."""
    noun = _set_noun(q.text)
    if noun is None:
        return []
    asked = normalize(q.text)
    headed: dict[str, str] = {}
    stating: list[list[str]] = []
    for s in sentences:
        if has_han(noun):
            found = [m[0] for m in re.finditer(_MEMBER_ZH.format(noun=re.escape(noun)), s.text)]
        else:
            found = [c.text for c in candidates(s.text, "list", q.text)
                     if c.text.split()[0].casefold() not in _NOT_MEMBER or len(c.text.split()) > 1]
        found = [f.strip() for f in found if normalize(f) not in asked]
        for f in found:
            if _headed_by(f, noun):
                headed.setdefault(normalize(f), f)
        if not has_han(noun) and len(found) >= 2 and re.search(rf"\b{re.escape(noun[:4])}", s.folded):
            stating.append(_coordinated(s.text, found))
    if len(headed) >= 2:
        return list(headed.values())[:LISTED_MOST]
    return next((found[:LISTED_MOST] for found in stating if found), [])


_COORDINATION = re.compile(r"\s*(?:,|;|and|or|&|as well as)?\s*(?:and\s+|or\s+)?(?:the\s+)?", re.IGNORECASE)


def _coordinated(text: str, names: Sequence[str]) -> list[str]:
    """The longest run of names a sentence coordinates ("the Marram Queen and the Tansy Belle", "A, B and C"):
    the set's members, not another name the sentence says in passing (its office "on Quay Lane in Otterby")."""
    at: list[tuple[int, int, str]] = []
    for n in names:
        start = text.find(n)
        if start >= 0:
            at.append((start, start + len(n), n))
    at.sort()
    best: list[str] = []
    run: list[str] = []
    end = -1
    for start, stop, name in at:
        run = [*run, name] if run and _COORDINATION.fullmatch(text[end:start]) else [name]
        end = stop
        best = run if len(run) > len(best) else best
    return best if len(best) >= 2 else []


def described(q: Question, sentences: Sequence[Sentence], way: Direction, names: Sequence[str]) -> list[Side]:
    """The candidates of a set the question describes, each with its value: the items a passage lists
    (``listed``), else the set's members (``members``) where the two names the question holds are not both of
    them ("梅溪镇的两座石桥里": the town and the noun, no sides); empty for another question."""
    if not describes_set(q.text):
        return []
    if len(names) != 2 and (items := listed(q, sentences, way)):
        return items
    named = members(q, sentences)
    folded = [normalize(m) for m in named]
    if len(names) == 2 and all(any(normalize(n) in m or m in normalize(n) for m in folded) for n in names):
        return []  # the question names the two members itself: the pair's own comparison
    return _members_valued(q, sentences, way, named)


def _members_valued(q: Question, sentences: Sequence[Sentence], way: Direction, named: Sequence[str]) -> list[Side]:
    """The described set's members each with its own value of the compared dimension (``_side``), when two at
    least have one."""
    sides = [_side(q, m, sentences, way, named[1 - n] if len(named) == 2 else "") for n, m in enumerate(named)]
    valued = [s for s in sides if s.number is not None]
    return valued if len(valued) >= 2 else []


_SET_SIZE = {"两": 2, "二": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "two": 2, "three": 3, "four": 4, "five": 5, "both": 2}


def _set_size(question: str) -> int | None:
    """How many candidates the question says its described set holds ("两份报价", "the three quotes")."""
    m = re.search(r"(两|二|俩|三|四|五)(?:份|家|个|款|种|位|座|所|条|台|辆|项|类|件|者|样|处|间|支|艘|栋|名|套)|"
                  r"\b(two|three|four|five|both)\b", question, re.IGNORECASE)
    return _SET_SIZE[(m[1] or m[2]).casefold()] if m else None


def _ranked(q: Question, sides: Sequence[Side], way: Direction, chinese: bool) -> Verdict:
    """The verdict over the listed candidates: the one the comparative picks, each candidate's value stated."""
    lower_wins = way in ("min_date", "min_number")
    ordered = sorted(sides, key=lambda s: (s.number or 0.0) if lower_wins else -(s.number or 0.0))
    win = ordered[0]
    word = {"min_date": ("最早", "the earliest"), "max_date": ("最晚", "the latest"),
            "max_number": ("最高", "the highest"), "min_number": ("最低", "the lowest")}[way]
    if (asked := compared_attribute(q)) is not None and asked.name == "price" and way in ("min_number", "max_number"):
        word = ("最便宜", "the cheapest") if way == "min_number" else ("最贵", "the most expensive")
    if chinese:
        values = "；".join(f"{s.name}：{s.value}" for s in sides)
        text = f"{win.name}（{win.value}）{word[0]}。{values}。"
    else:
        values = "; ".join(f"{s.name}: {s.value}" for s in sides)
        text = f"{win.name} ({win.value}) is {word[1]} of the {len(sides)}: {values}."
    return Verdict(text=text, span=win.name, sides=list(sides))


def compare(q: Question, sentences: Sequence[Sentence], chinese: bool) -> Verdict | None:
    """The comparison's verdict from the value found for each side, or what is missing; over the candidates the
    question describes (``listed``) where it names none."""
    names = written_sides(q, " ".join(f"{s.title} {s.folded}" for s in sentences))
    way = compared_way(q, names)
    if way is not None and (items := described(q, sentences, way, names)):
        return _ranked(q, items, way, chinese)
    if len(names) != 2 or way is None:
        return None
    a, b = _side(q, names[0], sentences, way, names[1]), _side(q, names[1], sentences, way, names[0])
    if a.sentence is not None and a.sentence == b.sentence and a.value == b.value:
        # one value read for both sides from one sentence is one side's: the side the sentence does not write
        # itself (found by the sentences around it) is read again without it
        a, b = (_side(q, names[0], [s for s in sentences if s != a.sentence], way, names[1]), b) \
            if not _named(_described_side(q, names[0])[0], a.sentence.folded, ()) else \
            (a, _side(q, names[1], [s for s in sentences if s != b.sentence], way, names[0]))
    a, b = _one_column(q, names, sentences, way, a, b)
    if a.number is None or b.number is None:
        found = [s for s in (a, b) if s.number is not None]
        lost = [s.name for s in (a, b) if s.number is None]
        if chinese:
            have = "；".join(f"{s.name}：{s.value}" for s in found)
            text = (f"找到了{have}，但没有找到{'和'.join(lost)}的相应信息，无法比较。" if found
                    else f"没有找到{'和'.join(lost)}可比较的信息。")
        else:
            have = "; ".join(f"{s.name}: {s.value}" for s in found)
            text = (f"Found {have}, but nothing comparable for {' and '.join(lost)}: no verdict." if found
                    else f"Nothing comparable was found for {' and '.join(lost)}.")
        return Verdict(text=text, span=None, sides=[a, b])
    if a.number == b.number:
        text = (f"{a.name}与{b.name}相同（{a.value}）。" if chinese else f"{a.name} and {b.name} are the same ({a.value}).")
        return Verdict(text=text, span=None, sides=[a, b])
    lower_wins = way in ("min_date", "min_number")
    win, lose = (a, b) if (a.number < b.number) == lower_wins else (b, a)
    relation = {"min_date": ("早于", "is earlier than"), "max_date": ("晚于", "is later than"),
                "max_number": ("多于", "is more than"), "min_number": ("少于", "is less than")}[way]
    if _OLDER.search(q.text) or _YOUNGER.search(q.text):
        older = way == "min_date"
        if _PEOPLE.search(q.text) or asked_relation(q.text) == "born":
            text = (f"{win.name}（{win.value}出生）比{lose.name}（{lose.value}出生）{'年长' if older else '年轻'}。"
                    if chinese else f"{win.name} (born {win.value}) is {'older' if older else 'younger'} than "
                                    f"{lose.name} (born {lose.value}).")
        else:  # a boat, a mill, a bridge: its date is when it was built or founded, not born
            text = (f"{win.name}（{win.value}）比{lose.name}（{lose.value}）{'更早' if older else '更晚'}。" if chinese
                    else f"{win.name} ({win.value}) is {'older' if older else 'younger'} than {lose.name} "
                         f"({lose.value}).")
        return Verdict(text=text, span=win.name, sides=[a, b])
    if (word := _comparative(q.text, way)) is None and (asked := compared_attribute(q)) is not None and \
            asked.name == "price" and way in ("min_number", "max_number"):
        # "哪家贵", "which costs less": a price compared reads as cheaper or dearer, not as a count's more or less
        word = ("更便宜" if chinese else "cheaper") if way == "min_number" else ("更贵" if chinese else "more expensive")
        word = word[1:] if chinese else word
        text = (f"{win.name}（{win.value}）比{lose.name}（{lose.value}）更{word}。" if chinese
                else f"{win.name} ({win.value}) is {word} than {lose.name} ({lose.value}).")
        return Verdict(text=text, span=win.name, sides=[a, b])
    if word is not None:
        # the question's own comparative carries the verdict ("is quieter than", "比…更安静")
        text = (f"{win.name}（{win.value}）比{lose.name}（{lose.value}）{word}。" if chinese
                else f"{win.name} ({win.value}) is {word} than {lose.name} ({lose.value}).")
        return Verdict(text=text, span=win.name, sides=[a, b])
    text = (f"{win.name}（{win.value}）{relation[0]}{lose.name}（{lose.value}）。" if chinese
            else f"{win.name} ({win.value}) {relation[1]} {lose.name} ({lose.value}).")
    return Verdict(text=text, span=win.name, sides=[a, b])


_COMPARATIVE_EN = re.compile(r"\b(?:(?:more|less) [a-z]{3,}|[a-z]{3,}er)\b", re.IGNORECASE)
_COMPARATIVE_ZH = re.compile(r"(?:更|较|比较)([\u4e00-\u9fff]{1,3}?)(?=[？?，,。的]|$)|"
                             r"([\u4e00-\u9fff]{1,2})(?:一些|一点|些)(?=[？?，,。]|$)")  # 更便宜, 便宜些
_NOT_COMPARATIVE = frozenset({"never", "ever", "other", "either", "whether", "neither", "rather", "number", "under",
                              "after", "over", "per", "water", "later", "earlier", "more", "less"})


def _comparative(question: str, way: Direction) -> str | None:
    """The question's own comparative word, as the verdict may say it: "quieter", "more powerful", 更安静; None
    when the question's words are not the comparison's (or are only earlier/later, said by the default)."""
    if way in ("min_date", "max_date"):
        return None
    pattern = _LESS if way == "min_number" else _MORE
    for m in _COMPARATIVE_EN.finditer(question):
        word = m[0].casefold()
        if word.split()[-1] not in _NOT_COMPARATIVE and pattern.search(word):
            return word
    zh = _COMPARATIVE_ZH.search(question)
    # (a choice's measure word before the adjective is no part of it: 哪样贵一点 is 更贵)
    if not zh or not pattern.search(zh[0]):
        return None
    word = (zh[1] or zh[2]).lstrip('哪样个家款种位座份')
    if zh[2] and len(word) == 2:
        # nor the last character of the noun the adjective follows (茶位费低一些 is 更低: 费 ends 茶位费)
        before = tagged_words(question[: zh.end(2) - 1])
        if before and (before[-1][1] or "").startswith(("n", "vn")) and (
                tagged_words(word[1:])[0][1] or "").startswith("a"):
            word = word[1:]
    return f"更{word}"


_WANTED = {"min_date": "the earlier (older) one by its start date (founded, built, opened, born, released)",
           "max_date": "the later (newer) one by its start date", "min_number": "the one with the smaller value",
           "max_number": "the one with the larger value"}


def to_compare(q: Question) -> str | None:
    """What the LLM writer is told to find for a comparison: the candidates (named, or as the question describes
    them: each item the passages list) and the dimension each is valued on; None for another question."""
    sides = sides_of(q)
    way = compared_way(q, sides)
    if q.kind != "comparison" or way is None:
        return None
    who = " and ".join(sides) if len(sides) == 2 else "each candidate the question describes (every item the passages list of that kind)"
    attribute = compared_attribute(q) if way in ("min_number", "max_number") else None
    what = attribute.name.replace("_", " ") if attribute is not None else "the compared value"
    wanted = _WANTED[way] if attribute is None or attribute.name != "price" else \
        ("the cheaper (cheapest) one" if way == "min_number" else "the more expensive one")
    return (f"the {what} of {who}, each as a passage states it with its unit and basis (per hour, per kilo), cited; "
            f"then {wanted}; if a candidate's value is not stated, say which one is missing instead of guessing")


_SAME = re.compile(r"\bsame\b|同一|相同|一样", re.IGNORECASE)


def _stem_in(term: str, text: str) -> bool:
    """A term found as written, without a plural ending ("games": "board game"), or (Latin words of six letters
    or more) by its first five ("directors": "directed")."""
    if term in text:
        return True
    return term.isascii() and ((len(term) >= 4 and term.endswith("s") and term[:-1] in text)
                               or (len(term) >= 6 and term[:5] in text))


def yes_or_no(q: Question, sentences: Sequence[Sentence], chinese: bool) -> Verdict | None:
    """Yes when each side's passage states everything asked of both ("both film directors"), or, for "the
    same …", when they name the same value; no otherwise."""
    names = written_sides(q, " ".join(f"{s.title} {s.folded}" for s in sentences))
    if len(names) != 2:
        return None
    sides = [_side(q, n, sentences, None) for n in names]
    if any(s.sentence is None for s in sides):
        return None
    keys = {normalize(n) for n in names}
    predicate = [t for t in q.weights if t not in keys and not any(t in k for k in keys)]
    if _SAME.search(q.text):
        values = [{normalize(c.text) for c in candidates(s.sentence.text, "list", q.text)}  # type: ignore[union-attr]
                  - keys for s in sides]
        holds = bool(values[0] & values[1])
    else:
        holds = bool(predicate) and all(
            all(_stem_in(t, s.sentence.context) for t in predicate) for s in sides)  # type: ignore[union-attr]
    word = ("是" if holds else "否") if chinese else ("Yes" if holds else "No")
    return Verdict(text=f"{word}。" if chinese else f"{word}.", span=word, sides=sides)


def without_value(q: Question, evidence: Sequence[Evidence]) -> list[str]:
    """The sides of a comparison that no sentence gives a comparable value for (the announced model without a
    price, the town without a population): with one of them missing the documents cannot decide it; empty when
    each side has its value or the question is no comparison of values."""
    verdict = verdict_of(q, evidence, False) if q.kind == "comparison" else None
    if verdict is None or compared_way(q) is None:
        return []
    return [s.name for s in verdict.sides if s.number is None]


def verdict_of(q: Question, evidence: Sequence[Evidence], chinese: bool) -> Verdict | None:
    """A comparison's computed verdict or a yes/no question's answer from the single-sentence evidence."""
    sentences = [s for e in evidence if len(e.sentences) == 1 for s in e.sentences]
    if q.kind == "comparison":
        return compare(q, sentences, chinese)
    return yes_or_no(q, sentences, chinese) if q.kind == "yes_no" else None
