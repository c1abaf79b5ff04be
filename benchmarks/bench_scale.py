"""Scale rows: worlds stepped in this process, in worker processes through shared memory,
and in Ray actors on one node and on two, with the bytes each step moves and the parts a
model of where scaling stops is built from.

Every vector env takes worlds of ``easy-rename-file`` through random valid actions
(:func:`benchmarks.bench_rl.valid_choice`, the same seeded actions for every kind), with
the element table (semantic) and with 84x84 pixels. The shared-memory env runs 8 and 32
worlds in 1 and 2 workers; each Ray actor holds 8 worlds (1 actor: 8 worlds, 2 actors: 16)
or 32 (1 actor: 32, 2 actors: 64), beside 8 worlds in this process. Each run is a fresh process
(:func:`benchmarks.harness.isolated`) that builds the env, takes ``WARMUP`` untimed batch
steps and then times batch steps up to a step count or a time budget, whichever comes
first; the kinds take turns so a noisy spell on the machine falls on all of them. Ray runs
on clusters this benchmark starts on this machine (one node with 2 CPUs; two nodes with
1 CPU each) and shuts down at the end.

The model's parts are rows too: the driver's CPU time per batch step, a worker's CPU time
per world-step, the workload's imbalance between two workers (the slower worker's CPU
time per step over the mean; a batch step waits for the slower one) at 8 and 32 worlds,
and this machine's own 2-core scaling, a pure-Python loop in 1 and 2 processes measured in
the same run.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import time
from collections.abc import Callable
from multiprocessing.reduction import ForkingPickler
from typing import Any

import numpy as np

from benchmarks.bench_rl import EASY, OBS_MODES, valid_choice
from benchmarks.harness import Row, isolated, row_of

GROUP = "scale"
#: Untimed batch steps before timing: every world has shown its first screens by then.
WARMUP = 40
OBS = ("semantic", "pixels 84x84")
#: Kind -> (backend, worker processes or actors, worlds).
KINDS = {
    "local, 8 worlds": ("local", 1, 8),
    "shared memory, 1 worker x 8 worlds": ("shared memory", 1, 8),
    "shared memory, 2 workers x 4 worlds": ("shared memory", 2, 8),
    "shared memory, 1 worker x 32 worlds": ("shared memory", 1, 32),
    "shared memory, 2 workers x 16 worlds": ("shared memory", 2, 32),
    "ray, 1 actor x 8 worlds": ("ray", 1, 8),
    "ray, 2 actors x 8 worlds": ("ray", 2, 16),
    "ray, 1 actor x 32 worlds": ("ray", 1, 32),
    "ray, 2 actors x 32 worlds": ("ray", 2, 64),
}
RAY_KINDS = [kind for kind, (backend, _, _) in KINDS.items() if backend == "ray"]
TWO_NODES = "ray on two nodes (1 CPU each), 2 actors x 8 worlds"
KINDS[TWO_NODES] = ("ray", 2, 16)
#: Batch steps over which bytes are counted (Ray's checkpoints, every 32 batch steps by
#: default, fall in the window once).
BYTES_STEPS = 32
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# -- one run, in a fresh process ---------------------------------------------------------------
def _config(obs_label: str) -> tuple[str, dict]:
    from cwgym.rl.specs import entry

    kwargs = dict(entry(EASY).kwargs)
    if obs_label != "semantic":
        kwargs.update(OBS_MODES[obs_label])
    return kwargs.pop("procedure"), kwargs


def _make(kind: str, obs_label: str, address: str | None) -> Any:
    procedure, kwargs = _config(obs_label)
    backend, processes, worlds = KINDS[kind]
    if backend == "local":
        from cwgym.rl.vector import ComputerVectorEnv

        return ComputerVectorEnv(worlds, procedure, **kwargs)
    if backend == "shared memory":
        from cwgym.rl.shared_memory import SharedMemoryVectorEnv

        return SharedMemoryVectorEnv(worlds, procedure, workers=processes, **kwargs)
    from cwgym.rl.ray import RayVectorEnv

    return RayVectorEnv(worlds, procedure, actors=processes, address=address, **kwargs)


def _actions(worlds: int, seed: int = 0, count: int = 997) -> list[np.ndarray]:
    from cwgym.rl.env import ComputerEnv

    procedure, kwargs = _config("semantic")
    codec = ComputerEnv(procedure, **kwargs)._blueprint.actions
    rng = np.random.default_rng(seed)
    # the first 10 element rows are always there (the dock and the top bar)
    return [np.array([valid_choice(codec, 10, rng) for _ in range(worlds)]) for _ in range(count)]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def scale_run(kind: str, obs_label: str, steps: int, seconds: float, address: str | None = None, count_bytes: bool = False) -> dict:
    """Batch-step times (ms) of one vector env after ``WARMUP`` steps, with the driver's and
    the workers' CPU time per step and, with ``count_bytes``, the bytes moved per step."""
    envs = _make(kind, obs_label, address)
    try:
        actions = _actions(KINDS[kind][2])
        envs.reset(seed=0)
        for k in range(WARMUP):
            envs.step(actions[k])
        workers = [p.pid for p in getattr(envs, "_processes", [])]
        workers_before = [_cpu_seconds(p) for p in workers]
        cpu_before = time.process_time()
        times: list[float] = []
        clock = time.perf_counter_ns
        deadline = time.perf_counter() + seconds
        for k in range(WARMUP, WARMUP + steps):
            start = clock()
            envs.step(actions[k % len(actions)])
            times.append((clock() - start) / 1e6)
            if time.perf_counter() > deadline:
                break
        out: dict[str, Any] = {"times": times, "driver_cpu_ms": (time.process_time() - cpu_before) * 1000 / len(times)}
        if workers:
            out["worker_cpu_ms"] = sum(_cpu_seconds(p) - b for p, b in zip(workers, workers_before)) * 1000 / len(times)
        if count_bytes:
            later = actions[WARMUP + len(times):] + actions
            out["bytes"] = (_pipe_bytes if workers else _ray_bytes)(envs, later[:BYTES_STEPS])
        return out
    finally:
        envs.close()


