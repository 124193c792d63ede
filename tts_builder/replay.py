"""See what happened in a recorded game: ``tts-builder show`` (words) and ``replay`` (a web page).

Both read a transcript, or a TTS save carrying one, the way ``validate`` does, and walk it move
by move through the engine. Every position is described by the game's
:meth:`rules.core.State.table_view` (zones of cards, board cells with pieces, scores), which is
the organiser's view: hands and the deck order are shown, nothing is hidden.

The pipeline knows nothing about any game: the view names card ids, board names and piece ids
from the game's own data, and the page draws them with the game's own art (card faces from
``art_src/<game>/art.json``, boards and pieces from ``art_src/<game>/table.json``), embedded in
the page as data URIs: card pictures downscaled to WebP, boards and pieces as PNG, each picture once.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from rules.core import JSONDict, State, Verdict, judge_apply, name_in
from tts_builder import gamewords
from tts_builder.errors import InputError
from tts_builder.fileio import load_json_file
from tts_builder.transcript import parse_transcript, split_move, unknown_fields
from tts_builder.validate import Report, extract_transcript, validate_data

#: how many moves before an illegal one ``show`` prints as its context.
CONTEXT_MOVES = 5


@dataclass
class Step:
    """One recorded move: who, what (the move and its words), the verdict on it."""

    number: int          # 1-based
    player: Any
    move: Any
    text: str
    verdict: Verdict
    events: list[str] = field(default_factory=list)  # what the move ended ("Round 2 ends: ...")

    def to_json(self) -> JSONDict:
        return {"number": self.number, "player": self.player, "move": self.move, "text": self.text,
                "verdict": self.verdict.to_json(), "events": self.events}


@dataclass
class Trace:
    """A recorded game walked through: ``views[n]`` is the position after ``n`` moves made
    (``views[0]`` the start). A refused move is the last step; no view follows it, the last view is
    the position it was judged on."""

    file: str
    game_id: str
    game_name: str
    players: list[str]
    options: JSONDict
    steps: list[Step]
    views: list[JSONDict]
    report: Report
    seat_names: list[str] = field(default_factory=list)

    @property
    def refused(self) -> Step | None:
        """The illegal move, when the game stops at one."""
        return self.steps[-1] if self.steps and not self.steps[-1].verdict.ok else None

    def verdict_text(self) -> str:
        """The verdict in one line, moves counted from 1 as the move list counts them."""
        refused = self.refused
        if refused is None:
            return self.report.summary()
        v = refused.verdict
        text = (f"illegal at move {refused.number} by {self.seat(refused.player)}: [{v.rule}] {v.message}"
                + (f" ({v.section})" if v.section else "") + (f"; the rulebook's penalty: {v.penalty}" if v.penalty else ""))
        if self.report.result_text():
            text += f"; result: {self.report.result_text()}"
        return text

    def summary(self) -> str:
        """The file and its verdict in one line, the move count said once: "g.json: legal, 70 moves,
        finished: White wins 3 sets to 1", "g.json: illegal at move 10 by White: ..."."""
        if self.refused is None:  # legal, or illegal in its recorded result: validate's words
            return self.report.summary()
        return f"{self.file}: {self.verdict_text()}"

    def seat(self, player: Any) -> str:
        """How the text names ``player``, as validate's text does."""
        return self.report.seat(player)

    def result_lines(self) -> list[str]:
        """The result's numbers in the game's words (:func:`tts_builder.gamewords.result_lines`)."""
        return gamewords.result_lines(self.game_id, self.report.result, self.seat_names)


def _describe(state: State, player: Any, move: Any, names: list[str]) -> str:
    """The move in words, naming the seat first (unless the game's words already do)."""
    try:
        words = state.describe_move(move) if isinstance(move, dict) else json.dumps(move)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        words = json.dumps(move, sort_keys=True)  # a move the engine cannot word is shown as data
    who = names[player] if type(player) is int and 0 <= player < len(names) else f"seat {player}"
    return words if words.startswith(who) else f"{who}: {words}"


