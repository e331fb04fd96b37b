"""Writes ``tests/data/span_own2/questions.jsonl``: the held part (7 of 22) is named here, before any run."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import write_questions

K, L, B, G, C, T = ("石溪窑陶艺合作社年会纪要.txt", "harrowgate_lighthouse_restoration.md", "tandem_bikeshare_help.md",
                    "冰川观测站日志摘编.txt", "corvel_choir_festival.txt", "桐川古籍修复中心简介.md")
QUESTIONS = [
    # a date of the event asked (哪天 / what date), not a weekday, opening hours or another event's date
    ("date", "石溪窑的第二座龙窑是哪天点火的？", ["2024年12月20日", "12月20日"], [K]),
    ("date", "What date did the restored Harrowgate lighthouse open its doors to the public again?",
     ["14 September 2024", "14 September"], [L]),
    ("date", "桐川古籍修复中心是哪一年挂牌成立的？", ["2016"], [T]),
    ("date", "On what date did the gale rip the cupola off the Harrowgate lighthouse?",
     ["3 February 2024", "3 February"], [L], "paraphrased verb"),
    # where / address: a place span, never the headline
    ("where", "桐川古籍修复中心的地址在哪里？", ["西河街47号"], [T]),
    ("where", "Where is the visitor entrance of Harrowgate Point Lighthouse?", ["2 Quay Lane"], [L]),
    ("where", "Corvel Valley Choir Festival 的闭幕音乐会在哪里举行？", ["Wool Exchange"], [C]),
    # how much in a given year: the amount whose noun matches, of the asked year
    ("amount", "石溪窑陶艺合作社2024年在网上卖陶器一共赚了多少钱？", ["86.5万元", "86.5万"], [K]),
    ("amount", "How much did ticket sales earn the Corvel festival in 2024?", ["£151,000", "151,000"], [C]),
    ("amount", "冰川东支冰舌2022年后退了多少米？", ["13米"], [G]),
    # a code asked is the code answered
    ("code", "What does code D4 on a Tandem dock screen mean?", ["network connection"], [B]),
    ("code", "Tandem 车桩屏幕上显示 D2 是什么意思？", ["balance is too low", "balance"], [B]),
    # the verb paraphrased; few shared words
    ("paraphrase", "What firm did the restoration work on the Harrowgate lighthouse?", ["Penhallow & Dray"], [L]),
    ("paraphrase", "冰湖溃决前水位涨了多少？", ["1.4米"], [G]),
    # a name one letter off
    ("misspelled", "Who directs the Corvell Valley Choir Festival?", ["Ffion Maddox-Reyes"], [C]),
    ("misspelled", "How many bikes did the Tandam bike-share start with in Norbridge?", ["400"], [B]),
    ("paraphrase", "Who won the top award at the Corvel festival this year?", ["Halvard Youth Singers"], [C]),
    # not answerable: the subject present, the asked attribute absent
    ("absent", "石溪窑陶艺合作社是哪一年成立的？", [], [K]),
    ("absent", "How tall is the Harrowgate Point Lighthouse?", [], [L]),
    ("absent", "玉珠峰北坡冰川观测站2023年的年平均气温是多少？", [], [G]),
    ("absent", "What does code D3 on a Tandem dock screen mean?", [], [B]),
    ("absent", "桐川古籍修复中心2024年的门票收入是多少？", [], [T]),
]
HELD = ("sq02", "sq05", "sq09", "sq12", "sq14", "sq16", "sq20")

if __name__ == "__main__":
    write_questions(Path(__file__).resolve().parent, "sq", QUESTIONS, held=HELD)
