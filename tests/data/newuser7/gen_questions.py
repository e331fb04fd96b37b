"""Writes questions.jsonl (24 questions, written before any run; the split alternates within each category)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

RULES, BOOK, MEET, WASTE, CALDER = ("lab/高分子实验室安全守则.pdf", "lab/instrument_booking.csv",
                                    "lab/2025年秋季实验室例会纪要.docx", "lab/waste_codes.md",
                                    "lab/calder_labworks.html")
NOTES, VILLAGE, PRICES, BUY, ROOM = ("tea/mistridge_estate_notes.pdf", "tea/hollin_ford.txt", "tea/雾岭茶园价目表.csv",
                                     "tea/2025年采购会议纪要.md", "tea/tasting_room.html")
Q = [
    # category, question, answers ([] = not found), files
    # the subject is in the files, the asked attribute is not
    ("absent_attribute", "高分子实验室的值班电话是多少？", [], []),
    ("absent_attribute", "How many tonnes of tea does the Mistridge Tea Estate produce a year?", [], []),
    ("absent_attribute", "雾岭茶园有多少名采茶工？", [], []),
    ("absent_attribute", "What was the purchase price of the lab's rotational rheometer?", [], []),
    # a bridge: the entity named by the first hop, then its attribute
    ("bridge", "On which river is the village where Mistridge tea leaves are rolled?", ["Tay"], [NOTES, VILLAGE]),
    ("bridge", "In which year was the company that supplies the polymer lab's new fume hoods founded?", ["1978"],
     [MEET, CALDER]),
    # wrong-span traps: a title line, a neighbouring code, a role
    ("wrong_span", "谁主持了高分子实验室2025年秋季例会？", ["沈知远"], [MEET]),
    ("wrong_span", "What does waste code W3 mean?", ["acids and bases", "acids"], [WASTE]),
    ("wrong_span", "What does waste code W5 mean?", ["contaminated solids", "gloves"], [WASTE]),
    ("wrong_span", "雾岭茶园采购会议的记录人是谁？", ["林晓雯"], [BUY]),
    # an English question over a Chinese-only file, and the reverse
    ("cross_language", "What score must new lab members reach to pass the safety exam?", ["90"], [RULES]),
    ("cross_language", "雾岭茶园的茶园海拔多高？", ["1,150", "1150"], [NOTES]),
    ("cross_language", "How much does 100 grams of Mistridge black tea cost?", ["98"], [PRICES]),
    ("cross_language", "品鉴室周六几点开门？", ["9:30"], [ROOM]),
    # a misspelled name
    ("misspelled", "Who founded the Mistrige Tea Estate?", ["Edmund Hale"], [NOTES]),
    ("misspelled", "Where is Caldor Labworks based?", ["Ashby Vale"], [CALDER]),
    # comparisons
    ("comparison", "Which costs more per hour to book, the DSC or the rheometer?", ["rheometer"], [BOOK]),
    ("comparison", "雾岭春芽和雾岭红茶哪个更贵？", ["雾岭春芽"], [PRICES]),
    # year questions
    ("year", "致远楼是哪一年建成的？", ["2008"], [RULES]),
    ("year", "In which year did the Mistridge estate open its tasting room?", ["2016"], [ROOM]),
    # plain typed values
    ("typed", "高分子实验室晚上几点关门？", ["22:00"], [RULES]),
    ("typed", "For how many hours at most can the GPC be booked at a time?", ["4"], [BOOK]),
    ("typed", "废液桶装到多少就必须更换？", ["80%"], [RULES]),
    ("typed", "How much does a guided tasting cost per person?", ["45"], [ROOM]),
]
write_questions(Path(__file__).parent, "nq", Q)
