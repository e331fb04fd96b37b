"""Writes questions.jsonl (24 questions, written before any run; the split alternates within each category)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

RULES, LANES, MEET, FLAGS, BRIGHT = ("pool/澄湖游泳馆入场须知.pdf", "pool/lane_sessions.csv",
                                     "pool/2025年救生安全例会纪要.docx", "pool/flag_signals.md",
                                     "pool/brightwater_safety.html")
NOTES, MILL, PRICES, WOOD, DESK = ("violin/fenwick_rowe_workshop.pdf", "violin/saltby_mill.txt",
                                   "violin/枫林提琴价目表.csv", "violin/2025年木料采购会议纪要.md",
                                   "violin/repair_desk.html")
Q = [
    # category, question, answers ([] = not found), files
    # the subject is in the files, the asked attribute is not
    ("absent_attribute", "澄湖游泳馆的咨询电话是多少？", [], []),
    ("absent_attribute", "How many violins does the Fenwick & Rowe workshop make a year?", [], []),
    ("absent_attribute", "澄湖游泳馆有多少名救生员？", [], []),
    ("absent_attribute", "What is the annual revenue of Brightwater Safety?", [], []),
    # a bridge: the entity named by the first hop, then its attribute
    ("bridge", "On which river is the mill where Fenwick & Rowe violins are varnished?", ["Wenn"], [NOTES, MILL]),
    ("bridge", "In which year was the company that supplies the pool's new rescue gear founded?", ["1994"],
     [MEET, BRIGHT]),
    # wrong-span traps: a title line, a neighbouring code, a role
    ("wrong_span", "谁主持了澄湖游泳馆2025年救生安全例会？", ["韩立军"], [MEET]),
    ("wrong_span", "What does flag signal F3 mean?", ["leave the water"], [FLAGS]),
    ("wrong_span", "What does flag signal F2 mean?", ["deep end is closed", "diving practice"], [FLAGS]),
    ("wrong_span", "枫林提琴工坊木料采购会议的记录人是谁？", ["周雨桐"], [WOOD]),
    # an English question over a Chinese-only file, and the reverse
    ("cross_language", "How far must a swimmer swim to get a deep-water pass?", ["200"], [RULES]),
    ("cross_language", "每把小提琴大约需要多少小时的工作台工时？", ["220"], [NOTES]),
    ("cross_language", "How much does a bow rehair cost?", ["380"], [PRICES]),
    ("cross_language", "维修台周六几点开门？", ["10:30"], [DESK]),
    # a misspelled name
    ("misspelled", "Who founded the Fenwik & Rowe Violin Workshop?", ["Clara Fenwick"], [NOTES]),
    ("misspelled", "Where is Brightwatter Safety based?", ["Kestrel Bay"], [BRIGHT]),
    # comparisons
    ("comparison", "Which costs more per visit, the family swim or the masters squad?", ["masters squad"], [LANES]),
    ("comparison", "Dunmere学生琴和Fenwick Gold演奏琴哪个更贵？", ["Fenwick Gold"], [PRICES]),
    # year questions
    ("year", "澄湖游泳馆是哪一年建成的？", ["2011"], [RULES]),
    ("year", "In which year did the workshop open its repair desk?", ["2019"], [DESK]),
    # plain typed values
    ("typed", "澄湖游泳馆晚上几点闭馆？", ["21:30"], [RULES]),
    ("typed", "What time does the early lanes session start?", ["6:30"], [LANES]),
    ("typed", "身高多少以下的儿童须由成年人陪同入水？", ["1.2米", "1.2"], [RULES]),
    ("typed", "How much does a setup check of a violin cost?", ["150"], [DESK]),
]
write_questions(Path(__file__).parent, "nr", Q)
