"""Writes questions.jsonl (16 questions, written before any run; 5 of them, about 30 %, held aside: listed as
``held`` below, chosen before any run so that each kind of question has one on each side where it can)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

RULES, SAFETY, LOADING, GLAZE = ("policy/窑边陶艺合作社会员守则.docx", "policy/studio_safety.html",
                                 "howto/loading_the_kiln.md", "howto/釉料配制方法.md")
CLAY, SCHEDULE, LOG, MINUTES = ("tables/clay_prices.csv", "tables/烧窑排期.csv",
                                "logs/kiln_log.txt", "logs/2026年秋季工作会议纪要.pdf")
Q = [
    # category, question, answers ([] = not found), files
    ("who", "Who is the co-op's first aider?", ["Marguerite Osei"], [SAFETY]),
    ("who", "秋季工作会议的主持人是谁？", ["季远帆"], [MINUTES]),
    ("when", "On which weekday are bisque loads fired?", ["Wednesday"], [LOADING]),
    ("when", "年末陶艺市集在哪天举办？", ["12月6日"], [MINUTES]),
    ("how_much", "What did Hartley Kiln Services charge for the new elements?", ["340"], [LOG]),
    ("how_much", "釉烧一件作品收多少钱？", ["25"], [RULES]),
    ("table_cell", "How much is a bag of the Porcelain P300?", ["52.75"], [CLAY]),
    ("table_cell", "10月28日那次釉烧是谁装窑？", ["季远帆"], [SCHEDULE]),
    ("how_to", "How long should the kiln cool before I open the lid?", ["24 hours"], [LOADING]),
    # an English question over a Chinese-only file, and the reverse
    ("cross_language", "How much is the monthly rent for a storage shelf?", ["40"], [RULES]),
    ("cross_language", "在釉料间混合干料时要戴什么？", ["respirator"], [SAFETY]),
    # the subject is in the files, the asked fact is not
    ("not_found", "What is the Wi-Fi password of the studio?", [], []),
    ("not_found", "窑边陶艺合作社的电话号码是多少？", [], []),
    ("not_found", "How many people came to last year's Christmas market?", [], []),
    ("not_found", "新的小型电窑是哪个品牌的？", [], []),
    ("not_found", "Who made the teapot whose lid cracked in October?", [], []),
]
HELD = {"nz03", "nz08", "nz11", "nz12", "nz15"}  # fixed before any run: 3 answerable, 2 not found
write_questions(Path(__file__).parent, "nz", Q, held=HELD)
