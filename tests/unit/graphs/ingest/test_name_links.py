"""Names linked across scripts at ingest (``graphs.ingest.name_links``): stated pairs, pinyin readings with the
kind word translated, translated names with shared hard facts; the links become entities with aliases and the
chunks naming either spelling carry the entity's tag. Examples are invented here, not taken from any trial set."""

from __future__ import annotations

from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding
from pydantic import Field

from graphs.domain import Chunk, Document, EntityMetadata
from graphs.ingest.name_links import MEANING_MARGIN, facts, propose_links
from graphs.ingest.pipeline import Ingestor
from graphs.rag.context import GazetteerCache
from graphs.stores.filters import Filter
from graphs.text.scripts import distinctive_reading, kind_of, latin_names, stated_pairs
from tests.support.fakes import TODAY, ScriptedIndex, entity_store


def pairs(text: str) -> list[tuple[str, str]]:
    return stated_pairs(text)


def test_a_pair_stated_in_brackets_or_words_is_read_either_way() -> None:
    assert pairs("位于河口镇的北辰天文台（Polaris Observatory）建于1987年。") == [("北辰天文台", "Polaris Observatory")]
    assert pairs("The Riverbend Bakery (河湾面包房) opened in 2003.") == [("河湾面包房", "Riverbend Bakery")]
    assert pairs("青禾书店，英文名 Greenseed Books，位于老城区。") == [("青禾书店", "Greenseed Books")]
    assert pairs("Tidewater Ferries, known in Chinese as 潮水轮渡, runs six boats.") == [("潮水轮渡", "Tidewater Ferries")]
    assert pairs("the Kestrel, also known as 隼号, was launched in 1990") == [("隼号", "Kestrel")]
    # two names in brackets of one script are no cross-script pair
    assert pairs("北辰天文台（河口镇）") == [] and pairs("Polaris Observatory (Hekou)") == []


def test_latin_names_and_their_transliterated_part() -> None:
    assert latin_names("Boats leave Taohua Harbour daily. The guide is Liu Fang.") == ["Taohua Harbour", "Liu Fang"]
    assert distinctive_reading("Taohua Harbour") == "taohua" and kind_of("Taohua Harbour") == (("港",), "LOCATION")
    assert distinctive_reading("Bluebell Choir") == "bluebell" and kind_of("Bluebell Choir") is not None
    assert distinctive_reading("Liu Fang") == "liufang" and kind_of("Liu Fang") is None


def test_a_transliterated_name_links_by_its_exact_reading_and_its_translated_kind_word() -> None:
    docs = {"en.txt": ["Boats leave Taohua Harbour at seven; the crossing takes an hour."],
            "zh.txt": ["桃花港每天有三班船开往东岛。"]}
    [link] = propose_links(docs)
    assert (link.han, link.latin, link.type, link.basis) == ("桃花港", "Taohua Harbour", "LOCATION", "pinyin")
    assert "桃花港 = Taohua Harbour (linked by pinyin" in link.describe()


def test_no_link_without_the_kind_word_or_when_two_spellings_read_the_same() -> None:
    # the Chinese text reads "taohua" but has no harbour after it
    assert propose_links({"en": ["Boats leave Taohua Harbour at seven."], "zh": ["桃花村的桃花开了。"]}) == []
    # two harbours read "taohua": nothing is linked
    assert propose_links({"en": ["Boats leave Taohua Harbour at seven."],
                          "zh": ["桃花港在北，陶华港在南。"]}) == []
    # a person's name links only to characters the Chinese tagging calls a name
    docs = {"en": ["The meeting was chaired by Liu Fang."], "zh": ["会议由刘芳主持。"]}
    assert propose_links(docs) == []
    [link] = propose_links(docs, known_han={"刘芳"})
    assert (link.han, link.latin, link.type) == ("刘芳", "Liu Fang", "PERSON")


def test_a_translated_name_links_only_on_enough_shared_facts() -> None:
    en = ["The Bluebell Choir was founded in 1998. Its 46 singers rehearse on Fridays; the spring concert is on "
          "3 May 2025."]
    zh = ["风铃草合唱团成立于1998年，现有团员46人，2025年春季音乐会在5月举行。"]
    [link] = propose_links({"en": en, "zh": zh})
    assert (link.han, link.latin, link.basis) == ("风铃草合唱团", "Bluebell Choir", "shared facts")
    assert "1998" in link.reason and "46" in link.reason
    # one shared number is not enough
    assert propose_links({"en": en, "zh": ["风铃草合唱团成立于1998年，每周六排练。"]}) == []
    # two choirs that share as much: neither is linked
    assert propose_links({"en": en, "zh": [*zh, "白桦合唱团成立于1998年，现有团员46人，2025年巡演。"]}) == []


