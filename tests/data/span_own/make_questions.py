"""Writes ``tests/data/span_own/questions.jsonl``: the split (dev / held alternating within each category, in the
order listed) is fixed here, before any run."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import write_questions

M, R, F, OR, A = ("松涛社区议事会纪要.txt", "晨岭山地马拉松.md", "brackwater_ferry_notice.md", "lowmere_orchard.txt",
                 "琥珀湾海洋馆.docx")
QUESTIONS = [
    # a title line or a field label is not the answer sentence; the name after the role is
    ("title_line", "松涛社区议事会第七次会议是谁主持的？", ["韩立群"], [M]),
    ("title_line", "Who issued the Brackwater ferry operations notice?", ["J. R. Tolland"], [F]),
    ("title_line", "松涛社区议事会的会议记录人是谁？", ["祁雨"], [M]),
    ("title_line", "Who founded the Lowmere Orchard Cooperative?", ["E. L. Hanwell"], [OR]),
    # two values of different types in one sentence: the one of the asked type
    ("two_types", "晨岭山地马拉松实际起跑多少人？", ["2876人"], [R]),
    ("two_types", "How many passengers can the MV Corrie Lass carry?", ["180 passengers", "180"], [F]),
    ("two_types", "北门停车场改造工程预计投资多少钱？", ["48万元"], [M]),
    ("two_types", "How many member growers does the Lowmere Orchard Cooperative have?", ["143"], [OR]),
    ("two_types", "琥珀湾海洋馆的成人票价是多少？", ["120元"], [A]),
    ("two_types", "When did the Lowmere cooperative's fair draw 9,400 visitors?", ["2024"], [OR]),
    # names written with dots, initials, titles
    ("names", "晨岭山地马拉松男子全程组冠军是谁？", ["安德烈·科瓦连科"], [R]),
    ("names", "Who will command the MV Tarn Heron?", ["Mira Osk"], [F]),
    ("names", "琥珀湾海洋馆现任馆长是谁？", ["宁可欣"], [A]),
    ("names", "Who is the present chair of the Lowmere Orchard Cooperative?", ["Priya Castellane"], [OR]),
    # codes: the line of the asked code
    ("codes", "What does alert code F3 mean on the Brackwater ferry board?", ["high winds"], [F]),
    ("codes", "What does alert code F2 mean on the Brackwater ferry board?", ["more than 30 minutes"], [F]),
    # dates as the passage writes them
    ("dates", "晨岭山地马拉松是哪天举行的？", ["2025年10月18日"], [R]),
    ("dates", "When will the MV Tarn Heron enter service?", ["2 June 2025"], [F]),
    ("dates", "琥珀湾海洋馆什么时候对外开放？", ["2019年5月1日"], [A]),
    ("dates", "From what date does the first Brackwater sailing leave at 6:40 a.m.?", ["March 17"], [F]),
    # where: the place where it happens, not a country that takes part
    ("where", "晨岭山地马拉松在哪里举行？", ["晨岭国家森林公园"], [R]),
    ("where", "Where was the MV Tarn Heron built?", ["Gdańsk"], [F]),
    ("where", "琥珀湾海洋馆位于什么地方？", ["滨海大道88号"], [A]),
    ("where", "Where is the Lowmere cooperative's annual fair held?", ["Tiverley Green"], [OR]),
    # ranges and units
    ("units", "晨岭山地马拉松全程赛道有多长？", ["42~46公里"], [R]),
    ("units", "How long does the Brackwater ferry crossing take?", ["40-55 minutes"], [F]),
    # why: the cause stated before the consequence
    ("why", "为什么晨岭山地马拉松本届完赛率达到历年最高？", ["关门时间延长了30分钟"], [R]),
    ("why", "Why did the Lowmere cooperative plant only scab-resistant varieties after 1994?",
     ["Scab disease ruined two harvests"], [OR]),
]

if __name__ == "__main__":
    write_questions(Path(__file__).resolve().parent, "sp", QUESTIONS)
