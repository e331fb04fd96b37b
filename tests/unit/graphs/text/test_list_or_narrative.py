"""A sentence that lists items of one kind each with its value is told from one that narrates events in sequence
(graphs/text/governors.py ``narrative``): two clauses or more that each state an act of their own are a narrative;
a list repeats one predicate, leaves it out, or writes it once for all. Invented sentences, Chinese and English."""

from __future__ import annotations

import pytest

from graphs.text.governors import item_clauses, narrative


def _narrative(text: str, values: list[str]) -> bool:
    _, clauses = item_clauses(text, [(text.index(v), text.index(v) + len(v)) for v in values])
    return narrative(text, clauses)


@pytest.mark.parametrize(("text", "values"), [
    ("The alarm sounded at 2.15 am and the crew reached the barn at 2.40 am.", ["2.15 am", "2.40 am"]),
    ("The convoy left Dunmere at 6.30, crossed the border at 9.05 and was home by 17.20.", ["6.30", "9.05", "17.20"]),
    ("On race day the runners set off at 8:00, the leader finished at 10:12 and the sweeper bus came in at 13:40.",
     ["8:00", "10:12", "13:40"]),
    ("当晚货车22时10分驶离仓库，次日凌晨1时35分抵达港口。", ["22时10分", "1时35分"]),
    ("志愿者8点20分集合，9点整出发，11点40分返回。", ["8点20分", "9点整", "11点40分"]),
])
def test_clauses_that_each_state_their_own_act_are_a_narrative(text: str, values: list[str]) -> None:
    assert _narrative(text, values)


@pytest.mark.parametrize(("text", "values"), [
    ("The reading group is chaired by Olu Baptiste, the film club by Mara Quist and the chess circle by Ned Park.",
     ["Olu Baptiste", "Mara Quist", "Ned Park"]),
    ("The tall vase is £38, the short one £22.", ["£38", "£22"]),
    ("Retired members pay £4, students £2.", ["£4", "£2"]),
    ("The first tram left at 05:50 and the last one at 23:35.", ["05:50", "23:35"]),
    ("Boats are moored at pier 3 on weekdays and at pier 7 at weekends.", ["pier 3", "pier 7"]),
    ("门票：普通票60元，优惠票35元，离休干部免费。", ["60元", "35元"]),
    ("甲组由刘畅负责，乙组由蒋一鸣负责。", ["刘畅", "蒋一鸣"]),
    ("舞蹈班每周一晚19:00和周日早8:30在二楼排练。", ["19:00", "8:30"]),
    ("大号雨衣库存40件，小号的15件。", ["40件", "15件"]),
])
def test_a_list_of_items_is_no_narrative(text: str, values: list[str]) -> None:
    assert not _narrative(text, values)


@pytest.mark.parametrize(("text", "values"), [
    # a description clause by clause: the later clause runs over commas before its value
    ("林素心，号竹溪，江南人氏，擅长工笔花鸟，其夫为画家周延。", ["竹溪", "周延"]),
    # a later clause that opens with its verb goes on with the subject before
    ("韩烈在1126年攻下了青州，宣称其统辖了东路诸城。", ["青州", "东路"]),
])
def test_a_description_or_a_continued_subject_is_no_list(text: str, values: list[str]) -> None:
    assert _narrative(text, values)


def test_one_item_without_a_value_stays_inside_a_list() -> None:
    assert not _narrative("门票：成人30元，老人免费，团体每人20元。", ["30元", "20元"])
