"""Collect episodes over workers and write them as a reproducible rollouts directory.

A rollouts directory (format :data:`ROLLOUTS_FORMAT`) holds one JSON file per episode,
``episodes/<index>-<seed>.json``, optionally its screens, ``frames/<index>-<seed>/<step>.png``
(step 0 is the screen after the reset), and ``rollouts.json``, the index: what was played
(env id, agent, seeds, episode count, engine version), the file list and a summary. It is
written last, so a directory without it is a run that did not finish.

Episode ``i`` is played on seed ``seed + i`` by a *player* (:class:`Player`, made once per
worker by a picklable factory). Every file is a function of the episode alone: JSON with
sorted keys, floats as Python's ``repr`` (the shortest text that reads back to the same
double, so a value is the same bytes in every process), PNG through Pillow without a
timestamp; nothing depends on the worker count, the Ray address or the time. With one
worker and no address the players run in this process; otherwise on Ray
(:class:`Workers`), each worker a Ray actor that is handed episodes as it finishes them.

What an episode *is* — the agent, its sealed view of the task — is the player's business:
``cwgym rollouts`` plays an agent through ``cwgym eval``'s episode loop
(:mod:`cwgym.cli.rollouts`), which sits above this layer.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import shutil
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from cwgym._version import __version__, engine_version

__all__ = [
    "INDEX_FILE",
    "ROLLOUTS_FORMAT",
    "Played",
    "Player",
    "RolloutError",
    "Workers",
    "check_out",
    "collect",
    "dumps",
    "episode_file",
    "frames_folder",
    "png",
    "prepare_out",
    "read_index",
]

ROLLOUTS_FORMAT = "cwgym-rollouts/1"
INDEX_FILE = "rollouts.json"
#: What a rollouts directory may hold; ``--overwrite`` replaces only these.
OWN_ENTRIES = frozenset({INDEX_FILE, "episodes", "frames"})
#: The record fields the index's summary is made from (kept per episode while collecting).
SUMMARY_KEYS = ("env_id", "success", "return", "steps", "failure", "families")
RAY_MISSING = "pip install 'cwgym[ray]'"
CONNECT_TIMEOUT = 5.0  # seconds to reach a Ray address before ray.init is tried


class RolloutError(ValueError):
    """A collection that cannot run as asked: a bad option, an output folder in use, Ray
    missing or unreachable, or a worker whose cwgym differs from this one."""


@dataclass
class Played:
    """One finished episode: its record (JSON data) and its screens as PNG bytes."""

    index: int
    seed: int
    record: dict[str, Any]
    frames: list[bytes] = field(default_factory=list)


class Player(Protocol):
    """Plays episodes in one worker; made there by the factory given to :func:`collect`."""

    def play(self, index: int, seed: int) -> Played: ...

    def close(self) -> None: ...


# -- files -------------------------------------------------------------------------------------
def episode_file(index: int, seed: int) -> str:
    """The episode's file, relative to the rollouts directory."""
    return f"episodes/{index}-{seed}.json"


def frames_folder(index: int, seed: int) -> str:
    """The folder of the episode's screens, relative to the rollouts directory."""
    return f"frames/{index}-{seed}"


def dumps(value: Any) -> str:
    """``value`` as the JSON text of a rollouts file: sorted keys, one-space indent,
    floats as ``repr``, ASCII; ``ValueError`` on NaN or infinity (which JSON cannot hold)."""
    return json.dumps(value, sort_keys=True, indent=1, allow_nan=False) + "\n"


