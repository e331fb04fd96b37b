"""Writes questions.jsonl of the third cross-language own set. The split is fixed here, before any run: the
questions marked ``HELD`` (6 of 20, at least one in each category) are held aside. Run from the repository root:
``.venv/bin/python tests/data/xlang_own3/gen_questions.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.support.own_material import write_questions

GLASS = ["corvane_glassworks_annual_review_2025.md"]
PLANT = ["青屿镇污水处理厂2025年运行年报.md"]
PUMP = ["norvik_ax40_manual.txt"]
RACE = ["沙河口龙舟邀请赛.txt"]
FERRY = ["brantholm_ferry.md"]
MINUTES = ["梧桐湾小学家委会会议纪要.docx"]
HELD = "held"
QUESTIONS = [
    # a Chinese question over an English file; in the long ones the answering sentence is far from the opening
    ("zh_over_en", "Corvane Glassworks 2025年的营业收入是多少？", ["86.3"], GLASS, "dev"),
    ("zh_over_en", "Corvane Glassworks 年底有多少名员工？", ["1,240", "1240"], GLASS, "dev"),
    ("zh_over_en", "Norvik AX40 热泵有多重？", ["88"], PUMP, "dev"),
    ("zh_over_en", "Norvik AX40 压缩机的保修期是几年？", ["7"], PUMP, HELD),
    ("zh_over_en", "Norvik AX40 的故障代码F07表示什么？", ["water pressure"], PUMP, "dev"),
    ("zh_over_en", "Brantholm 的新渡轮单程航行需要多少分钟？", ["22"], FERRY, "dev"),
    ("zh_over_en", "Brantholm 的新渡轮最多可以载多少名乘客？", ["180"], FERRY, HELD),
    # an English question over a Chinese file
    ("en_over_zh", "What is the design daily treatment capacity of the Qingyu wastewater treatment plant?", ["4.5"],
     PLANT, "dev"),
    ("en_over_zh", "Who is the director of the Qingyu sewage treatment plant?", ["韦承泽"], PLANT, "dev"),
    ("en_over_zh", "How many employees does the Qingyu wastewater treatment plant have?", ["38"], PLANT, HELD),
    ("en_over_zh", "How many teams took part in the Shahekou dragon boat race?", ["28"], RACE, "dev"),
    ("en_over_zh", "How many spectators watched the Shahekou dragon boat race?", ["3万", "30,000"], RACE, HELD),
    ("en_over_zh", "How much does a new school uniform cost at Wutongwan primary school?", ["185"], MINUTES, "dev"),
    # the same language, the answering sentence deep in a long file whose opening holds the names
    ("deep_same", "What share of the batch melted by Corvane Glassworks in 2025 was cullet?", ["62"], GLASS, "dev"),
    ("deep_same", "梧桐湾小学秋季研学活动的人均费用上限是多少？", ["260"], MINUTES, HELD),
    ("deep_same", "青屿镇污水处理厂2025年的吨水电耗是多少？", ["0.31"], PLANT, "dev"),
    # the subject is there, the attribute nowhere: "not found" is right
    ("absent_cross", "Corvane Glassworks 的首席财务官是谁？", [], GLASS, "dev"),
    ("absent_cross", "What was the net profit of the Qingyu wastewater treatment plant in 2025?", [], PLANT, "dev"),
    ("absent_cross", "Norvik AX40 热泵的售价是多少？", [], PUMP, HELD),
    ("absent_cross", "How much prize money did the winners of the Shahekou dragon boat race receive?", [], RACE, "dev"),
]

if __name__ == "__main__":
    write_questions(Path(__file__).resolve().parent, "xu", [q[:4] for q in QUESTIONS],
                    held={f"xu{i:02d}" for i, q in enumerate(QUESTIONS, start=1) if q[4] == HELD})
