"""Writes the twelfth new-user trial's files (tests/data/newuser12/files/): the everyday papers of one invented
small organisation, a neighbourhood pottery co-op (窑边陶艺合作社 / Kilnside Pottery Co-op) — a Chinese DOCX
membership rules, an English HTML studio-safety policy, an English Markdown kiln-loading how-to and a Chinese
Markdown glaze-mixing how-to, an English clay-price CSV and a Chinese kiln-schedule CSV, an English plain-text
kiln log and a Chinese PDF of the autumn working meeting's minutes. No other set uses this domain. The DOCX and
the PDF are written ``stable`` (the same bytes on every run).

Run from the repository root: ``.venv/bin/python tests/data/newuser12/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("policy", "howto", "tables", "logs"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    docx(OUT / "policy" / "窑边陶艺合作社会员守则.docx", "窑边陶艺合作社会员守则", [
        ("p", "本守则由2025年11月理事会修订，自2026年1月1日起执行。"),
        ("h", "一、会费与储物"),
        ("p", "正式会员每月缴纳会费280元，可在开放时间内使用拉坯机和手工台。"),
        ("p", "会员可租用个人储物架，每格每月租金40元，退租时须清空。"),
        ("h", "二、烧制费用"),
        ("p", "素烧按每件15元收费，釉烧按每件25元收费，超过30厘米的大件加收一倍。"),
        ("h", "三、违规处理"),
        ("p", "在釉料间内饮食者，第一次口头提醒，第二次暂停使用工作室两周。"),
        ("p", "本守则由合作社理事长季远帆负责解释。"),
    ], stable=True)
    (OUT / "policy" / "studio_safety.html").write_text(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Kilnside Pottery Co-op — Studio safety"
        "</title></head><body><h1>Studio safety policy</h1>"
        "<p>This policy applies to every member and guest of Kilnside Pottery Co-op. It was reviewed in "
        "September 2025.</p>"
        "<h2>Glaze room</h2>"
        "<p>Dry glaze materials are weighed only in the glaze room, and anyone mixing them must wear a fitted "
        "P2 respirator. Floors are cleaned with a wet mop; sweeping raises silica dust and is not allowed.</p>"
        "<h2>Kiln area</h2>"
        "<p>Only members who have passed the kiln course may open or load a kiln. Leather gloves rated to 500 "
        "degrees hang beside each kiln.</p>"
        "<h2>Accidents</h2>"
        "<p>Report every burn or cut in the incident book. The co-op's trained first aider is Marguerite Osei; "
        "the first-aid box is on the shelf above the sink.</p>"
        "</body></html>\n", encoding="utf-8")

    (OUT / "howto" / "loading_the_kiln.md").write_text(
        "# Loading and firing the big electric kiln\n\n"
        "Bisque loads are fired on Wednesdays and glaze loads on Saturdays, so that the kiln has cooled by the "
        "next session.\n\n"
        "## Steps\n\n"
        "1. Check that every glazed pot has a clean foot: wipe 5 mm of glaze off the base with a damp sponge.\n"
        "2. Paint kiln wash on any shelf that shows glaze drips, and let it dry before loading.\n"
        "3. Leave at least 2 cm between glazed pots; bisque ware may touch and stack.\n"
        "4. Choose the programme on the controller (bisque: cone 04, glaze: cone 6) and write the load in the "
        "firing book.\n\n"
        "## After the firing\n\n"
        "Do not open the lid until the controller reads below 100 °C; this usually takes about 24 hours. If the "
        "controller shows an error, phone the kiln steward, Tobias Lindqvist.\n",
        encoding="utf-8")
    (OUT / "howto" / "釉料配制方法.md").write_text(
        "# 釉料配制方法\n\n"
        "合作社的常用透明釉和青瓷釉都在釉料间配制，配制记录由釉料组组长温若溪统一保管。\n\n"
        "## 步骤\n\n"
        "1. 按配方表用电子秤称取干料，每批总量不超过5公斤。\n"
        "2. 先在桶中加入干料重量约九成的清水，再慢慢倒入干料，静置十分钟。\n"
        "3. 用搅拌器搅拌后，过80目筛网两遍。\n"
        "4. 在桶盖和桶身上都写明釉名、配制日期和配制人。\n\n"
        "## 注意\n\n"
        "釉浆比重应保持在1.45左右，太稠时加水调整。\n",
        encoding="utf-8")

    csv_file(OUT / "tables" / "clay_prices.csv", [
        ["clay body", "supplier", "bag_kg", "price_eur", "cone range"],
        ["Speckled Buff stoneware", "Northfield Clays", "12.5", "38.50", "5-7"],
        ["White earthenware", "Northfield Clays", "12.5", "24.00", "04-02"],
        ["Porcelain P300", "Valentine", "10", "52.75", "6-8"],
        ["Red terracotta", "Potclays", "12.5", "19.90", "06-03"],
        ["Raku body", "Potclays", "12.5", "31.20", "raku"],
    ])
    csv_file(OUT / "tables" / "烧窑排期.csv", [
        ["日期", "窑", "类型", "装窑人", "备注"],
        ["2026-10-21", "一号电窑", "素烧", "温若溪", "新会员作品"],
        ["2026-10-24", "一号电窑", "釉烧", "闵嘉树", "青瓷釉试片"],
        ["2026-10-28", "二号气窑", "釉烧", "季远帆", "还原气氛"],
        ["2026-10-31", "一号电窑", "素烧", "闵嘉树", "儿童课作品"],
    ])

    (OUT / "logs" / "kiln_log.txt").write_text(
        "Kilnside Pottery Co-op - kiln log, autumn 2026\n\n"
        "2026-09-12  Glaze firing, cone 6: three pots stuck to the bottom shelf; shelf ground clean by "
        "Tobias Lindqvist.\n"
        "2026-09-30  Elements of the big electric kiln replaced by Hartley Kiln Services, invoice 340 euros.\n"
        "2026-10-09  Bisque firing stopped at 620 degrees after a power cut; reloaded and refired the next "
        "day.\n"
        "2026-10-17  Glaze firing: a teapot's lid cracked across the knob; pieces kept for the glaze group.\n",
        encoding="utf-8")

    pdf(OUT / "logs" / "2026年秋季工作会议纪要.pdf", "窑边陶艺合作社2026年秋季工作会议纪要", [
        "时间：2026年10月8日晚上七点。地点：合作社一楼拉坯室。",
        "主持人：季远帆（理事长）。记录：闵嘉树。出席会员：24人。",
        "一、会议通报，今年前三季度共烧制作品1,860件，素烧破损率约为3%。",
        "二、会议决定，12月6日举办年末陶艺市集，由温若溪负责摊位安排。",
        "三、会议同意，用街道文化基金拨付的18,000元购买一台新的小型电窑。",
        "四、下一次工作会议定于2027年1月召开。",
    ], cjk=True, stable=True)


if __name__ == "__main__":
    main()
