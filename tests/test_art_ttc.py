"""Twin Tower City card art: all 80 cards through the art pipeline.

The expected values come from the rules engine's own reading of the data
(``rules.twin_tower_city.cards.Roster`` / ``Card``, ``scoring.warrior_power``), and
the card text is read from the resolved layers (:func:`resolve_card`), not by OCR.
Pictures are rendered once per module at 100 DPI from a copy of the art source
whose data files sit beside art.json, so a test can edit the roster.
"""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import rules.twin_tower_city as ttc_pkg
from rules.twin_tower_city.cards import Card, Roster, load_data, load_deck_data
from rules.twin_tower_city.scoring import warrior_power
from tts_builder.art import (MAX_COLUMNS, MAX_ROWS, MAX_SHEET_PX, ArtManifest, load_art_source, plan_sheets,
                             render_game_art, resolve_card)
from tts_builder.art.render import PT_PER_INCH, fit_layer, job_digest
from tts_builder.art.source import art_root, mm_to_px
from tts_builder.errors import InputError

GAME = "twin-tower-city"
RULES_DIR = Path(ttc_pkg.__file__).parent
LOW_DPI = 60


# --------------------------------------------------------------------------- helpers and fixtures


def copy_source(root: Path, *, dpi: int = LOW_DPI, roster: dict[str, Any] | None = None) -> Path:
    """The shipped TTC art source under ``root``, reading deck.json and the roster from beside art.json."""
    folder = root / GAME
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(Path(str(art_root() / GAME)), folder)
    shutil.copy(RULES_DIR / "deck.json", folder / "deck.json")
    data = roster if roster is not None else json.loads((RULES_DIR / "twin-tower-city.json").read_text())
    (folder / "twin-tower-city.json").write_text(json.dumps(data), encoding="utf-8")
    art = json.loads((folder / "art.json").read_text())
    assert art["components"]["data"] == "deck" and art["tables"]["roster"]["data"] == "twin-tower-city"
    art["components"] = {"file": "deck.json", "rows": art["components"]["rows"], "key": art["components"]["key"]}
    art["tables"]["roster"] = {"file": "twin-tower-city.json", "index": art["tables"]["roster"]["index"]}
    art["dpi"] = art["tts"]["dpi"] = dpi
    (folder / "art.json").write_text(json.dumps(art), encoding="utf-8")
    return root


def pngs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.png"))}


@pytest.fixture(scope="module")
def source() -> Any:
    """The shipped art source (package data: rules/twin_tower_city/deck.json + twin-tower-city.json)."""
    return load_art_source(GAME)


@pytest.fixture(scope="module")
def roster() -> Roster:
    return Roster.from_data(load_data())


@pytest.fixture(scope="module")
def cards() -> dict[str, Card]:
    return {raw["id"]: Card.from_json(raw) for raw in load_deck_data()["cards"]}


@pytest.fixture(scope="module")
def low_res(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, ArtManifest]:
    """One cold render of all 80 cards: (art root, out dir, manifest)."""
    root = copy_source(tmp_path_factory.mktemp("ttc-src"))
    out = tmp_path_factory.mktemp("ttc-out")
    return root, out, render_game_art(GAME, out, art_root=root)


def texts(source: Any, key: str) -> list[str]:
    row = source.row(key)
    return resolve_card(source, source.layout_for(row), row, deck="deck").texts()


def link_line(roster: Roster, item: str, kind: str, warrior: str) -> str:
    """How a bonus link reads beside its "+5" badge: "with Pedro Peter", "vs Light Warrior X" (the roster's
    "(placeholder)" suffix dropped; an assumed link is marked by its orange badge, no bare "?")."""
    name = roster.warrior_name[warrior].replace(" (placeholder)", "")
    return f"{kind} {name}"