def test_facts_are_numbers_and_codes() -> None:
    assert facts("成立于2014年，座位1,180个，编号SF-0715，第3名") == {"2014", "1180", "SF0715"}


class _Index(ScriptedIndex):
    """An index that keeps what it is given and reads it back (re-tagging rewrites through it)."""

    def __init__(self) -> None:
        super().__init__()
        self.written: dict[str, list[Chunk]] = {}

    def replace_document(self, doc_id: str, chunks: Any, vectors: Any) -> int:
        self.written[doc_id] = list(chunks)
        return len(chunks)

    def document_ids(self) -> set[str]:
        return set(self.written)

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        return self.written.get(doc_id, [])

    def chunks_where(self, filter: Filter) -> list[Chunk]:
        return [c for cs in self.written.values() for c in cs]

    def chunk_vectors(self, doc_id: str) -> dict[str, list[float]]:
        return {c.id: [0.0] * 8 for c in self.written.get(doc_id, [])}


def test_ingest_writes_the_link_as_an_alias_and_tags_both_files(tmp_path: Any) -> None:
    store = entity_store(tmp_path)
    index = _Index()
    ing = Ingestor(DeterministicFakeEmbedding(size=8), index, store, GazetteerCache(store), today=lambda: TODAY)
    report = ing.ingest([
        Document(id="report.txt", title="Annual report", text="The Polaris Observatory (北辰天文台) opened in 1987."),
        Document(id="visit.txt", title="参观须知", text="北辰天文台每周二闭馆，门票40元。"),
    ])
    assert report.linked == ["北辰天文台 = Polaris Observatory (linked by stated: written together in report.txt)"]
    entity = store.get("北辰天文台")
    assert entity is not None and entity.aliases == ["Polaris Observatory"]
    match = store.lookup("Polaris Observatory")
    assert match is not None and match.entity.standard_name == "北辰天文台"
    tagged = {c.doc_id for cs in index.written.values() for c in cs
              if "北辰天文台" in [n for names in c.entities.values() for n in names]}
    assert tagged == {"report.txt", "visit.txt"}


def test_a_link_merges_into_an_entity_the_user_added_and_never_takes_anothers_alias(tmp_path: Any) -> None:
    store = entity_store(tmp_path)
    store.upsert(EntityMetadata(standard_name="Polaris Observatory", type="ORGANIZATION", aliases=["Polaris"]))
    index = _Index()
    ing = Ingestor(DeterministicFakeEmbedding(size=8), index, store, GazetteerCache(store), today=lambda: TODAY)
    ing.ingest([Document(id="r.txt", title="r", text="The Polaris Observatory (北辰天文台) opened in 1987.")])
    entity = store.get("Polaris Observatory")
    assert entity is not None and set(entity.aliases) == {"Polaris", "北辰天文台"}
    assert store.get("北辰天文台") is None


def test_linking_can_be_switched_off(tmp_path: Any) -> None:
    store = entity_store(tmp_path)
    ing = Ingestor(DeterministicFakeEmbedding(size=8), _Index(), store, GazetteerCache(store), today=lambda: TODAY,
                   link_names_on_ingest=False)
    report = ing.ingest([Document(id="r.txt", title="r", text="The Polaris Observatory (北辰天文台) opened.")])
    assert report.linked == [] and store.get("北辰天文台") is None


def test_a_stated_pair_links_a_name_not_the_clause_before_it() -> None:
    # the Chinese run before the bracket is cut to the name: the ending read nearest the Latin in pinyin
    assert pairs("工厂设在英国马洛（Marlow）郊外。") == [("马洛", "Marlow")]
    assert pairs("总部迁到英国兰登（Landen）。") == [("兰登", "Landen")]
    # a run that ends with the kind word's translation or a company suffix is the name whole
    assert pairs("位于镇上的绿洲农场（Oasis Farm）") == [("绿洲农场", "Oasis Farm")]
    assert pairs("宁波远帆航运有限公司（Yuanfan Shipping）") == [("宁波远帆航运有限公司", "Yuanfan Shipping")]
    # a clause that neither reads as the Latin name nor is short: no pair; nor an abbreviation of two letters
    assert pairs("长期兼任北方行省首府塔兰（Vervins）") == []
    assert pairs("又译冰雪皇后（DQ）") == []
    # an acronym, an ordinal edition: no pair either
    assert pairs("在美国（ABC）播出") == [] and pairs("第一届（SuperStar）") == []


