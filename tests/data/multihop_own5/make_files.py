"""Write files/: the passages of the fifth own multi-hop set (invented wiki-like pages in three clusters that refer
to each other by short forms, pronouns and descriptions: a glassworks, its founder and its town; an observatory,
its telescope, its mountain and the university that runs it; a Chinese tea company, its founder and its city).
Halveston, Mount Carrel, Easthaven, 溪口市 and the rest do not exist."""

from pathlib import Path

root = Path(__file__).resolve().parent
files = root / "files"
files.mkdir(parents=True, exist_ok=True)
P = {
# a glassworks, its founder and the town it is in
"corrin_glassworks.md": ("Corrin Glassworks", "Corrin Glassworks is a maker of pressed and blown glass founded in 1874. "
    "It was set up by Ada Morrow with money from her brother's shipping business. The company's headquarters and its "
    "main furnace hall stand on the quay of a port town, Halveston, where the firm has employed several generations "
    "of the same families. Its best-known product is the cobalt-blue Morrow bottle, first made in 1881. In 1968 the "
    "works opened a second plant inland, at Stoke Amble."),
"halveston.md": ("Halveston", "Halveston is a port town on the estuary of the River Brisk, in the county of Wendle. "
    "A fishing settlement is recorded there in the twelfth century, and the town received its borough charter in "
    "1523. At the 2020 census Halveston had 41,300 inhabitants. Its harbour handles timber and grain, and a ferry "
    "crosses the estuary to Nessock every hour. The town is also known for its glassmaking, which began in the 1870s."),
"ada_morrow.md": ("Ada Morrow", "Ada Morrow (1841 – 1919) was a glassmaker and industrialist. Born in Pellcombe, a "
    "village in the Wendle hills, she trained as a glass painter before setting up her own works in 1874. She ran the "
    "business for forty years and was succeeded by her nephew Silas Morrow. She never married, and she left her "
    "house to the town as a library."),
# an observatory, its telescope, its mountain and the university that runs it
"thorne_hill_observatory.md": ("Thorne Hill Observatory", "The Thorne Hill Observatory (THO) is an astronomical "
    "observatory run by the University of Easthaven. It stands near the summit of Mount Carrel, where the dry air "
    "and dark skies favour observing. Its main instrument is the Lisle Telescope, housed in the large dome on the "
    "eastern ridge. The observatory also runs a public visitor centre at the foot of the mountain."),
"lisle_telescope.md": ("Lisle Telescope", "The Lisle Telescope is a 2.4-metre reflecting telescope at the THO. It "
    "was built by the optical firm Varden & Sons and saw first light in 1987. Its mirror was ground in Easthaven. "
    "The telescope is used mainly for the spectroscopy of variable stars, and it was refitted with a new camera in "
    "2012."),
"mount_carrel.md": ("Mount Carrel", "Mount Carrel is a mountain in the Easthaven Range. Its summit rises to 2,861 "
    "metres above sea level, making it the third-highest peak of the range. The first recorded ascent was made in "
    "1832 by a survey party. Its lower slopes are covered in pine forest."),
"university_of_easthaven.md": ("University of Easthaven", "The University of Easthaven is a public research "
    "university in the city of Easthaven. It was founded in 1909 as a college of mining and became a university in "
    "1951. Today it has about 14,500 students in six faculties. Its astronomy department runs an observatory on a "
    "mountain two hours north of the city."),
# a tea company, its founder and its city (Chinese)
"青岚茶业.md": ("青岚茶业", "青岚茶业是一家茶叶公司，1996年由林素秋创办。公司总部设在溪口市，旗下有三座茶园和一座制茶厂。"
    "它的招牌产品是白毫银针，2010年起出口到东南亚。2018年，创始人卸任董事长，由其女儿接任。"),
"溪口市.md": ("溪口市", "溪口市是闽中的一座地级市，因溪水在此汇入澄江而得名。澄江自西向东穿城而过。该市建城于1071年，"
    "明清时期是茶叶集散地。2020年人口普查时，全市常住人口为63.2万人。"),
"林素秋.md": ("林素秋", "林素秋（1958年－）是一位茶商。她出生于梅岭村，早年在供销社做茶叶收购员。1996年，她创办了自己的"
    "茶叶公司，并担任董事长至2018年。她还出资修建了村里的小学。"),
}
for fn, (title, text) in P.items():
    (files / fn).write_text(f"# {title}\n\n{text}\n", encoding="utf-8")
print(len(P), "files")
