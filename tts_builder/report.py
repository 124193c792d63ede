"""The simulation report: how a batch of recorded games ended, for a designer deciding on balance.

Pure functions over transcripts (the JSON objects ``simulate`` writes or a table recorded), generic
over every kind of :class:`rules.core.Result`:

* competitive and team games: win rate per seat, per side or team, and per policy, each with a 95%
  Wilson interval; draws; the first player's advantage (the seat that made the first move against
  the other seats);
* cooperative and solo games: the success rate with its interval and the score distribution;
* every game: the end reasons and the game length in moves (min, median, mean, p90, max).

A seat's side is read from the result's ``sides`` (one name per seat, as Twin Tower City records
it), else, in a team game, from ``team`` for the winners; a seat's policy from the transcript's
``source.policies``. :func:`build_report` gives one JSON-ready dict, :func:`report_text` its words,
:func:`chart_svg`/:func:`chart_png` its picture; the same report, byte for byte, for the same games.
"""

from __future__ import annotations

import functools
import io
import json
from collections import abc
import os
import sys
import math
import statistics
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence, TypeGuard

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
TABLE_KINDS = ("cooperative", "solo")
#: the figures of :func:`distribution`, in the order the report names them.
STATS = ("min", "median", "mean", "p90", "max")


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``wins`` in ``games`` (95% by default): unlike the
    normal approximation it stays inside 0..1 and is sound for few games or rates near 0 or 1.

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(wins: int, games: int, key: str = "wins") -> dict[str, Any]:
    """``{"games", "wins", "rate", "low", "high"}``: a rate with its 95% Wilson interval (rounded to
    6 places so the JSON is stable); ``rate`` is null for no games. ``key`` names the count."""
    low, high = wilson(wins, games)
    return {"games": games, key: wins, "rate": round(wins / games, 6) if games else None,
            "low": round(low, 6), "high": round(high, 6)}


def distribution(values: Sequence[float]) -> dict[str, Any] | None:
    """min, median, mean, p90 (nearest rank: the smallest value at least 90% of them reach) and max;
    None for no values.

    >>> distribution([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    {'min': 1, 'median': 5.5, 'mean': 5.5, 'p90': 9, 'max': 10}
    """
    if not values:
        return None
    ordered = sorted(values)
    p90 = ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]
    return {"min": ordered[0], "median": _num(statistics.median(ordered)), "mean": _num(statistics.fmean(ordered)),
            "p90": p90, "max": ordered[-1]}


def _num(x: float) -> float | int:
    """A whole float as an int, else rounded to 4 places: stable JSON."""
    return int(x) if float(x).is_integer() else round(x, 4)


def _sides(result: Mapping[str, Any], n: int) -> list[str | None]:
    """Each seat's side or team, where the result tells it."""
    sides = result.get("sides")
    if isinstance(sides, list) and len(sides) == n and all(isinstance(s, str) for s in sides):
        return list(sides)
    out: list[str | None] = [None] * n
    if result.get("kind") == "teams" and isinstance(result.get("team"), str):
        for seat in result.get("winners") or []:
            if isinstance(seat, int) and 0 <= seat < n:
                out[seat] = result["team"]
    return out


@functools.lru_cache(maxsize=64)
def _game_meta(game_id: Any) -> tuple[str | None, dict[str, Any]]:
    """(the side option, the default options) of a registered game; (None, {}) for another.
    Not to be changed: remembered, as every game of a run asks."""
    import rules

    try:
        game = rules.get_game(str(game_id))
    except (rules.UnknownGame, TypeError):
        return None, {}
    return game.side_option, dict(game.options)


def _is_map(value: Any) -> TypeGuard[Mapping[str, Any]]:
    """A JSON object (a dict, as read; any Mapping): the type test first, as it runs per game."""
    return type(value) is dict or isinstance(value, abc.Mapping)


