"""Table headers read by structure at ingest: merged header cells, a header of several rows, a running-number column
and a column of units (``graphs.ingest.formats``). Invented tables, none from the dev sets."""

from __future__ import annotations

import pytest

from graphs.ingest.formats.base import entities_as_rows, header_words, keyed_columns, table_sentences
from graphs.ingest.formats.html import merged_header, parse_html
from graphs.ingest.formats.markdown import parse_markdown
from graphs.ingest.formats.tables import parse_csv


def test_a_header_of_two_rows_names_each_column_by_both() -> None:
    html = ("<table><thead><tr><th rowspan='2'>Route</th><th colspan='2'>Last departure</th><th rowspan='2'>Fare</th>"
            "</tr><tr><th>Weekdays</th><th>Sundays</th></tr></thead><tbody>"
            "<tr><td>Harbour loop</td><td>22:10</td><td>19:40</td><td>£2.50</td></tr></tbody></table>")
    text = parse_html(html.encode(), "buses.html").sections[-1].text
    assert text.splitlines() == ["Last departure Weekdays — Harbour loop: 22:10",
                                 "Last departure Sundays — Harbour loop: 19:40", "Fare — Harbour loop: £2.50"]


def test_a_chinese_header_of_two_rows_joins_without_a_space() -> None:
    assert merged_header([["品种", "销售", "销售"], ["品种", "数量", "金额"]]) == ["品种", "销售数量", "销售金额"]


def test_a_cell_spanning_rows_is_read_in_each_row_and_a_merged_key_once() -> None:
    html = ("<table><tr><th>Site</th><th>Shift</th><th>Volunteers</th></tr>"
            "<tr><td rowspan='2'>North pier</td><td>Morning</td><td>4</td></tr><tr><td>Evening</td><td>2</td></tr>"
            "<tr><td colspan='2'>Total</td><td>6</td></tr></table>")
    lines = parse_html(html.encode(), "rota.html").sections[-1].text.splitlines()
    # the site repeats over its shifts: each count names its row by site and shift
    assert "Shift — North pier: Evening" in lines and "Volunteers — North pier Evening: 2" in lines
    assert "Volunteers — Total: 6" in lines and not any(line.endswith(": Total") for line in lines)


def test_a_running_number_keys_no_row_the_next_column_does() -> None:
    csv = "序号,品名,单价(元),库存(把)\n1,竹柄油纸伞,88,40\n2,桐油布伞,120,12\n".encode()
    lines = parse_csv(csv, "伞铺.csv").sections[0].text.splitlines()
    assert lines == ["单价 — 竹柄油纸伞: 88元", "库存 — 竹柄油纸伞: 40把", "单价 — 桐油布伞: 120元", "库存 — 桐油布伞: 12把"]


def test_a_code_column_that_is_no_running_number_stays_the_key() -> None:
    heads, body = keyed_columns(["Bin", "Item"], [["3", "Lentils"], ["7", "Oats"]])
    assert heads == ["Bin", "Item"] and body == [["3", "Lentils"], ["7", "Oats"]]


def test_a_column_of_units_goes_onto_the_numbers_before_it() -> None:
    lines = table_sentences([["Item", "On hand", "Unit", "Donor"], ["Lentils", "45", "kg", "Mill Lane church"],
                             ["Soap", "30", "bars", "Corner shop"]], header=True)
    assert lines == ["On hand — Lentils: 45 kg", "Donor — Lentils: Mill Lane church", "On hand — Soap: 30 bars",
                     "Donor — Soap: Corner shop"]


def test_a_unit_column_after_words_is_left_as_a_column() -> None:
    lines = table_sentences([["物品", "状态", "单位"], ["帐篷", "完好", "顶"]], header=True)
    assert lines == ["状态 — 帐篷: 完好", "单位 — 帐篷: 顶"]


def test_rows_keyed_by_codes_carry_the_item_that_names_them() -> None:
    """A sheet keyed by codes (SKU, line numbers) names its rows for a reader in a text column: every value line
    carries the item beside the code, so a question that names the item finds the row's values."""
    rows = [["SKU", "Item", "Category", "Unit price", "In stock"],
            ["HK-1041", "Enamel kettle 2 L", "Kettles", "145", "32"],
            ["HK-1042", "Copper saucepan 18 cm", "Pans", "310", "7"],
            ["HK-1043", "Bamboo steamer set", "Pans", "88", "51"]]
    lines = table_sentences(rows, header=True)
    assert "Unit price — HK-1042 Copper saucepan 18 cm: 310" in lines
    assert "Item — HK-1042: Copper saucepan 18 cm" in lines
    assert "Category — HK-1043 Bamboo steamer set: Pans" in lines
    zh = [["编码", "品名", "单价（元）"], ["B07", "铸铁平底锅 28厘米", "129"], ["B08", "不锈钢汤锅 24厘米", "216"]]
    assert "单价 — B08 不锈钢汤锅 24厘米: 216元" in table_sentences(zh, header=True)