def png(frame: np.ndarray) -> bytes:
    """An ``(H, W, 3)`` ``uint8`` frame as PNG bytes (no timestamp or other metadata)."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(frame, dtype=np.uint8)).save(buffer, format="PNG")
    return buffer.getvalue()


def check_out(out: Path, overwrite: bool = False) -> list[str]:
    """The names in ``out`` that :func:`prepare_out` would delete; it changes nothing.

    A folder that holds anything is refused, so two runs never mix; with ``overwrite``
    a previous rollouts directory (only ``rollouts.json``, ``episodes/``, ``frames/``,
    finished or not) may be replaced. Anything else is never deleted.

    Raises:
        RolloutError: ``out`` is a file, or a folder in use.
    """
    if out.exists() and not out.is_dir():
        raise RolloutError(f"--out {out} is a file; give a new or empty directory")
    entries = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
    if entries and not overwrite:
        raise RolloutError(
            f"--out {out} is not empty; give a new or empty directory, or --overwrite to replace the rollouts in it"
        )
    foreign = [name for name in entries if name not in OWN_ENTRIES]
    if foreign:
        raise RolloutError(
            f"--out {out} holds {', '.join(foreign[:3])}{' ...' if len(foreign) > 3 else ''}, "
            "which is not part of a rollouts directory; --overwrite replaces only a rollouts directory"
        )
    return entries


def prepare_out(out: Path, overwrite: bool = False) -> None:
    """Make ``out`` an empty rollouts directory, as :func:`check_out` allows (and raises)."""
    for name in check_out(out, overwrite):
        path = out / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    (out / "episodes").mkdir(parents=True, exist_ok=True)


def _write_episode(out: Path, played: Played) -> dict[str, Any]:
    name = episode_file(played.index, played.seed)
    (out / name).write_text(dumps(played.record))
    entry: dict[str, Any] = {"index": played.index, "seed": played.seed, "file": name}
    if played.frames:
        folder = out / frames_folder(played.index, played.seed)
        folder.mkdir(parents=True, exist_ok=True)
        for step, data in enumerate(played.frames):
            (folder / f"{step}.png").write_bytes(data)
        entry["frames"] = {"folder": frames_folder(played.index, played.seed), "count": len(played.frames)}
    return entry


def read_index(directory: Path) -> dict[str, Any]:
    """The ``rollouts.json`` of ``directory``, checked to be of :data:`ROLLOUTS_FORMAT`.

    Raises:
        RolloutError: no readable index, or one of another format.
    """
    try:
        index = json.loads((directory / INDEX_FILE).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RolloutError(f"no readable {INDEX_FILE} in {directory} ({exc})") from None
    if not isinstance(index, dict) or index.get("format") != ROLLOUTS_FORMAT:
        found = index.get("format") if isinstance(index, dict) else None
        raise RolloutError(f"{directory / INDEX_FILE}: format {found!r} is not {ROLLOUTS_FORMAT}")
    return index


# -- workers -----------------------------------------------------------------------------------
class _Worker:
    """A Ray actor's state: one player, kept for every episode the actor is handed."""

    def __init__(self, make_player: Callable[[], Player]) -> None:
        self.player = make_player()

    def play(self, index: int, seed: int) -> Played:
        return self.player.play(index, seed)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RolloutError(f"--workers above 1 and --address run the episodes on Ray, which is not installed: {RAY_MISSING}") from None
    return ray


def _host_port(address: str) -> tuple[str, int] | None:
    """The ``host:port`` a Ray address connects to (``auto`` resolved as Ray resolves it),
    or ``None`` when it cannot be told before connecting."""
    target = address.removeprefix("ray://")
    if target == "auto":
        try:
            from ray._private.services import canonicalize_bootstrap_address
        except ImportError:
            return None
        try:
            target = canonicalize_bootstrap_address("auto")
        except (ConnectionError, ValueError) as exc:
            raise RolloutError(f"--address auto: {' '.join(str(exc).split())}") from None
        if target is None:
            return None
    host, sep, port = target.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise RolloutError(f"--address {address!r} is not host:port, ray://host:port or auto")
    return host.strip("[]"), int(port)