def trace_data(data: Any, source: str, *, lenient: bool = False) -> Trace:
    """Walk one transcript (or save); :class:`InputError` when it cannot be used at all. ``lenient``
    drops move fields the game does not know before judging, as ``validate --lenient`` does."""
    report = validate_data(data, source, lenient=lenient)
    transcript = extract_transcript(data, source)
    game, state, moves = parse_transcript(transcript, source)
    by_move = {v.move: v for v in report.violations if v.move is not None}
    players = [str(p.get("name", "")) for p in transcript["players"]]
    seat_names = report.seat_names
    views = [state.table_view()]
    steps: list[Step] = []
    rounds: list[Any] = []
    for index, entry in enumerate(moves):
        player, move = split_move(entry)
        if lenient:
            extra = unknown_fields(game.id, move)
            move = {k: v for k, v in move.items() if k not in extra}
        text = gamewords.move_words(game.id, state, move, _describe(state, player, move, seat_names))
        violation = by_move.get(index)
        verdict = judge_apply(state, player, move) if violation is None else None
        if violation is not None or verdict is None or not verdict.ok:
            if violation is not None:
                verdict = Verdict(False, violation.rule, violation.message, violation.section, violation.penalty)
            assert verdict is not None
            steps.append(Step(index + 1, player, move, text, verdict))
            break
        events, rounds = gamewords.round_lines(game.id, rounds, state)
        steps.append(Step(index + 1, player, move, text, verdict, events))
        views.append(state.table_view())
    return Trace(file=source, game_id=game.id, game_name=game.name,
                 players=players,
                 options=dict(state.options()), steps=steps, views=views, report=report, seat_names=seat_names)


def trace_file(path: str | Path, *, lenient: bool = False) -> Trace:
    return trace_data(load_json_file(path), str(path), lenient=lenient)


# --------------------------------------------------------------------------- show (words)


def zone_label(zone: Mapping[str, Any], seat_names: list[str]) -> str:
    """A zone's label, the player's name first for a seat's zone ("White, hand")."""
    seat = zone.get("seat")
    label = str(zone.get("label", ""))
    if type(seat) is int:
        return f"{name_in(seat, seat_names)}, {label}"
    return label


def _zone_text(zone: Mapping[str, Any], seat_names: list[str]) -> str:
    cards = zone.get("cards", [])
    turned = zone.get("turned") or []
    words = [f"{c} (upside down)" if i < len(turned) and turned[i] else c for i, c in enumerate(cards)]
    down = " (face down)" if zone.get("face_down") else ""
    return f"{zone_label(zone, seat_names)}{down}: {', '.join(words) if words else '(empty)'}"


def view_lines(view: Mapping[str, Any], seat_names: list[str], mover: Any = None, *,
               scores_label: str = "Scores", game_id: str | None = None) -> list[str]:
    """A position in words, one fact a line: whose turn, scores (labelled by what they count),
    facts, zones, board cells (each board also drawn in text when ``game_id`` names its table); the
    zones of seat ``mover`` (who made a refused move) are marked."""
    out: list[str] = []
    turn = view.get("turn")
    out.append(f"To decide: {name_in(turn, seat_names)}" if turn is not None
               else "To decide: nobody (the game is over)")
    scores = view.get("scores")
    if scores:
        out.append(f"{scores_label}: " + ", ".join(f"{name_in(s, seat_names)} {v}" for s, v in enumerate(scores)))
    out += [f"{name_in(seat, seat_names)}: {fact}" for seat, fact in enumerate(view.get("seats") or []) if fact]
    out += [str(line) for line in view.get("lines", [])]
    out += [_zone_text(z, seat_names) + ("   <- the refused move's player" if mover is not None and z.get("seat") == mover
                                          else "") for z in view.get("zones", [])]
    for board in view.get("boards", []):
        cells = board.get("cells", {})
        items = []
        for cell_id in cells:
            c = cells[cell_id]
            what = c.get("piece") or c.get("card") or c.get("text") or "?"
            if c.get("face") == 1:
                what += " (face down)"
            items.append(f"{cell_id} {what}")
        listed = textwrap.wrap(f"Board {board.get('name')}: {', '.join(items) if items else '(empty)'}", 100,
                               subsequent_indent="    ", break_long_words=False, break_on_hyphens=False)
        out += listed
        if game_id is not None:
            out += [f"  {line}" for line in _diagram(game_id, board)]
    return out


