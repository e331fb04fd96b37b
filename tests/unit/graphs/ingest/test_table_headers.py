"""Table headers read by structure at ingest: merged header cells, a header of several rows, a running-number column
and a column of units (``graphs.ingest.formats``). Invented tables, none from the dev sets."""

from __future__ import annotations

from graphs.ingest.formats.base import entities_as_rows, keyed_columns, table_sentences
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
    assert "Shift — North pier: Evening" in lines and "Volunteers — North pier: 2" in lines
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
