"""schema-check speed on large synthetic saves, phase by phase.

    python benchmarks/bench_savecheck.py [--objects N]

Builds two saves in memory: N table objects sharing three GUIDs (the case that made
the old duplicate-GUID check quadratic), and decks holding N cards in all (the usual
shape of a big card-game save). Prints their JSON size and the seconds spent reading
(depth scan and parse, with the input limits of ``tts_builder.fileio``), in the schema
pass, in the semantic checks (decks, GUIDs, local files) and in the value pass.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from tts_builder import savecheck
from tts_builder.fileio import parse_json_text

TRANSFORM = {k: 0.0 for k in ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")}
SHEET = {"FaceURL": "https://example.invalid/f.png", "BackURL": "https://example.invalid/b.png",
         "NumWidth": 10, "NumHeight": 7, "BackIsHidden": True}


def shared_guids(n: int) -> dict[str, Any]:
    return {"ObjectStates": [{"Name": "BlockSquare", "GUID": f"{i % 3:06x}", "Transform": TRANSFORM,
                              "Description": "x" * 200} for i in range(n)]}


def decks(n: int, per_deck: int = 3000) -> dict[str, Any]:
    out = []
    for d in range(max(1, n // per_deck)):
        cards = [{"Name": "Card", "GUID": "c0ffee", "Transform": TRANSFORM, "Nickname": f"card {i}",
                  "CardID": 100 + i % 69, "CustomDeck": {"1": SHEET}} for i in range(per_deck)]
        out.append({"Name": "DeckCustom", "GUID": f"{d:06x}", "Transform": TRANSFORM, "CustomDeck": {"1": SHEET},
                    "DeckIDs": [c["CardID"] for c in cards], "ContainedObjects": cards})
    return {"ObjectStates": out}


def bench(name: str, data: dict[str, Any]) -> None:
    text = json.dumps(data, indent=2)
    times = []
    start = time.perf_counter()
    parsed = parse_json_text(text, name, allow_infinity=True)
    times.append(time.perf_counter() - start)
    for phase in (lambda: savecheck._schema_problems(parsed),
                  lambda: savecheck._semantic_problems(parsed, base_dir=None, own_output=False),
                  lambda: savecheck._value_problems(parsed, own_output=False)):
        start = time.perf_counter()
        phase()
        times.append(time.perf_counter() - start)
    read, schema, semantic, values = times
    print(f"{name:14} {len(text) / 1e6:6.1f} MB  read {read:5.2f} s  schema {schema:6.2f} s  "
          f"semantic {semantic:5.2f} s  values {values:5.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--objects", type=int, default=36_000, help="objects or cards per save (default 36000)")
    args = parser.parse_args()
    bench("shared GUIDs", shared_guids(args.objects))
    bench("decks", decks(args.objects))


if __name__ == "__main__":
    main()