def _diagram(game_id: str, board: Mapping[str, Any]) -> list[str]:
    """The board drawn in text, with a legend (nothing for a board the table does not know)."""
    from tts_builder.build import load_table_layout

    try:
        grid = load_table_layout(game_id).board(str(board.get("name"))).grid
    except (KeyError, InputError):
        return []
    lines, legend = gamewords.board_diagram(grid, board.get("cells", {}))
    key = ", ".join(f"{code} {name}" for code, name in sorted(legend.items()) if code != name)
    if key:
        down = any(c.get("face") == 1 for c in board.get("cells", {}).values() if isinstance(c, Mapping))
        lines.append(f"({key}{'; lower case: face down' if down else ''})")
    return lines


def show_position(trace: Trace, at: int | None) -> int:
    """The position ``show`` prints: ``at`` (checked), else the one an illegal move was judged
    on, else the last."""
    last = len(trace.views) - 1
    if at is None:
        return last
    if not 0 <= at <= last:
        raise InputError(f"{trace.file}: --at {at}: the positions run from 0 (the start) to {last}"
                         + (" (the position the illegal move was judged on)" if trace.refused else ""))
    return at


def show_text(trace: Trace, at: int | None = None) -> str:
    """``tts-builder show``: the moves in words, the position at move ``at``, the verdict."""
    n = show_position(trace, at)
    players = ", ".join(p or trace.seat(i) for i, p in enumerate(trace.players))
    opts = ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(trace.options.items()))
    out = [f"{trace.file}: {trace.game_name} ({trace.game_id}), {len(trace.players)} players: {players}",
           f"Options: {opts or 'none'}", "", "Moves:"]
    width = len(str(len(trace.steps)))
    for step in trace.steps:
        mark = "" if step.verdict.ok else f"   <- ILLEGAL [{step.verdict.rule}]"
        out.append(f"  {step.number:>{width}}. {step.text}{mark}")
        out += [f"  {'':>{width}}  {event}" for event in step.events]
    if not trace.steps:
        out.append("  (no moves)")
    refused = trace.refused
    out.append("")
    if refused is not None and at is None:
        v = refused.verdict
        out.append(f"Illegal move {refused.number}: {refused.text}")
        out.append(f"  Rule [{v.rule}]{f' ({v.section})' if v.section else ''}: {v.message}")
        if v.penalty:
            out.append(f"  The rulebook's penalty: {v.penalty}")
        before = trace.steps[max(0, len(trace.steps) - 1 - CONTEXT_MOVES):-1]
        if before:
            out.append("  The moves before it:")
            out += [f"    {s.number}. {s.text}" for s in before]
        out.append(f"Position it was judged on (after move {n}; organiser's view, every hand shown):")
    else:
        where = "the start" if n == 0 else f"move {n}"
        out.append(f"Position after {where} (organiser's view, every hand shown):")
    mover = refused.player if refused is not None and at is None else None
    out += [f"  {line}" for line in view_lines(trace.views[n], trace.seat_names, mover,
                                               scores_label=gamewords.view_scores_label(trace.game_id),
                                               game_id=trace.game_id)]
    out.append("")
    result = trace.result_lines()
    if result:
        out += ["Result:", *[f"  {line}" for line in result], ""]
    out.append(f"Verdict: {trace.verdict_text()}")
    return "\n".join(out)


def show_json(trace: Trace, at: int | None = None) -> JSONDict:
    n = show_position(trace, at)
    return {"file": trace.file, "game": trace.game_id, "players": trace.players, "options": trace.options,
            "moves": [s.to_json() for s in trace.steps], "at": n, "position": trace.views[n],
            "hidden_shown": True, "report": trace.report.to_json(), "result_lines": trace.result_lines()}


# --------------------------------------------------------------------------- replay (a web page)