def battle_halves(source: Any, key: str) -> dict[str, list[str]]:
    """A Battle card's texts by region: ``dark`` half, ``band`` (environment) and ``light`` half.

    The regions are the card's own two half backgrounds (its first two layers, dark on top)."""
    card = resolve_card(source, source.layouts["battle"], source.row(key), deck="deck")
    dark_bg, light_bg = card.layers[0]["box"], card.layers[1]["box"]
    dark_end, light_start = dark_bg[1] + dark_bg[3], light_bg[1]
    out: dict[str, list[str]] = {"dark": [], "band": [], "light": []}
    for layer in card.layers:
        if layer["type"] == "text":
            top = layer["box"][1] + layer.get("offset_mm", [0, 0])[1]
            bottom = top + layer["box"][3]
            region = "dark" if bottom <= dark_end else "light" if top >= light_start else "band"
            out[region].append(layer["text"])
    return out


# --------------------------------------------------------------------------- source and manifest


def test_source_reads_the_deck_and_the_roster(source: Any) -> None:
    deck = load_deck_data()
    assert [r.key for r in source.rows] == [c["id"] for c in deck["cards"]]
    assert Counter(r.kind for r in source.rows) == {"battle": 50, "army": 20, "warrior": 10}
    assert source.components == "rules/twin_tower_city/deck.json"
    warriors = source.tables["roster"]["warriors"]
    assert list(warriors) == [w["id"] for w in load_data()["warriors"]]
    assert warriors["don-triumph"]["power"] == 9


def test_every_card_has_a_slot(low_res: tuple[Path, Path, ArtManifest]) -> None:
    _, out, m = low_res
    ids = [c["id"] for c in load_deck_data()["cards"]]
    assert list(m.decks) == ["deck"]
    deck = m.decks["deck"]
    assert set(deck.slots) == set(ids) and len(ids) == 80
    assert {k: v for k, v in deck.copies.items()} == {i: (i,) for i in ids}  # one physical card per design
    where = [(s.sheet, s.slot) for s in deck.slots.values()]
    assert len(set(where)) == 80
    for n, sheet in enumerate(deck.sheets):
        for slot, key in enumerate(sheet.cards):
            assert (deck.slots[key].sheet, deck.slots[key].slot) == (n, slot)
    assert [k for s in deck.sheets for k in s.cards] == ids  # deck order, sheet by sheet
    written = json.loads((out / GAME / "images" / "manifest.json").read_text())
    assert ArtManifest.from_json(written) == m


def test_sheets_respect_tts_limits_and_the_hidden_cell_rule(low_res: tuple[Path, Path, ArtManifest]) -> None:
    _, out, m = low_res
    images = out / GAME / "images"
    sheets = m.decks["deck"].sheets
    assert len(sheets) >= 2  # 80 cards never fit one 10 x 7 sheet
    backs = {s.back for s in sheets}
    assert backs == {"deck-back.png"}  # one shared back
    for s in sheets:
        assert 1 <= s.num_width <= MAX_COLUMNS and 1 <= s.num_height <= MAX_ROWS
        assert s.width <= MAX_SHEET_PX and s.height <= MAX_SHEET_PX
        assert (s.width, s.height) == (s.num_width * s.card_width, s.num_height * s.card_height)
        cells = s.num_width * s.num_height
        if s.back_is_hidden:
            assert len(s.cards) <= cells
        else:  # the last cell is the hidden face: no card may sit there
            assert len(s.cards) <= cells - 1
        with Image.open(images / s.face) as face:
            assert face.size == (s.width, s.height) and face.mode in ("P", "RGB")
    assert all(s.back_is_hidden for s in sheets)  # the shared back doubles as the hidden face
    with Image.open(images / "deck-back.png") as back:
        assert back.size == (sheets[0].card_width, sheets[0].card_height)
    assert m.thumbnail == "thumbnail.png"


def test_full_size_sheet_geometry(source: Any) -> None:
    """At the shipped 200 DPI the packer gives two unscaled 8 x 5 sheets of 40 cards."""
    deck = source.decks[0]
    w_mm, h_mm = source.layouts["battle"].size_mm
    cell = (mm_to_px(w_mm, source.tts.dpi), mm_to_px(h_mm, source.tts.dpi))
    assert cell == (496, 693)
    plans = plan_sheets([r.key for r in source.rows], *cell, back_is_hidden=deck.back_is_hidden,
                        max_px=source.tts.max_sheet_px)
    assert [(p.num_width, p.num_height, p.cell_width, p.cell_height, p.width, p.height, len(p.cards))
            for p in plans] == [(8, 5, 496, 693, 3968, 3465, 40)] * 2


