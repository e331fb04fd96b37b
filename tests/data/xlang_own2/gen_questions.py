"""Writes questions.jsonl of the second cross-language own set (split fixed here, before any run: within each
category the questions alternate dev, held, ...). Run from the repository root:
``.venv/bin/python tests/data/xlang_own2/gen_questions.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.support.own_material import write_questions

MANUAL = ["岚川R9扫地机器人说明书.md"]
MINUTES = ["枫桥社区图书馆理事会会议纪要.docx"]
REPORT = ["harlow_bay_seafoods_results_2024.md"]
NEWS = ["kestrel_valley_flood.txt"]
QUESTIONS = [
    # an English question over a Chinese file (a manual, minutes)
    ("en_over_zh", "How long can the Lanchuan R9 clean on one charge?", ["150"], MANUAL),
    ("en_over_zh", "What is the recommended room size for the R9 robot vacuum?", ["120"], MANUAL),
    ("en_over_zh", "How often should the R9's side brush be replaced?", ["3"], MANUAL),
    ("en_over_zh", "How loud is the Lanchuan R9 in standard mode?", ["58"], MANUAL),
    ("en_over_zh", "What is the 2026 book budget of the Fengqiao community library?", ["8.5"], MINUTES),
    ("en_over_zh", "When is the next board meeting of the Fengqiao community library?", ["2026年1月8日", "1月8日"],
     MINUTES),
    # a Chinese question over an English file (a company report, a news item)
    ("zh_over_en", "Harlow Bay Seafoods 2024年的营业收入是多少？", ["412"], REPORT),
    ("zh_over_en", "Harlow Bay Seafoods 的净利润是多少？", ["38.6"], REPORT),
    ("zh_over_en", "Harlow Bay Seafoods 有多少名员工？", ["2,150", "2150"], REPORT),
    ("zh_over_en", "Harlow Bay Seafoods 的总部在哪里？", ["Grimsby"], REPORT),
    ("zh_over_en", "Kestrel Valley 洪水中有多少居民被疏散？", ["1,800", "1800"], NEWS),
    ("zh_over_en", "Kestrel 河的最高水位是多少米？", ["5.4"], NEWS),
    # the asked role's name, in either language, where the file names other roles beside it
    ("role_span", "Who took the minutes of the Fengqiao library board meeting?", ["蒋若溪"], MINUTES),
    ("role_span", "Who seconded the proposal to extend the Fengqiao library's weekend hours?", ["卢佳音"], MINUTES),
    ("role_span", "Who chaired the Fengqiao library board meeting?", ["严书衡"], MINUTES),
    ("role_span", "Harlow Bay Seafoods 的首席执行官是谁？", ["Maria Oyelaran"], REPORT),
    ("role_span", "Who proposed extending the Fengqiao library's weekend opening hours?", ["潘志远"], MINUTES),
    ("role_span", "Harlow Bay Seafoods 的董事长是谁？", ["Duncan Reeve"], REPORT),
    # the subject is there, the attribute nowhere: "not found" is right
    ("absent_cross", "How much does the Lanchuan R9 weigh?", [], MANUAL),
    ("absent_cross", "Harlow Bay Seafoods 的股票代码是什么？", [], REPORT),
    ("absent_cross", "Who is the treasurer of the Fengqiao library board?", [], MINUTES),
    ("absent_cross", "Kestrel Valley 洪水造成多少人死亡？", [], NEWS),
    ("absent_cross", "What is the price of the Lanchuan R9?", [], MANUAL),
    ("absent_cross", "Harlow Bay Seafoods 2024年的研发投入是多少？", [], REPORT),
]

if __name__ == "__main__":
    write_questions(Path(__file__).resolve().parent, "xt", QUESTIONS)
