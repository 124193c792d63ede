"""Scoring of one Twin Tower City round, with a breakdown per side.

The table of a round is three JSON-shaped lists (the same ones the state holds):

* ``table``: the cards played, ``{"seat", "card", "stage", ...}`` in play order;
* ``warriors[side]``: warrior slots ``{"warrior", "level", "card", "seat", "replaced"}``;
  a Battle card adds one slot per side, an Army or Warrior card replacement marks
  the old slot ``replaced`` and appends the incoming warrior;
* ``items[side]``: item copies ``{"item", "card", "seat", "nullified"}``, one per
  Battle card and side; ``nullified`` is the owner's choice (rule ``nullify-items``).

:func:`score_round` returns the breakdown the golden tests assert and the in-game
score panel shows: every warrior, item (with each +5 bonus), environment and random
trait, with its status and what it adds, plus totals per side and the winner.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rules.twin_tower_city.cards import OTHER_SIDE, SIDES, Card, Roster

JSONDict = dict[str, Any]


def place_battle(table: list[JSONDict], warriors: Mapping[str, list[JSONDict]],
                 items: Mapping[str, list[JSONDict]], seat: int, card: Card, stage: int) -> None:
    """Put a Battle card on the table: one warrior slot and one item copy per side."""
    cid, card_warriors, card_items = card.id, card.warriors, card.items
    table.append({"seat": seat, "card": cid, "stage": stage})
    for side in SIDES:
        warriors[side].append({"warrior": card_warriors[side], "level": 0, "card": cid, "seat": seat, "replaced": False})
        items[side].append({"item": card_items[side], "card": cid, "seat": seat, "nullified": False})


def replace_warrior(warriors: Mapping[str, list[JSONDict]], side: str, index: int, warrior: str,
                    level: int, card_id: str, seat: int, home: bool = False) -> None:
    """An Army or Warrior card replacement: the old slot is marked, the newcomer appended.

    With ``home`` (option ``duplicate_item`` = ``duplicate-card``) the newcomer records
    the Battle card it stands on: the 0-based index of that card's item among the
    side's items (see :func:`duplicate_item_indexes`)."""
    slots = warriors[side]
    slots[index]["replaced"] = True
    slot: JSONDict = {"warrior": warrior, "level": level, "card": card_id, "seat": seat, "replaced": False}
    if home:
        slot["home"] = _home(slots, index)
    slots.append(slot)


def _home(slots: Sequence[Mapping[str, Any]], index: int) -> int:
    """The item index of the Battle card slot ``index`` stands on: a Battle card's slot is its
    card's (the n-th slot without a home is the n-th Battle card); a newcomer keeps the home of
    the warrior it replaced."""
    if "home" in slots[index]:
        return int(slots[index]["home"])
    return sum(1 for s in slots[:index] if "home" not in s)


def duplicate_item_indexes(roster: Roster, slots: Sequence[Mapping[str, Any]]) -> list[int]:
    """Item indexes nullified with a duplicate warrior when option ``duplicate_item`` is
    ``duplicate-card``: the item of the card each nullified copy stands on ("the other one,
    and the item they could normally wield, are nullified")."""
    out: list[int] = []
    battle_slots = 0  # slots so far without a home: _home of the next such slot
    for slot, status in zip(slots, participants(roster, slots)):
        if "home" in slot:
            home = int(slot["home"])
        else:
            home = battle_slots
            battle_slots += 1
        if status == "duplicate":
            out.append(home)
    return sorted(out)


def new_layout() -> tuple[list[JSONDict], dict[str, list[JSONDict]], dict[str, list[JSONDict]]]:
    """An empty round table: (table, warriors, items)."""
    return [], {"dark": [], "light": []}, {"dark": [], "light": []}


def warrior_power(roster: Roster, slot: Mapping[str, Any]) -> int:
    """A warrior's Power: base + level (rule ``warrior-level``)."""
    return roster.warrior_power[slot["warrior"]] + int(slot["level"])


