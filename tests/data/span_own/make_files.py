"""Writes the files of ``tests/data/span_own`` (invented material, zh + en; run from the repository root:
``.venv/bin/python tests/data/span_own/make_files.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import docx, markdown_page

FILES = Path(__file__).resolve().parent / "files"

MINUTES_ZH = """松涛社区议事会第七次会议纪要

时间：2025年9月14日下午3点
地点：松涛社区服务中心二楼会议室
主持人：韩立群（议事会主任）
记录人：祁雨
出席：议事会成员11人，居民代表6人。

会议讨论了北门停车场改造方案。经表决，方案以15票赞成、2票反对获得通过，改造工程预计投资48万元，工期约70天。

会议决定，由副主任邬晓棠负责与物业公司对接。因为老旧电梯多次停运，居民意见较大，所以会议同意优先使用维修基金更换3号楼电梯。
下次会议定于10月12日召开。"""

RACE_ZH = """晨岭山地马拉松于2025年10月18日在晨岭国家森林公园举行，共有3200名选手报名，实际起跑2876人。

男子全程组冠军由乌克兰选手安德烈·科瓦连科获得，成绩为3小时41分。女子全程组冠军是本地选手谭静，成绩为4小时12分。
全程赛道长42~46公里，累计爬升约2300米。

赛事组委会表示，乌克兰、肯尼亚等多国选手参加了本届比赛。由于赛道后半段连续下雨，路面湿滑，赛会设置的关门时间延长了30分钟。
因此，本届完赛率达到了历年最高的91%。

下一届比赛计划于2026年秋季举办，报名费为280元。"""

FERRY_EN = """Brackwater Ferry Service — operations notice

Issued 3 March 2025 by J. R. Tolland, operations manager.

The Brackwater ferry runs between Selby Quay and Hollin Point. The crossing takes 40-55 minutes in calm weather,
and the ferry MV Corrie Lass carries up to 180 passengers and 24 cars.

Alert codes shown on the departure board:
F1: crossing delayed by less than 30 minutes.
F2: crossing delayed by more than 30 minutes; refunds available at the kiosk.
F3: service suspended because of high winds.

From March 17, the first sailing leaves Selby Quay at 6:40 a.m. instead of 7:10 a.m. The change was requested by
the Hollin Point school board, because pupils arrived late for the 8:00 a.m. lessons.

The new vessel, MV Tarn Heron, was built by Ostrava Marine in Gdańsk and is due to enter service on 2 June 2025.
Captain Mira Osk will command her. A return ticket costs £6.50 for adults."""

ORCHARD_EN = """Lowmere Orchard Cooperative

The Lowmere Orchard Cooperative was founded in 1987 by Dr. E. L. Hanwell, a retired plant pathologist, and is
based in Tiverley, a village on the river Lowe. It has 143 member growers, who farm about 610 hectares.

Scab disease ruined two harvests in a row in the early 1990s. As a result, the cooperative planted only
scab-resistant apple varieties after 1994.

The cooperative presses about 1.2 million litres of juice a year. Its annual fair is held at Tiverley Green each
October; in 2024 it drew 9,400 visitors. The present chair is Priya Castellane, elected in 2022."""

AQUARIUM_ZH = [
    ("p", "琥珀湾海洋馆位于临川市东港区滨海大道88号，于2019年5月1日对外开放。"),
    ("p", "馆内设有深海隧道、珊瑚礁展区、极地企鹅馆和水母厅四个主要展区。"),
    ("h", "票务"),
    ("p", "成人票价为120元，儿童票价为60元，身高1.2米以下儿童免票。"),
    ("h", "馆长"),
    ("p", "现任馆长为海洋生物学博士宁可欣，她于2021年接替退休的前任馆长沈叔平。"),
    ("p", "海洋馆每年接待游客约150万人次。由于展区使用海水循环系统，馆内水温常年保持在24℃左右。"),
]


def main() -> None:
    FILES.mkdir(exist_ok=True)
    (FILES / "松涛社区议事会纪要.txt").write_text(MINUTES_ZH + "\n", encoding="utf-8")
    markdown_page(FILES / "晨岭山地马拉松.md", "晨岭山地马拉松赛况", RACE_ZH)
    markdown_page(FILES / "brackwater_ferry_notice.md", "Brackwater Ferry Service", FERRY_EN)
    (FILES / "lowmere_orchard.txt").write_text(ORCHARD_EN + "\n", encoding="utf-8")
    docx(FILES / "琥珀湾海洋馆.docx", "琥珀湾海洋馆简介", AQUARIUM_ZH, stable=True)


if __name__ == "__main__":
    main()
