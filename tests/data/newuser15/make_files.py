"""Writes the fifteenth new-user trial's files (tests/data/newuser15/files/): the everyday papers of one invented
small animal rescue (北坡街流浪动物救助站 / Northslope Street Animal Rescue), saved the way a user's own tools save
them — an English PDF of foster-carer terms, a Chinese DOCX of the adoption fees whose amounts are a Word table, an
English volunteer-rota CSV with a byte-order mark (Excel's "CSV UTF-8"), a Chinese vet-visit CSV in GBK (Excel on a
Chinese Windows), a Chinese Markdown FAQ, an English HTML page of the shelter's opening and staff, a Chinese
plain-text feeding note (UTF-8, CRLF) and an English plain-text incident note. No other set uses this domain. The
DOCX and the PDF are written ``stable`` (the same bytes on every run).

Run from the repository root: ``.venv/bin/python tests/data/newuser15/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("policies", "tables", "notes", "web"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    pdf(OUT / "policies" / "foster_terms.pdf", "Northslope Street Animal Rescue: terms for foster carers", [
        "These terms were adopted by the trustees in February 2026 and apply to every foster placement.",
        "A foster carer must be at least 21 years old and must not keep more than two foster animals at once.",
        "The rescue pays for all food, litter and vet treatment; carers claim costs back from the treasurer, "
        "Benedikt Halloran, within 30 days of the receipt.",
        "Kittens under eight weeks are placed only with carers who have finished the bottle-feeding course run "
        "by our senior nurse, Ines Carvalho.",
        "A carer who wants to end a placement gives the rescue 14 days' notice so that another home can be found.",
    ], stable=True)
    docx(OUT / "policies" / "领养费用说明.docx", "北坡街流浪动物救助站领养费用说明", [
        ("p", "本说明自2026年5月1日起执行，由站长覃素梅负责解释。领养费用于疫苗、驱虫和绝育手术。"),
        ("h", "一、费用标准"),
        ("t", [["动物", "领养费（元）", "已含项目", "备注"],
               ["成年猫", "300", "绝育、三联疫苗", "一岁以上"],
               ["幼猫", "400", "三联疫苗、驱虫", "绝育券另发"],
               ["成年犬", "500", "绝育、狂犬疫苗", "须有院子或每天遛两次"],
               ["老年犬", "100", "体检", "八岁以上"]]),
        ("h", "二、退养"),
        ("p", "领养后三十天内因不适应而退回的，退还领养费的一半。"),
    ], stable=True)

    csv_file(OUT / "tables" / "volunteer_rota.csv", [
        ["day", "shift", "volunteer", "task"],
        ["Monday", "morning", "Callum Oyelaran", "cleaning the cat room"],
        ["Tuesday", "evening", "Maren Solberg", "dog walking"],
        ["Thursday", "morning", "Yusuf Demirel", "laundry and bowls"],
        ["Saturday", "afternoon", "Maren Solberg", "adoption open day"],
    ], encoding="utf-8-sig")
    csv_file(OUT / "tables" / "2026年就诊记录.csv", [
        ["日期", "动物", "诊所", "项目", "费用（元）", "送诊人"],
        ["2026-02-11", "橘猫阿福", "青松宠物医院", "绝育", "680", "覃素梅"],
        ["2026-03-02", "黑犬豆豆", "青松宠物医院", "拔牙", "1150", "罗一鸣"],
        ["2026-04-19", "三花猫小雪", "河畔动物诊所", "皮肤真菌", "320", "罗一鸣"],
        ["2026-06-07", "黄犬旺财", "河畔动物诊所", "骨折复查", "260", "覃素梅"],
    ], encoding="gbk")

    (OUT / "notes" / "喂食须知.txt").write_bytes(
        ("北坡街流浪动物救助站喂食须知\r\n\r\n"
         "猫粮每天早上七点和傍晚五点各喂一次，成年猫每次五十克。\r\n"
         "刚到站的动物先单独隔离观察十天，隔离期间由罗一鸣一人喂食。\r\n"
         "罐头只在周日加餐时开，开过的罐头放冰箱不得超过两天。\r\n").encode())
    (OUT / "notes" / "incident_2026-07-03.txt").write_text(
        "Incident note, 3 July 2026\n\n"
        "During the Saturday open day a visitor's child was scratched by the ginger cat Afu. The scratch was "
        "cleaned at once by Ines Carvalho with the first-aid kit kept behind the reception desk. The family did "
        "not want a doctor. From now on children under ten may only meet the cats with a volunteer beside them.\n",
        encoding="utf-8")

    (OUT / "web" / "常见问题.md").write_text(
        "# 领养常见问题\n\n"
        "## 领养要带什么证件？\n\n"
        "请带本人身份证和一份住址证明，租房的还要带房东同意养宠物的书面说明。\n\n"
        "## 领养以后会回访吗？\n\n"
        "会。领养后第一个月和第六个月，志愿者会上门或视频回访各一次。\n\n"
        "## 可以先试养吗？\n\n"
        "成年犬可以试养一周，试养期间的狗粮由救助站提供。\n", encoding="utf-8")
    (OUT / "web" / "visit.html").write_text(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Visit Northslope Street Animal Rescue</title>"
        "</head><body><h1>Visiting us</h1>"
        "<p>The rescue is at 18 Northslope Street, behind the old tram depot. Visitors are welcome from "
        "Wednesday to Sunday, 1 pm to 5 pm; on Mondays and Tuesdays the shelter is closed to the public.</p>"
        "<h2>Who we are</h2>"
        "<p>The shelter is run by Qin Sumei. Our senior nurse, Ines Carvalho, looks after medical care, and "
        "Luo Yiming manages the kennels. Donations of blankets can be left at the side door.</p>"
        "</body></html>\n", encoding="utf-8")


if __name__ == "__main__":
    main()
