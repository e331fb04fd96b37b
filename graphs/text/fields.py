"""Labelled fields: a line that states a fact as ``label: value`` rather than in prose — the header block of
minutes ("主持人：邵一鸣（总经理）", "Minutes taken by: Ada Lind"), an infobox ("Born: Dremmel", "Founded: 1741"), a
spec sheet ("Noise level: 38 dB") — and a table cell as ingest writes it (``table_sentences``: ``column — row:
value``, "当前库存 — LH-F302: 76台").

Such a line is a statement "<label> of <subject> is <value>": the subject of a field block is its document's or
section's title (the minutes' title names the meeting and its date), the subject of a table cell its row label.
The answer layer reads it that way (``graphs.rag.answer.evidence``): a question that asks the attribute the label
names takes the value as its short answer when the value is of the asked kind, and a field of the asked
attribute whose value is of another kind ("Born: Dremmel" for "in which year was she born") is no evidence.
Language rules only here; what the question asks is the answer layer's."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from graphs.text.governors import role_matches
from graphs.text.normalize import has_han, normalize
from graphs.text.units import (
    COUNT_CLASSIFIERS_ZH,
    PIECE_CLASSIFIERS_ZH,
    QUANTITY_UNITS_ZH,
    SERVING_CLASSIFIERS_ZH,
    alternation,
)

LABEL_HAN = 12
"""At most this many characters make a Chinese label ("主持人", "建议零售价", "会议地点")."""
LABEL_WORDS = 5
"""At most this many words make an English label ("Minutes taken by", "Noise level", "Date of birth")."""
VALUE_CHARS = 60
"""A value longer than this is prose after a colon ("销售部汇报：自4月1日起…"), not a field's value."""

_FIELD = re.compile(r"^\s*(?:[-*•·]\s+)?(?P<label>[^:：。！？!?;；\n]{1,48}?)\s*[:：]\s*(?P<value>\S[^\n]*?)\s*$")
_CELL_LINE = re.compile(r"^\s*(?P<label>[^:：。！？!?;；\n]{1,48}?\s—\s[^:：。！？!?;；\n]{1,120}?)\s*[:：]\s*(?P<value>\S[^\n]*?)\s*$")
"""A table cell as ingest writes it whose row key is long ("2024_actual_CNY — E1 Darkroom chemicals (developer, stop
bath, fixer): 1180": the item's name and its aside): its label is its column, short; the row may be longer."""
_CELL = re.compile(r"^(?P<head>.+?)\s+—\s+(?P<row>.+)$")  # ``table_sentences``: "column — row"
_PROSE_VALUE = re.compile(r"[。！？!?；;]\s*\S|\.\s+[A-Z]")  # more than one statement after the colon
_CLOCK_HOUR, _CLOCK_MINUTES = re.compile(r"(?<![\d\w-])\d{1,2}$"), re.compile(r"\d{2}(?!\d)")  # "At 2:40": a clock
_DIGIT_COLON = re.compile(r"^(?!.*\s—\s).*\d$")  # "比例约为1：7", "won 2:1": a ratio or a score (a cell's "— row" aside)
_SAYS = re.compile(r"(?:汇报|表示|指出|说|称|认为|强调|提出|通报|介绍|回答|问|答|says?|said|asked|replied|wrote)$",
                   re.IGNORECASE)  # "唐一帆汇报：…", "She said: …": what someone says, no field
