"""Writes questions.jsonl (16 questions, written before any run; 5 of them, about 30 %, held aside: listed in
``HELD`` below, chosen before any run so that each kind of question has one on each side where it can)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

APPTS, DUTY, TABLET, AFTERCARE = ("policy/appointments.html", "policy/梧桐街动物诊所员工值班守则.docx",
                                  "howto/giving_a_cat_a_tablet.md", "howto/绝育术后护理须知.md")
VACCINES, ROTA, EQUIPMENT, MINUTES = ("tables/vaccination_prices.csv", "tables/十二月夜班表.csv",
                                      "logs/equipment_log.txt", "logs/2026年11月员工会议纪要.pdf")
Q = [
    # category, question, answers ([] = not found), files
    ("who", "Who keeps the keys to the anaesthetic drugs?", ["卜一鸣"], [DUTY]),
    ("who", "十一月员工会议是谁做的记录？", ["邵小棠"], [MINUTES]),
    ("when", "Which days of the week are dental procedures scheduled?", ["Tuesday", "Thursday"], [APPTS]),
    ("when", "绝育手术后第几天拆线？", ["第十天", "10"], [AFTERCARE]),
    ("how_much", "How much does it cost if I miss an appointment without telling the clinic?", ["18"], [APPTS]),
    ("how_much", "节假日值班一个班补贴多少钱？", ["260"], [DUTY]),
    ("table_cell", "What is the price of the feline leukaemia vaccine?", ["46.75"], [VACCINES]),
    ("table_cell", "平安夜是哪位兽医值班？", ["卢嘉禾"], [ROTA]),
    ("how_much", "What did Harlow Vet Engineering charge for servicing the anaesthetic machine?", ["410"],
     [EQUIPMENT]),
    # an English question over a Chinese-only file, and the reverse
    ("cross_language", "How much did the clinic agree to spend on new infusion pumps?", ["26,500", "26500"],
     [MINUTES]),
    ("cross_language", "给猫喂药片后要用注射器喂多少水？", ["5 ml", "5"], [TABLET]),
    # the subject is in the files, the asked fact is not
    ("not_found", "What is the clinic's phone number?", [], []),
    ("not_found", "梧桐街动物诊所的营业时间是几点到几点？", [], []),
    ("not_found", "How much does a rabies vaccination cost?", [], []),
    ("not_found", "输液泵是哪个厂家生产的？", [], []),
    ("not_found", "Who repaired the kennel heater in ward B?", [], []),
]
HELD = {"nw02", "nw07", "nw11", "nw13", "nw16"}  # fixed before any run: 3 answerable, 2 not found
write_questions(Path(__file__).parent, "nw", Q, held=HELD)
