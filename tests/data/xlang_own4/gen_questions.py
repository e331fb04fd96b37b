"""Writes questions.jsonl of the fourth cross-language own set. The split is fixed here, before any run: the
questions marked ``HELD`` (7 of 22, in every category) are held aside. Run from the repository root:
``.venv/bin/python tests/data/xlang_own4/gen_questions.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.support.own_material import write_jsonl

LIBRARY = ["栖霞湾社区图书馆2026年5月馆务会议纪要.docx"]
TRAVEL = ["澄川物流员工差旅费管理办法.txt"]
TEA = ["蓝溪茶坊价目表.md"]
SOFTENER = ["kelmora_sp2_water_softener_manual.txt"]
ROWING = ["brisa_harbour_rowing_club.md"]
REMOTE = ["fenwick_remote_work_policy.txt"]
ALLOTMENT = ["harlow_street_allotment_society_agm_2026.docx"]
HELD = "held"
QUESTIONS = [
    # an English question over a Chinese file: names in pinyin or translated, the attribute paraphrased
    ("en_over_zh", "Who wrote up the notes of the Qixiawan Community Library's May staff meeting?", ["祁婉清"], LIBRARY,
     "dev"),
    ("en_over_zh", "Who presided over the Qixiawan library meeting in May 2026?", ["欧阳明哲"], LIBRARY, HELD),
    ("en_over_zh", "How many extra study seats will Qixiawan Community Library put in?", ["40"], LIBRARY, "dev"),
    ("en_over_zh", "What daily food allowance do Chengchuan Logistics employees get on business trips?", ["80"],
     TRAVEL, "dev"),
    ("en_over_zh", "Within how many working days must Chengchuan Logistics staff hand in their travel expense claims?",
     ["15"], TRAVEL, HELD),
    ("en_over_zh", "How much does a pot of Longjing tea cost at Lanxi Teahouse?", ["68"], TEA, "dev"),
    ("en_over_zh", "What is the minimum charge for a private room at the Lanxi tea house?", ["300"], TEA, HELD),
    # a Chinese question over an English file: names kept in Latin letters, the attribute in Chinese words
    ("zh_over_en", "Kelmora SP2 软水机的盐箱能装多少盐？", ["25"], SOFTENER, "dev"),
    ("zh_over_en", "Kelmora SP2 断电以后会怎么样？", ["resumes", "last programme"], SOFTENER, "dev"),
    ("zh_over_en", "Kelmora SP2 显示E4是什么意思？", ["salt"], SOFTENER, HELD),
    ("zh_over_en", "Brisa Harbour 赛艇俱乐部的总教练是谁？", ["Marguerite Olsen"], ROWING, "dev"),
    ("zh_over_en", "Brisa Harbour 赛艇俱乐部成人一年的会员费是多少？", ["180"], ROWING, "dev"),
    ("zh_over_en", "Fenwick Data Services 每个月给居家办公的员工多少补贴？", ["45"], REMOTE, "dev"),
    ("zh_over_en", "Harlow Street 菜园协会年会是谁做的会议记录？", ["Ayesha Malik"], ALLOTMENT, "dev"),
    ("zh_over_en", "Harlow Street 菜园协会把整块地的租金提高到了多少？", ["42"], ALLOTMENT, HELD),
    # the subject is there, the attribute nowhere: "not found" is right
    ("absent_cross", "What is the phone number of Qixiawan Community Library?", [], LIBRARY, "dev"),
    ("absent_cross", "What mileage allowance does Chengchuan Logistics pay for using a private car?", [], TRAVEL,
     "dev"),
    ("absent_cross", "What is the Wi-Fi password at Lanxi Teahouse?", [], TEA, "dev"),
    ("absent_cross", "Kelmora SP2 软水机的售价是多少？", [], SOFTENER, HELD),
    ("absent_cross", "Brisa Harbour 赛艇俱乐部的创始人是谁？", [], ROWING, "dev"),
    ("absent_cross", "Fenwick Data Services 有多少名员工？", [], REMOTE, HELD),
    ("absent_cross", "Harlow Street 菜园协会的司库叫什么名字？", [], ALLOTMENT, "dev"),
]

if __name__ == "__main__":
    rows = [{"id": f"xv{i:02d}", "question": q, "answers": answers, "notFound": not answers, "files": files,
             "category": cat, "split": split}
            for i, (cat, q, answers, files, split) in enumerate(QUESTIONS, start=1)]
    write_jsonl(Path(__file__).resolve().parent / "questions.jsonl", rows)
    print(len(rows), "questions,", sum(r["split"] == "held" for r in rows), "held")