def game_record(transcript: Mapping[str, Any]) -> dict[str, Any]:
    """What the report needs of one transcript: seats, policies, first mover, length and result,
    and what identifies its run: the options (as canonical text; the game's side option, which
    only says who sits where, apart) and the seed."""
    get = transcript.get
    players = get("players") or []
    n = len(players)
    moves = get("moves") or []
    recorded_source = get("source")
    source: Mapping[str, Any] = recorded_source if _is_map(recorded_source) else {}
    policies = source.get("policies")
    if not (type(policies) is list and len(policies) == n and all(type(p) is str for p in policies)):
        policies = [None] * n
    first = moves[0].get("player") if moves and _is_map(moves[0]) else None
    result = get("result")
    recorded = get("options")
    options: Mapping[str, Any] = recorded if _is_map(recorded) else {}
    game = get("game")
    side_option, _ = _game_meta(game if type(game) is str else None)
    side = options.get(side_option) if side_option else None
    seed = source.get("seed")
    return {"game": game, "seats": n, "policies": policies,
            "first": first if type(first) is int and 0 <= first < n else None,
            "length": len(moves), "result": result if _is_map(result) else None,
            "options": _options_text(options, side_option),
            "side": side if type(side) is str else None,
            "seed": seed if type(seed) is int else None}


_OPTION_TEXTS: dict[tuple[Any, ...], str] = {}


def _options_text(options: Mapping[str, Any], side_option: str | None) -> str:
    """The options but the side option as canonical JSON text, one string shared by every game of
    a run (remembered for options of plain values: a run of a million games has a few)."""
    try:
        key = (side_option, *((k, type(v), v) for k, v in options.items()))
        hash(key)
    except TypeError:  # a list or an object as a value: not remembered
        key = ()
    text = _OPTION_TEXTS.get(key) if key else None
    if text is None:
        text = sys.intern(json.dumps({k: v for k, v in options.items() if k != side_option},
                                     sort_keys=True, ensure_ascii=False))
        if key and len(_OPTION_TEXTS) < 4096:
            _OPTION_TEXTS[key] = text
    return text


def run_key(record: Mapping[str, Any]) -> tuple[str, int, str, tuple[str, ...]]:
    """What a run is keyed by: the game, the seat count, the options (the side option apart) and
    the table of policies (which policies play, not who sits where: ``--swap`` rotates them over
    the seats on purpose, as ``--vary`` of the side option swaps the sides)."""
    return (str(record["game"]), record["seats"], record["options"],
            tuple(sorted(p or "unknown" for p in record["policies"])))


