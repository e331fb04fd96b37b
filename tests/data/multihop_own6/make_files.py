"""Write files/: the passages of the sixth own multi-hop set (invented pages in two languages that link to each
other: an English bicycle maker founded by a Chinese engineer, her home county's Chinese page, the English town it
stands in; a Chinese kiln maker headquartered in an English harbour town; product pages with two models each).
Tollbridge, Kessford, 宁川县 and the rest do not exist."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import markdown_page

root = Path(__file__).resolve().parent
files = root / "files"
files.mkdir(parents=True, exist_ok=True)
P = {
"marrow_bicycles.md": ("Marrow Bicycles", "Marrow Bicycles is a maker of steel touring and gravel bicycles. The "
    "firm was started in 1996 by the engineer Zheng Kelan (郑可岚), who had come to England to study metallurgy. "
    "Its head office and frame workshop are in Tollbridge, a market town in the Hessle valley, and about 140 people "
    "work there. The company sells two gravel models: the Marrow Ridge and the lighter Marrow Fell. A touring model, "
    "the Marrow Summit, has been announced for 2027."),
"marrow_models.md": ("Marrow gravel models", "The Marrow Ridge has a chromoly frame and weighs 11.8 kg in size M; it "
    "costs £1,240. The Marrow Fell uses thinner butted tubing and weighs 10.9 kg in the same size; it costs £1,390. "
    "Both come with a lifetime frame guarantee. No weight or price has yet been published for the Marrow Summit."),
"tollbridge.md": ("Tollbridge", "Tollbridge is a market town on the River Hessle. It was founded in 1288, when the "
    "abbey of Wrenfold was granted the right to hold a weekly market at the river crossing. Its oldest structure, the "
    "Old Toll Bridge, was opened in 1414 and still carries foot traffic. At the 2021 census the town had 18,400 "
    "residents. Since the 1990s it has been known for bicycle making."),
"郑可岚.md": ("郑可岚", "郑可岚，1961年生于宁川县，机械工程师、企业家。她在宁川县第一中学毕业后考入大学学习材料，"
    "1989年赴英国攻读冶金学博士。1996年，她在英国创办了自行车公司 Marrow Bicycles，专做钢架旅行车，"
    "并亲自设计了公司最早的三款车架。2018年她把公司的日常管理交给了合伙人，本人仍任技术顾问。"),
"宁川县.md": ("宁川县", "宁川县位于青溪河上游，是一个以丘陵为主的山区县。宁川于1374年设县，县城至今保留着明代的城墙"
    "残段。全县常住人口约27.5万，主要产业为竹材加工和茶叶种植。宁川县以盛产毛竹闻名，被称为“竹乡”。"),
"云岫陶瓷.md": ("云岫陶瓷", "云岫陶瓷（Yunxiu Ceramics）是一家生产电窑炉和陶艺设备的公司，2004年由许文舟创立。"
    "公司总部设在英国港口小镇 Kessford，在国内另有一个组装车间。云岫陶瓷目前主销两款电窑：青峰A型额定功率为18千瓦，"
    "售价4.6万元；青峰B型额定功率为24千瓦，售价5.9万元。公司还预告了一款青峰C型，但尚未公布功率和售价。"),
"kessford.md": ("Kessford", "Kessford is a small harbour town at the mouth of the River Orrin. It was founded in "
    "1602 as a fishing station and grew around its stone harbour wall, which was completed in 1688. About 9,800 "
    "people live there today. Besides fishing, the town has a pottery tradition and hosts the head office of a "
    "kiln maker."),
}
for name, (title, text) in P.items():
    markdown_page(files / name, title, text)
print(len(P), "files")
