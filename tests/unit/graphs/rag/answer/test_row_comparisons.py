"""Comparisons whose sides are rows of a table that also lists their accessories and variants (own invented price
lists, in English and Chinese): each side is read from its own row — not from a row that names it as what an
accessory is for ("Spare jug for Tarn B4", 青鸾C6专用滤芯), nor from a longer variant's row ("Tarn B4 Max") — and
from the column that names the compared dimension ("Length (m)" for "longer", not the "Built" year)."""

from __future__ import annotations

from graphs.text.units import label_dimension
from tests.support.answers import write
from tests.support.fakes import hit

SHOP = hit("shop#0", "\n".join([
    "price_gbp — TS-B4J Spare jug for Tarn B4: 17.00",
    "price_gbp — TS-B4 Tarn B4 blender: 92.00",
    "price_gbp — TS-B4M Tarn B4 Max blender: 140.00",
    "price_gbp — TS-W2 Wey W2 blender: 79.00",
    "price_gbp — TS-W2K Blade kit for Wey W2: 11.00",
]), title="tarnside shop prices")
SHOP_ZH = hit("shop_zh#0", "\n".join([
    "价格 — QL-C6F 青鸾C6专用滤芯: 49元",
    "价格 — QL-C6 青鸾C6净水器: 1899元",
    "价格 — BH-D3 白鹤D3净水器: 1599元",
    "价格 — BH-D3P 白鹤D3净水器旗舰版: 2399元",
]), title="净水器价目表")
FLEET = hit("fleet#0", "\n".join([
    "Built — Heronsgate: 1971", "Length — Heronsgate: 10.4 m",
    "Built — Dabchick: 1962", "Length — Dabchick: 12.8 m",
]), title="Millpond rowing club fleet")


def test_an_accessorys_row_is_not_the_sides_own() -> None:
    _, _, span, text = write("Which is cheaper, the Tarn B4 or the Wey W2?", [SHOP])
    assert span == "Wey W2" and "92.00" in text and "79.00" in text and "17.00" not in text
    _, _, span, text = write("青鸾C6和白鹤D3哪个更便宜？", [SHOP_ZH])
    assert span == "白鹤D3" and "1899元" in text and "1599元" in text and "49元" not in text


def test_the_row_that_is_the_side_and_not_more_wins() -> None:
    _, _, span, text = write("Which costs more, the Tarn B4 or the Wey W2?", [SHOP])
    assert span == "Tarn B4" and "92.00" in text and "140.00" not in text
    _, _, span, text = write("白鹤D3净水器和青鸾C6净水器哪个贵？", [SHOP_ZH])
    assert span == "青鸾C6净水器" and "1599元" in text and "2399元" not in text


def test_both_sides_are_read_from_the_column_of_the_compared_dimension() -> None:
    _, _, span, text = write("Which is longer, the Heronsgate or the Dabchick?", [FLEET])
    assert span == "Dabchick" and "12.8" in text and "10.4" in text and "1971" not in text


def test_a_columns_header_names_its_dimension() -> None:
    assert label_dimension("Length (m)") == "length"
    assert label_dimension("weight_kg") == "weight"
    assert label_dimension("list_price_eur") == "money"
    assert label_dimension("价格（元）") == "money"
    assert label_dimension("长度米") == "length"
    assert label_dimension("Built") is None and label_dimension("建成年份") is None


LONG_ROWS = hit("catalogue#0", "\n".join([
    "list_price_eur — SL-AR30 Saltmarsh Avocet R30 air purifier: 245.00",
    "list_price_eur — SL-FP30 Replacement carbon filter pack for Saltmarsh Avocet R30 (3 filters): 36.00",
    "list_price_eur — SL-DB12 Saltmarsh Dunlin B12 dehumidifier: 209.00",
]), title="saltmarsh catalogue 2027")
MANUAL = hit("manual#0", "Refrigerant charge — Saltmarsh Dunlin B12: R290, 65 g\nTank — Saltmarsh Dunlin B12: 3.5 L",
             title="Dunlin B12 manual")
WEIGHTS = hit("weights#0", "weight_kg — TS-B4 Tarn B4 blender: 3.4\nweight_kg — TS-W2 Wey W2 blender: 2.9",
              title="tarnside shop weights")


def test_long_rows_and_a_header_with_underscores_hold_the_price() -> None:
    # the accessory's row is long (its header, code and name past a short label), the price column's header is
    # written with underscores, and the manual's "65 g" under "Refrigerant charge" is a weight, no price
    _, _, span, text = write("Which one costs less, the Saltmarsh Avocet R30 or the Saltmarsh Dunlin B12?",
                             [LONG_ROWS, MANUAL])
    assert span == "Saltmarsh Dunlin B12" and "245.00" in text and "209.00" in text
    assert "36.00" not in text and "65 g" not in text


def test_a_verbs_more_compares_numbers() -> None:
    _, _, span, text = write("Which weighs more, the Wey W2 or the Tarn B4?", [WEIGHTS])
    assert span == "Tarn B4" and "3.4" in text and "2.9" in text
    _, _, span, _ = write("Which weighs less, the Tarn B4 or the Wey W2?", [WEIGHTS])
    assert span == "Wey W2"