def _pipe_bytes(envs: Any, actions: list[np.ndarray]) -> dict:
    """Bytes per batch step through the workers' pipes (pickled as ``Connection.send``
    pickles them), and the bytes the workers write into shared memory."""
    sent, received = [0], [0]

    def counted(pipe: Any) -> tuple[Callable, Callable]:
        def send(obj: Any) -> None:
            data = ForkingPickler.dumps(obj)
            sent[0] += len(data)
            pipe.send_bytes(data)

        def recv() -> Any:
            data = pipe.recv_bytes()
            received[0] += len(data)
            return pickle.loads(data)

        return send, recv

    for pipe in envs._pipes:
        pipe.send, pipe.recv = counted(pipe)
    for action in actions:
        envs.step(action)
    shared = sum(len(raw) for raw in envs._raws.values())
    return {"sent": sent[0] / len(actions), "received": received[0] / len(actions), "shared_memory": shared}


def payload_bytes(obj: Any) -> int:
    """Serialized size of ``obj`` as Ray moves it: pickle protocol 5, numpy buffers out of
    band (their ``nbytes`` counted)."""
    buffers: list[pickle.PickleBuffer] = []
    data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
    return len(data) + sum(b.raw().nbytes for b in buffers)


def _ray_bytes(envs: Any, actions: list[np.ndarray]) -> dict:
    """Bytes per batch step of the actor calls' arguments and of what ``ray.get`` returns."""
    import ray
    from ray.actor import ActorMethod

    sent: list[int] = []
    received: list[int] = []
    original_remote, original_get = ActorMethod._remote, ray.get

    def remote(self: Any, args: Any = None, kwargs: Any = None, **options: Any) -> Any:
        sent.append(payload_bytes((args, kwargs)))
        return original_remote(self, args, kwargs, **options)

    def get(refs: Any, **options: Any) -> Any:
        values = original_get(refs, **options)
        received.append(payload_bytes(values))
        return values

    ActorMethod._remote, ray.get = remote, get
    try:
        per_step = []
        for action in actions:
            before = (sum(sent), sum(received))
            envs.step(action)
            per_step.append((sum(sent) - before[0], sum(received) - before[1]))
    finally:
        ActorMethod._remote, ray.get = original_remote, original_get
    steady = sorted(per_step, key=lambda p: p[0] + p[1])[len(per_step) // 2]
    return {"sent": steady[0], "received": steady[1], "mean_total": sum(a + b for a, b in per_step) / len(per_step)}


# -- the workload's imbalance between two workers --------------------------------------------------
def imbalance_run(obs_label: str, steps: int, worlds: int) -> dict:
    """Each of 2 workers' CPU time per batch step (``Batch.step`` under ``thread_time``,
    patched before the workers fork) -> the mean of the slower over the mean of both."""
    import cwgym.rl.batch as batch_module
    from cwgym.rl.shared_memory import SharedMemoryVectorEnv

    original = batch_module.Batch.step
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)

    def timed(self: Any, actions: Any) -> Any:
        start = time.thread_time()
        out = original(self, actions)
        send.send((os.getpid(), time.thread_time() - start))
        return out

    batch_module.Batch.step = timed
    procedure, kwargs = _config(obs_label)
    envs = SharedMemoryVectorEnv(worlds, procedure, workers=2, context="fork", **kwargs)
    try:
        actions = _actions(worlds)
        envs.reset(seed=0)
        per_worker: dict[int, list[float]] = {}
        for k in range(WARMUP + steps):
            envs.step(actions[k % len(actions)])
            for _ in range(2):
                pid, seconds = receive.recv()
                if k >= WARMUP:
                    per_worker.setdefault(pid, []).append(seconds * 1000)
    finally:
        envs.close()
        batch_module.Batch.step = original
    a, b = per_worker.values()
    slower = float(np.mean(np.maximum(a, b)))
    mean = float(np.mean((np.array(a) + np.array(b)) / 2))
    return {"slower_ms": slower, "mean_ms": mean, "steps": len(a), "worlds": worlds}


