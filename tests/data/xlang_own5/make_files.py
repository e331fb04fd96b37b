"""Writes the files of ``tests/data/xlang_own5`` (invented material in eight domains, four files in Chinese and
four in English, each asked about in the other language; run from the repository root:
``.venv/bin/python tests/data/xlang_own5/make_files.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import csv_file, markdown_page

FILES = Path(__file__).resolve().parent / "files"

WAREHOUSE_FIRE_ZH = """本报讯（记者 闻晓岚）11月3日凌晨，位于鹿溪工业园的一座冷链仓库发生火灾。据鹿溪区消防救援大队通报，\
火情于凌晨2时40分被值班保安发现，消防部门接警后先后调派9辆消防车、46名指战员赶赴现场处置。

经过近四个小时的扑救，明火于清晨6时30分左右被扑灭。仓库内存放的冷冻水产品和包装材料部分受损，过火面积约1200平方米。

火灾中有两名仓库夜班工人吸入烟雾，被救护车送往鹿溪区第二人民医院观察治疗，目前生命体征平稳。没有人员死亡。

消防部门初步判断，起火原因是制冷机组的电气线路老化短路。具体原因仍在进一步调查中。仓库所属的企业表示，将配合调查，\
并对园区内其他仓库的电气线路进行全面排查。

园区管委会提醒各企业，冬季用电负荷加大，要定期检查线路，严禁私拉乱接。"""

BIKE_RULES_ZH = """一、计费标准
骑行费用按次计算：起步价1.5元，可骑行15分钟；超出部分每15分钟加收1元，不足15分钟按15分钟计。
夜间（22:00至次日6:00）骑行，起步价为2元。

二、骑行卡
月卡售价25元，有效期30天，每次骑行前2小时免费。季卡售价68元。骑行卡一经售出不予退款。

三、停车规定
车辆须停放在App显示的电子围栏停车点内。停在停车点以外的，每次加收调度费5元。连续三次违规停车的，账户将被暂停使用七天。

四、押金与退款
本平台实行免押金骑行，用户无需缴纳押金。账户余额可随时申请退还，退款在3个工作日内原路返回。

五、故障报修
发现车辆损坏请在App内点击“报修”并上传照片，核实后奖励骑行券一张。客服热线：400-820-6633。

本规则由青桐出行科技有限公司制定，自2026年3月1日起施行。"""

MUSEUM_ZH = """本馆位于古渡路66号，是一座以运河历史为主题的综合性博物馆。

## 开放时间
周二至周日 9:00–17:00（16:00停止入馆），周一闭馆（法定节假日除外）。

## 门票
| 票种 | 价格 |
| --- | --- |
| 成人票 | 40元 |
| 学生票 | 20元 |
| 60岁以上老人 | 免费 |
| 夜游专场（每周六 18:00–21:00） | 60元 |

## 讲解服务
人工讲解每场120元，每场约一小时，最多20人一组，需提前一天预约。语音导览器租金每台10元，另收押金100元。

## 参观须知
馆内禁止使用闪光灯拍照，禁止携带宠物入内。大件行李可免费寄存于一楼服务台。

## 交通
乘地铁3号线在古渡站下车，B出口步行约五分钟即到。馆内不设停车场。"""

COFFEE_ZH = """## 产品参数
| 项目 | 参数 |
| --- | --- |
| 额定电压 | 220V~ 50Hz |
| 额定功率 | 1350W |
| 水箱容量 | 1.8升 |
| 豆仓容量 | 250克 |
| 泵压 | 15bar |
| 净重 | 7.2千克 |

## 日常清洁
每天使用后请倒空废渣盒和滴水盘。冲泡头每周用清水冲洗一次。

## 除垢
机器累计冲泡约300杯后，屏幕会提示除垢。请使用专用除垢剂，按说明书第12页的步骤执行，整个过程约需25分钟。

## 故障代码
- E1：水箱缺水，请加水至MAX刻度线。
- E2：废渣盒已满或未装好，请清空后重新装入。
- E3：研磨器堵塞，请关机后清理豆仓和研磨通道。
- E5：加热器温度异常，请断电后联系售后服务。

## 保修
整机保修一年，加热器和水泵保修两年。人为损坏不在保修范围之内。"""

HEATWAVE_EN = """By our reporter, Daniel Whitcombe

Organisers of the Harrowgate Half Marathon have defended their decision to start Sunday's race on time, after
unusually hot weather left dozens of runners in need of treatment.

