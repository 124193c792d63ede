"""The sample TTS save carrying a transcript (tests/golden/saves/, shown in the README's Transcript
section): its ``LuaScriptState`` is byte for byte what the built mod's ``onSave`` writes for the
recorded game, and validate, show and replay read it as they read the transcript itself.

``TTS_BUILDER_UPDATE_SAMPLES=1`` rewrites the sample from the mod (look at the diff first).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from modtable import ModTable, build_save
from tts_builder.cli import main
from tts_builder.save import game_of_save_name

GOLDEN = Path(__file__).parent / "golden"
TRANSCRIPT = GOLDEN / "two-and-two" / "played-draw.transcript.json"
SAMPLE = GOLDEN / "saves" / "two-and-two-draw.save.json"
#: the fields of a real save the sample keeps (the rest, ObjectStates above all, the readers ignore)
KEPT = ("SaveName", "GameMode", "VersionNumber")


def sample_from_mod(tmp_path: Path) -> dict[str, Any]:
    """What TTS saves for the recorded game, cut down to the fields a reader needs: the built mod
    loads the transcript (replaying it through its Lua rules) and ``onSave`` gives the state."""
    save = build_save(tmp_path, "two-and-two")
    transcript = json.loads(TRANSCRIPT.read_text("utf-8"))
    table = ModTable(save, state=json.dumps({"transcript": transcript}))
    assert not table.fake.broadcasts, "the mod accepts the recorded game"
    state = table.fake.sandbox.call("onSave")
    return {**{k: save[k] for k in KEPT}, "ObjectStates": [], "LuaScriptState": state}


def test_the_sample_save_is_what_the_mod_writes(tmp_path: Path) -> None:
    made = sample_from_mod(tmp_path)
    if os.environ.get("TTS_BUILDER_UPDATE_SAMPLES"):
        SAMPLE.write_text(json.dumps(made, indent=2, sort_keys=True) + "\n", "utf-8")
    sample = json.loads(SAMPLE.read_text("utf-8"))
    assert sample["LuaScriptState"] == made["LuaScriptState"]
    # SaveName carries the build's id (any change to the mod changes it): the game's part must agree
    assert game_of_save_name(sample["SaveName"]) == game_of_save_name(made["SaveName"]) == "Two & Two"
    assert {**sample, "SaveName": ""} == {**made, "SaveName": ""}
    # the state is one JSON object whose "transcript" is the recorded game, unchanged
    assert json.loads(sample["LuaScriptState"]) == {"transcript": json.loads(TRANSCRIPT.read_text("utf-8"))}


@pytest.mark.parametrize("command", [["validate"], ["show"], ["replay", "--out", "{tmp}/p.html"]])
def test_the_sample_reads_as_the_transcript_does(command: list[str], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    args = [a.format(tmp=tmp_path) for a in command[1:]]
    assert main([command[0], str(SAMPLE), *args]) == 0
    from_save = capsys.readouterr().out.replace(str(SAMPLE), "FILE").replace(str(tmp_path), "TMP")
    assert main([command[0], str(TRANSCRIPT), *args]) == 0
    from_transcript = capsys.readouterr().out.replace(str(TRANSCRIPT), "FILE").replace(str(tmp_path), "TMP")
    assert from_save == from_transcript
    assert "Draw, 4 sets each" in from_save