# --------------------------------------------------------------------------- what the cards say


def test_battle_cards_show_roster_names_and_powers(source: Any, roster: Roster, cards: dict[str, Card]) -> None:
    battles = [c for c in cards.values() if c.kind == "battle"]
    assert len(battles) == 50
    for card in battles:
        shown = texts(source, card.id)
        joined = "\n".join(shown)
        regions = battle_halves(source, card.id)
        for side in ("dark", "light"):
            half, half_text = regions[side], "\n".join(regions[side])
            warrior, item = card.warriors[side], card.items[side]
            assert roster.warrior_name[warrior] in half and roster.item_name[item] in half, card.id
            assert str(roster.warrior_power[warrior]) in half and str(roster.item_power[item]) in half, card.id
            for w in roster.wielders[item]:  # a "+5" badge, then the line
                assert f"+{roster.bonus}\n{link_line(roster, item, 'with', w)}" in half_text, card.id
            for t in roster.targets[item]:
                assert f"+{roster.bonus}\n{link_line(roster, item, 'vs', t)}" in half_text, card.id
            assert f"random bonus +{card.random_bonus[side]}" in half, card.id  # variation 5, small
            assert half[0] == load_data()["sides"][side]["name"].upper()
        assert card.environment is not None
        band = regions["band"]
        assert f"{roster.env_name[card.environment]} {card.district}" in band, card.id
        assert str(roster.env_power[card.environment]) in band
        assert f"ENVIRONMENT - {roster.env_side[card.environment].upper()}" in band
        assert card.id in shown  # the id, small in a corner
        links = sum(len(roster.wielders[card.items[s]]) + len(roster.targets[card.items[s]]) for s in ("dark", "light"))
        assert shown.count(f"+{roster.bonus}") == links  # no link that the roster does not have
        assert joined.count("with ") + joined.count("vs ") == links


def test_b02_worked_example_card_text(source: Any) -> None:
    """The rulebook example's Light starter: Pedro Peter with Virus against Don Triumph with The Constitution."""
    regions = battle_halves(source, "b02")
    assert regions["dark"] == ["FORCES OF DARKNESS", "random bonus +0", "WARRIOR", "Pedro Peter", "4", "ITEM",
                               "Virus", "6", "+5", "with Doctor Sickle", "+5", "vs Don Triumph"]
    assert regions["band"] == ["ENVIRONMENT - LIGHT", "Cityscape East", "1"]
    assert regions["light"] == ["FORCES OF LIGHT", "random bonus +2", "WARRIOR", "Don Triumph", "9", "ITEM",
                                "The Constitution", "8", "+5", "with Light Warrior X", "unofficial", "b02"]


def test_army_and_warrior_cards(source: Any, roster: Roster, cards: dict[str, Card]) -> None:
    for card in cards.values():
        if card.kind == "battle":
            continue
        shown = texts(source, card.id)
        assert card.side is not None and load_data()["sides"][card.side]["name"].upper() in shown
        assert card.id in shown
        if card.kind == "army":
            assert "ARMY" in shown
            assert len(card.army) == 5
            names = [t for t in shown if t in roster.warrior_name.values()]
            assert names == [roster.warrior_name[w] for w in card.army]  # in the card's order
            powers = Counter(t for t in shown if t.isdigit())
            assert powers == Counter(str(roster.warrior_power[w]) for w in card.army)
        else:
            assert card.warrior is not None
            power = warrior_power(roster, {"warrior": card.warrior, "level": card.level})  # the engine's number
            assert power == roster.warrior_power[card.warrior] + card.level
            assert "WARRIOR" in shown and roster.warrior_name[card.warrior] in shown
            assert f"LEVEL {card.level}" in shown and str(power) in shown
            assert f"base {roster.warrior_power[card.warrior]} + level {card.level}" in shown
    # the rulebook's worked example: Don Triumph Level 9 has Power 9 + 9 = 18
    assert "18" in texts(source, "wl1") and "LEVEL 9" in texts(source, "wl1")


