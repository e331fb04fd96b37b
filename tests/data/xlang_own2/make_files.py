"""Writes the files of ``tests/data/xlang_own2`` (invented material: Chinese files asked in English and English
files asked in Chinese; run from the repository root: ``.venv/bin/python tests/data/xlang_own2/make_files.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import docx, markdown_page

FILES = Path(__file__).resolve().parent / "files"

MANUAL_ZH = """岚川 R9 扫地机器人适用面积为 120 平方米以内，一次充满电可连续清扫约 150 分钟。

尘盒容量为 0.5 升，建议每次清扫后倒空。边刷建议每 3 个月更换一次，滤网每 2 个月更换一次。

标准模式下运行噪音约 58 分贝。整机保修一年，电池保修六个月。

如遇故障代码 E4，请检查驱动轮是否被缠绕。"""

MINUTES_ZH = [
    ("p", "时间：2025年11月6日晚7点"),
    ("p", "地点：枫桥社区图书馆二楼阅览室"),
    ("p", "主持人：严书衡（理事长）；记录人：蒋若溪"),
    ("p", "出席：理事9人，读者代表4人。"),
    ("p", "潘志远提议将周末开放时间延长至晚上9点，卢佳音附议，表决以11票赞成、2票反对通过。"),
    ("p", "会议确定2026年度购书预算为8.5万元，其中儿童图书占三成。"),
    ("p", "下次会议定于2026年1月8日召开。"),
]

REPORT_EN = """Harlow Bay Seafoods reported revenue of 412 million pounds for 2024, up 7 per cent on the year before.

Net profit rose to 38.6 million pounds. The board proposed a final dividend of 4.2 pence per share.

The company, headquartered in Grimsby, employs 2,150 people across three processing plants.

Chief executive Maria Oyelaran said the new cold store in Hull would open in the spring. The company is chaired by
Duncan Reeve."""

NEWS_EN = """Heavy rain on 12 July 2025 sent the River Kestrel over its banks in the Kestrel Valley.

About 1,800 residents were evacuated from low-lying streets, and two footbridges were swept away.

The river peaked at 5.4 metres at Millford gauge, the highest level since records began in 1961.

The county council estimated the damage at 6 million pounds. Repairs to the Millford road bridge are expected to
take four months."""


def main() -> None:
    FILES.mkdir(parents=True, exist_ok=True)
    markdown_page(FILES / "岚川R9扫地机器人说明书.md", "岚川 R9 扫地机器人 使用说明", MANUAL_ZH)
    docx(FILES / "枫桥社区图书馆理事会会议纪要.docx", "枫桥社区图书馆理事会第四次会议纪要", MINUTES_ZH, stable=True)
    markdown_page(FILES / "harlow_bay_seafoods_results_2024.md", "Harlow Bay Seafoods: 2024 results", REPORT_EN)
    (FILES / "kestrel_valley_flood.txt").write_text("Kestrel Valley flood\n\n" + NEWS_EN + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