def participants(roster: Roster, slots: Sequence[Mapping[str, Any]]) -> list[str]:
    """Status of each slot: ``active``, ``duplicate`` or ``replaced`` (rule ``one-participation``).

    Of several copies of a warrior the most powerful participates, the earliest on equal Power (TTC-3).
    """
    status = ["replaced"] * len(slots)
    best: dict[str, int] = {}
    power: dict[str, int] = {}  # of best[w]
    base = roster.warrior_power
    for n, slot in enumerate(slots):
        if slot["replaced"]:
            continue
        status[n] = "duplicate"
        w = slot["warrior"]
        p = base[w] + int(slot["level"])  # warrior_power(roster, slot)
        if w not in best or p > power[w]:
            best[w] = n
            power[w] = p
    for n in best.values():
        status[n] = "active"
    return status


def present(slots: Sequence[Mapping[str, Any]]) -> set[str]:
    """The warrior ids that participate for a side (any copy not replaced)."""
    return {s["warrior"] for s in slots if not s["replaced"]}


def copy_bonuses(roster: Roster, items: Sequence[Mapping[str, Any]], counted: Sequence[bool], own: set[str],
                 opposing: set[str], options: Mapping[str, Any]) -> list[list[JSONDict]]:
    """The +5 bonus lines of each item copy of a side (rule ``item-bonus``).

    With option ``wielder_bonus`` = ``one-copy`` a preferred wielder wields one copy only: the
    k-th present wielder of an item gives its bonus to the k-th counted copy in table order, and
    a copy that does not count gets none. Target bonuses go to every copy either way."""
    if options.get("no_bonuses"):
        return [[] for _ in items]
    one_copy = options.get("wielder_bonus") == "one-copy"
    seen: dict[str, int] = {}
    out: list[list[JSONDict]] = []
    for it, counts in zip(items, counted):
        item = it["item"]
        wielders = [w for w in roster.wielders[item] if w in own]
        if one_copy:
            k = seen.get(item, 0)
            wielders = wielders[k:k + 1] if counts else []
            if counts:
                seen[item] = k + 1
        lines = [{"kind": "wielder", "warrior": w, "value": roster.bonus} for w in wielders]
        lines += [{"kind": "target", "warrior": w, "value": roster.bonus}
                  for w in roster.targets[item] if w in opposing]
        out.append(lines)
    return out


def copy_powers(roster: Roster, items: Sequence[Mapping[str, Any]], counted: Sequence[bool], own: set[str],
                opposing: set[str], options: Mapping[str, Any]) -> list[int]:
    """The effective Power of each item copy of a side, as :func:`copy_bonuses` adds it up
    (without building the lines: this is the fast path of :func:`round_totals`)."""
    if options.get("no_bonuses"):
        return [roster.item_power[it["item"]] for it in items]
    one_copy = options.get("wielder_bonus") == "one-copy"
    if not one_copy:  # every copy alike: one sum per item id
        cache: dict[str, int] = {}
        for it in items:
            item = it["item"]
            if item not in cache:
                cache[item] = roster.item_power[item] + roster.bonus * (
                    sum(1 for w in roster.wielders[item] if w in own)
                    + sum(1 for w in roster.targets[item] if w in opposing))
        return [cache[it["item"]] for it in items]
    seen: dict[str, int] = {}
    out: list[int] = []
    for it, counts in zip(items, counted):
        item = it["item"]
        wielders = sum(1 for w in roster.wielders[item] if w in own)
        if one_copy:
            k = seen.get(item, 0)
            wielders = 1 if counts and k < wielders else 0
            if counts:
                seen[item] = k + 1
        targets = sum(1 for w in roster.targets[item] if w in opposing)
        out.append(roster.item_power[item] + roster.bonus * (wielders + targets))
    return out


def excess_items(warriors: Mapping[str, Sequence[Mapping[str, Any]]],
                 items: Mapping[str, Sequence[Mapping[str, Any]]], side: str,
                 participating: int | None = None) -> int:
    """How many more of ``side``'s items must be nullified (rule ``one-participation``).
    ``participating`` is the number of ``side``'s participating warriors where the caller has it
    (the length of its :func:`side_tops`)."""
    n = 0
    for i in items[side]:  # a loop, not sum over a generator: this runs after every change of a round
        if not i["nullified"]:
            n += 1
    if participating is None:
        participating = len({s["warrior"] for s in warriors[side] if not s["replaced"]})  # present(), inlined
    n -= participating
    return n if n > 0 else 0


