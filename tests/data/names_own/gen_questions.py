"""Writes questions.jsonl of the names own set (session 19, issue 24 #6 and #1: a question's names and labels
found in the passages across languages and spellings). The split is fixed here, before any run: the ids in
``HELD`` (7 of 22, in every category) are held aside. Run from the repository root:
``.venv/bin/python tests/data/names_own/gen_questions.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.support.own_material import write_questions

POTTERY = ["thornfield_pottery_price_list_2026.csv"]
GARDEN = ["青禾社区菜园四月例会纪要.md"]
GORGE = ["wendle_gorge_landslip_report.txt"]
LUTHIER = ["luthier_tobias_arnlund.md"]
PAGODA = ["鹿鸣塔简介.txt"]
LIGHT = ["harwick_bay_lighthouse_guide.md"]
HELD = {"nm02", "nm05", "nm08", "nm10", "nm14", "nm17", "nm20"}
QUESTIONS = [
    # a name misspelled in Latin letters (a product, a person, a place), in an English or a Chinese question
    ("misspelled", "How much is the Selwin Teapot at Thornfield Pottery?", ["48"], POTTERY),
    ("misspelled", "What glaze does the Brakley Mug have?", ["celadon"], POTTERY),
    ("misspelled", "Where did Tobias Arnlunt train as a violin maker?", ["Cremona"], LUTHIER),
    ("misspelled", "Tobias Arnlun 2018年获得了什么奖？", ["Gold Bow"], LUTHIER),
    ("misspelled", "When was the Harwik Bay lighthouse first lit?", ["1871"], LIGHT),
    ("misspelled", "How tall is the Harwick Bey Lighthouse?", ["26"], LIGHT),
    ("misspelled", "Who designed the Harwich Bay lighthouse?", ["Pettigrew"], LIGHT),
    ("misspelled", "According to the county engineer Harriet Quail, how much will the Wendle Gorge repairs cost?",
     ["260,000", "260000"], GORGE),
    # a Chinese question over an English file: the label in the other language
    ("zh_over_en", "Wendle Gorge 山体滑坡时有多少名徒步者被困？", ["212"], GORGE),
    ("zh_over_en", "Wendle Gorge 那次滑坡有多少名志愿者参与了救援？", ["37"], GORGE),
    ("zh_over_en", "Harwick Bay 灯塔博物馆的成人门票多少钱？", ["7"], LIGHT),
    ("zh_over_en", "Thornfield Pottery 的 Corrin Jug 容量是多少？", ["1200", "1,200"], POTTERY),
    # an English (or mixed-script) question over a Chinese file: a role verb, a label
    ("en_over_zh", "Who took notes at the Qinghe community garden's April meeting?", ["柯思远"], GARDEN),
    ("en_over_zh", "Who chaired the Qinghe community garden meeting in April 2026?", ["周以宁"], GARDEN),
    ("en_over_zh", "How much is budgeted for the new compost bins at the Qinghe community garden?",
     ["1,850", "1850"], GARDEN),
    ("en_over_zh", "How many steps does the wooden staircase inside 鹿鸣塔 have?", ["198"], PAGODA),
    ("en_over_zh", "How tall is 鹿鸣塔 in Qixia town?", ["41.6"], PAGODA),
    ("en_over_zh", "Who draws up the summer watering rota for the Qinghe community garden?", ["唐嘉禾"], GARDEN),
    # an absent twin: a similar name is in the files, but it is another thing, without the asked fact
    ("absent_twin", "What is the capacity of the Corran Bowl at Thornfield Pottery?", [], POTTERY),
    ("absent_twin", "What award did Tomas Arnlund win?", [], LUTHIER),
    ("absent_twin", "Who designed the Harbeck Point harbour light?", [], LIGHT),
    ("absent_twin", "鹿鸣书院有多少级木梯？", [], PAGODA),
]

if __name__ == "__main__":
    write_questions(Path(__file__).resolve().parent, "nm", QUESTIONS, held=HELD)
