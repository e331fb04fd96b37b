"""Contradictions only between values of the same attribute of the same subject."""

from __future__ import annotations

from graphs.text.consistency import find_contradictions, opens_with
from tests.support.fakes import hit


def test_two_sources_that_give_one_subject_two_founding_years_disagree() -> None:
    hits = [hit("a#0", "Acme was founded in 1990 in Boston.", title="Acme"),
            hit("b#0", "Acme was founded in 1991, according to its filings.", title="Acme history")]
    [c] = find_contradictions("Acme", ["founded"], hits)
    assert c.fact == "Acme — founded" and [cl.value for cl in c.claims] == ["1990", "1991"]


def test_years_of_other_subjects_in_sentences_that_merely_name_a_place_are_no_contradiction() -> None:
    # 深圳有哪些公司: the years belong to Huawei and Tencent, each sentence is about its company, not 深圳
    hits = [hit("hw#0", "华为于1987年在深圳成立，是一家科技公司。", title="华为"),
            hit("tc#0", "腾讯于1998年在深圳成立，是一家互联网公司。", title="腾讯")]
    assert find_contradictions("深圳", ["公司"], hits) == []
    assert not opens_with("华为于1987年在深圳成立", "深圳") and opens_with("据记载，张三的老师是王五", "张三")


def test_a_year_is_the_value_only_when_the_question_asks_for_a_date() -> None:
    hits = [hit("a#0", "Acme opened an office in 1990.", title="Acme"),
            hit("b#0", "Acme opened an office in 2001.", title="Acme news")]
    assert find_contradictions("Acme", ["office"], hits, dates=False) == []
    assert len(find_contradictions("Acme", ["office"], hits, dates=True)) == 1


def test_a_longer_name_that_starts_with_the_subject_is_another_subject() -> None:
    hits = [hit("a#0", "The Heinkel HD 56 was developed in 1929.", title="Heinkel HD 56"),
            hit("b#0", "The Heinkel HD 39 was developed in the 1920s.", title="Heinkel HD 39")]
    assert find_contradictions("Heinkel HD", ["developed"], hits) == []
    assert opens_with("heinkel hd was built", "heinkel hd") and not opens_with("heinkel hd 56 was built", "heinkel hd")
