"""Regenerate the Smitten 2 golden scenarios (run from the repository root:
``python tests/golden/smitten-2/make_goldens.py``).

Each scenario is a heuristic game of one mode and option set, chosen by seed for how it ends
(a win, each way to lose), with refusals woven in: at each position the probes below (and the
project's mutants) are judged, and the first refusal of each rule id not yet covered is kept.
The files are then the expectations; ``tests/test_smitten_goldens.py`` replays them through
the engine, the validator and the Lua mirror.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from rules.core import judge  # noqa: E402
from rules.mutate import mutants  # noqa: E402
from rules.smitten_2 import GAME  # noqa: E402
from rules.smitten_2.engine import CARDS  # noqa: E402
from tts_builder.simulate import play_game  # noqa: E402

OUT = Path(__file__).parent

#: (file stem, players, options, wanted end reason, won, description)
WANTED = [
    ("duo-medium-win", 2, {}, "all-placed", True, "Two players, Medium: a win; the finishing touch completes the grids."),
    ("duo-easy-cannot-follow", 2, {"difficulty": "easy"}, "cannot-follow", False, "Two players, Easy (4-card hands): the partner cannot follow an instruction."),
    ("duo-hard-no-play", 2, {"difficulty": "hard"}, "no-play", False, "Two players, Hard (grid balance): neither player can play."),
    ("duo-hard-win", 2, {"difficulty": "hard"}, "all-placed", True, "Two players, Hard: a win under the grid-balance rule."),
    ("solo-win", 1, {}, "all-placed", True, "Solo: a win."),
    ("solo-face-down-unplayable", 1, {}, "face-down-unplayable", False, "Solo: a flipped face-down card fits neither grid."),
    ("solo-easy-swap", 1, {"solo_easy": True}, None, None, "Solo Easy: the swap, once."),
    ("solo-left-hand-no-play", 1, {"solo_left_hand": True}, "no-play", False, "Solo Hard (left hand): no hand can play."),
    ("solo-all-options", 1, {"solo_easy": True, "solo_left_hand": True, "solo_balance": True}, None, None, "Solo with Easy and both Hard options."),
]


def probes(state: Any, rng: random.Random) -> list[Any]:
    s = state.s
    out: list[Any] = [{"type": "say", "words": "I have a 5"}, {"type": "say", "words": "I can play"},
                      {"type": "flip", "hand": 2}, {"type": "flip", "hand": 0}, {"type": "flip", "hand": 1},
                      {"type": "draw", "hand": 0}, {"type": "draw", "hand": 1}, {"type": "choose", "option": 3},
                      {"type": "name", "value": 1}, {"type": "name", "value": 4}, {"type": "name", "value": "another"},
                      {"type": "play", "card": "0a", "grid": 0}, {"type": "play", "card": "1a", "grid": 2}]
    for card in CARDS:
        for g in (0, 1):
            out += [{"type": "play", "card": card, "grid": g}, {"type": "place", "card": card, "grid": g}]
        out += [{"type": "swap", "card": card}, {"type": "reveal", "card": card}, {"type": "discard", "card": card}]
    rng.shuffle(out)
    return out


def scenario(stem: str, players: int, options: dict[str, Any], description: str, transcript: dict[str, Any],
             covered: set[str], forfeit_at: int | None = None) -> dict[str, Any]:
    rng = random.Random(stem)
    covered_here: set[str] = set()
    state = GAME.new_state(setup=transcript["setup"], options=options, num_players=players)
    steps: list[Any] = []
    moves = transcript["moves"] if forfeit_at is None else transcript["moves"][:forfeit_at] + [{"player": 0, "type": "forfeit"}]
    if players == 2:  # table talk: optional, said by a player who may take the turn, changes nothing
        steps.append({"player": 1, "type": "say", "words": "I can play, but I don't want to play"})
    for entry in moves:
        if entry["type"] == "forfeit":
            entry = {"player": state.current_player(), "type": "forfeit"}
        move = {k: v for k, v in entry.items() if k != "player"}
        tries = [(entry["player"], m) for m in list(mutants(move, state, rng)) + probes(state, rng)]
        tries += [(p, move) for p in range(players + 1) if p != entry["player"]]
        for who, m in tries:
            v = judge(state, who, m)
            if not v.ok and v.rule not in covered_here:
                covered_here.add(v.rule)
                covered.add(v.rule)
                steps.append({"refuse": {"player": who, **m} if isinstance(m, dict) else {"player": who, "move": m},
                              "rule": v.rule, "message": v.message})
        steps.append(entry)
        state.apply(move)
    v = judge(state, 0, {"type": "forfeit"})
    if v.rule not in covered:
        covered.add(v.rule)
        steps.append({"refuse": {"player": 0, "type": "forfeit"}, "rule": v.rule, "message": v.message})
    result = state.result()
    return {"description": description, "players": players, "options": options, "setup": transcript["setup"],
            "steps": steps, "result": result.to_json() if result else None}


def main() -> None:
    covered: set[str] = set()
    for stem, players, options, reason, _won, description in WANTED:
        for seed in range(3000):
            t = play_game("smitten-2", seed, policy="heuristic", options=options, num_players=players)
            swapped = any(m["type"] == "swap" for m in t["moves"]) or not options.get("solo_easy")
            if (reason is None or t["result"]["reason"] == reason) and swapped:
                break
        else:
            raise SystemExit(f"{stem}: no seed ends with {reason}")
        sc = scenario(stem, players, options, description + f" (heuristic game, seed {seed})", t, covered)
        (OUT / f"{stem}.json").write_text(json.dumps(sc, indent=1) + "\n")
    t = play_game("smitten-2", 5, policy="heuristic", num_players=2)
    sc = scenario("duo-forfeit", 2, {}, "Two players: the table gives up (a loss).", t, covered, forfeit_at=4)
    (OUT / "duo-forfeit.json").write_text(json.dumps(sc, indent=1) + "\n")
    missing = set(GAME.rules) - covered
    print("covered", len(covered), "missing", sorted(missing))


if __name__ == "__main__":
    main()
