"""Writes the files of ``tests/data/xlang_own3`` (invented material: long and short files in Chinese and English,
asked in the other language and, in the long ones, about a sentence far from the file's opening; run from the
repository root: ``.venv/bin/python tests/data/xlang_own3/make_files.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import docx, markdown_page

FILES = Path(__file__).resolve().parent / "files"

GLASS_EN = """Corvane Glassworks Ltd. makes container glass and pressed tableware at its single site on the Tarrow
estuary. This annual review covers the year ended 31 December 2025 and is addressed to the company's shareholders,
employees and the wider Tarrow community.

## Who we are

The company was founded in 1897 by the brothers Amos and Reuben Corvane, who built the first coal-fired pot furnace
beside the old ferry slip. It moved to its present site in 1964 and has been owned since 2009 by the Halbeck family
trust. Corvane Glassworks remains one of only four independent container-glass makers in the country. Its customers
are regional breweries, preserve makers and a growing number of cosmetics brands that want short runs of coloured
bottles.

## Chair's statement

It has been a year of steady work rather than headlines. The board met eleven times. We welcomed Priya Lindqvist as
an independent director in April and said goodbye to Gerald Moss, who retired after fourteen years on the board. The
chair of the board is Helen Ashdown, and the chief executive is Tomas Berrigan, who joined the company from the
packaging industry in 2021. The board thanks everyone at the Tarrow site for a safe and productive year.

## Markets

Demand from breweries fell slightly as drinkers moved to cans, but orders from preserve makers rose for the third
year running. The cosmetics range, launched in 2023, now fills one production line for most of the year. Export
sales to Ireland and the Netherlands grew, helped by a new distributor in Rotterdam. Prices were raised twice during
the year to pass on higher energy and soda ash costs.

## Operations

Furnace No. 3 was relined in February during a planned five-week shutdown, the first reline since 2013. The new
lining is expected to last twelve years. Two new forming machines were installed on line B, raising its speed by a
fifth. Recycled glass, known in the trade as cullet, made up 62 per cent of the batch melted in 2025, against 55 per
cent a year earlier, which cut both fuel use and carbon emissions. Pack-to-melt efficiency reached 91 per cent.

## Financial review

Revenue for 2025 was 86.3 million pounds, up 9 per cent on 2024, with most of the increase coming from price rises
and the cosmetics range. Operating profit was 7.9 million pounds, compared with 6.1 million pounds the year before.
Capital spending, mostly the furnace reline and the forming machines, came to 11.4 million pounds and was funded from
cash and a new bank facility. Net debt at the year end stood at 5.2 million pounds. The directors recommend a
dividend of 3.1 pence per share.

## People

The company employed 1,240 people at the end of the year, of whom 96 are apprentices or trainees. Staff turnover
fell to 7 per cent. A new training hall opened in September, and every furnace operator completed the updated
hot-end safety course. The lost-time injury rate was the lowest in the company's recorded history.

## Sustainability

Beyond the higher cullet share, a heat-recovery boiler now warms the offices and the mould shop. Water drawn from the
estuary fell by a quarter after the cooling circuit was closed. The company aims to run one furnace on hydrogen
blends by 2030 and has joined a regional trial led by the Tarrow Energy Partnership.

## Outlook

The board expects 2026 to bring modest growth. Orders for the first quarter are ahead of last year, and a second
cosmetics line is planned for the autumn if demand holds."""

PLANT_ZH = """本年报介绍青屿镇污水处理厂2025年的运行、水质、能耗、人员与投资情况，供镇政府及社会公众查阅。

## 一、基本情况

青屿镇污水处理厂位于青屿镇东港村以北，始建于2012年，2013年5月正式通水运行，服务范围包括镇区及周边六个行政村，
服务人口约11万人。污水处理厂采用改良型A2/O工艺，配套深度处理单元，尾水经人工湿地后排入东港河。厂区占地约68亩，
由青屿水务有限公司负责运营管理，接受镇生态环境办公室的监督。

## 二、运行情况

污水处理厂设计日处理能力为4.5万吨，2025年全年累计处理污水1,420万吨，日均处理量约3.9万吨，平均负荷率约87%。
雨季（6月至8月）进水量明显增加，最高日处理量达到5.1万吨，超过设计规模的部分通过调蓄池暂存后处理，全年未发生溢流。
全年设备完好率保持在98%以上，主要设备计划检修两次，分别安排在3月和11月，检修期间通过双系列轮换运行保证出水达标。

## 三、出水水质

