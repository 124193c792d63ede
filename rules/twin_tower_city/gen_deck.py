"""Generate the 80-card Twin Tower City deck from the roster (``deck.json``).

Run once and commit the result; re-running with the same seed gives the same file::

    python -m rules.twin_tower_city.gen_deck            # rewrites deck.json beside this file
    python -m rules.twin_tower_city.gen_deck --check    # exit 1 if deck.json differs

The deck is unofficial (A-14, TTC-12): b01..b04 are the four Battle cards of the
rulebook's worked example and wl1 is its Don Triumph Level 9; everything else is
drawn from a fixed seed. A real card list can replace ``deck.json`` line for line.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Mapping

from rules.twin_tower_city.cards import load_data

SEED = 20_240_905
DECK_PATH = Path(__file__).with_name("deck.json")

#: The worked example's Battle cards: round 1's starting pair, then its second pair.
#: Which warrior and item share a card is not shown in the rule text (TTC-12).
EXAMPLE_BATTLE = [
    ("blamtifa-thug", "muzzle", "patriot-anon", "x22-missile", "dumb", "North East"),
    ("pedro-peter", "virus", "don-triumph", "the-constitution", "cityscape", "East"),
    ("renegade", "bioweapon", "lady-triumph", "red-pill", "subway", "North"),
    ("crooked", "false-flag", "kenosha-kid", "ar-15", "snowfields", "North West"),
]
EXAMPLE_WARRIOR = ("don-triumph", 9)


def generate_deck(data: Mapping[str, Any] | None = None, seed: int = SEED) -> dict[str, Any]:
    data = data or load_data()
    rng = random.Random(seed)
    counts = data["deck_counts"]
    side_w = {s: [w["id"] for w in data["warriors"] if w["side"] == s] for s in ("dark", "light")}
    side_i = {s: [i["id"] for i in data["items"] if i["side"] == s] for s in ("dark", "light")}
    envs = [e["id"] for e in data["environments"]]
    districts = list(data["districts"])
    lo, hi = data["random_bonus_range"]
    cards: list[dict[str, Any]] = []

    for n in range(1, counts["battle"] + 1):
        if n <= len(EXAMPLE_BATTLE):
            dw, di, lw, li, env, district = EXAMPLE_BATTLE[n - 1]
            provenance = "derived"
        else:
            dw, di = rng.choice(side_w["dark"]), rng.choice(side_i["dark"])
            lw, li = rng.choice(side_w["light"]), rng.choice(side_i["light"])
            env, district = rng.choice(envs), rng.choice(districts)
            provenance = "assumed"
        cards.append({"id": f"b{n:02d}", "kind": "battle", "dark_warrior": dw, "dark_item": di,
                      "light_warrior": lw, "light_item": li, "environment": env, "district": district,
                      "quote": False, "random_dark_bonus": rng.randint(lo, hi),
                      "random_light_bonus": rng.randint(lo, hi), "provenance": provenance})

    size = data["army_size"]
    for side, key in (("dark", "ad"), ("light", "al")):
        roster_order = side_w[side]
        for n in range(1, counts[f"{side}_army"] + 1):
            chosen = set(rng.sample(roster_order, size))
            cards.append({"id": f"{key}{n:02d}", "kind": "army", "side": side,
                          "warriors": [w for w in roster_order if w in chosen], "provenance": "assumed"})

    levels = list(data["levels"]["warrior_card_levels"])
    for side, key in (("dark", "wd"), ("light", "wl")):
        n_cards = counts[f"{side}_warrior"]
        pool = list(side_w[side])
        lv = list(levels)
        fixed: list[tuple[str, int, str]] = []
        if side == "light":
            w, level = EXAMPLE_WARRIOR
            fixed.append((w, level, "derived"))
            pool.remove(w)
            lv.remove(level)
        rng.shuffle(lv)
        chosen_w = rng.sample(pool, n_cards - len(fixed))
        entries = fixed + [(w, level, "assumed") for w, level in zip(chosen_w, lv)]
        for n, (w, level, provenance) in enumerate(entries, start=1):
            cards.append({"id": f"{key}{n}", "kind": "warrior", "side": side, "warrior": w,
                          "level": level, "provenance": provenance})

    return {
        "id": "twin-tower-city-deck",
        "provenance": "assumed",
        "unofficial": True,
        "generator": "python -m rules.twin_tower_city.gen_deck",
        "seed": seed,
        "note": ("Generated from the roster in twin-tower-city.json (A-14, TTC-12): b01-b04 and wl1 are "
                 "the rulebook's worked example, the rest is drawn from the seed. One card per line, so a "
                 "real card list can replace it line for line."),
        "cards": cards,
    }


def dump_deck(deck: Mapping[str, Any]) -> str:
    """Deck JSON with one card per line (stable key order, ASCII)."""
    head = {k: v for k, v in deck.items() if k != "cards"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=True)},")
    lines.append('  "cards": [')
    cards = deck["cards"]
    for n, card in enumerate(cards):
        sep = "," if n < len(cards) - 1 else ""
        lines.append("    " + json.dumps(card, ensure_ascii=True) + sep)
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=DECK_PATH)
    parser.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    args = parser.parse_args(argv)
    text = dump_deck(generate_deck(seed=args.seed))
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} differs from the generated deck", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
