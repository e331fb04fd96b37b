"""Writes questions.jsonl (24 questions, written before any run; the split alternates within each category)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

RULES, HOURS, MEET, ROOMS = ("library/柏溪区图书馆借阅规则.pdf", "library/opening_hours.html",
                             "library/2025年读者委员会会议纪要.docx", "library/room_booking.md")
NOTES, PRICES, CODES, BOARD, TOWN = ("robotics/tidewren_product_notes.pdf", "robotics/价格表.csv",
                                     "robotics/error_codes.txt", "robotics/2025年第二季度董事会纪要.md",
                                     "robotics/marlow_cross.html")
Q = [
    # category, question, answers ([] = not found), files
    # the subject is in the files, the asked attribute is not
    ("absent_attribute", "柏溪区图书馆的馆长是谁？", [], []),
    ("absent_attribute", "What is Tidewren Robotics' annual revenue?", [], []),
    ("absent_attribute", "潮鹪机器人现在有多少名员工？", [], []),
    ("absent_attribute", "At what time does the library's rooftop study terrace close?", [], []),
    # a bridge: the town named by the first hop, then its attribute
    ("bridge", "When was the town where the Tidewren P2 is assembled founded?", ["1642"], [NOTES, TOWN]),
    ("bridge", "On which river is the town where the Tidewren P2 is assembled?", ["Lenn"], [NOTES, TOWN]),
    # wrong-span traps: a title line, a neighbouring code, a role
    ("wrong_span", "谁主持了读者委员会2025年4月的会议？", ["宋雅琴"], [MEET]),
    ("wrong_span", "What does error code E3 mean on a Tidewren robot?", ["water sensor dry", "left the water"],
     [CODES]),
    ("wrong_span", "What does error code E4 mean?", ["Wi-Fi pairing failed", "pairing failed"], [CODES]),
    ("wrong_span", "潮鹪机器人第二季度董事会的记录人是谁？", ["陶骏"], [BOARD]),
    # an English question over a Chinese-only file, and the reverse
    ("cross_language", "How many books can a reader with an ordinary card borrow at a time?", ["10"], [RULES]),
    ("cross_language", "少儿阅览室几点关门？", ["17:30"], [HOURS]),
    ("cross_language", "What is the retail price of the Tidewren P2?", ["3980"], [PRICES]),
    ("cross_language", "Who chaired Tidewren's second-quarter board meeting?", ["Ines Farrow"], [BOARD]),
    # a misspelled name
    ("misspelled", "How heavy is the Tidewrenn P2?", ["4.2 kg", "4.2"], [NOTES]),
    ("misspelled", "Who founded Tidewen Robotics?", ["Ines Farrow", "Tao Jun"], [NOTES]),
    # comparisons
    ("comparison", "Which is cheaper, the Tidewren P2 or the Tidewren G5?", ["G5"], [PRICES]),
    ("comparison", "P2和G5哪个电池续航更长？", ["P2"], [NOTES]),
    # year questions
    ("year", "柏溪区图书馆是哪一年迁入新馆的？", ["2019"], [RULES]),
    ("year", "In which year was Tidewren Robotics founded?", ["2021"], [NOTES]),
    # plain typed values
    ("typed", "逾期还书每册每天收多少滞纳金？", ["0.2元", "0.2"], [RULES]),
    ("typed", "How many people does group study room G4 seat?", ["12"], [ROOMS]),
    ("typed", "G5的零售价下调前是多少？", ["2890"], [BOARD]),
    ("typed", "For how many hours a day can a group study room be booked?", ["3 hours", "3"], [ROOMS]),
]
write_questions(Path(__file__).parent, "ns", Q)
