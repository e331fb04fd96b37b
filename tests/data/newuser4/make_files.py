"""Writes the fourth new-user trial's files (tests/data/newuser4/files/) the way a user's own tools would: PDFs
with reportlab (one English, one Chinese with a CID font), DOCX with python-docx, CSV, Markdown, HTML and plain
text. Two invented domains no other set uses: a beekeeping cooperative (银杉蜂业合作社 / Silverfir Apiary
Cooperative) in a mountain village, and a youth orchestra (晨星青年管弦乐团 / Morningstar Youth Orchestra) with
its concert hall. Names are TRANSLATED (银杉 / Silverfir, 晨星 / Morningstar) or TRANSLITERATED (岚溪村 / Lanxi
Village, 云台音乐厅 / Yuntai Concert Hall, 何静 / He Jing). Only the cooperative's English report states its
pair in brackets; the orchestra's pair is stated nowhere.

Run from the repository root: ``.venv/bin/python tests/data/newuser4/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("apiary", "orchestra"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    # --- domain 1: a beekeeping cooperative in a mountain village
    pdf(OUT / "apiary" / "silverfir_annual_report_2024.pdf", "Silverfir Apiary Cooperative — annual report 2024", [
        "The Silverfir Apiary Cooperative (银杉蜂业合作社) was founded in 2009 in Lanxi Village. Its chairman "
        "is Zhou Li'an.",
        "At the end of 2024 the cooperative had 142 member households keeping 3,600 hives between them.",
        "In 2024 the members produced 58 tonnes of honey, most of it linden honey sold in Hangzhou.",
        "A new bottling line was bought in 2024 for 420,000 yuan.",
    ], cjk=True)  # a CID font: the bracketed Chinese name must survive in the PDF
    csv_file(OUT / "apiary" / "蜂蜜品种与价格.csv", [
        ["品种", "采蜜季节", "每500克零售价", "2024年产量"],
        ["椴树蜜", "7月", "98元", "31吨"],
        ["洋槐蜜", "5月", "76元", "19吨"],
        ["百花蜜", "4月至9月", "55元", "8吨"],
    ])
    docx(OUT / "apiary" / "2025年春季蜂病防治会议纪要.docx", "银杉蜂业合作社2025年春季蜂病防治会议纪要", [
        ("p", "时间：2025年3月12日　地点：岚溪村村委会二楼会议室"),
        ("p", "主持人：何静（技术主管）"),
        ("p", "出席：社员代表及防疫员共23人。"),
        ("h", "会议决定"),
        ("p", "一、自2025年4月1日起，所有蜂箱每月检查一次瓦螨。"),
        ("p", "二、合作社向每户免费发放两套防护服。"),
        ("p", "三、下一次会议定于2025年6月20日召开。"),
    ])
    (OUT / "apiary" / "hive_inspection_guide.md").write_text(
        "# Hive inspection guide for member households\n\n"
        "In summer every hive is opened and inspected once every 10 days; in winter the hives stay closed.\n\n"
        "Wear a veil and gloves, and light the smoker before lifting the lid. Record each inspection in the "
        "hive log under the hive's code, for example SF-0715.\n\n"
        "A frame with more than five capped queen cells must be reported to the technical supervisor within "
        "two days.\n", encoding="utf-8")
    (OUT / "apiary" / "岚溪村简介.html").write_text(
        "<html><head><meta charset=\"utf-8\"><title>岚溪村简介</title></head><body>"
        "<h1>岚溪村简介</h1>"
        "<p>岚溪村位于海拔860米的山谷中，全村常住人口1450人，以养蜂和茶叶为主要产业。</p>"
        "<p>村口的石拱桥建于1921年，桥边有一棵树龄约三百年的古银杉。</p>"
        "<p>村里的岚溪小学现有学生96名。</p>"
        "</body></html>", encoding="utf-8")

    # --- domain 2: a youth orchestra and its concert hall
    docx(OUT / "orchestra" / "morningstar_season_2025.docx", "Morningstar Youth Orchestra — 2025/26 season", [
        ("p", "The Morningstar Youth Orchestra was founded in 2014. Its 72 musicians are between 12 and 21 years "
              "old. The music director is Anna Kovac."),
        ("p", "The orchestra rehearses every Saturday afternoon at the Yuntai Concert Hall."),
        ("p", "The season opens on 12 September 2025 with Dvořák's Ninth Symphony. Adult tickets cost 80 yuan; "
              "students pay 30 yuan."),
        ("p", "In July 2026 the orchestra will tour three cities in Portugal."),
    ])
    pdf(OUT / "orchestra" / "晨星青年管弦乐团2025年招新通知.pdf", "晨星青年管弦乐团2025年招新通知", [
        "晨星青年管弦乐团成立于2014年，现面向社会招收新团员，年龄须在12至21岁之间。",
        "本次招收小提琴8名、大提琴3名、圆号2名。",
        "面试定于2025年6月7日在云台音乐厅排练室举行，每位考生须准备两首不同风格的作品。",
        "报名截止日期为2025年5月25日，报名不收取费用。",
    ], cjk=True)
    (OUT / "orchestra" / "云台音乐厅.txt").write_text(
        "云台音乐厅\n\n"
        "云台音乐厅位于东湖路18号，于2003年落成，主厅共有1180个座位。"
        "大厅内的管风琴由德国工厂制造，于2011年安装。"
        "音乐厅每周一闭馆，其余日子上午10点开放参观。\n",
        encoding="utf-8")
    (OUT / "orchestra" / "spring_concert_review.txt").write_text(
        "Spring concert review\n\n"
        "The young players closed their spring concert on 19 April 2025 with Sibelius's Finlandia. The hall "
        "was sold out, and the encore, a folk song arranged by the cellist Lin Yue, was played twice.\n\n"
        "观众留言：\n“乐团的弦乐声部进步很大，期待秋季音乐会。”\n",
        encoding="utf-8")


if __name__ == "__main__":
    main()
