import glob
import json
import os
import re
from pathlib import Path

texts={os.path.relpath(p,"files"):Path(p).read_text(encoding="utf-8") for p in glob.glob("files/**/*.*",recursive=True)}
allt="\n".join(texts.values())
ok=True
for line in Path("questions.jsonl").read_text(encoding="utf-8").splitlines():
    q=json.loads(line)
    if q.get("notFound"):
        assert q["answers"]==[] and "files" not in q
        continue
    for f in q["files"]:
        assert f in texts,(q["id"],f)
    t="\n".join(texts[f] for f in q["files"])
    hits=[a for a in q["answers"] if a in t]
    print(q["id"],q["category"],"found:",hits)
    if not hits:
        ok=False
# absent checks
absent={"b21":["成立","创办","创建","建社"],"b22":["stock","ticker","share","listed","exchange"],
"b23":["mayor","Mayor"],"b24":["镇长"],"b25":["warrant","guarantee","Warrant","保修","质保"],
"b26":["£","cost","repair bill","$"],"b27":["试用期工资","试用期薪","%","折","八成"],
"b28":["supervis","advis","导师"],"b29":["20公斤以上","25公斤","大型犬","公斤以上"],
"b30":["water temperature","water was","°C"],"b31":["Halvorsen","ice rink","rink"],"b32":["绿汀","地铁","3号线"]}
for k,ws in absent.items():
    for w in ws:
        for f,t in texts.items():
            for m in re.finditer(re.escape(w),t):
                print("  ",k,repr(w),f,"…"+t[max(0,m.start()-40):m.end()+40].replace("\n"," ")+"…")
print("ALL ANSWERS FOUND" if ok else "MISSING")
