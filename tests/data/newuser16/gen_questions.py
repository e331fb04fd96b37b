"""Writes questions.jsonl (18 questions, written before any run; 6 of them, a third, held aside: listed in ``HELD``
below, chosen before any run so that each kind of question has one on each side where it can)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

RULES, HANDBOOK = "membership_rules_export.txt", "志愿者手册.md"
CAFE, STOCK, NOTES = "repair_cafe.html", "工具清单.csv", "meeting_notes_2026-10.txt"
Q = [
    # category, question, answers ([] = not found), files
    ("who", "Who repairs toasters at the Repair Café?", ["Tobias Mensah-Reid"], [CAFE]),
    ("where", "Where does the Repair Café meet?", ["St Aldric"], [CAFE]),
    ("cross_language", "修理咖啡馆每个月哪天活动？", ["last Sunday"], [CAFE]),
    ("table_cell", "借电钻要交多少押金？", ["100"], [HANDBOOK]),
    ("table_cell", "地板打磨机最多能借几天？", ["3"], [HANDBOOK]),
    ("cross_language", "How much deposit do I leave when I borrow a lawn mower?", ["50"], [HANDBOOK]),
    ("table_cell", "角磨机现在是什么状态？", ["维修中"], [STOCK]),
    ("cross_language", "Which shelf is the tile cutter kept on?", ["D1"], [STOCK]),
    ("how_much", "How much is a student membership?", ["£5", "5"], [RULES]),
    ("how_much", "How many tools can a member borrow at once?", ["three", "3"], [RULES]),
    ("who", "Who will train the Saturday volunteers on the new system?", ["Sam Okafor"], [NOTES]),
    ("how_much", "备用砂带的预算是多少？", ["40"], [NOTES]),
    ("how_much", "What is the charge per day for returning a tool late?", ["50p"], [RULES]),
    # the subject is in the files, the asked fact is not
    ("not_found", "How much does it cost to replace the tile cutter?", [], []),
    ("not_found", "借用社的电话号码是多少？", [], []),
    ("not_found", "What brand is the donated pressure washer?", [], []),
    ("not_found", "What time does the safety induction start?", [], []),
    ("not_found", "割草机是哪一年买的？", [], []),
]
HELD = {"ns02", "ns05", "ns08", "ns12", "ns13", "ns18"}  # fixed before any run: 5 answerable, 1 not found
write_questions(Path(__file__).parent, "ns", Q, held=HELD)
