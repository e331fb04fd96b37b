"""Writes questions.jsonl (14 questions, written before any run; 4 of them, about 30 %, held aside: the split is
fixed here, by hand, spread over the kinds)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import write_questions  # after the path

REMOTE, EXPENSE = "policy/青禾设计远程办公制度.docx", "policy/expense_policy.html"
BACKUP, PRINTER = "ops/backup_runbook.md", "ops/打印机故障处理.md"
STAFF, PRICES = "staff/staff.csv", "staff/设备价格表.csv"
LOG, POWER = "incidents/incident_log.txt", "incidents/2026年1月机房停电记录.txt"
Q = [
    # category, question, answers ([] = not found), files, split
    ("who", "Who fixed the problem when nas-02 ran out of disk space?", ["Tomás Reyes", "Tomas Reyes"], [LOG], "dev"),
    ("when", "机房是哪一天停的电？", ["1月19日", "2026-01-19"], [POWER], "dev"),
    ("how_much", "一台27英寸显示器多少钱？", ["1899"], [PRICES], "held"),
    ("table_cell", "What is Lena Okafor's phone extension?", ["214"], [STAFF], "dev"),
    ("cross_language", "How many days a week can an employee work from home?", ["3天", "3 days", "three"], [REMOTE],
     "dev"),
    ("cross_language", "出差时每天的餐费补贴是多少钱？", ["60"], [EXPENSE], "dev"),
    ("how", "What time does the nightly backup of nas-02 start?", ["02:15", "2:15"], [BACKUP], "held"),
    ("what", "打印机屏幕上出现E12代表什么？", ["碳粉不足"], [PRINTER], "dev"),
    ("cross_language", "How long did the power cut in the server room last?", ["52"], [POWER], "dev"),
    ("cross_language", "差旅报销制度是谁批准的？", ["Priya Nair"], [EXPENSE], "held"),
    ("not_found", "What is the password of the third-floor Wi-Fi?", [], [], "dev"),
    ("not_found", "机房那次停电是什么原因造成的？", [], [], "dev"),
    ("not_found", "打印机的保修期到什么时候？", [], [], "held"),
    ("not_found", "How much is the taxi allowance per ride?", [], [], "dev"),
]
write_questions(Path(__file__).parent, "nz", [q[:4] for q in Q],
                held={f"nz{i:02d}" for i, q in enumerate(Q, start=1) if q[4] == "held"})