# -- this machine's own 2-core scaling -----------------------------------------------------------
def _spin(n: int) -> float:
    start = time.perf_counter()
    x = 0
    for i in range(n):
        x += i * i % 7
    return time.perf_counter() - start


def _spin_in(n: int, done: Any) -> None:
    done.send(_spin(n))


def cpu_ceiling(n: int) -> float:
    """Wall time of ``2n`` loop turns in one process over ``n`` in each of two at once."""
    ctx = multiprocessing.get_context("fork")

    def wall(parts: list[int]) -> float:
        start = time.perf_counter()
        pipes, processes = [], []
        for part in parts:
            receive, send = ctx.Pipe(duplex=False)
            process = ctx.Process(target=_spin_in, args=(part, send))
            process.start()
            pipes.append(receive)
            processes.append(process)
        for receive in pipes:
            receive.recv()
        for process in processes:
            process.join()
        return time.perf_counter() - start

    return wall([2 * n]) / wall([n, n])


# -- Ray clusters on this machine ----------------------------------------------------------------------
class _Cluster:
    """A Ray cluster of ``nodes`` nodes with ``cpus`` CPUs each, started on this machine and
    not connected to this process (each run's fresh process connects as a driver)."""

    def __init__(self, nodes: int, cpus: int) -> None:
        from ray.cluster_utils import Cluster

        args = {"num_cpus": cpus, "include_dashboard": False}
        self.cluster = Cluster(initialize_head=True, head_node_args=args)
        for _ in range(nodes - 1):
            self.cluster.add_node(num_cpus=cpus)
        self.cluster.wait_for_nodes()
        self.address = self.cluster.address

    def __enter__(self) -> _Cluster:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.cluster.shutdown()


def _ray_missing() -> str | None:
    try:
        import cwgym.rl.ray  # noqa: F401
    except ImportError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


# -- rows -----------------------------------------------------------------------------------------
def _step_row(name: str, obs_label: str, runs: list[dict]) -> Row:
    worlds = KINDS[name][2]
    times = [t for run in runs for t in run["times"]]
    row = row_of(GROUP, f"{name}, {obs_label}", f"{worlds} worlds", times)
    rate = worlds * 1000.0 / row.extra["mean_ms"]
    row.extra.update(worlds=worlds, env_steps_per_s=rate, turns=len(runs), driver_cpu_ms=float(np.mean([r["driver_cpu_ms"] for r in runs])))
    row.note = f"{rate:.0f} env steps/s (mean of {len(times)} batch steps in {len(runs)} fresh processes); driver CPU {row.extra['driver_cpu_ms']:.2f} ms per batch step"
    if any("worker_cpu_ms" in r for r in runs):
        per_world = float(np.mean([r["worker_cpu_ms"] for r in runs])) / worlds
        row.extra["worker_cpu_ms_per_world_step"] = per_world
        row.note += f"; workers' CPU {per_world:.2f} ms per world-step"
    return row


def _number_row(name: str, world: str, value: float, unit: str, note: str, **extra: Any) -> Row:
    return Row(GROUP, name, world, 1, value, value, unit=unit, note=note, extra=dict(value=value, **extra))


def _gain(rows: dict[str, Row], more: str, fewer: str) -> float:
    """Env steps per second of ``more`` over ``fewer``."""
    return rows[more].extra["env_steps_per_s"] / rows[fewer].extra["env_steps_per_s"]


def _turns(kinds: list[str], turns: int, obs_label: str, steps: int, seconds: float, addresses: dict[str, str | None]) -> dict[str, list[dict]]:
    runs: dict[str, list[dict]] = {kind: [] for kind in kinds}
    for turn in range(turns):
        for kind in kinds[turn % len(kinds):] + kinds[: turn % len(kinds)]:
            last = turn == turns - 1
            count_bytes = last and KINDS[kind][0] != "local"
            runs[kind].append(isolated("benchmarks.bench_scale:scale_run", kind, obs_label, steps, seconds, addresses.get(kind), count_bytes))
    return runs