_OPENS_SENTENCE = re.compile(r"^(?:the|a|an|it|its|this|that|these|those|we|they|he|she|i|you|our|there|note|"
                             r"warning|caution|example|e\.g|i\.e|q|a)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Field:
    """A labelled value of one line: ``label`` as written (a table cell's column header), ``row`` a table cell's
    row label ("" for a field line), ``value`` as written, at ``line[start:]``."""

    label: str
    row: str
    value: str
    start: int


def field_of(line: str) -> Field | None:
    """The labelled field a line states, or None for prose: a short label (a few words, no sentence mark), a
    colon, and a short value that is one statement ("Born: Dremmel", "主持人：邵一鸣（总经理）", "当前库存 —
    LH-F302: 76台"). Prose with a colon ("销售部唐一帆汇报：自4月1日起执行…", "Note: the filter …") is no field."""
    m = _FIELD.match(line) or _CELL_LINE.match(line)
    if m is None:
        return None
    label, value = m["label"].strip(), m["value"].strip()
    clock = line[m.end("label"):m.start("value")] in (":", "：")  # "at 2:40"; a cell's "— Bed 7: 35 EUR" is spaced
    if (clock and _CLOCK_HOUR.search(label) and _CLOCK_MINUTES.match(value)) or (_DIGIT_COLON.search(label) and value[0].isdigit()) or len(value) > VALUE_CHARS or _SAYS.search(label) \
            or _PROSE_VALUE.search(value.rstrip("。.")) or (has_han(value) and "，" in value):
        return None  # a clock ("at 2:40"), a ratio ("1：7"), what someone said, prose after a colon
    row = ""
    if (cell := _CELL.match(label)) is not None:
        label, row = cell["head"].strip(), cell["row"].strip()
    if not label or (has_han(label) and len(re.sub(r"\s", "", label)) > LABEL_HAN) \
            or (not has_han(label) and (len(label.split()) > LABEL_WORDS or _OPENS_SENTENCE.match(label))):
        return None
    return Field(label=label, row=row, value=value, start=m.start("value"))


ROW_SHARED_HAN = 2
"""Chinese characters of a key-value row's label the question must write (最大载重 for 最多能载多重: 最, 载, 重)."""


def keyed_row(f: Field, block: str, question: str) -> bool:
    """Whether a table cell is the value of a key-value table (a spec sheet: "| Maximum load | 150 kg |", its
    column "Value", 数值) whose row label names what the question asks: the row holds no other cell (``block``,
    the row's other cells, is empty) and the label shares words with the question ("max" of "Maximum load" for
    "max weight", 最/载/重 of 最大载重 for 最多能载多重). Such a row label is the field's label, the column header
    says nothing; the value's own unit then tells its dimension (``graphs.text.units``)."""
    if not f.row or block.strip():
        return False
    row, folded = normalize(f.row), normalize(question)
    if has_han(row):
        return sum(1 for ch in dict.fromkeys(row) if has_han(ch) and ch in folded) >= ROW_SHARED_HAN
    asked = {w[:3] for w in re.findall(r"[a-z]{3,}", folded)}
    return any(w[:3] in asked for w in re.findall(r"[a-z]{3,}", row) if w not in _ROW_STOP)


_ROW_STOP = frozenset({"the", "and", "for", "with", "per", "from", "to"})


_ASIDE = re.compile(r"\s*[（(][^（()）]*[)）]\s*")


_LEADING_CODE = re.compile(r"^(?=[^\s]*[a-z])(?=[^\s]*\d)[a-z0-9][a-z0-9._/-]{0,11}(?:\s+(?=\S)|(?=[\u4e00-\u9fff]))")
"""A code that opens a row's key before its name ("e1 darkroom chemicals", "a-03 东区菜地"): letters with digits."""


def row_key_forms(row: str) -> tuple[str, ...]:
    """A table row's key as a question may name it, folded: as written, and without its aside, the qualifier in
    brackets that says which members the row holds or what it includes (长者读者（65岁以上）→ 长者读者, "Garden room
    (under 16s only)" → "garden room"): a reader names the row by its head, and the aside's numbers (65岁, 16s) are
    no part of the name. A key that is a code and a name (ingest's "E1 Darkroom chemicals": the item's name beside its
    code) is named by its name too: a reader writes the thing, not its code."""
    key = normalize(row)
    forms = [key, " ".join(_ASIDE.sub(" ", key).split())]
    if (code := _LEADING_CODE.match(key)) is not None and re.search(r"[a-z]{3,}|[\u4e00-\u9fff]{2,}", key[code.end():]):
        forms += [key[code.end():], " ".join(_ASIDE.sub(" ", key[code.end():]).split())]
    parts = _SCRIPTS_APART.split(key)
    if len(parts) == 2 and has_han(parts[0]) != has_han(parts[1]):
        latin, han = sorted(parts, key=has_han)
        if re.fullmatch(r"[a-z][a-z' -]*", latin) and re.fullmatch(r"[\u4e00-\u9fff]{2,}", han) and (
                len(latin.split()) >= 2 or len(han) >= 3):
            # a key named in both languages ("family loft 家庭阁楼", 营地桌 camp table): either names it; not a code
            # beside a name (d03 公犬绝育手术), nor a word that may open other rows' keys too (python 进阶)
            forms += parts
    return tuple(dict.fromkeys(f for f in forms if f))


_SCRIPTS_APART = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[a-z])|(?<=[a-z0-9)）])\s+(?=[\u4e00-\u9fff])")
"""The space between a row key's name in one script and its name in the other (ingest writes both,
``graphs.ingest.formats.base.table_sentences``)."""


