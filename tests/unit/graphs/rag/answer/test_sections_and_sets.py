"""Who / where / which read in the right section and over the right members (#24, session 21): a section's heading
scopes the sentences under it (a chunk does not repeat it); a set the question describes ("which of the two …",
"两座…中哪座") is compared over the members the passages name; a Chinese comparison side that names a thing and what
is done to it is the service; a line's capitalised opener of a label or a passive clause is no person. Invented
documents and questions, Chinese and English."""

from __future__ import annotations

from graphs.rag.answer.verdicts import members, sides_of
from graphs.text.spans import candidates
from tests.support.answers import question, write
from tests.support.fakes import hit

SERVICES_ZH = [
    hit("svc#0", "本街道设有日间照料中心和社区食堂两处服务点。", title="青柳街道便民服务"),
    hit("svc#1", "地点：青柳路12号一楼。\n主任：韩若溪。\n每天 8:00—18:00 开放。", title="青柳街道便民服务",
        section="日间照料中心"),
    hit("svc#2", "地点：青柳小学东门旁。\n食堂日常运营由志愿者鲍小禾负责。", title="青柳街道便民服务",
        section="社区食堂"),
]
MILLS_EN = [
    hit("mills#0", "The Fenwick Heritage Society cares for two windmills, Ashcombe Mill and the Tollgate Mill, and "
                   "opens them on summer Sundays.", title="Fenwick Heritage Society"),
    hit("mills#1", "It was raised in 1764 by a miller from Lynn, when the old Tollgate Mill was still grinding. "
                   "Its sails were renewed in 1990.", title="Fenwick Heritage Society", section="Ashcombe Mill"),
    hit("mills#2", "The tower dates from 1712. A storm took its cap in 1881.", title="Fenwick Heritage Society",
        section="Tollgate Mill"),
]
BRIDGES_ZH = [hit("br#0", "镇上有东、西两座石桥。东石桥建于1821年，长38米。西石桥在1790年落成，长26米。",
                  title="梅溪镇古桥")]
BIKE_PRICES = [hit("bike#0", "适用车型 — 链条更换: 山地车\n价格 — 链条更换: 90元\n适用车型 — 内胎补洞: 全部\n"
                             "价格 — 内胎补洞: 15元", title="飞轮车行价目")]  # a table's rows as ingest writes them


def test_a_section_heading_scopes_the_place_line_under_it() -> None:
    _, _, span, text = write("社区食堂在什么地方？", SERVICES_ZH)
    assert span is not None and "青柳小学" in span and "青柳路12号" not in text.split("[")[0]


def test_a_section_heading_scopes_the_person_under_it() -> None:
    _, _, span, _ = write("社区食堂由谁负责运营？", SERVICES_ZH)
    assert span == "鲍小禾"


def test_the_members_of_a_described_set_are_the_names_a_sentence_coordinates() -> None:
    q = question("Which of the society's two windmills is older?", MILLS_EN)
    from graphs.rag.answer.evidence import find_evidence
    sentences = [s for e in find_evidence(q, MILLS_EN) for s in e.sentences]
    assert sorted(members(q, sentences)) == ["Ashcombe Mill", "Tollgate Mill"]


def test_a_described_set_is_compared_by_each_members_own_section() -> None:
    # Ashcombe's year is in a sentence that names the other mill in passing: its heading makes it Ashcombe's
    _, _, span, text = write("Which of the society's two windmills is older?", MILLS_EN)
    assert span == "Tollgate Mill" and "1712" in text and "1764" in text


def test_a_chinese_described_set_by_its_head_noun() -> None:
    _, _, span, text = write("两座石桥中哪一座建得更早？", BRIDGES_ZH)
    assert span == "西石桥" and "1790" in text and "1821" in text
    _, _, span, _ = write("梅溪镇的两座石桥里哪座更长？", BRIDGES_ZH)
    assert span == "东石桥"  # the length, not the year beside it


def test_a_side_that_names_a_thing_and_what_is_done_to_it_is_the_service() -> None:
    q = question("山地车换个链条和给内胎补个洞，哪个便宜？", BIKE_PRICES)
    assert sides_of(q) != ["山地车", "内胎"]
    _, _, span, text = write("山地车换个链条和给内胎补个洞，哪个便宜？", BIKE_PRICES)
    assert span == "内胎补洞" and "15元" in text and "90元" in text


def test_a_lines_capitalised_opener_of_a_label_or_passive_clause_is_no_person() -> None:
    line = "Next rehearsal: 4 May, 7 pm, at the chapel.\nNotes kept by Idris Penhale. Seconded by the treasurer."
    names = [c.text for c in candidates(line, "person", "Who kept the notes?")]
    assert names == ["Idris Penhale"]
    # a name that opens a line and goes on with its verb stays one
    assert [c.text for c in candidates("Morwenna reported: the roof leaks.", "person", "Who reported?")] == \
        ["Morwenna"]
    assert [c.text for c in candidates("Approved by Gwen Hosking.", "person", "Who approved it?")] == \
        ["Gwen Hosking"]