全年出水水质稳定达到一级A排放标准，化学需氧量年均值为18毫克每升，氨氮年均值为0.6毫克每升，总磷年均值为0.21毫克每升。
在线监测数据每两小时上传一次，镇生态环境办公室全年开展监督性监测十二次，全部合格。污泥经脱水后含水率降至60%以下，
全部送往县污泥处置中心进行焚烧处理，全年共外运污泥约4,300吨。

## 四、能耗与药耗

2025年全厂用电量约440万千瓦时，吨水电耗为0.31千瓦时，较上年下降约6%，主要得益于鼓风机变频改造和曝气系统优化。
全年消耗除磷药剂约510吨，碳源约260吨。厂区屋顶光伏电站于2025年9月并网，装机容量为300千瓦，预计每年发电约32万千瓦时。

## 五、人员与管理

全厂现有职工38人，其中技术人员14人，持证上岗率100%。厂长由韦承泽担任，副厂长为钟岚。全年组织安全培训和应急演练共九次，
未发生安全生产事故。厂区实行二十四小时值班制度，中控室实行四班三运转。

## 六、投资与改造

2025年实施的提标改造工程总投资为2,600万元，新增高效沉淀池一座、反硝化深床滤池一座，于2025年11月完工并通过验收。
另投入约180万元更新在线监测设备和厂区管网。

## 七、2026年工作计划

2026年将启动二期扩建前期工作，计划将设计日处理能力提高到6万吨；继续推进污泥减量和节能降耗，力争吨水电耗降至0.29千瓦时；
同时开展厂区开放日活动，欢迎居民和学生参观。"""

HEATPUMP_EN = """Norvik AX40 air-to-water heat pump: installation and user manual

1. About this manual

This manual is for installers and owners of the Norvik AX40 outdoor heat pump unit. Read it completely before
installing or operating the unit, and keep it with the unit for future reference. Norvik Climate AB reserves the
right to change the design and specifications without notice. Illustrations are for guidance only.

2. Safety

Only a qualified installer may install, service or dismantle the unit. The unit contains a flammable refrigerant;
keep sources of ignition away from it and never pierce the refrigerant circuit. Switch off the mains supply before
opening any panel. Do not place the unit in a pit, a closed yard or under a balcony where leaking refrigerant could
collect. Children must not play with the unit or climb on it.

3. Choosing the location

Place the unit on a firm, level base at least 100 mm above the ground so that defrost water can drain away. Leave
300 mm free behind the unit and 1,000 mm in front of the fan. Avoid placing it next to bedroom windows. In areas with
heavy snow, raise the unit on the wall bracket or the floor stand sold as accessories.

4. Installation

Connect the flow and return pipes with the flexible hoses supplied. Fit the strainer and the shut-off valves on the
return pipe. Fill the heating system to a cold pressure of 1.5 bar and vent every radiator. Connect the unit to its
own circuit breaker and to the indoor controller with the shielded bus cable. Run the commissioning wizard on the
controller; it tests the pump, the fan and the compressor in turn.

5. Technical data

The rated heating output is 9.2 kW at an outdoor temperature of 7 degrees and a flow temperature of 35 degrees. The
seasonal coefficient of performance is 4.6 for low-temperature heating. The refrigerant is R290 (propane), with a
charge of 0.9 kg. The maximum flow temperature is 70 degrees. The sound power level is 52 dB(A) in quiet mode. The
unit measures 1,080 by 820 by 450 mm and weighs 88 kg without water. It runs on a single-phase 230 V supply and
needs a 16 A circuit breaker. The operating range is from minus 25 to plus 35 degrees outdoors.

6. Everyday use

Set the room temperature on the indoor controller. The weather curve raises the flow temperature as it gets colder
outside; a lower curve saves energy. Quiet mode limits the fan and compressor speed at night. Holiday mode keeps the
house at 12 degrees. The app shows the energy used and the heat delivered for each day.

7. Maintenance

Clean the strainer once a year and brush leaves and snow away from the coil. Check the system pressure every month;
top it up when it falls below 1.0 bar. Have the refrigerant circuit checked by a qualified installer every two years.

8. Fault codes

F02: outdoor temperature sensor fault; call your installer.
F05: fan blocked; switch off and remove leaves or ice from the fan.
F07: low water pressure; top up the heating system to 1.5 bar and restart the unit.
F11: compressor overheating; the unit restarts by itself after 30 minutes.
F14: lost connection to the indoor controller; check the bus cable.

9. Warranty

The Norvik AX40 carries a warranty of 7 years on the compressor and 3 years on all other parts, provided the unit
was commissioned by a certified installer and serviced as described in section 7. Register the unit online within
three months of installation."""

RACE_ZH = """沙河口区第十二届龙舟邀请赛于2025年6月1日在沙河口滨江段举行，来自本市及周边城市的28支队伍参加了比赛。

