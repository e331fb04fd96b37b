"""Write questions.jsonl of the own multi-hop set; the dev/held split is fixed here."""

import collections
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import alternate_splits, write_jsonl  # after the path

root = pathlib.Path(__file__).resolve().parent
Q = [
# (category, lang, question, answers, files)
("bridge","en","When was the company that makes the Lumen K4 founded?",["1962"],["lumen_k4.md","halvorsen_optics.md"]),
("bridge","zh","生产岚影X300的公司是哪一年创立的？",["1995"],["岚影X300.md","青岚电子.md"]),
("bridge","en","When was the town where the Lumen K4 is assembled founded?",["1588"],["lumen_k4.md","tarrow.md"]),
("bridge","zh","岚影X300组装地所在的镇是哪一年建立的？",["1603"],["岚影X300.md","溪口镇.md"]),
("bridge","en","In which year was the town where the Quiet Harbours were formed founded?",["1421"],["the_quiet_harbours.md","brenmouth.md"]),
("bridge","zh","青岚电子的创始人出生在哪里？",["溪口镇","溪口"],["青岚电子.md","周敏华.md"]),
("bridge","en","On which river does the city where Mara Quillon studied lie?",["Venn","River Venn"],["mara_quillon.md","drummel.md"]),
("bridge","zh","青岚电子创立地所在的城市建于哪一年？",["1372"],["青岚电子.md","临溪.md"]),
("bridge","en","Who founded the company that makes the Lumen K4?",["Ingrid Halvorsen"],["lumen_k4.md","halvorsen_optics.md"]),
("bridge","zh","韩冬出生的城市位于哪条江边？",["云江"],["韩冬.md","临溪.md"]),
("bridge","en","When was the island town where Oskar Lindahl was born founded?",["1350"],["oskar_lindahl.md","saltholm.md"]),
("bridge","zh","《石桥夜话》的作者出生的镇建于哪一年？",["1411"],["石桥夜话.md","方砚秋.md","石桥镇.md"]),
("compositional","en","Where was the director of The Glass Orchard born?",["Lisle-sur-Venn"],["the_glass_orchard.md","mara_quillon.md"]),
("compositional","zh","《雾中灯塔》的导演出生在哪里？",["白沙县","白沙"],["雾中灯塔.md","苏映雪.md"]),
("compositional","en","What is the place of birth of the composer of film The Glass Orchard?",["Drummel"],["the_glass_orchard.md","teodor_raske.md"]),
("compositional","zh","《北岸》的导演是哪一年出生的？",["1948"],["北岸.md","韩冬.md"]),
("compositional","en","When did the director of Winter Ferry die?",["2011"],["winter_ferry.md","oskar_lindahl.md"]),
("compositional","zh","《石桥夜话》的作者的父亲是谁？",["方长林"],["石桥夜话.md","方砚秋.md"]),
("compositional","en","Where was the performer of the album Ember Line born?",["Tarrow"],["ember_line_album.md","selma_dask.md"]),
("compositional","zh","《雾中灯塔》导演的出生地建于哪一年？",["1525"],["雾中灯塔.md","苏映雪.md","白沙县.md"]),
("compositional","en","When was the band that performs the song Ember Line formed?",["1989"],["ember_line_song.md","the_quiet_harbours.md"]),
("compositional","en","Where was the author of The Salt Clock born?",["Karsvik"],["the_salt_clock.md","aurel_penhalligan.md"]),
("compositional","en","When was the founder of Halvorsen Optics born?",["4 May 1931"],["halvorsen_optics.md","ingrid_halvorsen.md"]),
("compositional","en","Where was the singer of the Quiet Harbours born?",["Karsvik"],["the_quiet_harbours.md","jonas_everly.md"]),
("kinship","en","Who is Ingrid Halvorsen's mother-in-law?",["Edda Vollan"],["ingrid_halvorsen.md","piet_vollan.md"]),
("kinship","zh","周敏华的婆婆是谁？",["何婉清"],["周敏华.md","陈立言.md"]),
("kinship","en","Who is the mother of the author of The Salt Clock?",["Leda Penhalligan"],["the_salt_clock.md","aurel_penhalligan.md"]),
("kinship","zh","陈立言的妻子出生在哪里？",["溪口镇","溪口"],["陈立言.md","周敏华.md"]),
("kinship","en","Where was the mother of Aurel Penhalligan born?",["Brenmouth"],["aurel_penhalligan.md","leda_penhalligan.md"]),
("kinship","zh","何婉清的儿媳是谁？",["周敏华"],["何婉清.md","陈立言.md"]),
("kinship","en","Who is Edda Vollan's daughter-in-law?",["Ingrid Halvorsen"],["edda_vollan.md","piet_vollan.md"]),
("kinship","zh","周敏华的丈夫的母亲出生在哪里？",["石桥镇","石桥"],["周敏华.md","陈立言.md","何婉清.md"]),
("comparison","en","Which film came out first, The Glass Orchard or Winter Ferry?",["The Glass Orchard"],["the_glass_orchard.md","winter_ferry.md"]),
("comparison","zh","《雾中灯塔》和《北岸》哪部电影上映得更早？",["雾中灯塔"],["雾中灯塔.md","北岸.md"]),
("comparison","en","Who was born first, Mara Quillon or Oskar Lindahl?",["Oskar Lindahl"],["mara_quillon.md","oskar_lindahl.md"]),
("comparison","zh","苏映雪和韩冬谁年龄更大？",["韩冬"],["苏映雪.md","韩冬.md"]),
("comparison","en","Which town was founded earlier, Tarrow or Brenmouth?",["Brenmouth"],["tarrow.md","brenmouth.md"]),
("comparison","zh","临溪和溪口镇哪个建立得更早？",["临溪"],["临溪.md","溪口镇.md"]),
("comparison","en","Which film has the director born later, The Glass Orchard or Winter Ferry?",["The Glass Orchard"],["the_glass_orchard.md","winter_ferry.md","mara_quillon.md","oskar_lindahl.md"]),
("comparison","zh","白沙县和石桥镇哪个建得更早？",["石桥镇"],["白沙县.md","石桥镇.md"]),
("same","en","Were Oskar Lindahl and Piet Vollan born in the same place?",["yes"],["oskar_lindahl.md","piet_vollan.md"]),
("same","zh","苏映雪和陈立言出生在同一个地方吗？",["是"],["苏映雪.md","陈立言.md"]),
("same","en","Are the directors of The Glass Orchard and Winter Ferry from the same country?",["no"],["the_glass_orchard.md","winter_ferry.md","mara_quillon.md","oskar_lindahl.md"]),
("same","zh","韩冬和周敏华出生在同一个地方吗？",["否","不是"],["韩冬.md","周敏华.md"]),
("crosslang","en","When was the company founded by Zhou Minhua founded?",["1995"],["qinglan_electronics.md","zhou_minhua.md"]),
("crosslang","zh","哈尔沃森光学的创始人出生在哪里？",["Tarrow"],["halvorsen_optics_zh.md","ingrid_halvorsen.md"]),
# the second hop absent: the right answer is "not found"
("absent","en","When was the company that makes the Vantor R2 founded?",[],["vantor_r2.md"]),
("absent","zh","《北岸》的编剧出生在哪里？",[],["北岸.md"]),
("absent","en","Where was the composer of Winter Ferry born?",[],["winter_ferry.md"]),
("absent","zh","《雾中灯塔》的配乐作者是哪一年出生的？",[],["雾中灯塔.md"]),
("absent","en","Where did the director of Winter Ferry die?",[],["winter_ferry.md","oskar_lindahl.md"]),
("absent","zh","周敏华的母亲出生在哪里？",[],["周敏华.md"]),
("absent","en","When was the producer of the album Ember Line born?",[],["ember_line_album.md"]),
("absent","zh","方砚秋的父亲是哪一年出生的？",[],["方砚秋.md"]),
("absent","en","Where was the father of Ingrid Halvorsen born?",[],["ingrid_halvorsen.md"]),
("absent","zh","青岚电子的创始人是哪一年去世的？",[],["青岚电子.md","周敏华.md"]),
("absent","en","When was the company that operates the MS Kestrel Dawn founded?",[],["norrcliff_ferries.md"]),
("absent","en","When did the composer of The Glass Orchard die?",[],["the_glass_orchard.md","teodor_raske.md"]),
]
# alternate dev / held within each category and language, in the order written (crosslang: per category)
splits = alternate_splits([(cat, lang if cat != "crosslang" else "") for cat, lang, *_ in Q])
out = []
for n, ((cat, lang, q, a, f), split) in enumerate(zip(Q, splits, strict=True), 1):
    row = {"id": f"mh{n:02d}", "question": q, "answers": a, "files": f, "category": cat, "lang": lang, "split": split}
    if not a:
        row["notFound"] = True
    out.append(row)
for fn in {x for r in out for x in r["files"]}:
    assert (root / "files" / fn).is_file(), fn
write_jsonl(root / "questions.jsonl", out)
print(len(out), collections.Counter(r["split"] for r in out))
