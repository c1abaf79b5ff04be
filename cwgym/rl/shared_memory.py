"""The multi-process vector env: worker processes writing observations into shared memory.

Each of ``workers`` processes builds the configuration's template world once and runs a
contiguous slice of the envs as a :class:`~cwgym.rl.batch.Batch` (its worlds are forks of
that template). The ``Box`` entries of the observations — the pixels above all — are
written by the workers straight into shared memory the parent reads without copying or
pickling; rewards, flags, text entries and infos come back through a pipe. Seeds,
autoreset and results are those of :class:`~cwgym.rl.vector.ComputerVectorEnv`.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import traceback
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector.utils import batch_space, create_empty_array, iterate

from cwgym.rl.batch import METADATA, Batch, BatchedVectorEnv, reset_arguments
from cwgym.rl.blueprint import Blueprint
from cwgym.rl.collector import collector_paused
from cwgym.rl.config import task_config

__all__ = ["SharedMemoryVectorEnv"]


def _views(raws: dict[str, Any], layout: dict[str, tuple[tuple[int, ...], str]]) -> dict[str, np.ndarray]:
    return {key: np.frombuffer(raws[key], dtype=np.dtype(dtype)).reshape(shape) for key, (shape, dtype) in layout.items()}


def _worker(conn: Any, parent: Any, kwargs: dict, start: int, stop: int, raws: dict, layout: dict) -> None:
    if parent is not None:
        parent.close()
    try:
        config = task_config(kwargs)
        blueprint = Blueprint(config)
        arrays = _views(raws, layout)
        rows = [{k: arrays[k][i] for k in arrays} for i in range(start, stop)]
        batch = Batch(blueprint, rows)
        renderers: list = []
        gc.freeze()  # the template world's objects are long-lived: keep the collector off them
        conn.send(("ready", None))
    except Exception:
        conn.send(("error", traceback.format_exc()))
        conn.close()
        return
    while True:
        try:
            command, args = conn.recv()
        except EOFError:
            break
        try:
            if command == "reset":
                result = batch.reset(*args)
            elif command == "step":
                result = batch.step(args)
            elif command == "render":
                from cwgym.render import Renderer

                if len(renderers) != len(rows):
                    renderers = [Renderer() for _ in rows]
                result = batch.render(args, renderers)
            elif command == "close":
                conn.send(("ok", None))
                break
            else:
                raise ValueError(f"unknown command {command!r}")
            conn.send(("ok", result))
        except Exception:
            conn.send(("error", traceback.format_exc()))
    conn.close()


class SharedMemoryVectorEnv(BatchedVectorEnv):
    """N envs in ``workers`` processes, ``Box`` observations in shared memory.

    Args:
        num_envs: how many worlds.
        workers: how many processes (at most ``num_envs``); each runs a slice of the envs.
        context: the multiprocessing start method (``None``: the platform default).
        procedure, **kwargs: the configuration, as for :class:`~cwgym.rl.env.ComputerEnv`.
        render_mode, copy: as for :class:`~cwgym.rl.vector.ComputerVectorEnv`.
    """

    def __init__(
        self,
        num_envs: int,
        procedure: str,
        *,
        workers: int = 2,
        context: str | None = None,
        render_mode: str | None = None,
        copy: bool = True,
        **kwargs: Any,
    ) -> None:
        if num_envs < 1 or workers < 1:
            raise ValueError(f"num_envs and workers must be at least 1, got {num_envs} and {workers}")
        if render_mode is not None and render_mode not in METADATA["render_modes"]:
            raise ValueError(f"render_mode must be one of {METADATA['render_modes']} or None, got {render_mode!r}")
        kwargs = {"procedure": procedure, **kwargs}
        self.config = task_config(kwargs)
        blueprint = Blueprint(self.config)  # checks the configuration before any process starts
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.copy = copy
        self.single_observation_space = blueprint.observations.space
        self.single_action_space = blueprint.actions.space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._observations = create_empty_array(self.single_observation_space, n=num_envs, fn=np.zeros)
        self._text_keys = [k for k in blueprint.observations.keys if k not in blueprint.observations.box_keys]
        ctx = mp.get_context(context)
        layout: dict[str, tuple[tuple[int, ...], str]] = {}
        raws: dict[str, Any] = {}
        for key in blueprint.observations.box_keys:
            array = self._observations[key]
            layout[key] = (array.shape, array.dtype.str)
            raws[key] = ctx.RawArray("b", max(1, array.nbytes))
        shared = _views(raws, layout)
        for key, view in shared.items():
            self._observations[key] = view
        self._raws = raws
        workers = min(workers, num_envs)
        bounds = [round(num_envs * w / workers) for w in range(workers + 1)]
        self._slices = [(bounds[w], bounds[w + 1]) for w in range(workers)]
        self._pipes = []
        self._processes = []
        self.closed = False
        for start, stop in self._slices:
            parent, child = ctx.Pipe()
            process = ctx.Process(
                target=_worker,
                name=f"cwgym-vector-{start}-{stop}",
                args=(child, parent, kwargs, start, stop, raws, layout),
                daemon=True,
            )
            process.start()
            child.close()
            self._pipes.append(parent)
            self._processes.append(process)
        self._gather()

    # -- talking to the workers -------------------------------------------------------------
    def _gather(self) -> list[Any]:
        results, errors = [], []
        for pipe in self._pipes:
            with collector_paused():
                status, value = pipe.recv()
            if status == "error":
                errors.append(value)
            results.append(value)
        if errors:
            self.close()
            raise RuntimeError("a cwgym vector worker failed:\n" + "\n".join(errors))
        return results

    def _send(self, command: str, per_worker: list[Any]) -> list[Any]:
        for pipe, args in zip(self._pipes, per_worker):
            pipe.send((command, args))
        return self._gather()

    # -- the vector API -------------------------------------------------------------------
    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        seeds, mask, options = reset_arguments(self.num_envs, seed, options)
        if isinstance(seed, int):
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        args = [(seeds[a:b], options, mask[a:b] if mask is not None else None) for a, b in self._slices]
        texts, infos = [], []
        for t, i in self._send("reset", args):
            texts += t
            infos += i
        return self._collect(texts), self._infos(infos)

    def step(self, actions: Any) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        listed = list(iterate(self.action_space, actions))
        rewards: list[float] = []
        terms: list[bool] = []
        truncs: list[bool] = []
        texts: list[dict] = []
        infos: list[dict] = []
        for r, te, tr, tx, inf in self._send("step", [listed[a:b] for a, b in self._slices]):
            rewards += r
            terms += te
            truncs += tr
            texts += tx
            infos += inf
        return self._result(rewards, terms, truncs, texts, infos)

    def render(self) -> tuple[Any, ...] | None:
        if self.render_mode is None:
            return None
        frames: list[Any] = []
        for part in self._send("render", [self.render_mode] * len(self._pipes)):
            frames += part
        return tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        for pipe, process in zip(self._pipes, self._processes):
            if process.is_alive():
                try:
                    pipe.send(("close", None))
                    pipe.recv()
                except (EOFError, BrokenPipeError, OSError):
                    pass
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()
            pipe.close()
        self._pipes = []
        self._processes = []
