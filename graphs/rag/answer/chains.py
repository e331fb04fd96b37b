"""Multi-hop answers read as relation chains over the retrieved passages (English, no LLM).

A question names a subject and asks an attribute of an entity it reaches through relations: "Where was the
composer of film X born?" is X → (composer) → the person X's passage names → (born in) → a place. Each hop is
read from the passage about the entity reached so far: the relation's wording ("music by", "directed by",
"son of", "married") names the next entity, whose own passage (a retrieved passage titled with that name) holds
the next hop, so a chain is as long as the question's relations and the retrieval gives. Kinship words the
question uses for a composition are expanded ("mother-in-law": the spouse's mother; "paternal grandfather": the
father's father; "stepmother": the father's spouse).

A comparison of two entities ("Which film came out first, A or B?", "Who lived longer, A or B?", "Which film has
the director born later, A or B?") reads each side's value of the asked attribute — through the side's chain
when the question names a relation — typed (a date with its day where the passage gives one, a life's length),
and compares them; "the same country / nationality" questions compare each side's country (demonyms folded to
their country). Every step cites the sentence it was read from; nothing is answered unless every hop is found.
"""

from __future__ import annotations

import functools
import itertools
import logging
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from rapidfuzz import fuzz

from graphs.domain import Hit
from graphs.kg.mentions import strip_disambiguation
from graphs.rag.relation_cues import (
    OBJECT_KIND,
    ORGANIZATION,
    PERSON,
    PLACE,
    ROLE_CUES,
    entity_kind,
    noun_kind,
    states_role,
)
from graphs.text.answer_types import expected_answer
from graphs.text.normalize import has_han, normalize
from graphs.text.scripts import KIND_SUFFIXES
from graphs.text.sentences import split_sentences, without_markers
from graphs.text.short_forms import asked_short_form, defined_short_forms, key
from graphs.text.terms import dictionary_word

log = logging.getLogger(__name__)

PASSAGES = 10
"""Retrieved passages a chain may read (a bridge entity's passage is often ranked below the top five)."""
NAME_MATCH = 88.0
"""rapidfuzz ratio from which a question's spelling of a name and a passage title are the same name."""

# ---------------------------------------------------------------------------- names and dates

_PARTICLE = r"(?:de|da|del|della|di|do|dos|du|van|von|der|den|la|le|of|the|bin|ibn|al|mac|y|e)"
_CAP = r"(?:[A-Z]\.|(?:St|Jr|Sr|Dr|Mt)\.|[A-ZÀ-ÖØ-Þ\u0100-\u017f][\w'’\-]*)"
NAME = rf"{_CAP}(?:\s+(?:{_PARTICLE}\s+)*{_CAP})*"
"""A name as written: capitalised words, with the particles names carry ("Ludwig van Beethoven")."""
_NAME_RE = re.compile(NAME)
ZNAME = r"[\u4e00-\u9fff·]{2,12}?"
"""A Chinese name as a relation's wording gives it: the characters up to the next word that is no name (a
pattern's lookahead ``_ZEND``), cut to the name inside it by ``zh_name``."""
_ZEND = r"(?=[，。；、：:（）()\s,.;]|的|和|与|及|于|在|$)"
_ZAPPOS = r"(?=是|为|曾|也|，|。|；|、|（|\(|$)"
"""Where a name set beside its kinship word ends ("其父周世安是…", "她的父亲宋启山，…")."""
_ZCHILD = r"儿子|女儿|孩子|长子|次子|幼子|独子|长女|次女|幼女|独女"
_STYLE = (r"(?:Prince|Princess|Duke|Duchess|King|Queen|Count|Countess|Earl|Baron|Baroness|Lord|Lady|Emperor|Empress|"
          r"Landgrave|Margrave|Elector|Bishop|Archbishop|Marquess|Viscount|Sultan|Emir|Khan)")
TITLED = rf"{NAME}(?:,\s+{_STYLE}\s+of\s+{NAME})?"
"""A name with the style that tells two namesakes apart ("Christian August, Prince of Anhalt-Zerbst")."""

_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
     "december"], start=1)}
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
DATE = (rf"(?:\d{{1,2}}\s+{_MONTH},?\s+\d{{3,4}}|{_MONTH}\s+\d{{1,2}},?\s+\d{{3,4}}|{_MONTH}\s+\d{{3,4}}|"
        r"(?<![\d/])\d{3,4}(?:/\d{2,4})?(?![\d]))")
_DATE_RE = re.compile(DATE)


ZH_DATE = r"\d{3,4}年(?:\d{1,2}月(?:\d{1,2}日)?)?"
"""A Chinese date: "1958年3月14日", "1995年"."""
_ZH_DATE_RE = re.compile(r"(\d{3,4})年(?:(\d{1,2})月(?:(\d{1,2})日)?)?")


def date_key(text: str) -> tuple[int, int, int] | None:
    """A date's (year, month, day), 0 where not given; None when the text holds no date."""
    if (z := _ZH_DATE_RE.search(text)) is not None:
        return int(z[1]), int(z[2] or 0), int(z[3] or 0)
    m = _DATE_RE.search(text)
    if m is None:
        return None
    raw = m[0]
    year = int(re.findall(r"\d{3,4}", raw)[0])
    month = next((n for name, n in _MONTHS.items() if name in raw.casefold()), 0)
    day_m = re.search(r"(?<!\d)(\d{1,2})(?!\d)", raw)
    return year, month, int(day_m[1]) if day_m and month else 0


def _fold(name: str) -> str:
    return normalize(strip_disambiguation(name)).strip(" .,'\"?!")


# ---------------------------------------------------------------------------- countries

_COUNTRIES: dict[str, tuple[str, ...]] = {
    "United States": ("american", "u.s.", "usa", "united states", "america"),
    "United Kingdom": ("british", "english", "scottish", "welsh", "united kingdom", "england", "scotland", "wales",
                       "uk"),
    "France": ("french", "france"), "Germany": ("german", "germany", "west german", "east german"),
    "Italy": ("italian", "italy"), "Spain": ("spanish", "spain"), "Portugal": ("portuguese", "portugal"),
    "Russia": ("russian", "russia", "soviet", "soviet union", "ussr"), "China": ("chinese", "china"),
    "Japan": ("japanese", "japan"), "India": ("indian", "india", "bollywood"), "Iran": ("iranian", "iran", "persian"),
    "Georgia": ("georgian", "georgia"), "Canada": ("canadian", "canada", "quebec"),
    "Mexico": ("mexican", "mexico"), "Argentina": ("argentine", "argentinian", "argentinean", "argentina"),
    "Brazil": ("brazilian", "brazil"), "Australia": ("australian", "australia"),
    "New Zealand": ("new zealand", "new zealander"), "Ireland": ("irish", "ireland"),
    "Netherlands": ("dutch", "netherlands", "holland"), "Belgium": ("belgian", "belgium"),
    "Sweden": ("swedish", "sweden"), "Norway": ("norwegian", "norwagian", "norway"),
    "Denmark": ("danish", "denmark"), "Finland": ("finnish", "finland"), "Poland": ("polish", "poland"),
    "Austria": ("austrian", "austria"), "Switzerland": ("swiss", "switzerland"), "Hungary": ("hungarian", "hungary"),
    "Czech Republic": ("czech", "czech republic", "czechoslovak", "czechoslovakia"), "Greece": ("greek", "greece"),
    "Turkey": ("turkish", "turkey"), "Egypt": ("egyptian", "egypt"), "Israel": ("israeli", "israel"),
    "Pakistan": ("pakistani", "pakistan"), "Bangladesh": ("bangladeshi", "bangladesh"),
    "South Korea": ("south korean", "south korea", "korean", "korea"), "Philippines": ("filipino", "philippine",
                                                                                    "philippines"),
    "Indonesia": ("indonesian", "indonesia"), "Thailand": ("thai", "thailand"), "Vietnam": ("vietnamese", "vietnam"),
    "Nigeria": ("nigerian", "nigeria"), "South Africa": ("south african", "south africa"),
    "Ukraine": ("ukrainian", "ukraine"), "Romania": ("romanian", "romania"), "Bulgaria": ("bulgarian", "bulgaria"),
    "Serbia": ("serbian", "serbia"), "Croatia": ("croatian", "croatia"), "Yugoslavia": ("yugoslav", "yugoslavia"),
    "Slovenia": ("slovene", "slovenian", "slovenia"), "Estonia": ("estonian", "estonia"),
    "Latvia": ("latvian", "latvia"), "Lithuania": ("lithuanian", "lithuania"), "Armenia": ("armenian", "armenia"),
    "Chile": ("chilean", "chile"), "Peru": ("peruvian", "peru"), "Colombia": ("colombian", "colombia"),
    "Cuba": ("cuban", "cuba"), "Venezuela": ("venezuelan", "venezuela"), "Panama": ("panamanian", "panama"),
    "Puerto Rico": ("puerto rican", "puerto rico"), "Trinidad and Tobago": ("trinidadian", "trinidad and tobago"),
    "Jamaica": ("jamaican", "jamaica"), "Iceland": ("icelandic", "iceland"), "Malaysia": ("malaysian", "malaysia"),
    "Sri Lanka": ("sri lankan", "sri lanka"), "Nepal": ("nepalese", "nepali", "nepal"),
    "Afghanistan": ("afghan", "afghanistan"), "Iraq": ("iraqi", "iraq"), "Syria": ("syrian", "syria"),
    "Lebanon": ("lebanese", "lebanon"), "Saudi Arabia": ("saudi", "saudi arabia"), "Morocco": ("moroccan", "morocco"),
    "Algeria": ("algerian", "algeria"), "Tunisia": ("tunisian", "tunisia"), "Kenya": ("kenyan", "kenya"),
    "Ethiopia": ("ethiopian", "ethiopia"), "Ghana": ("ghanaian", "ghana"), "Taiwan": ("taiwanese", "taiwan"),
    "Hong Kong": ("hong kong",), "Singapore": ("singaporean", "singapore"), "Uruguay": ("uruguayan", "uruguay"),
    "Bolivia": ("bolivian", "bolivia"), "Ecuador": ("ecuadorian", "ecuador"), "Slovakia": ("slovak", "slovakia"),
    "Belarus": ("belarusian", "belarus"), "Kazakhstan": ("kazakh", "kazakhstan"), "Uzbekistan": ("uzbek",
                                                                                               "uzbekistan"),
    "Luxembourg": ("luxembourgish", "luxembourg"), "Monaco": ("monegasque", "monaco"),
}
_COUNTRY_OF = {word: country for country, words in _COUNTRIES.items() for word in words}
_COUNTRY_RE = re.compile(r"(?<![\w])(" + "|".join(sorted((re.escape(w) for w in _COUNTRY_OF), key=len, reverse=True))
                         + r")(?![\w])", re.IGNORECASE)


def countries_in(text: str) -> list[str]:
    """The countries a text names or implies by a demonym ("a 1935 British film", "in St. Petersburg, Russia"),
    in order, each once."""
    found = [_COUNTRY_OF[m[1].casefold()] for m in _COUNTRY_RE.finditer(text)
             if not (m[1].isupper() is False and m[1][:1].islower())]
    return list(dict.fromkeys(found))


# ---------------------------------------------------------------------------- passages


@dataclass(frozen=True)
class Passage:
    """One retrieved passage: its rank, title (folded), sentences."""

    hit: int
    title: str
    names: tuple[str, ...]
    text: str
    sentences: tuple[str, ...]
    kind: str = ""
    """What the passage's subject is, where its title's brackets or its opening say it ("song", "album", "film",
    "电影"): two passages of one title (a song and an album) are told apart by the kind the question names."""
    heading: str = ""
    """Its title as written, where its brackets give a year the text does not ("Always (2011 film)")."""

    def sentence_at(self, offset: int) -> str:
        """The sentence that holds a character offset of the passage's text."""
        pos = 0
        for s in self.sentences:
            at = self.text.find(s, pos)
            if at < 0:
                continue
            if at <= offset < at + len(s):
                return s
            pos = at + len(s)
        return self.sentences[0] if self.sentences else self.text


def merged(texts: Sequence[str], overlap: int = 300) -> str:
    """A document's chunks, in order, as one text (the overlap the splitter repeats between two chunks kept
    once)."""
    out = ""
    for text in texts:
        shared = next((k for k in range(min(overlap, len(out), len(text)), 0, -1) if out.endswith(text[:k])), 0)
        out = f"{out}{text[shared:]}" if shared else (f"{out}\n{text}" if out else text)
    return out


def names_relation(question: str) -> bool:
    """Whether a question names a relation between entities ("the director of", "father-in-law", 的导演)."""
    return bool(_REL_WORD.search(question))


def wanted(question: str) -> bool:
    """Whether a question has a shape the chains read (a relation, a pair compared, "the same …"): then the
    whole documents of the retrieved chunks are worth fetching (a person's opening sentence states the birth,
    the chunk retrieved may be a later one)."""
    if asked_short_form(question) is not None or _APPOSED.search(question):
        return True
    if has_han(question):
        return bool(_REL_WORD.search(question) or _DESCRIBES_ZH.search(question) or described_slots(question)
                    or _ZH_HOLDER_ASKED.search(question))
    return bool(_REL_WORD.search(question) or pair_of(question) or same_pair(question) or _DESCRIBES.search(question))


_ZH_HOLDER_ASKED = re.compile(r"[\u4e00-\u9fff](?:长|人|者|师|员|主任|经理|主编)的?(?:出生|生于|毕业|来自|是哪|在哪|哪一年|哪年|多大)")
"""A Chinese question that asks something of the holder of a role it names (青崖天文台台长出生在哪个县, X的创始人毕业于
哪所大学): the holder is the entity the chain reaches, by the role's sentence."""


Lookup = Callable[[str], Sequence[Hit]]
"""Finds the passage about a name the retrieval did not bring (a search of the index by the name): the next
hop of a chain, looked up as the planner's sub-question "what is X's passage" would. Of what it returns, a
passage titled with the name joins the chain; the others only tell that some document mentions the name."""
Fetch = Callable[[str], str | None]
"""A document's whole text by its id (its chunks in order), None when the store has none."""
LOOKUPS = 6
"""Names looked up per question at most (a chain of three described steps looks up from each)."""


class Passages(list[Passage]):
    """The passages a chain reads, the hits they are (extended by the passages looked up) and the lookup."""

    def __init__(self, items: Sequence[Passage], hits: Sequence[Hit], lookup: Lookup | None = None,
                 fetch: Fetch | None = None) -> None:
        super().__init__(items)
        self.hits = list(hits)
        self.lookup = lookup
        self.looked: set[str] = set()
        self.mentioned: dict[str, set[str]] = {}
        """Per name looked up, the documents the search found that mention it without being titled with it."""
        self.fetch = fetch
        self.fetched: set[int] = set()

    def complete(self, p: Passage) -> Passage | None:
        """The passage as its whole document, when only a chunk of it was read and the document is longer (the
        chunk retrieved for a person is often not the one whose opening states the birth); None otherwise."""
        if self.fetch is None or p.hit in self.fetched or p.hit >= len(self.hits):
            return None
        self.fetched.add(p.hit)
        text = self.fetch(self.hits[p.hit].doc_id)
        if not text or len(text) <= len(p.text):
            return None
        whole = _passage(p.hit, self.hits[p.hit], text)
        for i, q in enumerate(self):
            if q.hit == p.hit:
                self[i] = whole
        return whole

    def look_up(self, name: str) -> bool:
        """Add the passages the lookup finds for a name; whether any was added."""
        key = _fold(name)
        if self.lookup is None or key in self.looked or len(self.looked) >= LOOKUPS:
            return False
        self.looked.add(key)
        have = {h.doc_id for h in self.hits}
        added = False
        for h in self.lookup(name):
            title = strip_disambiguation(h.title).strip()
            # a Chinese run ending in a kind word starts where the sentence's verb ends, which no pattern sees:
            # "进入澜石造船厂" finds the page titled 澜石造船厂
            tail = has_han(name) and len(title) >= 3 and name.endswith(title)
            if not same_name(h.title, name) and not tail:
                if key in normalize(h.text):
                    self.mentioned.setdefault(key, set()).add(h.doc_id)
                continue
            if h.doc_id in have:
                continue
            self.append(_passage(len(self.hits), h, h.text))
            self.hits.append(h)
            have.add(h.doc_id)
            added = True
        return added


def passages_of(hits: Sequence[Hit], limit: int = PASSAGES, full: Mapping[str, str] | None = None,
                lookup: Lookup | None = None, fetch: Fetch | None = None) -> Passages:
    """The passages the chains read: the hits' documents as a whole where ``full`` has them, else the hits
    (``fetch`` completes one when a hop or the attribute is not in its chunk)."""
    return Passages([_passage(n, h, (full or {}).get(h.doc_id)) for n, h in enumerate(hits[:limit])], hits, lookup,
                    fetch)


def _passage(n: int, h: Hit, whole: str | None) -> Passage:
    text = without_markers(whole or h.text)
    title = _fold(h.title)
    lead = _ALIAS.search(text[:300])
    names = (title, *((_fold(lead[1]),) if lead else ()))
    head = title.split(",")[0].strip()
    if head != title and len(head.split()) >= 2:
        names = (*names, head)
    # the name in the other script in brackets after the title as the opening writes it ("云岫陶瓷（Yunxiu
    # Ceramics）是…"): an English question names the entity so
    shown = strip_disambiguation(h.title or "")
    bracket = re.match(rf"\s*(?:#[^\n]*\n\s*)?{re.escape(shown)}\s*[（(]([^()（）\d]{{2,40}})[)）]", text) if shown else None
    if bracket is not None and has_han(bracket[1]) != has_han(shown):
        names = (*names, _fold(bracket[1]))
    # a page title's site name after a dash or bar ("Quillhaven - Coastpedia") is not the entity's
    site = re.split(r"\s+[-|–—]\s+", title, maxsplit=1)[0].strip()
    if site != title and len(site) >= 3:
        names = (*names, site)
    year = title_year(h.title or "")
    return Passage(hit=n, title=title, names=names, text=text, sentences=tuple(split_sentences(text) or [text]),
                   kind=_kind_of(h.title, text), heading=h.title.strip() if year and year not in text else "")


