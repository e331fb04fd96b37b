"""Writes the tenth new-user trial's files (tests/data/newuser10/files/): the everyday papers of one invented small
organisation, a community radio station (潮汐社区电台 / Tidewell Community Radio) — a Chinese DOCX volunteer-shift
policy, an English HTML sponsorship policy, an English Markdown night-desk how-to and a Chinese Markdown
equipment-loan guide, an English programme-schedule CSV and a Chinese equipment-price CSV, an English plain-text
transmitter log and a Chinese PDF of the annual station meeting's minutes. No other set uses this domain. The DOCX
and the PDF are written ``stable`` (the same bytes on every run).

Run from the repository root: ``.venv/bin/python tests/data/newuser10/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("policy", "howto", "tables", "logs"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    docx(OUT / "policy" / "潮汐电台志愿者值班制度.docx", "潮汐社区电台志愿者值班制度", [
        ("p", "本制度自2025年9月1日起施行，适用于潮汐社区电台的全体志愿者。"),
        ("h", "一、值班时长"),
        ("p", "每名志愿者每月至少值班两次，每次值班不超过四小时。夜间值班从22:00开始，到次日2:00结束。"),
        ("h", "二、钥匙与押金"),
        ("p", "首次值班的志愿者须向台务办公室缴纳钥匙押金150元，退出志愿者队伍时全额退还。"),
        ("h", "三、请假"),
        ("p", "不能按时值班的志愿者须至少提前48小时在值班群内说明，并自行找人替班。"),
        ("p", "本制度由台长沈秋禾负责解释。"),
    ], stable=True)
    (OUT / "policy" / "sponsorship_policy.html").write_text(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Tidewell Community Radio — Sponsorship "
        "policy</title></head><body><h1>Sponsorship policy</h1>"
        "<p>Tidewell Community Radio accepts sponsorship from local businesses only. This policy was adopted by "
        "the station board in March 2025.</p>"
        "<h2>Rates</h2>"
        "<p>A 20-second sponsor credit read on air costs 45 pounds. A month-long sponsorship of one weekly "
        "programme costs 320 pounds.</p>"
        "<h2>Approval</h2>"
        "<p>Every sponsor credit must be approved by the programme director, Imogen Pardew, before it is "
        "broadcast. Political parties and betting companies may not sponsor any programme.</p>"
        "</body></html>\n", encoding="utf-8")

    (OUT / "howto" / "night_desk.md").write_text(
        "# How to run the studio desk on a night shift\n\n"
        "The night shift runs the automated playout from Studio B.\n\n"
        "## When the stream goes silent\n\n"
        "1. Look at the silence alarm on the desk: a red lamp means no audio for more than 30 seconds.\n"
        "2. Press the FALLBACK key to switch to the jukebox playlist.\n"
        "3. If the stream is still silent after two minutes, restart the encoder box labelled ENC-2.\n"
        "4. Call the engineer on duty, Bartholomew Okafor, on the studio mobile.\n\n"
        "## Before you leave\n\n"
        "Lock Studio B and leave the key in the grey key safe; the safe code changes on the first Monday of "
        "each month.\n", encoding="utf-8")
    (OUT / "howto" / "设备借用指南.md").write_text(
        "# 外采设备借用指南\n\n"
        "电台的外采设备存放在二楼器材室，由器材管理员韦嘉宁统一管理。\n\n"
        "## 借用流程\n\n"
        "1. 在借用登记本上写明姓名、设备编号和归还日期。\n"
        "2. 便携录音机每次最多借用5天，无线话筒每次最多借用3天。\n"
        "3. 逾期归还的，每逾期一天暂停借用资格一周。\n\n"
        "## 损坏赔偿\n\n"
        "借用期间设备损坏的，按维修费用的一半赔偿，最高不超过800元。\n", encoding="utf-8")

    csv_file(OUT / "tables" / "programme_schedule.csv", [
        ["programme", "host", "day", "start", "minutes"],
        ["Harbour Morning", "Delphine Ashcroft", "Monday", "07:00", "120"],
        ["Allotment Hour", "Rufus Tennant", "Wednesday", "18:00", "60"],
        ["Tidewell Jazz Cellar", "Marguerite Lyle", "Friday", "21:00", "90"],
        ["Kids' Story Boat", "Ossian Fairley", "Saturday", "09:30", "45"],
        ["Sunday Request Show", "Delphine Ashcroft", "Sunday", "16:00", "120"],
    ])
    csv_file(OUT / "tables" / "器材价格表.csv", [
        ["器材", "型号", "数量", "单价（元）", "购入年份"],
        ["便携录音机", "Zoom H5", "4", "2100", "2023"],
        ["无线话筒", "Rode Wireless GO II", "3", "1850", "2024"],
        ["监听耳机", "Sony MDR-7506", "6", "760", "2022"],
        ["调音台", "Yamaha MG12XU", "1", "3400", "2021"],
    ])

    (OUT / "logs" / "transmitter_log.txt").write_text(
        "Tidewell Community Radio - transmitter log, Gullhead mast (FM 104.3)\n\n"
        "2025-10-04 03:12  Carrier dropped for 7 minutes during the storm; came back by itself. Logged by Okafor.\n"
        "2025-11-18 14:40  Replaced the cooling fan of the exciter; the old fan was seized. Part cost 64 pounds.\n"
        "2026-01-09 06:05  Power cut at the mast site for 2 hours; the backup generator did not start because its "
        "battery was flat. New battery fitted on 2026-01-12.\n"
        "2026-02-21 22:30  Audio processor reset after a firmware update; no outage.\n", encoding="utf-8")

    pdf(OUT / "logs" / "2025年度台务会议纪要.pdf", "潮汐社区电台2025年度台务会议纪要", [
        "时间：2025年12月6日下午两点。地点：电台一楼会议室。",
        "主持人：沈秋禾（台长）。记录人：韦嘉宁。出席人数：14人。",
        "一、会议通报，2025年电台共播出节目1,046小时，新增志愿者11名。",
        "二、会议决定，2026年起把夜间节目《潮声夜话》从每周一次增加到每周两次，由志愿者聂小满主持。",
        "三、会议同意，用社区基金会的资助款9,600元更换Gullhead发射塔的备用发电机。",
        "四、下一次台务会议定于2026年6月召开。",
    ], cjk=True, stable=True)


if __name__ == "__main__":
    main()
