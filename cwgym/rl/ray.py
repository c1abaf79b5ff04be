"""The Ray vector env: the worlds live in Ray actors, on one machine or across a cluster.

``RayVectorEnv(num_envs, procedure, actors=k)`` (or ``gymnasium.make_vec(id, num_envs=N,
vectorization_mode="vector_entry_point", backend="ray", actors=k)``) splits the envs into
``k`` contiguous slices, like :class:`~cwgym.rl.shared_memory.SharedMemoryVectorEnv`'s
workers. Each actor (one CPU) builds the configuration's template world once and runs its
slice as a :class:`~cwgym.rl.batch.Batch` over forks of it. A batch step is one remote
call per actor; each returns its ``Box`` observations as numpy arrays (which Ray passes
without pickling them), copied into the batch arrays here, with rewards, flags, text
entries and infos. Seeds, autoreset, results, rendering and action masks are those of
:class:`~cwgym.rl.vector.ComputerVectorEnv`.

Failures: after every reset, and every ``checkpoint_every`` batch steps, each actor returns
a checkpoint with its step (its episodes pickled, each world as an exported snapshot, with
the autoreset generators and flags), and this env logs the actions it sends after it. When
an actor dies, a new one is started, restored from that checkpoint, replays the logged
actions (a run is a pure function of its actions, so it reaches the same state) and takes
the failed call again: the result is the one an uninterrupted run gives, and that call's
infos say which envs were moved (``infos["actor_restarted"]``). An actor that needs more
than ``max_restarts`` restarts is a ``RuntimeError``. An exception inside an actor (a
malformed action, say) is raised here with its remote traceback, after every actor was
rolled back to where it was before the call.

Ray: if it is not initialised, the env calls ``ray.init(address=address)`` itself (no
dashboard, warnings only) and shuts it down when the last env relying on it closes; a Ray
the caller initialised is never shut down. Actors import cwgym on the node they run on,
with that node's data folder (a procedure registered as data is sent to them).
"""

from __future__ import annotations

import gc
import logging
import pickle
import warnings
from copy import deepcopy
from typing import Any

import numpy as np
from gymnasium.error import ClosedEnvironmentError, ResetNeeded
from gymnasium.utils import seeding
from gymnasium.vector.utils import batch_space, create_empty_array, iterate

try:
    import ray
    from ray.exceptions import ObjectLostError, RayActorError, RayTaskError
except ImportError as exc:  # pragma: no cover - exercised in a subprocess without ray
    raise ImportError("cwgym.rl.ray needs Ray: pip install 'cwgym[ray]'") from exc

from cwgym.procedures.library import add_procedure, procedure_path
from cwgym.rl.batch import METADATA, Batch, BatchedVectorEnv, reset_arguments
from cwgym.rl.blueprint import Blueprint
from cwgym.rl.collector import collector_paused
from cwgym.rl.config import task_config

__all__ = ["RayVectorEnv"]

#: What a dead actor (or its node) looks like at ``ray.get``.
LOST = (RayActorError, ObjectLostError)
#: Seconds without every actor placed before the env warns that the cluster lacks room.
PENDING_WARNING_SECONDS = 30.0

_owned: dict[str, Any] = {"address": None, "users": 0}  # the Ray this module started, and the envs using it


def _packed(value: Any) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _unpacked(reply: tuple) -> tuple:
    """An actor's ``(boxes, packed, checkpoint)`` reply with the pickle read."""
    boxes, packed, checkpoint = reply
    with collector_paused():
        return boxes, pickle.loads(packed), checkpoint