The temperature at the start line in Victoria Park was already 27C when the 4,200 runners set off at 9am, and it
climbed past 31C before the last of them finished.

St John Ambulance volunteers treated 63 runners on the course, most of them for dehydration and cramp. Eleven were
taken to Harrowgate Royal Infirmary, and two of them were kept in overnight for observation. All eleven are
expected to make a full recovery.

Race director Colette Pryor said extra water stations had been added at the 8km and 16km marks after a forecast
on Friday. "We followed the medical team's advice at every step," she said.

The men's race was won by Tomasz Wilk in 1:07:42. The race raised £86,000 for local charities."""

MAKERSPACE_EN = """Welcome to Brackley Makerspace, a members' workshop on the ground floor of the old Tannery building.

Membership
Full membership costs £35 a month and gives 24-hour access with a key fob. Evening membership costs £20 a month and
covers weekdays from 6pm to 10pm. Students get 30% off either plan. A refundable key fob deposit of £15 is taken
when you join.

Safety inductions
Nobody may use the laser cutter, the wood lathe or the CNC router before a safety induction on that machine.
Inductions are run by our workshop manager, Priya Venkatesan, every Tuesday evening and take about 90 minutes.

Materials
Members bring their own materials. Acrylic sheets and plywood offcuts are sold at the front desk. Laser cutter
time is charged at £4 per half hour.

Guests
Each member may bring one guest per visit. Guests may not operate any powered tool.

Tidying up
Every bench must be cleared and swept before you leave. Members who leave a mess three times lose access for a
month."""

BAKERY_EN = [
    ["Product", "Unit", "Wholesale price (GBP)", "Minimum order"],
    ["Sourdough loaf, white", "loaf", "2.40", "10 loaves"],
    ["Sourdough loaf, rye", "loaf", "2.90", "10 loaves"],
    ["Croissant, butter", "piece", "0.85", "24 pieces"],
    ["Cinnamon bun", "piece", "1.10", "12 pieces"],
    ["Baguette", "piece", "1.30", "20 pieces"],
    ["Carrot cake, whole (12 slices)", "cake", "14.50", "1 cake"],
]

RESIDENTS_EN = """Minutes of the Annual General Meeting, Linden Court Residents' Association

Date: 18 March 2026, 7pm, in the community room
Chair: Rosalind Achebe
Present: 22 residents

1. Parking
The committee reported that the council has approved a permit scheme for the courtyard. From 1 June 2026 each flat
may hold one parking permit at £60 a year. Visitors' permits will be issued by the caretaker.

2. Garden
The meeting agreed to spend £1,400 on replanting the east garden bed with shrubs that need little water.
Volunteers will meet on the first Saturday of each month to weed.

3. Bins
Complaints about overflowing recycling bins have continued. The committee will ask the council for a second
collection each week.

4. Election of officers
Rosalind Achebe was re-elected chair. Martin Oyelaran was elected treasurer, replacing Gwen Hollis, who stood down
after six years.

Next meeting: 16 September 2026.
Minutes taken by Harriet Lund."""


def main() -> None:
    FILES.mkdir(exist_ok=True)
    markdown_page(FILES / "鹿溪工业园冷链仓库火灾.md", "鹿溪工业园一冷链仓库凌晨起火 两人吸入烟雾送医", WAREHOUSE_FIRE_ZH)
    (FILES / "青桐单车骑行计费规则.txt").write_text("青桐单车用户骑行计费规则\n\n" + BIKE_RULES_ZH + "\n",
                                                 encoding="utf-8")
    markdown_page(FILES / "古渡运河博物馆参观指南.md", "古渡运河博物馆参观指南", MUSEUM_ZH)
    markdown_page(FILES / "岩焙CM7咖啡机使用说明.md", "岩焙 CM7 全自动咖啡机使用说明", COFFEE_ZH)
    markdown_page(FILES / "harrowgate_half_marathon_heat.md", "Heat sends eleven half-marathon runners to hospital",
                  HEATWAVE_EN)
    (FILES / "brackley_makerspace_handbook.txt").write_text("Brackley Makerspace Members' Handbook\n\n"
                                                            + MAKERSPACE_EN + "\n", encoding="utf-8")
    csv_file(FILES / "oakridge_bakery_wholesale_prices.csv", BAKERY_EN)
    markdown_page(FILES / "linden_court_residents_agm_2026.md", "Linden Court Residents' Association AGM 2026",
                  RESIDENTS_EN)


if __name__ == "__main__":
    main()
