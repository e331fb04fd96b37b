"""Write files/: the passages of the fourth own multi-hop set (invented material in the styles of HotpotQA and
2WikiMultihopQA passages: a family over three generations and the family it married into, films with their
directors and lead actors, towns side by side, a club and a rowing council known by their initials; the countries
Vessaria and Ostrelia and the county 云岭 do not exist). It stresses the relation kinds 2Wiki composes (paternal
grandfather, father-in-law, a spouse's or a parent's birthplace, same nationality, which died first), a year
written only in a page's title ("Night Harbour (1949 film)"), an answer that is itself an acronym, and a plain
named subject whose neighbour's passage states the asked attribute."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

root = Path(__file__).resolve().parent
files = root / "files"
files.mkdir(parents=True, exist_ok=True)
P = {
# a family over three generations, and the family it married into
"aldric_venn.md": ("Aldric Venn", "Aldric Venn (1821 – 1893) was a Vessarian industrialist who built the first paper mill on the River Dole. He was born in Marrowby. His son Tobias Venn took over the mill in 1880."),
"tobias_venn.md": ("Tobias Venn", "Tobias Venn (3 May 1850 – 11 February 1921) was a Vessarian paper manufacturer and the son of Aldric Venn. He married Clara Hesk in 1879. Their son Edmund Venn became a politician. Tobias died in Marrowby."),
"edmund_venn.md": ("Edmund Venn", "Edmund Venn (1884 – 1950) was a Vessarian politician who served as mayor of Keswald from 1921 to 1933. He was the son of Tobias Venn and Clara Hesk. In 1912 he married the painter Lydia Orme."),
"lydia_orme.md": ("Lydia Orme", "Lydia Orme (1889 – 1962) was an Ostrelian-born painter known for her harbour scenes. She was born in Pellan, the daughter of the shipbuilder Henry Orme. She married Edmund Venn in 1912 and moved to Vessaria."),
"henry_orme.md": ("Henry Orme", "Henry Orme (12 March 1852 – 4 July 1930) was an Ostrelian shipbuilder. He founded the Orme yard at Pellan in 1878, which built coastal steamers. He died in Pellan."),
"clara_hesk.md": ("Clara Hesk", "Clara Hesk (1856 – 1934) was a Vessarian philanthropist who founded the Dole Valley Orphans' Home. She was born in Tessby and married the paper manufacturer Tobias Venn in 1879."),
# films, their directors and lead actors
"the_lantern_road.md": ("The Lantern Road", "The Lantern Road is a 1962 Vessarian drama film directed by Piet Calloway. It stars Mara Quell as a widow who runs an inn on a mountain pass. The film was shot near Harwick."),
"mara_quell.md": ("Mara Quell", "Mara Quell (1931 – 2004) was a Vessarian actress. She was born in Tessby and began her career on the stage of the Keswald Playhouse. Her best-known role was the lead in The Lantern Road."),
"piet_calloway.md": ("Piet Calloway", "Piet Calloway (1919 – 1988) was a Vessarian film director and screenwriter. He was born in Harwick and studied painting before turning to film. He directed eleven feature films."),
"iron_meadow.md": ("Iron Meadow", "Iron Meadow is a 1958 war film directed by Sorrel Dunne. It follows a platoon stranded on a farm during the winter of 1917. The lead role is played by Otto Brand."),
"sorrel_dunne.md": ("Sorrel Dunne", "Sorrel Dunne (1912 – 1979) was an Ostrelian film director. Dunne was born in Greyhaven, a fishing town on the Ostrelian coast, and worked in Vessaria from 1950."),
"otto_brand.md": ("Otto Brand", "Otto Brand (1925 – 1990) was an Ostrelian actor born in Pellan. He appeared in more than forty films."),
"night_harbour_1949_film.md": ("Night Harbour (1949 film)", "Night Harbour is a Vessarian crime film directed by Hanne Lisk. A customs officer uncovers a smuggling ring in the port of Keswald. It was remade in Ostrelia as Silver Tide."),
"silver_tide.md": ("Silver Tide", "Silver Tide is a 1971 Ostrelian crime film, a remake of Night Harbour. It moves the story to the port of Greyhaven. No director is credited on the surviving prints."),
"hanne_lisk.md": ("Hanne Lisk", "Hanne Lisk (1905 – 1969) was a Vessarian film director and editor. She was born in Keswald and cut newsreels before directing her first feature."),
# towns side by side
"keswald.md": ("Keswald", "Keswald is a port town in northern Vessaria. It was founded in 1140 by Cistercian monks. Keswald lies twelve miles north of Marrowby and has a ferry to Ostrelia."),
"marrowby.md": ("Marrowby", "Marrowby is a market town on the River Dole in Vessaria. Its paper mill, built by Aldric Venn, employed six hundred people in 1900. The town lies south of Keswald."),
"tessby.md": ("Tessby", "Tessby is a village in the Dole valley. It was founded in 1302 as a toll station on the road to Harwick, which is older."),
"harwick.md": ("Harwick", "Harwick is a town in the hills of western Vessaria, founded in 1188. Its castle overlooks the road to Tessby."),
"greyhaven.md": ("Greyhaven", "Greyhaven is a fishing town on the coast of Ostrelia. Its lighthouse dates from 1790 and its harbour shelters forty boats."),
# known by initials
"dunmere_circle.md": ("Dunmere Circle", "The Dunmere Circle is a club in Keswald founded by the actress Mara Quell in 1975. Its members practise high-altitude low-opening (HALO) parachuting over the Dole valley."),
"vnrc.md": ("Vessarian National Rowing Council", "The Vessarian National Rowing Council (VNRC) is the governing body of rowing in Vessaria. It was founded in 1931 by Edmund Venn and is based in Keswald."),
# Chinese
"周明远.md": ("周明远", "周明远（1890年－1955年）是一位画家，生于青石镇。他是商人周承德的儿子。1915年，他与宋婉清结婚。"),
"周承德.md": ("周承德", "周承德（1860年－1921年）是一位商人，生于白沙县。其父周世安是当地的塾师。周承德经营茶庄四十年。"),
"宋婉清.md": ("宋婉清", "宋婉清（1893年－1970年）是一位刺绣艺人，生于柳湾镇。她的父亲宋启山是一位船商。1915年，她嫁给画家周明远。"),
"青石镇.md": ("青石镇", "青石镇位于云岭山脚，始建于1405年。镇东二十里为白沙县。"),
"白沙县.md": ("白沙县", "白沙县是云岭东麓的一个县，以产茶闻名。县城有一座明代石桥，修于1530年。"),
"柳湾镇.md": ("柳湾镇", "柳湾镇是云岭南部的一个水乡小镇，镇上有三座古桥和一座船坞。"),
}
for fn, (title, text) in P.items():
    (files / fn).write_text(f"# {title}\n\n{text}\n", encoding="utf-8")
print(len(P), "files")
