import glob
import html
import json
import os
import re

base='files'


def text(p):
    with open(os.path.join(base,p),encoding='utf-8') as fh:
        s=fh.read()
    if p.endswith('.html'):
        s=html.unescape(re.sub(r'<[^>]+>',' ',s))
    return s


allfiles=[os.path.relpath(p,base) for p in glob.glob(base+'/**/*',recursive=True) if os.path.isfile(p)]
alltext={p:text(p) for p in allfiles}
ok=True
with open('questions.jsonl',encoding='utf-8') as fh:
    questions=[json.loads(line) for line in fh]
for q in questions:
    if q['answers']:
        for f in q['files']:
            assert f in alltext,(q['id'],f)
        hit=[a for a in q['answers'] if any(a.lower() in alltext[f].lower() for f in q['files'])]
        print(q['id'],'OK' if hit else 'MISSING',hit[:3])
        ok&=bool(hit)
# absence probes (regex, case-insensitive) for unanswerables
probes={
 'b21':r'股票|证券|上市|代码|stock|ticker|交易所',
 'b22':r'mayor|市长|镇长|lord',
 'b23':r'died|dead|death|kill|fatal|死|遇难|body|bodies|lost (their|his|her) li',
 'b24':r'warrant.{0,80}(year|month|\d)|(year|month|\d).{0,40}warrant|保修|质保',
 'b25':r'结束|散会|闭会|\d{1,2}[:：]\d{2}|下午[一二三四五六七八九十]点|点半',
 'b26':r'万元|亿元|元|投资|造价|预算|cost',
 'b27':r'born|birth|出生|\b19[5-9]\d\b',
 'b28':r'病假|sick|医疗期|疾病',
 'b29':r'revenue|turnover|sales|income|营收|收入|\$|£|€|million',
 'b30':r'宁川|地铁|metro|subway',
 'b31':r'Norvane|router|password|路由',
 'b32':r'铂岩|初创|startup|投资',
}
for qid,pat in probes.items():
    for f,t in alltext.items():
        for m in re.finditer(pat,t,re.I):
            a=max(0,m.start()-40)
            print(qid,f,'::',t[a:m.end()+40].replace('\n',' '))
print('ALL ANSWERABLE OK' if ok else 'PROBLEM')
