"""The bench's synthetic bilingual corpus: entities (people, organizations, places with hierarchies, topics,
events), one-chunk documents about them, and questions meant for each route (structured, relaxed, semantic,
hybrid). A seeded RNG: the same seed and size give the same data."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal

from graphs.domain import Document, EntityMetadata, EntityType

Route = Literal["structured", "structured_relaxed", "semantic", "hybrid"]
ROUTES: tuple[Route, ...] = ("structured", "structured_relaxed", "semantic", "hybrid")
CHUNK_CHARS_MAX = 780  # under the ingest splitter's 800: one document is exactly one chunk
CORPUS_YEARS = (2019, 2024)
ABSENT_YEAR = 2012  # no document is dated in it: a question naming it needs relaxation


SURNAMES = (
    ("张", "Zhang"), ("王", "Wang"), ("李", "Li"), ("刘", "Liu"), ("陈", "Chen"), ("杨", "Yang"), ("黄", "Huang"),
    ("赵", "Zhao"), ("周", "Zhou"), ("吴", "Wu"), ("徐", "Xu"), ("孙", "Sun"), ("马", "Ma"), ("朱", "Zhu"),
    ("胡", "Hu"), ("郭", "Guo"), ("何", "He"), ("林", "Lin"), ("罗", "Luo"), ("高", "Gao"),
)  # fmt: skip
GIVEN = (
    ("思", "si"), ("远", "yuan"), ("明", "ming"), ("华", "hua"), ("晓", "xiao"), ("婷", "ting"), ("志", "zhi"),
    ("强", "qiang"), ("欣", "xin"), ("涵", "han"), ("俊", "jun"), ("杰", "jie"), ("怡", "yi"), ("浩", "hao"),
    ("宇", "yu"), ("诚", "cheng"), ("敏", "min"), ("磊", "lei"), ("静", "jing"), ("峰", "feng"),
)  # fmt: skip
WESTERN = (
    ("Alice", "爱丽丝"), ("Brian", "布莱恩"), ("Clara", "克拉拉"), ("David", "大卫"), ("Emma", "艾玛"),
    ("Frank", "弗兰克"), ("Grace", "格蕾丝"), ("Henry", "亨利"), ("Irene", "艾琳"), ("Jack", "杰克"),
)  # fmt: skip
WESTERN_LAST = (
    ("Walker", "沃克"), ("Turner", "特纳"), ("Parker", "帕克"), ("Morgan", "摩根"), ("Collins", "柯林斯"),
    ("Bennett", "贝内特"), ("Hughes", "休斯"), ("Foster", "福斯特"),
)  # fmt: skip
ORG_PREFIX = (
    ("星河", "Xinghe"), ("蓝海", "Lanhai"), ("云帆", "Yunfan"), ("华辰", "Huachen"), ("天工", "Tiangong"),
    ("鼎新", "Dingxin"), ("博远", "Boyuan"), ("启明", "Qiming"), ("青松", "Qingsong"), ("汇智", "Huizhi"),
    ("睿思", "Ruisi"), ("恒泰", "Hengtai"),
)  # fmt: skip
ORG_SUFFIX = (
    ("科技", "Technology"), ("集团", "Group"), ("银行", "Bank"), ("研究院", "Research Institute"), ("资本", "Capital"),
)  # fmt: skip
# country -> city -> districts, each as (Chinese, English).
PLACES: tuple[tuple[tuple[str, str], tuple[tuple[tuple[str, str], tuple[tuple[str, str], ...]], ...]], ...] = (
    (("中国", "China"), (
        (("北京", "Beijing"), (("朝阳", "Chaoyang"), ("海淀", "Haidian"), ("东城", "Dongcheng"))),
        (("上海", "Shanghai"), (("浦东", "Pudong"), ("徐汇", "Xuhui"), ("静安", "Jing'an"))),
        (("广州", "Guangzhou"), (("天河", "Tianhe"), ("越秀", "Yuexiu"))),
        (("深圳", "Shenzhen"), (("南山", "Nanshan"), ("福田", "Futian"))),
        (("杭州", "Hangzhou"), (("滨江", "Binjiang"), ("余杭", "Yuhang"))),
        (("成都", "Chengdu"), (("锦江", "Jinjiang"), ("武侯", "Wuhou"))),
    )),
    (("美国", "United States"), (
        (("纽约", "New York"), (("曼哈顿", "Manhattan"), ("布鲁克林", "Brooklyn"))),
        (("旧金山", "San Francisco"), ()),
    )),
    (("日本", "Japan"), ((("东京", "Tokyo"), (("涩谷", "Shibuya"),)),)),
)  # fmt: skip
TOPICS = (
    ("人工智能", "artificial intelligence"), ("新能源汽车", "electric vehicles"), ("芯片设计", "chip design"),
    ("量子计算", "quantum computing"), ("生物医药", "biomedicine"), ("云计算", "cloud computing"),
    ("储能电池", "battery storage"), ("自动驾驶", "autonomous driving"), ("数字货币", "digital currency"),
    ("卫星通信", "satellite communication"), ("智能制造", "smart manufacturing"), ("碳中和", "carbon neutrality"),
)  # fmt: skip
EVENTS = (
    ("发布会", "launch event"), ("行业论坛", "industry forum"), ("年度峰会", "annual summit"),
    ("合作签约仪式", "partnership signing"), ("技术研讨会", "technical workshop"),
)  # fmt: skip
ROLES = ("首席执行官", "首席科学家", "总裁", "研究员", "副总裁")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
QUESTION_POOL = 200  # questions come from the first tagged documents: every size >= ~230 asks the same


@dataclass(frozen=True)
class BenchQuestion:
    """A generated question and the route its wording is meant to take."""

    text: str
    route: Route


@dataclass(frozen=True)
class SyntheticCorpus:
    """Entities, one-chunk documents and questions, all from one seed."""

    seed: int
    entities: list[EntityMetadata]
    documents: list[Document]
    questions: list[BenchQuestion]


def generate_entities(seed: int = 42) -> list[EntityMetadata]:
    """Persons, organizations and a location hierarchy with Chinese names and English aliases."""
    rng = random.Random(f"entities:{seed}")
    entities: list[EntityMetadata] = []
    surfaces: set[str] = set()

    def add(entity: EntityMetadata) -> None:
        forms = {entity.standard_name, *entity.aliases}
        if not forms & surfaces:  # aliases are unique in the entity store
            surfaces.update(forms)
            entities.append(entity)

    for country, cities in PLACES:
        add(
            EntityMetadata(
                standard_name=country[0], type="LOCATION", aliases=[country[1]], hierarchy=[country[0]]
            )
        )
        for city, districts in cities:
            path = [country[0], city[0]]
            add(EntityMetadata(standard_name=city[0], type="LOCATION", aliases=[city[1]], hierarchy=path))
            for district in districts:
                add(
                    EntityMetadata(
                        standard_name=district[0],
                        type="LOCATION",
                        aliases=[district[1]],
                        hierarchy=[*path, district[0]],
                    )
                )
    for prefix in ORG_PREFIX:
        for suffix in ORG_SUFFIX:
            add(
                EntityMetadata(
                    standard_name=prefix[0] + suffix[0],
                    type="ORGANIZATION",
                    aliases=[f"{prefix[1]} {suffix[1]}"],
                )
            )
    names = [(s, g1, g2) for s in SURNAMES for g1 in GIVEN for g2 in GIVEN if g1 != g2]
    for s, g1, g2 in rng.sample(names, 160):
        add(
            EntityMetadata(
                standard_name=s[0] + g1[0] + g2[0],
                type="PERSON",
                aliases=[f"{s[1]} {(g1[1] + g2[1]).capitalize()}"],
            )
        )
    western = [(f, last) for f in WESTERN for last in WESTERN_LAST]
    for first, last in rng.sample(western, 30):
        add(
            EntityMetadata(
                standard_name=f"{first[0]} {last[0]}", type="PERSON", aliases=[f"{first[1]}·{last[1]}"]
            )
        )
    return entities


def _by_type(entities: Sequence[EntityMetadata], etype: EntityType) -> list[EntityMetadata]:
    return [e for e in entities if e.type == etype]


def _english(entity: EntityMetadata) -> str:
    """The entity's Latin-script form (its standard name or its first Latin alias)."""
    for form in (entity.standard_name, *entity.aliases):
        if form.isascii():
            return form
    return entity.standard_name


