"""Write the default Two by Two map (assumption A-5) into ``two-by-two.json``'s ``board``.

Run once by hand (``python -m rules.two_by_two.gen_board``); the engine, art and Lua read
the data file, never this script. The map: every cell within hex distance 6 of the centre;
distance <= 4 is jungle; ring 5 alternates jungle (j = 1, 3 on each side, plus j = 2 on
side 0) and beach; ring 6 is sea, with the ark spaces at j = 3 on each side.
"""

from __future__ import annotations

import json
from pathlib import Path

#: the six axial directions, in the order a ring is walked.
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def ring(radius: int) -> list[tuple[int, int, int, int]]:
    """(q, r, side, j) of the cells at ``radius``, side by side, j = 0 the corner."""
    q, r = DIRECTIONS[4][0] * radius, DIRECTIONS[4][1] * radius
    out = []
    for side in range(6):
        for j in range(radius):
            out.append((q, r, side, j))
            q, r = q + DIRECTIONS[side][0], r + DIRECTIONS[side][1]
    return out


def board_cells() -> list[dict[str, object]]:
    cells: list[dict[str, object]] = [{"q": 0, "r": 0, "kind": "jungle"}]
    for radius in range(1, 7):
        for q, r, side, j in ring(radius):
            if radius <= 4:
                kind = "jungle"
            elif radius == 5:
                kind = "jungle" if j in (1, 3) or (side == 0 and j == 2) else "beach"
            else:
                kind = "ark-space" if j == 3 else "sea"
            cells.append({"q": q, "r": r, "kind": kind})
    return cells


def main() -> None:
    path = Path(__file__).with_name("two-by-two.json")
    data = json.loads(path.read_text("utf-8"))
    data["board"]["cells"] = board_cells()
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")


if __name__ == "__main__":
    main()
