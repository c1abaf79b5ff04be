"""``music``: a music player in the manner of Rhythmbox, over the audio files in ``~/Music``.

The **library** is every audio file under ``~/Music`` (sub-folders too, at most
:data:`LIBRARY_MAX` tracks), sorted by artist, then title, then path. A track's artist and
title come from its file name, ``Artist - Title.wav`` (split at the first `` - ``; a name
without one is the title, by "Unknown Artist"). Its duration is read from the file's
header with the standard library only, deterministically:

* ``.wav``: :mod:`wave` (frames / frame rate), reading the bytes through a small in-memory
  reader (the simulator opens no host file and imports no ``io``);
* ``.flac``: the ``STREAMINFO`` block (total samples / sample rate);
* ``.ogg`` / ``.oga`` (Vorbis) and ``.opus``: the last page's granule position over the
  identification header's rate (48 kHz less the pre-skip for Opus);
* ``.mp3`` (MPEG audio layer III): the Xing/Info or VBRI frame count when the file has
  one, else the constant-bitrate estimate from the first frame (bytes × 8 / bitrate), as
  players do for a CBR file.

A file whose duration cannot be read (a damaged header) is listed with ``—:—`` and cannot
be played: playing it shows an error in the window and changes nothing.

The **player** is kept in :data:`PLAYER_FILE` (``~/.local/share/rhythmbox/player.json``),
so every window and session sees one player::

    {"counted": true, "current": "Aurora Lane - Tidewater.wav", "playing": true,
     "plays": {"Aurora Lane - Tidewater.wav": 1}, "position_us": 0, "queue": [],
     "repeat": false, "shuffle": false, "shuffle_seed": 0, "started_us": 5000000,
     "version": 1}

Tracks are named by their path relative to ``~/Music``. While playing, the position is
``position_us + (now_us - started_us)`` on the logical clock; paused, it is
``position_us``. When the position reaches the track's duration the player moves on: the
first track of the **play queue** (taken off it), else the next track of the library in
play order (sorted, or with shuffle a permutation drawn from ``shuffle_seed`` — the
logical time shuffle was switched on — by SHA-256, never host randomness), wrapping
around with repeat, else it stops. The change is computed at **events**: when a window
opens, and at each click or key it handles. The window shows the position at its last
event (the display of a player refreshed on input); painting reads the clock only to the
minute. A track that starts playing counts one play in ``plays`` and is added to the
desktop's recent documents (:func:`cwgym.machine.recent.add_recent`, app ``music``). A
catch-up after a long gap with repeat on skips whole rounds of the library without
counting their plays.

A player file that is not this (not JSON, a field of the wrong type) is reported in a red
banner and never rewritten: the controls that would change it do nothing.

The volume is the machine's (:mod:`cwgym.machine.settings`: ``volume``, ``muted``); the
volume buttons change that setting.

Control targets (``window:<id>:content:<target>``):

* ``prev``, ``play`` (Play / Pause), ``next``; ``shuffle``, ``repeat`` (role
  ``togglebutton``); ``volume-down``, ``volume-up`` (10 points a press), ``mute``;
* ``source:library``, ``source:queue`` (the side bar: Music, Play Queue);
* library view: ``track:<path>`` (a row: a click selects, a double click plays),
  ``play-selected``, ``queue-add`` (Add to Queue, at the end), ``queue-next`` (Play Next,
  first in the queue);
* queue view: ``queued:<n>`` (the n-th queued track, from 0: a click selects, a double
  click plays it now and takes it off the queue), ``play-selected``, ``queue-remove``,
  ``queue-clear``;
* ``dismiss`` closes the error banner.

Keys: ``Space``, ``Primary+Space`` or ``MediaPlayPause`` play / pause; ``Alt+ArrowRight``
or ``MediaTrackNext`` next; ``Alt+ArrowLeft`` or ``MediaTrackPrevious`` previous (the start
of the track when more than 3 s in); ``ArrowUp`` / ``ArrowDown`` / ``Home`` / ``End`` move
the selection; ``Enter`` plays the selected track; ``Delete`` takes the selected track
off the queue (queue view); ``Primary+u`` shuffle, ``Primary+r`` repeat; ``Primary+1`` /
``Primary+2`` show the library / the queue; ``Escape`` closes the error banner.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import posixpath
import struct
import wave
from typing import Any, NamedTuple

from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine import recent
from cwgym.machine.filesystem import FsError
from cwgym.machine.settings import UserDataError, change_setting, read_settings
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, UiText
from cwgym.text import line_height, measure

__all__ = [
    "EXTENSIONS",
    "LIBRARY_MAX",
    "MUSIC_DIR",
    "PLAYER_FILE",
    "QUEUE_MAX",
    "Music",
    "probe_duration",
]

PLAYER_FILE = ".local/share/rhythmbox/player.json"
MUSIC_DIR = "Music"
EXTENSIONS = (".wav", ".flac", ".ogg", ".oga", ".opus", ".mp3")
#: The most tracks the library lists (the first by path; more are left out, and said so).
LIBRARY_MAX = 1000
#: The most tracks the play queue holds.
QUEUE_MAX = 200
#: Previous restarts the track when it is further in than this.
RESTART_US = 3_000_000
#: A catch-up that passes more track starts than this skips whole rounds (repeat on).
CATCH_UP = 400
US = 1_000_000
VOLUME_STEP = 10

TOP_H = 72
SIDE_W = 190
BAR_H = 44
HEAD_H = 28
ROW_H = 30
STATUS_H = 26
BANNER_H = 34
PANE = "tracks"
UNKNOWN = "—:—"


# -- durations ----------------------------------------------------------------------------


class _Reader:
    """A read-only file over bytes: what :mod:`wave` reads a header from (no host I/O)."""

    __slots__ = ("_data", "_pos")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0

    def read(self, n: int = -1) -> bytes:
        end = len(self._data) if n is None or n < 0 else min(len(self._data), self._pos + n)
        out = self._data[self._pos : end]
        self._pos = max(self._pos, end)
        return out

    def seek(self, pos: int, whence: int = 0) -> int:
        base = (0, self._pos, len(self._data))[whence]
        self._pos = max(0, base + pos)
        return self._pos

    def tell(self) -> int:
        return self._pos


def _wav(data: bytes) -> int | None:
    try:
        with wave.Wave_read(_Reader(data)) as f:  # type: ignore[arg-type]
            rate, frames = f.getframerate(), f.getnframes()
    except (wave.Error, EOFError, ValueError, OSError, struct.error):
        return None
    return frames * US // rate if rate > 0 else None


def _skip_id3(data: bytes) -> int:
    if len(data) >= 10 and data[:3] == b"ID3":
        size = (
            (data[6] & 0x7F) << 21
            | (data[7] & 0x7F) << 14
            | (data[8] & 0x7F) << 7
            | (data[9] & 0x7F)
        )
        return 10 + size + (10 if data[5] & 0x10 else 0)
    return 0


def _flac(data: bytes) -> int | None:
    at = _skip_id3(data)
    if data[at : at + 4] != b"fLaC" or len(data) < at + 26 or data[at + 4] & 0x7F != 0:
        return None
    bits = int.from_bytes(data[at + 18 : at + 26], "big")
    rate = bits >> 44
    total = bits & ((1 << 36) - 1)
    return total * US // rate if rate > 0 and total > 0 else None


def _ogg(data: bytes) -> int | None:
    if data[:4] != b"OggS" or len(data) < 28:
        return None
    nseg = data[26]
    packet = data[27 + nseg : 27 + nseg + 64]
    if packet[:7] == b"\x01vorbis" and len(packet) >= 16:
        rate, skip = int.from_bytes(packet[12:16], "little"), 0
    elif packet[:8] == b"OpusHead" and len(packet) >= 12:
        rate, skip = 48_000, int.from_bytes(packet[10:12], "little")
    else:
        return None
    last = data.rfind(b"OggS")
    if last < 0 or len(data) < last + 14:
        return None
    granule = int.from_bytes(data[last + 6 : last + 14], "little", signed=True)
    samples = granule - skip
    return samples * US // rate if rate > 0 and samples > 0 else None


_MP3_BITRATES = {
    1: (0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320),
    2: (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160),
}
_MP3_RATES = {3: (44100, 48000, 32000), 2: (22050, 24000, 16000), 0: (11025, 12000, 8000)}


def _mp3(data: bytes) -> int | None:
    at = _skip_id3(data)
    end = len(data) - (128 if data[-128:-125] == b"TAG" else 0)
    limit = min(end - 4, at + 65536)
    while at < limit and not (data[at] == 0xFF and data[at + 1] & 0xE0 == 0xE0):
        at += 1
    if at >= limit:
        return None
    h = int.from_bytes(data[at : at + 4], "big")
    version, layer = (h >> 19) & 3, (h >> 17) & 3
    bitrate_i, rate_i, mode = (h >> 12) & 15, (h >> 10) & 3, (h >> 6) & 3
    if version == 1 or layer != 1 or bitrate_i in (0, 15) or rate_i == 3:  # layer III only
        return None
    rate = _MP3_RATES[version][rate_i]
    per_frame = 1152 if version == 3 else 576
    side = (32 if mode != 3 else 17) if version == 3 else (17 if mode != 3 else 9)
    xing = at + 4 + side
    frames = None
    if data[xing : xing + 4] in (b"Xing", b"Info") and data[xing + 7] & 1:
        frames = int.from_bytes(data[xing + 8 : xing + 12], "big")
    elif data[at + 36 : at + 40] == b"VBRI":
        frames = int.from_bytes(data[at + 50 : at + 54], "big")
    if frames:
        return frames * per_frame * US // rate
    kbps = _MP3_BITRATES[1 if version == 3 else 2][bitrate_i]
    return (end - at) * 8 * 1000 // kbps if kbps else None


@functools.lru_cache(maxsize=512)
def probe_duration(name: str, data: bytes) -> int | None:
    """The duration in microseconds of the audio file ``name`` holding ``data``, or
    ``None`` when its header cannot be read (see the module docs for each format)."""
    ext = posixpath.splitext(name)[1].lower()
    try:
        if ext == ".wav":
            return _wav(data)
        if ext == ".flac":
            return _flac(data)
        if ext in (".ogg", ".oga", ".opus"):
            return _ogg(data)
        if ext == ".mp3":
            return _mp3(data)
    except IndexError:
        return None
    return None


# -- the library --------------------------------------------------------------------------


class Track(NamedTuple):
    path: str  # relative to ~/Music
    artist: str
    title: str
    duration: int | None  # microseconds; None: unreadable


def _names(rel: str) -> tuple[str, str]:
    stem = posixpath.splitext(posixpath.basename(rel))[0]
    artist, sep, title = stem.partition(" - ")
    if sep and artist.strip() and title.strip():
        return artist.strip(), title.strip()
    return "Unknown Artist", stem


def _sort_key(t: Track) -> tuple[str, str, str]:
    return (t.artist.casefold(), t.title.casefold(), t.path)


def _library(ctx: AppContext) -> tuple[tuple[Track, ...], bool]:
    """The library, sorted; and whether tracks were left out past :data:`LIBRARY_MAX`."""
    ufs = ctx.files()
    root = f"{ctx.home}/{MUSIC_DIR}"
    found: list[tuple[str, bytes]] = []
    more = False
    stack = [""]
    while stack:
        rel_dir = stack.pop()
        folder = f"{root}/{rel_dir}" if rel_dir else root
        try:
            names = sorted(ufs.listdir(folder, "/"))
        except FsError:
            continue
        for name in names:
            rel = f"{rel_dir}/{name}" if rel_dir else name
            path = f"{root}/{rel}"
            try:
                if ufs.is_dir(path, "/"):
                    stack.append(rel)
                    continue
                if not name.lower().endswith(EXTENSIONS):
                    continue
                if len(found) >= LIBRARY_MAX:
                    more = True
                    continue
                found.append((rel, ufs.read(path, "/")))
            except FsError:
                continue
    tracks = [Track(rel, *_names(rel), probe_duration(rel, data)) for rel, data in found]
    return tuple(sorted(tracks, key=_sort_key)), more


def _clock(us: int | None) -> str:
    if us is None:
        return UNKNOWN
    s = us // US
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


# -- the player file ----------------------------------------------------------------------


def _fresh() -> dict[str, Any]:
    return {
        "version": 1,
        "current": None,
        "playing": False,
        "started_us": None,
        "position_us": 0,
        "counted": False,
        "queue": [],
        "shuffle": False,
        "shuffle_seed": 0,
        "repeat": False,
        "plays": {},
    }


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check(value: Any) -> str:
    """The problem of a parsed player file, or ""."""
    if not isinstance(value, dict):
        return "it is not a JSON object"
    p = {**_fresh(), **value}
    if p["current"] is not None and not isinstance(p["current"], str):
        return "current is not a track path"
    for name in ("playing", "counted", "shuffle", "repeat"):
        if not isinstance(p[name], bool):
            return f"{name} is not true or false"
    if p["started_us"] is not None and not _is_int(p["started_us"]):
        return "started_us is not a number"
    if not _is_int(p["position_us"]) or p["position_us"] < 0 or not _is_int(p["shuffle_seed"]):
        return "position_us or shuffle_seed is not a number"
    if p["playing"] and (p["current"] is None or p["started_us"] is None):
        return "it is playing without a current track and start time"
    q = p["queue"]
    if not isinstance(q, list) or not all(isinstance(x, str) for x in q) or len(q) > QUEUE_MAX:
        return f"queue is not a list of at most {QUEUE_MAX} track paths"
    plays = p["plays"]
    if not isinstance(plays, dict) or not all(_is_int(n) and n >= 0 for n in plays.values()):
        return "plays is not an object of counts"
    return ""


def _read_player(ctx: AppContext) -> tuple[dict[str, Any], str]:
    """The player (a fresh one when the file is missing) and its problem ("": fine)."""
    try:
        data = ctx.files().read(f"{ctx.home}/{PLAYER_FILE}", "/")
    except FsError as exc:
        if exc.code == "ENOENT":
            return _fresh(), ""
        return _fresh(), f"Could not read ~/{PLAYER_FILE}: {exc.strerror_text}."
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        value, problem = None, "it is not JSON"
    else:
        problem = _check(value)
    if problem:
        return (
            _fresh(),
            f"The player file ~/{PLAYER_FILE} is damaged ({problem}); Rhythmbox leaves it as it is.",
        )
    player = {**_fresh(), **value}
    player["queue"] = list(player["queue"])
    player["plays"] = dict(player["plays"])
    return player, ""


def _write_player(ctx: AppContext, player: dict[str, Any]) -> str:
    """Write the player file; the problem, or ""."""
    data = (json.dumps(player, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")
    ufs = ctx.files()
    path = f"{ctx.home}/{PLAYER_FILE}"
    try:
        current = ""
        for part in [x for x in path.rsplit("/", 1)[0].split("/") if x]:
            current += "/" + part
            if not ufs.exists(current, "/"):
                ufs.mkdir(current, "/", 0o755)
        ufs.write(path, "/", data, mode=0o644)
    except FsError as exc:
        return f"Could not save ~/{PLAYER_FILE}: {exc.strerror_text}."
    return ""


def _position(player: dict, now_us: int) -> int:
    pos = player["position_us"]
    if player["playing"] and player["started_us"] is not None:
        pos += max(0, now_us - player["started_us"])
    return pos


def _order(player: dict, tracks: tuple[Track, ...]) -> list[str]:
    """The play order of the playable tracks: sorted, or the shuffle's permutation."""
    paths = [t.path for t in tracks if t.duration]
    if player["shuffle"]:
        seed = player["shuffle_seed"]
        paths.sort(key=lambda p: (hashlib.sha256(f"{seed}\0{p}".encode()).digest(), p))
    return paths


