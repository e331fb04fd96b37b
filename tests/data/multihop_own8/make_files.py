"""Write files/: the passages of the eighth own multi-hop set (invented pages in two languages that link to each
other: an English hill observatory, the village it stands in, its founder, the optical firm that made its
telescope; a Chinese observatory whose director was a visiting scholar at the English one and whose mirror the
same firm ground, the Chinese town it stands in, the director's page; an English visitor price table and a Chinese
one). Kestrel Hill Observatory, Thornmere, Miriam Oakes, Calder Optical Works, 青崖天文台, 松桥镇 and 周砚清 do not
exist."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import csv_file, markdown_page

root = Path(__file__).resolve().parent
files = root / "files"
files.mkdir(parents=True, exist_ok=True)
P = {
"kestrel_hill_observatory.md": ("Kestrel Hill Observatory", "The Kestrel Hill Observatory is a research and public "
    "observatory on the ridge above the village of Thornmere. It was founded in 1931 by the astronomer Miriam Oakes, "
    "who ran it until her retirement. Its main instrument, the 1.2-metre Halden Reflector, was completed in 1936; "
    "the mirror was ground by Calder Optical Works. The observatory opens to visitors on clear Friday evenings and "
    "keeps a small library of glass photographic plates."),
"thornmere.md": ("Thornmere", "Thornmere is a village in the Harlan Dales, on the west bank of the River Lune. "
    "About 2,840 people live in the parish. The church of St Edith was built in 1412, and a weekly market has been "
    "held on the green since the eighteenth century. The village lies at the foot of Kestrel Hill."),
"miriam_oakes.md": ("Miriam Oakes", "Miriam Oakes (12 March 1889 – 4 October 1967) was an English astronomer. "
    "She was born in Ravensholt, the daughter of a clockmaker, and studied mathematics at Girton before working on "
    "variable stars under Edmund Tarrow. In 1931 she founded the observatory on Kestrel Hill. She never married and "
    "left her notebooks to the county archive."),
"calder_optical_works.md": ("Calder Optical Works", "Calder Optical Works is an optical company in Penhallow. It "
    "was founded in 1874 by the brothers Josiah and Amos Calder, who began by grinding lenses for lighthouses. The "
    "firm later made large telescope mirrors for observatories in Britain and abroad. It employs about 220 people."),
"周砚清.md": ("周砚清", "周砚清（Zhou Yanqing），1952年出生于临溪县，天文学家，长期研究变星。1986年至1988年，"
    "他在英国的 Kestrel Hill Observatory 做访问学者。回国后他参与筹建青崖天文台，1995年起担任该台台长。"),
"青崖天文台.md": ("青崖天文台", "青崖天文台（Qingya Observatory）坐落在松桥镇以东的青崖山顶，1978年建成。"
    "台里最大的望远镜主镜口径2.16米，镜面由英国的 Calder Optical Works 磨制。天文台每年春秋两季向公众开放。"),
"松桥镇.md": ("松桥镇", "松桥镇位于青崖山脚下，1953年设镇，以茶叶和竹器闻名。全镇常住人口约2.6万，"
    "镇上有一座明代的石拱桥。"),
}
for name, (title, text) in P.items():
    markdown_page(files / name, title, text)
csv_file(files / "kestrel_visits.csv", [
    ["Visit", "Adult", "Child", "Family ticket"],
    ["Friday star evening", "£12.00", "£6.00", "£30.00"],
    ["Daytime solar viewing", "£7.50", "£4.00", "£20.00"],
    ["Plate library tour", "£5.00", "£2.50", "—"],
])
csv_file(files / "青崖天文台参观票价.csv", [
    ["项目", "票价", "备注"],
    ["天象厅球幕电影", "40元/人", "每天四场"],
    ["夜间望远镜观测", "120元/人", "需提前三天预约"],
    ["天文科普展厅", "免费", "周一闭馆"],
])
