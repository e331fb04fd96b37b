"""Write files/: the passages of the own multi-hop set (invented material)."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import markdown_page  # after the path

root = pathlib.Path(__file__).resolve().parent
files = root / "files"
files.mkdir(parents=True, exist_ok=True)
P = {
"halvorsen_optics.md": ("Halvorsen Optics", "Halvorsen Optics is a Vessarian camera and lens maker. The company was founded in 1962 in Brenmouth by the engineer Ingrid Halvorsen. Its best-known product is the Lumen K4, a compact film camera. The firm employed about 900 people in 2020."),
"lumen_k4.md": ("Lumen K4", "The Lumen K4 is a compact 35 mm film camera introduced in 1979. It is made by Halvorsen Optics. The camera is assembled in Tarrow, where the company opened a second plant in 1977. A digital successor, the Lumen K5, was announced in 2004."),
"brenmouth.md": ("Brenmouth", "Brenmouth is a port town in western Vessaria. It was founded in 1421 as a herring market at the mouth of the River Osk. The town received its charter in 1530. Its population was 41,000 at the 2011 census."),
"tarrow.md": ("Tarrow", "Tarrow is a small industrial town in the province of Keld in Ostmark. Tarrow was founded in 1588 by miners from the north. The town lies on the Hessel Canal. Camera assembly and glassmaking are its main trades."),
"ingrid_halvorsen.md": ("Ingrid Halvorsen", "Ingrid Halvorsen (4 May 1931 – 17 October 1998) was a Vessarian engineer and industrialist. She was born in Tarrow to Aksel Halvorsen and Marit Dunne. She founded Halvorsen Optics in 1962. In 1955 she married the painter Piet Vollan. She died in Brenmouth."),
"piet_vollan.md": ("Piet Vollan", "Piet Vollan (1927 – 2009) was an Ostmarker painter of coastal scenes. He was born in Saltholm, the son of the weaver Edda Vollan. He married the engineer Ingrid Halvorsen in 1955. His work hangs in the Saltholm Art Hall."),
"edda_vollan.md": ("Edda Vollan", "Edda Vollan (1901 – 1979) was a weaver from Ostmark. She was born in Karsvik and worked for forty years at a tapestry workshop in Saltholm. Her son was the painter Piet Vollan."),
"the_glass_orchard.md": ("The Glass Orchard", "The Glass Orchard is a 1974 Calvennese drama film directed by Mara Quillon. The music is by Teodor Raske. The film follows three sisters who inherit a ruined glasshouse. It premiered at the Lisle Film Festival."),
"mara_quillon.md": ("Mara Quillon", "Mara Quillon (12 March 1940 – 3 January 2015) was a Calvennese film director and screenwriter. She was born in Lisle-sur-Venn and studied at the Drummel Film School. She directed eleven feature films, among them The Glass Orchard."),
"teodor_raske.md": ("Teodor Raske", "Teodor Raske (born 9 August 1936) is an Ostmarker composer of film and chamber music. He was born in Drummel. He wrote the scores of more than forty films."),
"winter_ferry.md": ("Winter Ferry", "Winter Ferry is a 1981 Ostmarker film directed by Oskar Lindahl. The music is by Lukas Brenner. The story is set aboard the last ferry of the season between Saltholm and the mainland."),
"oskar_lindahl.md": ("Oskar Lindahl", "Oskar Lindahl (2 June 1938 – 2011) was an Ostmarker film director. He was born in Saltholm. He made nine films, including Winter Ferry, and taught at the Saltholm Academy."),
"ember_line_song.md": ("Ember Line (song)", "Ember Line is a song by the Quiet Harbours, released in 1995 on their album North Light. The song was written by the band's singer Jonas Everly. It reached number four in the Vessarian charts."),
"ember_line_album.md": ("Ember Line (album)", "Ember Line is the second studio album by the singer Selma Dask, released in 2003. It was produced by Ivo Marten. The album includes the single Paper Lanterns."),
"the_quiet_harbours.md": ("The Quiet Harbours", "The Quiet Harbours are a Vessarian folk-rock band formed in Brenmouth in 1989. The band's singer is Jonas Everly. They have released six albums, including North Light."),
"jonas_everly.md": ("Jonas Everly", "Jonas Everly (born 21 November 1966) is a Vessarian singer and songwriter. He was born in Karsvik. He is the singer of the Quiet Harbours."),
"selma_dask.md": ("Selma Dask", "Selma Dask (born 1975) is an Ostmarker singer. She was born in Tarrow and began her career singing in church choirs. Her albums include Ember Line."),
"the_salt_clock.md": ("The Salt Clock", "The Salt Clock is a 1952 novel written by Aurel Penhalligan. It tells the story of a clockmaker in a fishing town. The novel was adapted for radio in 1960."),
"aurel_penhalligan.md": ("Aurel Penhalligan", "Aurel Penhalligan (1910 – 1984) was a Vessarian novelist. He was born in Karsvik, the son of a harbour master. His mother was the poet Leda Penhalligan. He wrote seven novels, among them The Salt Clock."),
"leda_penhalligan.md": ("Leda Penhalligan", "Leda Penhalligan (1884 – 1950) was a Vessarian poet. She was born in Brenmouth. She published four books of verse."),
"karsvik.md": ("Karsvik", "Karsvik is a fishing town on the north coast of Vessaria. Karsvik was founded in 1204. It is known for its lighthouse and its smoked fish."),
"saltholm.md": ("Saltholm", "Saltholm is an island town in Ostmark. It was founded in 1350 around a Cistercian abbey. Ferries link it to the mainland port of Hessby."),
"drummel.md": ("Drummel", "Drummel is a city in Calvenne on the River Venn. Drummel was founded in 1102. It is the seat of the Drummel Film School."),
"lisle_sur_venn.md": ("Lisle-sur-Venn", "Lisle-sur-Venn is a market town in Calvenne. It was founded in 1275. It hosts the Lisle Film Festival every September."),
"norrcliff_ferries.md": ("Norrcliff Ferries", "Norrcliff Ferries is a shipping company that operates the Saltholm crossing. It runs the ferry MS Kestrel Dawn. The company's head office is in Hessby."),
"vantor_r2.md": ("Vantor R2", "The Vantor R2 is a cordless drill introduced in 2016. It is made by Kessel Works. The drill weighs 1.4 kg."),
# Chinese
"青岚电子.md": ("青岚电子", "青岚电子是一家生产投影仪的公司。青岚电子由周敏华于1995年在临溪创立。公司的主要产品是岚影X300投影仪。2020年公司员工约1200人。"),
"岚影X300.md": ("岚影X300", "岚影X300是一款家用投影仪，2018年上市。岚影X300由青岚电子生产，在溪口镇的工厂组装。它的亮度为3000流明。"),
"临溪.md": ("临溪", "临溪是南峰省的一座城市，位于云江沿岸。临溪建于1372年，原为驿站。2020年人口约为85万。"),
"溪口镇.md": ("溪口镇", "溪口镇位于南峰省东部。溪口镇建立于1603年，以造纸闻名。镇上有一座明代石桥。"),
"周敏华.md": ("周敏华", "周敏华（1958年3月14日－）是一位企业家。她出生于溪口镇，母亲是林秀芬。1995年她创立了青岚电子。她的丈夫是建筑师陈立言。"),
"陈立言.md": ("陈立言", "陈立言（1955年－）是一位建筑师。他出生于白沙县，母亲是何婉清。他设计了临溪图书馆。他的妻子是企业家周敏华。"),
"何婉清.md": ("何婉清", "何婉清（1930年－2012年）是一位中学教师。她出生于石桥镇，在白沙县任教三十年。她的儿子是建筑师陈立言。"),
"雾中灯塔.md": ("雾中灯塔", "《雾中灯塔》是一部1988年上映的剧情电影，由苏映雪导演，配乐为高远。影片讲述一位守塔人的故事。"),
"苏映雪.md": ("苏映雪", "苏映雪（1950年7月2日－）是一位电影导演。她出生于白沙县，毕业于临溪艺术学院。她执导的作品包括《雾中灯塔》。"),
"北岸.md": ("北岸", "《北岸》是一部1992年上映的电影，由韩冬导演，编剧为刘青。影片在云江北岸拍摄。"),
"韩冬.md": ("韩冬", "韩冬（1948年11月5日－2019年）是一位电影导演。他出生于临溪。他执导过六部电影，包括《北岸》。"),
"石桥夜话.md": ("石桥夜话", "《石桥夜话》是一部1979年出版的小说，作者是方砚秋。小说写的是一个小镇的夜晚故事。"),
"方砚秋.md": ("方砚秋", "方砚秋（1921年－1996年）是一位小说家。他出生于石桥镇，父亲是木匠方长林。他写了五部小说，包括《石桥夜话》。"),
"白沙县.md": ("白沙县", "白沙县是南峰省的一个县。白沙县建于1525年，以茶叶闻名。"),
"石桥镇.md": ("石桥镇", "石桥镇是南峰省西部的一个古镇。石桥镇建于1411年，因镇上的石桥得名。"),
# bilingual: the same entities in the other language
"halvorsen_optics_zh.md": ("哈尔沃森光学", "哈尔沃森光学（Halvorsen Optics）是一家相机和镜头制造商。公司由英格丽·哈尔沃森于1962年在布伦茅斯创立。其最有名的产品是Lumen K4相机。"),
"qinglan_electronics.md": ("Qinglan Electronics", "Qinglan Electronics (青岚电子) is a maker of projectors. It was founded in 1995 in Linxi by the entrepreneur Zhou Minhua. Its main product is the Lanying X300 projector."),
"zhou_minhua.md": ("Zhou Minhua", "Zhou Minhua (周敏华, born 14 March 1958) is an entrepreneur. She was born in Xikou and founded Qinglan Electronics in 1995. Her husband is the architect Chen Liyan."),
}
for fn, (title, text) in P.items():
    markdown_page(files / fn, title, text)
print(len(P))