def test_placeholders_and_assumed_links_are_marked(source: Any, cards: dict[str, Card]) -> None:
    data = load_data()
    assumed = {e["id"] for group in ("warriors", "items", "environments") for e in data[group]
               if e["provenance"] == "assumed"}
    assert {"light-warrior-x", "dark-warrior-y"} <= assumed
    assumed_links = {(link["item"]) for link in data["bonus_links"] if link["provenance"] == "assumed"}
    tag = list(source.color("tag", "test"))
    marked_somewhere = 0
    for card in cards.values():
        if card.kind == "battle":
            assert card.environment is not None
            entries = [*card.warriors.values(), *card.items.values(), card.environment]
            links = sum(1 for link in data["bonus_links"] if link["provenance"] == "assumed"
                        and link["item"] in card.items.values())
        elif card.kind == "army":
            entries, links = list(card.army), 0
        else:
            assert card.warrior is not None
            entries, links = [card.warrior], 0
        shown = texts(source, card.id)
        want = sum(1 for e in entries if e in assumed)
        assert shown.count("PLACEHOLDER") == want, card.id
        # an assumed link: an orange "+5" badge (counted below); no line ends in a bare "?"
        assert not any(t.endswith("?") for t in shown), card.id
        row = source.row(card.id)
        drawn = resolve_card(source, source.layout_for(row), row, deck="deck").layers
        badges = [layer for layer in drawn if layer["type"] == "rect" and layer.get("fill") == tag]
        assert len(badges) == want + links, card.id
        marked_somewhere += want
    assert marked_somewhere > 0 and assumed_links
    assert all("unofficial" in texts(source, c) for c in ("b01", "ad01", "wl1"))


def test_side_colours_differ(source: Any) -> None:
    def first_fill(key: str, kind: str) -> list[int]:
        row = source.row(key)
        card = resolve_card(source, source.layout_for(row), row, deck="deck")
        if kind == "background":
            return list(card.background)
        return list(next(layer["fill"] for layer in card.layers if layer["type"] == "rect"))

    battle = resolve_card(source, source.layouts["battle"], source.row("b01"), deck="deck")
    dark_half, light_half = battle.layers[0]["fill"], battle.layers[1]["fill"]
    assert dark_half != light_half
    assert first_fill("ad01", "background") == dark_half and first_fill("al01", "background") == light_half
    assert first_fill("wd1", "band") != first_fill("wl1", "band")


def test_every_text_fits_at_a_readable_size(source: Any) -> None:
    """No text overflows its box, and none lands below 5 pt (about 14 px on the 200 DPI sheet)."""
    k, pt = source.dpi / 25.4, source.dpi / PT_PER_INCH
    for row in source.rows:
        for layer in resolve_card(source, source.layout_for(row), row, deck="deck").layers:
            if layer["type"] != "text":
                continue
            _, _, w, h = layer["box"]
            fitted = fit_layer(source, layer, round(w * k), round(h * k), k, pt)
            assert fitted.fits, (row.key, layer["text"])
            assert fitted.size_px >= 5 * pt, (row.key, layer["text"], fitted.size_px / pt)


# --------------------------------------------------------------------------- incremental and deterministic


