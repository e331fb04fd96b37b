import json

M="云岫山茶叶合作社_2024年第三次理事会纪要.md"
L="青溪镇图书馆开馆_桐岭日报.txt"
H="星槎互动员工手册_2024版.md"
P="禾木宠物医院_价目表_2024.csv"
K="fernloop_k7_manual.txt"
R="mereside_gazette_regatta_capsize.md"
WP="wiki/tamsin_greave.html"
WO="wiki/kelderwick_water_board.html"
WT="wiki/brannock_ferry.html"
A=[
("八月份合作社那次理事会是谁主持的？",["欧阳晓梅"],[M],"who",["zh-zh","chair"]),
("Who took the minutes at the Yunxiu Mountain tea co-op's board meeting in August 2024?",["龚书涵","Gong Shuhan"],[M],"who",["en-zh","role-by-verb","recorder"]),
("青溪镇那座新图书馆是哪天对外开放的？",["2024年4月23日","4月23日","2024-04-23"],[L],"when",["zh-zh"]),
("On which date did the squall hit the Pellan Rowing Club regatta?",["7 September 2024","7 September","September 7","2024-09-07"],[R],"when",["en-en"]),
("What's the address of the new village library in Qingxi?",["文昌路18号","Wenchang Road","Wenchang Lu"],[L],"where",["en-zh"]),
("那次湖上翻船之后，疑似失温的桨手被送到了哪家医院？",["Ashcombe General Hospital","Ashcombe General","Ashcombe"],[R],"where",["zh-en"]),
("Lake Orrin 那场赛艇事故里，总共有多少人掉进了水里？",["31","三十一"],[R],"how many",["zh-en"]),
("How many days of annual leave does someone at Xingcha get once they have been there three years?",["12天","12 天","12 days","12"],[H],"how many",["en-zh"]),
("How much per jin is the co-op paying for first-grade raw tea in this autumn's purchase?",["68元","68 yuan","68"],[M],"how much",["en-zh"]),
("云岫山合作社2023年一整年线上卖了多少钱？",["172万元","172万","1.72 million"],[M],"year",["zh-zh","how much","another year's figure is nearby (2024 H1: 126万)"]),
("How much revenue did the Kelderwick Water Board report for 2022?",["£58.9 million","58.9 million","58.9"],[WO],"year",["en-en","how much","table","2021/2023 figures nearby"]),
("On the vet price list, how much is one shot of the six-in-one vaccine for dogs?",["180元","180"],[P],"table cell",["en-zh","price"]),
("FernLoop K7 这台加药泵需要多少伏的电源？",["12 V","12V","12 伏","12伏"],[K],"table cell",["zh-en","spec table"]),
("我的K7加药泵屏幕上显示E3，是出了什么问题？",["Reservoir empty","reservoir empty","below the sensor","储液","液体不足","液位过低"],[K],"error code",["zh-en"]),
("what does error E5 mean on a FernLop K7 pump",["Calibration out of range","calibration out of range"],[K],"misspelled name",["en-en","error code","FernLop = FernLoop"]),
("Kelderwik Water Board 的董事会主席是谁？",["Edwin Larch"],[WO],"misspelled name",["zh-en","who","Kelderwik = Kelderwick"]),
("How many people live in the town where the Kelderwick Water Board has its head office?",["23,850","23850","2.385万"],[WO,WT],"bridge",["en-en","org -> town"]),
("Tamsin Greave 所在的那家水务机构最初是哪一年成立的？",["1931","1931年"],[WP,WO],"bridge",["zh-en","person -> org"]),
("Which was founded earlier, the Pellan Rowing Club or the Kelderwick Water Board?",["Pellan Rowing Club","Pellan"],[R,WO],"comparison",["en-en","older","1889 vs 1931"]),
("宠物医院价目表上，验个血常规和拍一张X光，哪个便宜些？",["血常规"],[P],"comparison",["zh-zh","cheaper","95 vs 150"]),
]
N=[
("云岫山茶叶专业合作社是哪一年成立的？","attribute absent",["zh-zh","minutes give meeting date, member count, acreage, no founding year"]),
("What's the stock code of the Kelderwick Water Board?","attribute absent",["en-en","page gives founding year, head office, revenue; no listing"]),
("Who is the current mayor of Brannock Ferry?","attribute absent",["en-en","page gives council size and town clerk; no mayor"]),
("青溪镇现在的镇长是谁？","attribute absent",["zh-zh","article names the party secretary, county officials and the librarian; no town head"]),
("How long is the warranty on the FernLoop K7?","attribute absent",["en-en","manual has specs, support e-mail, no warranty"]),
("How much is it going to cost to repair the boats damaged in the Lake Orrin capsizing?","attribute absent",["en-en","damage described, insurers assessing, no amount"]),
("星槎互动试用期间工资按转正后的几成发？","attribute absent",["zh-zh","handbook gives probation length and evaluation, no probation pay"]),
("Tamsin Greave 读博士时的导师是谁？","attribute absent",["zh-en","page gives university, year and thesis title, no supervisor"]),
("体重25公斤的母犬在这家医院做绝育要多少钱？","attribute absent",["zh-zh","price list covers <10 kg and 10-20 kg only"]),
("What was the water temperature in Lake Orrin when the boats went over?","attribute absent",["en-en","article gives air temperature 14 °C and wind gust, no water temperature"]),
("When does the Halvorsen ice rink close on Sundays?","not mentioned",["en"]),
("绿汀市地铁3号线什么时候开通运营？","not mentioned",["zh"]),
]
out=[]
i=1
for q,a,f,c,t in A:
    out.append({"id":f"b{i:02d}","question":q,"answers":a,"files":f,"category":c,"split":"blind","tags":t})
    i+=1
for q,c,t in N:
    out.append({"id":f"b{i:02d}","question":q,"answers":[],"notFound":True,"category":c,"split":"blind","tags":t})
    i+=1
with open("questions.jsonl","w") as fh:
    for o in out:
        fh.write(json.dumps(o,ensure_ascii=False)+"\n")
print(len(out))
