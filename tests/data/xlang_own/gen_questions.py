"""Writes questions.jsonl of the cross-language own set (split fixed here, before any run: within each category
the questions alternate dev, held, ...). Run from the repository root:
``.venv/bin/python tests/data/xlang_own/gen_questions.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.support.own_material import write_questions

F = "ferry/"
H = "hiking/"
QUESTIONS = [
    # a Chinese question whose answer only the English file states (and the reverse)
    ("zh_over_en", "红鸢轮渡公司是哪一年成立的？", ["1994"], [F + "redkite_timetable_2025.md"]),
    ("zh_over_en", "鸥岩灯塔每周哪几天对游客开放？", ["Wednesday to Sunday", "Wednesday"],
     [F + "gull_rock_lighthouse_visitors.html"]),
    ("zh_over_en", "九叠登山俱乐部秋季徒步日是哪一天？", ["18 October 2025", "18 October"],
     [H + "ninefold_autumn_trail_day_2025.docx"]),
    ("zh_over_en", "青山种子图书馆收藏了多少个种子品种？", ["1,350", "1350"], [H + "qingshan_seed_library.txt"]),
    ("zh_over_en", "鸥岩灯塔的门票多少钱？", ["15 yuan", "15"], [F + "gull_rock_lighthouse_visitors.html"]),
    ("zh_over_en", "九叠登山俱乐部秋季徒步的路线有多长？", ["14 km", "14"], [H + "ninefold_autumn_trail_day_2025.docx"]),
    ("en_over_zh", "How tall is the Gull Rock Lighthouse?", ["31米", "31"], [F + "鸥岩灯塔的历史.txt"]),
    ("en_over_zh", "Who is the president of the Ninefold Hiking Club?", ["林晓"], [H + "九叠登山俱乐部章程摘要.md"]),
    ("en_over_zh", "How many people live on Baisha Island?", ["2300"], [F + "白沙岛概况.pdf"]),
    ("en_over_zh", "How many crew members does the Redkite Ferry Company have?", ["41"],
     [F + "红鸢轮渡公司2025年安全检查报告.docx"]),
    ("en_over_zh", "Where is the Qingshan Seed Library?", ["老街17号", "老街"], [H + "青山种子图书馆开放通知.html"]),
    ("en_over_zh", "When was the Gull Rock Lighthouse built?", ["1887"], [F + "鸥岩灯塔的历史.txt"]),
    # a shortened name in the question (a head part of the entity's name), either language
    ("shortened", "红鸢公司的旗舰船最多能载多少名乘客？", ["260"], [F + "redkite_timetable_2025.md"]),
    ("shortened", "How much is the yearly fee of the Ninefold club?", ["120元", "120"], [H + "九叠登山俱乐部章程摘要.md"]),
    ("shortened", "Who is the route officer of the Ninefold club?", ["Mark Ellis"],
     [H + "ninefold_autumn_trail_day_2025.docx"]),
    ("shortened", "Who was the first keeper of the Gull Rock light?", ["陈阿福"], [F + "鸥岩灯塔的历史.txt"]),
    ("shortened", "九叠俱乐部有多少会员？", ["260"], [H + "九叠登山俱乐部章程摘要.md"]),
    ("shortened", "How many life jackets did the inspection of the Redkite company count?", ["420"],
     [F + "红鸢轮渡公司2025年安全检查报告.docx"]),
    ("shortened", "青山图书馆每人每次最多借几包种子？", ["五包", "五"], [H + "青山种子图书馆开放通知.html"]),
    ("shortened", "鸥岩灯塔的志愿守塔人是谁？", ["Ruth Calloway"], [F + "gull_rock_lighthouse_visitors.html"]),
    # same-language controls over the same files
    ("same_language", "How long does the crossing to Baisha Island take?", ["35 minutes", "35"],
     [F + "redkite_timetable_2025.md"]),
    ("same_language", "白沙小学有多少名学生？", ["96"], [F + "白沙岛概况.pdf"]),
    ("same_language", "Who leads the Ninefold Hiking Club's autumn trail day walk?", ["Mark Ellis"],
     [H + "ninefold_autumn_trail_day_2025.docx"]),
    ("same_language", "青山种子图书馆由谁负责管理？", ["郑美华"], [H + "青山种子图书馆开放通知.html"]),
    # the subject is there (in the other language's file), the asked attribute is stated nowhere
    ("absent_cross", "红鸢轮渡公司的总经理是谁？", [], []),
    ("absent_cross", "What is the phone number of the Ninefold Hiking Club?", [], []),
    ("absent_cross", "鸥岩灯塔的灯光是什么颜色？", [], []),
    ("absent_cross", "How many members does the Qingshan Seed Library have?", [], []),
    # the asked fact in one file, its subject named in the other language in the question, bridge by the link
    ("cross_bridge", "How many boats a day does the Redkite Ferry Company run to Baisha Island?", ["六班", "六"],
     [F + "白沙岛概况.pdf"]),
    ("cross_bridge", "红鸢轮渡公司的船从哪个码头出发？", ["Dongwan Pier", "东湾码头"],
     [F + "redkite_timetable_2025.md", F + "白沙岛概况.pdf"]),
]

if __name__ == "__main__":
    write_questions(Path(__file__).parent, "xo", QUESTIONS)
