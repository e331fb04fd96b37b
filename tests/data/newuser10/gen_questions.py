"""Writes questions.jsonl (16 questions, written before any run; 5 of them, about 30 %, held aside: listed as
``held`` below, chosen before any run so that each kind of question has one on each side where it can)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

SHIFTS, SPONSOR, DESK, LOANS = ("policy/潮汐电台志愿者值班制度.docx", "policy/sponsorship_policy.html",
                                "howto/night_desk.md", "howto/设备借用指南.md")
SCHEDULE, PRICES, TXLOG, MINUTES = ("tables/programme_schedule.csv", "tables/器材价格表.csv",
                                    "logs/transmitter_log.txt", "logs/2025年度台务会议纪要.pdf")
Q = [
    # category, question, answers ([] = not found), files
    ("who", "Who has to approve a sponsor credit before it goes on air?", ["Imogen Pardew"], [SPONSOR]),
    ("who", "谁主持了潮汐电台2025年度台务会议？", ["沈秋禾"], [MINUTES]),
    ("when", "潮汐电台的夜间值班几点结束？", ["2:00"], [SHIFTS]),
    ("when", "When was the new battery for the backup generator fitted?", ["2026-01-12"], [TXLOG]),
    ("how_much", "How much did the replacement fan for the exciter cost?", ["64"], [TXLOG]),
    ("how_much", "借用设备损坏最多要赔多少钱？", ["800"], [LOANS]),
    ("table_cell", "Who hosts the Allotment Hour?", ["Rufus Tennant"], [SCHEDULE]),
    ("table_cell", "无线话筒的单价是多少？", ["1850"], [PRICES]),
    ("how_to", "Which key switches the stream to the jukebox playlist when it goes silent?", ["FALLBACK"], [DESK]),
    # an English question over a Chinese-only file, and the reverse
    ("cross_language", "How much is the key deposit a new volunteer pays?", ["150"], [SHIFTS]),
    ("cross_language", "20秒的赞助口播要多少钱？", ["45"], [SPONSOR]),
    # the subject is in the files, the asked fact is not
    ("not_found", "What is the code of the grey key safe?", [], []),
    ("not_found", "潮汐社区电台台长的电话号码是多少？", [], []),
    ("not_found", "At what power in watts does the Gullhead transmitter broadcast?", [], []),
    ("not_found", "无线话筒是在哪家商店买的？", [], []),
    ("not_found", "Who sponsors the Tidewell Jazz Cellar?", [], []),
]
HELD = {"nx06", "nx08", "nx11", "nx14", "nx15"}  # fixed before any run: 3 answerable, 2 not found
write_questions(Path(__file__).parent, "nx", Q, held=HELD)
