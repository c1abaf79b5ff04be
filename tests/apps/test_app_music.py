"""Rhythmbox (``music``), driven only through the actor handle (pointer, keyboard,
application; the terminal's ``sleep`` moves the logical clock).

The library is WAV files shipped in the world as data URLs; the player file, the settings
and the recent documents are checked through the owner's machine.
"""

from __future__ import annotations

import base64
import io
import json
import struct
import sys
import wave
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, act, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps.music import probe_duration
from cwgym.machine import recent
from cwgym.machine.settings import read_settings
from cwgym.resources import load_world

W, H = 1280, 800
US = 1_000_000
PLAYER = "/home/ada/.local/share/rhythmbox/player.json"
A = "Zed Band - Alpha.wav"  # 10 s
B = "Aurora Lane - Bravo.wav"  # 20 s
C = "Aurora Lane - Charlie.wav"  # 30 s
#: The library in its order: artist, then title.
ORDER = [B, C, A]


def wav(seconds: int, rate: int = 100) -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(1)
        f.setframerate(rate)
        f.writeframes(b"\x80" * (seconds * rate))
    return buf.getvalue()


def data_url(data: bytes) -> str:
    return "data:audio/wav;base64," + base64.b64encode(data).decode()


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    d["computers"][0]["installed_apps"].append("music")
    d["computers"][0]["initial_files"].update(
        {
            f"Music/{A}": data_url(wav(10)),
            f"Music/{B}": data_url(wav(20)),
            f"Music/{C}": data_url(wav(30)),
        }
    )
    d["computers"][0]["initial_files"].update(files or {})
    return World(d, 7)


def _env(w: World):
    config = EnvironmentConfig.desktop("ada", [M]).to_plain()
    config["actions"] = [*config["actions"], "terminal.v1"]
    return w.environment(config)


def _open(files: dict | None = None):
    w = _world(files)
    env = _env(w)
    ok(env, app("launch", kind="music"))
    return w, env


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _click(env, target: str, op: str = "click") -> dict:
    at = point(env.scene(W, H), f"window:0:content:{target}")
    assert at is not None, f"{target} cannot be reached"
    out = one(env, ptr(op, *at, width=W, height=H))
    assert out["success"], out
    return out


def _shell(env, target: str) -> dict:
    return one(env, app("shell", target=f"window:0:content:{target}"))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _sleep(env, seconds: float) -> None:
    out = one(env, act("terminal.v1", "execute", command=f"sleep {seconds}"))
    assert out["success"] and out["value"]["exit_code"] == 0, out


def _player(w: World) -> dict:
    return json.loads(w.machine(M).fs.read_path(PLAYER))


def _now(w: World) -> int:
    return w.machine(M).clock.now_us


def _rows(env) -> list[str]:
    return [e["id"].split(":content:", 1)[1] for e in _elements(env).values() if e["role"] == "row"]


# -- the library ---------------------------------------------------------------------------


def test_open_from_the_dock_lists_the_library_sorted_with_durations():
    w = _world(
        {"Music/notes.txt": "not a song\n", "Music/Live/Zed Band - Encore.wav": data_url(wav(5))}
    )
    env = _env(w)
    at = point(env.scene(W, H), "shell:launch:music")
    assert one(env, ptr("click", *at, width=W, height=H))["value"] == {"window": 0}
    assert env.scene(W, H)["windows"][0]["title"] == "Rhythmbox"
    assert _rows(env) == [
        f"track:{B}",
        f"track:{C}",
        f"track:{A}",
        "track:Live/Zed Band - Encore.wav",
    ]
    rows = _elements(env)
    assert rows[f"window:0:content:track:{A}"]["label"] == "Alpha by Zed Band, 0:10"
    assert rows[f"window:0:content:track:{C}"]["label"] == "Charlie by Aurora Lane, 0:30"
    texts = _texts(env)
    assert "Not playing" in texts and "4 songs, 1 minute" in texts
    assert rows["window:0:content:play"]["label"] == "Play"
    assert rows["window:0:content:next"]["enabled"] is False
    assert not w.machine(M).fs.exists(PLAYER)  # looking writes nothing