def _chinese(entity: EntityMetadata) -> str:
    for form in (entity.standard_name, *entity.aliases):
        if not form.isascii():
            return form
    return entity.standard_name


def _document(
    i: int,
    rng: random.Random,
    persons: list[EntityMetadata],
    orgs: list[EntityMetadata],
    places: list[EntityMetadata],
    start: date,
    days: int,
) -> Document:
    who = rng.sample(persons, 2 if rng.random() < 0.3 else 1)
    org = rng.choice(orgs)
    where = rng.choice(places)
    topic_cn, topic_en = rng.choice(TOPICS)
    event_cn, event_en = rng.choice(EVENTS)
    when = start + timedelta(days=rng.randrange(days))
    p = who[0]
    cn_date = f"{when.year}年{when.month}月{when.day}日"
    en_date = f"{MONTHS[when.month - 1]} {when.day}, {when.year}"  # not strftime: no locale
    sentences = [
        f"{cn_date}，{_chinese(org)}{rng.choice(ROLES)}{_chinese(p)}在{_chinese(where)}出席了{event_cn}，"
        f"重点介绍了{topic_cn}的最新进展。",
        f"On {en_date}, {_english(p)} of {_english(org)} presented work on {topic_en} at the {event_en} "
        f"in {_english(where)}.",
        f"{_chinese(p)}表示，{_chinese(org)}将在{_chinese(where)}继续加大对{topic_cn}的投入，预计{rng.randint(2, 6)}年内见效。",
        f"Analysts said {topic_en} could reshape the industry, and {_english(org)} plans "
        f"{rng.randint(3, 40)} new projects.",
        f"业内人士认为，{topic_cn}正在改变产业格局，相关投资同比增长{rng.randint(5, 60)}%。",
    ]
    if len(who) > 1:
        sentences.append(f"{_chinese(who[1])} also joined the discussion on {topic_en} with {_english(p)}.")
    head, tail = sentences[:2], sentences[2:]
    rng.shuffle(tail)
    text = " ".join(head + tail[: rng.randint(1, len(tail))])
    while len(text) > CHUNK_CHARS_MAX:  # never reached with these templates; keeps the one-chunk promise
        text = text.rsplit(" ", 1)[0]
    metadata: dict[str, Any] = {"date": when.isoformat(), "topic": topic_en}
    if i == 0 or rng.random() < 0.9:
        # Mostly standard names, sometimes an alias (normalized at ingest); the rest is extracted from text.
        metadata["entities"] = {
            "PERSON": [e.standard_name if rng.random() < 0.8 else e.aliases[0] for e in who],
            "ORGANIZATION": [org.standard_name],
            "LOCATION": [where.standard_name],
        }
    title = f"{_chinese(org)}{event_cn}：{_chinese(p)}谈{topic_cn}"
    return Document(id=f"bench-{i:07d}", title=title, text=text, metadata=metadata)


