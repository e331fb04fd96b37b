"""Write files/: the passages of the second own multi-hop set (invented material; other domains than
multihop_own: an observatory and its instruments, a football club and its stadium, a painting and its museum,
a bridge, a university, a dish)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

root = Path(__file__).resolve().parent
files = root / "files"
files.mkdir(parents=True, exist_ok=True)
P = {
"vell_observatory.md": ("Vell Observatory", "The Vell Observatory is an astronomical observatory on Mount Arden, above the town of Ossery in Maravia. It is run by Carrow University. Its main telescope, the Dunmore Reflector, was installed in 1911."),
"ossery.md": ("Ossery", "Ossery is a mountain town in northern Maravia. It was founded in 1402 by silver miners. The town lies at the foot of Mount Arden."),
"dunmore_reflector.md": ("Dunmore Reflector", "The Dunmore Reflector is a 1.2 m reflecting telescope at the Vell Observatory. It was designed by the optician Helena Dunmore. It was used to discover the comet Ossery-Vance in 1934."),
"helena_dunmore.md": ("Helena Dunmore", "Helena Dunmore (3 February 1868 – 22 July 1941) was a Maravian optician and instrument maker. She was born in Pellby. Her father was the clockmaker Rufus Dunmore. She married the astronomer Edwin Vance in 1895."),
"edwin_vance.md": ("Edwin Vance", "Edwin Vance (1864 – 1939) was a Maravian astronomer. He was born in Ossery. He directed the Vell Observatory from 1902 to 1930 and co-discovered the comet Ossery-Vance. His wife was the optician Helena Dunmore."),
"rufus_dunmore.md": ("Rufus Dunmore", "Rufus Dunmore (1831 – 1902) was a Maravian clockmaker. He built the tower clock of Pellby town hall. His daughter was the optician Helena Dunmore."),
"pellby.md": ("Pellby", "Pellby is a river port in Maravia on the River Stray. Pellby was founded in 1190. Its town hall has a tower clock from 1870."),
"corran_athletic.md": ("Corran Athletic", "Corran Athletic is a Tollish football club based in Wendmoor. The club was founded in 1893 by railway workers. It plays its home matches at Harrow Park. Its manager is Ines Calloway."),
"harrow_park.md": ("Harrow Park", "Harrow Park is a football stadium in Wendmoor, Tolland. It opened in 1921 and holds 24,000 spectators. It is the home ground of Corran Athletic. The stadium was designed by the architect Samuel Pryde."),
"ines_calloway.md": ("Ines Calloway", "Ines Calloway (born 8 October 1979) is a Tollish football manager and former midfielder. She was born in Brackwater. She has managed Corran Athletic since 2021."),
"wendmoor.md": ("Wendmoor", "Wendmoor is an industrial city in Tolland. It was founded in 1311 as a wool market. The River Lenn flows through the city."),
"brackwater.md": ("Brackwater", "Brackwater is a coastal village in western Tolland. It was first recorded in 1086. Fishing and boat building are its main trades."),
"samuel_pryde.md": ("Samuel Pryde", "Samuel Pryde (1880 – 1957) was a Tollish architect. He was born in Wendmoor. He designed stadiums and railway stations, among them Harrow Park and Lenn Street Station."),
"the_copper_kettle.md": ("The Copper Kettle", "The Copper Kettle is a restaurant in Ossery, Maravia, opened in 1968. Its head chef is Marco Bellweather. It is known for its smoked trout."),
"the_lantern_keepers.md": ("The Lantern Keepers", "The Lantern Keepers is an 1889 oil painting by Clara Fennimore. It hangs in the Quessary National Gallery in Lorne. The painting shows two women lighting street lamps."),
"clara_fennimore.md": ("Clara Fennimore", "Clara Fennimore (1851 – 1920) was a Quessarian painter. She was born in Lorne. Her mother was the embroiderer Alys Fennimore. She taught at the Lorne Academy of Art."),
"alys_fennimore.md": ("Alys Fennimore", "Alys Fennimore (1825 – 1898) was a Quessarian embroiderer. She was born in Tessington. Her daughter was the painter Clara Fennimore."),
"lorne.md": ("Lorne", "Lorne is the capital of Quessary. It was founded in 1064 on the banks of the River Ash. The city has three universities."),
"tessington.md": ("Tessington", "Tessington is a market town in southern Quessary. It was founded in 1247. It holds a wool fair every spring."),
"quessary_national_gallery.md": ("Quessary National Gallery", "The Quessary National Gallery is an art museum in Lorne. It opened in 1855. Its first director was the critic Owen Marsh. The gallery holds about 4,000 paintings."),
# Chinese
"墨河大桥.md": ("墨河大桥", "墨河大桥是青川市的一座斜拉桥，2009年通车。大桥由工程师沈立峰设计，由江华建设公司承建。桥长1.8公里。"),
"沈立峰.md": ("沈立峰", "沈立峰（1962年5月9日－）是一位桥梁工程师。他出生于柳湾镇，毕业于青川大学。他的妻子是化学家唐雨薇。"),
"唐雨薇.md": ("唐雨薇", "唐雨薇（1965年－）是一位化学家。她出生于松岗县，父亲是中医唐伯年。她在青川大学任教。她的丈夫是工程师沈立峰。"),
"唐伯年.md": ("唐伯年", "唐伯年（1930年－2001年）是一位中医。他在柳湾镇行医四十年。他的女儿是化学家唐雨薇。"),
"青川市.md": ("青川市", "青川市是西岭省的一座城市，位于墨河两岸。青川市建于1288年。2020年人口约为160万。"),
"柳湾镇.md": ("柳湾镇", "柳湾镇位于西岭省南部。柳湾镇建于1530年，以竹编闻名。"),
"松岗县.md": ("松岗县", "松岗县是西岭省北部的一个县。松岗县建于1476年，盛产松木。"),
"青川大学.md": ("青川大学", "青川大学是一所综合性大学，1923年创立于青川市。学校的创办人是教育家许文澜。"),
"许文澜.md": ("许文澜", "许文澜（1881年－1950年）是一位教育家。他出生于松岗县。1923年他创办了青川大学。"),
"松岗酱鸭.md": ("松岗酱鸭", "松岗酱鸭是西岭省的一道名菜，起源于松岗县。这道菜由厨师顾长河在1902年首创。"),
"青川足球俱乐部.md": ("青川足球俱乐部", "青川足球俱乐部是一家职业足球俱乐部，1994年成立，主场为墨河体育场。俱乐部现任主教练是邓凯。"),
"墨河体育场.md": ("墨河体育场", "墨河体育场位于青川市，2001年启用，可容纳四万名观众。它是青川足球俱乐部的主场。"),
"邓凯.md": ("邓凯", "邓凯（1975年8月3日－）是一位足球教练。他出生于柳湾镇。2019年起他担任青川足球俱乐部主教练。"),
}
for fn, (title, text) in P.items():
    (files / fn).write_text(f"# {title}\n\n{text}\n", encoding="utf-8")
print(len(P), "files")
