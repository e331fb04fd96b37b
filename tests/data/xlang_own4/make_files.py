"""Writes the files of ``tests/data/xlang_own4`` (invented material in seven domains, four files in Chinese and
three in English, each asked about in the other language; run from the repository root:
``.venv/bin/python tests/data/xlang_own4/make_files.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import docx, markdown_page

FILES = Path(__file__).resolve().parent / "files"

LIBRARY_ZH = [
    ("p", "时间：2026年5月14日下午两点"),
    ("p", "地点：栖霞湾社区图书馆二楼会议室"),
    ("p", "主持：欧阳明哲（馆长）"),
    ("p", "出席：馆员六人，志愿者代表两人"),
    ("h", "一、上月工作回顾"),
    ("p", "四月份共接待读者一万二千余人次，外借图书八千六百册，比三月增加一成。儿童绘本区周末人流最大，"
          "志愿者反映还书车经常不够用。少儿编程兴趣班已开满三期，家长普遍希望继续举办。"),
    ("h", "二、讨论事项"),
    ("p", "1. 自习区座位紧张。会议决定在三楼东侧新增自习座位40个，由后勤组在六月底前完成采购和布置。"),
    ("p", "2. 开放时间。考虑到附近居民下班较晚，工作日闭馆时间由晚上八点推迟到晚上九点，自六月一日起执行。"),
    ("p", "3. 逾期罚款。会议同意继续实行每册每天一角的逾期费，上限为书价的一半。"),
    ("h", "三、下次会议"),
    ("p", "下次馆务会议定于6月11日召开。"),
    ("p", "记录人：祁婉清"),
]

TRAVEL_ZH = """第一条 为规范员工出差费用的开支和报销，结合本公司实际，制定本办法。本办法适用于澄川物流有限公司全体正式员工。

第二条 出差须事先填写出差申请单，经部门负责人批准后方可出行。未经批准擅自出差的，费用不予报销。

第三条 交通工具：员工出差原则上乘坐高铁二等座或普通列车硬卧；单程超过八百公里的，经批准可乘坐飞机经济舱。

第四条 住宿标准：北京、上海、广州、深圳每人每晚不超过450元，其他城市每人每晚不超过320元，凭发票在标准内据实报销。

第五条 伙食补助按出差天数计发，每人每天80元，不再另行报销餐费。市内交通补助每人每天30元。

第六条 出差结束后，员工应在15个工作日内填写报销单，附发票和行程单交财务部审核，逾期不予受理。

第七条 本办法由财务部负责解释，自2026年3月1日起施行。"""

TEAHOUSE_ZH = """蓝溪茶坊位于老城区河西街十二号，是一家以绿茶和江南点心为主的茶馆。

## 茶饮

| 品名 | 规格 | 价格 |
|---|---|---|
| 西湖龙井 | 一壶 | 68元 |
| 碧螺春 | 一壶 | 58元 |
| 安吉白茶 | 一壶 | 62元 |
| 菊花枸杞茶 | 一壶 | 32元 |

## 点心

桂花糕每份18元，蟹粉小笼每笼28元，葱油拌面每碗22元。

## 须知

大厅散座不设最低消费；包间最低消费300元，限坐八人，需提前一天预约。营业时间为每天上午十点至晚上十一点。"""

SOFTENER_EN = """This manual covers the installation, daily use and care of the Kelmora SP2 water softener. Read it
before you connect the unit to your water supply and keep it near the softener.

## Specifications

The Kelmora SP2 weighs 31 kg when empty and stands 112 cm tall. The salt tank holds 25 kg of tablet salt, enough
for about two months for a family of four. The unit works at a water pressure between 1.5 and 6 bar and needs a
standard 230 V socket.

## Daily use

The softener regenerates automatically every four days at 2 a.m., when little water is drawn. During regeneration,
which lasts about forty minutes, hard water still flows to the taps. Check the salt level once a month and top it up
when the tank is less than a quarter full.

## Power failure