def _reachable(address: str) -> None:
    where = _host_port(address)
    if where is None:
        return
    try:
        socket.create_connection(where, timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise RolloutError(
            f"--address {address}: cannot reach a Ray cluster at {where[0]}:{where[1]} ({reason}); "
            "start one with `ray start --head` or fix the address"
        ) from None


class Workers:
    """Where episodes are played: one player in this process, or Ray actors with a player each.

    One worker and no address: this process. Otherwise ``workers`` Ray actors on the
    cluster at ``address``, or on a new local Ray (loopback only) with ``workers`` CPUs; a
    Ray connection this process already has is used as it is and left open, one this
    object opened is shut down on exit. Entering connects and starts the actors, so a Ray
    problem shows before any episode is played.

    Raises (on entering):
        RolloutError: a bad worker count, Ray not installed or unreachable, or a cluster
            with fewer CPUs than workers.
    """

    def __init__(self, make_player: Callable[[], Player], workers: int = 1, address: str | None = None) -> None:
        if workers < 1:
            raise RolloutError(f"--workers must be at least 1, got {workers}")
        self.make_player = make_player
        self.workers = workers
        self.address = address
        self.player: Player | None = None
        self.ray: Any = None
        self.actors: list[Any] = []
        self.started_ray = False

    @property
    def on_ray(self) -> bool:
        return self.workers > 1 or self.address is not None

    def __enter__(self) -> Workers:
        if not self.on_ray:
            self.player = self.make_player()
            return self
        self.ray = ray = _import_ray()
        if self.address is not None:
            _reachable(self.address)
        if not ray.is_initialized():
            self._init()
        try:
            cpus = ray.cluster_resources().get("CPU", 0)
            if cpus < self.workers:
                raise RolloutError(f"--workers {self.workers}: the Ray cluster has {cpus:g} CPUs, one is needed per worker")
            actor_class = ray.remote(num_cpus=1)(_Worker)
            self.actors = [actor_class.remote(self.make_player) for _ in range(self.workers)]
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _init(self) -> None:
        options: dict[str, Any] = {"logging_level": logging.WARNING}
        if "CWGYM_DATA" in os.environ:  # the workers read the same data folder (--data)
            options["runtime_env"] = {"env_vars": {"CWGYM_DATA": os.environ["CWGYM_DATA"]}}
        try:
            if self.address is None:  # "local": a new Ray, never a cluster some other process started
                self.ray.init(address="local", num_cpus=self.workers, include_dashboard=False, _node_ip_address="127.0.0.1", **options)
            else:
                self.ray.init(address=self.address, **options)
        except ConnectionError as exc:
            raise RolloutError(f"--address {self.address}: {' '.join(str(exc).split())}") from None
        self.started_ray = True

    def __exit__(self, *exc_info: Any) -> None:
        if self.player is not None:
            self.player.close()
            self.player = None
        for actor in self.actors:
            with contextlib.suppress(Exception):  # an actor already gone, or a cluster that went away
                self.ray.kill(actor)
        self.actors = []
        if self.started_ray:
            self.ray.shutdown()
            self.started_ray = False

    def play(self, jobs: list[tuple[int, int]]) -> Iterator[Played]:
        """Each ``(index, seed)`` of ``jobs`` played, in the order they finish.

        Raises:
            RolloutError: a Ray worker died, or lacks what the player needs.
        """
        if self.player is not None:
            for index, seed in jobs:
                yield self.player.play(index, seed)
            return
        ray, queue = self.ray, iter(jobs)
        pending: dict[Any, tuple[Any, int, int]] = {}

        def hand(actor: Any) -> None:
            job = next(queue, None)
            if job is not None:
                pending[actor.play.remote(*job)] = (actor, *job)

        for actor in self.actors:  # two episodes each: the next one waits in the actor while the driver writes
            hand(actor)
            hand(actor)
        while pending:
            (ref,), _ = ray.wait(list(pending), num_returns=1)
            actor, index, seed = pending.pop(ref)
            try:
                played = ray.get(ref)
            except ray.exceptions.RayActorError as exc:
                raise RolloutError(f"the Ray worker playing episode {index} (seed {seed}) died: {str(exc).splitlines()[0]}") from None
            except ray.exceptions.RayTaskError as exc:
                if isinstance(exc.cause, (RolloutError, ImportError)):  # the worker lacks what this process has
                    raise RolloutError(f"episode {index} (seed {seed}) on a Ray worker: {exc.cause}") from None
                raise
            hand(actor)
            yield played


# -- collecting --------------------------------------------------------------------------------
def collect(
    make_player: Callable[[], Player],
    out: Path,
    *,
    episodes: int,
    seed: int = 0,
    header: dict[str, Any],
    workers: int = 1,
    address: str | None = None,
    expect: dict[str, Any] | None = None,
    summarize: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None,
    progress: bool = True,
    overwrite: bool = False,
) -> dict[str, Any]:
    """Play episodes ``0..episodes-1`` on seeds ``seed + i`` and write the rollouts directory ``out``.

    Each episode's files are written as it arrives, ``rollouts.json`` at the end: the
    ``header`` fields (what the caller played: env id, agent, ...), then the format, engine
    and cwgym versions, seeds, episode count, the file list in index order and, with
    ``summarize``, the summary it makes of the records' :data:`SUMMARY_KEYS`. Every record
    must carry ``expect``'s values (a worker that loads another cwgym or data folder would
    not). A tqdm bar on stderr counts episodes unless ``progress`` is false. Returns the index.

    Raises:
        RolloutError: a bad count, seed or output folder (see :func:`prepare_out`), a Ray
            problem (see :class:`Workers`) or a record that does not carry ``expect``.
    """
    if episodes < 1:
        raise RolloutError(f"--episodes must be at least 1, got {episodes}")
    if seed < 0:
        raise RolloutError(f"--seed must be 0 or more, got {seed}")
    jobs = [(i, seed + i) for i in range(episodes)]
    entries: dict[int, dict[str, Any]] = {}
    kept: dict[int, dict[str, Any]] = {}
    from tqdm import tqdm

    check_out(out, overwrite)
    with Workers(make_player, workers, address) as pool, tqdm(total=episodes, desc="rollouts", unit="ep", disable=not progress) as bar:
        prepare_out(out, overwrite)  # once Ray is up: a Ray problem leaves the folder as it was
        for played in pool.play(jobs):
            wrong = {k: played.record.get(k) for k, v in (expect or {}).items() if played.record.get(k) != v}
            if wrong:
                key = next(iter(wrong))
                raise RolloutError(
                    f"episode {played.index} came back with {key} {json.dumps(wrong[key])[:80]}, not this process's "
                    f"{json.dumps(expect[key])[:80]}: every Ray node needs the same cwgym and data folder"
                )
            entries[played.index] = _write_episode(out, played)
            kept[played.index] = {k: played.record.get(k) for k in SUMMARY_KEYS}
            bar.update(1)
    index = {
        **header,
        "format": ROLLOUTS_FORMAT,
        "engine_version": engine_version,
        "cwgym_version": __version__,
        "seed": seed,
        "episodes": episodes,
        "seeds": [s for _, s in jobs],
        "files": [entries[i] for i in range(episodes)],
    }
    if summarize is not None:
        index["summary"] = summarize([kept[i] for i in range(episodes)])
    (out / INDEX_FILE).write_text(dumps(index))
    return index