def test_durations_of_other_formats_are_read_from_their_headers():
    # FLAC: STREAMINFO with 44100 Hz and 441000 samples (10 s)
    info = (44100 << 44) | (1 << 41) | (15 << 36) | 441000
    flac = b"fLaC" + bytes([0x80, 0, 0, 34]) + bytes(10) + info.to_bytes(8, "big") + bytes(16)
    assert probe_duration("a.flac", flac) == 10 * US
    # Ogg Vorbis: an identification header at 48 kHz, a last page at granule 96000 (2 s)
    ident = b"\x01vorbis" + struct.pack("<IBI", 0, 2, 48000) + bytes(16)
    page1 = b"OggS" + bytes(22) + bytes([1, len(ident)]) + ident
    last = b"OggS\x00\x04" + struct.pack("<q", 96000) + bytes(20)
    assert probe_duration("a.ogg", page1 + last) == 2 * US
    # MP3: a 128 kbps CBR MPEG-1 layer III stream of 16000 bytes (1 s)
    frame = bytes([0xFF, 0xFB, 0x90, 0x00])
    assert probe_duration("a.mp3", frame + bytes(16000 - 4)) == US
    # damaged headers are unknown
    assert probe_duration("a.wav", b"RIFF....WAVEjunk") is None
    assert probe_duration("a.flac", b"fLaC") is None
    assert probe_duration("a.mp3", b"\x00" * 100) is None


# -- playing -------------------------------------------------------------------------------


def test_play_pause_by_pointer_and_space_follow_the_logical_clock():
    w, env = _open()
    _click(env, "play")  # nothing selected: the first track of the library
    p = _player(w)
    assert p["current"] == B and p["playing"] is True and 0 <= _now(w) - p["started_us"] < US
    assert p["plays"] == {B: 1}
    assert [r["path"] for r in recent.recent(w.machine(M))] == [f"/home/ada/Music/{B}"]
    assert _elements(env)["window:0:content:play"]["label"] == "Pause"
    _sleep(env, 5)
    _keys(env, "Space")  # pause
    p = _player(w)
    assert p["playing"] is False and p["started_us"] is None
    assert 5 * US <= p["position_us"] < 6 * US
    shown = _elements(env)
    assert "0:05 of 0:20" in _texts(env)
    assert shown[f"window:0:content:track:{B}"]["label"].endswith(", paused")
    _sleep(env, 60)  # paused: the position stays
    _keys(env, "MediaPlayPause")  # resume: not a new play
    p = _player(w)
    assert p["playing"] is True and p["plays"] == {B: 1} and 5 * US <= p["position_us"] < 6 * US
    ok(env, type_(" "))  # a typed space pauses too
    assert _player(w)["playing"] is False
    _keys(env, "Ctrl+Space")
    assert _player(w)["playing"] is True


def test_a_track_that_ends_moves_on_at_the_next_event_and_the_library_ends():
    w, env = _open()
    _click(env, f"track:{C}", op="double_click")
    p = _player(w)
    assert p["current"] == C and p["playing"] is True
    start = p["started_us"]
    _sleep(env, 35)
    # the display shows the state at the last event: the file is unchanged until one
    assert _player(w)["current"] == C
    _keys(env, "ArrowDown")
    p = _player(w)
    assert p["current"] == A and p["started_us"] == start + 30 * US and p["plays"] == {C: 1, A: 1}
    assert recent.recent(w.machine(M))[0]["path"] == f"/home/ada/Music/{A}"
    _sleep(env, 20)  # A (the last) ended and repeat is off: the player stops
    _keys(env, "ArrowDown")
    p = _player(w)
    assert p["current"] is None and p["playing"] is False
    assert "Not playing" in _texts(env)


