"""A question that writes a shortened name — the head of a name and its kind word, the words between left out
("the Brackenmoor club" for the Brackenmoor Rowing Club, "鸮岭公司" for 鸮岭户外装备公司) — is about that name when the
retrieved passages name exactly one such thing, and the reason says how it was taken. A name the dictionary knows
(北京大学) or one that fits two names is never taken for a shortening. Examples invented here."""

from __future__ import annotations

from graphs.rag.answer.question import _shortens, shortened_of
from tests.support.answers import question, write
from tests.support.fakes import hit

CLUB = hit("club#0", "The Brackenmoor Rowing Club was founded in 1962. It has 84 members and two boathouses.",
           title="Brackenmoor Rowing Club — members' notes")


FIRM = hit("firm#0", "鸮岭户外装备公司成立于2003年，现有员工37人，总部在文化宫二楼。", title="鸮岭户外装备公司简介")


def test_a_shortened_chinese_name_is_taken_as_the_passages_name_with_a_reason() -> None:
    decision, reason, span, _ = write("鸮岭公司的员工有多少人？", [FIRM])
    assert decision == "answerable" and "37" in (span or "")
    assert "'鸮岭公司' is taken as '鸮岭户外装备公司'" in reason
    # the name of a passage tagged with the entity counts too (an English passage the ingest linked)
    tagged = hit("en#0", "Xiaoling Outdoor employs 37 people.", title="Staff", entities={"ORGANIZATION": ["鸮岭户外装备公司"]})
    q = question("鸮岭公司的员工有多少人？", [tagged])
    assert q.misspelled == {"鸮岭公司": "鸮岭户外装备公司"}


def test_a_shortened_english_name_is_taken_as_the_passages_name() -> None:
    assert shortened_of("brackenmoor club", ["brackenmoor rowing club", "brackenmoor"]) == "brackenmoor rowing club"
    decision, _, span, _ = write("When was the Brackenmoor club founded?", [CLUB])
    assert decision == "answerable" and span == "1962"


def test_what_a_shortening_keeps_and_what_it_is_not() -> None:
    assert _shortens("金鹊剧社", "金鹊业余话剧社") and _shortens("银杏书院", "银杏山房书院")
    assert _shortens("tidewell harbour", "tidewell fishing harbour")
    assert _shortens("marrow peak light", "marrow peak lighthouse")
    # a word the dictionary knows is a name of its own; a head alone, or a name without its kind word, is not one
    assert not _shortens("北京大学", "北京师范大学") and not _shortens("中国银行", "中国工商银行")
    assert not _shortens("金鹊", "金鹊业余话剧社") and not _shortens("apple watch", "apple smart watch")
    assert not _shortens("tidewell", "tidewell fishing harbour")
    # two clubs that the shortening fits: none is taken
    assert shortened_of("金鹊剧社", ["金鹊业余话剧社", "金鹊青年话剧社"]) is None


def test_a_shortened_name_fitting_no_passage_name_stays_missing() -> None:
    decision, _, _, _ = write("银松户外公司的员工有多少人？", [FIRM])
    assert decision == "not_found"
