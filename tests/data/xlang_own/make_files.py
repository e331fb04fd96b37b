"""Writes the cross-language own set's files (tests/data/xlang_own/files/) the way a user's own tools would: a
Chinese PDF (CID font), DOCX, Markdown, HTML and plain text. Two invented domains no other set uses: an island
ferry line with its lighthouse (红鸢轮渡公司 / Redkite Ferry Company, 鸥岩灯塔 / Gull Rock Lighthouse, 白沙岛 /
Baisha Island) and a hiking club with a seed library (九叠登山俱乐部 / Ninefold Hiking Club, 青山种子图书馆 / Qingshan
Seed Library). Names are TRANSLATED by meaning (红鸢 / Redkite, 鸥岩 / Gull Rock, 九叠 / Ninefold) or
TRANSLITERATED (白沙 / Baisha, 青山 / Qingshan, 周立 / Zhou Li). No pair is written in brackets anywhere; most facts
of a subject sit only in the file of the other language.

Run from the repository root: ``.venv/bin/python tests/data/xlang_own/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.support.own_material import docx, pdf

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("ferry", "hiking"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    # --- domain 1: an island ferry line and its lighthouse
    (OUT / "ferry" / "redkite_timetable_2025.md").write_text(
        "# Redkite Ferry Company: summer timetable 2025\n\n"
        "The Redkite Ferry Company was founded in 1994 and runs five boats between Dongwan Pier and Baisha "
        "Island.\n\n"
        "In summer the first boat leaves Dongwan Pier at 6:40 and the last returns at 19:10. The crossing takes "
        "35 minutes.\n\n"
        "A single adult ticket costs 28 yuan; children under 1.2 m travel free.\n\n"
        "The company's flagship, the Saltwind, carries up to 260 passengers.\n", encoding="utf-8")
    docx(OUT / "ferry" / "红鸢轮渡公司2025年安全检查报告.docx", "红鸢轮渡公司2025年安全检查报告", [
        ("p", "检查日期：2025年4月12日"),
        ("p", "检查组组长：周立（海事局安全员）"),
        ("h", "检查结果"),
        ("p", "红鸢轮渡公司共有5艘客船，本次全部参加检查。"),
        ("p", "共检查救生衣420件，其中18件已过期，须在30天内更换。"),
        ("p", "公司船员共有41人，全部持有有效证书。"),
    ])
    (OUT / "ferry" / "gull_rock_lighthouse_visitors.html").write_text(
        "<html><head><meta charset=\"utf-8\"><title>Gull Rock Lighthouse: visitor information</title></head>"
        "<body><h1>Gull Rock Lighthouse: visitor information</h1>"
        "<p>Gull Rock Lighthouse stands on the eastern cape of Baisha Island.</p>"
        "<p>The lighthouse is open to visitors from Wednesday to Sunday, 9:00 to 16:30.</p>"
        "<p>Admission is 15 yuan; the 112 steps to the lantern room are steep.</p>"
        "<p>Guided tours are led by the volunteer keeper, Ruth Calloway.</p>"
        "</body></html>", encoding="utf-8")
    (OUT / "ferry" / "鸥岩灯塔的历史.txt").write_text(
        "鸥岩灯塔的历史\n\n"
        "鸥岩灯塔建于1887年，塔高31米，是白沙岛上最古老的建筑。\n\n"
        "第一任守塔人是陈阿福，他在塔上工作了二十六年。\n\n"
        "1952年灯塔改用电灯，灯光射程为18海里。\n", encoding="utf-8")
    pdf(OUT / "ferry" / "白沙岛概况.pdf", "白沙岛概况", [
        "白沙岛面积12.5平方公里，常住人口2300人。",
        "岛上居民以渔业和民宿为主要收入来源。",
        "红鸢轮渡公司每天有六班船往返东湾码头和白沙岛。",
        "岛上唯一的小学是白沙小学，有学生96人。",
    ], cjk=True)

    # --- domain 2: a hiking club and a seed library
    docx(OUT / "hiking" / "ninefold_autumn_trail_day_2025.docx", "Ninefold Hiking Club: autumn trail day 2025", [
        ("p", "The Ninefold Hiking Club's autumn trail day is on 18 October 2025."),
        ("p", "The route is 14 km long and climbs 620 m; walkers meet at the Qingshan Seed Library at 7:30."),
        ("p", "The walk is led by Mark Ellis, the club's route officer."),
        ("p", "The registration fee is 40 yuan, which includes lunch."),
    ])
    (OUT / "hiking" / "九叠登山俱乐部章程摘要.md").write_text(
        "# 九叠登山俱乐部章程摘要\n\n"
        "九叠登山俱乐部成立于2011年，现有会员260人。\n\n"
        "俱乐部会长是林晓，任期三年。\n\n"
        "会员年费为120元，每年三月缴纳。\n\n"
        "俱乐部每月第二个星期六组织一次集体徒步。\n", encoding="utf-8")
    (OUT / "hiking" / "qingshan_seed_library.txt").write_text(
        "Qingshan Seed Library\n\n"
        "The Qingshan Seed Library lends vegetable and flower seeds to local gardeners free of charge.\n\n"
        "It holds 1,350 varieties of seed, most of them collected in the county.\n\n"
        "Borrowers return seeds from their harvest by the end of November.\n", encoding="utf-8")
    (OUT / "hiking" / "青山种子图书馆开放通知.html").write_text(
        "<html><head><meta charset=\"utf-8\"><title>青山种子图书馆开放通知</title></head><body>"
        "<h1>青山种子图书馆开放通知</h1>"
        "<p>青山种子图书馆位于老街17号，每周二和周五下午开放。</p>"
        "<p>种子图书馆由志愿者郑美华负责管理。</p>"
        "<p>每人每次最多借五包种子。</p>"
        "</body></html>", encoding="utf-8")


if __name__ == "__main__":
    main()
