"""Writes questions.jsonl (16 questions, written before any run; 5 of them, about 30 %, held aside: listed as
``held`` below, chosen before any run so that each kind of question has one on each side where it can)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

MEMBERS, LENDING, CLOSING, INTAKE = ("policy/青巷单车工坊会员制度.docx", "policy/tool_lending.html",
                                     "howto/closing_up.md", "howto/捐赠单车接收指南.md")
PARTS, ROSTER, REPAIRS, MINUTES = ("tables/parts_prices.csv", "tables/志愿者排班表.csv",
                                   "logs/repair_log.txt", "logs/2026年春季会员大会纪要.pdf")
Q = [
    # category, question, answers ([] = not found), files
    ("who", "Who settles disputes about a lost tool?", ["Wendell Achterberg"], [LENDING]),
    ("who", "春季会员大会的记录人是谁？", ["费佳音"], [MINUTES]),
    ("when", "What time do the evening sessions finish?", ["21:30"], [CLOSING]),
    ("when", "捐赠的双人自行车是哪天拆解的？", ["2026-01-17"], [REPAIRS]),
    ("how_much", "How much did the electrician charge for the new pressure switch?", ["85"], [REPAIRS]),
    ("how_much", "学生会员一年交多少会费？", ["60"], [MEMBERS]),
    ("table_cell", "What does a KMC 8-speed chain cost?", ["13.90"], [PARTS]),
    ("table_cell", "星期四晚上是哪位志愿者值班？", ["费佳音"], [ROSTER]),
    ("how_to", "Where do I switch off the compressor when closing up?", ["isolator"], [CLOSING]),
    # an English question over a Chinese-only file, and the reverse
    ("cross_language", "How much does a non-member pay per hour for a repair stand?", ["15"], [MEMBERS]),
    ("cross_language", "借工具要交多少押金？", ["30"], [LENDING]),
    # the subject is in the files, the asked fact is not
    ("not_found", "What is the alarm code of the workshop?", [], []),
    ("not_found", "青巷单车工坊的地址在哪里？", [], []),
    ("not_found", "How many inner tubes were sold last year?", [], []),
    ("not_found", "新的空气压缩机是什么牌子的？", [], []),
    ("not_found", "Who repaired the cargo bike's front brake?", [], []),
]
HELD = {"ny02", "ny07", "ny10", "ny13", "ny16"}  # fixed before any run: 3 answerable, 2 not found
write_questions(Path(__file__).parent, "ny", Q, held=HELD)
