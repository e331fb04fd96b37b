"""Writes the thirteenth new-user trial's files (tests/data/newuser13/files/): the everyday papers of one invented
small organisation, a neighbourhood animal clinic (梧桐街动物诊所 / Sycamore Street Animal Clinic) — an English
HTML appointments-and-cancellations policy, a Chinese DOCX staff duty rules, an English Markdown how-to (giving a
cat a tablet) and a Chinese Markdown post-surgery care sheet, an English vaccination price CSV and a Chinese night
rota CSV, an English plain-text equipment log and a Chinese PDF of the November staff meeting's minutes. No other
set uses this domain. The DOCX and the PDF are written ``stable`` (the same bytes on every run).

Run from the repository root: ``.venv/bin/python tests/data/newuser13/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("policy", "howto", "tables", "logs"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    (OUT / "policy" / "appointments.html").write_text(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Sycamore Street Animal Clinic — Appointments"
        "</title></head><body><h1>Appointments and cancellations</h1>"
        "<p>This policy covers every booking at Sycamore Street Animal Clinic. It was last updated in March "
        "2026 by the practice manager, Delphine Aubry.</p>"
        "<h2>Booking</h2>"
        "<p>Routine consultations last 15 minutes and are booked by phone or at the front desk. Dental "
        "procedures are only scheduled on Tuesday and Thursday mornings, because the animals must fast from "
        "the evening before.</p>"
        "<h2>Cancellations</h2>"
        "<p>Please cancel at least 24 hours ahead. An appointment missed without notice is charged a fee of "
        "18 pounds, added to the next invoice.</p>"
        "<h2>Emergencies</h2>"
        "<p>An injured or collapsed animal is seen without an appointment during opening hours. Owners are asked "
        "to phone on the way so that a consulting room can be cleared.</p>"
        "</body></html>\n", encoding="utf-8")
    docx(OUT / "policy" / "梧桐街动物诊所员工值班守则.docx", "梧桐街动物诊所员工值班守则", [
        ("p", "本守则经2026年2月全体员工会议通过，由诊所院长桑晓岚签发。"),
        ("h", "一、交接班"),
        ("p", "夜班护士须在早上八点前完成交接，把住院动物的用药和进食情况逐项写入交接本。"),
        ("p", "交接本放在住院部护士台第二个抽屉，任何人不得带出诊所。"),
        ("h", "二、药品管理"),
        ("p", "麻醉类药品由药房主管卜一鸣保管钥匙，每次取用须两人签字。"),
        ("h", "三、加班与补贴"),
        ("p", "节假日值班每班补贴260元，夜班另发夜餐费35元。"),
    ], stable=True)

    (OUT / "howto" / "giving_a_cat_a_tablet.md").write_text(
        "# Giving your cat a tablet at home\n\n"
        "Most cats accept a tablet more easily from someone they know, so ask a second family member to help "
        "hold the cat on a table.\n\n"
        "## Steps\n\n"
        "1. Wrap the cat loosely in a towel, leaving only the head out.\n"
        "2. Tilt the head back gently until the lower jaw drops a little.\n"
        "3. Drop the tablet as far back on the tongue as you can, then close the mouth.\n"
        "4. Follow it with about 5 ml of water from a syringe, so that the tablet does not stick in the "
        "throat.\n\n"
        "## If it does not work\n\n"
        "Never crush a tablet into food unless the vet says so: some coatings protect the stomach. Our nurse "
        "Owen Prichard runs a free 10-minute tablet clinic on Friday afternoons.\n",
        encoding="utf-8")
    (OUT / "howto" / "绝育术后护理须知.md").write_text(
        "# 绝育术后护理须知\n\n"
        "本须知适用于在梧桐街动物诊所做绝育手术的猫和狗，由外科主治兽医卢嘉禾编写。\n\n"
        "## 回家当天\n\n"
        "1. 麻醉未完全消退前，动物可能走路不稳，请让它在安静温暖的地方休息。\n"
        "2. 手术后六小时内不要喂食，之后先喂平时一半的量。\n"
        "3. 必须全天佩戴伊丽莎白圈，防止舔咬伤口。\n\n"
        "## 复诊\n\n"
        "术后第十天回诊所拆线，拆线前不要给动物洗澡。如伤口红肿或渗液，请立即来电。\n",
        encoding="utf-8")

    csv_file(OUT / "tables" / "vaccination_prices.csv", [
        ["vaccine", "species", "doses in first course", "price_gbp", "booster every"],
        ["Core puppy vaccine (DHP + Lepto)", "dog", "2", "64.00", "12 months"],
        ["Kennel cough (intranasal)", "dog", "1", "38.50", "12 months"],
        ["Feline enteritis + flu", "cat", "2", "58.00", "12 months"],
        ["Feline leukaemia", "cat", "2", "46.75", "24 months"],
        ["Myxomatosis + RHD2", "rabbit", "1", "42.20", "12 months"],
    ])
    csv_file(OUT / "tables" / "十二月夜班表.csv", [
        ["日期", "值班兽医", "值班护士", "备注"],
        ["2026-12-05", "卢嘉禾", "邵小棠", "周六"],
        ["2026-12-12", "桑晓岚", "邵小棠", "周六"],
        ["2026-12-24", "卢嘉禾", "温佩", "平安夜，加派一名护士"],
        ["2026-12-31", "桑晓岚", "温佩", "跨年夜"],
    ])

    (OUT / "logs" / "equipment_log.txt").write_text(
        "Sycamore Street Animal Clinic - equipment log, 2026\n\n"
        "2026-01-14  X-ray processor cleaned and recalibrated by Medivet Imaging; no fault found.\n"
        "2026-03-02  Autoclave door seal split; replaced the same day, parts 95 pounds.\n"
        "2026-06-19  Anaesthetic machine serviced by Harlow Vet Engineering, invoice 410 pounds; next service "
        "due June 2027.\n"
        "2026-09-08  Kennel heater in ward B failed overnight; the cats were moved to ward A and the heater "
        "was replaced.\n",
        encoding="utf-8")

    pdf(OUT / "logs" / "2026年11月员工会议纪要.pdf", "梧桐街动物诊所2026年11月员工会议纪要", [
        "时间：2026年11月20日下午五点半。地点：诊所二楼会议室。",
        "主持人：桑晓岚（院长）。记录：邵小棠。出席：11人。",
        "一、会议通报，今年一月至十月共接诊4,320例，其中急诊612例。",
        "二、会议决定，从2027年1月起周日上午开放门诊，由卢嘉禾牵头排班。",
        "三、会议同意，花费26,500元更换住院部的两台输液泵。",
        "四、下一次员工会议定于2027年2月召开。",
    ], cjk=True, stable=True)


if __name__ == "__main__":
    main()