def default_nullify_order(roster: Roster, warriors: Mapping[str, Sequence[Mapping[str, Any]]],
                          items: Mapping[str, Sequence[Mapping[str, Any]]], side: str,
                          options: Mapping[str, Any]) -> list[int]:
    """Indexes of ``side``'s un-nullified items, lowest effective Power first (A-12).

    Ties go by item id, then table order, which is also the order in which the
    engine lists the ``nullify-item`` moves. With option ``duplicate_item`` =
    ``duplicate-card`` the items of the duplicates' cards come first, in table order.
    """
    own, opposing = present(warriors[side]), present(warriors[OTHER_SIDE[side]])
    its = items[side]
    powers = copy_powers(roster, its, [not it["nullified"] for it in its], own, opposing, options)
    forced = duplicate_item_indexes(roster, warriors[side]) if options.get("duplicate_item") == "duplicate-card" else []
    first = [n for n in forced if not its[n]["nullified"]]
    keyed = sorted((powers[n], it["item"], n) for n, it in enumerate(its) if not it["nullified"] and n not in first)
    return first + [n for _, _, n in keyed]


def score_round(roster: Roster, cards: Mapping[str, Card], table: Sequence[Mapping[str, Any]],
                warriors: Mapping[str, Sequence[Mapping[str, Any]]],
                items: Mapping[str, Sequence[Mapping[str, Any]]],
                options: Mapping[str, Any]) -> JSONDict:
    """The breakdown of a round as it stands.

    Items beyond the participating warriors that the owner has not yet chosen are
    shown as ``excess`` (not counted), chosen by the A-12 default.
    """
    no_bonuses = bool(options.get("no_bonuses"))
    no_env = no_bonuses or bool(options.get("no_environment_bonuses"))
    random_on = bool(options.get("random_bonus_traits"))
    pres = {side: present(warriors[side]) for side in SIDES}
    out: JSONDict = {}
    for side in SIDES:
        own, opposing = pres[side], pres[OTHER_SIDE[side]]
        w_lines: list[JSONDict] = []
        for slot, status in zip(warriors[side], participants(roster, warriors[side])):
            power = warrior_power(roster, slot)
            w_lines.append({"warrior": slot["warrior"], "name": roster.warrior_name[slot["warrior"]],
                            "level": slot["level"], "card": slot["card"], "seat": slot["seat"],
                            "base": roster.warrior_power[slot["warrior"]], "power": power, "status": status,
                            "score": power if status == "active" else 0})
        excess = set(default_nullify_order(roster, warriors, items, side, options)[
            :excess_items(warriors, items, side)])
        i_lines: list[JSONDict] = []
        counted = [not it["nullified"] and n not in excess for n, it in enumerate(items[side])]
        for n, (it, bonuses) in enumerate(zip(items[side], copy_bonuses(roster, items[side], counted, own, opposing,
                                                                         options))):
            base = roster.item_power[it["item"]]
            power = base + sum(b["value"] for b in bonuses)
            status = "nullified" if it["nullified"] else ("excess" if n in excess else "active")
            i_lines.append({"item": it["item"], "name": roster.item_name[it["item"]], "card": it["card"],
                            "seat": it["seat"], "base": base, "bonuses": bonuses, "power": power,
                            "status": status, "score": power if status == "active" else 0})
        e_lines: list[JSONDict] = []
        r_lines: list[JSONDict] = []
        for play in table:
            card = cards[play["card"]]
            if card.kind != "battle":
                continue
            assert card.environment is not None
            if roster.env_side[card.environment] == side:
                power = roster.env_power[card.environment]
                e_lines.append({"environment": card.environment, "name": roster.env_name[card.environment],
                                "district": card.district, "card": card.id, "seat": play["seat"], "power": power,
                                "status": "ignored" if no_env else "active", "score": 0 if no_env else power})
            if random_on:
                power = card.random_bonus.get(side, 0)
                r_lines.append({"card": card.id, "seat": play["seat"], "power": power,
                                "status": "ignored" if no_bonuses else "active",
                                "score": 0 if no_bonuses else power})
        totals = {
            "warriors": sum(x["score"] for x in w_lines),
            "items": sum(x["base"] for x in i_lines if x["status"] == "active"),
            "bonuses": sum(x["power"] - x["base"] for x in i_lines if x["status"] == "active"),
            "environments": sum(x["score"] for x in e_lines),
            "random": sum(x["score"] for x in r_lines),
        }
        totals["total"] = sum(totals.values())
        out[side] = {"warriors": w_lines, "items": i_lines, "environments": e_lines, "random": r_lines,
                     "totals": totals}
    dark, light = out["dark"]["totals"]["total"], out["light"]["totals"]["total"]
    out["totals"] = {"dark": dark, "light": light}
    out["winner"] = "dark" if dark > light else "light" if light > dark else None
    return out


