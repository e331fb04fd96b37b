"""Numbers that are part of a name, not values: a document or case number (沪府发〔2024〕3号, "Ref. 2023/114"), a
model or part code (X300, HP-2024, YQ-K5), a numbered place or thing ("Route 42", "Gate B12", "Room 2021",
302室, 3号楼), a standard (ISO 9001:2015, GB/T 19001-2016), a form, an article or a clause ("Form 1040",
第12条), a version (v2.3.1, 版本 3.2), a telephone number or an extension (0571-86012026, 分机 2024).

The digits of such a name are never a date, a count, an amount or a year the passage states: 青水公告〔2025〕12号
does not say when anything happened, "Route 42" does not count anything. One test for every reader of dates and
numbers (``graphs.text.dates``, ``graphs.text.spans``): ``identifier_spans`` (where a text writes such names) and
``in_identifier`` (whether a found value lies in one). A question that asks for the name itself ("What is the
hotline's number?", 分机号是多少) keeps them (``asks_identifier``). Language rules only here."""

from __future__ import annotations

import re
from functools import lru_cache

_WIDTH = str.maketrans({chr(0xFF10 + i): str(i) for i in range(10)})

_CODE_TAIL = r"(?:[-‐–/.:]?[A-Za-z0-9]+)*"
"""The rest of a code after its first digits: "2023/114", "3691-1:2011", "19001-2016", "88-1907", "2019-B"."""

_DOCUMENT_ZH = re.compile(r"[\u4e00-\u9fff]{0,10}[〔［\[【]\s*\d{4}\s*[〕］\]】]\s*(?:第\s*)?(?:\d+|[〇零一二三四五六七八九十百]+)?\s*号?")
"""A Chinese document number: the issuer's short name, the year in brackets, the serial (青水公告〔2025〕第17号,
沪府发〔2024〕3号, 苍社发〔2023〕4号)."""

_LABELS_EN = (
    "route", "gate", "room", "model", "article", "section", "clause", "chapter", "building", "platform", "bus",
    "flight", "unit", "suite", "apartment", "extension", "ext", "tel", "telephone", "phone", "fax", "mobile",
    "hotline", "ref", "reference", "docket", "invoice", "ticket", "policy", "permit", "licence", "license",
    "version", "ver", "serial", "pier", "berth", "dock", "bay", "ward", "account", "pin", "id", "code", "patent",
    "part", "highway", "interstate", "exit", "annex", "appendix", "exhibit", "figure", "fig", "table", "page", "pp", "item",
    "booth", "locker", "cabin", "channel", "no", "issue", "firmware", "rev", "revision", "patch", "sku", "isbn",
    "issn", "reg", "registration", "contract",
)
"""English words that name a numbered thing or a numbered record: the number after them is its name."""
_LABELS_TITLED = ("Form", "Build", "Case", "File", "Claim", "Schedule", "Order", "Lot", "Line", "Track", "Seat",
                  "Bed", "Stand", "Release", "Train", "Flat", "Batch", "Desk")
"""Words that name a numbered thing only when written with a capital ("Form 1040", "Line 2"): written small they
are as often verbs or nouns before a count ("form 2 groups", "seat 40 guests")."""
_LABEL_EN = re.compile(
    r"(?:\b(?i:" + "|".join(sorted(_LABELS_EN, key=len, reverse=True)) + r")|\b(?:"
    + "|".join(sorted(_LABELS_TITLED, key=len, reverse=True)) + r"))\b\.?(?:\s*(?i:no\.?|number|#))?\s*[:#]?\s*"
    r"(?P<code>[A-Za-z]{0,3}[-‐–]?\d[0-9A-Za-z]*" + _CODE_TAIL + r")")
_STANDARD = re.compile(r"(?<![A-Za-z])(?:ISO(?:/IEC)?|IEC|EN|BS|DIN|ANSI|ASTM|IEEE|JIS|NF|UL|RFC|GB(?:/T|/Z)?|GBT|JGJ|CJJ|HJ|YY|"
                       r"DL|SL|JB|QB|SN|NY|HG|SJ|JT|TB|CJ)\s*(?:/T\s*)?\d+" + _CODE_TAIL)
"""A standard: "ISO 9001:2015", "ISO 3691-1:2011", "GB/T 19001-2016", "RFC 2616"."""
_NOT_CODE = frozenset({"FY", "CY", "AD", "BC", "CE", "BCE", "AY", "MY", "SY"})
"""Letters before a year that date it (FY2024: the fiscal year, AD 1066): no code."""
_CODE = re.compile(r"(?<![A-Za-z0-9])(?P<head>[A-Z]{1,6})(?:[-‐–]?[A-Z]+)*[-‐–]?\d[0-9A-Za-z]*" + _CODE_TAIL)
"""A code of capitals and digits: X300, HP-2024, B12, C-1200, YQ-K5F, QT-11."""
_VERSION = re.compile(r"(?<![A-Za-z0-9.])(?:v|V|ver\.?\s*|版本号?\s*[:：]?\s*)\d+(?:\.\d+)+|"
                      r"(?<![\d.])(?!(?:1[5-9]|20)\d{2}\.(?:0?[1-9]|1[0-2])\.\d{1,2}(?!\d))\d{1,4}\.\d{1,3}\.\d{1,4}(?![\d.])")
