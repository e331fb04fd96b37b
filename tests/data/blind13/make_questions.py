import json
import os
from pathlib import Path

os.chdir(os.path.dirname(os.path.abspath(__file__)))  
M,A,R,V="marit_quenneville.md","ashcombe_institute.md","rv_marit_quenneville.md","veltham.html"
P,T="pellworth_q3_2025.md","hollingmere_tram.txt"
S,C,K="兰溪第二中学校务会议纪要.txt","禾家智能电饭煲说明书.md","白鹭湾风筝节.txt"
qs=[
("bridge","In which year was the institute that Marit Quenneville directed founded?",["1961"],[M,A]),
("bridge","Which river runs through the city that is home to the Ashcombe Institute of Soil Biology?",["Leddon"],[A,V]),
("bridge","Which shipyard built the research vessel named after the Ashcombe Institute's third director?",["Harlen Yard"],[A,R]),
("bridge","How many people lived at the 2021 census in the city where Tobias Wrenfield's institute is based?",["87,400"],[A,V]),
("comparison","Which is older, Veltham University or the Ashcombe Institute of Soil Biology?",["Veltham University"],[V,A]),
("comparison","禾家电饭煲HJ-R30和HJ-R50，哪一款整机更轻？",["HJ-R30"],[C]),
("other_attribute","Under what ticker symbol are Pellworth Ceramics shares traded?",[],[P]),
("other_attribute","Which person serves as mayor of Veltham?",[],[V]),
("other_attribute","How fast was the Hollingmere tram going when it came off the rails?",[],[T]),
("other_attribute","禾家HJ-R50电饭煲的能效等级是几级？",[],[C]),
("other_attribute","第九届白鹭湾国际风筝节团体特技赛冠军获得了多少奖金？",[],[K]),
("other_attribute","兰溪二中食堂二楼改造工程由哪家施工单位承建？",[],[S]),
("other_attribute","What is the gross tonnage of the RV Marit Quenneville?",[],[R]),
("other_role","兰溪二中这次校务会议由谁负责记录？",["韩嘉禾"],[S]),
("other_role","白鹭湾风筝节团体特技赛获得亚军的是哪支队伍？",["北风队"],[K]),
("other_role","Who is the chief operating officer of Pellworth Ceramics?",[],[P]),
("other_period","What revenue did Pellworth Ceramics report for the fourth quarter of 2025?",[],[P]),
("other_period","How many minor collisions with cars did Hollingmere's trams have in 2023?",["11"],[T]),
("other_subject","What is the population of Stavely Cross?",[],[M,V]),
("cross_language","Who chaired the school affairs meeting at Lanxi No. 2 Middle School in November 2025?",["郑慧敏"],[S]),
("cross_language","What is the rated power of the HJ-R50 rice cooker?",["860"],[C]),
("cross_language","Which team won the team stunt competition at the Bailuwan International Kite Festival?",["青鸾队"],[K]),
("cross_language","Pellworth Ceramics 2025年第三季度的营收是多少？",["44.5"],[P]),
("cross_language","Hollingmere电车脱轨事故中有多少人受伤？",["14","fourteen"],[T]),
("cross_language","RV Marit Quenneville科考船是哪一天下水的？",["9 May 2019"],[R]),
("misspelling","In which year did Marit Quennevile receive the Linwood Medal?",["1998"],[M]),
("misspelling","How much did the new kiln line at Pelworth Ceramics cost?",["6.3"],[P]),
("single","On which street did the Hollingmere tram derail?",["Corn Street"],[T]),
("single","风筝节闭幕式上是谁向获奖队伍颁奖的？",["杜明远"],[K]),
("single","禾家电饭煲显示故障代码E3是什么意思？",["干烧保护"],[C]),
("absent_second_hop","When was the shipyard that built the RV Marit Quenneville founded?",[],[R]),
("absent_second_hop","In what year was the university where Marit Quenneville earned her doctorate founded?",[],[M]),
]
assert len(qs)==32
for _cat, q, a, f in qs:
    for x in f:
        assert os.path.exists("files/" + x), x
    if a:
        assert any(g in Path("files/" + x).read_text() for g in a for x in f), (q, a)
with open("questions.jsonl","w") as o:
    for i,(cat,q,a,f) in enumerate(qs,1):
        o.write(json.dumps({"id":f"t{i:02d}","question":q,"answers":a,"notFound":not a,"files":f,"category":cat,"split":"held"},ensure_ascii=False)+"\n")
print("ok", sum(1 for q in qs if not q[2]), "notFound")