def side_tops(roster: Roster, warriors: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, dict[str, int]]:
    """Per side, each participating warrior's Power (its strongest copy): what :func:`round_totals`
    reads of the warriors."""
    warrior_power = roster.warrior_power
    best: dict[str, dict[str, int]] = {}
    for side in SIDES:
        top: dict[str, int] = {}
        for slot in warriors[side]:
            if slot["replaced"]:
                continue
            w = slot["warrior"]
            level = slot["level"]
            power = warrior_power[w] + int(level) if level else warrior_power[w]
            if w not in top or power > top[w]:
                top[w] = power
        best[side] = top
    return best


def counted_item_powers(roster: Roster, its: Sequence[Mapping[str, Any]], own: Mapping[str, int],
                        opposing: Mapping[str, int]) -> list[int]:
    """The Power of each of a side's un-nullified items ``its``, in table order, under the common
    options (every copy of an item gets its bonuses, no random traits): :func:`copy_powers`'
    every-copy path inlined. ``own`` and ``opposing`` hold the participating
    warriors of the side and of the other side (only their keys count)."""
    links, bonus = roster.item_links, roster.bonus
    powers: list[int] = []
    for it in its:
        if it["nullified"]:
            continue
        power, wielders, targets = links[it["item"]]
        for w in wielders:
            if w in own:
                power += bonus
        if targets:  # most items have none: no loop set up for them
            for w in targets:
                if w in opposing:
                    power += bonus
        powers.append(power)
    return powers


def items_total(roster: Roster, its: Sequence[Mapping[str, Any]], own: Mapping[str, int],
                opposing: Mapping[str, int], options: Mapping[str, Any],
                slots: Sequence[Mapping[str, Any]] | None = None) -> int:
    """A side's item Power in :func:`round_totals`: its counted items, the strongest as many as its
    participating warriors ``own`` (warrior -> Power; ``opposing`` the other side's). ``slots``,
    the side's warrior slots, are needed with option ``duplicate_item`` = ``duplicate-card``."""
    no_bonuses = bool(options.get("no_bonuses"))
    duplicate_card = options.get("duplicate_item") == "duplicate-card"
    if not no_bonuses and options.get("wielder_bonus") != "one-copy" and not duplicate_card:
        powers = counted_item_powers(roster, its, own, opposing)
        powers.sort()
    else:
        if duplicate_card:
            assert slots is not None, "duplicate-card needs the side's warrior slots"
            forced = duplicate_item_indexes(roster, slots)
        else:
            forced = []
        counted = [not it["nullified"] and n not in forced for n, it in enumerate(its)]
        powers = sorted(p for p, c in zip(copy_powers(roster, its, counted, set(own), set(opposing), options),
                                          counted) if c)
    drop = max(0, len(powers) - len(own))
    return sum(powers[drop:])


def table_bonuses(roster: Roster, cards: Mapping[str, Card], table: Sequence[Mapping[str, Any]],
                  options: Mapping[str, Any]) -> dict[str, int]:
    """Per side, the environments' and random traits' Power in :func:`round_totals` (what the
    Battle cards on the table add, whoever's warriors stand on them)."""
    no_bonuses = bool(options.get("no_bonuses"))
    no_env = no_bonuses or bool(options.get("no_environment_bonuses"))
    random_on = bool(options.get("random_bonus_traits")) and not no_bonuses
    totals = {"dark": 0, "light": 0}
    if no_env and not random_on:
        return totals
    env_side, env_power = roster.env_side, roster.env_power
    for play in table:
        card = cards[play["card"]]
        if card.kind != "battle":
            continue
        if not no_env:
            env = str(card.environment)
            totals[env_side[env]] += env_power[env]
        if random_on:
            for side in SIDES:
                totals[side] += card.random_bonus.get(side, 0)
    return totals


