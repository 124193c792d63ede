"""A game's own words for ``show`` and ``replay``: the score the result reports, the rounds a game
plays, and what a move moved, rescued or chose.

One function per game formats the result's numbers (:func:`result_lines`), so the same numbers
appear wherever a score is shown: the position's score line says what it counts (Two by Two's
view counts the track, its result the track plus the ark), and the final score names points for
every seat count. :func:`round_lines` words a round as it ends (Twin Tower City: Power per side
and the round's winner). :func:`move_words` adds what a move's bare numbers leave out (the species
of a rescued pair, the option a Smitten 2 partner chose), read from the position before the move.
Everything here reads the engines' public views (``table_view``, ``to_json``, ``result``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.core import name_in

ResultWords = Callable[[Mapping[str, Any], Sequence[str]], list[str]]


def _plural(n: Any, unit: str) -> str:
    """"1 point", "3 points", "2 cards placed" (the unit's first word takes the s)."""
    if n == 1 or unit.endswith("species"):
        return f"{n} {unit}"
    first, _, rest = unit.partition(" ")
    return f"{n} {first}s{' ' + rest if rest else ''}"


def _per_seat(result: Mapping[str, Any], names: Sequence[str], unit: str) -> list[str]:
    scores = result.get("scores")
    if not isinstance(scores, list) or not scores:
        return []
    return ["Final score: " + ", ".join(f"{name_in(s, list(names))} {_plural(v, unit)}" for s, v in enumerate(scores))]


def _two_by_two(result: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    scores, track, ark = result.get("scores"), result.get("track"), result.get("ark_points")
    if not (isinstance(scores, list) and isinstance(track, list) and isinstance(ark, list)):
        return _per_seat(result, names, "point")
    animals, species = result.get("animals") or [], result.get("species") or []
    out = ["Final score (the track plus the ark):"]
    for s, total in enumerate(scores):
        extra = ""
        if s < len(animals) and s < len(species):
            extra = f"; {_plural(animals[s], 'animal')} of {_plural(species[s], 'species')}"
        out.append(f"  {name_in(s, list(names))}: {_plural(total, 'point')} (track {track[s]} + ark {ark[s]}{extra})")
    return out


def _twin_tower_city(result: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    won, power = result.get("rounds_won"), result.get("power")
    if not isinstance(won, Mapping) or not isinstance(power, Mapping):
        return _per_seat(result, names, "round")
    out = [f"Rounds won: Dark {won.get('dark', 0)}, Light {won.get('light', 0)}",
           f"Power over the game: Dark {power.get('dark', 0)}, Light {power.get('light', 0)}"]
    winners = result.get("round_winners")
    if isinstance(winners, list):
        out.append("Round winners: " + ", ".join(f"{n} {str(w).capitalize() if w else 'level'}"
                                                  for n, w in enumerate(winners, 1)))
    return out


def _cooperative(unit: str) -> ResultWords:
    def words(result: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        score = result.get("score")
        return [] if score is None else [f"Final score: {_plural(score, unit)}"]
    return words


_RESULTS: dict[str, ResultWords] = {
    "two-by-two": _two_by_two,
    "twin-tower-city": _twin_tower_city,
    "two-and-two": lambda r, n: _per_seat(r, n, "set"),
    "smitten-2": _cooperative("card placed"),
    "obren-buttons": lambda r, n: [] if r.get("kind") == "solo" else _per_seat(r, n, "line"),
}

#: What a position's ``scores`` count, when it is not the result's score.
_VIEW_SCORES: dict[str, str] = {"two-by-two": "Track"}


def result_lines(game_id: str, result: Mapping[str, Any] | None, names: Sequence[str]) -> list[str]:
    """The result's numbers in the game's words (empty while the game is unfinished)."""
    if not result:
        return []
    words = _RESULTS.get(game_id)
    if words is None:
        return _per_seat(result, names, "point")
    return words(result, names)


def view_scores_label(game_id: str) -> str:
    """How a position's ``scores`` line is labelled: "Scores", or what they count ("Track")."""
    return _VIEW_SCORES.get(game_id, "Scores")


# --------------------------------------------------------------------------- rounds


def _rounds_of(state: Any) -> list[Mapping[str, Any]]:
    data = state.to_json() if hasattr(state, "to_json") else {}
    rounds = data.get("rounds") if isinstance(data, Mapping) else None
    return [r for r in rounds if isinstance(r, Mapping)] if isinstance(rounds, list) else []


def round_lines(game_id: str, before: Sequence[Mapping[str, Any]], state: Any) -> tuple[list[str], list[Mapping[str, Any]]]:
    """Twin Tower City: the rounds that ended with the move just made (``before`` are the rounds
    known before it), in words, and the rounds now known."""
    if game_id != "twin-tower-city":
        return [], []
    rounds = _rounds_of(state)
    out = []
    for r in rounds[len(before):]:
        totals = r.get("totals") or {}
        winner = r.get("winner")
        verdict = f"{str(winner).capitalize()} wins the round" if winner else "the round is level"
        out.append(f"Round {r.get('round')} ends: Dark {totals.get('dark', 0)} Power, "
                   f"Light {totals.get('light', 0)} Power: {verdict}")
    return out, rounds


# --------------------------------------------------------------------------- moves


def _two_by_two_move(state: Any, move: Mapping[str, Any], text: str) -> str:
    if move.get("type") != "rescue" or not isinstance(move.get("cells"), list):
        return text
    cells: dict[str, Any] = {}
    for board in state.table_view().get("boards", []):
        cells.update(board.get("cells", {}))
    kinds = []
    for cell in move["cells"]:
        piece = (cells.get(cell) or {}).get("piece") if isinstance(cell, str) else None
        kinds.append(str(piece).rsplit("-", 1)[0] if piece else None)
    if not kinds or None in kinds:
        return text
    what = kinds[0] if len(set(kinds)) == 1 else " and ".join(k for k in kinds if k)
    return text.replace("rescue the pair on", f"rescue the pair of {what} on", 1)


_GRIDS = {"same": "the same grid", "other": "the other grid", "not-placed": "the grid not yet placed in"}


def _smitten_step(step: Mapping[str, Any]) -> str:
    do = step.get("do")
    if do == "place":
        where = _GRIDS.get(str(step.get("grid")), "either grid")
        return f"place a card in {where}"
    if do == "discard":
        return "discard a card"
    if do == "reveal":
        return "reveal a card"
    return str(do)


def _smitten_move(state: Any, move: Mapping[str, Any], text: str) -> str:
    t = move.get("type")
    if t not in ("choose", "name"):
        return text
    data = state.to_json()
    steps = data.get("steps") or []
    step = steps[0] if steps and isinstance(steps[0], Mapping) else None
    if step is None:
        return text
    if t == "choose":
        options = step.get("options") or []
        n = move.get("option")
        if type(n) is int and 0 <= n < len(options):
            return text.replace(f"choose option {n}", f"choose option {n}: "
                                + ", then ".join(_smitten_step(s) for s in options[n]), 1)
        return text
    value = move.get("value")
    if step.get("what") == "column" and type(value) is int and 0 <= value < 26:
        return text.replace(f"name {value}", f"name column {chr(97 + value)}", 1)
    if value == "revealed":
        return text.replace("name revealed", "say 'place it' (the revealed card)", 1)
    if value == "another":
        return text.replace("name another", "say 'place another'", 1)
    return text


_MOVES: dict[str, Callable[[Any, Mapping[str, Any], str], str]] = {
    "two-by-two": _two_by_two_move,
    "smitten-2": _smitten_move,
}


def move_words(game_id: str, state: Any, move: Any, text: str) -> str:
    """``text`` (the engine's words for ``move``, made on ``state``) with what it leaves out."""
    words = _MOVES.get(game_id)
    if words is None or not isinstance(move, Mapping):
        return text
    try:
        return words(state, move, text)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return text  # a move the words cannot read keeps the engine's words


# --------------------------------------------------------------------------- boards as text

#: What an empty cell of a kind shows in a diagram (cells without a kind: ".").
_EMPTY_CELL = {"sea": "~", "ark-space": "#"}


def piece_code(piece: str, face_down: bool = False) -> str:
    """Two characters for a piece id in a board diagram: "B2" (black-2), "Do" (doves-4; "do" face
    down), "AR" (ark-red), "~~" (a water token), a card id as it is ("1a")."""
    name, _, suffix = piece.rpartition("-")
    if not name:
        code = piece[:2]
    elif name == "water":
        return "~~"
    elif suffix.isdigit():
        code = name[0].upper() + suffix if name in ("black", "white") else name[:1].upper() + name[1:2]
    else:
        code = name[:1].upper() + suffix[:1].upper()
    return code.lower() if face_down else code


def board_diagram(grid: Any, cells: Mapping[str, Mapping[str, Any]]) -> tuple[list[str], dict[str, str]]:
    """A board as text: each cell's :func:`piece_code` (or its card, or its kind's mark when empty)
    where the grid puts it, top row first (hex rows offset by half a cell), and the legend of the
    codes used (code -> piece name)."""
    placed = list(grid)
    if not placed:
        return [], {}
    rows = sorted({round(c.center[1], 3) for c in placed}, reverse=True)
    step = grid.cell_size
    x0 = min(c.center[0] for c in placed)
    half = any(abs(((c.center[0] - x0) / step) % 1 - 0.5) < 0.01 for c in placed)  # hex rows: half steps
    unit = step / 2 if half else step
    width = 2 if half else 4
    lines = []
    legend: dict[str, str] = {}
    for z in rows:
        line = ""
        for cell in sorted((c for c in placed if round(c.center[1], 3) == z), key=lambda c: c.center[0]):
            at = round((cell.center[0] - x0) / unit) * width
            what = cells.get(cell.id) or {}
            piece = what.get("piece") or what.get("card")
            if piece:
                code = piece_code(str(piece), what.get("face") == 1)
                name, _, suffix = str(piece).rpartition("-")
                if code == "~~":
                    legend["~~"] = "water"
                elif name and suffix.isdigit():  # one entry per kind: "Bn" black n, "Do" doves
                    if code[1:].isdigit():
                        legend[code[0] + "n"] = f"{name} n"
                    else:
                        legend[code.capitalize()] = name
                elif name:
                    legend[code.upper()] = f"{name} {suffix}"
            else:
                kind = str(cell.attrs.get("kind"))
                code = _EMPTY_CELL.get(kind, ".")
                if kind != "None":
                    legend[code] = "land" if code == "." else kind.replace("-", " ")
            line = line.ljust(at) + code.ljust(3)
        lines.append(line.rstrip())
    return lines, legend