_TITLE_YEAR = re.compile(r"\((\d{3,4})\s+(?:[A-Za-z-]+\s+){0,3}?[a-z-]+\)\s*$|（(\d{3,4})年[^（）]{1,8}）\s*$")
"""A year with the kind of work in a title's trailing brackets: "(1949 film)", "(2011 Korean TV series)"."""


def title_year(title: str) -> str | None:
    """The year a title's trailing brackets give its work ("Always (2011 film)" → "2011"); None without one."""
    m = _TITLE_YEAR.search(title)
    return (m[1] or m[2]) if m else None


_KIND_WORDS = ("film", "movie", "song", "single", "album", "book", "novel", "band", "opera", "play", "magazine",
               "series", "documentary", "company", "town", "city", "village", "river", "电影", "歌曲", "专辑", "小说",
               "歌剧", "乐队", "公司")
_KIND_SET = frozenset(w.casefold() for w in _KIND_WORDS)
_KIND_RE = re.compile(r"\b(" + "|".join(w for w in _KIND_WORDS if w.isascii()) + r")s?\b|("
                      + "|".join(w for w in _KIND_WORDS if not w.isascii()) + ")", re.I)


def _kind_of(title: str, text: str) -> str:
    """The kind a passage's title brackets name ("Ember Line (album)"), else the first its opening names."""
    bracket = re.search(r"[(（]([^()（）]+)[)）]\s*$", title)
    for source in ((bracket[1],) if bracket else ()) + (text[:160],):
        if (m := _KIND_RE.search(source)) is not None:
            return next(g for g in m.groups() if g).casefold()
    return ""


def _kind_before(question: str, at: int) -> str:
    """The kind word the question writes just before a name ("the album Ember Line", "电影《北岸》")."""
    found = [next(g for g in m.groups() if g).casefold() for m in _KIND_RE.finditer(question[max(0, at - 14):at])]
    return found[-1] if found else ""


_ALIAS = re.compile(rf"(?:known professionally as|better known as|also known as|known as)\s+({NAME})")


def passage_named(passages: Sequence[Passage], name: str, exclude: int | None = None,
                  lookup: bool = False) -> Passage | None:
    """The passage about a name: its title (or the alias its opening gives) is that name, or, for a name of two
    words or more, nearly so; the best ranked first."""
    key = _fold(name)
    if len(key) < 2:
        return None
    best: tuple[float, int, Passage] | None = None
    for p in passages:
        if p.hit == exclude:
            continue
        for t in p.names:
            score = 100.0 if t == key else (fuzz.ratio(t, key) if " " in key else 0.0)
            if score < NAME_MATCH and " " in key and (t.startswith(key + " ") or key.startswith(t + " ")) \
                    and len(t.split()) >= 2 and len(key.split()) >= 2:
                score = NAME_MATCH  # "Frank Lloyd" for "Frank William George Lloyd"? no: same head words only
            if score >= NAME_MATCH and (best is None or (score, -p.hit) > (best[0], -best[1])):
                best = (score, p.hit, p)
    if best is None and "," in key and (head := key.split(",")[0].strip()) and len(head.split()) >= 2:
        return passage_named(passages, head, exclude, lookup)  # "Nicholas the Small, Duke of Ziębice"
    if best is None and lookup and isinstance(passages, Passages) and passages.look_up(name):
        return passage_named(passages, name, exclude)
    return best[2] if best else None


def same_name(title: str, name: str) -> bool:
    """Whether a passage's title is a name (what a lookup keeps of what the search finds)."""
    return passage_named([_passage(0, Hit(id="", doc_id="", title=title, text="", score=0.0, channel="bm25"), "")],
                         name) is not None


# ---------------------------------------------------------------------------- relations between entities

_R = dict[str, tuple[str, ...]]
RELATIONS: _R = {
    # relation noun of the question → patterns in the subject's passage whose group 1 names the related entity
    "director": (rf"(?:co-)?[Dd]irected\s+(?:and\s+[a-z]+\s+)?by\s+(?:[a-z-]+\s+){{0,4}}?({TITLED})", rf"director\s+({TITLED})",
                 rf"({TITLED})\s+(?:[Dd]irected|co-[Dd]irected)\b", rf"\bby\s+(?:[A-Z][a-z]+\s+)?(?:film\s+)?director\s+"
                 rf"(?:and\s+[a-z]+\s+)?({TITLED})", rf"\bfilm\s+by\s+({TITLED})",
                 rf"[Dd]irected\s+by\s+(?:the\s+|an?\s+)?(?:[\w-]+\s+){{0,3}}?(?:director|filmmaker|film-maker|"
                 rf"documentarian|documentary\s+maker)\s+({TITLED})",
                 # Chinese: 由苏映雪导演, 导演为韩冬, 韩冬执导的
                 rf"由({ZNAME})(?:导演|执导|导|监制)", rf"导演(?:是|为|：|:)({ZNAME}){_ZEND}", rf"({ZNAME})(?:执导|导演)的"),
    "composer": (rf"[Mm]usic\s+(?:\w+\s+){{0,2}}?(?:[Cc]omposed|[Ww]ritten|scored)\s+by\s+({TITLED})",
                 rf"(?:[Mm]usic|score)\s+(?:\w+\s+){{0,2}}?(?:was|is)\s+(?:[Cc]omposed\s+)?by\s+({TITLED})",
                 rf"[Mm]usic\s+by\s+({TITLED})", rf"(?:score|soundtrack)\s+(?:\w+\s+){{0,2}}?by\s+({TITLED})", rf"[Cc]omposed\s+by\s+({TITLED})", rf"composer\s+({TITLED})",
                 rf"song\s+[Ww]ritten\s+by\s+(?:[\w-]+\s+){{0,4}}?({TITLED})", rf"[Ww]ritten\s+by\s+(?:[\w-]+\s+){{0,4}}?({TITLED})",
                 rf"(?:配乐|作曲|音乐|谱曲)(?:是|为|由|：|:)({ZNAME}){_ZEND}", rf"由({ZNAME})(?:作曲|配乐|谱曲)"),
    "performer": (rf"[Pp]erformed\s+by\s+({TITLED})", rf"(?:song|single|track|ballad|hit)\s+by\s+(?:[\w-]+\s+){{0,6}}?({TITLED})",
                  rf"[Rr]ecorded\s+by\s+({TITLED})", rf"[Ss]ung\s+by\s+({TITLED})", rf"\bby\s+(?:[\w-]+\s+){{0,6}}?({TITLED})",
                  rf"由({ZNAME})(?:演唱|演奏|录制)", rf"(?:演唱者|歌手|演唱)(?:是|为|：|:)({ZNAME}){_ZEND}",
                  rf"是({ZNAME})的(?:第[一二三四五六七八九十]+张)?(?:录音室)?(?:专辑|单曲|歌曲)"),
    "producer": (rf"[Pp]roduced\s+by\s+({TITLED})", rf"producer\s+({TITLED})",
                 rf"(?:制作人|制片人|监制)(?:是|为|：|:)({ZNAME}){_ZEND}", rf"由({ZNAME})(?:制作|监制)"),
    "writer": (rf"[Ww]ritten\s+by\s+(?:[\w-]+\s+){{0,3}}?({TITLED})", rf"(?:novel|book|play|screenplay)\s+by\s+({TITLED})",
               # "a novel by the Tollish writer Mirela Kost": the name after the descriptor's kind word
               rf"(?:[Ww]ritten|novel|book|play|screenplay|memoir|poem|story|collection)\s+by\s+(?:the\s+|an?\s+)?"
               rf"(?:[\w-]+\s+){{0,3}}?(?:writer|author|novelist|poet|playwright|journalist|essayist)\s+({TITLED})",
               rf"(?:作者|编剧|作家|撰稿)(?:是|为|：|:)({ZNAME}){_ZEND}", rf"由({ZNAME})(?:编剧|撰写|创作|所著)",
               rf"({ZNAME})(?:所著|著)的"),
    "founder": (rf"(?:[Ff]ounded|[Ee]stablished|[Ss]et\s+up|[Ss]tarted)\s+(?:(?:in|at|on)\s+[^.;()]{{1,40}}?\s+)?by\s+"
                rf"(?:the\s+|an?\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})", rf"({TITLED})\s+[Ff]ounded\b",
                rf"(?:founder|co-founder)\s+(?:is|was)\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
                rf"由({ZNAME})(?:于[^，。；]{{0,14}}?)?(?:在[^，。；]{{0,10}}?)?(?:创立|创办|成立|创建|建立)",
                rf"(?:创始人|创办人)(?:是|为|：|:)({ZNAME}){_ZEND}"),
    "manufacturer": (rf"(?:[Mm]ade|[Mm]anufactured|[Bb]uilt|[Pp]roduced)\s+by\s+(?:the\s+)?({TITLED})",
                     rf"由({ZNAME})(?:生产|制造|出品)", rf"(?:生产商|制造商|厂商)(?:是|为|：|:)({ZNAME}){_ZEND}"),
    "father": (rf"\b(?:son|daughter|child|heir)\s+of\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
               rf"\b(?:[Hh]is|[Hh]er|[Ww]hose)\s+father,?\s+(?:(?:was|is)\s+)?(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
               rf"[Bb]orn\s+(?:(?:in|at|on)\s+[^.;()]{{1,40}}?\s+)?(?:from|to)\s+(?:the\s+marriage\s+of\s+)?({TITLED})",
               rf"\bfather\s+(?:was|is)\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
               rf"(?:父亲|爸爸|生父)(?:是|为|：|:)({ZNAME}){_ZEND}",
               # 其父周世安是…, 她的父亲宋启山是…: the name set beside the kinship word; 他是商人周承德的儿子
               rf"(?:其|他的|她的)(?:父亲|父|生父)({ZNAME}){_ZAPPOS}", rf"是({ZNAME})的(?:{_ZCHILD}){_ZEND}"),
    "mother": (rf"\b(?:[Hh]is|[Hh]er|[Ww]hose)\s+mother,?\s+(?:(?:was|is)\s+)?(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
               rf"\b(?:son|daughter|child)\s+of\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?{NAME}(?:,\s+{_STYLE}\s+of\s+{NAME})?,?\s+and\s+(?:(?:his|her)\s+(?:(?:first|second|third|fourth|later)\s+)?(?:wife|consort),?\s+)?({TITLED})",
               rf"[Bb]orn\s+(?:(?:in|at|on)\s+[^.;()]{{1,40}}?\s+)?(?:from|to)\s+(?:the\s+marriage\s+of\s+)?{NAME}\s+and\s+"
               rf"(?:his\s+wife\s+)?({TITLED})",
               rf"\bmother\s+(?:was|is)\s+({TITLED})", rf"(?:母亲|妈妈|生母)(?:是|为|：|:)({ZNAME}){_ZEND}",
               rf"(?:其|他的|她的)(?:母亲|母|生母)({ZNAME}){_ZAPPOS}"),
    "spouse": (rf"\b[Mm]arried\s+(?:to\s+)?(?:(?:firstly|secondly|thirdly)\s+(?:with\s+)?)?(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
               rf"\b(?:wife|husband|spouse|widow|widower|consort)\s+of\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
               rf"\bmarriage\s+to\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
               rf"\b(?:[Hh]is|[Hh]er)\s+(?:wife|husband|spouse),?\s+(?:(?:was|is)\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
               rf"({TITLED}),?\s+whom\s+(?:he|she)\s+[Mm]arried",
               rf"(?:丈夫|妻子|配偶|夫人|老公|老婆|太太)(?:是|为|：|:)({ZNAME}){_ZEND}", rf"(?:嫁给|娶)了?({ZNAME}){_ZEND}",
               rf"与({ZNAME})(?:结婚|成婚)"),
    "child": (rf"\b(?:[Hh]is|[Hh]er|[Tt]heir)\s+(?:son|daughter|child|children)\s+(?:(?:was|is|were)\s+)?(?:the\s+)?"
              rf"(?:[a-z-]+\s+){{0,4}}?({TITLED})",
              rf"\b(?:bore|had)\s+(?:him|her)\s+a\s+(?:son|daughter|child)\s+(?:named\s+)?({TITLED})",
              rf"\b(?:father|mother)\s+of\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
              rf"\b(?:had|has|have)\s+(?:a|an|one|two|three|four)\s+(?:[a-z]+\s+)?(?:son|daughter|child|children)s?,?\s+"
              rf"(?:named\s+|called\s+)?({TITLED})",
              rf"(?:儿子|女儿|孩子|子女|长子|次子|长女|次女)(?:是|为|名叫|：|:)({ZNAME}){_ZEND}",
              rf"(?:其|他的|她的)(?:{_ZCHILD})({ZNAME}){_ZAPPOS}"),
    "sibling": (rf"\b(?:[Hh]is|[Hh]er|[Tt]heir)\s+(?:(?:elder|older|younger|twin|half-|step)\s*)?(?:brother|sister|sibling)s?,?\s+"
                rf"(?:(?:was|is)\s+)?(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
                rf"\b(?:(?:elder|older|younger|twin|half-)\s*)?(?:brother|sister|sibling)\s+of\s+(?:the\s+)?"
                rf"(?:[a-z-]+\s+){{0,3}}?({TITLED})",
                rf"(?:其|他的|她的)?(?:哥哥|弟弟|姐姐|妹妹|兄长|兄弟|姐妹|胞兄|胞弟)(?:是|为|：|:)?({ZNAME}){_ZAPPOS}",
                rf"是({ZNAME})的(?:哥哥|弟弟|姐姐|妹妹|兄长|胞兄|胞弟){_ZEND}"),
    # roles of a club, a building, a restaurant, an institution ("its manager is X", "designed by X", "主场为X")
    "manager": (rf"\b(?:[Mm]anager|[Hh]ead\s+coach|[Cc]oach)\s+(?:is|was)\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
                rf"\b[Mm]anaged\s+by\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
                rf"(?:主教练|教练|主帅|经理)(?:是|为|：|:)({ZNAME}){_ZEND}", rf"由({ZNAME})(?:执教|担任主教练)"),
    "designer": (rf"\b[Dd]esigned\s+by\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
                 rf"\b(?:designer|architect)\s+(?:is|was)\s+(?:the\s+)?(?:[a-z-]+\s+){{0,3}}?({TITLED})",
                 rf"由(?:工程师|建筑师|设计师)?({ZNAME})设计", rf"(?:设计者|设计师|建筑师)(?:是|为|：|:)({ZNAME}){_ZEND}"),
    "chef": (rf"\b(?:[Hh]ead\s+)?[Cc]hef\s+(?:is|was)\s+(?:the\s+)?({TITLED})",
             rf"由厨师({ZNAME})(?:于[^，。；]{{0,14}}?|在[^，。；]{{0,14}}?)?(?:首创|创制|发明)",
             rf"(?:厨师|主厨)(?:是|为|：|:)({ZNAME}){_ZEND}"),
    "home_ground": (rf"\bhome\s+(?:matches|games)\s+at\s+(?:the\s+)?({TITLED})",
                    rf"\bhome\s+(?:ground|stadium|venue)\s+(?:is|was)\s+(?:the\s+)?({TITLED})",
                    rf"主场(?:是|为|：|:|设在)({ZNAME}){_ZEND}"),
    "operator": (rf"\b(?:[Rr]un|[Oo]perated|[Oo]wned|[Mm]anaged)\s+by\s+(?:the\s+)?({TITLED})",
                 rf"由({ZNAME})(?:运营|经营|管理)", rf"(?:运营方|运营商|经营者)(?:是|为|：|:)({ZNAME}){_ZEND}"),
}
RELATION_WORDS: dict[str, str] = {
    "director": "director", "directors": "director", "composer": "composer", "performer": "performer",
    "singer": "performer", "producer": "producer", "writer": "writer", "author": "writer", "screenwriter": "writer",
    "founder": "founder", "father": "father", "mother": "mother", "husband": "spouse", "wife": "spouse",
    "spouse": "spouse", "[Mm]arried": "spouse", "child": "child", "son": "child", "daughter": "child",
    "manufacturer": "manufacturer", "maker": "manufacturer",
    "brother": "sibling", "sister": "sibling", "sibling": "sibling", "哥哥": "sibling", "弟弟": "sibling",
    "姐姐": "sibling", "妹妹": "sibling", "兄弟": "sibling", "姐妹": "sibling",
    # Chinese: the same relations as a Chinese question names them ("《北岸》的导演", "周敏华的丈夫")
    "导演": "director", "作曲": "composer", "作曲家": "composer", "配乐": "composer", "配乐作者": "composer",
    "配乐者": "composer", "作曲者": "composer", "演唱者": "performer",
    "歌手": "performer", "制作人": "producer", "制片人": "producer", "作者": "writer", "编剧": "writer",
    "作家": "writer", "创始人": "founder", "创办人": "founder", "父亲": "father", "爸爸": "father",
    "母亲": "mother", "妈妈": "mother", "丈夫": "spouse", "妻子": "spouse", "配偶": "spouse", "老公": "spouse",
    "老婆": "spouse", "儿子": "child", "女儿": "child", "孩子": "child", "子女": "child", "生产商": "manufacturer",
    "制造商": "manufacturer", "厂商": "manufacturer", "出生地": "birthplace", "birthplace": "birthplace",
    "hometown": "birthplace", "家乡": "birthplace",
    "manager": "manager", "head coach": "manager", "coach": "manager", "主教练": "manager", "教练": "manager",
    "designer": "designer", "architect": "designer", "设计者": "designer", "设计师": "designer",
    "建筑师": "designer", "head chef": "chef", "chef": "chef", "厨师": "chef", "主厨": "chef",
    "home ground": "home_ground", "stadium": "home_ground", "主场": "home_ground",
}
KINSHIP: dict[str, tuple[str, ...]] = {
    # a [Cc]omposed kinship word: the relations it is made of, the first applied first
    "paternal grandfather": ("father", "father"), "paternal grandmother": ("father", "mother"),
    "maternal grandfather": ("mother", "father"), "maternal grandmother": ("mother", "mother"),
    "father-in-law": ("spouse", "father"), "mother-in-law": ("spouse", "mother"),
    "son-in-law": ("child", "spouse"), "daughter-in-law": ("child", "spouse"), "child-in-law": ("child", "spouse"),
    "stepmother": ("father", "spouse"), "stepfather": ("mother", "spouse"),
    "grandfather": ("father", "father"), "grandmother": ("father", "mother"),
    "婆婆": ("spouse", "mother"), "公公": ("spouse", "father"), "岳母": ("spouse", "mother"),
    "丈母娘": ("spouse", "mother"), "岳父": ("spouse", "father"), "丈人": ("spouse", "father"),
    "儿媳": ("child", "spouse"), "儿媳妇": ("child", "spouse"), "女婿": ("child", "spouse"),
    "爷爷": ("father", "father"), "祖父": ("father", "father"), "奶奶": ("father", "mother"),
    "祖母": ("father", "mother"), "外公": ("mother", "father"), "外祖父": ("mother", "father"),
    "外婆": ("mother", "mother"), "外祖母": ("mother", "mother"), "继母": ("father", "spouse"),
    "继父": ("mother", "spouse"),
    # through a sibling, a grandchild, a stepchild (an uncle or aunt read on the father's side first)
    "brother-in-law": ("spouse", "sibling"), "sister-in-law": ("spouse", "sibling"),
    "sibling-in-law": ("spouse", "sibling"), "uncle": ("father", "sibling"), "aunt": ("father", "sibling"),
    "paternal uncle": ("father", "sibling"), "paternal aunt": ("father", "sibling"),
    "maternal uncle": ("mother", "sibling"), "maternal aunt": ("mother", "sibling"),
    "grandchild": ("child", "child"), "grandson": ("child", "child"), "granddaughter": ("child", "child"),
    "stepson": ("spouse", "child"), "stepdaughter": ("spouse", "child"), "stepchild": ("spouse", "child"),
    "叔叔": ("father", "sibling"), "伯父": ("father", "sibling"), "姑姑": ("father", "sibling"),
    "舅舅": ("mother", "sibling"), "姨妈": ("mother", "sibling"), "孙子": ("child", "child"),
    "孙女": ("child", "child"), "外孙": ("child", "child"), "外孙女": ("child", "child"),
}
_COMPILED = {r: tuple(re.compile(p) for p in ps) for r, ps in RELATIONS.items()}
_GENDERED = {"husband": "spouse", "wife": "spouse"}


