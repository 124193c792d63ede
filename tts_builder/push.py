"""``tts-builder push GAME``: send a built game's scripts to a running Tabletop Simulator.

TTS listens on localhost TCP port 39999 for its External Editor API, the one the
editor plugins (Atom, VS Code, Sublime) use (``docs/tts-format.md`` §2.1;
Berserk-Games/Tabletop-Simulator-API ``docs/externaleditorapi.md``). One connection
carries one JSON message. *Save & Play* is::

    {"messageID": 1, "scriptStates": [{"guid": "-1", "script": "...", "ui": "..."}, ...]}

``guid`` ``"-1"`` is the Global script. TTS replaces the Lua script *and* the XmlUI of
every object named (a missing ``script`` or ``ui`` deletes it), leaves the others as
they are, then saves and reloads the game: the mod restarts with the new rules and
panel and without a new save slot. The objects named here are the Global and every
top-level object of the built save with a script or a UI; the table itself (cards,
boards, images) is not sent: change those with ``build`` and ``install --replace``.

The game loaded in TTS must be this game's mod (TTS does not say which game it runs
on this port; its answers go to the editor's port 39998, which ``push`` leaves to the
editor plugins).
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

from tts_builder.build import DEFAULT_OUT, save_paths
from tts_builder.errors import InputError, require_game
from tts_builder.fileio import load_json_file

TTS_HOST = "127.0.0.1"
TTS_PORT = 39999
GLOBAL_GUID = "-1"
#: Seconds to connect and send before giving up (TTS answers at once when it runs).
TIMEOUT = 10.0


def script_states(save: dict[str, Any]) -> list[dict[str, str]]:
    """The ``scriptStates`` of *Save & Play* for a save: the Global first, then each
    top-level object with a script or a UI, in the save's order.

    >>> script_states({"LuaScript": "print(1)", "XmlUI": "", "ObjectStates": [
    ...     {"GUID": "a1b2c3", "LuaScript": "x = 1"}, {"GUID": "d4e5f6"}]})
    [{'guid': '-1', 'script': 'print(1)', 'ui': ''}, {'guid': 'a1b2c3', 'script': 'x = 1', 'ui': ''}]
    """
    states = [{"guid": GLOBAL_GUID, "script": str(save.get("LuaScript") or ""), "ui": str(save.get("XmlUI") or "")}]
    for obj in save.get("ObjectStates") or []:
        if isinstance(obj, dict) and (obj.get("LuaScript") or obj.get("XmlUI")) and obj.get("GUID"):
            states.append({"guid": str(obj["GUID"]), "script": str(obj.get("LuaScript") or ""),
                           "ui": str(obj.get("XmlUI") or "")})
    return states


def save_and_play_message(save: dict[str, Any]) -> bytes:
    """The bytes sent: the *Save & Play* message as JSON (ASCII, so no encoding question)."""
    return json.dumps({"messageID": 1, "scriptStates": script_states(save)}).encode("ascii")


def send(message: bytes, *, host: str = TTS_HOST, port: int = TTS_PORT, timeout: float = TIMEOUT) -> None:
    """Open a connection to TTS, send ``message`` and close: one message per connection,
    as the editor plugins do. Unreachable TTS is :class:`InputError` (one line)."""
    where = f"localhost:{port}" if host in ("127.0.0.1", "localhost") else f"{host}:{port}"
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.sendall(message)
            conn.shutdown(socket.SHUT_WR)
    except ConnectionRefusedError:
        raise InputError(f"push: Tabletop Simulator is not listening on {where}: start TTS and load the game "
                         f"(the External Editor API is on while TTS runs)") from None
    except TimeoutError:
        raise InputError(f"push: no answer from {where} within {timeout:g} s") from None
    except OSError as exc:
        raise InputError(f"push: cannot send to {where}: {exc.strerror or exc}") from None


def push(game_id: str, *, out_root: Path = DEFAULT_OUT, host: str = TTS_HOST, port: int = TTS_PORT) -> int:
    """Send the built save's scripts; the number of objects named (the Global included)."""
    require_game(game_id)
    save_path, _ = save_paths(out_root, game_id)
    if not save_path.is_file():
        out = "" if Path(out_root) == DEFAULT_OUT else f" --out {out_root}"
        raise InputError(f"{game_id} is not built yet (no {save_path}): run `tts-builder build {game_id}{out}` first")
    save = load_json_file(save_path)
    if not isinstance(save, dict):
        raise InputError(f"{save_path}: not a TTS save (rebuild with `tts-builder build {game_id}`)")
    send(save_and_play_message(save), host=host, port=port)
    return len(script_states(save))


def push_command(game_id: str, *, out_root: Path, port: int) -> int:
    """Body of ``tts-builder push``."""
    if not 0 < port < 65536:
        raise InputError(f"--port must be between 1 and 65535, not {port}")
    sent = push(game_id, out_root=out_root, port=port)
    others = f" and {sent - 1} object script(s)" if sent > 1 else ""
    print(f"{game_id}: sent the Global script and UI{others} to Tabletop Simulator (localhost:{port}); "
          f"it saves and reloads the game")
    return 0
