"""Writes questions.jsonl. The split (dev/held) is fixed here, written before any run: within each category
the questions alternate dev, held, dev, ... in the order listed."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

P, CSV, CO, MIN, TOWN = ("products/aeroclean_datasheet.pdf", "products/价格表.csv", "公司简介.md",
                         "产品评审会议纪要.docx", "harwick.html")
TRAVEL_ZH, HAND = "hr/差旅报销制度.pdf", "hr/employee_handbook.docx"
N25, N24, GUIDE, GAZ = "news/河畔音乐节2025.html", "news/河畔音乐节2024.txt", "travel/lake_seren_guide.md", \
    "travel/port_alder_news.txt"
Q = [
    # category, question, answers ([] = not found), files
    ("absent_attribute", "明井科技的股票代码是什么？", [], []),
    ("absent_attribute", "Who is the current mayor of Harwick?", [], []),
    ("absent_attribute", "第十届河畔音乐节的门票多少钱？", [], []),
    ("absent_attribute", "How much does parking cost at Port Alder?", [], []),
    # gold corrected after the first dev run: the price table does state it (电池续航 — AeroClean A350: 无电池);
    # the split stays the one fixed up front, the category says what it is
    ("absent_attribute", "AeroClean A350的电池续航是多少？", ["无电池"], [CSV], "table"),
    ("absent_attribute", "How many weeks of parental leave does the employee handbook give?", [], []),
    ("bridge", "When was the town where the AeroClean A350 is assembled founded?", ["1847"], [P, TOWN]),
    ("bridge", "How many residents does the town with Brightwell's own assembly plant have?", ["12,400", "12400"], [P, TOWN]),
    ("bridge", "明井科技在哈威克的工厂所在的镇是哪一年获得城镇特许状的？", ["1902"], [TOWN]),
    ("bridge", "What river is the town where the A350 is assembled on?", ["Lune"], [P, TOWN]),
    ("who", "产品评审会议是谁主持的？", ["王海燕"], [MIN]),
    ("who", "Who should questions about the employee handbook be sent to?", ["Maria Lopez"], [HAND]),
    ("who", "明井科技的创始人是谁？", ["陈立群"], [CO]),
    ("who", "Which band closed the tenth Riverside music festival?", ["青石巷"], [N25]),
    ("when", "AeroClean A350的上市日期是哪天？", ["2026年5月20日", "5月20日"], [MIN]),
    ("when", "When did the electric ferry Aurora enter service?", ["12 June 2023", "June 12, 2023"], [GAZ]),
    ("when", "差旅报销制度从什么时候开始施行？", ["2025年7月1日"], [TRAVEL_ZH]),
    ("when", "When did the old textile works in Harwick close?", ["1978"], [TOWN]),
    ("where", "Where is the AeroClean A200 assembled?", ["Shenzhen", "深圳"], [P]),
    ("where", "第十届河畔音乐节在哪里举办？", ["南太湖公园"], [N25]),
    ("where", "明井科技的总部在哪里？", ["苏州工业园区", "苏州"], [CO]),
    ("where", "Where is camping allowed at Lake Seren?", ["Birchpoint"], [GUIDE]),
    ("how_many", "明井科技有多少名员工？", ["86"], [CO]),
    ("how_many", "How many passengers can the ferry Aurora carry?", ["180"], [GAZ]),
    ("how_many", "第九届河畔音乐节有多少支乐队参演？", ["24"], [N24]),
    ("how_many", "How many rooms does Seren Lodge have?", ["28"], [GUIDE]),
    ("how_much", "会议批准的A350推广预算是多少？", ["120万元", "120万"], [MIN]),
    ("how_much", "How much is an adult ferry ticket at Lake Seren?", ["12 euros", "12 euro"], [GUIDE, GAZ]),
    ("how_much", "出差期间每天的餐费补贴是多少？", ["100元"], [TRAVEL_ZH]),
    ("how_much", "What did an adult ferry ticket cost before April 2023?", ["10 euros", "10 euro"], [GAZ]),
    ("table", "AeroClean A350的交货周期是多久？", ["10天"], [CSV]),
    ("table", "AeroMini M7的电池续航是多少？", ["12小时"], [CSV]),
    ("table", "What is the warranty period of the AeroClean A350?", ["3年", "3 years"], [CSV]),
    ("table", "AeroMini M5的零售价是多少？", ["699元", "699"], [CSV]),
    ("cross_language", "Who chaired the A350 product review meeting?", ["王海燕"], [MIN]),
    ("cross_language", "员工每周最多可以在家办公几天？", ["two days", "2 days", "两天"], [HAND]),
    ("cross_language", "What is the hotel limit per night in a second-tier city?", ["450元", "450"], [TRAVEL_ZH]),
    ("cross_language", "新员工的试用期是多长？", ["three months", "3 months", "三个月"], [HAND]),
    ("comparison", "Which is cheaper, the AeroMini M5 or the AeroMini M7?", ["AeroMini M5", "M5"], [CSV]),
    ("comparison", "AeroMini M5和M7哪个电池续航更长？", ["M7"], [CSV]),
    ("comparison", "Which is quieter at night, the AeroClean A200 or the A350?", ["A200"], [P]),
    ("comparison", "第九届和第十届河畔音乐节哪一届观众更多？", ["第十届", "3.2万"], [N25, N24]),
    ("misspelling", "How much does the Aeroclean A530 weigh?", [], []),
    ("misspelling", "What is the CADR of the Aero Clean A350?", ["350"], [P]),
    ("misspelling", "How tall is Mount Corvinn?", ["2,114", "2114"], [GUIDE]),
    ("misspelling", "Who runs the assembly plant in Harwik?", ["Brightwell"], [TOWN]),
    ("date", "2024年河畔音乐节有多少观众？", ["2.6万"], [N24]),
    ("date", "2025年河畔音乐节吸引了多少观众？", ["3.2万"], [N25]),
    ("date", "What did the ferry company do in April 2023?", ["12 euros", "raised"], [GAZ]),
    ("date", "2025年底明井科技有多少研发人员？", ["31"], [CO]),
    ("unanswerable", "What is the capital of Australia?", [], []),
    ("unanswerable", "明井科技2025年的营业收入是多少？", [], []),
    ("unanswerable", "Who won the 2022 football World Cup?", [], []),
    ("unanswerable", "湖州市文旅局局长是谁？", [], []),
]
write_questions(Path(__file__).parent, "nu", Q)