def data_uri(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def webp_bytes(img: Any) -> bytes:
    """A card picture as lossy WebP (a quarter of the PNG's size, alike to the eye); fixed options
    and no metadata, so the same picture gives the same bytes."""
    import io

    buf = io.BytesIO()
    img.convert("RGB").save(buf, format="WEBP", quality=85, method=6, exact=False)
    return buf.getvalue()


def _used(trace: Trace) -> tuple[set[str], set[str], set[str]]:
    """Card ids, board names and piece ids the views name."""
    cards: set[str] = set()
    boards: set[str] = set()
    pieces: set[str] = set()
    for view in trace.views:
        for zone in view.get("zones", []):
            cards.update(zone.get("cards", []))
        for board in view.get("boards", []):
            boards.add(str(board.get("name")))
            for content in board.get("cells", {}).values():
                if "card" in content:
                    cards.add(str(content["card"]))
                if "piece" in content:
                    pieces.add(str(content["piece"]))
    return cards, boards, pieces


class _Images:
    """Deduplicated PNG data URIs: the same picture is embedded once, named by its digest."""

    def __init__(self) -> None:
        self.uris: dict[str, str] = {}

    def add(self, data: bytes, mime: str = "image/png") -> str:
        key = hashlib.sha256(data).hexdigest()[:12]
        self.uris.setdefault(key, data_uri(data, mime))
        return key


def _small(img: Any, height: int) -> Any:
    from PIL import Image

    w = max(1, round(img.width * height / img.height))
    return img.convert("RGB").resize((w, height), Image.Resampling.LANCZOS)


CARD_PX = 150     # card pictures' height in the page (shown smaller)
CARD_FULL_PX = 420  # a card shown whole when clicked (readable: Twin Tower City's small print)
BOARD_PX = 520    # a board's longer side
PIECE_PX = 96      # a piece face (shown at its cell's size)


def _card_art(game_id: str, cards: set[str], images: _Images,
              full: dict[str, str] | None = None) -> tuple[dict[str, str], dict[str, str]]:
    """Card id -> picture key (faces, rendered by the art pipeline, one per design), and
    card id -> its deck's back; ids the art does not draw are left out (the page names them).
    ``full`` receives card id -> the key of its face at :data:`CARD_FULL_PX` (shown on a click)."""
    from tts_builder.art.render import render_card, trim
    from tts_builder.art.source import load_art_source

    try:
        source = load_art_source(game_id)
    except InputError:
        return {}, {}
    deck_of_kind = {kind: deck for deck in source.decks for kind in deck.kinds}
    by_id = {i: row for row in source.rows for i in row.ids}
    faces: dict[str, str] = {}
    backs: dict[str, str] = {}
    done: dict[str, str] = {}
    back_done: dict[str, str] = {}
    for card in sorted(cards):
        row = by_id.get(card)
        if row is None:
            continue
        deck = deck_of_kind.get(row.kind)
        if row.key not in done:
            layout = source.layout_for(row)
            img = trim(render_card(source, layout, row, deck=deck.key if deck else None), layout, source.dpi)
            done[row.key] = images.add(webp_bytes(_small(img, CARD_PX)), "image/webp")
            if full is not None:
                full[row.key] = images.add(webp_bytes(_small(img, CARD_FULL_PX)), "image/webp")
        faces[card] = done[row.key]
        if full is not None:
            full[card] = full[row.key]
        if deck is not None:
            back_key = row.key if deck.unique_back else deck.key
            if back_key not in back_done:
                layout = source.layouts[deck.back]
                img = trim(render_card(source, layout, row if deck.unique_back else None, deck=deck.key),
                           layout, source.dpi)
                back_done[back_key] = images.add(webp_bytes(_small(img, CARD_PX)), "image/webp")
            backs[card] = back_done[back_key]
    return faces, backs


def _table_art(game_id: str, boards: set[str], pieces: set[str], images: _Images) -> tuple[JSONDict, JSONDict]:
    """Boards by name (picture, size, each cell's centre as a fraction of the picture) and pieces by
    id (a picture per face, the shape, the size relative to a board cell)."""
    from tts_builder.art.render import png_bytes
    from tts_builder.build import load_table_layout
    from PIL import Image

    from tts_builder.art.source import load_table_art
    from tts_builder.tablemat import render_board, render_face, symbol_pictures, table_fonts

    if not boards and not pieces:
        return {}, {}
    try:
        layout = load_table_layout(game_id)
    except InputError:
        return {}, {}
    fonts, art = table_fonts(game_id), load_table_art(game_id)
    symbols = symbol_pictures(game_id, art)
    out_boards: JSONDict = {}
    shown = [b for b in layout.boards if b.name in boards]
    longest = max(300, BOARD_PX * 3 // (2 * len(shown)) - 12) if len(shown) > 1 else BOARD_PX  # side by side
    for board in shown:
        img = render_board(board, fonts, art.board(board.name))  # the mod's own picture
        scale = longest / max(img.width, img.height)
        small = img.convert("RGB").resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))))
        w, d = board.size
        ppu, s = board.pixels_per_unit, board.scale
        full = (img.width, img.height)
        cells = {c.id: [round((full[0] / 2 + c.center[0] * s * ppu) / full[0], 4),
                        round((full[1] / 2 - c.center[1] * s * ppu) / full[1], 4)] for c in board.grid}
        flat = small.quantize(colors=64, dither=Image.Dither.NONE)  # flat colours: a quarter of the bytes
        out_boards[board.name] = {"image": images.add(png_bytes(flat)), "width": small.width,
                                  "height": small.height, "label": board.label or board.name,
                                  "cell": round(board.grid.cell_size * s * ppu / full[0], 4), "cells": cells}
    out_pieces: JSONDict = {}
    for piece in layout.pieces:
        if piece.id not in pieces:
            continue
        # every piece in its own shape (transparent around it), as TTS cuts tiles and tokens out
        faces = [images.add(png_bytes(render_face(face, piece.shape, cutout=True, fonts=fonts,
                                                  symbol=symbols.get(face.label))
                                      .resize((PIECE_PX, PIECE_PX), Image.Resampling.LANCZOS)))
                 for face in piece.faces]
        out_pieces[piece.id] = {"faces": faces, "name": piece.name, "shape": piece.shape}
    return out_boards, out_pieces


