"""``tts-builder push`` against a fake Tabletop Simulator: a thread listening on localhost,
as TTS does on 39999, recording the exact bytes of each connection."""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

import pytest

from tts_builder import cli

GAME = "two-and-two"


class FakeTTS:
    """Accepts connections on a free localhost port and keeps what each one sent."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(30)
        self.port = self.server.getsockname()[1]
        self.received: list[bytes] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        try:
            conn, _ = self.server.accept()
        except OSError:
            return
        with conn:
            conn.settimeout(30)
            chunks = []
            while chunk := conn.recv(65536):
                chunks.append(chunk)
            self.received.append(b"".join(chunks))

    def close(self) -> None:
        self.thread.join(timeout=30)
        self.server.close()


@pytest.fixture
def tts():
    server = FakeTTS()
    yield server
    server.close()


def _write_build(out: Path, save: dict) -> None:
    (out / GAME).mkdir(parents=True)
    (out / GAME / f"{GAME}.json").write_text(json.dumps(save), "utf-8")


def test_push_sends_save_and_play_with_the_global_and_scripted_objects(tmp_path, tts, capsys):
    save = {"SaveName": "Two & Two", "LuaScript": "print('héllo')\n", "XmlUI": "<Panel id=\"p\"/>",
            "ObjectStates": [
                {"GUID": "aaaaaa", "Name": "Card", "LuaScript": "", "XmlUI": ""},
                {"GUID": "bbbbbb", "Name": "Custom_Tile", "LuaScript": "function onLoad() end", "XmlUI": ""},
                {"GUID": "cccccc", "Name": "Custom_Tile", "XmlUI": "<Button/>"},
                {"GUID": "dddddd", "Name": "Deck", "ContainedObjects": [{"GUID": "eeeeee", "LuaScript": "x=1"}]},
            ]}
    _write_build(tmp_path / "out", save)
    assert cli.main(["push", GAME, "--out", str(tmp_path / "out"), "--port", str(tts.port)]) == 0
    tts.close()
    (raw,) = tts.received
    assert raw.isascii()  # non-ASCII text travels as JSON escapes
    assert json.loads(raw) == {"messageID": 1, "scriptStates": [
        {"guid": "-1", "script": "print('héllo')\n", "ui": "<Panel id=\"p\"/>"},
        {"guid": "bbbbbb", "script": "function onLoad() end", "ui": ""},
        {"guid": "cccccc", "script": "", "ui": "<Button/>"},
    ]}
    out = capsys.readouterr().out
    assert out.startswith(f"{GAME}: sent the Global script and UI and 2 object script(s)")


def test_push_of_a_real_build_sends_its_global_lua(tmp_path, tts, capsys):
    from tts_builder.build import build_game

    out = tmp_path / "out"
    build_game(GAME, out)
    built = json.loads((out / GAME / f"{GAME}.json").read_text("utf-8"))
    assert cli.main(["push", GAME, "--out", str(out), "--port", str(tts.port)]) == 0
    tts.close()
    message = json.loads(tts.received[0])
    assert message["messageID"] == 1
    assert message["scriptStates"][0] == {"guid": "-1", "script": built["LuaScript"], "ui": built["XmlUI"]}
    assert "onLoad" in built["LuaScript"] and built["XmlUI"]


def test_connection_refused_is_one_line_exit_2(tmp_path, capsys):
    _write_build(tmp_path / "out", {"LuaScript": "", "ObjectStates": []})
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]  # free now, closed below: nothing listens there
    assert cli.main(["push", GAME, "--out", str(tmp_path / "out"), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"not listening on localhost:{port}" in err and "start TTS" in err


@pytest.mark.parametrize("argv, expected", [
    (["push", GAME, "--out", "{tmp}/nothing"], "is not built yet"),
    (["push", "no-such-game"], "unknown game"),
    (["push", GAME, "--port", "70000"], "--port must be between 1 and 65535"),
])
def test_push_bad_input_is_one_line(tmp_path, capsys, argv, expected):
    assert cli.main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