_HONORIFIC = re.compile(r"^(?:(?:King|Queen|Emperor|Empress|Prince|Princess|Pope|Sir|Lord|Lady|Duke|Duchess|Count|"
                        r"Countess|General|President|Professor|Dr\.|Hetman|Sultan|Emir|Tsar|Czar)\s+)+(?=[A-Z])")


_SHE = re.compile(r"\b(?:she|her|hers|herself)\b|她", re.I)
_HE = re.compile(r"\b(?:he|his|him|himself)\b|他", re.I)
LEAD_PRONOUNS = 600
"""Characters of a person's passage whose pronouns tell the person's gender."""


def gender_of(p: Passage) -> str | None:
    """"f" or "m" by the pronouns the passage's opening uses of its subject, None when they do not tell."""
    lead = p.text[:LEAD_PRONOUNS]
    she, he = len(_SHE.findall(lead)), len(_HE.findall(lead))
    return "f" if she > he else "m" if he > she else None


_PARENT_GENDER = {"father": "m", "mother": "f"}


def candidates_of(p: Passage, relation: str, passages: Sequence[Passage], subject: str) -> list[tuple[str, str]]:
    """Every entity a passage names for a relation (a retrieved passage's title first, then in the order of
    the relation's wordings and of the text), each once, with its sentence. "The son of X" names a parent of
    either sex: for a father or a mother, a parent whose own passage speaks of a person of the other sex is
    not taken, and a mother is also found through the wordings that name one parent."""
    found: list[tuple[int, int, str, str]] = []
    patterns = list(_COMPILED[relation])
    if relation == "mother":
        patterns += [q for q in _COMPILED["father"] if q.pattern.startswith(r"\b(?:son|daughter|child|heir)\s+of")]
    for rank, pattern in enumerate(patterns):
        for m in pattern.finditer(p.text):
            for start, name in _names_from(p.text, m.start(1), m[1]):
                written, name = name, _HONORIFIC.sub("", name)  # "Emperor Lothair I": the passage is "Lothair I"
                if has_han(name):
                    name = zh_name(name, passages)
                if not name or _fold(name) in (subject, p.title) or _fold(name) in p.names:
                    continue
                target = passage_named(passages, name, exclude=p.hit)
                if target is None and written != name and (target := passage_named(passages, written, exclude=p.hit)):
                    name = written  # the passage is titled with the honorific ("Prince Harald of Denmark")
                if relation in _PARENT_GENDER and target is not None and \
                        gender_of(target) not in (None, _PARENT_GENDER[relation]):
                    continue  # "the son of the weaver Edda Vollan", whose passage says "she": not his father
                if rank >= len(_COMPILED[relation]) and target is None:
                    target = passage_named(passages, name, exclude=p.hit, lookup=True)
                if rank >= len(_COMPILED[relation]) and (target is None or gender_of(target) != "f"):
                    continue  # one parent named: a mother only when her own passage says so
                found.append((0 if target else 1, rank * 10000 + start, target.title if target else name,
                              p.sentence_at(start)))
                break
    found.sort(key=lambda f: (f[0], f[1]))
    seen: dict[str, tuple[str, str]] = {}
    for _, _, name, sentence in found:
        seen.setdefault(_fold(name), (name, sentence))
    return list(seen.values())


def next_hop(p: Passage, relation: str, passages: Passages, subject: str
             ) -> tuple[str, str, Passage | None] | None:
    """The next entity of a chain and the passage about it: the first the passage names for the relation
    whose own passage is retrieved or found by the lookup ("[Mm]arried firstly … Elisabeth …, secondly …
    Christine …": the one the documents go on about); else the first named, without a passage."""
    hops = next_hops(p, relation, passages, subject)
    return hops[0] if hops else None


def next_hops(p: Passage, relation: str, passages: Passages, subject: str, every: bool = False
              ) -> list[tuple[str, str, Passage | None]]:
    """The entities a passage names for a relation, the one ``next_hop`` takes first: those whose own passage is
    retrieved or found by the lookup, then (none found) the first named without one. A candidate whose passage
    is about an entity of another kind than the relation reaches (a town for "the company that operates X", a
    company for "born in") is not taken (``relation_cues.entity_kind``). ``every``: all candidates with a
    passage, in order (the other readings of a second look), not only the first."""
    named = candidates_of(p, relation, passages, subject)
    want = OBJECT_KIND.get(relation)
    out: list[tuple[str, str, Passage | None]] = []
    wrong: set[str] = set()
    for name, sentence in named:
        if (target := passage_named(passages, name, exclude=p.hit, lookup=True)) is None:
            continue
        if want is not None and entity_kind(target.title, target.text) not in (None, want):
            wrong.add(name)
            continue  # the hop reaches an entity of the relation's kind, not another the sentence names
        out.append((name, sentence, target))
        if not every:
            break
    if not out:
        out.extend((n, s, None) for n, s in named if n not in wrong)
        del out[1:]
    return out


def zh_name(run: str, passages: Sequence[Passage]) -> str:
    """The Chinese name in the characters a relation's wording gives ("建筑师陈立言", "木匠方长林"): a passage's
    title written inside them (the longest), else, past a person's occupation, the last three characters."""
    inside = [t for p in passages for t in p.names if has_han(t) and len(t) >= 2 and t in run]
    if inside:
        return max(inside, key=len)
    return run[-3:] if len(run) > 4 else run


_TITLED_RE = re.compile(TITLED)
SKIP_WORDS = 40
"""Characters after a relation's wording in which a name is looked for past a demonym ("[Mm]arried Puerto Rican
childhood friend María …", "a song by American rapper Meek Mill")."""


def _names_from(text: str, start: int, first: str) -> list[tuple[int, str]]:
    """The name a relation's pattern caught, or, when that is a demonym or a country, the names after it."""
    out = [(start, _trim(first))]
    if _trim(first).casefold() not in _COUNTRY_OF and not all(
            w.casefold() in _COUNTRY_OF for w in re.split(r"[\s-]+", _trim(first)) if w):
        return out
    out = []
    for m in _TITLED_RE.finditer(text, start + len(first), start + len(first) + SKIP_WORDS + 60):
        name = _trim(m[0])
        if name.casefold() in _COUNTRY_OF or all(w.casefold() in _COUNTRY_OF for w in re.split(r"[\s-]+", name) if w):
            continue
        out.append((m.start(), name))
        break
    return out


_TRAIL = re.compile(r"(?:\s+(?:and|with|in|on|at|for|from|by|of|the|a|an))+$|[\s.,'’]+$")
_LEAD_WORD = re.compile(r"^(?:The|A|An|His|Her|Their|Its|In|On|At|During|After|Before)\s+")


def _trim(name: str) -> str:
    name = _LEAD_WORD.sub("", name.strip())
    name = _TRAIL.sub("", name)
    return name.strip(" .,")


# ---------------------------------------------------------------------------- attributes of the last entity

Kind = str  # "date" | "place" | "country" | "reason" | "organization" | "person"
_ZPLACE = r"[^，。；、（）()\s0-9]{2,12}?"
"""A Chinese place as a birth or death sentence gives it, up to the next punctuation."""
_ATTR_PATTERNS: dict[str, tuple[str, ...]] = {
    "birth_place": (rf"\bborn\s+(?:on\s+)?(?:{DATE}\s*,?\s*)?(?:in|at)\s+({NAME}(?:,\s*{NAME}){{0,3}})",
                    rf"\(\s*(?:[Bb]orn\s+)?{DATE}\s*,?\s*(?:in\s+)?({NAME}(?:,\s*{NAME}){{0,2}})\s*[–—-]",
                    rf"\(\s*[Bb]orn\s+{DATE}\s+(?:in\s+)?({NAME}(?:,\s*{NAME}){{0,2}})",
                    rf"\bBorn\s+(?:as\s+{NAME}\s+)?in\s+({NAME}(?:,\s*{NAME}){{0,2}})",
                    # "Born into a middle-class family in St. Louis, Missouri", "born to farmers at Kell"
                    rf"\b[Bb]orn\s+(?:into|to)\s+[^.;:()]{{0,60}}?\s(?:in|at)\s+({NAME}(?:,\s*{NAME})?)",
                    rf"\bborn\s+(?:near|outside)\s+(?:the\s+(?:village|town|city)\s+)?({NAME}(?:,\s*{NAME}){{0,2}})",
                    rf"\b(?:a\s+)?native\s+of\s+({NAME}(?:,\s*{NAME}){{0,2}})",
                    rf"(?:出生于|出生在|生于|出生地为|出生地是)({_ZPLACE})(?=[，。；、（）()\s]|$)"),
    "death_place": (rf"\bdied\s+(?:on\s+)?(?:{DATE}\s*,?\s*)?(?:[^.()]{{0,40}}?\s)?(?:in|at)\s+({NAME}(?:,\s*{NAME}){{0,3}})",
                    rf"[–—-]\s*{DATE}\s*,?\s*(?:in\s+)?({NAME}(?:,\s*{NAME}){{0,2}})\s*\)",
                    rf"\bpassed\s+away\s+(?:on\s+)?(?:{DATE}\s*,?\s*)?(?:in|at)\s+({NAME}(?:,\s*{NAME}){{0,3}})",
                    rf"(?:去世于|逝世于|病逝于|卒于)({_ZPLACE})(?=[，。；、（）()\s]|$)",
                    rf"在({_ZPLACE})(?:去世|逝世|病逝)"),
    "birth_date": (rf"\(\s*(?:[Bb]orn\s+|b\.\s*)?({DATE})", rf"^[^()]{{0,200}}\((?:[^()]{{0,80}}?[;,]\s*)?(?:[Bb]orn\s+)?({DATE})", rf"\bborn\s+(?:on\s+)?(?:\w+\s+){{0,2}}?({DATE})",
                   rf"[（(]\s*({ZH_DATE})\s*[－—–-]", rf"({ZH_DATE})(?:出生|生于)", rf"(?:生于|出生于)({ZH_DATE})"),
    "death_date": (rf"[–—-]\s*({DATE})[^()]{{0,60}}\)", rf"\(\s*(?:[Dd]ied|d\.)\s+({DATE})", rf"\bdied\s+(?:on\s+)?({DATE})",
                   rf"[－—–-]\s*({ZH_DATE})\s*[）)]", rf"({ZH_DATE})(?:[^，。；]{{0,10}}?)(?:去世|逝世|病逝)",
                   rf"(?:卒于|去世于|逝世于)({ZH_DATE})"),
    "cause_of_death": (r"\bdied\s+(?:of|from)\s+(?:an?\s+|the\s+)?([a-z][a-z\s-]{2,40}?)(?=[,.;]|\s+(?:in|on|at|aged)\b)",
                       r"\bdiagnosed\s+with\s+([a-z][a-z\s-]{2,40}?)(?=[,.;]|\s+in\b)",
                       r"([a-z][a-z\s-]{2,40}?)\s+claimed\s+(?:[Hh]is|[Hh]er|[Tt]heir)\s+li(?:fe|ves)"),
    "workplace": (rf"\b(?:[Tt]aught|teaches|[Ww]orked|works|working|employed|lectured|professor|instructor|hired)\b[^.]{{0,50}}?"
                  rf"\b(?:at|for|by)\s+(?:the\s+)?({NAME})",),
    "education": (rf"\b(?:[Ss]tudied|[Gg]raduated|[Ee]ducated|[Aa]ttended|studies|enrolled)\b[^.]{{0,40}}?\b(?:at|from|in)\s+"
                  rf"(?:the\s+)?({NAME})",),
    "detention": (rf"\b(?:prison|jail|detained|imprisoned|incarcerated|served|held)\b[^.]{{0,80}}?\b(?:at|in)\s+"
                  rf"(?:the\s+)?({NAME}(?:\s*[–—-]\s*{NAME})?)",),
    "burial": (rf"\bburied\s+(?:[^.]{{0,30}}?\s)?(?:in|at)\s+(?:the\s+)?({NAME})",),
}
_ATTR_COMPILED = {a: tuple(re.compile(p) for p in ps) for a, ps in _ATTR_PATTERNS.items()}
_COMPILED["birthplace"] = _ATTR_COMPILED["birth_place"]  # a place reached as a hop: "导演的出生地建于哪一年"

