"""Writes the files of ``tests/data/xlang_own6`` (invented material in six domains, three files in Chinese and
three in English, each asked about in the other language; run from the repository root:
``.venv/bin/python tests/data/xlang_own6/make_files.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import csv_file, markdown_page

FILES = Path(__file__).resolve().parent / "files"

ORCHESTRA_ZH = """时间：2026年4月12日（星期日）下午2:00—5:00
地点：枫岚社区活动中心二楼排练厅
指挥：段清禾
谱务：韦小棠
纪要整理：苏映雪
出席：团员31人，缺席6人

一、排练曲目
本次排练了《春江花月夜》和《喜洋洋》两首曲目。段清禾指出弹拨声部的速度仍不统一，要求各声部下周前自行分谱练习。

二、乐器采购
经理事会同意，新购二胡三把，共花费4,200元，由乐团活动经费支出。乐器由韦小棠登记入库。

三、演出安排
下一次公开演出定于5月18日晚在滨河公园露天舞台举行，届时需提前两小时到场走台。

四、其他
乐团现有登记团员37人。团员如需请假，应提前一天告知声部长。"""

DRAGON_BOAT_ZH = """本报讯（记者 邝思远）6月19日端午节当天，白沙湾第十二届龙舟赛在白沙湾内港鸣锣开赛，共有14支队伍、\
三百余名桨手参赛，沿岸观众约两万人。

本届比赛赛道全长500米，设直道竞速一个项目。经过预赛、半决赛和决赛三轮角逐，渔港村队以2分48秒的成绩夺得冠军，\
东堤社区队和船厂职工队分获亚军和季军。

比赛的裁判长由市龙舟协会副会长龚振远担任，发令员为郑晓鸥。决赛中一条龙舟在转弯处侧翻，一名队员落水，\
随即被救生艇救起，未受伤。

组委会表示，明年的龙舟赛将增设女子组。"""

POTTERY_ZH = """陶然窑陶艺工作室会员须知

一、开放时间
工作室周二至周日10:00—21:00开放，周一闭馆清洁。

二、拉坯与转盘
每位会员每月可使用拉坯转盘20小时，超出部分每小时收费15元。使用前须在前台登记。

三、烧窑
素烧按坯体重量计费，每公斤素坯18元；釉烧每公斤25元。釉料由工作室统一提供，会员不得自带釉料入窑。
窑务负责人：蔺晓舟（负责装窑、出窑和烧窑排期）。作品入窑后约需5个工作日取件。

四、安全
使用窑炉区域须由工作人员陪同。儿童会员须有家长全程看护。"""

REGATTA_EN = """The Kestrel Reach Rowing Club held its Spring Regatta on Saturday 9 May 2026 on the River Avenmoor.
Twenty-six crews from nine clubs entered, and the racing ran from 9 am until late afternoon.

Race officials for the day were: Umpire, Felicity Garrow; Timekeeper, Declan Shaw; Safety launch driver, Owen Pryce.

The course is 1,250 metres long, from the railway bridge to the boathouse steps. The men's coxed four was won by
Hollin Vale RC in a time of 6:41, two lengths ahead of the home crew. In the women's double sculls, Kestrel Reach's
own pair took first place.

The club's new eight, bought this spring for £18,500 with help from a lottery grant, raced for the first time.
Boatman Ewan Tully rigged it the evening before. The next regatta is planned for 12 September."""

REPAIR_CAFE_EN = """Millbrook Repair Café - Spring Newsletter

Where and when: we meet on the last Saturday of each month, 10 am to 1 pm, in St Aidan's church hall on Mill Lane.
Our volunteers: lead fixer Gus Ferreira; electrical safety tester Nadia Okafor, who PAT-tests every appliance before
it goes home; tea and cake are run by Bryony Hale.

In March, visitors brought 61 broken items. Of those, 44 were repaired on the day, a success rate of 72 percent.
The most common repairs were lamps, toasters and torn trousers.

Donations received so far this year total £930, which will pay for a new soldering station.
Please do not bring petrol-powered tools or microwave ovens."""

CIDER_EN = [
    ["service", "unit", "price (GBP)", "notes"],
    ["Pressing (your own apples)", "per 10 kg", "4.50", "minimum 20 kg"],
    ["Pasteurising", "per litre", "0.60", "bottled juice only"],
    ["Bottle hire", "per crate of 12", "3.00", "deposit 5.00"],
    ["Home cider kit", "each", "22.00", "yeast and airlock included"],
    ["Orchard Lane Cider Press opening days", "", "", "Saturdays in September and October"],
]


def main() -> None:
    FILES.mkdir(exist_ok=True)
    markdown_page(FILES / "枫岚社区民乐团四月排练纪要.md", "枫岚社区民乐团四月排练纪要", ORCHESTRA_ZH)
    markdown_page(FILES / "白沙湾龙舟赛.md", "白沙湾第十二届龙舟赛落幕 渔港村队夺冠", DRAGON_BOAT_ZH)
    (FILES / "陶然窑会员须知.txt").write_text(POTTERY_ZH + "\n", encoding="utf-8")
    markdown_page(FILES / "kestrel_reach_spring_regatta_2026.md", "Kestrel Reach Spring Regatta 2026", REGATTA_EN)
    (FILES / "millbrook_repair_cafe_newsletter.txt").write_text(REPAIR_CAFE_EN + "\n", encoding="utf-8")
    csv_file(FILES / "orchard_lane_cider_press_prices.csv", CIDER_EN)


if __name__ == "__main__":
    main()