class _Run:
    """One event's view of the player: the library, the file, and what changed."""

    __slots__ = ("by_path", "changed", "ctx", "more", "player", "problem", "started", "tracks")

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.tracks, self.more = _library(ctx)
        self.by_path = {t.path: t for t in self.tracks}
        self.player, self.problem = _read_player(ctx)
        self.changed = False
        self.started: list[str] = []

    def duration(self, path: str | None) -> int | None:
        t = self.by_path.get(path) if path is not None else None
        return t.duration if t is not None else None

    def order(self) -> list[str]:
        return _order(self.player, self.tracks)

    def start(self, path: str, at_us: int, playing: bool = True) -> None:
        """Make ``path`` the current track from its start at ``at_us``."""
        p = self.player
        p["current"], p["position_us"] = path, 0
        p["playing"], p["started_us"] = playing, at_us if playing else None
        p["counted"] = False
        if playing:
            self.count()
        self.changed = True

    def count(self) -> None:
        p = self.player
        if not p["counted"] and p["current"] is not None:
            p["counted"] = True
            p["plays"][p["current"]] = p["plays"].get(p["current"], 0) + 1
            self.started.append(p["current"])

    def stop(self) -> None:
        p = self.player
        p["current"], p["playing"], p["started_us"], p["position_us"], p["counted"] = (
            None,
            False,
            None,
            0,
            False,
        )
        self.changed = True

    def following(self, take_queue: bool = True) -> str | None:
        """The track after the current one: the queue's first playable (taken off when
        ``take_queue``), else the next in play order (wrapping with repeat), else None."""
        p = self.player
        while p["queue"]:
            head = p["queue"][0]
            if self.duration(head):
                if take_queue:
                    p["queue"].pop(0)
                    self.changed = True
                return head
            p["queue"].pop(0)  # a queued file that is gone or unreadable is skipped
            self.changed = True
        order = self.order()
        if not order:
            return None
        cur = p["current"]
        if cur in order:
            i = order.index(cur) + 1
            if i < len(order):
                return order[i]
            return order[0] if p["repeat"] else None
        if cur is not None and cur not in self.by_path:
            return None
        # the current track is unplayable or there is none: the first after it in sorted order
        later = [
            x
            for x in order
            if cur is None or _sort_key(self.by_path[x]) > _sort_key(self.by_path[cur])
        ]
        return later[0] if later else (order[0] if p["repeat"] else None)

    def preceding(self) -> str | None:
        order = self.order()
        cur = self.player["current"]
        if cur not in order:
            return None
        i = order.index(cur)
        if i > 0:
            return order[i - 1]
        return order[-1] if self.player["repeat"] else None

    def advance(self, now_us: int) -> None:
        """Move the player on to ``now_us``: every track that ended since starts the next."""
        if self.problem:
            return
        p = self.player
        starts = 0
        while p["playing"]:
            dur = self.duration(p["current"])
            pos = _position(p, now_us)
            if dur and pos < dur:
                return
            ended = now_us - (pos - dur) if dur else now_us
            nxt = self.following()
            if nxt is None:
                self.stop()
                return
            self.start(nxt, ended)
            starts += 1
            if starts > CATCH_UP and p["repeat"] and not p["queue"]:
                cycle = sum(self.duration(x) or 0 for x in self.order())
                if cycle > 0:
                    rounds = (now_us - ended) // cycle
                    p["started_us"] = ended + rounds * cycle
                starts = 0

    def finish(self, state: dict) -> None:
        """Write what changed, and list the started tracks among the recent documents."""
        if self.changed and not self.problem:
            problem = _write_player(self.ctx, self.player)
            if problem:
                state["error"] = problem
                return
        root = f"{self.ctx.home}/{MUSIC_DIR}"
        for path in self.started[-10:]:
            with contextlib.suppress(ValueError, recent.UserDataError):
                recent.add_recent(self.ctx.machine, f"{root}/{path}", "music")