def test_rows_keyed_by_names_or_by_unnamed_codes_stay_as_they_were() -> None:
    named = [["Product", "Price", "Colour"], ["Kettle", "£45", "red"], ["Toaster", "£60", "steel"]]
    assert "Price — Kettle: £45" in table_sentences(named, header=True)
    # no column tells the rows apart by text (a repeated category, numbers): the code alone keys them
    coded = [["Line", "Type", "2024", "2025"], ["L1", "Income", "300", "320"], ["L2", "Income", "80", "95"]]
    assert "2025 — L2: 95" in table_sentences(coded, header=True)


def test_a_repeated_key_is_told_apart_by_the_text_columns_after_it() -> None:
    """A results sheet keyed by its round, several matches a round: each line names the match by round and home
    side, so "round 3, Millbrook at home: who scored?" finds one row."""
    rows = [["Round", "Home", "Away", "Score", "Scorer"],
            ["Round 3", "Millbrook", "Eastfield", "2-1", "Ada Kerr"],
            ["Round 3", "Harbour FC", "Oakley", "0-0", "none"],
            ["Round 4", "Millbrook", "Oakley", "1-3", "Tom Vale"]]
    lines = table_sentences(rows, header=True)
    assert "Scorer — Round 3 Millbrook: Ada Kerr" in lines
    assert "Scorer — Round 4 Millbrook: Tom Vale" in lines
    assert "Home — Round 3: Harbour FC" in lines


def test_rows_keyed_by_year_are_told_apart_by_their_text_columns_not_the_likeliest_code_name() -> None:
    """A sheet keyed by year, several rows a year: the year is the row's period, not an item's code, so the rows
    are told apart left to right by their text columns (the season and grade), not by the one column with the most
    values (the buyer, which says nothing of what the row prices)."""
    rows = [["Year", "Harvest", "Grade", "Price per kg", "Buyer"],
            ["2021", "Spring", "First", "66", "Ann Hale"], ["2021", "Spring", "Second", "41", "Ann Hale"],
            ["2021", "Autumn", "First", "30", "Rob Finch"], ["2022", "Spring", "First", "70", "Rob Finch"],
            ["2022", "Autumn", "First", "33", "Cy Moss"]]
    lines = table_sentences(rows, header=True)
    assert "Price per kg — 2022 Spring First: 70" in lines and "Price per kg — 2021 Spring Second: 41" in lines
    zh = [["年份", "季节", "等级", "收购价（元/公斤）", "收购员"], ["2021", "春茶", "一级", "66", "何安"],
          ["2021", "春茶", "二级", "41", "何安"], ["2021", "秋茶", "一级", "30", "费罗"], ["2022", "春茶", "一级", "70", "莫西"]]
    assert "收购价 — 2022 春茶 一级: 70元/公斤" in table_sentences(zh, header=True)


def test_a_column_naming_every_row_in_the_other_script_goes_beside_the_key() -> None:
    """A sheet keyed by English names with the Chinese names beside them (or the other way round): a reader names
    the row in either language, so each value line carries both; a column of the same script, or one that repeats,
    or two such columns (which is the name is not told) leave the key alone."""
    rows = [["room", "房型", "weekday_rate", "weekend_rate"], ["Harbour Single", "海景单人间", "300", "360"],
            ["Garden Twin", "花园双床房", "420", "500"], ["Loft Suite", "阁楼套房", "690", "840"]]
    lines = table_sentences(rows, header=True)
    assert "weekday rate — Garden Twin 花园双床房: 420" in lines and "房型 — Garden Twin: 花园双床房" in lines
    zh = [["品名", "English", "单价"], ["折叠椅", "Folding chair", "129元"], ["营地桌", "Camp table", "349元"]]
    assert "单价 — 营地桌 Camp table: 349元" in table_sentences(zh, header=True)
    same_script = [["room", "view", "rate"], ["Harbour Single", "Sea", "300"], ["Garden Twin", "Garden", "420"]]
    assert "rate — Garden Twin: 420" in table_sentences(same_script, header=True)
    repeated = [["room", "楼层", "rate"], ["Harbour Single", "一楼", "300"], ["Garden Twin", "一楼", "420"],
                ["Loft Suite", "三楼", "690"]]
    assert "rate — Garden Twin: 420" in table_sentences(repeated, header=True)
    described = [["room", "说明", "rate"], ["Harbour Single", "朝南，带阳台，可看到整个港湾的日出景色。", "300"],
                 ["Garden Twin", "一楼，带小花园", "420"]]
    assert "rate — Garden Twin: 420" in table_sentences(described, header=True)
    measured = [["型号", "续航", "售价"], ["Lumo L2", "6小时", "499元"], ["Lumo L4", "9小时", "799元"]]
    assert "售价 — Lumo L4: 799元" in table_sentences(measured, header=True)  # a quantity names no row
    models = [["品名", "型号", "单价"], ["录音笔", "Sonar R10", "420元"], ["投影仪", "Lumen P3", "2600元"]]
    assert "单价 — 投影仪: 2600元" in table_sentences(models, header=True)  # a model is no name in the other language


