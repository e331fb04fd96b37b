"""Write questions.jsonl of the third own multi-hop set; the dev/held split is fixed here (within each category
dev, held, dev, … in the order listed: ``tests/support/own_material.write_questions``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import write_questions

root = Path(__file__).resolve().parent
Q = [
# (category, question, answers, files); answers empty: the right answer is "not found"
# a year that qualifies a name: "a 1987 novel" states when it appeared; "the 2004 film" narrows the name
("year_name", "In which year was the novel Harbor of Glass published?", ["1987"], ["harbor_of_glass.md"]),
("year_name", "Who directed the 2004 film adapted from Harbor of Glass?", ["Oskar Lenhal"], ["the_quiet_meridian.md"]),
("year_name", "Where was the director of the 2011 documentary Reeds in Winter born?", ["Carvell"], ["reeds_in_winter.md", "tamsin_orr.md"]),
("year_name", "Which club won the final of the 1994 Northern Cup?", ["Pellmark Rovers"], ["northern_cup_1994.md"]),
("year_name", "When was the club that won the 1994 Northern Cup founded?", ["1881"], ["northern_cup_1994.md", "pellmark_rovers.md"]),
("year_name", "1992年的电影《北岸灯塔》的导演出生在哪里？", ["江陵镇", "江陵"], ["北岸灯塔.md", "林溪.md"]),
("year_name", "《北岸灯塔》是哪一年的电影？", ["1992"], ["北岸灯塔.md"]),
("year_name", "When was The Salt Orchard published?", ["1974"], ["the_salt_orchard.md"]),
# a first hop named only by a description
("description", "In which town was the band whose debut album is Lanterns Over Kell formed?", ["Brindle"], ["lanterns_over_kell.md", "the_hollow_reeds.md"]),
("description", "Where was the director of the documentary about The Hollow Reeds born?", ["Carvell"], ["reeds_in_winter.md", "tamsin_orr.md"]),
("description", "When was the town where the author of Harbor of Glass was born founded?", ["1207"], ["harbor_of_glass.md", "mirela_kost.md", "dresk.md"]),
("description", "Who sings in the band whose debut album is Lanterns Over Kell?", ["Ana Voss"], ["lanterns_over_kell.md", "the_hollow_reeds.md"]),
("description", "改编自陈墨小说的电影的导演出生在哪里？", ["江陵镇", "江陵"], ["北岸灯塔.md", "林溪.md"]),
("description", "When was the city where the director of the film adapted from Harbor of Glass was born founded?", ["1322"], ["the_quiet_meridian.md", "oskar_lenhal.md", "carvell.md"]),
# short forms and full names
("acronym", "When was the MSRA founded?", ["1972"], ["msra.md"]),
("acronym", "Where is the TFA based?", ["Dresk"], ["tfa.md"]),
("acronym", "When was the agency that launched Orla-3 founded?", ["1972"], ["orla_3.md", "msra.md"]),
("acronym", "Who is the director general of the Maravian Space Research Agency?", ["Petra Lund"], ["msra.md"]),
("acronym", "XSA成立于哪一年？", ["1985"], ["西岭航天局.md"]),
("acronym", "When was the TFA founded?", ["1879"], ["tfa.md"]),
# comparisons
("comparison", "Who was born first, Mirela Kost or Oskar Lenhal?", ["Mirela Kost"], ["mirela_kost.md", "oskar_lenhal.md"]),
("comparison", "Between Tamsin Orr and Ana Voss, who was born earlier?", ["Ana Voss"], ["tamsin_orr.md", "ana_voss.md"]),
("comparison", "Dresk and Carvell are both old towns. Which was founded first?", ["Dresk"], ["dresk.md", "carvell.md"]),
("comparison", "林溪和陈墨谁出生得更早？", ["陈墨"], ["林溪.md", "陈墨.md"]),
("comparison", "Which novel was published earlier, Harbor of Glass or The Salt Orchard?", ["The Salt Orchard"], ["harbor_of_glass.md", "the_salt_orchard.md"]),
# the second hop absent, or the asked attribute absent: "not found"
("absent", "Who directed the 2004 film adapted from The Salt Orchard?", [], ["the_salt_orchard.md"]),
("absent", "In which town was the band whose debut album is Winter Ferries formed?", [], []),
("absent", "Who is the president of the TFA?", [], ["tfa.md"]),
("absent", "XSA的局长是谁？", [], ["西岭航天局.md"]),
("absent", "When was the agency that launched Orla-5 founded?", [], []),
("absent", "Where was the manager of the club that won the 1994 Northern Cup born?", [], ["northern_cup_1994.md", "pellmark_rovers.md"]),
("absent", "Who directed the 2011 documentary about Pellmark Rovers?", [], ["pellmark_rovers.md"]),
]
for _, _, _, names in Q:
    for name in names:
        assert (root / "files" / name).is_file(), name
write_questions(root, "mt", Q)
