"""Writes questions.jsonl. The split (dev/held) is fixed here, written before any run: within each category the
questions alternate dev, held, dev, ... in the order listed."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

CAT, CSV, CO, MEET = "bikes/kestrel_catalogue.pdf", "bikes/报价单.csv", "公司概况.md", "2025年度经销商大会纪要.docx"
OAK, DAL = "towns/oakmere.html", "towns/dalby.txt"
LIN, QT = "library/linden_lending_rules.docx", "library/青檀市图书馆借阅规则.pdf"
M24, M25 = "news/湖城马拉松2024.txt", "news/lakecity_marathon_2025.html"
Q = [
    # category, question, answers ([] = not found), files
    ("absent_attribute", "Tern T5的电机功率是多少？", [], []),
    ("absent_attribute", "What is the top speed of the Kestrel Vireo E2?", [], []),
    ("absent_attribute", "2025年湖城马拉松女子冠军的奖金是多少？", [], []),
    ("absent_attribute", "How much is the annual membership fee at Linden Public Library?", [], []),
    ("absent_attribute", "青檀市图书馆的馆长是哪一年上任的？", [], []),
    ("absent_attribute", "Who is the mayor of Oakmere?", [], []),
    ("bridge", "When was the town where the Tern T5 is built founded?", ["1612"], [CAT, OAK]),
    ("bridge", "What river flows through the village where the Vireo E2 is assembled?", ["Skell"], [CAT, DAL]),
    ("bridge", "How many people live in the town where Kestrel Cycles has its own factory?", ["18,300", "18300"], [OAK]),
    ("bridge", "When did the railway station open in the town where Kestrel's cargo bike is built?", ["1871"], [OAK]),
    ("bridge", "隼鸟单车自有工厂所在的镇是哪一年建立的？", ["1612"], [OAK]),
    ("bridge", "Since when has a lifeboat station operated in the village that assembles the Vireo E2?", ["1904"], [DAL]),
    ("comparison", "Which is cheaper, the Vireo E2 or the Tern T5?", ["Vireo E2"], [CSV]),
    ("comparison", "Vireo E2和Tern T5哪个续航更长？", ["Tern T5", "T5"], [CAT]),
    ("comparison", "林登公共图书馆和青檀市图书馆，哪个借期更长？", ["青檀"], [QT, LIN]),
    ("comparison", "Which Lakecity Marathon had more runners, the fifth or the sixth?", ["sixth", "15,500", "第六"], [M25]),
    ("cross_language", "How many books can a reader borrow at once from Qingtan City Library?", ["10"], [QT]),
    ("cross_language", "林登公共图书馆的学习室最多可以提前几天预约？", ["7 days", "7天"], [LIN]),
    ("cross_language", "On which day of the week is Qingtan City Library closed?", ["周一", "Monday"], [QT]),
    ("cross_language", "在林登公共图书馆补办丢失的借书卡要多少钱？", ["3 euros"], [LIN]),
    ("cross_language", "Where will Kestrel Cycles hold its next dealer conference?", ["成都", "Chengdu"], [MEET]),
    ("cross_language", "奥克米尔的火车站是哪一年启用的？", ["1871"], [OAK]),
    ("misspelling", "What is the range of the Kestral Tern T5?", ["85 km"], [CAT]),
    ("misspelling", "How much does the Vireeo E2 weigh?", ["17.5 kg"], [CAT]),
    ("misspelling", "When was Oakmeer founded?", ["1612"], [OAK]),
    ("misspelling", "青坛市图书馆每位读者最多可借几册书？", ["10册", "10"], [QT]),
    ("misspelling", "Who won the men's race at the Lakecitty Marathon in 2025?", ["Daniel Okafor"], [M25]),
    ("misspelling", "周雅芹和谁共同创办了隼鸟单车？", ["林栋"], [CO]),
    ("who", "谁主持了2025年度经销商大会？", ["郑嘉文"], [MEET]),
    ("who", "Who should questions about Linden Public Library's lending rules be sent to?", ["Agnes Whitlow"], [LIN]),
    ("who", "2024年湖城马拉松男子全程冠军是谁？", ["李卫东"], [M24]),
    ("who", "隼鸟单车现任首席执行官是谁？", ["林栋"], [CO]),
    ("when", "第五届湖城马拉松是哪天举行的？", ["2024年11月3日", "11月3日"], [M24]),
    ("when", "Tern T5什么时候在欧洲上市？", ["2025年9月1日", "9月1日"], [MEET]),
    ("when", "青檀市图书馆借阅规则从什么时候开始施行？", ["2024年10月1日"], [QT]),
    ("when", "When was the Corn Exchange in Oakmere built?", ["1790"], [OAK]),
    ("where", "Where did the 2025 Lakecity Marathon start?", ["Harbour Square"], [M25]),
    ("where", "隼鸟单车的总部在哪里？", ["滨江区", "杭州"], [CO]),
    ("where", "Where is the Vireo E2 assembled?", ["Dalby"], [CAT]),
    ("where", "2025年度经销商大会在哪里召开？", ["杭州国际博览中心"], [MEET]),
    ("how_many", "隼鸟单车有多少名员工？", ["142"], [CO]),
    ("how_many", "How many runners took part in the 2025 Lakecity Marathon?", ["15,500", "15500"], [M25]),
    ("how_many", "How many times can a loan from Linden Public Library be renewed?", ["twice"], [LIN]),
    ("how_many", "第五届湖城马拉松共有多少人参赛？", ["12000"], [M24]),
    ("how_much", "How much is the late fee per item per day at Linden Public Library?", ["0.20 euros"], [LIN]),
    ("how_much", "Tern T5的建议零售价是多少？", ["12800"], [CSV]),
    ("how_much", "What was the entry fee for the 2025 Lakecity Marathon?", ["260 yuan"], [M25]),
    ("how_much", "青檀市图书馆逾期每册每天收多少滞纳金？", ["0.1元"], [QT]),
    ("unanswerable", "How long is the swimming pool at the Linden leisure centre?", [], []),
    ("unanswerable", "湖城地铁几号线经过体育中心？", [], []),
]
write_questions(Path(__file__).parent, "nv", Q)