def generate_documents(n: int, entities: Sequence[EntityMetadata], seed: int = 42) -> list[Document]:
    """``n`` one-chunk bilingual news items whose entities come from ``entities``."""
    rng = random.Random(f"documents:{seed}")
    persons, orgs = _by_type(entities, "PERSON"), _by_type(entities, "ORGANIZATION")
    places = [e for e in _by_type(entities, "LOCATION") if len(e.hierarchy) >= 2]  # cities and districts
    start = date(CORPUS_YEARS[0], 1, 1)
    days = (date(CORPUS_YEARS[1], 12, 31) - start).days + 1
    return [_document(i, rng, persons, orgs, places, start, days) for i in range(n)]


def _city(entities_by_name: dict[str, EntityMetadata], place: str) -> EntityMetadata:
    """The city of a city or district (hierarchy: country, city[, district])."""
    return entities_by_name[entities_by_name[place].hierarchy[1]]


def generate_questions(
    documents: Sequence[Document], entities: Sequence[EntityMetadata], seed: int = 42, per_route: int = 8
) -> list[BenchQuestion]:
    """``per_route`` questions per route, alternating Chinese and English; entity ones match some document."""
    rng = random.Random(f"questions:{seed}")
    by_name = {e.standard_name: e for e in entities}
    alias_of = {a: e for e in entities for a in e.aliases}
    tagged = [d for d in documents if isinstance(d.metadata.get("entities"), dict)][:QUESTION_POOL]
    pairs: list[tuple[EntityMetadata, EntityMetadata]] = []
    for doc in rng.sample(tagged, min(len(tagged), 2 * per_route)):
        meta = doc.metadata["entities"]
        name = meta["PERSON"][0]
        person = by_name.get(name) or alias_of[name]
        pairs.append((person, _city(by_name, meta["LOCATION"][0])))
    questions: list[BenchQuestion] = []
    for i in range(per_route):
        person, city = pairs[i % len(pairs)]
        other, other_city = pairs[(i + per_route) % len(pairs)]
        topic_cn, topic_en = TOPICS[(i + seed) % len(TOPICS)]
        zh = i % 2 == 0
        questions += [
            BenchQuestion(
                f"{_chinese(person)}在{_chinese(city)}参加了哪些活动？"
                if zh
                else f"Which events did {_english(person)} attend in {_english(city)}?",
                "structured",
            ),
            BenchQuestion(
                f"{_chinese(other)}{ABSENT_YEAR}年在{_chinese(other_city)}参加了哪些活动？"
                if zh
                else f"Which events did {_english(other)} attend in {_english(other_city)} in {ABSENT_YEAR}?",
                "structured_relaxed",
            ),
            BenchQuestion(
                f"请解释{topic_cn}的概念" if zh else f"Explain the concept of {topic_en}.", "semantic"
            ),
            BenchQuestion(
                f"{topic_cn}领域有哪些新的投资？" if zh else f"Which new investments target {topic_en}?",
                "hybrid",
            ),
        ]
    return questions


def generate_corpus(n_chunks: int, seed: int = 42, per_route: int = 8) -> SyntheticCorpus:
    """The whole synthetic data set for one size (one document = one chunk)."""
    if n_chunks < 1:
        raise ValueError("n_chunks must be positive")
    entities = generate_entities(seed)
    documents = generate_documents(n_chunks, entities, seed)
    return SyntheticCorpus(
        seed, entities, documents, generate_questions(documents, entities, seed, per_route)
    )