def _changed(data: dict[str, Any], group: str, ident: str, field: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    entry = next(e for e in data[group] if e["id"] == ident)
    assert entry[field] != value
    entry[field] = value
    return data


def _shows_warrior(raw: dict[str, Any], w: str) -> bool:
    return w in (raw.get("dark_warrior"), raw.get("light_warrior"), raw.get("warrior")) or w in raw.get("warriors", [])


def _shows_item(raw: dict[str, Any], item: str) -> bool:
    return item in (raw.get("dark_item"), raw.get("light_item"))


def _links_to(raw: dict[str, Any], w: str) -> bool:
    return any(link["warrior"] == w and _shows_item(raw, link["item"]) for link in load_data()["bonus_links"])


CHANGES = {
    # a warrior's Power is shown where the warrior is (Battle, Army, Warrior cards), not in link lines
    "warrior-power": (("warriors", "don-triumph", "power", 10), lambda raw: _shows_warrior(raw, "don-triumph")),
    "item-power": (("items", "virus", "power", 7), lambda raw: _shows_item(raw, "virus")),
    "environment-power": (("environments", "subway", "power", 4), lambda raw: raw.get("environment") == "subway"),
    # a name is shown in link lines too ("+5 vs Don Triumph" on every Virus card)
    "warrior-name": (("warriors", "don-triumph", "name", "Don Triumph II"),
                     lambda raw: _shows_warrior(raw, "don-triumph") or _links_to(raw, "don-triumph")),
}


def _digests(src: Any) -> dict[str, str]:
    """Each card's cache key (what the incremental cache compares)."""
    return {r.key: job_digest(src, src.layout_for(r), r, "deck") for r in src.rows}


@pytest.fixture(scope="module")
def base_digests(low_res: tuple[Path, Path, ArtManifest]) -> dict[str, str]:
    return _digests(load_art_source(GAME, root=low_res[0]))


def _edit_roster(root: Path, dest: Path, change: str) -> tuple[Path, set[str]]:
    (group, ident, field, value), shows = CHANGES[change]
    expected = {raw["id"] for raw in load_deck_data()["cards"] if shows(raw)}
    assert 0 < len(expected) < 80
    roster = json.loads((root / GAME / "twin-tower-city.json").read_text())
    return copy_source(dest, roster=_changed(roster, group, ident, field, value)), expected


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_roster_change_changes_exactly_the_cache_keys_of_cards_that_show_it(
        change: str, low_res: tuple[Path, Path, ArtManifest], base_digests: dict[str, str], tmp_path: Path) -> None:
    new_root, expected = _edit_roster(low_res[0], tmp_path, change)
    new = _digests(load_art_source(GAME, root=new_root))
    assert {k for k in base_digests if base_digests[k] != new[k]} == expected


def test_roster_power_change_redraws_exactly_those_cards(low_res: tuple[Path, Path, ArtManifest],
                                                          tmp_path: Path) -> None:
    root, out, before = low_res
    new_root, expected = _edit_roster(root, tmp_path / "src", "warrior-power")
    shutil.copytree(out, tmp_path / "out")  # the module's cold render: pictures and sheets
    after = render_game_art(GAME, tmp_path / "out", art_root=new_root)
    assert before.rendered == 81  # 80 faces + the back, all different
    assert (after.rendered, after.reused) == (len(expected), 81 - len(expected))
    changed = {f"deck-{before.decks['deck'].slots[k].sheet + 1}.png" for k in expected}
    if expected & set(load_art_source(GAME, root=root).thumbnail.cards):  # type: ignore[union-attr]
        changed.add("thumbnail.png")
    assert {n for n in after.files if after.files[n].inputs != before.files[n].inputs} == changed  # redone
    # new sheet pixels (the 256 px thumbnail may not change: its outer cards lie half under the middle one)
    assert {n for n in after.files if after.files[n].sha256 != before.files[n].sha256} - {"thumbnail.png"} \
        == changed - {"thumbnail.png"}
    cached = {p.name[:64] for p in (tmp_path / "out" / GAME / "art-cache").glob("*.tga")}  # digest-WxH.tga
    assert len(cached) == 81  # stale pictures pruned


def test_rendering_twice_is_byte_identical(low_res: tuple[Path, Path, ArtManifest], tmp_path: Path) -> None:
    root, out, first = low_res
    images = out / GAME / "images"
    before = pngs(images)
    assert set(before) == {"deck-1.png", "deck-2.png", "deck-back.png", "thumbnail.png"}
    again = render_game_art(GAME, tmp_path / "cold", art_root=root)  # from scratch, elsewhere
    assert pngs(tmp_path / "cold" / GAME / "images") == before
    assert again.files == first.files
    warm = render_game_art(GAME, out, art_root=root)  # in place: everything reused, nothing rewritten
    assert (warm.rendered, warm.reused) == (0, 81)
    assert pngs(images) == before
    assert {n: hashlib.sha256(b).hexdigest() for n, b in before.items()} == {n: r.sha256 for n, r in warm.files.items()}


# --------------------------------------------------------------------------- the format extensions TTC uses


TABLE = {"people": [{"id": "w1", "name": "Ann", "items": 3}, {"id": "w2", "name": "Bob", "items": 4}]}
DATA = {"cards": [{"id": "c1", "kind": "card", "who": "w1"}, {"id": "c2", "kind": "card", "who": "w2"}]}
ART: dict[str, Any] = {
    "format": 1,
    "components": {"file": "data.json", "rows": "cards", "key": "id"},
    "tables": {"t": {"file": "table.json", "index": {"people": "id"}}},
    "dpi": 30,
    "palette": {"a_bg": "#102030", "b_bg": "#e0d0c0"},
    "layouts": {
        "card": {"size_mm": [40, 56], "background": "{{ 'a' if who == 'w1' else 'b' }}_bg",
                 "let": {"p": "tables.t.people[who]", "label": "p.name | upper"},
                 "layers": [{"type": "text", "box": "cut", "text": "{{ label }}", "size_pt": 10},
                            {"type": "text", "box": "cut", "text": "{{ p['items'] }}", "size_pt": 10}]},
    },
    "kinds": {"card": "card"},
    "decks": [{"key": "d", "kinds": ["card"], "back": "card", "back_is_hidden": True}],
}


def tiny(root: Path, *, art: dict[str, Any] | None = None, table: dict[str, Any] | None = None,
         data: dict[str, Any] | None = None) -> Path:
    folder = root / "tiny"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "art.json").write_text(json.dumps(art if art is not None else ART))
    (folder / "table.json").write_text(json.dumps(table if table is not None else TABLE))
    (folder / "data.json").write_text(json.dumps(data if data is not None else DATA))
    return root


