"""Write questions.jsonl of xlang_own15 (the held ids are fixed here, chosen before any run)."""

import json
from pathlib import Path

Y, D, S, C, E, A = ("云岭村蓝染工坊.md", "东湖渔业合作社理事会会议纪要.txt", "南岭镇山洪灾情通报.md",
                    "春晖小学食堂库存表.csv", "thermafen_hp20_service_guide.txt",
                    "ashgrove_garden_committee_may_2026.md")
Q = [
    ("xo01", "What's the street address of the Yunling indigo dyeing workshop?", ["溪口路18号"], Y, "label_en_zh"),
    ("xo02", "Who runs the Yunling village indigo dye workshop?", ["罗秀芬"], Y, "label_en_zh"),
    ("xo03", "How much does a child pay for the hands-on session at the Yunling dye workshop?", ["40"], Y,
     "label_en_zh"),
    ("xo04", "How many dye vats does the Yunling indigo workshop have?", ["12"], Y, "act_en_zh"),
    ("xo05", "What is the email address of the Yunling indigo workshop?", [], Y, "absent_en_zh"),
    ("xo06", "In which year was the Yunling indigo dye workshop founded?", [], Y, "absent_en_zh"),
    ("xo07", "Who chaired the Donghu fishery cooperative's March board meeting?", ["邵广林"], D, "label_en_zh"),
    ("xo08", "Who wrote the minutes of the Donghu fishery co-op's board meeting?", ["胡晓雯"], D, "label_en_zh"),
    ("xo09", "Where did the Donghu fishery cooperative's board meet in March?", ["二楼会议室", "会议室"], D,
     "label_en_zh"),
    ("xo10", "What was the total dividend the Donghu fishery co-op paid out for 2025?", ["36万", "36"], D,
     "act_en_zh"),
    ("xo11", "Who was picked as the new safety officer of the Donghu fishery cooperative?", ["严立东"], D,
     "act_en_zh"),
    ("xo12", "How much did the Donghu fishery co-op pay for its new fishing boat?", [], D, "absent_en_zh"),
    ("xo13", "How many residents were evacuated in Nanling town because of the flash flood?", ["418"], S,
     "act_en_zh"),
    ("xo14", "How many bridges did the Nanling flash flood damage?", ["2"], S, "act_en_zh"),
    ("xo15", "How much emergency funding did the Nanling town government release after the flood?",
     ["50万", "50"], S, "act_en_zh"),
    ("xo16", "How many houses collapsed in the Nanling flash flood?", [], S, "absent_en_zh"),
    ("xo17", "How much flour does the Chunhui primary school canteen have in stock?", ["240"], C, "table_en_zh"),
    ("xo18", "Who supplies eggs to the Chunhui primary school canteen?", ["绿野养殖场"], C, "table_en_zh"),
    ("xo19", "What is the unit price of cooking oil in the Chunhui school canteen's stock list?", ["13.5"], C,
     "table_en_zh"),
    ("xo20", "How much milk is in stock at the Chunhui primary school canteen?", [], C, "absent_en_zh"),
    ("xo21", "Thermafen HP-20 热泵显示 F03 是什么故障？", ["High-pressure protection", "high-pressure"], E,
     "code_zh_en"),
    ("xo22", "Thermafen HP-20 用的是哪种制冷剂？", ["R32"], E, "label_zh_en"),
    ("xo23", "HP-20 热泵的额定制热量是多少？", ["8.5"], E, "label_zh_en"),
    ("xo24", "Thermafen HP-20 的压缩机保修几年？", ["5"], E, "label_zh_en"),
    ("xo25", "HP-20 热泵出现 F04 代码代表什么？", [], E, "absent_zh_en"),
    ("xo26", "Thermafen HP-20 热泵机组重多少公斤？", [], E, "absent_zh_en"),
    ("xo27", "Ashgrove 社区菜园五月的委员会会议是谁做的记录？", ["Tom Ecclestone", "Ecclestone"], A, "label_zh_en"),
    ("xo28", "Ashgrove 社区菜园的委员会会议在什么地方开的？", ["tool shed"], A, "label_zh_en"),
    ("xo29", "Ashgrove 菜园下个季度起每块地的年租金是多少？", ["35"], A, "act_zh_en"),
    ("xo30", "谁负责组织 Ashgrove 社区菜园的换种活动？", ["Greta Mullins", "Mullins"], A, "act_zh_en"),
    ("xo31", "Ashgrove 社区菜园会长的联系电话是多少？", [], A, "absent_zh_en"),
]
HELD = {"xo03", "xo06", "xo09", "xo14", "xo19", "xo20", "xo23", "xo26", "xo28", "xo30"}

with (Path(__file__).parent / "questions.jsonl").open("w", encoding="utf-8") as out:
    for qid, text, answers, file, category in Q:
        out.write(json.dumps({"id": qid, "question": text, "answers": answers, "notFound": not answers,
                              "files": [file], "category": category,
                              "split": "held" if qid in HELD else "dev"}, ensure_ascii=False) + "\n")
