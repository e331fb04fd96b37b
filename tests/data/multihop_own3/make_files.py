"""Write files/: the passages of the third own multi-hop set (invented material: a novelist, the films and the band
around her book, a space agency and a football association known by their short forms, a cup final; the
countries Tolland and Maravia and the province 西岭省 do not exist). It stresses what the answer layer refused
before: a year that qualifies a name ("a 1987 novel", "the 2004 film"), a first hop named only by a description
("the band whose debut album is …"), short forms against full names ("MSRA", "the TFA"), and comparisons."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

root = Path(__file__).resolve().parent
files = root / "files"
files.mkdir(parents=True, exist_ok=True)
P = {
"harbor_of_glass.md": ("Harbor of Glass", "Harbor of Glass is a 1987 novel by the Tollish writer Mirela Kost. It follows three sisters who run a glassworks in a fishing port. The book won the Avenlin Prize the following year."),
"the_salt_orchard.md": ("The Salt Orchard", "The Salt Orchard is a 1974 novel by Mirela Kost, her first book. It is set on a farm near the coast of eastern Tolland."),
"mirela_kost.md": ("Mirela Kost", "Mirela Kost (born 14 June 1949) is a Tollish novelist. She was born in Dresk. She taught literature at Carvell University for twenty years."),
"dresk.md": ("Dresk", "Dresk is a port town in eastern Tolland. It was founded in 1207 by herring merchants. The town has a ferry to the island of Holm."),
"the_quiet_meridian.md": ("The Quiet Meridian", "The Quiet Meridian is a 2004 Maravian drama film directed by Oskar Lenhal. It is an adaptation of the novel Harbor of Glass. It was shot on the island of Holm."),
"oskar_lenhal.md": ("Oskar Lenhal", "Oskar Lenhal (3 March 1958 – 9 May 2019) was a Maravian film director. He was born in Carvell. He made eleven feature films."),
"carvell.md": ("Carvell", "Carvell is a city in southern Maravia. It was founded in 1322 at a crossing of the River Ost. It is the seat of Carvell University."),
"lanterns_over_kell.md": ("Lanterns Over Kell", "Lanterns Over Kell is the debut album of the Tollish folk band The Hollow Reeds. It was recorded in a church in Dresk over nine days."),
"the_hollow_reeds.md": ("The Hollow Reeds", "The Hollow Reeds are a Tollish folk band. The band was formed in Brindle in 1991. Its singer is Ana Voss and its fiddler is Tomas Grell."),
"ana_voss.md": ("Ana Voss", "Ana Voss (born 2 November 1969) is a Tollish folk singer. She was born in Holm. She has sung with The Hollow Reeds since the band began."),
"brindle.md": ("Brindle", "Brindle is a market town in central Tolland. It was first recorded in 1136. Its cattle fair is held every October."),
"reeds_in_winter.md": ("Reeds in Winter", "Reeds in Winter is a 2011 documentary film about the folk band The Hollow Reeds. It was directed by Tamsin Orr and follows the band on a winter tour."),
"tamsin_orr.md": ("Tamsin Orr", "Tamsin Orr (born 1977) is a Tollish documentary maker. She was born in Carvell. Before film she worked as a radio reporter."),
"msra.md": ("Maravian Space Research Agency", "The Maravian Space Research Agency (MSRA) is the space agency of Maravia. It was founded in 1972 and is headquartered in Carvell. Its director general is Petra Lund."),
"orla_3.md": ("Orla-3", "Orla-3 is a Maravian weather satellite. It was launched by the MSRA in 2009 from the Kessing launch site. It observes storms over the Western Sea."),
"petra_lund.md": ("Petra Lund", "Petra Lund (born 1966) is a Maravian engineer. She was born in Kessing. She has led the space agency since 2017."),
"tfa.md": ("Tollish Football Association", "The Tollish Football Association is the governing body of football in Tolland. It was founded in 1879 and is based in Dresk. It organises the Northern Cup."),
"northern_cup_1994.md": ("1994 Northern Cup", "The 1994 Northern Cup was the 40th season of the Northern Cup, the knockout competition of Tollish football. The final was played in Brindle on 14 May. Pellmark Rovers beat Dresk Town 2–1 in the final."),
"pellmark_rovers.md": ("Pellmark Rovers", "Pellmark Rovers is a Tollish football club from Pellmark. The club was founded in 1881 by dock workers. It plays at Fennick Lane."),
"fennick_lane.md": ("Fennick Lane", "Fennick Lane is a football ground in Pellmark. It opened in 1903 and holds 11,000 spectators. It is the home ground of Pellmark Rovers."),
# Chinese
"北岸灯塔.md": ("北岸灯塔", "《北岸灯塔》是一部1992年的中国剧情电影，由导演林溪执导。影片改编自作家陈墨的同名小说。"),
"林溪.md": ("林溪", "林溪（1955年－）是一位电影导演。他出生于江陵镇，毕业于青川电影学院。"),
"陈墨.md": ("陈墨", "陈墨（1948年－2015年）是一位作家。她出生于松岗县，代表作是小说《北岸灯塔》。"),
"江陵镇.md": ("江陵镇", "江陵镇位于西岭省东部。江陵镇建于1403年，以造船闻名。"),
"西岭航天局.md": ("西岭航天局", "西岭航天局（XSA）是西岭省的航天机构，成立于1985年，总部设在青川市。"),
"云雀二号.md": ("云雀二号", "云雀二号是一颗气象卫星，2013年由XSA发射。"),
}
for fn, (title, text) in P.items():
    (files / fn).write_text(f"# {title}\n\n{text}\n", encoding="utf-8")
print(len(P), "files")
