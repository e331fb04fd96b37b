"""Writes questions.jsonl. The split (dev/held) is fixed here, written before any run: within each category the
questions alternate dev, held, dev, ... in the order listed."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

FLEET, FARE, MEET, WINTER = ("ferry/donglan_fleet_guide.pdf", "ferry/票价表.csv",
                             "ferry/2025年第三季度安全例会纪要.docx", "ferry/winter_timetable_notice.txt")
QY, SM = "islands/qingyu_island.html", "islands/石门岛简介.txt"
HB, FEE, BR = ("clinic/brightpaw_client_handbook.docx", "clinic/明爪宠物医院2025年收费标准.pdf",
               "clinic/滨湖分院开业.md")
Q = [
    # category, question, answers ([] = not found), files
    ("absent_attribute", "What is the top speed of the Haiyan?", [], []),
    ("absent_attribute", "明爪宠物医院的电话号码是多少？", [], []),
    ("absent_attribute", "How much does it cost to take a car on the Haiyan?", [], []),
    ("absent_attribute", "石门岛的最高峰有多高？", [], []),
    ("absent_attribute", "When was Donglan Shipping founded?", [], []),
    ("absent_attribute", "青屿岛灯塔有多高？", [], []),
    ("bridge", "When was the lighthouse built on the island the Haiyan sails to?", ["1903"], [FLEET, QY]),
    ("bridge", "How many people live on the island served by the Lanjing?", ["860"], [SM]),
    ("bridge", "海燕号开往的岛上主要村庄叫什么？", ["Nanwan"], [QY]),
    ("bridge", "When was the primary school founded on the island the Lanjing sails to?", ["1958"], [SM]),
    ("comparison", "Which is cheaper, the ferry to Qingyu Island or the ferry to Shimen Island?",
     ["石门", "Shimen"], [FARE]),
    ("comparison", "海燕号和蓝鲸号哪艘船载客更多？", ["海燕", "Haiyan"], [FLEET]),
    ("comparison", "Which island has more residents, Qingyu or Shimen?", ["Qingyu", "青屿"], [QY, SM]),
    ("comparison", "猫绝育和洁牙哪个更贵？", ["洁牙"], [FEE]),
    ("comparison", "Which lighthouse is older, the Qingyu Lighthouse or the Shimen lighthouse?",
     ["Qingyu", "青屿"], [QY, SM]),
    ("comparison", "Which ship is newer, the Haiyan or the Lanjing?", ["Lanjing"], [FLEET]),
    ("cross_language", "How much does a dental cleaning cost at Brightpaw Veterinary Clinic?", ["900"], [FEE]),
    ("cross_language", "明爪宠物医院星期几不开门？", ["Sunday"], [HB]),
    ("cross_language", "Who chaired Donglan Shipping's third-quarter safety meeting?", ["陈海峰"], [MEET]),
    ("cross_language", "明爪宠物医院最多可以提前几天预约？", ["14"], [HB]),
    ("cross_language", "How many hours must a pet fast before a dental cleaning at Brightpaw?", ["12"], [FEE]),
    ("cross_language", "青屿岛的灯塔是哪一年建成的？", ["1903"], [QY]),
    ("cross_language", "How many residents does Shimen Island have?", ["860"], [SM]),
    ("cross_language", "蓝鲸号的最高航速是多少？", ["32"], [FLEET]),
    ("cross_language", "Which ship replaces the Haiyan while she is in dry dock?", ["远帆"], [MEET]),
    ("misspelling", "How fast is the Lanjng catamaran?", ["32"], [FLEET]),
    ("misspelling", "When was the lighthouse on Qingyou Island built?", ["1903"], [QY]),
    ("misspelling", "Who founded Brightpaws Veterinary Clinic?", ["Tomas Reyes"], [HB]),
    ("misspelling", "石们岛常住人口有多少？", ["860"], [SM]),
    ("misspelling", "明抓宠物医院的狂犬疫苗每针多少钱？", ["80"], [FEE]),
    ("misspelling", "How many passengers can the Hayan carry?", ["480"], [FLEET]),
    ("who", "谁主持了东岚航运第三季度安全例会？", ["陈海峰"], [MEET]),
    ("who", "Who is the head veterinarian at Brightpaw Veterinary Clinic?", ["Helen Marsh"], [HB]),
    ("who", "明爪宠物医院滨湖分院的院长是谁？", ["苏婉清"], [BR]),
    ("who", "Who is the master of the Haiyan?", ["Wei Dongsheng"], [FLEET]),
    ("when", "明爪宠物医院2025年收费标准从哪天起执行？", ["2025年3月1日"], [FEE]),
    ("when", "When was Brightpaw Veterinary Clinic founded?", ["2011"], [HB]),
    ("when", "东岚航运下一次安全例会定在什么时候？", ["2025年10月14日", "10月14日"], [MEET]),
    ("when", "When does Donglan Shipping's winter timetable begin?", ["1 December 2024"], [WINTER]),
    ("where", "东岚航运第三季度安全例会在哪里召开？", ["白沙港客运站三楼会议室", "白沙港客运站"], [MEET]),
    ("where", "Where was the Haiyan built?", ["Ningbo"], [FLEET]),
    ("where", "明爪宠物医院的第二家分院开在哪里？", ["滨湖区"], [BR]),
    ("how_many", "How many cars can the Haiyan carry?", ["60"], [FLEET]),
    ("how_many", "白沙港到青屿岛每天有几班船？", ["6班", "6"], [FARE]),
    ("how_many", "How many students does the primary school on Shimen Island have?", ["41"], [SM]),
    ("how_many", "滨湖分院有几名兽医？", ["6名", "6"], [BR]),
    ("how_much", "What is the adult fare from Baisha Port to Qingyu Island?", ["68"], [FARE]),
    ("how_much", "猫绝育手术多少钱？", ["650"], [FEE]),
    ("how_much", "How much is the fee for cancelling a Brightpaw appointment late?", ["50 yuan"], [HB]),
    ("how_much", "How much luggage may a Donglan Shipping passenger bring for free?", ["20 kg"], [FLEET]),
    ("date", "How many times a day did the Haiyan sail in January 2025?", ["four", "4"], [WINTER]),
    ("date", "明爪宠物医院是2024年几月开设第二家分院的？", ["9月"], [BR]),
    ("unanswerable", "How many students attend Maple Hill School?", [], []),
    ("unanswerable", "白沙港渔业局局长是谁？", [], []),
]
write_questions(Path(__file__).parent, "nw", Q)
