"""Writes questions.jsonl of the fifth cross-language own set. The split is fixed here, before any run: the
ids in ``HELD`` (7 of 22, in every category) are held aside. Run from the repository root:
``.venv/bin/python tests/data/xlang_own5/gen_questions.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.support.own_material import write_questions

FIRE = ["鹿溪工业园冷链仓库火灾.md"]
BIKES = ["青桐单车骑行计费规则.txt"]
MUSEUM = ["古渡运河博物馆参观指南.md"]
COFFEE = ["岩焙CM7咖啡机使用说明.md"]
MARATHON = ["harrowgate_half_marathon_heat.md"]
MAKERSPACE = ["brackley_makerspace_handbook.txt"]
BAKERY = ["oakridge_bakery_wholesale_prices.csv"]
RESIDENTS = ["linden_court_residents_agm_2026.md"]
HELD = {"xw02", "xw05", "xw08", "xw10", "xw14", "xw17", "xw21"}
QUESTIONS = [
    # an English question over a Chinese file (several name nothing the file spells: they describe the thing)
    ("en_over_zh", "After the fire at the cold-storage warehouse, which hospital were the two night-shift workers "
     "taken to?", ["第二人民医院"], FIRE),
    ("en_over_zh", "How many fire engines were sent to the warehouse blaze in the Luxi industrial park?", ["9"], FIRE),
    ("en_over_zh", "What is the starting fare for a shared-bike ride late at night?", ["2元"], BIKES),
    ("en_over_zh", "How much is a monthly pass for Qingtong bikes?", ["25"], BIKES),
    ("en_over_zh", "What does a guided tour with a human guide cost at the canal history museum?", ["120"], MUSEUM),
    ("en_over_zh", "How much is a student ticket at the Gudu Canal Museum?", ["20元"], MUSEUM),
    ("en_over_zh", "What does error E3 mean on the CM7 coffee machine?", ["研磨器"], COFFEE),
    ("en_over_zh", "What voltage does the Yanbei CM7 espresso machine need?", ["220"], COFFEE),
    # a Chinese question over an English file
    ("zh_over_en", "那场半程马拉松因为高温，有多少名跑者被送进了医院？", ["Eleven", "11"], MARATHON),
    ("zh_over_en", "Harrowgate 半程马拉松的男子冠军是谁？", ["Tomasz Wilk"], MARATHON),
    ("zh_over_en", "那个会员制的手工工坊里，谁负责机器的安全培训？", ["Priya Venkatesan"], MAKERSPACE),
    ("zh_over_en", "Brackley Makerspace 的全天会员每个月多少钱？", ["35"], MAKERSPACE),
    ("zh_over_en", "那家面包房批发的黄油可颂多少钱一个？", ["0.85"], BAKERY),
    ("zh_over_en", "Linden Court 居民协会新选出的司库是谁？", ["Martin Oyelaran"], RESIDENTS),
    ("zh_over_en", "居民协会批准的停车证一年收多少钱？", ["60"], RESIDENTS),
    # the subject is there, the attribute nowhere: "not found" is right
    ("absent_cross", "What is the phone number of the Gudu Canal Museum?", [], MUSEUM),
    ("absent_cross", "How much did the fire at the Luxi cold-storage warehouse cost in economic losses?", [], FIRE),
    ("absent_cross", "How many bikes does Qingtong operate in the city?", [], BIKES),
    ("absent_cross", "How loud is the CM7 coffee machine in decibels?", [], COFFEE),
    ("absent_cross", "Harrowgate 半程马拉松的报名费是多少？", [], MARATHON),
    ("absent_cross", "Brackley Makerspace 的3D打印机每小时怎么收费？", [], MAKERSPACE),
    ("absent_cross", "那家面包房的全麦面包批发价是多少？", [], BAKERY),
]

if __name__ == "__main__":
    write_questions(Path(__file__).resolve().parent, "xw", QUESTIONS, held=HELD)