def test_a_spec_table_with_models_as_columns_is_read_by_model() -> None:
    md = (b"# Pumps\n\n| Parameter | Brisa P3 | Brisa P5 |\n|---|---|---|\n| Flow rate | 12 L/min | 20 L/min |\n"
          b"| Head height | 18 m | 26 m |\n| Motor power | 250 W | 400 W |\n| Weight | 4.1 kg | 5.8 kg |\n")
    lines = "\n".join(s.text for s in parse_markdown(md, "pumps.md").sections).splitlines()
    assert "Head height — Brisa P3: 18 m" in lines and "Weight — Brisa P5: 5.8 kg" in lines
    assert not any(line.startswith(("Brisa P3 —", "Brisa P5 —")) for line in lines)


def test_a_chinese_spec_table_with_models_as_columns_is_turned_over() -> None:
    heads, body = entities_as_rows(["参数", "QX-1", "QX-2"], [["额定功率", "900瓦", "1200瓦"], ["容量", "1.5升", "2升"],
                                                        ["重量", "2.1千克", "2.6千克"], ["颜色", "白色", "灰色"]])
    assert heads == ["参数", "额定功率", "容量", "重量", "颜色"]
    assert body == [["QX-1", "900瓦", "1.5升", "2.1千克", "白色"], ["QX-2", "1200瓦", "2升", "2.6千克", "灰色"]]


def test_a_table_of_entities_as_rows_stays_as_written() -> None:
    rows = [["Stall", "Rent per month (GBP)", "Size", "Tenant"], ["A1", "320", "12 m²", "Mo's Bakes"],
            ["A2", "290", "10 m²", "Ferrow Teas"], ["B1", "410", "16 m²", "Halden Cheese"]]
    assert entities_as_rows(rows[0], rows[1:]) == (rows[0], rows[1:])


def test_a_table_of_one_kind_of_value_both_ways_stays_as_written() -> None:
    # a timetable: every cell a time, so neither the rows nor the columns tell the entities apart
    rows = [["线路", "首班", "末班"], ["1路", "6:00", "22:30"], ["2路", "6:20", "21:50"], ["5路", "5:50", "23:00"]]
    assert entities_as_rows(rows[0], rows[1:]) == (rows[0], rows[1:])


def test_a_short_key_under_a_kind_header_is_said_with_its_kind() -> None:
    """"Standard — B: £29" named no band: a key of one letter or a small number under a one-word header that
    names its kind is read as a reader says it (Band B, Zone 2, Room 3B); codes and index columns stay as they were."""
    bands = [["Band", "Seats", "Standard"], ["A", "Stalls C–K", "£38"], ["B", "Stalls L–Q", "£29"]]
    assert "Standard — Band B: £29" in table_sentences(bands, header=True)
    zones = [["Zone", "Parcel up to 2 kg"], ["2", "£6.40"], ["3B", "£8.10"]]
    assert table_sentences(zones, header=True) == ["Parcel up to 2 kg — Zone 2: £6.40", "Parcel up to 2 kg — Zone 3B: £8.10"]
    indexed = [["No.", "Item", "Price"], ["1", "Kettle", "£45"], ["2", "Toaster", "£60"]]
    assert not any("No. 1" in line for line in table_sentences(indexed, header=True))
    chinese = [["档位", "价格"], ["A", "38元"], ["B", "29元"]]
    assert "价格 — B: 29元" in table_sentences(chinese, header=True)