class WorldsActor:
    """One actor's slice of the envs: a :class:`Batch` over forks of one template world.

    ``reset`` and ``step`` return three objects: the actor's ``Box`` arrays whole (Ray
    serialises them at return, without pickling, so the next step can overwrite them
    here), the rest of the result as one plain pickle (Ray's own pickler visits each object
    of the nested infos in Python, several times slower), and the checkpoint (or ``None``).
    Separate objects each stay under Ray's limit for replies passed inline (100 KiB),
    where one would often go through the object store.
    """

    def __init__(self, kwargs: dict[str, Any], count: int, procedure: Any = None) -> None:
        if procedure is not None:
            add_procedure(procedure)
        self.blueprint = Blueprint(task_config(kwargs))
        observations = self.blueprint.observations
        arrays = create_empty_array(observations.space, n=count, fn=np.zeros)
        self.boxes = {key: arrays[key] for key in observations.box_keys}
        self.rows = [{key: array[i] for key, array in self.boxes.items()} for i in range(count)]
        self.batch = Batch(self.blueprint, self.rows)
        self.renderers: list[Any] = []
        gc.freeze()  # Ray's and the template's objects are long-lived: keep the collector off them

    def node_id(self) -> str:
        """The Ray node this actor runs on (also the readiness probe)."""
        return ray.get_runtime_context().get_node_id()

    @ray.method(num_returns=3)
    def reset(self, seeds: list, options: dict | None, mask: list[bool] | None) -> tuple:
        texts, infos = self.batch.reset(seeds, options, mask)
        return self.boxes, _packed((texts, infos)), self.checkpoint()

    @ray.method(num_returns=3)
    def step(self, actions: list[Any], checkpoint: bool) -> tuple:
        result = self.batch.step(actions)
        return self.boxes, _packed(result), self.checkpoint() if checkpoint else None

    def checkpoint(self) -> bytes:
        """Everything the slice's next steps depend on: episodes, generators, autoreset flags."""
        batch = self.batch
        saved = {
            "episodes": [episode.state() for episode in batch.episodes],
            "rngs": list(batch.rngs),
            "autoreset": [bool(flag) for flag in batch.autoreset],
        }
        return _packed(saved)

    def restore(self, checkpoint: bytes | None, log: list[list[Any]]) -> None:
        """Go back to ``checkpoint`` (``None``: never reset) and replay the logged steps."""
        self.batch = Batch(self.blueprint, self.rows)
        if checkpoint is not None:
            saved = pickle.loads(checkpoint)
            for episode, state in zip(self.batch.episodes, saved["episodes"]):
                if state is not None:
                    episode.resume(state)
            self.batch.rngs[:] = saved["rngs"]
            self.batch.autoreset[:] = saved["autoreset"]
        for actions in log:
            self.batch.step(actions)

    def render(self, mode: str) -> list[Any]:
        from cwgym.render import Renderer

        if len(self.renderers) != len(self.rows):
            self.renderers = [Renderer() for _ in self.rows]
        return self.batch.render(mode, self.renderers)

    def state_hashes(self) -> list[str | None]:
        return [e.world.state_hash() if e.actor is not None else None for e in self.batch.episodes]


REMOTE_ACTOR = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(WorldsActor)


def _positive_int(name: str, value: Any, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise ValueError(f"RayVectorEnv: {name} must be an int >= {least}, got {value!r}")
    return int(value)


def _gcs_address() -> str:
    try:
        return ray.get_runtime_context().gcs_address
    except Exception:  # a Ray Client connection may not tell
        return "an unknown address"


def _connect(address: str | None) -> bool:
    """Make sure Ray is initialised, on ``address`` if given; whether this env relies on a
    Ray this module started (counted in ``_owned``, shut down when its last env closes)."""
    if ray.is_initialized():
        current = _gcs_address()
        if address not in (None, "auto") and address.removeprefix("ray://") != current:
            raise ValueError(
                f"RayVectorEnv: address={address!r}, but Ray is already initialised and connected to "
                f"{current!r}: pass address=None to use it, or ray.shutdown() first"
            )
    else:
        ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING)
        _owned.update(address=_gcs_address(), users=0)
    owned = _owned["address"] is not None and _gcs_address() == _owned["address"]
    if owned:
        _owned["users"] += 1
    return owned


def _release() -> None:
    """One env less on the Ray this module started: shut it down after the last one."""
    _owned["users"] -= 1
    if _owned["users"] <= 0:
        if ray.is_initialized() and _gcs_address() == _owned["address"]:
            ray.shutdown()
        _owned.update(address=None, users=0)


