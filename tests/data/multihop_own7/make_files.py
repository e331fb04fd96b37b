"""Write files/: the passages of the seventh own multi-hop set (invented pages in two languages that link to each
other in chains of up to three hops: an English ferry operator whose managing director has a Chinese page naming
the Chinese shipyard she worked at, the shipyard's page naming its town and the ferry it built, the town's page;
the operator's home port's English page; an English fare table and a Chinese excursion price list).
Harrowgate Ferries, Wendlebay, 林秋禾, 澜石造船厂 and 澜石镇 do not exist."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import csv_file, markdown_page

root = Path(__file__).resolve().parent
files = root / "files"
files.mkdir(parents=True, exist_ok=True)
P = {
"harrowgate_ferries.md": ("Harrowgate Ferries", "Harrowgate Ferries runs passenger and car ferries to the outer "
    "islands of the Aldmoor coast. The company has its head office in Wendlebay, a port town on the Firth of "
    "Aldmoor. Since 2015 its managing director has been the marine engineer Lin Qiuhe (林秋禾). The fleet has two "
    "ships. The MV Corran was built in 1998, is 62 metres long and carries up to 350 passengers. The MV Skerra, "
    "built in 2011 at the Lanshi Shipyard (澜石造船厂), is 71 metres long and serves the Skerra Sound crossing."),
"wendlebay.md": ("Wendlebay", "Wendlebay is a port town on the southern shore of the Firth of Aldmoor. It received "
    "its market charter in 1176 and grew as a herring port. Its population was 31,200 at the last census. The town "
    "hall, rebuilt after a fire in 1842, stands opposite the ferry terminal. Wendlebay is twinned with a fishing "
    "town in Norway."),
"林秋禾.md": ("林秋禾", "林秋禾（Lin Qiuhe），1970年生于鹤汀市，船舶与海洋工程师。她大学毕业后进入澜石造船厂，"
    "在那里做了十八年的船体设计，主持设计过多艘近海客滚船。2009年她移居英国，2015年起担任渡轮公司 "
    "Harrowgate Ferries 的总经理。她业余喜欢帆船运动。"),
"澜石造船厂.md": ("澜石造船厂", "澜石造船厂（Lanshi Shipyard）始建于1958年，是一家以中小型客船和渡轮为主的造船企业，"
    "厂区坐落在澜石镇的海湾西岸，现有职工约1600人。2011年，该厂为英国一家渡轮公司建造了71米长的客滚船 MV Skerra，"
    "这是工厂第一次向欧洲交付整船。"),
"澜石镇.md": ("澜石镇", "澜石镇位于澜石湾北岸，1912年设镇，是一个以造船和海产养殖为主的沿海小镇。"
    "全镇常住人口约4.3万。镇上的老码头始建于清代，如今改成了海洋博物馆。"),
}
for name, (title, text) in P.items():
    markdown_page(files / name, title, text)
csv_file(files / "ferry_fares.csv", [
    ["Crossing", "Adult single", "Car with driver", "Bicycle"],
    ["Wendlebay – Corran Isle", "£14.50", "£62.00", "£4.00"],
    ["Wendlebay – Skerra Sound", "£9.80", "£48.50", "£3.50"],
    ["Wendlebay – Harlow Point", "£6.20", "£31.00", "—"],
])
csv_file(files / "澜石镇海上游价目表.csv", [
    ["项目", "价格", "说明"],
    ["澜石湾观鸟半日游", "180元/人", "含望远镜租用"],
    ["灯塔夜游", "95元/人", "每周五、周六晚开船"],
    ["海洋博物馆门票", "30元/人", "六岁以下免费"],
    ["渔排午餐", "68元/人", "需提前一天预约"],
])
print(len(P) + 2, "files")