"""A version: v2.3.1, "ver. 4.2", 版本 3.2, a dotted triple that is no date (2.4.1, not 2024.3.14)."""
_PHONE = re.compile(r"(?<![\d.,])(?:\+\d{1,3}[\s-]?)?(?:\(\d{2,5}\)\s?)?\d{2,5}(?:[\s-]\d{2,8}){1,3}(?![\d,]|\.\d)")
"""A telephone number written in groups: 0571-86012026, 028-66551908, "0800 1999 365", "+44 20 7946 0958"."""
_LABELS_ZH = (r"电话|热线|分机|传真|手机|座机|专线|客服|型号|编号|货号|文号|批号|批次|单号|工单号?|订单号|房间号?|房号|版本号?|"
              r"邮编|证号|代码|条码|序列号|车次|航班号?|线路|合同号|案号|发票号|票号|账号|卡号|登机口|站台|展位|柜台|检票口")
_LABEL_ZH = re.compile(rf"(?:{_LABELS_ZH})\s*(?:为|是)?\s*[:：]?\s*[A-Za-z]{{0,3}}[-‐–]?\d[0-9A-Za-z]*{_CODE_TAIL}")
"""A Chinese label before a code: 分机 2024, 型号：YQ-K5, 热线电话：0571-86012026, 版本号 3.2."""
_NUMBERED_ZH = re.compile(r"第\s*\d+\s*(?:条|章|款|节|项|号|期|版|页|卷|篇|册|届|号令)|"
                          r"\d+\s*(?:号楼|号门|号线|号房|号厅|号馆|号窗口?|号柜台?|号站台|号登机口|号展位|室|栋|单元|幢|路(?:公交车?|汽车|电车|班车|车))|"
                          r"(?:公交|地铁|巴士)\s*\d+\s*(?:路|号线)")
"""A numbered article, issue or place in Chinese: 第12条, 第3期, 3号楼, 302室, 5栋, 2号线, 42路公交."""


def _phone(m: re.Match[str]) -> bool:
    """A grouped number that is a telephone number: nine digits at least, not thousands written with spaces
    ("125 000 000"), not a date's or a range's groups."""
    groups = re.split(r"[\s-]+", re.sub(r"[+()]", " ", m[0]).strip())
    digits = sum(len(g) for g in groups)
    if digits < 9 or len(groups) < 2:
        return False
    return not (len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:]) and " " in m[0])


@lru_cache(maxsize=4096)
def identifier_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where ``text`` writes a name that holds digits (a document number, a code, a numbered place, a standard,
    a version, a telephone number): (start, end) character ranges, sorted, the ones inside another left out."""
    folded = text.translate(_WIDTH)
    found: list[tuple[int, int]] = []
    for m in _DOCUMENT_ZH.finditer(folded):
        found.append((m.start(), m.end()))
    for m in _LABEL_EN.finditer(folded):
        found.append((m.start("code"), m.end("code")))
    for pattern in (_STANDARD, _VERSION, _LABEL_ZH, _NUMBERED_ZH):
        found += [(m.start(), m.end()) for m in pattern.finditer(folded)]
    for m in _CODE.finditer(folded):
        if m["head"] not in _NOT_CODE:
            found.append((m.start(), m.end()))
    found += [(m.start(), m.end()) for m in _PHONE.finditer(folded) if _phone(m)]
    found.sort(key=lambda s: (s[0], -s[1]))
    kept: list[tuple[int, int]] = []
    for start, end in found:
        if kept and start < kept[-1][1]:
            kept[-1] = (kept[-1][0], max(end, kept[-1][1]))
        else:
            kept.append((start, end))
    return tuple(kept)


def in_identifier(text: str, start: int, end: int) -> bool:
    """Whether the digits at ``text[start:end]`` are part of a name (``identifier_spans``): a value found there
    is no date, count or amount."""
    digits = [i for i in range(start, end) if text[i].isdigit()]
    if not digits:
        return False
    return any(a <= digits[0] and digits[-1] < b for a, b in identifier_spans(text))


_ASKS_IDENTIFIER = re.compile(
    r"(?:电话|热线|分机|传真|手机|号码|编号|型号|货号|文号|版本|邮编|代码|条码|序列号|车次|航班|房间号|房号|几号楼|哪个房间|"
    r"几号线|几路|哪一?条|第几条|登机口|站台|文件号|案号|账号)|"
    r"\b(?:phone|telephone|extension|ext|fax|hotline|number(?!\s+of\b)|code|model|version|reference|ref|serial|sku|part|"
    r"form|route|gate|room|platform|article|section|clause|standard|flight|bus|isbn)\b(?!\s+of\b)", re.IGNORECASE)


def asks_identifier(question: str) -> bool:
    """Whether a question asks for a name that holds digits (a telephone or extension number, a model, a
    version, a room, a route, a form, an article): then such names are its answers, not values to leave out."""
    return _ASKS_IDENTIFIER.search(question) is not None