class RayVectorEnv(BatchedVectorEnv):
    """N envs in ``actors`` Ray actors, restarted from checkpoints when they die.

    See the module docstring for how it works.

    Args:
        num_envs: how many worlds.
        procedure, **config: the configuration, as for :class:`~cwgym.rl.env.ComputerEnv`.
        actors: how many actors (at most ``num_envs``), one CPU each; each runs a
            contiguous slice of the envs.
        address: the Ray cluster to start or join when Ray is not initialised (``None``: a
            local one, or ``RAY_ADDRESS``; ``"auto"``; ``"host:port"``; ``"ray://host:port"``).
            With Ray already initialised it must be ``None``, ``"auto"`` or that cluster's
            address.
        checkpoint_every: batch steps between checkpoints (a reset always takes one): a
            longer interval costs less while stepping and more replay after a failure.
        max_restarts: how many times one actor may be replaced before the env gives up.
        render_mode, copy: as for :class:`~cwgym.rl.vector.ComputerVectorEnv`.

    Raises:
        ValueError: a bad option, an address other than the connected cluster's, or more
            actors than the cluster has CPUs.
        RuntimeError: an actor could not be started.
    """

    closed = True  # until the actors run

    def __init__(
        self,
        num_envs: int,
        procedure: str,
        *,
        actors: int = 2,
        address: str | None = None,
        checkpoint_every: int = 32,
        max_restarts: int = 3,
        render_mode: str | None = None,
        copy: bool = True,
        **config: Any,
    ) -> None:
        num_envs = _positive_int("num_envs", num_envs)
        actors = _positive_int("actors", actors)
        self.checkpoint_every = _positive_int("checkpoint_every", checkpoint_every)
        self.max_restarts = _positive_int("max_restarts", max_restarts, least=0)
        if address is not None and not isinstance(address, str):
            raise ValueError(f"RayVectorEnv: address must be a str or None, got {address!r}")
        if render_mode is not None and render_mode not in METADATA["render_modes"]:
            raise ValueError(f"render_mode must be one of {METADATA['render_modes']} or None, got {render_mode!r}")
        self._kwargs = {"procedure": procedure, **config}
        self.config = task_config(self._kwargs)
        blueprint = Blueprint(self.config)  # checks the configuration before any actor starts
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.copy = copy
        self.single_observation_space = blueprint.observations.space
        self.single_action_space = blueprint.actions.space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._observations = create_empty_array(self.single_observation_space, n=num_envs, fn=np.zeros)
        self._box_keys = list(blueprint.observations.box_keys)
        self._text_keys = [k for k in blueprint.observations.keys if k not in blueprint.observations.box_keys]
        try:
            procedure_path(self.config.procedure)
            self._procedure = None  # a library file: every node has it
        except KeyError:
            self._procedure = blueprint.procedure  # given as data in this process: send it
        actors = min(actors, num_envs)
        bounds = [round(num_envs * k / actors) for k in range(actors + 1)]
        self._slices = [(bounds[k], bounds[k + 1]) for k in range(actors)]
        self._checkpoints: list[bytes | None] = [None] * actors
        self._logs: list[list[list[Any]]] = [[] for _ in range(actors)]
        self._restarts = [0] * actors
        self._since_checkpoint = 0
        self._actors: list[Any] = []
        self._owned_ray = _connect(address)
        self.closed = False
        try:
            cpus = ray.cluster_resources().get("CPU", 0)
            if actors > cpus:
                raise ValueError(f"RayVectorEnv: actors={actors} need {actors} CPUs (one each), the Ray cluster has {cpus:g}")
            self._actors = [self._spawn(k) for k in range(actors)]
            self._wait_ready(list(range(actors)))
        except BaseException:
            self.close()
            raise

    # -- the actors -----------------------------------------------------------------------
    def _spawn(self, k: int) -> Any:
        start, stop = self._slices[k]
        return REMOTE_ACTOR.options(scheduling_strategy="SPREAD").remote(self._kwargs, stop - start, self._procedure)

    def _wait_ready(self, which: list[int]) -> None:
        """Wait until actors ``which`` run, warning if the cluster leaves them unplaced."""
        refs = [self._actors[k].node_id.remote() for k in which]
        pending, warned = refs, False
        while pending:
            _, pending = ray.wait(pending, num_returns=len(pending), timeout=PENDING_WARNING_SECONDS)
            if pending and not warned:
                warned = True
                warnings.warn(
                    f"RayVectorEnv: {len(pending)} of {len(refs)} actors not placed after {PENDING_WARNING_SECONDS:g} s; "
                    f"each needs 1 CPU and the cluster has {ray.available_resources().get('CPU', 0):g} free",
                    stacklevel=3,
                )
        for k, ref in zip(which, refs):
            try:
                ray.get(ref)
            except (RayTaskError, *LOST) as err:
                raise RuntimeError(f"RayVectorEnv: {self._name(k)} could not start: {err}") from err

    def _name(self, k: int) -> str:
        start, stop = self._slices[k]
        return f"actor {k} (envs {start}..{stop - 1})"

    def _call(self, method: str, per_actor: list[tuple], decode: Any = None) -> tuple[list[Any], list[int]]:
        """Call ``method`` on every actor; the results (each through ``decode`` as soon as it
        arrives, so the replies of actors that finish first are read while the others still
        work), in actor order, and the actors replaced on the way."""
        if self.closed:
            raise ClosedEnvironmentError(f"RayVectorEnv.{method}: the env is closed")
        refs = [getattr(actor, method).remote(*args) for actor, args in zip(self._actors, per_actor)]
        results: list[Any] = [None] * len(refs)
        restarted: list[int] = []
        failure: tuple[int, RayTaskError] | None = None
        waiting = {(ref[0] if isinstance(ref, list) else ref): k for k, ref in enumerate(refs)}
        while waiting:
            done, _ = ray.wait(list(waiting), num_returns=1)
            k = waiting.pop(done[0])
            try:
                result = ray.get(refs[k])
            except LOST as err:
                restarted.append(k)
                try:
                    result = self._recover(k, err, method, per_actor[k])
                except RayTaskError as failed:
                    failure = failure or (k, failed)
                    continue
            except RayTaskError as err:
                failure = failure or (k, err)
                continue
            results[k] = result if decode is None else decode(result)
        restarted.sort()
        if failure is not None:
            k, err = failure
            if method in ("reset", "step"):
                self._rollback()
                err.add_note(f"in RayVectorEnv {self._name(k)}; every actor was rolled back to before this {method}")
            else:
                err.add_note(f"in RayVectorEnv {self._name(k)}")
            raise err
        return results, restarted

    def _recover(self, k: int, err: Exception, method: str | None = None, args: tuple = ()) -> Any:
        """Replace dead actor ``k``: restore its checkpoint, replay its log, retry ``method``."""
        while True:
            if self._restarts[k] >= self.max_restarts:
                self.close()
                raise RuntimeError(
                    f"RayVectorEnv: {self._name(k)} died and was already restarted {self._restarts[k]} times "
                    f"(max_restarts={self.max_restarts}); the env is closed. Cause: {err}"
                ) from err
            self._restarts[k] += 1
            ray.kill(self._actors[k], no_restart=True)
            self._actors[k] = self._spawn(k)
            try:
                self._wait_ready([k])
                ray.get(self._actors[k].restore.remote(self._checkpoints[k], self._logs[k]))
            except LOST as again:
                err = again
                continue
            except (RayTaskError, RuntimeError) as failed:
                self.close()
                raise RuntimeError(f"RayVectorEnv: {self._name(k)} could not be restored; the env is closed") from failed
            if method is None:
                return None
            try:
                return ray.get(getattr(self._actors[k], method).remote(*args))  # a RayTaskError is the call's own
            except LOST as again:
                err = again

    def _rollback(self) -> None:
        """Every actor back to its checkpoint plus its log: the state before a failed call."""
        refs = [actor.restore.remote(c, log) for actor, c, log in zip(self._actors, self._checkpoints, self._logs)]
        for k, ref in enumerate(refs):
            try:
                ray.get(ref)
            except LOST as err:
                self._recover(k, err)

    def _mark_restarts(self, infos: dict, restarted: list[int]) -> dict:
        for k in restarted:
            start, stop = self._slices[k]
            for i in range(start, stop):
                infos = self._add_info(infos, {"actor_restarted": True}, i)
        return infos

    # -- the vector API -------------------------------------------------------------------
    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        seeds, mask, options = reset_arguments(self.num_envs, seed, options)
        if isinstance(seed, int):
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        args = [(seeds[a:b], options, mask[a:b] if mask is not None else None) for a, b in self._slices]
        results, restarted = self._call("reset", args, _unpacked)
        texts: list[dict | None] = []
        infos: list[dict | None] = []
        for k, ((a, b), (boxes, (part_texts, part_infos), checkpoint)) in enumerate(zip(self._slices, results)):
            rows = slice(None) if mask is None else np.asarray(mask[a:b])
            for key in self._box_keys:
                self._observations[key][a:b][rows] = boxes[key][rows]
            texts += part_texts
            infos += part_infos
            self._checkpoints[k] = checkpoint
            self._logs[k] = []
        self._since_checkpoint = 0
        return self._collect(texts), self._mark_restarts(self._infos(infos), restarted)

    def step(self, actions: Any) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        listed = list(iterate(self.action_space, actions))
        due = self._since_checkpoint + 1 >= self.checkpoint_every
        parts = [deepcopy(listed[a:b]) for a, b in self._slices]  # logged: the caller may reuse its arrays
        results, restarted = self._call("step", [(part, due) for part in parts], _unpacked)
        rewards: list[float] = []
        terms: list[bool] = []
        truncs: list[bool] = []
        texts: list[dict] = []
        infos: list[dict] = []
        for k, ((a, b), (boxes, (r, te, tr, tx, inf), checkpoint)) in enumerate(zip(self._slices, results)):
            for key in self._box_keys:
                self._observations[key][a:b] = boxes[key]
            rewards += r
            terms += te
            truncs += tr
            texts += tx
            infos += inf
            if due:
                self._checkpoints[k] = checkpoint
                self._logs[k] = []
            else:
                self._logs[k].append(parts[k])
        self._since_checkpoint = 0 if due else self._since_checkpoint + 1
        obs, rewards_, terms_, truncs_, vector_infos = self._result(rewards, terms, truncs, texts, infos)
        return obs, rewards_, terms_, truncs_, self._mark_restarts(vector_infos, restarted)

    def render(self) -> tuple[Any, ...] | None:
        if self.render_mode is None:
            return None
        frames: list[Any] = []
        for part in self._call("render", [(self.render_mode,)] * len(self._actors))[0]:
            frames += part
        return tuple(frames)

    def state_hashes(self) -> list[str]:
        """Each world's state hash now, in env order (what a replay of the same actions reaches).

        Raises:
            ResetNeeded: some env has not been reset yet.
        """
        hashes = [h for part in self._call("state_hashes", [()] * len(self._actors))[0] for h in part]
        if any(h is None for h in hashes):
            raise ResetNeeded("reset the envs first")
        return hashes

    @property
    def restarts(self) -> int:
        """How many times an actor was replaced so far."""
        return sum(self._restarts)

    def close_extras(self, **kwargs: Any) -> None:
        self.closed = True  # no call reaches an actor from here on
        if ray.is_initialized():
            for actor in self._actors:
                ray.kill(actor, no_restart=True)
            _await_death(self._actors)
        self._actors = []
        if self._owned_ray:
            self._owned_ray = False
            _release()


def _await_death(actors: list, attempts: int = 100) -> None:
    """Wait until killed actors are gone: ``ray.kill`` only asks, and a call sent right after
    it may still be answered, so ``close`` returns once every actor is really dead."""
    alive = list(actors)
    for _ in range(attempts):
        if not alive:
            return
        probes = {actor.__ray_ready__.remote(): actor for actor in alive}
        done, _ = ray.wait(list(probes), num_returns=len(probes), timeout=10.0)
        alive = []
        for ref in done:
            try:
                ray.get(ref)
            except LOST:
                continue
            alive.append(probes[ref])  # answered before the kill landed: ask again
