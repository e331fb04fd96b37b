"""Writes the new-user trial's files (tests/data/newuser/files/) the way a user's own tools would: a PDF
with reportlab, a DOCX with python-docx, CSV, Markdown, HTML and plain text. All content is invented.

Run from the repository root: ``.venv/bin/python tests/data/newuser/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "products").mkdir(exist_ok=True)
    (OUT / "hr").mkdir(exist_ok=True)
    (OUT / "news").mkdir(exist_ok=True)
    (OUT / "travel").mkdir(exist_ok=True)

    # --- domain 1: a small hardware company (Brightwell / 明井科技)
    pdf(OUT / "products" / "aeroclean_datasheet.pdf", "Brightwell AeroClean product data sheet", [
        "Brightwell Technology designs air purifiers for homes and small offices.",
        "The AeroClean A200 has a clean air delivery rate (CADR) of 200 cubic metres per hour and runs at "
        "28 dB on its night setting. It weighs 4.1 kg. The A200 is assembled in Shenzhen by a contract "
        "manufacturer.",
        "The AeroClean A350 delivers 350 cubic metres per hour (CADR) and runs at 32 dB on its night setting. "
        "It weighs 6.8 kg and its HEPA filter lasts about 12 months. The A350 is assembled at Brightwell's own "
        "plant in Harwick.",
        "The AeroMini M5 and AeroMini M7 are portable purifiers for desks and cars, charged over USB-C.",
        "All AeroClean models use the same H13 HEPA filter cartridge (part number BW-F13).",
    ])
    csv_file(OUT / "products" / "价格表.csv", [
        ["型号", "零售价", "电池续航", "保修期", "交货周期"],
        ["AeroClean A200", "1299元", "无电池", "2年", "5天"],
        ["AeroClean A350", "2499元", "无电池", "3年", "10天"],
        ["AeroMini M5", "699元", "8小时", "1年", "7天"],
        ["AeroMini M7", "899元", "12小时", "1年", "14天"],
    ])
    (OUT / "公司简介.md").write_text(
        "# 明井科技公司简介\n\n"
        "苏州明井科技有限公司（英文名 Brightwell Technology）成立于2014年，总部位于苏州工业园区星湖街。"
        "公司由陈立群创办，专注于家用和小型办公空气净化设备。\n\n"
        "## 团队\n\n截至2025年底，公司共有员工86人，其中研发人员31人。\n\n"
        "## 发展计划\n\n公司目前是一家非上市的私营企业。管理层表示，公司计划在未来几年扩大海外销售，"
        "并在哈威克（Harwick）工厂增加一条生产线。\n\n"
        "## 联系方式\n\n客服电话：400-820-1314。地址：苏州工业园区星湖街218号。\n",
        encoding="utf-8")
    docx(OUT / "产品评审会议纪要.docx", "A350上市产品评审会议纪要", [
        ("p", "会议时间：2026年3月12日 下午2点"),
        ("p", "会议地点：苏州总部3楼会议室"),
        ("p", "主持人：王海燕（产品总监）；记录人：李卓"),
        ("h", "议题一：上市日期"),
        ("p", "经讨论，会议决定将AeroClean A350的上市日期定为2026年5月20日，首批备货3000台。"),
        ("h", "议题二：推广预算"),
        ("p", "市场部申请的A350推广预算为150万元，会议最终批准120万元，其中线上广告占七成。"),
        ("h", "议题三：质量问题"),
        ("p", "质量部报告A200的风扇异响投诉率为0.8%，要求供应商在4月底前完成整改。"),
    ])
    (OUT / "harwick.html").write_text(
        "<!doctype html><html><head><title>Harwick — a short history</title></head><body>"
        "<h1>Harwick — a short history</h1>"
        "<p>Harwick is a market town on the River Lune. It was founded in 1847 as a mill village around the "
        "Lune Valley textile works, and received its town charter in 1902.</p>"
        "<h2>Today</h2>"
        "<p>The 2021 census counted 12,400 residents. The old textile works closed in 1978; since 2019 the site "
        "has housed an electronics assembly plant run by Brightwell Technology, which employs about 140 people.</p>"
        "<p>The town council meets monthly in the Corn Exchange; its elections are held every four years.</p>"
        "<h2>Getting there</h2><p>Harwick station is on the Lune Valley line, 25 minutes from Lancaster.</p>"
        "</body></html>", encoding="utf-8")

    # --- domain 2: HR policies (one zh PDF, one en DOCX)
    pdf(OUT / "hr" / "差旅报销制度.pdf", "员工差旅报销制度（2025年修订）", [
        "第一条 本制度适用于明井科技全体员工的国内出差。",
        "第二条 住宿标准：一线城市每晚不超过600元，二线城市每晚不超过450元，其他城市每晚不超过350元。",
        "第三条 出差期间每天发放餐费补贴100元，不再另行报销餐费。",
        "第四条 乘坐高铁应选择二等座；部门经理及以上人员可乘坐一等座。",
        "第五条 员工应在出差结束后30天内提交报销单，逾期财务部不予受理。",
        "第六条 本制度自2025年7月1日起施行，由人力资源部负责解释。",
    ], cjk=True)
    docx(OUT / "hr" / "employee_handbook.docx", "Employee Handbook (2025 edition)", [
        ("h", "Annual leave"),
        ("p", "Every employee receives 15 days of paid annual leave per year. After five years of service the "
              "allowance rises to 20 days."),
        ("h", "Probation"),
        ("p", "New employees serve a probation period of three months."),
        ("h", "Remote work"),
        ("p", "Staff may work from home for up to two days a week, agreed with their manager."),
        ("h", "Contacts"),
        ("p", "Questions about this handbook go to Maria Lopez, the HR manager, at hr@brightwell.example."),
    ])

    # --- domain 3: local news and a travel guide (same-topic distractors)
    (OUT / "news" / "河畔音乐节2025.html").write_text(
        "<html><head><title>第十届河畔音乐节落幕</title></head><body>"
        "<h1>第十届河畔音乐节落幕</h1><p>2025年8月18日 湖州晚报</p>"
        "<p>为期三天的第十届河畔音乐节于8月17日晚在湖州南太湖公园落幕。据主办方湖州市文旅局统计，"
        "本届音乐节共吸引观众约3.2万人次，比上届增长两成。</p>"
        "<p>压轴演出由乐队“青石巷”带来。主办方表示，下一届将增加亲子专场。</p></body></html>",
        encoding="utf-8")
    (OUT / "news" / "河畔音乐节2024.txt").write_text(
        "第九届河畔音乐节因暴雨缩短一天\n\n"
        "湖州晚报 2024年8月12日\n\n"
        "原定三天的第九届河畔音乐节因暴雨取消了最后一天的演出。主办方统计，两天共接待观众约2.6万人次。"
        "已购买第三天门票的观众可在9月30日前申请全额退款。\n\n"
        "本届音乐节的主舞台设在南太湖公园北草坪，共有24支乐队参演。\n",
        encoding="utf-8")
    (OUT / "travel" / "lake_seren_guide.md").write_text(
        "# Lake Seren travel guide\n\n"
        "Lake Seren lies in a glacial valley below Mount Corvin (2,114 m). The best season to visit is from "
        "June to September, when the lake ferry runs its full timetable.\n\n"
        "## Ferry\n\nThe ferry leaves Port Alder every 45 minutes from 7:00 to 19:00. An adult ticket costs "
        "12 euros; children under 12 travel for half price.\n\n"
        "## Where to stay\n\nSeren Lodge, on the north shore, has 28 rooms and a sauna. Camping is allowed "
        "only at the Birchpoint site.\n\n"
        "## 交通提示\n\n从火车站步行到Port Alder码头约需15分钟。\n",
        encoding="utf-8")
    (OUT / "travel" / "port_alder_news.txt").write_text(
        "Port Alder Gazette, 3 July 2023\n\n"
        "Electric ferry joins the Lake Seren fleet\n\n"
        "The electric ferry Aurora entered service on 12 June 2023, replacing the diesel boat Kestrel, which "
        "had served the lake since 1988. Aurora carries up to 180 passengers and is charged overnight at "
        "Port Alder.\n\n"
        "The ferry company raised the adult fare from 10 to 12 euros in April 2023 to pay for the new boat.\n",
        encoding="utf-8")


if __name__ == "__main__":
    main()