def round_totals(roster: Roster, cards: Mapping[str, Card], table: Sequence[Mapping[str, Any]],
                 warriors: Mapping[str, Sequence[Mapping[str, Any]]],
                 items: Mapping[str, Sequence[Mapping[str, Any]]], options: Mapping[str, Any]) -> dict[str, int]:
    """The two totals of :func:`score_round` without the breakdown lines (the fast path)."""
    if default_scoring(options):
        return default_totals(roster, cards, table, warriors, items)
    best = side_tops(roster, warriors)
    extra = table_bonuses(roster, cards, table, options)
    return {side: sum(best[side].values())
            + items_total(roster, items[side], best[side], best[OTHER_SIDE[side]], options, warriors[side])
            + extra[side] for side in SIDES}


def default_scoring(options: Mapping[str, Any]) -> bool:
    """True under the default scoring options (every copy of an item gets its bonuses,
    environments count, no random traits): :func:`round_totals` takes its one-pass path."""
    get = options.get
    return not get("no_bonuses") and get("wielder_bonus") != "one-copy" and get("duplicate_item") != "duplicate-card" \
        and not get("random_bonus_traits") and not get("no_environment_bonuses")


#: the last roster and cards :func:`environment_shares` was asked about, and its answer
_SHARES: list[Any] = []


def environment_shares(roster: Roster, cards: Mapping[str, Card]) -> dict[str, tuple[str, int]]:
    """Battle card id -> (the side its environment counts for, the environment's Power), for the
    Battle cards of ``cards``. Remembered for the last roster and cards (the engine's are module
    constants), which :func:`default_totals` reads without calling again."""
    if not (_SHARES and _SHARES[0] is roster and _SHARES[1] is cards):
        shares = {cid: (roster.env_side[str(card.environment)], roster.env_power[str(card.environment)])
                  for cid, card in cards.items() if card.kind == "battle"}
        _SHARES[:] = [roster, cards, shares]
    answer: dict[str, tuple[str, int]] = _SHARES[2]
    return answer


def _strongest(powers: list[int], n: int) -> int:
    """The sum of the ``n`` largest of ``powers`` (which it may reorder and shorten)."""
    if len(powers) > n:
        powers.sort()
        del powers[:len(powers) - n]
    return sum(powers)


def default_totals(roster: Roster, cards: Mapping[str, Card], table: Sequence[Mapping[str, Any]],
                   warriors: Mapping[str, Sequence[Mapping[str, Any]]],
                   items: Mapping[str, Sequence[Mapping[str, Any]]],
                   tops: Mapping[str, dict[str, int]] | None = None) -> dict[str, int]:
    """:func:`round_totals` under the default scoring options (:func:`default_scoring`: every copy
    of an item gets its bonuses, environments count, no random traits) in one pass: the engine's
    end of every round (it asks :func:`default_scoring` once a game). ``tops`` is
    :func:`side_tops` of ``warriors`` where the caller has it."""
    if tops is None:
        tops = side_tops(roster, warriors)
    dark, light = tops["dark"], tops["light"]
    # the two sides written out: a loop over them costs more than what it runs
    dark_items = counted_item_powers(roster, items["dark"], dark, light)
    light_items = counted_item_powers(roster, items["light"], light, dark)
    totals = {"dark": sum(dark.values()) + _strongest(dark_items, len(dark)),
              "light": sum(light.values()) + _strongest(light_items, len(light))}
    shares = _SHARES[2] if _SHARES and _SHARES[0] is roster and _SHARES[1] is cards \
        else environment_shares(roster, cards)
    for play in table:
        share = shares.get(play["card"])
        if share is not None:  # a Battle card
            totals[share[0]] += share[1]
    return totals
