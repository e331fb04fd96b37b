"""Writes questions.jsonl of the sixth cross-language own set. The split is fixed here, before any run: the
ids in ``HELD`` (8 of 26, in every category) are held aside. Run from the repository root:
``.venv/bin/python tests/data/xlang_own6/gen_questions.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.support.own_material import write_questions

ORCHESTRA = ["枫岚社区民乐团四月排练纪要.md"]
BOATS = ["白沙湾龙舟赛.md"]
POTTERY = ["陶然窑会员须知.txt"]
REGATTA = ["kestrel_reach_spring_regatta_2026.md"]
REPAIR = ["millbrook_repair_cafe_newsletter.txt"]
CIDER = ["orchard_lane_cider_press_prices.csv"]
HELD = {"xs02", "xs05", "xs09", "xs12", "xs16", "xs18", "xs22", "xs25"}
QUESTIONS = [
    # an English question over a Chinese file: roles and attributes the bilingual lexicon may not list
    ("en_over_zh", "Who wrote up the notes of the Fenglan folk orchestra's April rehearsal?", ["苏映雪"], ORCHESTRA),
    ("en_over_zh", "Who looks after the sheet music in the Fenglan community orchestra?", ["韦小棠"], ORCHESTRA),
    ("en_over_zh", "How much did the Fenglan orchestra spend on its new erhus?", ["4,200", "4200"], ORCHESTRA),
    ("en_over_zh", "Who was the head referee at the Baishawan dragon boat race?", ["龚振远"], BOATS),
    ("en_over_zh", "How long is the course of the Baishawan dragon-boat race?", ["500"], BOATS),
    ("en_over_zh", "What was the winning crew's time in the Baishawan dragon boat final?", ["2分48秒"], BOATS),
    ("en_over_zh", "Who handles loading and scheduling the kiln at the Taoran pottery studio?", ["蔺晓舟"], POTTERY),
    ("en_over_zh", "How much does the Taoran studio charge per kilogram for a bisque firing?", ["18"], POTTERY),
    ("en_over_zh", "What is Wei Xiaotang's job in the Fenglan orchestra?", ["谱务"], ORCHESTRA),
    # a Chinese question over an English file (one with the name misspelled in Latin letters)
    ("zh_over_en", "Kestrel Reach 划船俱乐部春季赛艇赛的计时员是谁？", ["Declan Shaw"], REGATTA),
    ("zh_over_en", "Kestrel Reach 春季赛艇赛的裁判是谁？", ["Felicity Garrow"], REGATTA),
    ("zh_over_en", "Kestrel Reach 春季赛艇赛的赛道有多长？", ["1,250", "1250"], REGATTA),
    ("zh_over_en", "Kestrel Reach 俱乐部新买的八人艇花了多少钱？", ["18,500", "18500"], REGATTA),
    ("zh_over_en", "Felicty Garow 在那次春季赛艇赛上担任什么职务？", ["Umpire"], REGATTA),
    ("zh_over_en", "Millbrook 维修咖啡馆里谁负责电器的安全检测？", ["Nadia Okafor"], REPAIR),
    ("zh_over_en", "Millbrook 维修咖啡馆三月份当场修好了多少件物品？", ["44"], REPAIR),
    ("zh_over_en", "Millbrook 维修咖啡馆在什么地方聚会？", ["St Aidan"], REPAIR),
    ("zh_over_en", "在 Orchard Lane 榨汁坊用自己的苹果榨汁，每10公斤多少钱？", ["4.50"], CIDER),
    ("zh_over_en", "Orchard Lane 榨汁坊的巴氏杀菌每升收多少钱？", ["0.60"], CIDER),
    # the subject is there, the attribute nowhere: "not found" is right
    ("absent_cross", "How much is the yearly membership fee of the Fenglan folk orchestra?", [], ORCHESTRA),
    ("absent_cross", "How much prize money did the winning crew of the Baishawan dragon boat race get?", [], BOATS),
    ("absent_cross", "How many pottery wheels does the Taoran studio have?", [], POTTERY),
    ("absent_cross", "Kestrel Reach 春季赛艇赛的门票多少钱？", [], REGATTA),
    ("absent_cross", "Millbrook 维修咖啡馆是谁创办的？", [], REPAIR),
    ("absent_cross", "Orchard Lane 榨汁坊的电话号码是多少？", [], CIDER),
    ("absent_cross", "Who was the starter's assistant at the Baishawan dragon boat race?", [], BOATS),
]

if __name__ == "__main__":
    write_questions(Path(__file__).resolve().parent, "xs", QUESTIONS, held=HELD)
