"""Writes questions.jsonl (15 questions, written before any run; the split alternates within each category)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

SHOPS, PRICES, ABOUT, CHECK = ("bakery/wheatear_shops.pdf", "bakery/价目表.csv", "bakery/麦穗坊简介.md",
                               "bakery/2025年食品安全检查报告.pdf")
HAND, TRIP, MEET = "club/bluehaze_handbook.docx", "club/autumn_trip_2025.html", "club/青岚徒步社2024年会纪要.txt"
Q = [
    # category, question, answers ([] = not found), files
    ("when", "When did the Millgate shop open?", ["2012"], [SHOPS]),
    ("why", "Why did the Station shop close?", ["station was rebuilt", "rebuilt"], [SHOPS]),
    ("how_much", "酸面包多少钱？", ["28元"], [PRICES]),
    ("who", "麦穗坊的创始人是谁？", ["林晓禾"], [ABOUT]),
    ("how_many", "麦穗坊有多少名面包师？", ["12"], [ABOUT]),
    ("who", "谁进行了2025年的食品安全检查？", ["郑秋月"], [CHECK]),
    ("how_much", "How much is the annual membership fee of the Bluehaze Hiking Club?", ["40 euros"], [HAND]),
    ("who", "Who leads the Sunday walks?", ["Ruth Calder"], [HAND]),
    ("how_many", "How high is Grey Fell?", ["1,024", "1024"], [TRIP]),
    ("why", "青岚徒步社为什么取消了灰岭远足？", ["塌方"], [MEET]),
    ("cross_language", "How many hikes did the club organise in 2024?", ["46"], [MEET]),
    ("cross_language", "麦穗坊港口店几点开门？", ["6:30"], [SHOPS]),
    ("comparison", "Which is cheaper, the sourdough or the rye bread?", ["酸面包", "sourdough"], [PRICES]),
    ("absent_attribute", "What is Wheatear Bakery's phone number?", [], []),
    ("unanswerable", "Who won the 2025 Lindford marathon?", [], []),
]
write_questions(Path(__file__).parent, "nx", Q)