def test_tables_let_key_and_templated_background(tmp_path: Path) -> None:
    src = load_art_source("tiny", root=tiny(tmp_path))
    assert [r.key for r in src.rows] == ["c1", "c2"]
    one = resolve_card(src, src.layouts["card"], src.row("c1"))
    two = resolve_card(src, src.layouts["card"], src.row("c2"))
    assert one.texts() == ["ANN", "3"] and two.texts() == ["BOB", "4"]
    assert one.background == (0x10, 0x20, 0x30) and two.background == (0xE0, 0xD0, 0xC0)


@pytest.mark.parametrize("breakage, message", [
    ("duplicate-id", "duplicate id 'w1'"),
    ("index-not-list", "must be a list to be indexed"),
    ("reserved-let", "let.row: not a usable name"),
    ("undefined-let", "is undefined"),
    ("mutating-template", "unsafe"),
    ("missing-key-field", r"cards\[0\]\.id"),
])
def test_extension_errors_are_input_errors(tmp_path: Path, breakage: str, message: str) -> None:
    art, table, data = copy.deepcopy(ART), copy.deepcopy(TABLE), copy.deepcopy(DATA)
    card = art["layouts"]["card"]
    if breakage == "duplicate-id":
        table["people"][1]["id"] = "w1"
    elif breakage == "index-not-list":
        art["tables"]["t"]["index"] = {"nobody": "id"}
    elif breakage == "reserved-let":
        card["let"] = {"row": "1"}
    elif breakage == "undefined-let":
        card["let"] = {"p": "tables.t.people['nobody']"}
    elif breakage == "mutating-template":
        card["layers"][0]["text"] = "{{ tables.t.people.clear() }}"
    else:
        del data["cards"][0]["id"]
    with pytest.raises(InputError, match=message) as err:
        render_game_art("tiny", tmp_path / "out", art_root=tiny(tmp_path / "src", art=art, table=table, data=data))
    assert "\n" not in str(err.value)
    assert TABLE["people"][0]["id"] == "w1"  # nothing was changed in place