def test_repeat_wraps_and_a_long_gap_is_caught_up():
    w, env = _open()
    _keys(env, "Ctrl+r")
    assert _player(w)["repeat"] is True
    assert _elements(env)["window:0:content:repeat"]["checked"] is True
    _click(env, f"track:{A}", op="double_click")  # the last track: repeat goes on to the first
    _sleep(env, 12)
    _keys(env, "ArrowUp")
    assert _player(w)["current"] == B
    _sleep(env, 24 * 3600)  # a day later: still playing, somewhere in the library
    _keys(env, "ArrowUp")
    p = _player(w)
    assert p["playing"] is True and p["current"] in ORDER
    assert 0 <= _now(w) - p["started_us"] < 30 * US
    _click(env, "repeat")
    assert _player(w)["repeat"] is False


def test_next_and_previous_by_pointer_and_keys():
    w, env = _open()
    _shell(env, f"track:{B}")
    _keys(env, "Enter")
    assert _player(w)["current"] == B
    _click(env, "next")
    assert _player(w)["current"] == C
    _keys(env, "Alt+ArrowRight")
    assert _player(w)["current"] == A
    assert _elements(env)["window:0:content:next"]["enabled"] is False
    _shell(env, "next")  # the last without repeat: nothing
    assert _player(w)["current"] == A
    _keys(env, "MediaTrackPrevious")
    assert _player(w)["current"] == C
    _sleep(env, 5)
    _click(env, "prev")  # more than 3 s in: back to its start
    p = _player(w)
    assert p["current"] == C and p["position_us"] == 0 and 0 <= _now(w) - p["started_us"] < US
    _keys(env, "Alt+ArrowLeft")
    assert _player(w)["current"] == B
    _keys(env, "Alt+ArrowLeft")  # the first: it restarts
    assert _player(w)["current"] == B
    assert _player(w)["plays"] == {B: 2, C: 2, A: 1}


def test_shuffle_is_seeded_from_the_machine_and_deterministic():
    orders = []
    for _ in range(2):
        w, env = _open()
        _click(env, "shuffle")
        p = _player(w)
        assert p["shuffle"] is True and 0 <= _now(w) - p["shuffle_seed"] < US
        _shell(env, "play")
        seen = [_player(w)["current"]]
        for _i in range(2):
            _shell(env, "next")
            seen.append(_player(w)["current"])
        orders.append(seen)
        assert sorted(seen) == sorted(ORDER)
    assert orders[0] == orders[1]
    _keys(env, "Ctrl+u")
    assert _player(w)["shuffle"] is False


# -- the queue -----------------------------------------------------------------------------


def test_queue_add_play_next_remove_and_it_plays_first():
    w, env = _open()
    _click(env, f"track:{A}")
    assert _elements(env)[f"window:0:content:track:{A}"]["selected"] is True
    _click(env, "queue-add")
    _shell(env, f"track:{C}")
    _shell(env, "queue-add")
    _shell(env, f"track:{B}")
    _click(env, "queue-next")  # first in the queue
    assert _player(w)["queue"] == [B, A, C]
    _click(env, "source:queue")
    assert _rows(env) == ["queued:0", "queued:1", "queued:2"]
    assert _elements(env)["window:0:content:source:queue"]["label"] == "Play Queue (3)"
    _click(env, "queued:1")
    _keys(env, "Delete")
    assert _player(w)["queue"] == [B, C]
    _keys(env, "Ctrl+1")
    assert _rows(env)[0] == f"track:{B}"
    _shell(env, f"track:{A}")
    _keys(env, "Enter")  # A plays; when it ends, the queue comes first
    _sleep(env, 11)
    _keys(env, "ArrowUp")
    p = _player(w)
    assert p["current"] == B and p["queue"] == [C]
    _keys(env, "Ctrl+2")
    _click(env, "queued:0", op="double_click")  # plays now, off the queue
    p = _player(w)
    assert p["current"] == C and p["queue"] == []
    assert "The play queue is empty: select a song and press “Add to Queue”." in _texts(env)
    _shell(env, "source:library")
    for path in (A, B):
        _shell(env, f"track:{path}")
        _shell(env, "queue-add")
    _shell(env, "source:queue")
    _click(env, "queue-clear")
    assert _player(w)["queue"] == []


