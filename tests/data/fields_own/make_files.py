"""Writes the files of ``tests/data/fields_own`` (invented material where facts are stated as labelled fields and
table cells, not prose: Chinese minutes with a header block and a sign-off, English trustees' minutes, an HTML
profile whose infobox is a two-column table, a Chinese spec sheet, an English Markdown fee table, a Chinese CSV
stock list, an HTML appointment form; run from the repository root:
``.venv/bin/python tests/data/fields_own/make_files.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import csv_file, markdown_page

FILES = Path(__file__).resolve().parent / "files"

MINUTES_ZH = """- 会议时间：2026年4月9日（星期四）上午9:30
- 会议地点：北岭水厂办公楼二层调度室
- 主持人：祁文澜（副总经理）
- 参会人员：郑怀远（生产部）、卢芷晴（安环部）、白景行（设备部）、许一苇（综合办）
- 缺席：骆晨（外出培训）

## 一、一季度安全检查情况

安环部卢芷晴通报：一季度共开展安全检查11次，发现隐患27项，已整改24项，其余3项涉及加氯间通风改造，计划在5月底前完成。

## 二、汛期准备

生产部郑怀远提出，汛期前需对取水泵站的备用发电机进行满负荷试验。会议决定试验于4月25日进行，由设备部白景行具体负责。

## 三、其他

综合办许一苇提醒各部门按时提交应急预案修订意见。

---

记录人：许一苇
审核：祁文澜"""

MINUTES_EN = """Corran Free Library — Board of Trustees, spring meeting

Date: 17 March 2026
Venue: Reading Room, Corran Free Library
Chair: Rosalind Achebe
Minutes taken by: Owen Tremayne
Present: six trustees and the head librarian

1. Roof repairs. The head librarian reported that the survey found slipped slates above the children's section. The trustees approved a budget of 9,200 pounds for the repairs.

2. Opening hours. From June the library will open until 7 pm on Thursdays, a trial of six months.

3. Next meeting. The next meeting will be held in the Reading Room in the autumn; the date will be circulated by email.
"""

PROFILE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Halvor Brandt</title></head>
<body>
<h1>Halvor Brandt</h1>
<table class="infobox">
<tr><th>Born</th><td>Skelby, on the Vessen estuary</td></tr>
<tr><th>Nationality</th><td>Norrish</td></tr>
<tr><th>Occupation</th><td>Bridge engineer</td></tr>
<tr><th>Employer</th><td>Tallow &amp; Grist Engineering</td></tr>
<tr><th>Notable work</th><td>Vessen Crossing</td></tr>
</table>
<p>Halvor Brandt is a bridge engineer known for cable-stayed crossings over tidal rivers. He joined Tallow &amp; Grist Engineering after a decade in public works and led the design team of the Vessen Crossing.</p>
<p>He lectures occasionally on corrosion in coastal structures and has served on two national standards committees.</p>
</body></html>
"""

SPEC_ZH = """清湾 QW-520 空气净化器 产品规格

型号：QW-520
额定功率：55 W
适用面积：36–62 平方米
噪音：22–48 dB
净重：8.4 kg
滤网更换周期：约12个月
产地：江苏省苏州市

使用提示：请勿在浴室等高湿度环境中使用本机。首次开机前请撕去滤网外包装袋。"""

FEES_MD = """Fees for the 2026–27 school year, per pupil. Trips are billed once a year, tuition and lunch each term.

| Year group | Tuition per term (GBP) | Lunch per term (GBP) | Trips per year (GBP) |
| --- | --- | --- | --- |
| Year 7 | 5,450 | 395 | 260 |
| Year 8 | 5,450 | 410 | 310 |
| Year 9 | 5,780 | 410 | 340 |
| Year 10 | 6,120 | 425 | 480 |
| Year 11 | 6,120 | 425 | 150 |

Siblings receive a discount of 5% on tuition. Fees are payable before the first day of each term."""

STOCK = [
    ["书号", "书名", "作者", "定价(元)", "库存(本)", "货架"],
    ["YQ-4412", "雾里的灯塔", "程以宁", "42", "18", "A3"],
    ["YQ-4417", "北港风起", "董南山", "56", "7", "A5"],
    ["YQ-4420", "山茶与盐", "乔晚禾", "39", "0", "B1"],
    ["YQ-4431", "纸上航线", "聂川", "68", "23", "B4"],
    ["YQ-4438", "冬日邮局", "程以宁", "45", "12", "C2"],
]

FORM = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Appointment confirmation</title></head>
<body>
<h1>Appointment confirmation — Marlow Street Physiotherapy</h1>
<table>
<tr><td>Patient</td><td>Imogen Castell</td></tr>
<tr><td>Clinician</td><td>Farid Lowe</td></tr>
<tr><td>Appointment date</td><td>22 June 2026</td></tr>
<tr><td>Time</td><td>10:40</td></tr>
<tr><td>Treatment room</td><td>Room 3B</td></tr>
<tr><td>Session length</td><td>45 minutes</td></tr>
</table>
<p>Please arrive ten minutes early. To cancel, call the front desk at least 24 hours before the appointment.</p>
</body></html>
"""


def main() -> None:
    (FILES / "people").mkdir(parents=True, exist_ok=True)
    markdown_page(FILES / "北岭水务2026年第二次安全例会纪要.md", "北岭水务有限公司 2026年第二次安全例会纪要", MINUTES_ZH)
    (FILES / "corran_library_trustees_minutes.txt").write_text(MINUTES_EN, encoding="utf-8")
    (FILES / "people" / "halvor_brandt.html").write_text(PROFILE, encoding="utf-8")
    (FILES / "清湾QW-520空气净化器规格.txt").write_text(SPEC_ZH + "\n", encoding="utf-8")
    markdown_page(FILES / "fernhill_school_fees_2026.md", "Fernhill School — fees 2026–27", FEES_MD)
    csv_file(FILES / "云栖书店库存_2026-05.csv", STOCK)
    (FILES / "marlow_street_appointment.html").write_text(FORM, encoding="utf-8")


if __name__ == "__main__":
    main()