def run(quick: bool = False) -> list[Row]:
    started = time.perf_counter()
    turns, steps, seconds = (1, 40, 3.0) if quick else (3, 200, 5.0)
    missing = _ray_missing()
    kinds = [kind for kind, (backend, _, _) in KINDS.items() if kind != TWO_NODES and (backend != "ray" or missing is None)]
    rows: list[Row] = []
    ceiling = cpu_ceiling(2_000_000 if quick else 10_000_000)
    rows.append(_number_row("this machine's 2-core scaling: a pure-Python loop in 2 processes over 1", "-", ceiling, "x",
                            "the most any 2-process row can gain here and now"))
    cluster = _Cluster(1, 2) if missing is None else None
    try:
        addresses = dict.fromkeys(RAY_KINDS, cluster.address) if cluster else {}
        for obs_label in OBS:
            runs = _turns(kinds, turns, obs_label, steps, seconds, addresses)
            by_kind = {kind: _step_row(kind, obs_label, runs[kind]) for kind in kinds}
            rows += by_kind.values()
            for worlds, two, one in ((8, "shared memory, 2 workers x 4 worlds", "shared memory, 1 worker x 8 worlds"),
                                     (32, "shared memory, 2 workers x 16 worlds", "shared memory, 1 worker x 32 worlds")):
                rows.append(_number_row(f"shared memory 2 workers over 1 worker, {worlds} worlds, {obs_label}", f"{worlds} worlds",
                                        _gain(by_kind, two, one), "x",
                                        f"env steps/s ratio; the target is 1.7x; the machine's 2-core scaling in this run {ceiling:.2f}x"))
                rows += _bytes_rows(two, obs_label, runs[two][-1]["bytes"])
            if cluster:
                for each in (8, 32):
                    rows.append(_number_row(f"ray 2 actors over 1 actor, {each} worlds each, {obs_label}", f"{each} worlds per actor",
                                            _gain(by_kind, f"ray, 2 actors x {each} worlds", f"ray, 1 actor x {each} worlds"), "x",
                                            "env steps/s ratio; the target is at least 1.6x"))
                local, ray_one = by_kind["local, 8 worlds"].extra["mean_ms"], by_kind["ray, 1 actor x 8 worlds"].extra["mean_ms"]
                rows.append(_number_row(f"ray overhead per batch step, 1 actor x 8 worlds over local, {obs_label}", "8 worlds",
                                        100.0 * (ray_one - local) / local, "%", "(ray - local) / local of the mean batch step; the target is at most 20%"))
                rows += _bytes_rows("ray, 2 actors x 8 worlds", obs_label, runs["ray, 2 actors x 8 worlds"][-1]["bytes"])
    finally:
        if cluster:
            cluster.__exit__()
    if missing is None:
        with _Cluster(2, 1) as two_nodes:
            for obs_label in OBS:
                runs = [isolated("benchmarks.bench_scale:scale_run", TWO_NODES, obs_label, steps, seconds, two_nodes.address) for _ in range(max(1, turns - 1))]
                rows.append(_step_row(TWO_NODES, obs_label, runs))
    else:
        print(f"scale: Ray rows skipped ({missing})")
    for obs_label in OBS:
        for worlds in (8, 32):
            measured = isolated("benchmarks.bench_scale:imbalance_run", obs_label, 40 if quick else 150, worlds)
            share = measured["slower_ms"] / measured["mean_ms"]
            rows.append(_number_row(f"imbalance of 2 workers x {worlds // 2} worlds: the slower one's CPU per batch step over the mean, {obs_label}",
                                    f"{worlds} worlds", share, "x",
                                    f"{measured['slower_ms']:.2f} ms over {measured['mean_ms']:.2f} ms in {measured['steps']} batch steps; "
                                    f"a batch step waits for the slower worker, so 2 workers gain at most {2 / share:.2f}x on 2 idle cores",
                                    **measured))
    for row in rows:
        row.extra.setdefault("run_seconds", round(time.perf_counter() - started, 1))
    return rows


def _bytes_rows(kind: str, obs_label: str, counted: dict) -> list[Row]:
    worlds = KINDS[kind][2]
    note = f"per batch step of {worlds} worlds"
    if "shared_memory" in counted:
        note += f"; besides, {counted['shared_memory']:,} bytes of observations, rewards, flags and masks in shared memory"
    if "mean_total" in counted:
        note += f"; the mean over {BYTES_STEPS} steps with checkpoints {counted['mean_total']:,.0f} bytes"
    total = counted["sent"] + counted["received"]
    return [_number_row(f"bytes moved per batch step: {kind}, {obs_label} (sent {counted['sent']:,.0f} + returned {counted['received']:,.0f})",
                        f"{worlds} worlds", total, "bytes", note, **counted)]
