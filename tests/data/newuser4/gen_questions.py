"""Writes questions.jsonl. The split (dev/held) is fixed here, written before any run: within each category the
questions alternate dev, held, dev, ... in the order listed."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

REP, PRICE, MEET, GUIDE, VIL = ("apiary/silverfir_annual_report_2024.pdf", "apiary/蜂蜜品种与价格.csv",
                                "apiary/2025年春季蜂病防治会议纪要.docx", "apiary/hive_inspection_guide.md",
                                "apiary/岚溪村简介.html")
SEASON, CALL, HALL, REVIEW = ("orchestra/morningstar_season_2025.docx", "orchestra/晨星青年管弦乐团2025年招新通知.pdf",
                              "orchestra/云台音乐厅.txt", "orchestra/spring_concert_review.txt")
Q = [
    # category, question, answers ([] = not found), files
    # cross-language: an English question over a Chinese-only file, and the reverse. Translated names
    # (Silverfir / 银杉, Morningstar / 晨星) and transliterated ones (Lanxi / 岚溪, Yuntai / 云台, He Jing / 何静).
    ("cross_language", "Who chaired the Silverfir Apiary Cooperative's spring meeting on bee diseases?",
     ["何静"], [MEET]),
    ("cross_language", "晨星青年管弦乐团的音乐总监是谁？", ["Anna Kovac"], [SEASON]),
    ("cross_language", "How many people live in Lanxi Village?", ["1450"], [VIL]),
    ("cross_language", "银杉蜂业合作社有多少个蜂箱？", ["3,600", "3600"], [REP]),
    ("cross_language", "When is the audition for the Morningstar Youth Orchestra held?",
     ["2025年6月7日", "6月7日"], [CALL]),
    ("cross_language", "晨星青年管弦乐团每周什么时候排练？", ["Saturday"], [SEASON]),
    ("cross_language", "How many seats does the main hall of the Yuntai Concert Hall have?", ["1180"], [HALL]),
    ("cross_language", "银杉蜂业合作社2024年生产了多少吨蜂蜜？", ["58"], [REP]),
    ("cross_language", "When was the stone arch bridge in Lanxi Village built?", ["1921"], [VIL]),
    ("cross_language", "晨星青年管弦乐团的成人票多少钱？", ["80"], [SEASON]),
    ("cross_language", "How many violinists does the Morningstar Youth Orchestra want to recruit this year?",
     ["8"], [CALL]),
    ("cross_language", "银杉蜂业合作社的理事长是谁？", ["Zhou Li'an", "Zhou Li"], [REP]),
    ("cross_language", "When was the Silverfir cooperative's next bee-disease meeting scheduled?",
     ["2025年6月20日", "6月20日"], [MEET]),
    ("cross_language", "晨星青年管弦乐团2026年7月去哪个国家巡演？", ["Portugal"], [SEASON]),
    # the asked attribute absent, the subject present
    ("absent_attribute", "What is the phone number of the Silverfir Apiary Cooperative?", [], []),
    ("absent_attribute", "云台音乐厅的管风琴有多少根音管？", [], []),
    ("absent_attribute", "How much did the Yuntai Concert Hall cost to build?", [], []),
    ("absent_attribute", "晨星青年管弦乐团的团长是谁？", [], []),
    # bridge
    ("bridge", "In which year was the village where the Silverfir cooperative was founded given its stone bridge?",
     ["1921"], [REP, VIL]),
    ("bridge", "乐团排练的音乐厅位于哪条路？", ["东湖路"], [HALL]),
    ("bridge", "How many pupils attend the primary school of the village where the Silverfir cooperative is based?",
     ["96"], [VIL]),
    # comparison
    ("comparison", "椴树蜜和洋槐蜜哪个更贵？", ["椴树蜜"], [PRICE]),
    ("comparison", "Which was built first, the Yuntai Concert Hall or the stone arch bridge in Lanxi Village?",
     ["bridge", "石拱桥"], [HALL, VIL]),
    ("comparison", "Which honey sells for less per 500 grams, acacia honey or wildflower honey?", ["百花蜜"], [PRICE]),
    # misspelling
    ("misspelling", "Who is the music director of the Morningstarr Youth Orchestra?", ["Anna Kovac"], [SEASON]),
    ("misspelling", "云抬音乐厅有多少个座位？", ["1180"], [HALL]),
    ("misspelling", "How many hives does the Silverfur Apiary Cooperative keep?", ["3,600"], [REP]),
    # who / when / where / how many / how much
    ("who", "蜂病防治会议是谁主持的？", ["何静"], [MEET]),
    ("who", "Who arranged the folk song played as the encore at the spring concert?", ["Lin Yue"], [REVIEW]),
    ("when", "云台音乐厅是哪一年落成的？", ["2003"], [HALL]),
    ("when", "When does the Morningstar Youth Orchestra's 2025/26 season open?", ["12 September 2025"], [SEASON]),
    ("where", "蜂病防治会议在哪里召开？", ["岚溪村村委会二楼会议室", "岚溪村村委会"], [MEET]),
    ("where", "In which city is most of the cooperative's linden honey sold?", ["Hangzhou"], [REP]),
    ("how_many", "晨星青年管弦乐团这次招收几名大提琴？", ["3名", "3"], [CALL]),
    ("how_many", "How many member households did the Silverfir cooperative have at the end of 2024?",
     ["142"], [REP]),
    ("how_much", "How much did the cooperative's new bottling line cost?", ["420,000"], [REP]),
    ("how_much", "百花蜜每500克卖多少钱？", ["55"], [PRICE]),
    ("how_many", "How often must a hive be inspected in summer?", ["10 days"], [GUIDE]),
    ("when", "云台音乐厅的管风琴是哪一年安装的？", ["2011"], [HALL]),
    # unanswerable
    ("unanswerable", "Who is the mayor of Lanxi Village?", [], []),
    ("unanswerable", "晨星青年管弦乐团去年在日本演出了几场？", [], []),
]
write_questions(Path(__file__).parent, "nx", Q)
