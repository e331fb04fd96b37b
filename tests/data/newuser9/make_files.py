"""Writes the ninth new-user trial's files (tests/data/newuser9/files/): the everyday papers of one invented small
team, a design studio (青禾设计工作室 / Qinghe Design Studio) — a Chinese DOCX policy, an English HTML policy, a
Markdown runbook in each language, a CSV of staff (English) and of equipment prices (Chinese), and a plain-text
incident log in each language. No other set uses this domain. The DOCX is written ``stable`` (the same bytes on
every run).

Run from the repository root: ``.venv/bin/python tests/data/newuser9/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("policy", "ops", "staff", "incidents"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    docx(OUT / "policy" / "青禾设计远程办公制度.docx", "青禾设计工作室远程办公制度", [
        ("p", "本制度自2026年3月1日起施行，适用于青禾设计工作室全体正式员工。"),
        ("h", "一、远程办公的天数"),
        ("p", "员工每周最多可远程办公3天，周三为全员到岗日，不得远程办公。"),
        ("h", "二、申请方式"),
        ("p", "远程办公须提前一个工作日在团队群内报备，并抄送直属主管。"),
        ("h", "三、设备补贴"),
        ("p", "工作室为远程办公的员工提供家庭网络与设备补贴，每人每年1200元，随十二月工资发放。"),
        ("p", "本制度由行政主管罗敏负责解释。"),
    ], stable=True)
    (OUT / "policy" / "expense_policy.html").write_text(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Qinghe Design Studio — Travel and expense "
        "policy</title></head><body><h1>Travel and expense policy</h1>"
        "<p>This policy was approved by Priya Nair, the studio's finance lead, in January 2026.</p>"
        "<h2>Meals and taxis</h2>"
        "<p>On a business trip each employee receives a meal allowance of 60 yuan per day. A taxi home is "
        "reimbursed when the employee leaves the office after 22:00.</p>"
        "<h2>Claims</h2>"
        "<p>Expense claims must be submitted within 30 days of the trip, with the original receipts attached. "
        "Claims over 5,000 yuan also need the studio director's signature.</p>"
        "</body></html>\n", encoding="utf-8")

    (OUT / "ops" / "backup_runbook.md").write_text(
        "# Runbook: nightly backup of the file server\n\n"
        "The studio's drawings live on the file server **nas-02**.\n\n"
        "## Schedule\n\n"
        "The backup job starts every night at 02:15 and copies changed files to the offsite bucket. "
        "Copies are kept for 35 days, then deleted automatically.\n\n"
        "## When the job fails\n\n"
        "1. Check the job log at `/var/log/nasbackup.log`.\n"
        "2. If the disk is full, remove the oldest render caches first.\n"
        "3. Re-run the job by hand with `nasbackup --now`.\n"
        "4. Tell Tomás Reyes, who owns the backup, by 09:00 the next morning.\n", encoding="utf-8")
    (OUT / "ops" / "打印机故障处理.md").write_text(
        "# 打印机故障处理手册\n\n"
        "工作室二楼的彩色打印机型号为 Konica C300i。\n\n"
        "## 常见故障代码\n\n"
        "- E05：纸盒卡纸，打开右侧盖板取出纸张。\n"
        "- E12：碳粉不足，请更换对应颜色的碳粉盒。\n"
        "- E27：定影器过热，关机冷却二十分钟后再开机。\n\n"
        "碳粉盒存放在前台左侧的柜子里。无法自行解决时联系行政助理何晓雯。\n", encoding="utf-8")

    csv_file(OUT / "staff" / "staff.csv", [
        ["Name", "Role", "Extension", "Started"],
        ["Lena Okafor", "Senior designer", "214", "2019-04-01"],
        ["Tomás Reyes", "IT administrator", "230", "2021-09-15"],
        ["罗敏", "Office manager", "201", "2017-06-05"],
        ["Priya Nair", "Finance lead", "207", "2022-01-10"],
        ["何晓雯", "Admin assistant", "202", "2024-08-19"],
    ])
    csv_file(OUT / "staff" / "设备价格表.csv", [
        ["设备", "型号", "单价（元）", "供应商"],
        ["27英寸显示器", "Dell U2724D", "1899", "京东企业购"],
        ["数位板", "Wacom Intuos Pro M", "2599", "京东企业购"],
        ["笔记本电脑", "ThinkPad X1 Carbon", "9999", "联想官方"],
        ["降噪耳机", "Sony WH-1000XM5", "2299", "京东企业购"],
    ])

    (OUT / "incidents" / "incident_log.txt").write_text(
        "Qinghe Design Studio — IT incident log, first quarter of 2026\n\n"
        "2026-02-03 09:40  nas-02 reported its disk full; the nightly backup had not run. Tomás Reyes removed "
        "old render caches and the backup was re-run. Resolved at 11:05.\n\n"
        "2026-02-17 14:10  Wi-Fi outage on the third floor. The access point was restarted; the outage lasted "
        "45 minutes.\n\n"
        "2026-03-09 10:25  A phishing e-mail claiming to be from the bank reached four designers. Nobody "
        "clicked the link. Reported by Lena Okafor.\n", encoding="utf-8")
    (OUT / "incidents" / "2026年1月机房停电记录.txt").write_text(
        "青禾设计工作室机房停电记录\n\n"
        "2026年1月19日下午14时20分，机房突然停电，UPS接管供电。市电于15时12分恢复，停电共持续52分钟。\n\n"
        "停电期间nas-02与交换机运行正常，没有数据丢失。当日值班人为吴海峰。\n\n"
        "事后决定：UPS电池于2026年4月前更换。\n", encoding="utf-8")


if __name__ == "__main__":
    main()