def test_a_row_named_in_both_languages_is_named_by_either_and_its_lines_answer() -> None:
    """The row key ingest writes in both scripts ("Loft Suite 阁楼套房") is named by either name: an English question
    naming "Loft Suite" and a Chinese one naming 阁楼套房 both find the row's line (before the Chinese name was
    written beside it, the English question's line was dropped as another row's)."""
    from graphs.rag.answer.evidence import find_evidence
    from graphs.text.fields import row_key_forms
    from tests.support.answers import question
    from tests.support.fakes import hit

    assert row_key_forms("Loft Suite 阁楼套房") == ("loft suite 阁楼套房", "loft suite", "阁楼套房")
    assert row_key_forms("营地桌 Camp table") == ("营地桌 camp table", "营地桌", "camp table")
    rows = [["room", "房型", "weekday_rate", "weekend_rate"], ["Harbour Single", "海景单人间", "300", "360"],
            ["Garden Twin", "花园双床房", "420", "500"], ["Loft Suite", "阁楼套房", "690", "840"]]
    hits = [hit("rates#0", "\n".join(table_sentences(rows, header=True)), title="Rates"),
            hit("notes#0", "Towels in the Loft Suite are changed daily; a bath sheet costs 12 to replace.",
                title="Housekeeping")]
    for text, value, among in (("How much is the Loft Suite on weekends?", "840", hits),
                               ("阁楼套房平日价格是多少？", "690", hits[:1])):
        q = question(text, among)
        top = find_evidence(q, among)[0]
        line = top.sentences[top.span_in].text
        assert "Loft Suite 阁楼套房" in line and line.endswith(value), (text, line)


@pytest.mark.parametrize(("head", "words", "unit"), [
    ("date_opened", "date opened", ""), ("hullLength_m", "hull length", "m"), ("batteryLifeHours", "battery life", "hours"),
    ("deposit_eur", "deposit", "EUR"), ("fee_adults_yuan", "fee adults", "yuan"), ("price_p", "price p", ""), ("occupancyPct", "occupancy", "%"), ("water_temp_c", "water temp", "°C"),
    ("opening_year", "opening year", ""), ("start_day", "start day", ""), ("duration_days", "duration", "days"),
    ("team_members", "team members", ""), ("ISBN_code", "ISBN code", ""), ("route-no", "route no", ""),
    ("Net weight (kg)", "Net weight (kg)", ""), ("坐席数", "坐席数", ""), ("Tenant", "Tenant", ""),
])
def test_a_field_name_header_is_read_as_words_with_its_unit(head: str, words: str, unit: str) -> None:
    """A header written as a program writes a field (snake_case, camelCase, kebab-case) is read as the words it
    joins, its last word a unit when it is one; a calendar word in the singular is a date's name, not a unit;
    every other header stays as written."""
    assert header_words(head) == (words, unit)


def test_a_sheet_of_field_name_headers_reads_like_one_of_words() -> None:
    """A machine-written sheet states each value by its header's words, its unit on the number, as ``Hull length
    (m)`` would: a question says "when was it opened" or "how long is its hull", never ``hullLength_m``."""
    en = [["hut", "date_opened", "hullLength_m", "nightlyRateEur"], ["Kestrel Hut", "2011", "7.5", "32"],
          ["Stone Bothy", "1998", "9", "28"]]
    lines = table_sentences(en, header=True)
    assert "date opened — Kestrel Hut: 2011" in lines and "hull length — Stone Bothy: 9 m" in lines
    assert "nightly rate — Kestrel Hut: 32 EUR" in lines
    zh = [["name", "capacity_persons", "area_sqm", "floor_area_m"], ["听雨阁", "12", "40", "38.5"],
          ["观山亭", "6", "18", "17"]]
    zh_lines = table_sentences(zh, header=True)
    assert "floor area — 观山亭: 17 m" in zh_lines and "capacity persons — 听雨阁: 12" in zh_lines


def test_an_attribute_written_in_the_other_script_is_no_name_of_the_row() -> None:
    """Chinese-named rows with a column of Latin makers under a header of the first header's script: the maker is
    the row's attribute, not its English name, so it stays out of the row's label; a header that names a language
    (英文名, ``name_en``) or is written in the values' script still gives the row's other name."""
    rows = [["name", "maker", "year_built"], ["青鸟号", "Wintech", "2012"], ["飞鱼号", "Hudson", "2018"],
            ["银鲤号", "Empacher", "2020"]]
    lines = table_sentences(rows, header=True)
    assert "year built — 飞鱼号: 2018" in lines and "maker — 飞鱼号: Hudson" in lines
    named = [["名称", "英文名", "建造年份"], ["青鸟号", "Bluebird", "2012"], ["飞鱼号", "Flying Fish", "2018"]]
    assert "建造年份 — 飞鱼号 Flying Fish: 2018" in table_sentences(named, header=True)
    tagged = [["name", "name_en", "built"], ["青鸟号", "Bluebird", "2012"], ["飞鱼号", "Flying Fish", "2018"]]
    assert "built — 飞鱼号 Flying Fish: 2018" in table_sentences(tagged, header=True)
