"""Writes the second new-user trial's files (tests/data/newuser2/files/) the way a user's own tools would: PDFs
with reportlab (one English, one Chinese with a CID font), DOCX with python-docx, CSV, Markdown, HTML and plain
text. All content is invented; none of it was seen by the project before this set was written.

Run from the repository root: ``.venv/bin/python tests/data/newuser2/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("bikes", "towns", "library", "news"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    # --- domain 1: an e-bike maker (Kestrel Cycles / 隼鸟单车) and the towns it builds in
    pdf(OUT / "bikes" / "kestrel_catalogue.pdf", "Kestrel Cycles model catalogue 2025", [
        "Kestrel Cycles builds electric bicycles for commuters and small businesses.",
        "The Kestrel Vireo E2 is a folding e-bike with a range of 60 km on one charge and a 36 V battery. "
        "It weighs 17.5 kg. The Vireo E2 is assembled in Dalby by a partner workshop.",
        "The Kestrel Tern T5 is a cargo bike that carries loads of up to 120 kg and has a range of 85 km. "
        "The Tern T5 is built at Kestrel's own factory in Oakmere.",
        "Both models charge with the KC-48 charger, which fills an empty battery in about four hours.",
    ])
    csv_file(OUT / "bikes" / "报价单.csv", [
        ["型号", "建议零售价", "电池容量", "质保期", "颜色"],
        ["Kestrel Vireo E2", "5980元", "10Ah", "2年", "灰色/白色"],
        ["Kestrel Tern T5", "12800元", "17Ah", "3年", "墨绿色"],
        ["Kestrel Pico", "1999元", "无电池", "1年", "红色"],
    ])
    (OUT / "公司概况.md").write_text(
        "# 隼鸟单车公司概况\n\n"
        "杭州隼鸟单车有限公司（英文名 Kestrel Cycles）成立于2016年，总部位于杭州市滨江区江南大道。"
        "公司由周雅琴和她的大学同学林栋共同创办，现任首席执行官为林栋。\n\n"
        "## 生产\n\n公司在英国奥克米尔（Oakmere）设有自己的工厂，货运车型在那里组装；折叠车型由合作工坊组装。\n\n"
        "## 团队\n\n截至2025年6月，公司共有员工142人，其中工程师47人。\n",
        encoding="utf-8")
    docx(OUT / "2025年度经销商大会纪要.docx", "2025年度经销商大会会议纪要", [
        ("p", "时间：2025年3月14日　地点：杭州国际博览中心"),
        ("p", "主持人：郑嘉文（销售副总裁）"),
        ("p", "出席：全国及欧洲经销商代表共63家。"),
        ("h", "会议决定"),
        ("p", "一、Tern T5 货运车将于2025年9月1日在欧洲上市。"),
        ("p", "二、经销商返点由5%提高到7%，自2025年4月起执行。"),
        ("p", "三、下一届经销商大会将在成都举行。"),
    ])
    (OUT / "towns" / "oakmere.html").write_text(
        "<!doctype html><html><head><title>Oakmere — town guide</title></head><body>"
        "<h1>Oakmere</h1>"
        "<p>Oakmere is a market town on the River Wend in the county of Eastholm. It was founded in 1612 as a "
        "wool market and received its borough charter in 1688.</p>"
        "<p>The town has a population of 18,300 (2021 census). Its railway station opened in 1871.</p>"
        "<p>The best-known landmark is the Corn Exchange, built in 1790 and now an arts centre. Since 2019 the "
        "largest employer has been the Kestrel Cycles factory on Mill Lane.</p>"
        "</body></html>", encoding="utf-8")
    (OUT / "towns" / "dalby.txt").write_text(
        "Dalby\n\n"
        "Dalby is a fishing village at the mouth of the River Skell, on the Eastholm coast. It was first recorded "
        "in 1538. About 2,150 people live there. The village hall hosts a partner workshop that assembles "
        "folding bicycles, and a lifeboat station has operated from the harbour since 1904.\n",
        encoding="utf-8")

    # --- domain 2: two libraries' lending rules
    docx(OUT / "library" / "linden_lending_rules.docx", "Linden Public Library — lending rules", [
        ("p", "Members may borrow up to 12 items at a time. The loan period is 21 days, and a loan can be "
              "renewed twice."),
        ("p", "Late returns cost 0.20 euros per item per day, up to 5 euros per item."),
        ("p", "Replacing a lost library card costs 3 euros."),
        ("p", "Study rooms can be booked up to 7 days ahead, for at most three hours a day."),
        ("p", "Children under 14 need a parent's or guardian's signature to join."),
        ("p", "Questions about these rules go to the head librarian, Agnes Whitlow."),
    ])
    pdf(OUT / "library" / "青檀市图书馆借阅规则.pdf", "青檀市图书馆借阅规则", [
        "每位读者最多可借图书10册，借期30天，可续借一次。",
        "逾期归还的图书，每册每天收取滞纳金0.1元。",
        "开放时间为周二至周日9:00至21:00，每周一闭馆。",
        "本馆馆长为宋明远。本规则自2024年10月1日起施行。",
    ], cjk=True)

    # --- domain 3: a city marathon in two years (zh and en)
    (OUT / "news" / "湖城马拉松2024.txt").write_text(
        "第五届湖城马拉松顺利举行\n\n"
        "2024年11月3日，第五届湖城马拉松在湖城体育中心鸣枪起跑，共有12000人参赛。"
        "男子全程冠军由李卫东以2小时11分08秒获得，女子全程冠军是王芳。"
        "组委会表示，赛道沿途设置了18个补给站。\n",
        encoding="utf-8")
    (OUT / "news" / "lakecity_marathon_2025.html").write_text(
        "<html><head><title>Record field at the sixth Lakecity Marathon</title></head><body>"
        "<p>The sixth Lakecity Marathon was run on 2 November 2025 with 15,500 runners, the largest field so far. "
        "The start moved from the sports centre to Harbour Square.</p>"
        "<p>Daniel Okafor won the men's race in 2:09:41; Chen Xiao won the women's race in 2:27:05.</p>"
        "<p>The entry fee was 260 yuan, up from 220 yuan the year before.</p>"
        "</body></html>", encoding="utf-8")


if __name__ == "__main__":
    main()