def test_queue_needs_a_selection_and_has_a_cap():
    w, env = _open()
    _click(env, "queue-add")
    assert "Select a track first." in _texts(env)
    assert not w.machine(M).fs.exists(PLAYER)
    _click(env, "dismiss")
    assert "Select a track first." not in _texts(env)
    w, env = _open(
        {".local/share/rhythmbox/player.json": json.dumps({"version": 1, "queue": [A] * 200})}
    )
    _shell(env, f"track:{B}")
    _shell(env, "queue-add")
    assert "The play queue holds at most 200 tracks." in _texts(env)
    assert len(_player(w)["queue"]) == 200


# -- volume --------------------------------------------------------------------------------


def test_volume_follows_the_machine_settings():
    w, env = _open()
    assert "Volume 50%" in _texts(env)
    _click(env, "volume-up")
    _shell(env, "volume-up")
    assert read_settings(w.machine(M))["volume"] == 70
    _click(env, "volume-down")
    assert read_settings(w.machine(M))["volume"] == 60
    _click(env, "mute")
    assert read_settings(w.machine(M))["muted"] is True
    assert "Muted" in _texts(env)
    assert _elements(env)["window:0:content:mute"]["label"] == "Unmute"
    _shell(env, "volume-up")  # raising the volume unmutes
    s = read_settings(w.machine(M))
    assert s["muted"] is False and s["volume"] == 70


# -- bad files and refusals ----------------------------------------------------------------


def test_a_damaged_track_is_listed_but_not_played():
    w, env = _open({"Music/Broken - Noise.wav": "RIFF not really a wave file"})
    row = _elements(env)["window:0:content:track:Broken - Noise.wav"]
    assert row["label"] == "Noise by Broken, —:—"
    _click(env, "track:Broken - Noise.wav", op="double_click")
    assert any(t.startswith("Could not play “Noise”") for t in _texts(env))
    assert not w.machine(M).fs.exists(PLAYER)
    _keys(env, "Escape")
    assert not any(t.startswith("Could not play") for t in _texts(env))


def test_a_damaged_player_file_is_reported_and_left_alone():
    bad = "{not json"
    w, env = _open({".local/share/rhythmbox/player.json": bad})
    assert any("is damaged (it is not JSON)" in t for t in _texts(env))
    _click(env, "play")
    _shell(env, f"track:{A}")
    _shell(env, "queue-add")
    assert w.machine(M).fs.read_path(PLAYER).decode() == bad
    assert _player_text(w) == bad


def _player_text(w: World) -> str:
    return w.machine(M).fs.read_path(PLAYER).decode()


def test_unknown_targets_and_text_are_refused():
    _w, env = _open()
    assert _shell(env, "track:Nobody - Nothing.wav")["error"]["reason"] == "unknown_shell_target"
    assert _shell(env, "queue-remove")["error"]["reason"] == "unknown_shell_target"  # library view
    assert _shell(env, "queued:0")["error"]["reason"] == "unknown_shell_target"
    assert _shell(env, "dismiss")["error"]["reason"] == "unknown_shell_target"  # no banner
    assert not one(env, type_("abc"))["success"]


def test_an_argument_plays_that_track_and_a_stranger_is_an_error():
    w = _world()
    env = _env(w)
    ok(env, app("launch", kind="music", argument=f"/home/ada/Music/{C}"))
    assert _player(w)["current"] == C
    ok(env, app("launch", kind="music", argument="/home/ada/notes.txt"))
    assert "notes.txt is not a track of the library (~/Music)." in _texts(env)
