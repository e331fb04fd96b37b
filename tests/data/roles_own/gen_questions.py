"""Writes questions.jsonl of the roles own set (split fixed here, before any run: within each category every
third question, in the order written, is held aside: 8 of 25). Run from the repository root:
``.venv/bin/python tests/data/roles_own/gen_questions.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.support.own_material import write_questions

MINUTES_ZH = ["青松社区花园协会三月会议纪要.docx"]
MINUTES_EN = ["thornbury_rowing_club_minutes.md"]
LEADERS_EN = ["ferrowind_leadership.html"]
TEAM_ZH = ["云帆物流管理团队.md"]
HANDBOOK = ["harbour_kitchen_handbook.txt"]
NOTICE = ["白鹭登山俱乐部五月活动通知.txt"]
QUESTIONS = [
    # a role asked by its verb (负责记录, took the minutes, signed off, 带队, trains, organising)
    ("verb_role", "青松社区花园协会三月会议由谁负责记录？", ["宋嘉禾"], MINUTES_ZH),
    ("verb_role", "Who took the minutes at the Thornbury Rowing Club committee meeting?", ["Rafael Ortiz"], MINUTES_EN),
    ("verb_role", "Who signed off the boat spending at Thornbury Rowing Club?", ["Gwen Pike"], MINUTES_EN),
    ("verb_role", "青松社区花园协会决定由谁联系供苗单位？", ["冯启明"], MINUTES_ZH),
    ("verb_role", "Who trains new starters at Harbour Kitchen?", ["Lena Brooks"], HANDBOOK),
    ("verb_role", "白鹭登山俱乐部五月活动由谁带队？", ["高鹏"], NOTICE),
    ("verb_role", "Who is organising the Thornbury spring regatta?", ["Dermot Quayle"], MINUTES_EN),
    # a title of several words, before or after the name, in apposition, with "of X"
    ("title", "Who is the chief financial officer of Ferrowind Turbines?", ["Tomasz Wren"], LEADERS_EN),
    ("title", "云帆物流的首席运营官是谁？", ["唐婉清"], TEAM_ZH),
    ("title", "Who is Ferrowind's chief technology officer?", ["Priya Nair"], LEADERS_EN),
    ("title", "云帆物流的财务总监是谁？", ["邹凯"], TEAM_ZH),
    ("title", "白鹭登山俱乐部五月活动的队医是谁？", ["林素梅"], NOTICE),
    ("title", "Who is the chief executive of Ferrowind Turbines?", ["Anja Lindqvist"], LEADERS_EN),
    # a who-question answered by a role or a team: the grammatical actor of the asked verb
    ("role_phrase", "Who checks the fridge temperatures at the start of every shift at Harbour Kitchen?",
     ["duty supervisor"], HANDBOOK),
    ("role_phrase", "Who will handle refunds for the cancelled training camp at Thornbury Rowing Club?",
     ["membership secretary"], MINUTES_EN),
    ("role_phrase", "白鹭登山俱乐部五月活动的报名由谁负责？", ["秘书处"], NOTICE),
    ("role_phrase", "Who empties the grease trap at Harbour Kitchen?", ["kitchen porter"], HANDBOOK),
    ("role_phrase", "青松社区花园协会的雨水收集桶由谁负责采购？", ["后勤组"], MINUTES_ZH),
    ("role_phrase", "Who counts the till drawers at closing at Harbour Kitchen?", ["shift lead"], HANDBOOK),
    # the asked role is absent (another role of the same kind is there): "not found" is right
    ("absent_role", "Who is the chief operating officer of Ferrowind Turbines?", [], LEADERS_EN),
    ("absent_role", "云帆物流的首席技术官是谁？", [], TEAM_ZH),
    ("absent_role", "Who is the head coach of Thornbury Rowing Club?", [], MINUTES_EN),
    ("absent_role", "青松社区花园协会的秘书长是谁？", [], MINUTES_ZH),
    ("absent_role", "Who repairs the dishwasher at Harbour Kitchen?", [], HANDBOOK),
    ("absent_role", "白鹭登山俱乐部五月活动的摄影师是谁？", [], NOTICE),
]


def splits() -> list[str]:
    """Every third question of a category, in the order written, is held aside."""
    seen: dict[str, int] = {}
    out = []
    for category, *_ in QUESTIONS:
        n = seen[category] = seen.get(category, 0) + 1
        out.append("held" if n % 3 == 0 else "dev")
    return out


def main() -> None:
    write_questions(Path(__file__).resolve().parent, "ro", QUESTIONS,
                    held={f"ro{i:02d}" for i, split in enumerate(splits(), start=1) if split == "held"})


if __name__ == "__main__":
    main()
