"""Write questions.jsonl of the fourth own multi-hop set; the dev/held split is fixed here (within each category
dev, held, dev, … in the order listed: ``tests/support/own_material.write_questions``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import write_questions

root = Path(__file__).resolve().parent
Q = [
# (category, question, answers, files); answers empty: the right answer is "not found"
# relations 2Wiki composes: grandparents, in-laws, a spouse's or a parent's birthplace
("relation", "Who is the paternal grandfather of Edmund Venn?", ["Aldric Venn"], ["edmund_venn.md", "tobias_venn.md"]),
("relation", "Who is Edmund Venn's father-in-law?", ["Henry Orme"], ["edmund_venn.md", "lydia_orme.md"]),
("relation", "Where was the wife of Edmund Venn born?", ["Pellan"], ["edmund_venn.md", "lydia_orme.md"]),
("relation", "Who is Lydia Orme's father-in-law?", ["Tobias Venn"], ["lydia_orme.md", "edmund_venn.md"]),
("relation", "Where was Edmund Venn's mother born?", ["Tessby"], ["edmund_venn.md", "clara_hesk.md"]),
("relation", "Who is the mother-in-law of Lydia Orme?", ["Clara Hesk"], ["lydia_orme.md", "edmund_venn.md"]),
("relation", "周明远的祖父是谁？", ["周世安"], ["周明远.md", "周承德.md"]),
("relation", "周明远的岳父是谁？", ["宋启山"], ["周明远.md", "宋婉清.md"]),
("relation", "周明远的妻子出生在哪里？", ["柳湾镇", "柳湾"], ["周明远.md", "宋婉清.md"]),
# compositional: an attribute of the film's director or lead actor; a film named by its actress's birthplace
("compositional", "Where was the director of film Iron Meadow born?", ["Greyhaven"], ["iron_meadow.md", "sorrel_dunne.md"]),
("compositional", "Where was the director of film Night Harbour born?", ["Keswald"], ["night_harbour_1949_film.md", "hanne_lisk.md"]),
("compositional", "Where was the lead actor of Iron Meadow born?", ["Pellan"], ["iron_meadow.md", "otto_brand.md"]),
("compositional", "Who directed the film whose lead actress was born in Tessby?", ["Piet Calloway"], ["mara_quell.md", "the_lantern_road.md"]),
# comparisons: came out first, same nationality, died first / later
("comparison", "Which film came out first, The Lantern Road or Iron Meadow?", ["Iron Meadow"], ["the_lantern_road.md", "iron_meadow.md"]),
("comparison", "Are Edmund Venn and Henry Orme of the same nationality?", ["no"], ["edmund_venn.md", "henry_orme.md"]),
("comparison", "Which died first, Tobias Venn or Henry Orme?", ["Tobias Venn"], ["tobias_venn.md", "henry_orme.md"]),
("comparison", "Who died later, Piet Calloway or Sorrel Dunne?", ["Piet Calloway"], ["piet_calloway.md", "sorrel_dunne.md"]),
("comparison", "Are Sorrel Dunne and Otto Brand of the same nationality?", ["yes"], ["sorrel_dunne.md", "otto_brand.md"]),
("comparison", "周承德和宋婉清谁去世得更早？", ["周承德"], ["周承德.md", "宋婉清.md"]),
# a year written only in the page's title
("title_year", "In which year was Night Harbour released?", ["1949"], ["night_harbour_1949_film.md"]),
("title_year", "Silver Tide, a 1971 Ostrelian crime film, is a remake of Night Harbour, released in which year?", ["1949"], ["night_harbour_1949_film.md"]),
("title_year", "Which film came out first, Night Harbour or The Lantern Road?", ["Night Harbour"], ["night_harbour_1949_film.md", "the_lantern_road.md"]),
# an answer that is itself an acronym
("acronym", "The club founded by Mara Quell practises a kind of parachuting known by which four-letter acronym?", ["HALO"], ["dunmere_circle.md"]),
("acronym", "Edmund Venn founded a rowing body in 1931. By what initials is it known?", ["VNRC"], ["vnrc.md"]),
("acronym", "When was the VNRC founded?", ["1931"], ["vnrc.md"]),
# a plain named subject: its own passage answers, never a neighbour's
("plain_subject", "When was Tessby founded?", ["1302"], ["tessby.md"]),
("plain_subject", "When was Keswald founded?", ["1140"], ["keswald.md"]),
("plain_subject", "When was Harwick founded?", ["1188"], ["harwick.md"]),
("plain_subject", "When was the town where Mara Quell was born founded?", ["1302"], ["mara_quell.md", "tessby.md"]),
("plain_subject", "周明远出生的镇建于哪一年？", ["1405"], ["周明远.md", "青石镇.md"]),
# the second hop or the asked attribute absent: "not found"
("absent", "When was Marrowby founded?", [], ["marrowby.md"]),
("absent", "When was Greyhaven founded?", [], ["greyhaven.md"]),
("absent", "Who is the paternal grandfather of Lydia Orme?", [], ["lydia_orme.md", "henry_orme.md"]),
("absent", "Where was the director of Silver Tide born?", [], ["silver_tide.md"]),
("absent", "Who is the chairman of the VNRC?", [], ["vnrc.md"]),
("absent", "Who is Mara Quell's father-in-law?", [], ["mara_quell.md"]),
("absent", "周承德的出生地建于哪一年？", [], ["周承德.md", "白沙县.md"]),
("absent", "宋婉清的祖父是谁？", [], ["宋婉清.md"]),
("absent", "When was the town where Sorrel Dunne was born founded?", [], ["sorrel_dunne.md", "greyhaven.md"]),
]
for _, _, _, names in Q:
    for name in names:
        assert (root / "files" / name).is_file(), name
write_questions(root, "m4", Q)