# -- geometry -----------------------------------------------------------------------------


def _top_buttons(width: int) -> dict[str, Rect]:
    out = {
        "prev": Rect(12, 18, 86, 36),
        "play": Rect(104, 14, 76, 44),
        "next": Rect(186, 18, 64, 36),
    }
    x = width - 12
    for name, w in (
        ("mute", 64),
        ("volume-up", 32),
        ("volume-label", 92),
        ("volume-down", 32),
        ("repeat", 76),
        ("shuffle", 76),
    ):
        x -= w
        out[name] = Rect(x, 18, w, 36)
        x -= 6
    return out


def _bar_buttons(view: str, x0: int, y: int) -> list[tuple[str, str, Rect]]:
    items = (
        (("play-selected", "Play"), ("queue-add", "Add to Queue"), ("queue-next", "Play Next"))
        if view == "library"
        else (
            ("play-selected", "Play"),
            ("queue-remove", "Remove from Queue"),
            ("queue-clear", "Clear Queue"),
        )
    )
    out = []
    x = x0 + 10
    for name, label in items:
        w = measure(label, "sans", 14) + 28
        out.append((name, label, Rect(x, y + 6, w, 32)))
        x += w + 8
    return out


def _body_top(banner: bool) -> int:
    return TOP_H + (BANNER_H if banner else 0)