After a power failure the unit keeps its settings and resumes the last programme on its own once power returns; you
do not need to reset the clock.

## Error codes

E1 means the motor is blocked. E2 means the water meter sends no pulses. E4 means the salt level is too low: refill
the salt tank and press OK. E7 means the control board has overheated; unplug the unit for ten minutes.

## Warranty

Kelmora gives a three-year warranty on the control valve and ten years on the resin tank."""

ROWING_EN = """Brisa Harbour Rowing Club has rowed on the lower harbour since 1932. The club is open to anyone over
twelve who can swim fifty metres, and it races in both sculling and sweep boats at regional regattas.

The boathouse stands at Pier 7, next to the harbour master's office, and holds 38 boats, from single sculls to two
coxed eights. Members can book a boat online up to a week ahead.

The head coach is Marguerite Olsen, a former national team sculler, who leads the squad sessions on Tuesday and
Thursday evenings. Learn-to-row courses run every spring and summer and last six weekends.

Membership stands at 340, of whom about a third are juniors. The annual membership fee is 180 euros for adults and
90 euros for juniors and students; the fee covers boat use, coaching and insurance."""

REMOTE_EN = """This policy applies to all employees of Fenwick Data Services who work part of the week from home.

Eligibility. Staff who have passed their probation period may work from home on up to three days a week, agreed with
their line manager.

Core hours. Whether at home or in the office, everyone is expected to be available between 10:00 and 15:00; outside
these hours staff may arrange their own time.

Equipment. The company provides a laptop, a monitor and a headset. Laptops are replaced every four years.

Home-office allowance. Employees who work from home at least one day a week receive a home-office allowance of 45
pounds per month, paid with their salary, towards heating, electricity and broadband.

Notice. A change to an agreed remote day must be requested at least two working days in advance."""

ALLOTMENT_EN = [
    ("p", "Annual general meeting held on Saturday 7 March 2026 at the community hall, Harlow Street."),
    ("p", "Present: 41 members. Chair: Dennis Whitcombe. Minutes taken by Ayesha Malik."),
    ("h", "1. Treasurer's report"),
    ("p", "The treasurer reported a surplus of 1,350 pounds for the year, mostly from the plant sale in May. The new "
          "water tank on the north side was paid for in full."),
    ("h", "2. Plot rents"),
    ("p", "After a long discussion the meeting agreed to raise the rent of a full plot from 36 to 42 pounds a year "
          "from October; half plots will pay 21 pounds."),
    ("h", "3. Waiting list"),
    ("p", "There are 56 people on the waiting list. Plots left uncultivated for two inspections in a row will be "
          "offered to the next person on the list."),
    ("h", "4. Any other business"),
    ("p", "Members asked for a second compost bay. The committee will look at costs and report at the summer "
          "meeting."),
]


def main() -> None:
    FILES.mkdir(exist_ok=True)
    docx(FILES / "栖霞湾社区图书馆2026年5月馆务会议纪要.docx", "栖霞湾社区图书馆馆务会议纪要", LIBRARY_ZH, stable=True)
    (FILES / "澄川物流员工差旅费管理办法.txt").write_text(TRAVEL_ZH + "\n", encoding="utf-8")
    markdown_page(FILES / "蓝溪茶坊价目表.md", "蓝溪茶坊价目表", TEAHOUSE_ZH)
    (FILES / "kelmora_sp2_water_softener_manual.txt").write_text(SOFTENER_EN + "\n", encoding="utf-8")
    markdown_page(FILES / "brisa_harbour_rowing_club.md", "Brisa Harbour Rowing Club", ROWING_EN)
    (FILES / "fenwick_remote_work_policy.txt").write_text(REMOTE_EN + "\n", encoding="utf-8")
    docx(FILES / "harlow_street_allotment_society_agm_2026.docx", "Harlow Street Allotment Society: AGM minutes",
         ALLOTMENT_EN, stable=True)


if __name__ == "__main__":
    main()