比赛设500米直道竞速和200米趣味赛两个项目。当天上午八点半，随着三声鼓响，首批参赛龙舟冲出起点，江面上鼓声、
号子声此起彼伏。两岸及滨江步道上观赛的市民和游客约3万人，不少家庭一早就带着孩子前来占位。

经过预赛、半决赛和决赛的激烈角逐，来自渔港社区的蓝鲸队以2分41秒的成绩夺得500米直道竞速冠军，卫冕冠军银杏湾队获得亚军，
东坝街道代表队获得第三名。200米趣味赛冠军由一支全部由中学教师组成的“粉笔头”队获得。

本次比赛由沙河口区文化和旅游局主办，沙河口区龙舟协会承办。赛事期间，主办方在滨江广场设置了非遗市集，展示香包、
粽子制作等传统技艺。组委会表示，明年将争取把比赛升级为省级赛事。"""

FERRY_EN = """The Brantholm crossing has a new boat. The electric ferry Saga Linn entered service on 3 March 2025,
replacing the diesel ferry that had linked Brantholm island with the mainland harbour at Oddvik since 1988.

The Saga Linn carries up to 180 passengers and 40 cars, twice as many cars as the old ferry. A single crossing takes
22 minutes, four minutes less than before, and the boat charges its batteries for ten minutes at the Oddvik quay
between trips.

The ferry was built at the Helmstad yard and cost 14 million pounds, of which the regional transport fund paid half.
Islanders say the boat is so quiet that they can hear the gulls again."""

MINUTES_ZH = [
    ("p", "时间：2025年10月16日下午4点"),
    ("p", "地点：梧桐湾小学行政楼三楼会议室"),
    ("p", "主持人：沈嘉禾（家委会主任）；记录人：邬晓芸"),
    ("p", "出席：家委会委员11人，学校德育处主任列席。"),
    ("h", "一、上学期工作回顾"),
    ("p", "沈嘉禾回顾了上学期家委会的主要工作：组织家长志愿者护学岗共计1,260人次，协助学校举办科技节和读书节，"
          "配合食堂开展了两次家长陪餐活动。委员们一致认为护学岗制度运行良好，建议本学期继续保持每天早晚各六名志愿者。"),
    ("h", "二、校服更换"),
    ("p", "学校拟于下学期更换新款校服。经与三家供应商比价，家委会同意选用青禾服饰的方案，新校服每套价格为185元，"
          "包括春秋装上衣、长裤各一件，家长自愿购买，家庭经济困难学生由学校补贴。"),
    ("h", "三、午餐满意度"),
    ("p", "德育处通报了午餐满意度调查结果：共回收问卷1,032份，满意率为86%。家长反映较多的是菜品口味偏淡、水果供应不足，"
          "家委会将把意见汇总后转交食堂，并于十二月再组织一次陪餐。"),
    ("h", "四、秋季研学活动"),
    ("p", "会议讨论了四、五年级秋季研学活动方案。目的地为县农业科技园和湿地公园，时间安排在11月中旬。"
          "经讨论，会议决定研学活动人均费用上限为260元，超出部分由学校统筹解决，不再向家长收取；"
          "参加研学的学生须购买意外保险。"),
    ("h", "五、其他事项"),
    ("p", "委员提议在校门口增设雨天临时等候棚，学校表示将向镇教办申请专项经费。下次家委会会议定于2025年12月11日召开。"),
]


def main() -> None:
    FILES.mkdir(parents=True, exist_ok=True)
    markdown_page(FILES / "corvane_glassworks_annual_review_2025.md", "Corvane Glassworks: annual review 2025",
                  GLASS_EN)
    markdown_page(FILES / "青屿镇污水处理厂2025年运行年报.md", "青屿镇污水处理厂2025年运行年报", PLANT_ZH)
    (FILES / "norvik_ax40_manual.txt").write_text(HEATPUMP_EN + "\n", encoding="utf-8")
    (FILES / "沙河口龙舟邀请赛.txt").write_text("沙河口区第十二届龙舟邀请赛落幕\n\n" + RACE_ZH + "\n", encoding="utf-8")
    markdown_page(FILES / "brantholm_ferry.md", "A new ferry for Brantholm", FERRY_EN)
    docx(FILES / "梧桐湾小学家委会会议纪要.docx", "梧桐湾小学家长委员会2025年秋季第一次会议纪要", MINUTES_ZH, stable=True)


if __name__ == "__main__":
    main()
