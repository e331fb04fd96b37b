"""Writes questions.jsonl (16 questions, written before any run; 5 of them, about 30 %, held aside: listed in
``HELD`` below, chosen before any run so that each kind of question has one on each side where it can)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

RULES, TOOLS, SHOW = "rules/plot_rules.html", "rules/工具借用规定.docx", "rules/autumn_show.docx"
RENTS, FERTILISER = "tables/plot_rents.csv", "tables/2026年肥料采购.csv"
WATERING, SEEDS, MINUTES = "notes/浇水轮值说明.txt", "howto/saving_tomato_seeds.md", "minutes/2026年度会员大会纪要.pdf"
Q = [
    # category, question, answers ([] = not found), files
    ("who", "3月21日买草木灰是谁经手的？", ["林晓雯"], [FERTILISER]),
    ("who", "Who judges the best jar of chutney at the autumn show?", ["Rukhsana Bello"], [SHOW]),
    ("when", "At what times are we allowed to use a hose on the allotment?", ["6 am"], [RULES]),
    ("when", "五月到九月，公共花坛每周三傍晚由哪个区的志愿者浇水？", ["二号区"], [WATERING]),
    ("table_cell", "借电动割草机要交多少押金？", ["200"], [TOOLS]),
    ("table_cell", "What is the yearly rent of plot A2?", ["48"], [RENTS]),
    ("how_much", "三月初买发酵鸡粪一共花了多少钱？", ["1260", "1,260"], [FERTILISER]),
    ("how_much", "What does the winner of the heaviest marrow class get?", ["25"], [SHOW]),
    ("how_much", "会员年费调整以后是每年多少钱？", ["75"], [MINUTES]),
    ("how_long", "How many days do tomato seeds need to ferment in the jar?", ["three", "3"], [SEEDS]),
    # an English question over a Chinese-only file, and the reverse
    ("cross_language", "How much money did the members approve for the new compost area?", ["4,800", "4800"],
     [MINUTES]),
    ("cross_language", "自己留的番茄种子能保存几年？", ["four", "4"], [SEEDS]),
    # the subject is in the files, the asked fact is not
    ("not_found", "What is the allotment association's bank account number?", [], []),
    ("not_found", "旋耕机是什么牌子的？", [], []),
    ("not_found", "Who judges the biggest pumpkin at the autumn show?", [], []),
    ("not_found", "年度会员大会在哪里开的？", [], []),
]
HELD = {"ng02", "ng06", "ng09", "ng12", "ng15"}  # fixed before any run: 4 answerable, 1 not found
write_questions(Path(__file__).parent, "ng", Q, held=HELD)