def test_a_chinese_name_before_its_alias_never_runs_over_a_date_a_function_word_or_a_clauses_verb() -> None:
    # the name opens after the last number, date, particle, preposition or clause verb before the bracket
    assert pairs("高建国于2011年创办云栖智能制造公司（Yunqi Smart Manufacturing）。") == [
        ("云栖智能制造公司", "Yunqi Smart Manufacturing")]
    assert pairs("于2019年成立的鹿鸣数据公司（Luming Data）位于城东。") == [("鹿鸣数据公司", "Luming Data")]
    assert pairs("由周立安创办的松果科技（Pinecone Tech）发布了新品。") == [("松果科技", "Pinecone Tech")]
    assert pairs("合作社去年收购了青禾农场（Qinghe Farm）。") == [("青禾农场", "Qinghe Farm")]
    assert pairs("二〇〇八年创办的白鹭剧团（Egret Theatre）") == [("白鹭剧团", "Egret Theatre")]
    # a clause's verb after its subject, a person: 创办 opens no name
    assert pairs("张海燕创办星火测绘公司（Sparkfire Surveying），") == [("星火测绘公司", "Sparkfire Surveying")]
    # a verb inside a name stays (after a noun, a place or an organisation; opening the run)
    assert pairs("太空探测技术公司（Space Probe Technologies）") == [("太空探测技术公司", "Space Probe Technologies")]
    assert pairs("，北京创新工场（Sinovation Ventures）") == [("北京创新工场", "Sinovation Ventures")]
    assert pairs("招商银行（China Merchants Bank）") == [("招商银行", "China Merchants Bank")]
    # a word the tagger calls a verb that ends the run is the name's own (刘家|渡, 双鹰|忌): no clause follows it
    assert pairs("这座桥名叫刘家渡（Liujia Ferry）。") == [("刘家渡", "Liujia Ferry")]
    assert pairs("比标准杆少三杆称为双鹰忌（Double Eagle）。") == [("双鹰忌", "Double Eagle")]
    # a person's name whole: never the given name the Latin writes first (晓燕 of 王晓燕 for "Xiaoyan Wang")
    assert pairs("李晓明（Xiao-Ming Li）是一位教授。") == [("李晓明", "Xiao-Ming Li")]
    assert pairs("导演王晓燕（Xiaoyan Wang）") == [("王晓燕", "Xiaoyan Wang")]
    # the ending read nearest the Latin opens at one of the tagger's words where one reads so (加拿大, not 拿大)
    assert pairs("来自意大利（Italian）、澳大利亚（Australian）和加拿大（Canadian）的选手") == [
        ("意大利", "Italian"), ("澳大利亚", "Australian"), ("加拿大", "Canadian")]


def test_a_latin_name_before_its_alias_is_the_name_and_a_bracketed_or_following_chinese_one_a_name_whole() -> None:
    assert pairs("Founded in 1998 as Northwind Traders (北风贸易), the firm grew.") == [("北风贸易", "Northwind Traders")]
    # a possessor and a word capitalised only because it opens the sentence are no part of the name
    assert pairs("Jane Holloway's Northwind Traders (北风贸易) opened a shop.") == [("北风贸易", "Northwind Traders")]
    assert pairs("Yesterday Northwind Traders (北风贸易) opened a shop.") == [("北风贸易", "Northwind Traders")]
    # a bracket that holds a clause is a remark, no name; a following name stops at the clause after it
    assert pairs("Northwind Traders (创办于上世纪) opened a shop.") == []
    assert pairs("Northwind Traders, also known as 北风贸易成立于1998年") == [("北风贸易", "Northwind Traders")]
    # an acronym after a name is never a cross-script pair, whatever precedes it
    assert pairs("founded in 1998 as Northwind Traders (NWT)") == []
    assert pairs("于2019年成立的鹿鸣数据公司（LMD）") == []