def addressed(f: Field, question: str) -> bool:
    """Whether the question names a table cell's row ("LH-F302", "一类城市", 长者读者 of 长者读者（65岁以上）); a field
    line has no row to name."""
    folded = normalize(question)
    return not f.row or any(form in folded for form in row_key_forms(f.row))


def names_column(f: Field, question: str) -> bool:
    """Whether the question writes a table cell's column header itself ("普通员工" of "我是普通员工…")."""
    return bool(f.row) and len(normalize(f.label)) >= 2 and normalize(f.label) in normalize(question)


_KIND_LABEL = {
    "place": re.compile(r"(?:地点|地址|位置|所在地|场地|会场|产地|\b(?:location|venue|address|place|site)\b)\s*$", re.IGNORECASE),
    "date": re.compile(r"(?:时间|日期|\b(?:date|time)\b)\s*$", re.IGNORECASE),
}
"""Labels that name the kind of their value (会议地点, 日期, Venue): a where- or when-question asks them."""


def label_asks(f: Field, question: str, terms: Iterable[str], attribute: bool, kind: str = "") -> bool | None:
    """Whether a field's label names what the question asks: ``attribute``, the label states the asked attribute
    in the lexicon's words (Born for 出生, Noise level for "how loud"); a role the question asks by its noun or
    verb (主持人 for "who chaired", 记录 for "who took the minutes"; False: another role, 主持人 for 谁记录的);
    one of the question's relation ``terms`` (its words other than the names) written in the label (库存 in
    当前库存); a label that names the asked ``kind`` of value (会议地点 for 在哪个会议室开的, Date for "when").
    None when nothing tells."""
    if attribute or ((said := _KIND_LABEL.get(kind)) is not None and said.search(f.label)):
        return True
    role = role_matches(f.label, question)
    if role is not None:
        return role
    label = normalize(f.label)
    # a Chinese label's head is its last word (库存 of 当前库存): a question's word at its start only modifies
    # it (会议 of 会议时间 is no answer to 会议是谁主持的)
    return True if any(len(t) >= 2 and (label.endswith(t) if has_han(label) else t in label) for t in terms) \
        else None


_MEASURE_ZH = alternation(frozenset({*COUNT_CLASSIFIERS_ZH, *PIECE_CLASSIFIERS_ZH, *SERVING_CLASSIFIERS_ZH,
                                     *QUANTITY_UNITS_ZH, "斤", "两", "盏"}) - {"%", "％", "年", "月", "日"})
_ASKED_MEASURE_ZH = re.compile(rf"(?:多少|几)\s*(?:万|千|百)?\s*(?P<unit>{_MEASURE_ZH})")


def in_asked_measure(question: str, value: str) -> bool:
    """Whether a value is a number in the measure word a Chinese question counts in (46盒 for 还有多少盒, 4800斤 for
    摘了多少斤, 41,600盏 for 卖出了多少盏): the column whose cells carry that word is the one asked, whatever its
    header says (库存 beside 规格 0.3g×20粒)."""
    asked = _ASKED_MEASURE_ZH.search(question)
    if asked is None:
        return False
    return re.search(rf"\d\s*{re.escape(asked['unit'])}(?![\u4e00-\u9fff])", value) is not None
