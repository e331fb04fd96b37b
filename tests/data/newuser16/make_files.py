"""Writes the sixteenth new-user trial's files (tests/data/newuser16/files/): the papers of one invented community
tool-lending library (石榴巷工具借用社 / Pomegranate Lane Tool Library), saved the way everyday tools save them — an
English plain-text export of a PDF (page headers, "Page 1 of 2", a form feed, a word hyphenated across a line end),
a Chinese Markdown volunteer handbook whose loan periods and deposits are a pipe table, an English HTML page of the
repair café (navigation and footer around it), a Chinese inventory CSV with a byte-order mark, and a volunteer
meeting's notes written in a mix of English and Chinese. No other set uses this domain.

Run from the repository root: ``.venv/bin/python tests/data/newuser16/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file  # after the path

OUT = Path(__file__).parent / "files"

RULES = """\
POMEGRANATE LANE TOOL LIBRARY                                        Page 1 of 2
Membership Rules - adopted at the members' meeting of 12 March 2026

1. Who may join. Anyone aged 16 or over who lives or works in the
Pomegranate Lane area may join. Members under 18 need a parent's
signature on the form.

2. Fees. Membership costs £12 a year, or £5 a year for students and
people receiving benefits. The fee is paid at the counter in cash or
by card; we do not take cheques.

3. Borrowing. A member may borrow up to three tools at a time. The
standard loan is seven days; it can be extended once, by a further
seven days, if nobody has reserved the tool.
\f
POMEGRANATE LANE TOOL LIBRARY                                        Page 2 of 2

4. Late returns. A tool returned late costs 50p for each day past its
due date. After 21 days without contact the tool is treated as lost
and the member is charged its replace-
ment value.

5. Damage. Report any damage when you return the tool. Ordinary wear
is not charged. The coordinator, Dervla Ashcombe, decides on repair
charges.

6. Safety. The chainsaw, the tile cutter and the floor sander are lent
only to members who have done the safety induction, held on the first
Saturday of each month.
"""

HANDBOOK = """\
# 石榴巷工具借用社 志愿者手册

## 一、值班

借用社每周二、周四晚上七点到九点和周六上午九点到十二点开放。值班志愿者须提前十五分钟到达，开门后先核对登记簿。
值班表由志愿者协调人韦晓澄每月初排定，换班请在群里提前两天说明。

## 二、各类工具的借期与押金

| 类别 | 例子 | 借期（天） | 押金（元） |
|---|---|---|---|
| 手动工具 | 锤子、扳手、手锯 | 14 | 0 |
| 电动工具 | 电钻、角磨机、电刨 | 7 | 100 |
| 园艺工具 | 割草机、修枝剪 | 7 | 50 |
| 大型设备 | 地板打磨机、瓷砖切割机 | 3 | 300 |

押金在归还工具、检查无损后当场退还。

## 三、清洁与保养

归还的电动工具要先擦净、检查电线，再放回B区货架。刀片变钝的工具贴黄色标签，交给周六的保养小组。
"""

REPAIR_CAFE = """\
<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Repair Café | Pomegranate Lane Tool Library</title></head>
<body>
<nav><a href="/">Home</a> | <a href="/join">Join</a> | <a href="/catalogue">Catalogue</a> | <a href="/repair">Repair Café</a></nav>
<main>
<h1>Repair Café</h1>
<p>Bring something broken, leave with it mended. The Repair Café meets on the last Sunday of every month from
2 pm to 5 pm in the back hall of St Aldric's Church, 41 Pomegranate Lane.</p>
<h2>Who fixes what</h2>
<ul>
<li>Clothes, zips and bags: Hannelore Quist</li>
<li>Lamps, toasters and small electrical things: Tobias Mensah-Reid, a retired electrician</li>
<li>Bicycles: Priya Lindqvist</li>
</ul>
<p>Repairs are free; a donation jar stands by the door. We cannot repair microwaves or anything with a gas
connection.</p>
</main>
<footer>&copy; 2026 Pomegranate Lane Tool Library &middot; a registered community group</footer>
</body>
</html>
"""

NOTES = """\
Volunteer meeting 2026-10-08 / 志愿者例会
Present: Dervla Ashcombe (chair), 韦晓澄, Priya Lindqvist, Sam Okafor

- 新的借用登记系统 will go live on 1 November; Sam Okafor 负责培训周六班的志愿者 on the new system.
- The floor sander's belt snapped again. 决定：买两条备用砂带，预算 £40。
- 捐赠：a neighbour gave us a pressure washer (高压清洗机); it needs a new hose before we lend it.
- 下次例会：11月12日晚上七点，在后厅。

记录：韦晓澄
"""


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "membership_rules_export.txt").write_text(RULES, encoding="utf-8")
    (OUT / "志愿者手册.md").write_text(HANDBOOK, encoding="utf-8")
    (OUT / "repair_cafe.html").write_text(REPAIR_CAFE, encoding="utf-8")
    csv_file(OUT / "工具清单.csv", [
        ["编号", "工具", "品牌型号", "状态", "货架", "上次保养"],
        ["T-014", "电钻", "博世 GSB 13", "可借", "B2", "2026-08-03"],
        ["T-027", "角磨机", "牧田 GA4030", "维修中", "B3", "2026-05-19"],
        ["T-031", "割草机", "Greenworks 40V", "可借", "C1", "2026-09-10"],
        ["T-045", "瓷砖切割机", "Rubi TC-60", "可借", "D1", "2026-07-22"],
        ["T-052", "地板打磨机", "Bona FlexiSand", "借出", "D2", "2026-06-30"],
        ["T-063", "修枝剪", "Fiskars L28", "可借", "C2", "2026-04-11"],
    ], encoding="utf-8-sig")
    (OUT / "meeting_notes_2026-10.txt").write_text(NOTES, encoding="utf-8")


if __name__ == "__main__":
    main()