def _list_rect(width: int, height: int, banner: bool) -> Rect:
    top = _body_top(banner) + BAR_H + HEAD_H
    return Rect(SIDE_W, top, max(0, width - SIDE_W), max(0, height - top - STATUS_H))


def _columns(width: int) -> dict[str, tuple[int, int]]:
    x0 = SIDE_W
    w = max(200, width - SIDE_W)
    plays_w, time_w = 60, 70
    rest = w - plays_w - time_w - 48
    title_w = rest * 55 // 100
    return {
        "n": (x0 + 8, 36),
        "title": (x0 + 44, title_w),
        "artist": (x0 + 44 + title_w, rest - title_w),
        "time": (x0 + w - plays_w - time_w, time_w),
        "plays": (x0 + w - plays_w, plays_w),
    }


# -- the application ----------------------------------------------------------------------


class Music(App):
    id = "music"
    label = "Rhythmbox"
    kind = "native"
    default_size = (900, 560)
    min_size = (640, 380)
    opens = EXTENSIONS

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        """Open on the library; an argument naming a track of ``~/Music`` plays it (a file
        elsewhere, or one that is not a track, opens the library with an error banner)."""
        state: dict[str, Any] = {
            "view": "library",
            "selected": None,
            "queue_sel": None,
            "error": "",
            "at_us": ctx.now_us,
        }
        run = _Run(ctx)
        run.advance(ctx.now_us)
        if argument:
            path = posixpath.normpath(
                argument if argument.startswith("/") else f"{ctx.cwd}/{argument}"
            )
            if argument.startswith("~/"):
                path = posixpath.normpath(ctx.home + argument[1:])
            root = f"{ctx.home}/{MUSIC_DIR}/"
            rel = path[len(root) :] if path.startswith(root) else None
            if rel is None or rel not in run.by_path:
                state["error"] = (
                    f"{posixpath.basename(path)} is not a track of the library (~/{MUSIC_DIR})."
                )
            else:
                state["selected"] = rel
                self._play_track(ctx, state, run, rel)
        run.finish(state)
        return state

    def title(self, state: dict) -> str:
        return ""  # the theme's label: "Rhythmbox"

    # -- events ------------------------------------------------------------------------
    def _begin(self, ctx: AppContext, state: dict) -> _Run:
        run = _Run(ctx)
        run.advance(ctx.now_us)
        state["at_us"] = ctx.now_us
        return run

    def _writable(self, state: dict, run: _Run) -> bool:
        if run.problem:
            state["error"] = run.problem
            return False
        return True

    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        return self._command(ctx, state, target, double=False)

    def double_click(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        return self._command(ctx, state, target, double=True)

    def _known(self, state: dict, run: _Run, target: str) -> bool:
        simple = {"prev", "play", "next", "shuffle", "repeat", "volume-down", "volume-up", "mute",
                  "source:library", "source:queue", "play-selected"}  # fmt: skip
        if target in simple:
            return True
        if target == "dismiss":
            return bool(state["error"] or run.problem)
        view = state["view"]
        if view == "library":
            if target in ("queue-add", "queue-next"):
                return True
            if target.startswith("track:"):
                return target[6:] in run.by_path
            return False
        if target in ("queue-remove", "queue-clear"):
            return True
        if target.startswith("queued:"):
            n = target[7:]
            return n.isdigit() and int(n) < len(run.player["queue"]) and str(int(n)) == n
        return False

    def _command(self, ctx: AppContext, state: dict, target: str, double: bool) -> Any:
        run = _Run(ctx)
        run.advance(ctx.now_us)
        if not self._known(state, run, target):
            raise UnknownTarget(
                target
            )  # nothing is written: the next event catches up the same way
        state["at_us"] = ctx.now_us
        if target != "dismiss":
            state["error"] = ""
        self._do(ctx, state, run, target, double)
        run.finish(state)
        return None

    def _do(self, ctx: AppContext, state: dict, run: _Run, target: str, double: bool) -> None:
        if target == "dismiss":
            state["error"] = ""
        elif target.startswith("source:"):
            state["view"] = target[7:]
        elif target in ("volume-down", "volume-up", "mute"):
            self._volume(ctx, state, target)
        elif target.startswith("track:"):
            state["selected"] = target[6:]
            if double:
                self._play_track(ctx, state, run, target[6:])
        elif target.startswith("queued:"):
            n = int(target[7:])
            state["queue_sel"] = n
            if double:
                self._play_queued(ctx, state, run, n)
        elif not self._writable(state, run):
            return
        elif target == "play":
            self._toggle(ctx, state, run)
        elif target == "next":
            self._next(ctx, state, run)
        elif target == "prev":
            self._prev(ctx, state, run)
        elif target == "shuffle":
            run.player["shuffle"] = not run.player["shuffle"]
            if run.player["shuffle"]:
                run.player["shuffle_seed"] = ctx.now_us
            run.changed = True
        elif target == "repeat":
            run.player["repeat"] = not run.player["repeat"]
            run.changed = True
        elif target == "play-selected":
            self._play_selected(ctx, state, run)
        elif target in ("queue-add", "queue-next"):
            self._enqueue(state, run, first=target == "queue-next")
        elif target == "queue-remove":
            self._dequeue(state, run)
        elif target == "queue-clear":
            if run.player["queue"]:
                run.player["queue"] = []
                run.changed = True
            state["queue_sel"] = None

    # -- commands ----------------------------------------------------------------------
    def _volume(self, ctx: AppContext, state: dict, target: str) -> None:
        machine = ctx.machine
        s = read_settings(machine)
        try:
            if target == "mute":
                change_setting(machine, "muted", not s["muted"])
            else:
                step = VOLUME_STEP if target == "volume-up" else -VOLUME_STEP
                change_setting(machine, "volume", max(0, min(100, s["volume"] + step)))
                if s["muted"] and step > 0:
                    change_setting(machine, "muted", False)
        except (ValueError, UserDataError) as exc:
            state["error"] = f"Could not change the volume: {exc}"

    def _play_track(self, ctx: AppContext, state: dict, run: _Run, path: str) -> None:
        if not self._writable(state, run):
            return
        track = run.by_path.get(path)
        if track is None:
            state["error"] = f"{path} is no longer in ~/{MUSIC_DIR}."
            return
        if not track.duration:
            state["error"] = (
                f"Could not play “{track.title}”: ~/{MUSIC_DIR}/{path} is not an audio file Rhythmbox can read."
            )
            return
        run.start(path, ctx.now_us)

    def _play_queued(self, ctx: AppContext, state: dict, run: _Run, n: int) -> None:
        if not self._writable(state, run):
            return
        path = run.player["queue"][n]
        if not run.duration(path):
            state["error"] = (
                f"Could not play {path}: it is gone from ~/{MUSIC_DIR} or not an audio file Rhythmbox can read."
            )
            return
        run.player["queue"].pop(n)
        run.start(path, ctx.now_us)
        q = len(run.player["queue"])
        state["queue_sel"] = min(n, q - 1) if q else None

    def _play_selected(self, ctx: AppContext, state: dict, run: _Run) -> None:
        if state["view"] == "queue":
            n = state["queue_sel"]
            if n is None or n >= len(run.player["queue"]):
                state["error"] = "Select a track of the play queue first."
                return
            self._play_queued(ctx, state, run, n)
            return
        sel = state["selected"]
        if sel is None or sel not in run.by_path:
            state["error"] = "Select a track first."
            return
        self._play_track(ctx, state, run, sel)

    def _toggle(self, ctx: AppContext, state: dict, run: _Run) -> None:
        p = run.player
        now = ctx.now_us
        if p["current"] is None or not run.duration(p["current"]):
            if p["queue"]:
                nxt = run.following()
                if nxt is not None:
                    run.start(nxt, now)
                    return
            sel = state["selected"] if state["view"] == "library" else None
            if sel is not None and sel in run.by_path:
                self._play_track(ctx, state, run, sel)
                return
            order = run.order()
            if not order:
                state["error"] = (
                    f"There is nothing to play: put audio files (WAV, FLAC, Ogg, MP3) in ~/{MUSIC_DIR}."
                )
                return
            run.start(order[0], now)
            return
        if p["playing"]:
            p["position_us"] = min(_position(p, now), run.duration(p["current"]) or 0)
            p["playing"], p["started_us"] = False, None
        else:
            p["playing"], p["started_us"] = True, now
            run.count()
        run.changed = True

    def _next(self, ctx: AppContext, state: dict, run: _Run) -> None:
        p = run.player
        if p["current"] is None and not p["queue"]:
            return
        nxt = run.following()
        if nxt is None:
            return  # the last track without repeat: Next is disabled
        run.start(nxt, ctx.now_us, playing=p["playing"] or p["current"] is None)

    def _prev(self, ctx: AppContext, state: dict, run: _Run) -> None:
        p = run.player
        if p["current"] is None:
            return
        playing = p["playing"]
        if _position(p, ctx.now_us) > RESTART_US:
            p["position_us"] = 0
            p["started_us"] = ctx.now_us if playing else None
            run.changed = True
            return
        before = run.preceding()
        if before is None:
            p["position_us"], p["started_us"] = 0, ctx.now_us if playing else None
            run.changed = True
            return
        run.start(before, ctx.now_us, playing=playing)

    def _enqueue(self, state: dict, run: _Run, first: bool) -> None:
        sel = state["selected"]
        if sel is None or sel not in run.by_path:
            state["error"] = "Select a track first."
            return
        q = run.player["queue"]
        if len(q) >= QUEUE_MAX:
            state["error"] = f"The play queue holds at most {QUEUE_MAX} tracks."
            return
        if first:
            q.insert(0, sel)
        else:
            q.append(sel)
        run.changed = True

    def _dequeue(self, state: dict, run: _Run) -> None:
        q = run.player["queue"]
        n = state["queue_sel"]
        if n is None or n >= len(q):
            state["error"] = "Select a track of the play queue first."
            return
        q.pop(n)
        run.changed = True
        state["queue_sel"] = min(n, len(q) - 1) if q else None

    # -- keys --------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        command = None
        if name in ("Space", "MediaPlayPause") or ctx.pressed(chord, "Primary+Space"):
            command = "play"
        elif name in ("Alt+ArrowRight", "MediaTrackNext"):
            command = "next"
        elif name in ("Alt+ArrowLeft", "MediaTrackPrevious"):
            command = "prev"
        elif ctx.pressed(chord, "Primary+u"):
            command = "shuffle"
        elif ctx.pressed(chord, "Primary+r"):
            command = "repeat"
        elif ctx.pressed(chord, "Primary+1"):
            command = "source:library"
        elif ctx.pressed(chord, "Primary+2"):
            command = "source:queue"
        elif name == "Enter":
            command = "play-selected"
        elif name == "Delete" and state["view"] == "queue":
            command = "queue-remove"
        if command is not None:
            self._command(ctx, state, command, double=False)
            return True
        if name == "Escape":
            if not state["error"]:
                return False
            state["error"] = ""
            return True
        if name in ("ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"):
            run = self._begin(ctx, state)
            self._move(ctx, state, run, name)
            run.finish(state)
            return True
        return False

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        if text == " ":
            self._command(ctx, state, "play", double=False)
            return True
        return False

    def _move(self, ctx: AppContext, state: dict, run: _Run, name: str) -> None:
        if state["view"] == "library":
            rows = [t.path for t in run.tracks]
            cur = rows.index(state["selected"]) if state["selected"] in rows else None
        else:
            rows = list(run.player["queue"])
            n = state["queue_sel"]
            cur = n if n is not None and n < len(rows) else None
        if not rows:
            return
        page = max(1, _list_rect(ctx.width, ctx.height, False).height // ROW_H - 1)
        if cur is None:
            new = len(rows) - 1 if name in ("End", "ArrowUp") else 0
        else:
            step = {"ArrowUp": -1, "ArrowDown": 1, "PageUp": -page, "PageDown": page}.get(name)
            new = 0 if name == "Home" else len(rows) - 1 if name == "End" else cur + step
        new = max(0, min(len(rows) - 1, new))
        if state["view"] == "library":
            state["selected"] = rows[new]
        else:
            state["queue_sel"] = new
        # keep the selected row in view
        area = _list_rect(ctx.width, ctx.height, bool(state["error"] or run.problem))
        off = ctx.scroll_offset(PANE) or 0
        y = new * ROW_H
        if y < off:
            ctx.set_scroll_offset(PANE, y or None)
        elif y + ROW_H > off + area.height:
            ctx.set_scroll_offset(PANE, y + ROW_H - area.height)

    # -- painting ----------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        tracks, more = _library(ctx)
        player, problem = _read_player(ctx)
        s = read_settings(ctx.machine)
        frozen = json.dumps(player, sort_keys=True)
        return tracks, more, frozen, problem, s["volume"], s["muted"]

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        tracks, more, frozen, problem, volume, muted = key
        player = json.loads(frozen)
        by_path = {t.path: t for t in tracks}
        banner = state["error"] or problem
        self._paint_top(p, state, player, by_path, volume, muted)
        top = _body_top(bool(banner))
        if banner:
            r = Rect(0, TOP_H, p.width, BANNER_H)
            p.box(r, (252, 232, 232, 255), key="mus-banner-bg")
            p.paint(
                Box((0, 0, 0, 0)),
                Rect(12, TOP_H + 4, p.width - 80, BANNER_H - 8),
                key="mus-alert",
                semantic=Semantic("alert", banner),
            )
            p.text(
                banner, 12, TOP_H + 9, size=13, color=ERROR, width=p.width - 90, key="mus-banner"
            )
            if state["error"]:
                p.button("dismiss", "Close", Rect(p.width - 70, TOP_H + 3, 60, 28))
        self._paint_side(p, state, player, top)
        self._paint_list(p, state, player, tracks, by_path, top)
        # status bar
        st = Rect(SIDE_W, p.height - STATUS_H, p.width - SIDE_W, STATUS_H)
        p.box(st, p.palette.get("header", p.palette["button"]), key="mus-status-bg")
        known = sum(t.duration or 0 for t in tracks)
        minutes = (known + 30 * US) // (60 * US)
        n = len(tracks)
        text = f"{n} song{'s' if n != 1 else ''}, {minutes} minute{'s' if minutes != 1 else ''}"
        if more:
            text += f" (only the first {LIBRARY_MAX} files of ~/{MUSIC_DIR} are listed)"
        p.text(text, st.x + 12, st.y + 5, size=13, color=p.palette["muted"], key="mus-status")

    def _paint_top(
        self, p: Painter, state: dict, player: dict, by_path: dict, volume: int, muted: bool
    ) -> None:
        pal = p.palette
        p.box(Rect(0, 0, p.width, TOP_H), pal.get("header", pal["button"]), key="mus-top")
        b = _top_buttons(p.width)
        cur = player["current"]
        playing = player["playing"]
        has_next = bool(player["queue"]) or (cur is not None and self._has_next(player, by_path))
        p.button("prev", "Previous", b["prev"], disabled=cur is None)
        p.button("play", "Pause" if playing else "Play", b["play"], suggested=True)
        p.button("next", "Next", b["next"], disabled=not has_next)
        for name, label, on in (
            ("shuffle", "Shuffle", player["shuffle"]),
            ("repeat", "Repeat", player["repeat"]),
        ):
            r = b[name]
            p.paint(
                RoundedBox(pal["accent"] if on else pal["button"], 6, pal["border"], 1),
                r,
                key=("mus-toggle", name),
                target=name,
                semantic=Semantic("togglebutton", label, "on" if on else "off", False, True),
                state=NodeState(checked=on),
            )
            w, h = measure(label, "sans", 13), line_height("sans", 13)
            p.paint(
                UiText(label, 13, pal["accent_text"] if on else pal["text"]),
                Rect(r.x + (r.width - w) // 2, r.y + (r.height - h) // 2, w, h),
                key=("mus-toggle-label", name),
                target=name,
            )
        _glyph_button(p, "volume-down", "−", "Volume Down", b["volume-down"])
        _glyph_button(p, "volume-up", "+", "Volume Up", b["volume-up"])
        vtext = "Muted" if muted else f"Volume {volume}%"
        vr = b["volume-label"]
        p.paint(
            UiText(vtext, 13, pal["muted"] if muted else pal["text"]),
            Rect(
                vr.x + (vr.width - measure(vtext, "sans", 13)) // 2,
                vr.y + 9,
                measure(vtext, "sans", 13),
                line_height("sans", 13),
            ),
            key="mus-volume",
            semantic=Semantic("status", "Volume", vtext),
        )
        p.button("mute", "Unmute" if muted else "Mute", b["mute"])
        # now playing
        x0 = b["next"].right + 16
        x1 = b["shuffle"].x - 16
        width = max(40, x1 - x0)
        track = by_path.get(cur) if cur is not None else None
        if cur is None:
            p.text(
                "Not playing",
                x0,
                14,
                size=15,
                bold=True,
                color=pal["muted"],
                width=width,
                key="mus-now-title",
            )
            return
        title = track.title if track else _names(cur)[1]
        artist = track.artist if track else _names(cur)[0]
        dur = track.duration if track else None
        at = state["at_us"]
        pos = player["position_us"]
        if playing and player["started_us"] is not None:
            pos += max(0, at - player["started_us"])
        if dur:
            pos = min(pos, dur)
        shown = f"{_clock(pos)} of {_clock(dur)}"
        p.text(title, x0, 10, size=15, bold=True, width=width, key="mus-now-title")
        p.text(
            f"by {artist}",
            x0,
            31,
            size=13,
            color=pal["muted"],
            width=max(0, width - 110),
            key="mus-now-artist",
        )
        tw = measure(shown, "sans", 13)
        p.text(shown, x0 + width - tw, 31, size=13, color=pal["muted"], key="mus-now-time")
        bar = Rect(x0, 54, width, 6)
        p.paint(
            RoundedBox(pal["border"], 3),
            bar,
            key="mus-progress",
            semantic=Semantic("progressbar", f"{title} by {artist}", shown),
        )
        if dur:
            fill = bar.width * pos // dur
            if fill > 0:
                p.paint(
                    RoundedBox(pal["accent"], 3),
                    Rect(bar.x, bar.y, fill, bar.height),
                    key="mus-progress-fill",
                )

    @staticmethod
    def _has_next(player: dict, by_path: dict) -> bool:
        order = _order(player, tuple(by_path.values()))
        cur = player["current"]
        if player["repeat"] and order:
            return True
        if cur in order:
            return order.index(cur) + 1 < len(order)
        return (
            any(_sort_key(by_path[x]) > _sort_key(by_path[cur]) for x in order)
            if cur in by_path
            else False
        )

    def _paint_side(self, p: Painter, state: dict, player: dict, top: int) -> None:
        pal = p.palette
        p.box(Rect(0, top, SIDE_W, p.height - top), pal["window"], key="mus-side")
        p.paint(Box(pal["border"]), Rect(SIDE_W - 1, top, 1, p.height - top), key="mus-side-edge")
        p.text("Library", 14, top + 10, size=12, bold=True, color=pal["muted"], key="mus-side-head")
        items = (
            ("source:library", "Music"),
            ("source:queue", f"Play Queue ({len(player['queue'])})"),
        )
        for i, (target, label) in enumerate(items):
            on = state["view"] == target[7:]
            r = Rect(6, top + 34 + i * 36, SIDE_W - 12, 32)
            p.paint(
                RoundedBox(pal["selection"] if on else pal["window"], 6),
                r,
                key=("mus-source", target),
                target=target,
                semantic=Semantic("tab", label, None, False, True),
                state=NodeState(selected=on),
            )
            p.text(
                label,
                r.x + 12,
                r.y + 7,
                size=14,
                bold=on,
                width=r.width - 20,
                key=("mus-source-label", target),
                target=target,
            )

    def _paint_list(
        self, p: Painter, state: dict, player: dict, tracks: tuple, by_path: dict, top: int
    ) -> None:
        pal = p.palette
        view = state["view"]
        p.box(Rect(SIDE_W, top, p.width - SIDE_W, BAR_H), pal["window"], key="mus-bar")
        for name, label, r in _bar_buttons(view, SIDE_W, top):
            p.button(name, label, r)
        cols = _columns(p.width)
        hy = top + BAR_H
        p.box(
            Rect(SIDE_W, hy, p.width - SIDE_W, HEAD_H),
            pal.get("header", pal["button"]),
            key="mus-head",
        )
        for col, label in (
            ("n", "#"),
            ("title", "Title"),
            ("artist", "Artist"),
            ("time", "Time"),
            ("plays", "Plays"),
        ):
            x, _w = cols[col]
            p.paint(
                UiText(label, 12, pal["muted"]),
                Rect(x, hy + 7, measure(label, "sans", 12), line_height("sans", 12)),
                key=("mus-col", col),
                semantic=Semantic("columnheader", label),
            )
        area = Rect(
            SIDE_W, hy + HEAD_H, max(0, p.width - SIDE_W), max(0, p.height - hy - HEAD_H - STATUS_H)
        )
        if view == "library":
            rows = [(f"track:{t.path}", t, t.path == state["selected"]) for t in tracks]
            empty = f"No music yet: put audio files (WAV, FLAC, Ogg, MP3) in ~/{MUSIC_DIR}."
        else:
            q = player["queue"]
            rows = []
            for i, path in enumerate(q):
                t = by_path.get(path) or Track(path, *_names(path), None)
                rows.append((f"queued:{i}", t, i == state["queue_sel"]))
            empty = "The play queue is empty: select a song and press “Add to Queue”."
        p.paint(
            Box(pal["field"]),
            area,
            key="mus-list-bg",
            semantic=Semantic("list", "Play Queue" if view == "queue" else "Music"),
        )
        if not rows:
            p.text(
                empty,
                area.x + 16,
                area.y + 16,
                size=14,
                color=pal["muted"],
                width=area.width - 32,
                key="mus-empty",
            )
            return
        offset = p.scroll(PANE, area, len(rows) * ROW_H)
        cur = player["current"]
        with p.clipped(area):
            for i, (target, t, selected) in enumerate(rows):
                y = area.y + i * ROW_H - offset
                if y + ROW_H <= area.y or y >= area.bottom:
                    continue
                p.reuse(
                    (
                        "mus-row",
                        target,
                        t,
                        selected,
                        t.path == cur,
                        player["playing"],
                        player["plays"].get(t.path, 0),
                        y,
                        i,
                    ),
                    _paint_row,
                    target,
                    t,
                    selected,
                    t.path == cur,
                    player["playing"],
                    player["plays"].get(t.path, 0),
                    Rect(area.x, y, area.width, ROW_H),
                    i,
                    cols,
                )


def _glyph_button(p: Painter, name: str, glyph: str, label: str, rect: Rect) -> None:
    """A push button showing ``glyph`` whose accessible name is ``label``."""
    pal = p.palette
    p.paint(
        RoundedBox(pal["button"], 6, pal["border"], 1),
        rect,
        key=("mus-glyph", name),
        target=name,
        semantic=Semantic("button", label, None, False, True),
    )
    w, h = measure(glyph, "sans", 16), line_height("sans", 16)
    p.paint(
        UiText(glyph, 16, pal["text"]),
        Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
        key=("mus-glyph-label", name),
        target=name,
    )


def _paint_row(
    p: Painter,
    target: str,
    t: Track,
    selected: bool,
    current: bool,
    playing: bool,
    plays: int,
    r: Rect,
    i: int,
    cols: dict,
) -> None:
    pal = p.palette
    label = f"{t.title} by {t.artist}, {_clock(t.duration)}"
    if current:
        label += ", playing" if playing else ", paused"
    p.paint(
        Box(pal["selection"] if selected else (0, 0, 0, 0)),
        r,
        key=("mus-row", target),
        target=target,
        semantic=Semantic("row", label, t.path, False, True),
        state=NodeState(selected=selected),
    )
    ty = r.y + (r.height - line_height("sans", 14)) // 2
    ink = pal["accent"] if current else pal["text"]
    nx, _nw = cols["n"]
    mark = ("▶" if playing else "‖") if current else str(i + 1)
    p.text(
        mark,
        nx,
        ty,
        size=13,
        color=pal["muted"] if not current else ink,
        key=("mus-row-n", target),
        target=target,
    )
    for col, text in (
        ("title", t.title),
        ("artist", t.artist),
        ("time", _clock(t.duration)),
        ("plays", str(plays) if plays else ""),
    ):
        x, w = cols[col]
        if text:
            p.text(
                text,
                x,
                ty,
                size=14,
                bold=current and col == "title",
                color=ink if col == "title" else pal["text"],
                width=max(0, w - 10),
                key=(f"mus-row-{col}", target),
                target=target,
            )


register(Music())