ASKED: tuple[tuple[str, re.Pattern[str]], ...] = (
    # Chinese: the same attributes as a Chinese question asks them
    ("death_place", re.compile(r"(?:在|于)(?:哪|何处|何地)(?:里|儿)?(?:去世|逝世|病逝)|(?:去世|逝世|病逝)(?:在|于)(?:哪|何处|何地)|"
                               r"哪里去世|去世地")),
    ("birth_place", re.compile(r"出生(?:在|于)(?:哪|什么地方|何处|何地)|在哪(?:里|儿)?出生|哪里出生|出生地(?:是|在)?(?:哪|什么|何)|"
                               r"(?:出生|生)在同一个?(?:地方|城市|镇|县)|籍贯")),
    ("death_date", re.compile(r"(?:哪一?年|何时|什么时候|哪天)(?:去世|逝世|病逝)|(?:去世|逝世|病逝)(?:于)?(?:哪一?年|何时|什么时候)|"
                              r"谁(?:先|更早)(?:去世|逝世)")),
    ("birth_date", re.compile(r"(?:哪一?年|何时|什么时候|哪天)(?:出生|生的)|出生(?:于|在)?(?:哪一?年|何时|什么时候)|生日|出生日期|"
                              r"年龄更[大小]|谁(?:更)?年[长轻]|谁(?:先|更早|更晚)出生|出生得?更[早晚]")),
    ("release_date", re.compile(r"上映|出版|发行|首映|首播|问世")),
    ("founded_date", re.compile(r"建于|建立|成立|创立|创办|始建|建成|组建")),
    ("lifespan", re.compile(r"\blived\s+longer\b|\blonger\s+li(?:fe|ved)\b|\bshorter\s+li(?:fe|ved)\b", re.I)),
    ("birth_place", re.compile(r"\bborn\s+in\s+the\s+same\b|\bsame\s+(?:place|city|town)\s+of\s+birth\b|\bplace\s+of\s+birth\b|\bbirth\s*place\b|\bwhere\b[^?]*\bborn\b|\bborn\s+where\b", re.I)),
    ("death_place", re.compile(r"\bdied\s+in\s+the\s+same\b|\bplace\s+of\s+death\b|\bwhere\b[^?]*\b(?:die|died)\b|\bburial\s+place\b", re.I)),
    ("burial", re.compile(r"\bwhere\b[^?]*\bburied\b", re.I)),
    ("cause_of_death", re.compile(r"\bwhy\b[^?]*\bdie\b|\bcause\s+of\s+death\b|\bwhat\b[^?]*\bdie\s+of\b", re.I)),
    ("birth_date", re.compile(r"\bdate\s+of\s+birth\b|\bbirth\s*date\b|\bwhen\b[^?]*\bborn\b|\bborn\s+(?:first|later|"
                              r"earlier|last)\b|\b(?:older|younger|oldest|youngest)\b", re.I)),
    ("death_date", re.compile(r"\bdate\s+of\s+death\b|\bwhen\b[^?]*\b(?:die|died)\b|\b(?:died|die)\s+(?:first|later|"
                              r"earlier|last|sooner)\b", re.I)),
    ("country", re.compile(r"\bnationality\b|\bwhich\s+country\b|\bwhat\s+country\b|\bfrom\s+(?:the\s+)?same\s+country\b|"
                           r"\bsame\s+(?:country|nationality)\b|\bcountry\b[^?]*\bfrom\b", re.I)),
    ("workplace", re.compile(r"\bwhere\b[^?]*\bwork\b|\bemployer\b", re.I)),
    ("education", re.compile(r"\bwhere\b[^?]*\b(?:study|studied|educated|graduate)\b|\beducated\b|\balma\s+mater\b", re.I)),
    ("detention", re.compile(r"\bdetained\b|\bimprisoned\b|\bincarcerated\b|\bjailed\b", re.I)),
    ("release_date", re.compile(r"\b(?:came\s+out|released|release|published|premiered|produced|made)\b", re.I)),
    ("founded_date", re.compile(r"\b(?:established|founded|formed|built|opened|created|started)\b", re.I)),
)


_LIFE_EVENTS = (("birth", re.compile(r"\bborn\b|出生|生于")),
                ("death", re.compile(r"\b(?:die|died|dies)\b|去世|逝世|病逝")))


def _life_event(question: str) -> str | None:
    """A birth or death asked by the kind of answer rather than by a fixed wording: its place for a question
    that asks a place ("In which city was …'s composer born?", "What town did … die in?"), its date for one
    that asks a date; None when the question names both events or neither, or asks another kind."""
    kind = expected_answer(question)
    events = [name for name, p in _LIFE_EVENTS if p.search(question)]
    if kind not in ("place", "date") or len(events) != 1:
        return None
    return f"{events[0]}_{kind}"


def asked_of(question: str) -> str | None:
    """The attribute of the last entity a question asks (None: the entity itself, "Who is …"); a birth or
    death that no wording of ``ASKED`` catches, by the kind of answer asked (``_life_event``)."""
    found = next((name for name, p in ASKED if p.search(question)), None)
    return found if found is not None else _life_event(question)


@dataclass(frozen=True)
class Value:
    """An attribute's value in a passage, with the sentence it was read from."""

    text: str
    sentence: str
    hit: int
    key: tuple[int, int, int] | None = None
    """For a date, its (year, month, day)."""
    countries: tuple[str, ...] = ()


def value_of(p: Passage, attribute: str) -> Value | None:
    """The value of an attribute in the passage about its entity."""
    if attribute == "country":
        return _country(p)
    if attribute == "lifespan":
        born, died = value_of(p, "birth_date"), value_of(p, "death_date")
        if born is None or died is None or born.key is None or died.key is None:
            return None
        years = _years_between(born.key, died.key)
        return Value(f"{born.text} – {died.text}", born.sentence, p.hit, (int(years * 1000), 0, 0))
    if attribute in ("release_date", "founded_date"):
        return _own_date(p, attribute)
    for pattern in _ATTR_COMPILED.get(attribute, ()):
        for m in pattern.finditer(p.text):
            text = _trim(m[1]) if attribute not in ("birth_date", "death_date") else m[1].strip()
            if not text or _fold(text) in p.names:
                continue
            if attribute == "death_date" and (first := _first_life_date(p.text)) is not None \
                    and date_key(text) == first:
                continue
            key = date_key(text) if attribute.endswith("_date") else None
            if attribute.endswith("_date") and key is None:
                continue
            return Value(text, p.sentence_at(m.start(1)), p.hit, key)
    return None


def _first_life_date(text: str) -> tuple[int, int, int] | None:
    m = re.search(rf"\(\s*(?:born\s+)?({DATE})", text)
    return date_key(m[1]) if m else None