def page_data(trace: Trace) -> JSONDict:
    """Everything the page shows, precomputed: the JS only draws it."""
    images = _Images()
    cards, boards, pieces = _used(trace)
    full: dict[str, str] = {}
    faces, backs = _card_art(trace.game_id, cards, images, full)
    board_art, piece_art = _table_art(trace.game_id, boards, pieces, images)
    report = trace.report
    violations = [v.to_json() for v in report.violations]
    return {
        "title": f"{trace.game_name}: {Path(trace.file).name}",
        "game": trace.game_id, "players": trace.players, "seats": trace.seat_names, "options": trace.options,
        "steps": [{"number": s.number, "player": s.player, "text": s.text, "ok": s.verdict.ok,
                   "rule": s.verdict.rule, "message": s.verdict.message, "section": s.verdict.section,
                   "penalty": s.verdict.penalty, "events": s.events} for s in trace.steps],
        "views": trace.views,
        "verdict": report.verdict, "summary": trace.verdict_text(), "violations": violations,
        "result": report.result_text(), "result_lines": trace.result_lines(), "finished": report.finished,
        "scores_label": gamewords.view_scores_label(trace.game_id),
        "images": images.uris, "cards": faces, "full": {c: full[c] for c in faces}, "backs": backs,
        "boards": board_art, "pieces": piece_art,
    }


def _script_json(data: Any) -> str:
    """JSON safe inside a <script> element (no "</" can close it)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def pack_views(views: list[JSONDict]) -> str:
    """The positions as gzipped JSON in base64: a board's cells repeat from move to move, so this is
    a tenth of the text (the page unpacks it with the browser's DecompressionStream)."""
    text = json.dumps(views, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return base64.b64encode(gzip.compress(text.encode("ascii"), compresslevel=9, mtime=0)).decode("ascii")


def unpack_views(packed: str) -> list[JSONDict]:
    """:func:`pack_views` undone (for tests and tools reading a page)."""
    views: list[JSONDict] = json.loads(gzip.decompress(base64.b64decode(packed)))
    return views


def replay_html(trace: Trace) -> str:
    """The self-contained page: data as JSON, CSS and JS inline, no network."""
    from importlib import resources

    folder = resources.files("tts_builder").joinpath("replay_page")
    template = folder.joinpath("page.html").read_text("utf-8")
    data = page_data(trace)
    data["views_gz"] = pack_views(data.pop("views"))
    return (template.replace("/*CSS*/", folder.joinpath("page.css").read_text("utf-8"))
            .replace("/*JS*/", folder.joinpath("page.js").read_text("utf-8"))
            .replace("/*DATA*/null", _script_json(data))
            .replace("<!--TITLE-->", html.escape(data["title"])))