class _CountingIndex(_Index):
    """Counts the reads name linking makes (one ``chunks_where`` for all documents, no per-document read)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[str] = []

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        self.reads.append(f"document_chunks {doc_id}")
        return super().document_chunks(doc_id)

    def chunks_where(self, filter: Filter) -> list[Chunk]:
        if getattr(filter, "field", None) != "doc_id":
            return super().chunks_where(filter)  # re-tagging reads the chunks naming a linked entity
        self.reads.append("chunks_where")
        wanted = set(getattr(filter, "values", ())) or {getattr(filter, "value", None)}
        return [c for d, cs in sorted(self.written.items()) if d in wanted for c in cs]


def test_linking_reads_every_chunk_in_one_query_and_proposes_only_pairs_with_a_side_in_the_new_files(
        tmp_path: Any) -> None:
    store = entity_store(tmp_path)
    index = _CountingIndex()
    ing = Ingestor(DeterministicFakeEmbedding(size=8), index, store, GazetteerCache(store), today=lambda: TODAY)
    ing.ingest([Document(id="a.txt", title="a", text="Ferries leave Taohua Harbour at seven."),
                Document(id="b.txt", title="b", text="桃花港每天有三班船开往东岛。"),
                Document(id="c.txt", title="c", text="The tour starts at Qingshi Village every Sunday.")])
    # one read for linking; re-tagging then reads back only the documents it rewrites (never c.txt)
    assert index.reads[0] == "chunks_where" and index.reads.count("chunks_where") == 1
    assert "document_chunks c.txt" not in index.reads
    assert store.get("桃花港") is not None and store.get("青石村") is None
    index.reads.clear()
    # a new file names the village in Chinese: its pair is proposed; the harbour (both sides old) is not again
    report = ing.ingest([Document(id="d.txt", title="d", text="青石村的茶园有两百年历史。")])
    assert index.reads[0] == "chunks_where" and index.reads.count("chunks_where") == 1
    assert [line.split(" (")[0] for line in report.linked] == ["青石村 = Qingshi Village"]


def test_proposals_limited_to_new_documents_are_the_ones_with_a_side_in_them() -> None:
    docs = {"en": ["Ferries leave Taohua Harbour at seven. The tour starts at Qingshi Village."],
            "zh1": ["桃花港每天有三班船开往东岛。"], "zh2": ["青石村的茶园有两百年历史。"]}
    every = {(link.han, link.latin) for link in propose_links(docs)}
    assert every == {("桃花港", "Taohua Harbour"), ("青石村", "Qingshi Village")}
    assert {(link.han, link.latin) for link in propose_links(docs, new={"zh2"})} == {("青石村", "Qingshi Village")}
    assert {(link.han, link.latin) for link in propose_links(docs, new={"en"})} == every


def _near(pairs: dict[tuple[str, str], float]) -> Any:
    """A similarity that knows how near some pairs of names are (either order); every other pair 0.5."""
    def similar(text: str, others: Any) -> list[float]:
        return [pairs.get((text, o), pairs.get((o, text), 0.5)) for o in others]
    return similar


_FERRY_EN = ["The Amberwing Ferry Company sails from Pinewood Harbour to Xiaoyu Island four times a day."]
_FERRY_ZH = ["琥珀翼轮渡公司去年更换了两艘船，码头设在小鱼岛北岸。"]


def test_a_translated_name_sharing_one_linked_name_links_by_meaning_when_nearest_to_its_own() -> None:
    docs = {"en": _FERRY_EN, "zh": _FERRY_ZH}
    # without the embedder's similarity one shared fact (the linked 小鱼岛) is not enough
    assert {(x.han, x.basis) for x in propose_links(docs)} == {("小鱼岛", "pinyin")}
    similar = _near({("Amberwing Ferry", "琥珀翼轮渡"): 0.86})
    link = next(x for x in propose_links(docs, similar=similar) if x.basis == "meaning")
    assert (link.han, link.latin, link.type) == ("琥珀翼轮渡公司", "Amberwing Ferry Company", "ORGANIZATION")
    assert "小鱼岛" in link.reason and "nearest in meaning" in link.reason


def test_no_link_by_meaning_when_a_rival_is_as_near_or_nothing_strong_is_shared() -> None:
    # another company of the Chinese files reads as near: nothing is linked
    docs = {"en": _FERRY_EN, "zh": [*_FERRY_ZH, "琥珀轮渡公司的码头也在小鱼岛。"]}
    similar = _near({("Amberwing Ferry", "琥珀翼轮渡"): 0.86, ("Amberwing Ferry", "琥珀轮渡"): 0.858})
    assert not [x for x in propose_links(docs, similar=similar) if x.basis == "meaning"]
    # a name of another kind in the candidate's passages is nearer: nothing is linked
    docs = {"en": _FERRY_EN, "zh": ["琥珀翼轮渡公司的船停在琥珀翼酒店旁，在小鱼岛。"]}
    similar = _near({("Amberwing Ferry", "琥珀翼轮渡"): 0.86, ("Amberwing Ferry", "琥珀翼"): 0.9})
    assert not [x for x in propose_links(docs, similar=similar) if x.basis == "meaning"]
    # only a two-digit number shared (chance): nothing is linked, however near the names read
    docs = {"en": ["The Amberwing Ferry Company has 12 boats."], "zh": ["琥珀翼轮渡公司有12名船员。"]}
    assert propose_links(docs, similar=_near({("Amberwing Ferry", "琥珀翼轮渡"): 0.95})) == []


def test_a_link_by_meaning_needs_a_lead_over_the_rival_above_the_chance_gap_of_names_embedded_as_queries() -> None:
    # a description before a Latin name ("隧道工程公司Borewell Company": what it does, no name of it) read a hair
    # nearer than another company's name is chance: gaps of 0.01 between two wrong names are common
    docs = {"en": ["Borewell Company digs tunnels under Xiaoyu Island."],
            "zh": ["隧道工程公司Borewell Company的码头设在小鱼岛。", "脑机接口公司也在小鱼岛。"]}
    near = {("Borewell", "隧道工程"): 0.80, ("Borewell", "脑机接口"): 0.79}
    assert not [x for x in propose_links(docs, similar=_near(near)) if x.basis == "meaning"]
    near[("Borewell", "隧道工程")] = 0.80 + MEANING_MARGIN
    assert [x.han for x in propose_links(docs, similar=_near(near)) if x.basis == "meaning"] == ["隧道工程公司"]


def test_the_lead_by_meaning_is_counted_in_spreads_of_the_other_names_whatever_the_embedders_scale() -> None:
    from graphs.ingest.name_links import _leads

    # an embedder whose cosines of names spread wide (0.1-0.3): a lead of 0.1 is chance, one of 0.3 is not
    wide = [0.30, 0.20, 0.12, 0.05, 0.26, 0.15]
    assert not _leads(0.38, wide) and _leads(0.65, wide)
    # one whose cosines bunch (0.78-0.80): a lead of 0.03 over the same number of names is far beyond chance
    bunched = [0.800, 0.795, 0.790, 0.785, 0.798, 0.788]
    assert _leads(0.83, bunched) and not _leads(0.803, bunched)
    # too few names to measure a spread by: the fixed margin
    assert _leads(0.80 + MEANING_MARGIN, [0.80, 0.5]) and not _leads(0.81, [0.80, 0.5])


def test_no_link_by_meaning_when_another_latin_name_of_the_kind_reads_as_near_to_the_chinese_one() -> None:
    docs = {"en": [_FERRY_EN[0] + " The Amberway Ferry Company also stops at Xiaoyu Island."], "zh": _FERRY_ZH}
    similar = _near({("Amberwing Ferry", "琥珀翼轮渡"): 0.86, ("琥珀翼轮渡", "Amberway Ferry"): 0.858})
    assert not [x for x in propose_links(docs, similar=similar) if x.basis == "meaning"]


def test_a_transliterated_head_before_translated_words_links_to_the_name_that_begins_and_ends_so() -> None:
    docs = {"en": ["Visitors meet at the Songling Tea Museum at nine."], "zh": ["松岭茶叶博物馆每周一闭馆。"]}
    [link] = propose_links(docs)
    assert (link.han, link.latin, link.basis) == ("松岭茶叶博物馆", "Songling Tea Museum", "pinyin")
    assert "begins with songling" in link.reason
    # the head alone before the ending is no such name (nothing stands for "Tea"); two that fit: nothing
    assert propose_links({"en": docs["en"], "zh": ["松岭博物馆每周一闭馆。"]}) == []
    assert propose_links({"en": docs["en"], "zh": ["松岭茶叶博物馆和松岭陶瓷博物馆都在老城。"]}) == []


def test_a_name_inside_a_longer_one_is_not_linked_on_its_own() -> None:
    docs = {"en": ["The Songling Tea Museum opened in 1998. The shop of the Tea Museum sells 120 teas."],
            "zh": ["松岭茶叶博物馆开馆于1998年。茶叶博物馆的商店出售120种茶。"]}
    similar = _near({("Tea", "茶叶"): 0.95})
    assert [x.latin for x in propose_links(docs, similar=similar)] == ["Songling Tea Museum"]


def test_a_head_that_begins_two_names_leaves_the_name_to_the_translated_name_rules() -> None:
    en = ["The Songling Media Group was founded in 1996; its code is SMG-2231 and it prints 105 titles."]
    zh = ["松岭日报传媒集团成立于1996年，代码SMG-2231，出版刊物105种。", "松岭钢铁集团在城东。"]
    [link] = propose_links({"en": en, "zh": zh})
    assert (link.han, link.basis) == ("松岭日报传媒集团", "shared facts")


def test_a_latin_name_never_runs_over_a_line_break() -> None:
    # a Markdown heading repeats the name above the sentence that states the pair: the heading is not part of
    # the name (the link once wrote the alias "Harrow Looms\nHarrow Looms", which the entity store refused)
    for text in ("# Harrow Looms\n\nHarrow Looms (哈罗织机) makes looms.",
                 "Harrow Looms\nHarrow Looms, known in Chinese as 哈罗织机, makes looms.",
                 "织机厂\n哈罗织机，英文名 Harrow Looms\nFounded 1990"):
        assert stated_pairs(text) == [("哈罗织机", "Harrow Looms")], text



def test_no_link_by_meaning_and_no_error_when_every_candidate_name_is_too_long_to_be_one() -> None:
    # the only Chinese name sharing a fact is longer than a name can be and no rival is written: nothing is left
    # to compare, so nothing is linked (this raised IndexError, which stopped the linking of a whole ingest)
    from graphs.ingest.name_links import MAX_NAME, _by_meaning
    long_name = "琥珀翼远洋客运轮渡股份有限公司"
    assert len(long_name) > MAX_NAME
    scored = [(1, long_name, {"小鱼岛"})]
    assert _by_meaning("Amberwing Ferry Company", ("公司",), "ORGANIZATION", scored, [], [],
                       _near({})) is None


class _Recording(DeterministicFakeEmbedding):
    """A fake embedder that records what it was asked to embed as passages and as queries."""

    passages: list[str] = Field(default_factory=list)
    queries: list[str] = Field(default_factory=list)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.passages.extend(texts)
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return super().embed_query(text)


def _ingested(tmp_path: Any, docs: list[Document]) -> tuple[_Index, _Recording]:
    tmp_path.mkdir()
    store = entity_store(tmp_path)
    index = _Index()
    embedder = _Recording(size=8)
    Ingestor(embedder, index, store, GazetteerCache(store), today=lambda: TODAY).ingest(docs)
    return index, embedder


def test_what_a_document_embeds_is_its_own_whatever_the_names_its_corpus_links(tmp_path: Any) -> None:
    from graphs.ingest.chunking import embedding_text

    en = Document(id="en.txt", title="Ferries", text=" ".join(_FERRY_EN))
    zh = Document(id="zh.txt", title="轮渡", text=" ".join(_FERRY_ZH))
    alone, alone_embedder = _ingested(tmp_path / "alone", [en])
    both, both_embedder = _ingested(tmp_path / "both", [en, zh])
    # the translated name was weighed by meaning: its names went through the embedder, as queries only
    assert "Amberwing Ferry" in both_embedder.queries
    # the passages embedded are exactly the chunks' own texts, and the English file's are as when it was alone
    assert sorted(both_embedder.passages) == sorted(embedding_text(c) for cs in both.written.values() for c in cs)
    assert [embedding_text(c) for c in alone.written["en.txt"]] == [embedding_text(c) for c in both.written["en.txt"]]
    assert [(c.id, c.text) for c in alone.written["en.txt"]] == [(c.id, c.text) for c in both.written["en.txt"]]
    assert alone_embedder.passages == [embedding_text(c) for c in alone.written["en.txt"]]


def test_a_latin_name_never_runs_over_the_line_between_a_title_and_its_text() -> None:
    # the linker reads "title\ntext": a title ending in a capitalised word once joined the first name of the
    # text ("Ferries\nThe Amberwing Ferry Company"), an alias the entity model refuses
    assert latin_names("Ferries\nThe Amberwing Ferry Company sails daily.") == ["Amberwing Ferry Company"]
    assert latin_names("航运\nRiver Lines\nThe Amberwing Ferry Company") == ["River Lines", "Amberwing Ferry Company"]