def _years_between(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    return (b[0] - a[0]) + ((b[1] or 6) - (a[1] or 6)) / 12 + ((b[2] or 15) - (a[2] or 15)) / 365


_FILM_YEAR = re.compile(r"\b(?:is|was)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,3}?(\d{4})\s+(?:[\w-]+\s+){0,6}?"
                        r"(?:film|movie|documentary|song|single|album|novel|book|series|game|play)\b", re.I)
_OWN_DATE = {
    "release_date": re.compile(rf"\b(?:released|premiered|published|came\s+out|debuted|aired)\b[^.]{{0,40}}?({DATE})"
                               rf"|({ZH_DATE})(?:[^，。；]{{0,6}}?)(?:上映|出版|发行|首映|首播|问世)"
                               rf"|(?:上映|出版|发行|首映)于({ZH_DATE})"),
    "founded_date": re.compile(rf"\b(?:established|founded|formed|built|opened|created|started|inaugurated)\b"
                               rf"[^.]{{0,40}}?({DATE})"
                               rf"|(?:建于|建立于|成立于|创立于|创办于|始建于|创建于|组建于)(?:公元)?({ZH_DATE}|\d{{3,4}}年)"
                               rf"|({ZH_DATE})(?:[^，。；]{{0,12}}?)(?:创立|成立|创办|建立|组建|始建)"),
}
_ZH_WORK_YEAR = re.compile(r"是一部(\d{4})年")


def _own_date(p: Passage, attribute: str) -> Value | None:
    """A work's year or an institution's founding: "is a 1961 Hindi movie", "was founded in Knin in 1893"."""
    if attribute == "release_date" and (m := _FILM_YEAR.search(p.text) or _ZH_WORK_YEAR.search(p.text)) is not None:
        return Value(m[1], p.sentence_at(m.start(1)), p.hit, (int(m[1]), 0, 0))
    m = _OWN_DATE[attribute].search(p.text)
    if m is None and attribute == "release_date":
        m = _OWN_DATE["founded_date"].search(p.text)
    if m is None and attribute == "release_date" and p.heading and (year := title_year(p.heading)):
        return Value(year, p.heading, p.hit, (int(year), 0, 0))  # "Always (2011 film)": the title's year
    if m is None:
        return None
    group = next(g for g in range(1, (m.lastindex or 1) + 1) if m[g])
    if (key := date_key(m[group])) is None:
        return None
    return Value(m[group], p.sentence_at(m.start(group)), p.hit, key)


LEAD_CHARS = 400
"""Characters of a passage's opening read for what its subject is."""
_LEAD_KIND = re.compile(r"\b(?:is|was|are|were)\s+(?:a|an|the)\s+((?:[\w'-]+\s+){0,6}?)(?:[a-z-]+)\b")


def _country(p: Passage) -> Value | None:
    """A person's nationality or a place's or work's country: the demonyms of the opening's "is a …" phrase
    ("was a Swedish politician", "is a 1935 British film"), else the countries the opening sentence names
    ("a village in … Province, Iran")."""
    lead = p.sentences[0] if p.sentences else p.text
    # the opening's "is a …" phrase, past a sentence mark inside a name ("DJ Clue?, is an American …")
    m = _LEAD_KIND.search(p.text[:LEAD_CHARS])
    if m is not None:
        words = m[1]
        found = countries_in(words)
        if found:
            spans = [m2.span() for m2 in _COUNTRY_RE.finditer(words)]
            shown = words[spans[0][0]:spans[-1][1]]
            return Value(shown, p.sentence_at(m.start(1)), p.hit, countries=tuple(found))
        if (demonym := _DEMONYM.search(words)) is not None:
            # a demonym no list holds ("an Ostrelian film director"): its stem is the country's ("Ostrelia")
            return Value(demonym[1], p.sentence_at(m.start(1)), p.hit, countries=(demonym_stem(demonym[1]),))
    found = countries_in(lead)
    if found:
        return Value(found[0], lead, p.hit, countries=(found[0],))
    return None


_DEMONYM = re.compile(r"(?<![\w-])([A-Z][a-z]{2,}(?:ian|ean|an|ese|ish|i))(?![\w-])")
"""A capitalised word of a demonym's shape ("Ostrelian", "Vessarese", "Tollish"), not hyphenated ("Ostrelian-born"
says where, not whose)."""
_STEM_ENDINGS = ("ians", "ian", "eans", "ean", "ese", "ish", "ans", "an", "ia", "a", "i", "y")


def demonym_stem(word: str) -> str:
    """What a demonym and its country's name share ("Ostrelian", "Ostrelia" → "ostrel"): the country's key."""
    w = word.casefold()
    return next((w[: -len(e)] for e in _STEM_ENDINGS if w.endswith(e) and len(w) - len(e) >= 3), w)


# ---------------------------------------------------------------------------- the question's chain


@dataclass(frozen=True)
class Chain:
    """A question read as its subject, the relations from it (nearest the subject first) and the attribute
    asked of the last entity reached (None: that entity itself)."""

    subject: str
    relations: tuple[str, ...]
    attribute: str | None


_REL_WORD = re.compile(r"\b(" + "|".join(sorted((re.escape(k) for k in [*KINSHIP, *RELATION_WORDS] if k.isascii()),
                                                key=len, reverse=True)) + r")\b"
                       # Chinese words are not delimited by spaces: the lexicon's Chinese words wherever they stand
                       + r"|(" + "|".join(sorted((re.escape(k) for k in [*KINSHIP, *RELATION_WORDS] if not k.isascii()),
                                                 key=len, reverse=True)) + r")"
                       # "the company that makes X", "生产X的公司": the maker, by the verb
                       + r"|\b(?:company|firm|manufacturer|maker)\s+(?:that|which)\s+(makes|made|manufactures|"
                       r"manufactured|produces|produced|builds|built)\b|(生产|制造)[^的，。？?]{1,20}的(?:公司|企业|厂商|厂家)"
                       # "the university that runs X", "运营X的公司": the operator, by the verb
                       + r"|\b(?:company|firm|university|college|organi[sz]ation|institution|body|club|operator)\s+"
                       r"(?:that|which)\s+(runs|ran|operates|operated|owns|owned|manages|managed)\b"
                       r"|(运营|经营|管理)[^的，。？?]{1,20}的(?:公司|企业|机构|大学|单位)"
                       # "the town where X was born", "X出生的镇": the birthplace, a place reached as a hop
                       r"|\b(?:town|city|village|place|country)\s+(?:where|in\s+which)\b(?=[^?]{1,60}?\b(?:was|were)\s+(born)\b)"
                       r"|(出生)的(?:镇|城市|城|村|县|地方|国家|省)",
                       re.I)
_RUNS = {"runs", "ran", "operates", "operated", "owns", "owned", "manages", "managed", "运营", "经营", "管理"}
_MAKES = {"makes", "made", "manufactures", "manufactured", "produces", "produced", "builds", "built", "生产", "制造"}


def relations_in(text: str, subject_at: int, subject_end: int | None = None) -> tuple[str, ...]:
    """The relations a question's words name outside its subject's name, the one nearest the subject first
    ("the father of the director of film X": director, father; "X's paternal grandfather": father, father)."""
    found = []
    for m in _REL_WORD.finditer(text):
        if subject_end is not None and subject_at <= m.start() < subject_end:
            continue
        word = next(g for g in m.groups() if g).casefold()
        parts = ("manufacturer",) if word in _MAKES else ("birthplace",) if word in ("born", "出生") else \
            ("operator",) if word in _RUNS else KINSHIP.get(word) or (RELATION_WORDS[word],)
        found.append((abs(m.start() - subject_at), parts))
    found.sort(key=lambda f: f[0])
    return tuple(r for _, parts in found for r in parts)


def subjects_in(question: str, passages: Sequence[Passage]) -> list[tuple[Passage, int, int]]:
    """The retrieved passages whose title the question writes out as a name (capitalised where it starts: not
    the passage titled "Place of birth" for "the place of birth of …"), the longest first, and where."""
    folded = normalize(question)
    aligned = len(folded) == len(question)
    found: dict[int, tuple[Passage, int, int]] = {}
    for p in passages:
        for t in p.names:
            if len(t) < (2 if has_han(t) else 3):
                continue
            # a Chinese name is not delimited by spaces ("周敏华的丈夫"), nor capitalised
            bounded = re.escape(t) if has_han(t) else rf"(?<![\w]){re.escape(t)}(?![\w])"
            for m in re.finditer(bounded, folded):
                if aligned and not has_han(t) and not (question[m.start()].isupper() or question[m.start()].isdigit()):
                    continue
                if p.hit not in found or len(t) > found[p.hit][2] - found[p.hit][1]:
                    found[p.hit] = (p, m.start(), m.end())
                break
    # of two passages of one name, the one of the kind the question names first ("the album Ember Line")
    return sorted(found.values(), key=lambda f: (f[1] - f[2], not _same_kind(_kind_before(question, f[1]), f[0].kind),
                                                 f[0].hit))


def _same_kind(asked: str, kind: str) -> bool:
    return bool(asked) and asked.rstrip("s") == kind.rstrip("s")


def subject_in(question: str, passages: Sequence[Passage]) -> tuple[Passage, int, int] | None:
    """The longest of ``subjects_in``."""
    found = subjects_in(question, passages)
    return found[0] if found else None


@dataclass
class Followed:
    """A chain followed: the answer and the sentences read for each hop."""

    answer: str
    steps: list[tuple[int, str]] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    """The hits the steps' numbers index: the retrieved ones, then any passage looked up."""


@dataclass
class Broken:
    """A chain read hop by hop to an entity the passages do not go on from: the entity a hop named has no
    passage (none retrieved, none found by its name), or its passage does not state the next relation or the
    asked attribute. The question is then not answered by these documents, whatever else they say of the
    first entity ("Where was the composer of Winter Ferry born?" when only the film's passage names him)."""

    entity: str
    asked: str
    has_passage: bool
    steps: list[tuple[int, str]] = field(default_factory=list)

    @property
    def reason(self) -> str:
        if self.has_passage:  # the bridge is named: what the files do say, and what they do not
            return f"the passages lead to {self.entity}, but its own passage does not state {self.asked}"
        return f"the question's relations lead to {self.entity}, which no passage is about ({self.asked})"


_QUESTION_NAME_SKIP = frozenset({"the", "a", "an", "what", "which", "who", "whom", "whose", "when", "where", "how",
                                 "by", "in", "of", "is", "was", "are", "were", "does", "did", "do"})


def question_names(question: str) -> list[str]:
    """The names a question writes (capitalised runs, a sentence-initial question word left out), folded."""
    out = []
    for m in _NAME_RE.finditer(question):
        words = m[0].split()
        while words and words[0].casefold() in _QUESTION_NAME_SKIP:
            words = words[1:]
        if words and (len(words) > 1 or len(words[0]) > 2):
            out.append(_fold(" ".join(words)))
    return list(dict.fromkeys(out))


def short_form(question: str, hits: Sequence[Hit]) -> Followed | None:
    """A question that asks a short form ("…known by which four-letter acronym?", "By what initials is it
    known?") answered by the one a retrieved passage defines in parentheses after what it stands for ("high-altitude
    low-opening (HALO) parachuting"): in a passage that names the question's subject, the sentence that shares
    most of the question's words, of the letters the question says; None when no such passage defines one."""
    letters = asked_short_form(question)
    if letters is None:
        return None
    names = question_names(question)
    asked = normalize(question)
    words = {w for w in re.findall(r"[a-z][a-z-]{3,}", asked)}
    best: tuple[float, int, str, str] | None = None
    for n, h in enumerate(hits[:PASSAGES]):
        passage = normalize(f"{h.title} {h.text}")
        if names and not any(name in passage for name in names):
            continue  # a passage about something else the question never names
        for sentence in split_sentences(without_markers(h.text)) or [h.text]:
            forms = [f for f in defined_short_forms(sentence)
                     if key(f) not in asked.split() and (not letters or len(key(f).replace("&", "")) == letters)]
            if not forms:
                continue
            folded = normalize(sentence)
            score = sum(w in folded for w in words) + 0.5 * sum(w in passage for w in words) - 0.01 * n
            if best is None or score > best[0]:
                best = (score, n, forms[0], sentence.strip())
    if best is None:
        return None
    _, n, form, sentence = best
    return Followed(answer=form, steps=[(n, sentence)], hits=list(hits))


_APPOSED = re.compile(rf"({NAME})\s*,\s*(?:(?:which|that|who)\s+(?:was|were)\s+)?(released|published|premiered|"
                      r"founded|established|formed|born)\s+in\s+(?:which|what)\s+year\b")
_APPOSED_ASKS = {"released": "release_date", "published": "release_date", "premiered": "release_date",
                 "founded": "founded_date", "established": "founded_date", "formed": "founded_date",
                 "born": "birth_date"}


def apposed(question: str, hits: Sequence[Hit], full: Mapping[str, str] | None = None,
            lookup: Lookup | None = None, fetch: Fetch | None = None) -> Followed | None:
    """A date asked of the name it is set beside ("X is a remake of Always, released in which year, …?"): the
    question's other names describe the way to it; the date is read from that name's own passage (its title's
    year where the text gives none). None when the question has no such phrase or the passage no such date."""
    m = _APPOSED.search(question)
    if m is None:
        return None
    passages = passages_of(hits, full=full, lookup=lookup, fetch=fetch)
    p = passage_named(passages, m[1], lookup=True)
    if p is None or (value := value_of(p, _APPOSED_ASKS[m[2].casefold()])) is None:
        return None
    return Followed(answer=value.text, steps=[(value.hit, value.sentence)], hits=passages.hits)


def follow(question: str, hits: Sequence[Hit], full: Mapping[str, str] | None = None,
           lookup: Lookup | None = None, fetch: Fetch | None = None) -> Followed | Broken | None:
    """A relation chain followed from the question's subject to the asked attribute; ``Broken`` when at least one
    hop was followed and the entity reached has no passage or does not state what comes next; None when the
    question names no relation or its first hop is not found in the retrieved passages."""
    passages = passages_of(hits, full=full, lookup=lookup, fetch=fetch)
    # the birth in "the town where X was born" is a hop to a place, not the attribute asked
    attribute = asked_of(_BORN_CLAUSE.sub(" ", question))
    agent = _WHO_VERB.search(question)
    if agent is not None:
        attribute = None  # "Who founded X?": the founder, not X's founding year
    if attribute is None and not _WHO.search(question):
        return None  # the entity itself answers only a question for a person
    if attribute is None and agent is None and _WHO_DOES.search(question):
        return None  # "Who succeeded the founder of X?": a deed of the entity reached, not that entity (``described``)
    broken: Broken | None = None
    # the subject the relations start from: the longest name first, the next when its chain breaks ("Am I
    # Wrong (Étienne de Crécy song)": the song, not the name in its brackets)
    for start, at, end in subjects_in(question, passages)[:3]:
        relations = relations_in(normalize(question), at, end)
        if agent is not None:
            relations = (*relations, _AGENT[next(g for g in agent.groups() if g).casefold()])
        if relations and relations[-1] == "birthplace" and attribute == "birth_place":
            relations = relations[:-1]  # "the place of birth of …" asks the attribute, no further hop
        if not relations:
            continue
        walked = _walk(start, relations, attribute, passages)
        if isinstance(walked, Followed):
            walked.hits = passages.hits
            return walked
        for described in described_starts(question, start, at, passages):
            # the first hop is named by a description of the subject ("the film adapted from X", "the band whose
            # debut album is X"): the chain starts at the passage of the described kind that names X
            walked_on = _walk(described, relations, attribute, passages)
            if isinstance(walked_on, Followed):
                walked_on.steps = [(start.hit, _naming_sentence(described, start)), *walked_on.steps]
                walked_on.hits = passages.hits
                return walked_on
        broken = broken or walked
    return broken


_DESCRIBED = re.compile(r"\b(?:[Tt]he|[Aa]n?)\s+(?:\d{4}\s+)?([a-z]+)\s+")
_DESCRIPTION = re.compile(r"(?:[a-z-]+\s+){1,6}")
"""A description ending right before the subject's name: "the film adapted from ", "the documentary about ",
"the band whose debut album is " (its words in lower case: a capitalised word would be another name)."""
_DESCRIBED_ZH = re.compile(r"(?:改编自|根据|关于|讲述|记录)$")
_DESCRIBED_ZH_KIND = re.compile(r"[^，。？?的]{1,16}?的(" + "|".join(w for w in _KIND_WORDS if not w.isascii()) + ")")
"""改编自陈墨小说的电影: the kind the description ends with (电影), not a kind inside it (小说)."""


def described_starts(question: str, subject: Passage, at: int, passages: Sequence[Passage]) -> list[Passage]:
    """The passages a description of the subject stands for: where the question writes "the <kind> <lower-case
    words> <subject>" ("the film adapted from Harbor of Glass"), the other retrieved passages of that kind (their
    title's brackets or opening say so) that name the subject. Empty where the question describes nothing."""
    folded = normalize(question)
    source = question if len(folded) == len(question) else folded
    before = source[max(0, at - 60) : at]
    kinds = [m[1].rstrip("s") for m in _DESCRIBED.finditer(before)
             if m[1].rstrip("s") in _KIND_SET and _DESCRIPTION.fullmatch(before[m.end():])]
    kind = kinds[-1] if kinds else ""
    if not kind:
        zh = _DESCRIBED_ZH.search(before)
        after = _DESCRIBED_ZH_KIND.match(folded[at : at + 30]) if zh is not None else None
        if after is None:
            return []
        kind = after[1]
    names = [n for n in subject.names if len(n) >= (2 if has_han(n) else 4)]
    return [p for p in passages if p.hit != subject.hit and p.kind.rstrip("s") == kind
            and any(_mentions(p.text, n) for n in names)]


def _mentions(text: str, name: str) -> bool:
    folded = normalize(text)
    return name in folded if has_han(name) else re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", folded) is not None


def _naming_sentence(p: Passage, subject: Passage) -> str:
    """The sentence of ``p`` that names the subject (the description's own hop, cited)."""
    return next((s for s in p.sentences if any(_mentions(s, n) for n in subject.names if len(n) >= 2)),
                p.sentences[0] if p.sentences else p.text)


_BORN_CLAUSE = re.compile(r"\b(?:was|were)\s+born\b(?=[^?]*\b(?:founded|established|built|formed|located|"
                          r"created|incorporated|opened)\b)|出生的(?:镇|城市|城|村|县|地方|国家|省)", re.I)
_WHO = re.compile(r"^\s*(?:who|whom|whose)\b|\bwhat\s+is\s+the\s+name\b|是谁|叫什么|哪位", re.I)
_AGENT = {"founded": "founder", "established": "founder", "directed": "director", "wrote": "writer",
          "designed": "designer", "设计": "designer",
          "composed": "composer", "produced": "producer", "made": "manufacturer", "manufactured": "manufacturer",
          "创立": "founder", "创办": "founder", "导演": "director", "执导": "director", "写": "writer",
          "生产": "manufacturer", "制造": "manufacturer"}
_WHO_DOES = re.compile(r"^\s*who\s+(?!(?:is|was|are|were|'s|has\s+been|had\s+been)\b)[a-z]+(?:ed|s)\s+(?:the|a|an)\s+",
                       re.I)
"""A who-question whose verb is a deed done to the entity it then describes ("Who succeeded the founder of X?",
"Who replaced the manager of Y?"), not "Who is the founder of X?"."""
_WHO_VERB = re.compile(r"^\s*who\s+(founded|established|directed|wrote|composed|produced|designed)\b|"
                       r"(?:由谁|谁)(创立|创办|导演|执导|写|生产|制造|设计)", re.I)


def _walk(start: Passage, relations: Sequence[str], attribute: str | None,
          passages: Passages) -> Followed | Broken | None:
    if attribute is not None:
        reached = _value_through(start, relations, attribute, passages)
        return reached if not isinstance(reached, tuple) else Followed(answer=reached[0].text, steps=reached[1])
    found = _second_look(enumerate(_who(last) for last in _readings(start, relations, passages)),
                         lambda r: isinstance(r, Followed), "named the person asked")
    return found if isinstance(found, Followed | Broken) else None


def _who(last: _Reached | Broken | None) -> Followed | Broken | None:
    """The "who is …" ending: the entity the last hop names is the answer."""
    if not isinstance(last, _Reached):
        return last
    m = re.search(re.escape(last.name), last.sentence, re.IGNORECASE)
    return Followed(answer=m[0] if m else _title_case(last.name), steps=last.steps)


@dataclass
class _Reached:
    """The last hop of a chain: the passage it was read from, the entity it names, its sentence, the passage
    about that entity (None: none found) and every hop's cited sentence so far."""

    passage: Passage
    name: str
    sentence: str
    target: Passage | None
    steps: list[tuple[int, str]]


READINGS = 4
"""Readings of a chain tried before it is taken for broken: the first, then the other candidates of each hop (the
next name of the relation's kind in the hop's passage or its whole document), depth first."""


def _last_hop(start: Passage, relations: Sequence[str], passages: Passages) -> _Reached | Broken | None:
    """The chain walked from ``start`` through every relation but the ending: each hop read in the current
    entity's passage (else its whole document), ``Broken`` (or None: not known) where a hop is not stated or
    an entity before the last has no passage; the last hop as reached. None for no relations."""
    return next(_readings(start, relations, passages), None)


def _readings(start: Passage, relations: Sequence[str], passages: Passages
              ) -> Iterator[_Reached | Broken | None]:
    """Every reading of the chain from ``start``, the first as ``_last_hop`` walks it: at each hop the entity
    ``next_hop`` takes, then the other candidates with a passage, each followed on (depth first)."""
    if relations:
        yield from _from_hop(start, start.title, relations, 0, passages, [])


def _from_hop(current: Passage, name: str, relations: Sequence[str], i: int, passages: Passages,
              steps: list[tuple[int, str]]) -> Iterator[_Reached | Broken | None]:
    relation = relations[i]
    options = _hop_options(current, relation, passages, name)
    if (first := next(options, None)) is None:
        yield _lacks(current, relation, steps, passages)
        return
    for read, (named, sentence, nxt) in itertools.chain([first], options):
        walked = [*steps, (read.hit, sentence)]
        if i == len(relations) - 1:
            yield _Reached(read, named, sentence, nxt, walked)
        elif nxt is None:
            yield _absent(named, relations[i + 1], walked, passages)
        else:
            yield from _from_hop(nxt, named, relations, i + 1, passages, walked)


def _hop_options(current: Passage, relation: str, passages: Passages,
                 name: str) -> Iterator[tuple[Passage, tuple[str, str, Passage | None]]]:
    """The hop ``_hop`` takes first, then (only when asked for: a second look reads whole documents and looks
    names up) the passage's and its whole document's other candidates with a passage of their own, each once."""
    first = _hop(current, relation, passages, name)
    if first is None:
        return
    yield first
    seen = {_fold(first[1][0])}
    sources = [current] + ([w] if (w := passages.complete(current)) is not None else [])
    for source in sources:
        for hop in next_hops(source, relation, passages, name, every=True):
            if hop[2] is not None and _fold(hop[0]) not in seen:
                seen.add(_fold(hop[0]))
                yield source, hop
    # the names of the first hop's sentence joined to the name it took ("She married firstly Per Holm and
    # secondly the printer Aksel Moen": the relation's wording caught the first only) whose retrieved passage is
    # about an entity of the relation's kind; not a name of another relation of the sentence ("由罗启明作曲，剧本
    # 作者是沈兰舟": the composer is not the writer)
    want = OBJECT_KIND.get(relation)
    read, (taken, sentence, _) = first
    if want is None:
        return
    for other in _joined(sentence, taken, passages):
        key = _fold(other)
        if key in seen or key in (_fold(name), read.title) or key in read.names:
            continue
        seen.add(key)
        target = passage_named(passages, other, exclude=read.hit)
        if target is not None and entity_kind(target.title, target.text) == want:
            yield read, (target.title, sentence, target)


_JOINED = re.compile(r"^[\s,]*(?:(?:and|or)\s+)?(?:(?:secondly|thirdly|later|then|also)\s+)?(?:to\s+|with\s+)?"
                     r"(?:the\s+)?(?:[a-z-]+\s+){0,3}?$|^[、和与及]$")


def _joined(sentence: str, taken: str, passages: Sequence[Passage]) -> list[str]:
    """The names a sentence joins to ``taken`` by a list ("Per Holm and secondly the printer Aksel Moen",
    "张三、李四"): right after it, with nothing but a conjunction and a few lower-case words between."""
    at = normalize(sentence).find(_fold(taken))
    if at < 0 or len(normalize(sentence)) != len(sentence):
        return []
    start = at + len(_fold(taken))
    found = [(m.start(), _trim(m[0])) for m in _TITLED_RE.finditer(sentence, start)]
    found += [(i, t) for p in passages for t in p.names if has_han(t) and len(t) >= 2
              and (i := sentence.find(t, start)) >= 0]
    out = []
    end = start
    for i, other in sorted(found):
        gap = sentence[end:i]
        if not other or (" and " not in f" {gap} " and " or " not in f" {gap} " and gap.strip() not in "、和与及"):
            break
        if not _JOINED.match(gap):
            break
        out.append(other)
        end = i + len(other)
    return out


def _second_look(results: Iterator[tuple[int, object]], done: Callable[[object], bool], what: str) -> object:
    """The first reading that ``done`` accepts (up to ``READINGS``), else the first reading's result: a chain is
    refused only when every reading of it fails."""
    first: object = None
    for n, result in itertools.islice(results, READINGS):
        if done(result):
            if n:
                value = result.answer if isinstance(result, Followed) else \
                    result[0].text if isinstance(result, tuple) else None
                log.info("chains: a second look (reading %d) %s where the first reading broke: %r", n + 1, what,
                         value)
            return result
        if n == 0:
            first = result
    return first


def _value_after_name(name: str, attribute: str, passages: Sequence[Passage]) -> Value | None:
    """The attribute stated of an entity that has no passage of its own, in a sentence of another passage that
    names it, read from the name on ("… written by Ivo Marten, who was born in Lisle": Lisle; "She was born in
    Tarrow to Aksel Halvorsen" states no birthplace of Aksel Halvorsen)."""
    key = _fold(name)
    for p in passages:
        for sentence in p.sentences:
            at = normalize(sentence).find(key)
            if at < 0 or len(normalize(sentence)) != len(sentence):
                continue
            rest = sentence[at:]
            part = Passage(hit=p.hit, title=key, names=(key,), text=rest, sentences=(rest,))
            if (value := value_of(part, attribute)) is not None:
                return Value(value.text, sentence, p.hit, value.key, value.countries)
    return None


def _absent(name: str, asked: str, steps: list[tuple[int, str]], passages: Passages) -> Broken | None:
    """A hop named an entity no passage is about: broken when the index was searched for its name (the lookup
    was made) and no sentence says anything of the kind asked after the name; not known otherwise."""
    if _fold(name) not in passages.looked:
        return None
    key = _fold(name)
    sources = {passages.hits[n].doc_id for n, _ in steps if n < len(passages.hits)}
    elsewhere = {p.hit for p in passages if passages.hits[p.hit].doc_id not in sources and key in normalize(p.text)}
    if elsewhere or passages.mentioned.get(key, set()) - sources:
        return None  # another document speaks of it (under another title): not known to be absent
    words = set(key.split())
    if len(key) >= 2 and any(key in t or (len(words) >= 2 and len(words & set(t.split())) >= 2)
                             for p in passages for t in p.names if t):
        return None  # a passage titled with more of the name (or part of it): the name may be cut short
    after = [s[at:] for p in passages for s in p.sentences if (at := normalize(s).find(key)) >= 0]
    return None if any(states(asked, text) for text in after) else Broken(name, asked, False, steps)


def _lacks(current: Passage, asked: str, steps: list[tuple[int, str]], passages: Passages) -> Broken | None:
    """The entity reached has a passage that does not state the next relation or the asked attribute by the
    chain's wordings: broken only when the passage (whole) has no word of that kind at all ("died", "mother",
    "去世"); a passage that says it in words the chain does not read is not evidence of absence."""
    if not steps:
        return None
    whole = passages.complete(current) or current
    return None if states(asked, whole.text) else Broken(current.title, asked, True, steps)


_ATTRIBUTE_CUES: dict[str, str] = {
    "birth_place": r"\bborn\b|\bbirth|\bnative\s+of\b|出生|生于|籍贯",
    "birth_date": r"\bborn\b|\bbirth|[(（]\s*\d|出生|生于",
    "death_place": r"\bdied\b|\bdeath\b|\bburied\b|\bkilled\b|passed\s+away|去世|逝世|病逝|卒|遇难",
    "death_date": r"\bdied\b|\bdeath\b|\bkilled\b|passed\s+away|[–—-]\s*(?:\d|[A-Z][a-z]+\s+\d)|去世|逝世|病逝|卒|[－—–-]\s*\d",
    "cause_of_death": r"\bdied\b|\bdeath\b|\bkilled\b|去世|逝世|病逝",
    "founded_date": r"\bfounded\b|\bestablished\b|\bformed\b|\bbuilt\b|\bopened\b|\bcreated\b|\bset\s+up\b|"
                    r"\bincorporated\b|建|成立|创立|创办|组建",
    "release_date": r"\breleased?\b|\bpremiered?\b|\bpublished\b|\b(?:1[0-9]|20)\d\d\b|上映|出版|发行|首映|首播|\d{4}年",
    "workplace": r"\bwork|\btaught\b|\bemploy|\bprofessor\b|任教|工作|任职",
    "education": r"\bstudied\b|\bgraduat|\beducated\b|\battended\b|毕业|就读|学习",
}
_ZH_ROLE = {"mother": "母亲", "father": "父亲", "spouse": "丈夫", "director": "导演", "composer": "作曲",
            "writer": "作者", "founder": "创始人", "performer": "演唱者", "manufacturer": "生产商", "child": "子女",
            "producer": "制作人", "manager": "主教练", "designer": "设计者", "chef": "厨师", "sibling": "兄弟姐妹"}


def states(asked: str, text: str) -> bool:
    """Whether a text has any word of the kind asked: an attribute's cue words, a country for a nationality,
    a relation's cue words in either language (``graphs.rag.relation_cues``, as the second hop matches them)."""
    if asked in ("country",):
        return bool(countries_in(text))
    if asked == "birthplace":
        asked = "birth_place"
    if asked in _ATTRIBUTE_CUES:
        return re.search(_ATTRIBUTE_CUES[asked], text, re.I) is not None
    role = asked if asked in ROLE_CUES else None
    zh = _ZH_ROLE.get(asked)
    if role is None and zh is None:
        return True  # a kind the cues do not know: never taken for absent
    return bool((role and states_role(role, text)) or (zh and zh in ROLE_CUES and states_role(zh, text)))


def _hop(current: Passage, relation: str, passages: Passages,
         name: str) -> tuple[Passage, tuple[str, str, Passage | None]] | None:
    """The next hop from ``current`` (else from its whole document) and the passage it was read from."""
    hop = next_hop(current, relation, passages, name)
    if hop is None and (whole := passages.complete(current)) is not None:
        current, hop = whole, next_hop(whole, relation, passages, name)
    return None if hop is None else (current, hop)


def _value_through(start: Passage, relations: Sequence[str], attribute: str,
                   passages: Passages) -> tuple[Value, list[tuple[int, str]]] | Broken | None:
    """The attribute's value at the end of the relation chain from ``start``, with every hop's cited sentence;
    ``Broken`` when a hop was followed and the entity reached does not lead on (no passage, or its passage
    states neither the next relation nor the attribute) in every reading of the chain (``_second_look``)."""
    if not relations:
        return _value_at(start, attribute, [], passages)
    found = _second_look(enumerate(_value_ending(last, attribute, passages)
                                   for last in _readings(start, relations, passages)),
                         lambda r: isinstance(r, tuple), f"found the {attribute}")
    return found if isinstance(found, tuple | Broken) else None


def _value_ending(last: _Reached | Broken | None, attribute: str, passages: Passages
                  ) -> tuple[Value, list[tuple[int, str]]] | Broken | None:
    """The attribute's ending of a reading: its value in the passage of the entity the last hop reached, else in
    a sentence of another passage that names the entity (which has no passage of its own)."""
    if not isinstance(last, _Reached):
        return last
    steps = last.steps
    if last.target is None:
        if (said := _value_after_name(last.name, attribute, passages)) is not None:
            return said, [*steps, (said.hit, said.sentence)]  # "其作者张三出生于北京": stated where the name is
        return _absent(last.name, attribute, steps, passages)
    return _value_at(last.target, attribute, steps, passages)


def _value_at(current: Passage, attribute: str, steps: list[tuple[int, str]], passages: Passages
              ) -> tuple[Value, list[tuple[int, str]]] | Broken | None:
    value = _value_in(current, attribute, passages)
    if value is None:
        return _lacks(current, attribute, steps, passages)
    return value, [*steps, (current.hit, value.sentence)]


def _value_in(p: Passage, attribute: str, passages: Passages) -> Value | None:
    """The attribute's value in the passage, else in its whole document."""
    value = value_of(p, attribute)
    if value is None and (whole := passages.complete(p)) is not None:
        value = value_of(whole, attribute)
    return value


def _title_case(name: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in name.split())


# ---------------------------------------------------------------------------- comparisons

_PAIR = (
    re.compile(r"^\s*(?:which|who|what)\b[^,?]*?,\s*(.+?)\s+or\s+(.+?)\s*\?*\s*$", re.I),
    re.compile(r"^\s*(?:was|is|were|are|did|does|do|has|had)\s+(?:the\s+)?(.+?)\s+or\s+(?:the\s+)?(.+?)\s+"
               r"(?:born|die|died|release|released|founded|established|formed|created|made|come|came|older|younger|"
               r"first|later|earlier|live|lived)\b", re.I),
    re.compile(r"^\s*(?:who|which)\b.*?\bborn\s+first\s+out\s+of\s+(.+?)\s+and\s+(.+?)\s*\?*\s*$", re.I),
)
_EARLY = re.compile(r"\b(?:first|earlier|earliest|older|oldest|before|sooner)\b", re.I)
_LATE = re.compile(r"\b(?:later|latest|last|younger|youngest|newer|newest|after|more\s+recent(?:ly)?)\b", re.I)
_SHORT = re.compile(r"\bshorter\b", re.I)


def pair_of(question: str) -> tuple[str, str] | None:
    for pattern in _PAIR:
        if (m := pattern.search(question)) is not None:
            return m[1].strip(" ,"), m[2].strip(" ,?")
    return None


@dataclass(frozen=True)
class Compared:
    """A comparison's verdict, the winner and each side's value."""

    answer: str
    lead: str
    steps: list[tuple[int, str]]
    hits: list[Hit] = field(default_factory=list)


_KINDS = r"(?:film|movie|song|album|book|novel|band|opera|play|single|magazine|series|documentary)"
_SIDE_HEAD = re.compile(r"^(?:the\s+)?((?:(?:" + "|".join(sorted(RELATION_WORDS, key=len, reverse=True))
                        + rf")\s+of\s+(?:the\s+)?(?:{_KINDS}s?\s+)?)+)")
_KIND_HEAD = re.compile(rf"^(?:the\s+)?{_KINDS}\s+(?=[A-Z0-9\"'“])")


def side_of(side: str) -> tuple[str, tuple[str, ...]]:
    """A side of a comparison as its name and the relations the side itself names ("the director of film
    X": X, (director,)); "film X" is X."""
    rels: tuple[str, ...] = ()
    if (m := _SIDE_HEAD.match(side)) is not None:
        rels = tuple(reversed(relations_in(normalize(m[1]), 0)))
        side = side[m.end():]
    return _KIND_HEAD.sub("", side).strip(" ,"), rels


def _side_value(name: str, relations: Sequence[str], attribute: str,
                passages: Passages) -> tuple[str, Value, list[tuple[int, str]]] | None:
    p = passage_named(passages, name, lookup=True)
    if p is None or not isinstance(reached := _value_through(p, relations, attribute, passages), tuple):
        return None
    value, steps = reached
    return _shown_name(name, p), value, steps


def _shown_name(name: str, p: Passage) -> str:
    """The side's name as the passages write it ("God's Gift to Women" for "God'S Gift To Women")."""
    m = re.search(re.escape(name), p.text, re.I)
    return m[0] if m else name


def compare(question: str, hits: Sequence[Hit], full: Mapping[str, str] | None = None,
            lookup: Lookup | None = None, fetch: Fetch | None = None) -> Compared | None:
    """A comparison of two entities by a dated (or lifespan) attribute, through each side's relation chain."""
    if has_han(question):
        return None
    pair = pair_of(question)
    attribute = asked_of(question)
    if pair is None or attribute not in ("birth_date", "death_date", "release_date", "founded_date", "lifespan"):
        return None
    passages = passages_of(hits, full=full, lookup=lookup, fetch=fetch)
    folded = normalize(question)
    bare = folded.replace(normalize(pair[0]), " ").replace(normalize(pair[1]), " ")
    relations = relations_in(bare, len(bare))  # the relation words outside the two names
    relations = tuple(reversed(relations))
    named = [side_of(n) for n in pair]
    sides = [_side_value(n, own or relations, attribute, passages) for n, own in named]
    if any(s is None for s in sides):
        return None
    (a_name, a, a_steps), (b_name, b, b_steps) = sides  # type: ignore[misc]
    if a.key is None or b.key is None or a.key == b.key:
        return None
    if a.key[0] == b.key[0] and (not a.key[1] or not b.key[1]):
        return None  # the same year and no month for one of them: no verdict
    if attribute == "lifespan":
        want_low = bool(_SHORT.search(question))
    elif attribute == "birth_date" and re.search(r"\b(?:older|oldest)\b", question, re.I):
        want_low = True
    elif (attribute == "birth_date" and re.search(r"\b(?:younger|youngest)\b", question, re.I)) or _LATE.search(question):
        want_low = False
    elif _EARLY.search(question):
        want_low = True
    else:
        return None
    a_wins = (a.key < b.key) == want_low
    win, lose = ((a_name, a), (b_name, b)) if a_wins else ((b_name, b), (a_name, a))
    what = {"birth_date": "born", "death_date": "died", "release_date": "", "founded_date": "founded",
            "lifespan": "lived"}[attribute]
    through = f" (its {relations[-1]})" if relations else ""
    if attribute == "lifespan":
        lead = (f"{win[0]}: lived {win[1].key[0] / 1000:.0f} years ({win[1].text}); {lose[0]}: "  # type: ignore[index]
                f"{lose[1].key[0] / 1000:.0f} years ({lose[1].text}).")  # type: ignore[index]
    else:
        lead = (f"{win[0]}{through}: {what + ' ' if what else ''}{win[1].text}; {lose[0]}: "
                f"{what + ' ' if what else ''}{lose[1].text}.")
    return Compared(answer=win[0], lead=lead, steps=[*a_steps, *b_steps], hits=passages.hits)


# ---------------------------------------------------------------------------- "the same country"

_SAME = re.compile(r"\b(?:same|both)\b", re.I)
_BOTH_PAIR = (
    re.compile(r"\b(?:are|were|do|does|did|is)\s+(?:both\s+)?(?:the\s+)?(?:(?:films?|movies?|songs?|directors?|people|"
               r"places?)\s+(?:of\s+(?:the\s+)?(?:films?|movies?)\s+)?)?(.+?)\s+and\s+(.+?)\s*,?\s+(?:both\s+)?"
               r"(?:located|from|share|have|originate|originated|born|died|hold|(?:of|in)\s+the\s+same|the\s+same)\b",
               re.I),
    re.compile(r"\bboth\s+(?:(?:films?|movies?|directors?|songs?)\s+(?:of\s+(?:films?|movies?)\s+)?)?(.+?)\s+and\s+"
               r"(.+?)\s*,?\s+(?:have|share|are|were|located|from|originate|born)\b", re.I),
)


def same_pair(question: str) -> tuple[str, str] | None:
    for pattern in _BOTH_PAIR:
        if (m := pattern.search(question)) is not None:
            return m[1].strip(" ,"), m[2].strip(" ,")
    return None


def same_country(question: str, hits: Sequence[Hit], full: Mapping[str, str] | None = None,
                 lookup: Lookup | None = None, fetch: Fetch | None = None) -> Compared | None:
    """Yes or no for "Are A and B (both) in the same country?" / "Do the directors of A and B share a
    nationality?" / "Were A and B born in the same place?": each side's country or place (through the side's
    relation chain), compared."""
    attribute = "country" if re.search(r"\bsame\s+(?:country|nationality)\b", question, re.I) else asked_of(question)
    if has_han(question) or not _SAME.search(question) or attribute not in ("country", "birth_place", "death_place"):
        return None
    pair = same_pair(question)
    if pair is None:
        return None
    passages = passages_of(hits, full=full, lookup=lookup, fetch=fetch)
    folded = normalize(question)
    bare = folded.replace(normalize(pair[0]), " ").replace(normalize(pair[1]), " ")
    relations = tuple(dict.fromkeys(relations_in(bare, 0)))
    named = [side_of(n) for n in pair]
    sides = [_side_value(n, own or relations, attribute, passages) for n, own in named]
    if any(s is None for s in sides):
        return None
    (a_name, a, a_steps), (b_name, b, b_steps) = sides  # type: ignore[misc]
    if attribute == "country":
        same = bool(set(a.countries) & set(b.countries))
    else:  # a place: the same town ("Rome, Italy" and "Rome"), not only the same country
        same = _fold(a.text.split(",")[0]) == _fold(b.text.split(",")[0])
    word = "Yes" if same else "No"
    lead = f"{word}: {a_name} — {a.text}; {b_name} — {b.text}."
    return Compared(answer=word, lead=lead, steps=[*a_steps, *b_steps], hits=passages.hits)


# ---------------------------------------------------------------------------- an entity the question describes

_IS_KIND = re.compile(r"\b(?:is|was|are|were)\s+(?:a|an|the|one\s+of\s+the)\s+(.{1,80}?)(?=\s+(?:in|of|on|at|near|"
                      r"based|located|situated|founded|established|set|started|formed|created|headquartered|that|which|who|whose|"
                      r"where|run|owned|built|used|"
                      r"devoted|known|named|for|with|from|by)\b|[,.;:(]|$)", re.I)
_ZH_KIND_WORDS = ("城市", "市", "城", "镇", "县", "村", "乡", "省", "岛", "港", "公司", "企业", "集团", "大学", "学院", "学校",
                  "研究所", "研究院", "医院", "博物馆", "图书馆", "俱乐部", "球队", "乐队", "剧团", "工厂", "电影", "小说", "专辑",
                  "歌曲", "河", "江", "湖", "山", "寺", "船", "桥", "城镇", "厂", "机构")
_ZH_KIN = {"城市": "市", "城": "市", "村子": "村", "村庄": "村", "企业": "公司", "集团": "公司", "河流": "河", "城镇": "镇"}
"""A Chinese kind word the way another writes it (城市 and 地级市 name one kind; 企业 and 公司)."""
_ZH_IS_PHRASE = re.compile(r"是([^，。；、]{1,24}?)(?=[，。；、]|$)")
_EN_ASKED_NOUN = re.compile(r"\b(?:which|what|how\s+many|how\s+much)\s+([a-z-]+)", re.I)
_ZH_ASKED_NOUN = re.compile(r"(?:哪|什么|多少)(?:一)?(?:个|座|家|所|位|条|艘|处)?([\u4e00-\u9fff]{1,3})")
_DESCRIBES = re.compile(r"\b(?:the|a|an)\s+(?:[a-z-]+\s+){0,3}?[a-z-]+\s+(?:that|which|where|whose|who|whom|"
                        r"(?:on|in|at|from|by)\s+which|named|built|run|operated|owned|founded|based|located)\b"
                        r"|[A-Z][\w.&-]*(?:'s|’s)\s+(?:[a-z-]+\s+){0,2}?[a-z-]+|\bthe\s+(?:[a-z-]+\s+){0,2}?[a-z-]+\s+of\s+"
                        r"(?:the\s+)?[A-Z]"
                        # a relative clause without its pronoun: "the company Marta Velinsky works for", "the town
                        # the band comes from": a name, its verb and the preposition left at the clause's end
                        r"|\b(?:the|a|an)\s+(?:[a-z-]+\s+){0,2}?[a-z-]+\s+(?:the\s+)?[A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*)*"
                        r"\s+(?:(?:[a-z-]+\s+){1,2}?(?:for|at|in|on|with|from|to|by|under|into|near)\b(?=(?:\s+[a-z-]+){0,2}\s*[?？])"
                        r"|[a-z-]+[^s\W]s\s*[?？])")
"""A question that describes an entity ("the city that is home to X", "X's institute", "the headquarters town
of X"): the chains read it (``described``)."""
_DESCRIBES_ZH = re.compile(r"的(?:那|这)?(?:个|座|家|所|条)?[\u4e00-\u9fff]{0,3}?(?:" + "|".join(_ZH_KIND_WORDS) + r")|"
                           r"(?:所在|创办|创立|成立|位于|坐落|生产|建造|运营|经营)(?:" + "|".join(_ZH_KIND_WORDS) + r")")
"""A Chinese description: 青岚茶业总部所在的城市, X总部所在的那个港口小镇 (a demonstrative and modifiers before the kind)."""
_ZH_DETERMINER = r"(?:那|这|该|某)(?:一)?(?:个|座|家|所|条|位|本|部|间|支|片|处|艘)?"
_ZH_SLOT = re.compile(r"(?:(?:的|所在的?)?(" + _ZH_DETERMINER + r")|的|所在的?)([\u4e00-\u9fff]{1,5})")
_SIZE_WORDS = "小大老新旧"


def described_slots(question: str) -> set[str]:
    """The Chinese words a question uses as the head of a description, not as a name: the noun after a
    demonstrative and its classifier (那家玻璃厂, 那座天文台, 这个小镇, 该公司; not the noun a question word asks: 哪个县), or a bare kind word (a size word before
    it at most) after 的 or 所在 (所在的小镇, 她工作的公司). The first hop fills such a slot with the entity a passage
    names; no passage need write the word itself (the passages name Kettlemere, not 小镇). The noun is the run's
    longest opening that jieba's dictionary knows as one word or that ends in a kind word (玻璃厂所在: 玻璃厂)."""
    if not has_han(question):
        return set()
    out: set[str] = set()
    at = 0
    while (m := _ZH_SLOT.search(question, at)) is not None:
        run = m[2]
        word = next((run[:k] for k in range(len(run), 0, -1)
                     if dictionary_word(run[:k]) or run[:k].endswith(_ZH_KIND_WORDS)), None)
        # the next description may start right after the noun (那家糖厂所在的小镇: 所在的小镇 after 糖厂)
        at = m.start(2) + (len(word) if word else 1)
        if word is None or (len(word) < 2 and word not in _ZH_KIND_SET):
            continue
        if m[1] is None and _zh_kind(word.lstrip(_SIZE_WORDS)) not in _ZH_KIND_SET:
            continue  # 中国的黄河 names a river: after 的 alone only a bare kind word is a slot
        out.add(word)
    return out


DESCRIBED_DEPTH = 3
"""Descriptions followed one inside the other at most ("the city where Tobias Wrenfield's institute is based": his
institute, then its city; "the town of the shipyard where X's director worked": three)."""


def _zh_kind(word: str) -> str:
    return _ZH_KIN.get(word, word)


_ZH_KIND_SET = frozenset(_zh_kind(w) for w in _ZH_KIND_WORDS)


_EN_KIN = {"firm": "company", "maker": "company", "manufacturer": "company", "business": "company",
           "corporation": "company", "enterprise": "company", "producer": "company", "harbor": "harbour",
           "shipyard": "factory", "works": "factory", "plant": "factory", "mill": "factory", "yard": "factory",
           "organization": "organisation"}
_ORGANISATIONS = frozenset({"company", "board", "authority", "agency", "association", "society", "club", "bank",
                            "cooperative", "co-operative", "university", "college", "school", "hospital", "museum",
                            "library", "factory", "institute", "institution", "council", "trust", "foundation",
                            "charity", "commission", "utility", "公司", "协会",
                            "学会", "俱乐部", "银行", "合作社", "大学", "学院", "学校", "医院", "博物馆", "图书馆", "厂",
                            "研究所", "研究院", "乐团", "剧团"})
"""Kinds that are organisations: what a generic word for one (机构, 单位, "organisation", "body") describes, in
either language ("Tamsin Greave 所在的那家水务机构" is the water board her page names)."""
_GENERIC_ORGANISATION = frozenset({"机构", "organisation", "body", "institution", "agency"})
"""An English kind word the way another writes it (a firm, a maker of … and a company are one kind)."""


def _crossed(nouns: set[str]) -> set[str]:
    """Kind nouns with their other language's words (town = 镇, 公司 = company), so that a Chinese question's
    description reaches an English passage and the other way round: the translations of ``KIND_SUFFIXES``."""
    out = set(nouns)
    if out & _GENERIC_ORGANISATION or out & _ORGANISATIONS:  # a generic word for an organisation meets any of them
        out |= set(_GENERIC_ORGANISATION) if out & _ORGANISATIONS else set(_ORGANISATIONS)
    for noun in list(out):
        english = _EN_KIN.get(noun, noun)
        out.add(english)
        out.update(_zh_kind(w) for w in KIND_SUFFIXES.get(english, ((), ""))[0])
        out.update(e for e, (zh, _) in KIND_SUFFIXES.items() if " " not in e and _zh_kind(noun) in map(_zh_kind, zh))
    return out


def kind_nouns(p: Passage, title: str = "") -> frozenset[str]:
    """The nouns that say what kind of entity a passage is about, folded: the head of its opening's "is a …"
    phrase ("Veltham is a city …", "a coastal research vessel"), the head word of its title ("Thorne Hill
    Observatory", "University of Easthaven"); in Chinese the kind word its title or its "是……" phrase ends with
    (溪口市, 是一家茶叶公司)."""
    nouns: set[str] = set()
    opening = re.sub(r"^\s*#[^\n]*\n", "", p.text)[:300]
    if (m := _IS_KIND.search(opening)) is not None:
        words = [w.casefold().strip("'’.,") for w in m[1].split()]
        nouns.update(w for w, nxt in itertools.pairwise([*words, ""]) if not nxt or nxt in ("and", "or"))
    shown = strip_disambiguation(title or p.title)
    head = re.split(r"\s+of\s+", shown, maxsplit=1)[0].split()
    if len(shown.split()) >= 2 and head and head[-1][:1].isupper():
        nouns.add(head[-1].casefold())
    for text in (shown, *(m[1] for m in _ZH_IS_PHRASE.finditer(opening[:80]))):
        if has_han(text):
            nouns.update(_zh_kind(w) for w in _ZH_KIND_WORDS if text.endswith(w))
    nouns.update(w[:-1] for w in list(nouns) if w.endswith("s") and len(w) > 4)
    return frozenset(n for n in _crossed(nouns) if n)


def asked_nouns(question: str) -> set[str]:
    """The nouns the question word asks ("Which river", "how many people", 哪座城市), folded: the kind of the
    answer, which the sentence that gives it need not write."""
    return {m[1].casefold() for m in itertools.chain(_EN_ASKED_NOUN.finditer(question), _ZH_ASKED_NOUN.finditer(question))}


def description_nouns(question: str, names: Sequence[str]) -> list[tuple[int, str]]:
    """Where the question describes an entity by a kind noun, and the noun (folded): its lower-case nouns in
    English ("the city that is home to …", "Ada Morrow's glassworks"), the kind words of a Chinese one
    (青岚茶业总部所在的城市); not the noun the question word asks ("Which river …", 哪座城市), nor one inside
    a name it writes."""
    blanked = question
    for name in names:
        blanked = re.sub(re.escape(name), lambda m: " " * len(m[0]), blanked, flags=re.I)
    asked = {m.start(1) for m in itertools.chain(_EN_ASKED_NOUN.finditer(blanked), _ZH_ASKED_NOUN.finditer(blanked))}
    found = [(m.start(), m[0].casefold()) for m in re.finditer(r"(?<![\w'’-])[a-z][a-z-]{2,}(?![\w-])", blanked)
             if m.start() not in asked]
    for word in (w for w in RELATION_WORDS if not w.isascii()):  # 青岚茶业的创始人: a relation describes one too
        found += [(m.start(), word) for m in re.finditer(re.escape(word), blanked)]
    for word in _ZH_KIND_WORDS:
        found += [(m.start(), _zh_kind(word)) for m in re.finditer(re.escape(word), blanked)
                  if m.start() not in asked and not any(a <= m.start() < a + 3 for a in asked)]
    for word in described_slots(blanked):  # 那座天文台: the head of a description, whatever its kind
        if not word.endswith(_ZH_KIND_WORDS):
            found += [(m.start(), word) for m in re.finditer(re.escape(word), blanked) if m.start() not in asked]
    return sorted(found)


@dataclass
class Described:
    """The entity a question describes, reached from the entity it names through passages that name each other:
    its passage (whole), the sentences that link each step (cited), the description's nouns and the hits the
    steps index."""

    passage: Passage
    steps: list[tuple[int, str]]
    nouns: tuple[str, ...]
    hits: list[Hit]
    by_role: bool = False
    """Reached through a role the question gives the named entity ("the managing director of X") rather than by a
    kind noun: where the reached passage does not state what is asked, the chain knows nothing (no refusal)."""
    clause: str = ""
    """The question's words of the description ("city that is home to the Ashcombe Institute", 林素秋创办的公司):
    they say how to reach the entity, not what is asked of it."""


def _clause(question: str, spots: Sequence[tuple[int, str]], nouns: Sequence[str], names: Sequence[str]) -> str:
    """The description's words in the question: in English from its outermost kind noun to the named entity and
    on up to the question's last word ("the institute that X directed | founded?"); a Chinese description stands
    before what is asked, up to its last kind noun ("青岚茶业总部所在的城市 | 有多少常住人口")."""
    at = [pos for pos, noun in spots if noun in nouns]
    if not at:
        return ""
    if has_han(question):
        last = max(pos for pos, noun in spots if noun in nouns)
        return question[: last + max(len(n) for n in nouns)]
    folded = question.casefold()
    article = [m.end() for m in re.finditer(r"\b(?:the|a|an|its|their)\s+", question[: min(at)], re.I)]
    start = article[-1] if article and len(question[article[-1] : min(at)].split()) <= 3 else min(at)
    # a noun phrase "the <noun> of <name>" ends with its name ("the father of X represent in …": what follows is
    # the question's own predicate, asked of the entity the phrase describes)
    first = min(at)
    noun = next(n for pos, n in spots if pos == first)
    if (of := re.match(r"\s+of\s+(?:the\s+)?", folded[first + len(noun):])) is not None:
        named = first + len(noun) + of.end()
        if (own := next((len(n) for n in names if n and folded.startswith(n.casefold(), named)), None)) is not None:
            return question[start : named + own]
    ends = [i + len(n) for n in names if n and (i := folded.rfind(n.casefold())) >= 0]
    end = max([*ends, max(at)])
    # the question's own verb before the description ("Which shipyard built the vessel named after …") leaves
    # it the rest of the question; an auxiliary alone ("In which year was the institute that X directed
    # founded?") leaves the last word to the question
    asked = _EN_ASKED_NOUN.search(question)
    before = question[asked.end() if asked else 0 : min(at)]
    verb = any(w.casefold() not in _AUXILIARY and w.casefold() not in _QUESTION_WORDS
               for w in re.findall(r"[A-Za-z][\w-]*", before))
    if (stranded := _STRANDED.match(question[end:])) is not None:
        return question[min(at): end + stranded.end()]  # "the company X works for | founded?"
    # a phrasal verb is one last word ("… master founder set up?": "set up" is asked, not the description's "set")
    final = re.search(_FINAL_VERB, question[end:])
    # from the description's article on: its modifiers are the description's ("the research vessel")
    return question[start:] if verb or final is None else question[start : end + final.start()]


_FINAL_VERB = re.compile(r"(?:[A-Za-z-]+\s+(?:up|down|out|off|over|back)\b\W*|\S+)\s*$", re.IGNORECASE)
"""The question's last word, a verb with its particle ("set up", "shut down", "taken over") as one."""
_STRANDED = re.compile(r"\s+(?:[a-z-]+\s+){1,2}?(?:for|at|in|on|with|from|to|by|under|into|near)\b(?=(?:\s+[a-z-]+){0,2}\s*[?？])")
"""The end of a relative clause without its pronoun: the name's verb and its preposition ("… works for")."""
_QUESTION_WORDS = frozenset({"when", "where", "who", "whom", "whose", "what", "which", "how", "why", "many", "much",
                             "year", "long"})
"""A question's own words before a description ("When was the town where …", "How many …"): no verb of its."""
_AUXILIARY = frozenset({"is", "was", "are", "were", "did", "does", "do", "has", "had", "have", "the", "a", "an", "of",
                        "in", "at", "on", "to", "for", "by", "from", "with"})


def _names_of(p: Passage) -> list[str]:
    """The names a passage is about as other passages write them: its names, the short forms its opening
    defines (written in capitals: "The Thorne Hill Observatory (THO)")."""
    short = [k for k in defined_short_forms(p.text[:400]) if k.isupper()]
    return [n for n in (*p.names, *short) if len(n) >= (2 if has_han(n) else 3)]


def _naming(p: Passage, names: Sequence[str]) -> str | None:
    """The first sentence of ``p`` that writes one of the names (a short form in capitals as written)."""
    for s in p.sentences:
        folded = normalize(s)
        for n in names:
            if n.isupper() and re.search(rf"(?<![A-Za-z]){re.escape(n)}(?![A-Za-z])", s):
                return s
            if not n.isupper() and (n in folded if has_han(n) else
                                    re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", folded) is not None):
                return s
    return None


def described(question: str, hits: Sequence[Hit], full: Mapping[str, str] | None = None,
              lookup: Lookup | None = None, fetch: Fetch | None = None) -> Described | None:
    """The entity a question describes by a kind noun, from the entity it names: a passage of that kind (its
    opening's "is a …", its title's head word, a Chinese kind ending) that the named entity's passage names, or
    that names it ("the city that is home to the Ashcombe Institute": the city passage its passage names; "Tobias
    Wrenfield's institute": the institute passage that names him), followed once more where a second description
    wraps the first. The link's sentence is cited, whatever word it uses for the relation (a pronoun, "home to",
    a table row). None when the question describes nothing the passages hold."""
    passages = passages_of(hits, full=full, lookup=lookup, fetch=fetch)
    subjects = subjects_in(question, passages)
    written = [re.sub(r"(?:'s|’s|')$", "", n) for n in question_names(question)]  # "Tobias Wrenfield's institute"
    names = [question[at:end] for _, at, end in subjects] + written
    if not subjects and (named := next((p for n in written if (p := passage_named(passages, n)) is not None),
                                       None)) is not None:
        subjects = [(named, 0, 0)]  # a name written short ("the Ashcombe Institute's" for its full title)
    if not subjects and (kinded := _name_with_kind(question, written, passages)) is not None:
        # a name written half in the other language ("Corrowick 铸钟厂所在的那个小镇"): the page titled with the
        # name and an English kind the Chinese kind word translates ("Corrowick Bell Foundry")
        subjects = [(kinded, 0, 0)]
    mention: Passage | None = None
    if not subjects and (mention := _mentioning(passages, _product_names(question, written))) is not None:
        # a name no passage is about (a product, a model: "the town where the TG-40 controllers are assembled",
        # 生产 Lumen 吊灯的那家玻璃厂): the chain starts at the best passage that writes it, whose sentence names
        # the next entity ("Every TG-40 is assembled … in Kelvedge")
        subjects = [(mention, 0, 0)]
    # a noun right after a name is that name's own kind ("the Corvid 7 mount", "the TG-40 controllers"), not
    # the kind of the entity described
    named_kind = {m[1].casefold() for n in {*names, *written} if n
                  for m in re.finditer(re.escape(n) + r"\s+(?:\d+\s+)?([a-z][a-z-]+)", question, re.I)}
    spots = [(at, n) for at, n in description_nouns(question, names) if n not in named_kind]
    # the name a description's noun governs ("the father of | Oda Brennick |") is where the chain starts, before a
    # longer name the question's own predicate writes ("… hold in the Provincial Assembly of Norland?")
    governed = {at + len(n) + m.end() for at, n in spots
                if (m := re.match(r"\s+of\s+(?:the\s+)?", question[at + len(n):], re.I)) is not None}
    subjects.sort(key=lambda s: s[1] not in governed)
    if not spots and subjects and not _WHO.search(question):
        # a role the question gives the named entity is a description too, when something else is asked of its
        # holder (青崖天文台台长出生在哪个县: the director's birthplace; "Who is X's director" the role alone)
        spots = [(question.find(r), r) for r in roles_of(question, names) if r in question]
    if not spots:
        return None
    wanted_nouns = {n for _, n in spots}
    if subjects:  # a noun of the named entity's own kind describes that entity ("the town of Halveston")
        start_hit = subjects[0][0].hit
        wanted_nouns -= kind_nouns(subjects[0][0], passages.hits[start_hit].title if start_hit < len(passages.hits)
                                   else "")
    for p in list(passages):
        passages.complete(p)  # what a passage is about is said in its document's opening, not in a later chunk
    # the subject as its whole document (a later chunk retrieved for it does not say who its father was; the
    # chunk read before the completion is not completed twice)
    whole = {p.hit: p for p in passages}
    subjects = [(whole.get(p.hit, p), at, end) for p, at, end in subjects]
    start: Passage | None = subjects[0][0] if subjects else None
    if start is not None and wanted_nouns:
        _look_up_linked(start, passages, wanted_nouns, question, names)
    titles = {p.hit: (passages.hits[p.hit].title if p.hit < len(passages.hits) else "") for p in passages}
    kinds = {p.hit: kind_nouns(p, titles[p.hit]) & wanted_nouns for p in passages}
    if not any(kinds.values()) and start is None:
        return None
    if start is not None:
        keys = _names_of(start)
    else:
        keys = [n for n in written if " " in n or has_han(n)]
        if not keys:
            return None
    found = _by_kind(question, start, keys, kinds, passages, spots, names, wanted_nouns) \
        if any(kinds.values()) or start is not None else None
    if found is None and mention is not None and (own := {n for _, n in spots} & kind_nouns(
            mention, titles.get(mention.hit, ""))) and (said := _naming(mention, written)) is not None:
        # the passage that writes the product is itself the entity described ("the firm that makes the Corvid 7":
        # the maker's own page lists it): the question is asked of it, its naming sentence cited
        return _described_at(question, mention, [(mention.hit, said)], tuple(sorted(own)), passages, spots, names)
    if found is None and start is not None and (hop := _related(question, start, passages, spots)):
        # the entity a relation of the lexicon reaches ("Who succeeded the founder of X?": the founder X's passage
        # names), read as a description of it
        relation, read, sentence, target = hop
        return _described_at(question, target, [(read.hit, sentence)], (relation,), passages, spots, names)
    return found


_ZH_NOUN_AFTER = re.compile(r"\s*([\u4e00-\u9fff]{1,6}?)(?=所在|所属|位于|的|[，。？?、,]|$)")


def _name_with_kind(question: str, names: Sequence[str], passages: Passages) -> Passage | None:
    """The passage a name written with a kind word of the other language is about: the question writes the
    name's own words and says its kind in Chinese ("Corrowick 铸钟厂", "Harlow 酒厂"), the passage's title is the
    name followed by English words ("Corrowick Bell Foundry") and its kind (its title's head word, its opening's
    "is a …") is one the Chinese kind word translates (厂 = factory = foundry). The best ranked such passage."""
    for name in names:
        if " " in name and len(name.split()) > 2:
            continue
        after = re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", question, re.I)
        noun = _ZH_NOUN_AFTER.match(question, after.end()) if after is not None else None
        if noun is None:
            continue
        kinds = {_zh_kind(w) for w in _ZH_KIND_WORDS if noun[1].endswith(w)}
        if not kinds:
            continue
        # a specific kind word names a specific kind (大学 is no brickworks), a generic one (机构) any organisation
        crossed = _crossed(kinds) - (set() if kinds & _GENERIC_ORGANISATION else _GENERIC_ORGANISATION)
        key = _fold(name)
        for p in passages:
            if not any(t.startswith(key + " ") for t in p.names):
                continue
            title = passages.hits[p.hit].title if p.hit < len(passages.hits) else ""
            whole = passages.complete(p) or next((q for q in passages if q.hit == p.hit), p)
            if kind_nouns(whole, title) & crossed:
                return whole
    return None


def _product_names(question: str, names: Sequence[str]) -> list[str]:
    """The names a question writes as a thing's model or product name, which a page need not be about: a name
    with a digit ("TG-40", "Corvid 7"), or one the question follows with a common noun, plural or Chinese ("the
    Harrier 3 kettles", "Lumen 吊灯"); not a place or a person written alone ("of Portugal", "born in Kingston")."""
    out = []
    for name in names:
        if len(name) < 2 or name in _QUESTION_NAME_SKIP:
            continue
        after = re.search(re.escape(name) + r"\s*(\S*)", question, re.I)
        following = after[1] if after is not None else ""
        if re.search(r"\d", name) or following[:1].isdigit() or has_han(following[:1]) or re.fullmatch(r"[a-z-]{3,}s", following) \
                or following in known_kinds():
            out.append(name)
    return out


def _mentioning(passages: Sequence[Passage], names: Sequence[str]) -> Passage | None:
    """The best ranked passage that writes one of the names as a word (a code or a name of one word included)."""
    wanted_names = [n for n in names if len(n) >= 2 and n not in _QUESTION_NAME_SKIP]
    return next((p for p in passages if wanted_names and _naming(p, wanted_names) is not None), None)


_ZH_KIND_NAME = re.compile(r"[\u4e00-\u9fff]{1,6}?(?:" + "|".join(w for w in _ZH_KIND_WORDS if len(w) == 1) + r")(?![\u4e00-\u9fff])")


def _zh_runs_of_kind(sentence: str, nouns: Iterable[str]) -> list[str]:
    """The Chinese runs of a sentence that end in one of the description's kind words, with the words before the
    name ("坐落在松桥镇以东" for 镇: 坐落在松桥镇). Chinese writes no space after a name, so a run is cut at the
    kind word asked (not at the next non-Han character, nor at another kind word inside the name: 桥 of 松桥镇);
    the lookup keeps only a page whose title the run ends with (``Passages.look_up``)."""
    words = sorted({n for n in nouns if has_han(n)}, key=len, reverse=True)
    if not words:
        return []
    pattern = r"[\u4e00-\u9fff]{1,6}?(?:" + "|".join(map(re.escape, words)) + ")"
    return [m[0] for m in re.finditer(pattern, sentence) if len(m[0]) >= 2]


def _look_up_linked(start: Passage, passages: Passages, nouns: set[str], question: str = "",
                    names: Sequence[str] = ()) -> None:
    """Look up the entities the named entity's passage writes next to a kind noun of the description, when no
    retrieved passage is of that kind: "总部设在英国港口小镇 Kessford" brings Kessford's own page for "云岫陶瓷总部
    所在的那个港口小镇", "the engineer was born in 宁川县" 宁川县's (the retrieval finds the first hop; the second
    hop's page shares none of the question's words, often not even its language). A sentence that writes the
    description's own words (``_shared_words``: 磨制 of "为X磨制主镜的那家公司" in "镜面由 Calder Optical Works 磨制")
    links too, though it writes no kind noun."""
    whole = passages.complete(start) or start
    others = [p for p in passages if p.hit != start.hit]
    # a retrieved passage of the kind counts only where it is linked to the named entity (its page names it, or
    # it names the entity): another town's page, retrieved for the question's words, is not the town described
    if any(kind_nouns(p, passages.hits[p.hit].title if p.hit < len(passages.hits) else "") & nouns
           and (_naming(whole, _names_of(passages.complete(p) or p)) or _naming(passages.complete(p) or p, _names_of(whole)))
           for p in others):
        return
    crossed = _crossed(set(nouns))
    own = {_fold(n) for n in whole.names}
    for sentence in whole.sentences:
        folded = sentence.casefold()
        if not any((n in folded) if has_han(n) else re.search(rf"\b{re.escape(n)}\b", folded) for n in crossed) \
                and not (question and _shared_words(question, sentence, names)):
            continue
        found = [m[0] for m in _NAME_RE.finditer(sentence) if len(m[0]) >= 3 and m[0] not in _QUESTION_NAME_SKIP]
        found += [m[0] for m in _ZH_KIND_NAME.finditer(sentence) if len(m[0]) >= 2]
        found += [r for r in _zh_runs_of_kind(sentence, crossed) if r not in found]
        for name in found:
            if _fold(name) not in own and not any(_fold(name) in o or o in _fold(name) for o in own):
                passages.look_up(name)


def _by_kind(question: str, start: Passage | None, keys: list[str], kinds: Mapping[int, frozenset[str]],
             passages: Passages, spots: Sequence[tuple[int, str]], names: Sequence[str],
             wanted: set[str] | None = None) -> Described | None:
    """The described entity as the passage of the kind the question names that is linked to the named one (its
    kind said by its own opening or title, or by the sentence that links it: "渡轮公司 Harrowgate Ferries",
    "Wendlebay, a port town"); of
    two linked passages of the kind, the one whose linking sentence shares the description's words ("林秋禾担任
    总经理的那家公司": the company she 担任总经理 of, not the shipyard she worked at). From the named entity, a
    role the question gives it ("the managing director of X", X的总经理) also links to the passage its sentence
    names beside that role, whatever that passage's kind."""
    used = {start.hit} if start is not None else set()
    used_docs = {_doc_of(passages, start)} - {""} if start is not None else set()
    steps: list[tuple[int, str]] = []
    reached: Passage | None = None
    nouns: list[str] = []
    current = start
    roles = roles_of(question, names) if start is not None else []
    by_role = False
    slots = sorted(described_slots(question), key=len, reverse=True)

    def kind_of(p: Passage) -> frozenset[str]:
        if p.hit in kinds:
            return kinds[p.hit]
        title = passages.hits[p.hit].title if p.hit < len(passages.hits) else ""
        return kind_nouns(passages.complete(p) or p, title) & frozenset(wanted or ())

    for _ in range(DESCRIBED_DEPTH):
        best: tuple[tuple[int, int, int, int, int], Passage, tuple[int, str], bool, set[str]] | None = None
        if current is not None and current is not start and wanted:
            # the next step's page is looked up from the entity reached ("… its head office in Wendlebay"), as
            # the first step's is from the named one
            _look_up_linked(current, passages, wanted - set(nouns), question, names)
        for p in passages:
            if p.hit in used or _doc_of(passages, p) in used_docs:
                continue  # another chunk of a document already read is the same entity, not the next one
            own = kind_of(p)
            kind: bool | set[str] = bool(own - set(nouns))
            # (a second step describes another kind than the first: "the city where X's institute is")
            role = not steps and current is start and bool(roles)
            whole = passages.complete(p) or p
            link = None
            if current is not None:
                said = _naming(passages.complete(current) or current, _names_of(whole))
                link = (current.hit, said) if said else None
            if not kind and link is not None and wanted:
                kind = _writes_kind(link[1], _names_of(whole), (wanted & known_kinds()) - set(nouns))
            level = 0
            if not kind and link is not None and wanted and (
                    typed := _typed(question, p, passages, spots, nouns)) is not None:
                # no kind word of the description is the passage's own, but its kind is of the description's type
                # (a town's page for 小镇, a glassworks for "the company"), or it says no kind at all (a bell
                # foundry, an observatory) and the named entity's passage names it: the slot the first hop fills
                kind, level = typed
            if not kind and not role:
                continue
            if link is None and kind and (said := _naming(whole, keys)) is not None:
                link = (p.hit, said)
            elif link is None and role and entity_kind(passages.hits[p.hit].title if p.hit < len(passages.hits)
                                                       else p.title, whole.text) == PERSON \
                    and (said := _naming_role(whole, keys, roles)) is not None:
                # a person's own page that names the entity and the role in one sentence ("回国后参与筹建青崖天文台，
                # 1995年起担任该台台长", "since 2015 she has been the managing director of Orrin Ferries") holds the
                # role: the entity's page need not name its holder ("the town of Ambry" is no role: a town's page
                # that names Ambry is no holder)
                link = (p.hit, said)
            if link is None:
                continue
            if not kind and not _writes_role(link[1], roles):
                continue
            # the description's own kind words say what the slot is, not how it is linked (那座天文台 shares 天文 with
            # every observatory's sentence)
            # a linking sentence that writes the description's own words ("做访问学者" of "X做访问学者的那座天文台")
            # names the entity described, before another of the kind named by a plainer kind word
            rank = (0 if kind else 3, -_shared_words(question, link[1], [*names, *slots]), level,
                    0 if link[0] != p.hit else 1, p.hit)
            if best is None or rank < best[0]:
                # reached by a role: its words are the description's (the clause "the managing director of X")
                reached_kind = set(kind) if isinstance(kind, set) else set(own)
                if not kind:
                    reached_kind = {n for _, n in spots if any(n in r.split() or n == r for r in roles)}
                best = (rank, whole, link, not kind, reached_kind)
        if best is None:
            break
        _, reached, step, role_link, reached_kind = best
        by_role = by_role or role_link
        used.add(reached.hit)
        used_docs.add(_doc_of(passages, reached))
        used_docs.discard("")
        steps.append(step)
        nouns.extend(sorted(reached_kind))
        current, keys = reached, _names_of(reached)
    if reached is None:
        return None
    found = _described_at(question, reached, steps, tuple(dict.fromkeys(nouns)), passages, spots, names)
    if found is not None:
        found.by_role = by_role
    return found


def _doc_of(passages: Passages, p: Passage) -> str:
    """The document a passage is a chunk of ("" when unknown)."""
    return passages.hits[p.hit].doc_id if p.hit < len(passages.hits) else ""


def _noun_type(noun: str) -> str | None:
    """Whether a description's kind noun is a place's or an organisation's, in either language (小镇, "the firm",
    玻璃厂, 机构); None for another or an unknown noun (and for a person's: roles say those)."""
    if (found := noun_kind(noun)) is not None:
        return found if found != PERSON else None
    english = _EN_KIN.get(noun, noun)
    if {noun, english} & (_ORGANISATIONS | _GENERIC_ORGANISATION):
        return ORGANIZATION
    for word, (endings, etype) in KIND_SUFFIXES.items():
        if english == word or (has_han(noun) and noun.endswith(endings)):
            return PLACE if etype == "LOCATION" else ORGANIZATION
    return None


_HEADS_CLAUSE = r"\s+(?:where|that|which|who|whom|whose|(?:in|at|on|for|from|by)\s+which|the\s+[A-Z]|[A-Z])"


def _typed(question: str, p: Passage, passages: Passages, spots: Sequence[tuple[int, str]], used: Sequence[str]
           ) -> tuple[set[str], int] | None:
    """The description's nouns a passage linked to the entity reached may stand for by its type, and how well
    (1: the passage says it is of the nouns' type, a place or an organisation; 2: it says no kind the chains know,
    and the noun is the head of the description: a Chinese slot word, an English noun a relative clause follows,
    "the observatory where …"); None when its type is another."""
    title = passages.hits[p.hit].title if p.hit < len(passages.hits) else p.title
    whole = passages.complete(p) or p
    own = entity_kind(title, whole.text) or next((t for n in kind_nouns(whole, title) if (t := _noun_type(n))), None)
    left = [n for _, n in spots if n not in used and (_noun_type(n) is not None or n in known_kinds()
                                                      or (has_han(n) and n not in RELATION_WORDS))]
    if not left:
        return None
    if own is not None:
        same = {n for n in left if _noun_type(n) == own}
        return (same, 1) if same and own != PERSON else None
    slots = described_slots(question)
    heads = {n for n in left if (any(slot.endswith(n) for slot in slots) if has_han(n) else
                                 re.search(rf"\b{re.escape(n)}{_HEADS_CLAUSE}", question) is not None)}
    return (heads, 2) if heads else None


_ROLE_EN = re.compile(r"\bthe\s+((?:[a-z-]+\s+){0,2}[a-z-]{4,})\s+of\s+(?:the\s+)?$")
_ROLE_EN_AFTER = re.compile(r"^(?:'s|’s)\s+((?:[a-z-]+\s+){0,2}?[a-z-]{4,})\b")
_ROLE_ZH_AFTER = re.compile(r"^\s*的?([\u4e00-\u9fff]{2,4}?)(?=是|为|叫|出生|生于|在|的|有|哪|什么|多少|毕业|，|。|？|\?|$)")


def roles_of(question: str, names: Sequence[str]) -> list[str]:
    """The role a question gives a name it writes: "the managing director of X", "X's chief engineer", X的总经理
    (the words of the role, folded); none where it gives none."""
    out: list[str] = []
    for name in (n for n in names if n):
        for m in re.finditer(re.escape(name), question):
            if (en := _ROLE_EN.search(question[: m.start()])) is not None:
                out.append(en[1].casefold())
            after = question[m.end():]
            if (own := _ROLE_EN_AFTER.match(after)) is not None:
                out.append(own[1].casefold())
            if (zh := _ROLE_ZH_AFTER.match(after)) is not None and not any(w in zh[1] for w in _ZH_KIND_WORDS):
                out.append(zh[1])
    return list(dict.fromkeys(r for r in out if r.split()[-1] not in _AUXILIARY))


def _naming_role(p: Passage, names: Sequence[str], roles: Sequence[str]) -> str | None:
    """The first sentence of ``p`` that writes one of the names and one of the roles."""
    for s in p.sentences:
        if _writes_role(s, roles) and _naming(replace(p, text=s, sentences=(s,)), names) is not None:
            return s
    return None


def _writes_role(sentence: str, roles: Sequence[str]) -> bool:
    """Whether a linking sentence writes one of the question's roles (its words in order: "its managing director
    has been …"), so that the name it gives is the one holding the role."""
    folded = sentence.casefold()
    return any((r in folded) if has_han(r) else re.search(rf"\b{re.escape(r)}\b", folded) is not None for r in roles)


@functools.cache
def known_kinds() -> frozenset[str]:
    """The kind nouns the chains know in either language (a town, 公司, a shipyard): the only words of a
    description a linking sentence may say a name's kind by (not "the" or "was")."""
    words = {*KIND_SUFFIXES, *_EN_KIN, *_EN_KIN.values(), *_ORGANISATIONS, *_GENERIC_ORGANISATION,
             *(_zh_kind(w) for w in _ZH_KIND_WORDS), *(w.casefold() for w in _KIND_WORDS)}
    return frozenset(w for w in words if " " not in w)


KIND_WINDOW = 24
"""Characters between a name and the kind noun a linking sentence writes beside it ("渡轮公司 Harrowgate Ferries",
"Wendlebay, a port town on …") for the sentence to say the name's kind."""


def _writes_kind(sentence: str, names: Sequence[str], nouns: set[str]) -> set[str]:
    """The description's kind nouns (either language's word for them) a linking sentence writes beside the name
    it links by, within ``KIND_WINDOW`` characters either side."""
    folded = sentence.casefold()
    out: set[str] = set()
    for name in (n.casefold() for n in names if n):
        for m in re.finditer(re.escape(name), folded):
            near = folded[max(0, m.start() - KIND_WINDOW): m.end() + KIND_WINDOW]
            out.update(noun for noun in nouns
                       if any((w in near) if has_han(w) else re.search(rf"\b{re.escape(w)}\b", near)
                              for w in _crossed({noun}) if w))
    return out


_FUNCTION_ZH = re.compile(r"[的那这个家座所是在了和与及，。？?、]")


def _shared_words(question: str, sentence: str, names: Sequence[str]) -> int:
    """How many of the question's own words (its names left out) a linking sentence writes: Chinese by pairs of
    characters, English by words of four letters or more (their first five)."""
    text = question
    for name in names:
        if name:
            text = text.replace(name, " ")
    folded = sentence.casefold()
    if has_han(text):
        pairs = {text[i:i + 2] for i in range(len(text) - 1)}
        return sum(1 for pair in pairs if has_han(pair) and len(pair.strip()) == 2 and not _FUNCTION_ZH.search(pair)
                   and pair in folded)
    words = {w.casefold()[:5] for w in re.findall(r"[A-Za-z]{4,}", text)} - {"which", "where", "what", "when"}
    return sum(1 for w in words if re.search(rf"\b{re.escape(w)}", folded))


def _described_at(question: str, reached: Passage, steps: list[tuple[int, str]], nouns: tuple[str, ...],
                  passages: Passages, spots: Sequence[tuple[int, str]], names: Sequence[str]) -> Described | None:
    """The description reached, unless a name the question writes stands outside it: that name is then what
    the question asks about ("How many times was X selected for the all-star game of the NFL?": X's selections,
    not the game's)."""
    clause = _clause(question, spots, nouns, names)
    if any(n and n.casefold() in question.casefold() and n.casefold() not in clause.casefold() for n in names) \
            and not _SUBJECT.search(question[: max(0, question.find(clause))]):
        return None
    return Described(passage=reached, steps=steps, nouns=nouns, hits=passages.hits, clause=clause)


_SUBJECT = re.compile(r"^\s*(?:which|what|how\s+many|how\s+much|where|when|in\s+which|in\s+what)\b[^?]*?\b"
                      r"(?:did|does|do|was|is|were|are|has|have|had)\s+(?:the|a|an)\s+$", re.I)
"""A description that is the subject of the question's own verb ("Which constituency did | the father of X |
represent in the House of Commons?"): a name after it belongs to what is asked of the entity it describes, not
to another subject."""


def _related(question: str, start: Passage, passages: Passages, spots: Sequence[tuple[int, str]]
             ) -> tuple[str, Passage, str, Passage] | None:
    """The one relation of the lexicon the question's description names ("the founder of X", X的创始人), the
    passage it was read from, its sentence and the passage of the entity it reaches; None unless every step
    is found."""
    words = [w for _, w in spots if w in RELATION_WORDS]
    if len(words) != 1:
        return None
    relation = RELATION_WORDS[words[0]]
    hop = _hop(start, relation, passages, start.title)
    if hop is None:
        return None
    read, (_, sentence, target) = hop
    if target is None:
        return None
    return words[0], read, sentence, passages.complete(target) or target