def run_identity(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What was run, as far as the transcripts say: the game, seat counts, options (one object,
    or a list when they differ), the policies per seat (null when seats swapped them) with the
    table of them, the values of the game's side option (who sits where), the seeds (first, last and how many distinct)."""
    games = sorted({str(r["game"]) for r in records})
    option_texts = list(dict.fromkeys(r["options"] for r in records))
    seatings = list(dict.fromkeys(tuple(r["policies"]) for r in records))
    tables = list(dict.fromkeys(run_key(r)[3] for r in records))
    seeds = {r["seed"] for r in records if r["seed"] is not None}
    sides = sorted({r["side"] for r in records if r["side"] is not None})
    options = [json.loads(t) for t in option_texts]
    out: dict[str, Any] = {
        "game": games[0] if len(games) == 1 else games,
        "seat_counts": sorted({r["seats"] for r in records}),
        "options": options[0] if len(options) == 1 else options,
        "policies": list(seatings[0]) if len(seatings) == 1 else None,
        "policy_table": list(tables[0]) if len(tables) == 1 else [list(t) for t in tables],
        "seeds": {"first": min(seeds), "last": max(seeds), "count": len(seeds)} if seeds else None,
    }
    side_option, _ = _game_meta(games[0]) if len(games) == 1 else (None, {})
    if sides and side_option:
        out["side_option"] = {"name": side_option, "values": sides}
    return out


def run_title(identity: Mapping[str, Any], games: int | None = None) -> str:
    """The run in a line: game, seats, policies, the options off their defaults, the seeds.

    >>> run_title({"game": "two-by-two", "seat_counts": [2], "options": {"scoring": "advanced"},
    ...            "policies": ["random", "random"], "policy_table": ["random", "random"],
    ...            "seeds": {"first": 0, "last": 9, "count": 10}}, 10)
    'two-by-two: 10 games, 2 players, policy random, scoring=advanced, seeds 0-9'
    """
    game = identity["game"] if isinstance(identity["game"], str) else ", ".join(identity["game"])
    seats = "/".join(map(str, identity["seat_counts"]))
    parts = [f"{game}: {_count(games, 'game')}" if games is not None else game,
             f"{seats} player{'' if seats == '1' else 's'}"]
    policies, table = identity.get("policies"), identity.get("policy_table")
    if policies and None not in policies:
        parts.append(f"policy {policies[0]}" if len(set(policies)) == 1 else f"policies {','.join(policies)}")
    elif table and isinstance(table[0], str) and "unknown" not in table:
        parts.append(f"policies {','.join(table)} (seats rotated)")
    parts += _options_words(identity)
    side = identity.get("side_option")
    if side:  # which side seat 0 plays: named when it is not the default, or when it varies
        _, defaults = _game_meta(identity["game"])
        if side["values"] != [defaults.get(side["name"])]:
            parts.append(f"{side['name']}=" + "/".join(side["values"]))
    seeds = identity.get("seeds")
    if seeds:
        parts.append(f"seed {seeds['first']}" if seeds["first"] == seeds["last"]
                     else f"seeds {seeds['first']}-{seeds['last']}")
    return ", ".join(parts)


def _options_words(identity: Mapping[str, Any]) -> list[str]:
    """The options off the game's defaults, "name=value" each (nothing for the defaults)."""
    options = identity.get("options")
    if not isinstance(options, Mapping) or not isinstance(identity.get("game"), str):
        return []
    _, defaults = _game_meta(identity["game"])
    return [f"{k}={_value(v)}" for k, v in sorted(options.items()) if k not in defaults or defaults[k] != v]


def _value(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v)


def _group_label(identity: Mapping[str, Any], varies: Sequence[str], option_names: Sequence[str]) -> str:
    """How one table of a report over several runs is headed: what differs between the runs."""
    parts: list[str] = []
    if "game" in varies:
        parts.append(str(identity["game"]))
    if "seats" in varies:
        n = identity["seat_counts"][0]
        parts.append(f"{n} player{'' if n == 1 else 's'}")
    if "options" in varies:
        options = identity["options"]
        parts += [f"{k}={_value(options.get(k))}" for k in option_names]
    if "policies" in varies:
        table = identity["policy_table"]
        parts.append("policies " + ",".join(table if isinstance(table[0], str) else table[0]))
    return ", ".join(parts)


def build_report(transcripts: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The report over ``transcripts`` (of one game) as one JSON-ready dict, with ``run``, what
    was run (:func:`run_identity`). Transcripts of different runs (seat counts, options or tables
    of policies: :func:`run_key`) are never pooled: the report then holds one report per run in
    ``groups`` (each with its ``label`` and ``run``), ``varies`` naming what differs.

    >>> t = {"game": "g", "players": [{}, {}], "moves": [{"player": 0}],
    ...      "result": {"kind": "competitive", "outcome": "win", "winners": [0], "reason": "most"}}
    >>> r = build_report([t, t])
    >>> r["seats"][0]["wins"], r["seats"][1]["wins"], r["first_player"]["first"]["rate"]
    (2, 0, 1.0)
    """
    return report_from_records([game_record(t) for t in transcripts])


def report_from_records(records: list[dict[str, Any]]) -> dict[str, Any]:
    """:func:`build_report` over :func:`game_record` s (``simulate`` keeps them as it plays)."""
    groups: dict[tuple[str, int, str, tuple[str, ...]], list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault(run_key(r), []).append(r)
    if len(groups) <= 1:
        return {**_report(records), "run": run_identity(records)}
    keys = list(groups)
    varies = [name for i, name in enumerate(("game", "seats", "options")) if len({k[i] for k in keys}) > 1]
    tables_by_seats: dict[int, set[tuple[str, ...]]] = {}
    for k in keys:
        tables_by_seats.setdefault(k[1], set()).add(k[3])
    if any(len(t) > 1 for t in tables_by_seats.values()) or len({frozenset(k[3]) for k in keys}) > 1:
        varies.append("policies")  # not merely more seats playing the same policies
    option_sets = [json.loads(k[2]) for k in keys]
    option_names = sorted({name for o in option_sets for name in o
                           if len({json.dumps(p.get(name), sort_keys=True) for p in option_sets}) > 1})
    games = sorted({k[0] for k in keys})
    out: dict[str, Any] = {"game": games[0] if len(games) == 1 else games, "games": len(records),
                           "run": run_identity(records), "varies": varies, "varied_options": option_names,
                           "groups": []}
    for rs in groups.values():
        identity = run_identity(rs)
        out["groups"].append({"label": _group_label(identity, varies, option_names), **_report(rs), "run": identity})
    return out


def _report(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The report over the records of one run."""
    games = sorted({str(r["game"]) for r in records})
    finished = [r for r in records if r["result"] is not None]
    kinds: dict[str, int] = {}
    reasons: dict[str, int] = {}
    outcomes: dict[str, int] = {}
    for r in finished:
        res = r["result"]
        kind = str(res.get("kind", "competitive"))
        kinds[kind] = kinds.get(kind, 0) + 1
        reason = str(res.get("reason", "?"))
        reasons[reason] = reasons.get(reason, 0) + 1
        outcome = str(res.get("outcome") or ("win" if res.get("winners") or res.get("winner") is not None
                                              else ("loss" if kind in TABLE_KINDS else "draw")))
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    lengths = [r["length"] for r in records]
    report: dict[str, Any] = {
        "game": games[0] if len(games) == 1 else games,
        "games": len(records), "finished": len(finished), "unfinished": len(records) - len(finished),
        "seat_counts": sorted({r["seats"] for r in records}),
        "kinds": dict(sorted(kinds.items())), "outcomes": dict(sorted(outcomes.items())),
        "reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        "length": distribution(lengths), "length_histogram": histogram(lengths),
    }
    versus = [r for r in finished if r["result"].get("kind", "competitive") not in TABLE_KINDS]
    table = [r for r in finished if r["result"].get("kind") in TABLE_KINDS]
    if versus:
        report.update(_versus(versus))
    if table:
        wins = sum(1 for r in table if _winners(r["result"]))
        scores = [r["result"]["score"] for r in table if isinstance(r["result"].get("score"), (int, float))
                  and not isinstance(r["result"].get("score"), bool)]
        report["table"] = {**rate(wins, len(table)), "score": distribution(scores),
                           "score_histogram": histogram([round(x) for x in scores])}
    return report


def _winners(result: Mapping[str, Any]) -> list[int]:
    winners = result.get("winners")
    if isinstance(winners, list):
        return [w for w in winners if isinstance(w, int)]
    winner = result.get("winner")
    return [winner] if isinstance(winner, int) else []


def _versus(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Seat, side, policy and first-player rates over competitive and team games."""
    seat_tally: dict[int, list[int]] = {}
    side_tally: dict[str, list[int]] = {}
    policy_tally: dict[str, list[int]] = {}
    seat_policies: dict[int, dict[str, int]] = {}
    first = [0, 0]
    rest = [0, 0]
    draws = 0
    team_names = {str(r["result"]["team"]) for r in records if isinstance(r["result"].get("team"), str)}
    for r in records:
        res, n = r["result"], r["seats"]
        winners = set(_winners(res))
        draws += not winners
        sides = _sides(res, n)
        for seat in range(n):
            won = int(seat in winners)
            t = seat_tally.setdefault(seat, [0, 0])
            t[0] += won
            t[1] += 1
            policy = r["policies"][seat]
            if policy is not None:
                p = policy_tally.setdefault(policy, [0, 0])
                p[0] += won
                p[1] += 1
                counts = seat_policies.setdefault(seat, {})
                counts[policy] = counts.get(policy, 0) + 1
            if r["first"] is not None:
                bucket = first if seat == r["first"] else rest
                bucket[0] += won
                bucket[1] += 1
        known = {s for s in sides if s is not None}
        if res.get("kind") == "teams" and len(known) < 2:  # losers' team unnamed: every team seen plays
            known |= team_names
        winning_sides = {sides[s] for s in winners if s < n and sides[s] is not None}
        if res.get("kind") == "teams" and isinstance(res.get("team"), str):
            winning_sides = {res["team"]}
        for side in known:
            t = side_tally.setdefault(side, [0, 0])
            t[0] += int(side in winning_sides)
            t[1] += 1
    out: dict[str, Any] = {
        "draws": rate(draws, len(records), "draws"),
        "seats": [{"seat": seat, **_tally_rate(seat_tally[seat]),
                   "policies": dict(sorted(seat_policies.get(seat, {}).items()))} for seat in sorted(seat_tally)],
    }
    if side_tally:
        out["sides"] = [{"side": side, **_tally_rate(side_tally[side])} for side in sorted(side_tally)]
    if len(policy_tally) > 1:
        out["policies"] = [{"policy": name, **_tally_rate(policy_tally[name])} for name in sorted(policy_tally)]
    if first[1]:
        out["first_player"] = {"first": _tally_rate(first), "others": _tally_rate(rest)}
    return out


def _tally_rate(tally: list[int]) -> dict[str, Any]:
    """:func:`rate` of a ``[wins, games]`` tally."""
    return rate(tally[0], tally[1])


def histogram(values: Sequence[int], bins: int = 12) -> list[dict[str, int]]:
    """Counts of ``values`` in up to ``bins`` equal whole-number ranges ``[low, high]``."""
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / bins))
    out = []
    for start in range(low, high + 1, width):
        end = start + width - 1
        out.append({"low": start, "high": end, "count": sum(1 for v in values if start <= v <= end)})
    return out


# -- words ---------------------------------------------------------------------

def _pct(x: float | None) -> str:
    return "  -  " if x is None else f"{100 * x:5.1f}%"


def _rate_line(label: str, r: Mapping[str, Any], width: int = 22) -> str:
    count = r["wins"] if "wins" in r else r["draws"]
    return (f"  {label:<{width}} {count:>6}/{r['games']:<6} {_pct(r['rate'])}"
            f"  [{_pct(r['low']).strip()} - {_pct(r['high']).strip()}]")


def report_text(report: Mapping[str, Any]) -> str:
    """The report in words, a few lines a designer reads (every figure of :func:`build_report`'s
    rates, with the interval in brackets), headed by the run; one table per run when it holds
    several."""
    if "groups" in report:
        differ = ", ".join(report["varied_options"] if "options" in report["varies"] else []) or ""
        what = ", ".join(v if v != "options" else f"options ({differ})" for v in report["varies"])
        lines = [f"{run_title(report['run'], report['games'])}: {len(report['groups'])} runs that differ in {what}, "
                 "one table each"]
        for group in report["groups"]:
            lines.append(f"[{group['label']}] " + _table_text(group, run_title(group["run"], group["games"])))
        return "\n".join(lines)
    return _table_text(report, run_title(report["run"], report["games"]) if "run" in report else None)


def _table_text(report: Mapping[str, Any], title: str | None) -> str:
    """One run's table in words under ``title``."""
    if title is None:
        game = report["game"] if isinstance(report["game"], str) else ", ".join(report["game"])
        seats = "/".join(map(str, report["seat_counts"]))
        title = f"{game}: {_count(report['games'], 'game')}, {seats} player{'' if seats == '1' else 's'}"
    lines = [title + (f", {report['unfinished']} unfinished" if report["unfinished"] else "")]
    rows: list[tuple[str, Mapping[str, Any]]] = []
    for s in report.get("seats", []):
        policies = s["policies"]
        policy = (next(iter(policies)) if len(policies) == 1
                  else ", ".join(f"{k} {v}" for k, v in sorted(policies.items())))
        rows.append((f"seat {s['seat']}" + (f" ({policy})" if policy else ""), s))
    rows += [(f"side {s['side']}", s) for s in report.get("sides", [])]
    rows += [(f"policy {s['policy']}", s) for s in report.get("policies", [])]
    if "first_player" in report:
        rows += [("first player", report["first_player"]["first"]), ("other seats", report["first_player"]["others"])]
    if "draws" in report:
        rows.append(("draws", report["draws"]))
    if "table" in report:
        rows.append(("table wins", report["table"]))
    width = max([22] + [len(label) for label, _ in rows])
    if rows:
        lines.append(f"  {'win rate (95% interval)':<{width}} {'wins/games':>13}")
    lines += [_rate_line(label, r, width) for label, r in rows]
    if "table" in report:
        score = report["table"]["score"]
        if score:
            lines.append("  score: " + _stats_text(score))
    if report["reasons"]:
        reasons = sorted(report["reasons"].items(), key=lambda kv: (-kv[1], kv[0]))
        lines.append("  end reasons: " + ", ".join(f"{k} {v}" for k, v in reasons))
    if report["length"]:
        lines.append("  length in moves: " + _stats_text(report["length"]))
    return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    """ "1 game", "3 games"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _stats_text(stats: Mapping[str, Any]) -> str:
    """A distribution in words, the mean with one decimal whatever its value ("mean 24.0") so the
    figures line up from report to report; the others are the values themselves.

    >>> _stats_text({"min": 1, "median": 5.5, "mean": 10.6667, "p90": 9, "max": 10})
    'min 1, median 5.5, mean 10.7, p90 9, max 10'
    """
    return ", ".join(f"{k} {stats[k]:.1f}" if k == "mean" else f"{k} {stats[k]}" for k in STATS)


# -- picture -------------------------------------------------------------------
# The chart is a list of shapes drawn twice: as SVG text and with Pillow. Coordinates are integers,
# so both are the same bytes for the same report.

Shape = tuple[Any, ...]  # ("rect", x, y, w, h, fill) | ("line", x1, y1, x2, y2, colour, width) | ("text", x, y, str, colour, anchor)

WIDTH = 720
ROW = 24
BAR_X = 210
BAR_W = 420
COLOURS = {"bar": "#4a7ab8", "first": "#c9772c", "table": "#3d9a5b", "hist": "#7d6bb3", "axis": "#444444",
           "grid": "#d8d8d8", "text": "#222222", "even": "#aa3333", "bg": "#ffffff"}


def _rate_rows(report: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any] | None, str]]:
    rows: list[tuple[str, Mapping[str, Any] | None, str]] = []
    for s in report.get("seats", []):
        rows.append((f"seat {s['seat']}", s, "bar"))
    for s in report.get("sides", []):
        rows.append((f"side {s['side']}", s, "bar"))
    for s in report.get("policies", []):
        rows.append((f"policy {s['policy']}", s, "bar"))
    if "first_player" in report:
        rows.append(("first player", report["first_player"]["first"], "first"))
        rows.append(("other seats", report["first_player"]["others"], "first"))
    if "draws" in report:
        rows.append(("draws", report["draws"], "bar"))
    if "table" in report:
        rows.append(("table wins", report["table"], "table"))
    return rows


def chart_shapes(report: Mapping[str, Any]) -> tuple[int, int, list[Shape]]:
    """The chart as (width, height, shapes): win rates as bars with their 95% interval as a
    whisker, a red line at 50% for two seats or two sides, then the histogram of game lengths."""
    shapes: list[Shape] = []
    c = COLOURS
    if "run" in report:
        title = run_title(report["run"], report["games"])
    else:
        game = report["game"] if isinstance(report["game"], str) else ", ".join(report["game"])
        title = f"{game}: {report['games']} games"
    shapes.append(("text", 20, 28, title, c["text"], "start"))
    y = 50
    groups = report.get("groups")
    rows: list[tuple[str, Mapping[str, Any] | None, str]] = []
    if groups:  # one block of rows per run, under its label: never a pooled bar
        for group in groups:
            rows.append((f"{group['label']} ({group['games']} games)", None, "heading"))
            rows += [("  " + label, r, colour) for label, r, colour in _rate_rows(group)]
    else:
        rows = _rate_rows(report)
    if rows:
        shapes.append(("text", 20, y + 12, "win rate, 95% interval", c["axis"], "start"))
        for tick in range(0, 101, 25):
            x = BAR_X + BAR_W * tick // 100
            shapes.append(("line", x, y + 20, x, y + 24 + ROW * len(rows), c["grid"], 1))
            shapes.append(("text", x, y + 16, f"{tick}%", c["axis"], "middle"))
        y += 24
        for label, r, colour in rows:
            shapes.append(("text", 20, y + 16, label, c["text"], "start"))
            if r is not None and r["rate"] is not None:
                w = round(BAR_W * r["rate"])
                if w > 0:
                    shapes.append(("rect", BAR_X, y + 5, w, ROW - 10, c[colour]))
                lo, hi = BAR_X + round(BAR_W * r["low"]), BAR_X + round(BAR_W * r["high"])
                mid = y + ROW // 2
                shapes.append(("line", lo, mid, hi, mid, c["axis"], 2))
                shapes.append(("line", lo, mid - 5, lo, mid + 5, c["axis"], 2))
                shapes.append(("line", hi, mid - 5, hi, mid + 5, c["axis"], 2))
                shapes.append(("text", BAR_X + BAR_W + 10, y + 16, f"{100 * r['rate']:.1f}%", c["text"], "start"))
            y += ROW
        if not groups and "seats" in report and (report.get("seat_counts") == [2] or len(report.get("sides", [])) == 2):
            x = BAR_X + BAR_W // 2
            shapes.append(("line", x, 74, x, y, c["even"], 1))
        y += 20
    y = _histogram_shapes(shapes, report.get("length_histogram") or [], "game length (moves)", y)
    y = _histogram_shapes(shapes, (report.get("table") or {}).get("score_histogram") or [], "score", y)
    return WIDTH, y, shapes


def _histogram_shapes(shapes: list[Shape], hist: Sequence[Mapping[str, int]], title: str, y: int) -> int:
    """A histogram of ``hist`` (from :func:`histogram`) below ``y``; the new bottom."""
    if not hist:
        return y
    c = COLOURS
    shapes.append(("text", 20, y + 12, title, c["axis"], "start"))
    y += 36
    top = max(h["count"] for h in hist) or 1
    height = 140
    step = (WIDTH - 80) // len(hist)
    base = y + height
    shapes.append(("line", 40, base, 40 + step * len(hist), base, c["axis"], 1))
    for i, h in enumerate(hist):
        bh = round(height * h["count"] / top)
        x = 40 + i * step
        if bh:
            shapes.append(("rect", x + 2, base - bh, step - 4, bh, c["hist"]))
        shapes.append(("text", x + step // 2, base - bh - 4, str(h["count"]), c["text"], "middle"))
        span = str(h["low"]) if h["low"] == h["high"] else f"{h['low']}-{h['high']}"
        shapes.append(("text", x + step // 2, base + 16, span, c["axis"], "middle"))
    return base + 30


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def chart_svg(report: Mapping[str, Any]) -> str:
    """The chart as a self-contained SVG document (no scripts, no fonts to fetch)."""
    width, height, shapes = chart_shapes(report)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="{COLOURS["bg"]}"/>']
    for shape in shapes:
        if shape[0] == "rect":
            _, x, y, w, h, fill = shape
            out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}"/>')
        elif shape[0] == "line":
            _, x1, y1, x2, y2, colour, w = shape
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="{w}"/>')
        else:
            _, x, y, text, colour, anchor = shape
            out.append(f'<text x="{x}" y="{y}" fill="{colour}" text-anchor="{anchor}">{_esc(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def chart_png(report: Mapping[str, Any]) -> bytes:
    """The same chart drawn with Pillow, as PNG bytes."""
    from PIL import Image, ImageDraw, ImageFont

    width, height, shapes = chart_shapes(report)
    image = Image.new("RGB", (width, height), COLOURS["bg"])
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=13) if _sized_default_font() else ImageFont.load_default()
    for shape in shapes:
        if shape[0] == "rect":
            _, x, y, w, h, fill = shape
            draw.rectangle((x, y, x + w - 1, y + h - 1), fill=fill)
        elif shape[0] == "line":
            _, x1, y1, x2, y2, colour, w = shape
            draw.line((x1, y1, x2, y2), fill=colour, width=w)
        else:
            _, x, y, text, colour, anchor = shape
            draw.text((x, y), text, fill=colour, font=font, anchor={"start": "ls", "middle": "ms"}[anchor])
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def _sized_default_font() -> bool:
    """Pillow 10.1+ ships a scalable default font (FreeType permitting)."""
    from PIL import features

    return bool(features.check("freetype2"))


# -- files ---------------------------------------------------------------------

def load_transcripts(items: Sequence[str | Path]) -> list[dict[str, Any]]:
    """:func:`iter_transcripts` as a list."""
    return list(iter_transcripts(items))


def iter_transcripts(items: Sequence[str | Path]) -> Iterator[dict[str, Any]]:
    """The transcripts named by ``items``, one at a time (a report over many games holds only what
    :func:`game_record` keeps). Each item is read as ``validate`` reads it
    (:func:`tts_builder.sources.expand_one`): a file, a folder and its subfolders, a zip archive or
    a glob pattern. Other JSON inside a folder, archive or pattern (a save, say) is passed over.
    InputError names a file that is not a transcript, a collection without any, or a second game."""
    from tts_builder.errors import InputError
    from tts_builder.fileio import parse_json_bytes
    from tts_builder.sources import expand_one, is_collection
    from tts_builder.transcript import FORMAT

    first_game: str | None = None
    for item in items:
        text = os.fspath(item)
        collection = is_collection(text)
        found = 0
        for source in expand_one(text):
            data = parse_json_bytes(source.read(), source.name)
            if not (isinstance(data, dict) and data.get("format") == FORMAT):
                if collection:
                    continue
                raise InputError(f"{source.name}: not a transcript (field format is not {FORMAT!r})")
            game = str(data.get("game"))
            if first_game is None:
                first_game = game
            elif game != first_game:
                raise InputError(f"{source.name}: a game of {game}, the others are of {first_game}: "
                                 "report one game at a time")
            found += 1
            yield _usable(data, source.name)
        if collection and not found:
            raise InputError(f"{text}: no transcripts (*.json) in it")


def _usable(data: dict[str, Any], path: str) -> dict[str, Any]:
    """``data`` when its players and moves are lists, else InputError naming the file and field."""
    from tts_builder.errors import InputError

    for field in ("players", "moves"):
        if not isinstance(data.get(field), list):
            raise InputError(f"{path}: field {field}: expected a list")
    return data


def write_charts(report: Mapping[str, Any], folder: Path, stem: str = "report") -> list[Path]:
    """``STEM.svg`` and ``STEM.png`` (``report.*`` by default) in ``folder``, written atomically."""
    from tts_builder.fileio import atomic_write_bytes, atomic_write_text

    folder.mkdir(parents=True, exist_ok=True)
    svg, png = folder / f"{stem}.svg", folder / f"{stem}.png"
    atomic_write_text(svg, chart_svg(report))
    atomic_write_bytes(png, chart_png(report))
    return [svg, png]
