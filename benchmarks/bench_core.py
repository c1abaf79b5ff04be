"""Core rows: build, grant, step, observe, snapshot, restore, fork, hash, export/import, memory."""

from __future__ import annotations

import gc
import tracemalloc

from benchmarks.harness import Row, measure, reference_engine
from benchmarks.worlds import WORLDS
from cwgym import World

GROUP = "core"
M = "workstation"
CONFIG = {"actor": "ada", "machines": [M], "actions": ["terminal.v1", "filesystem.v1"], "observations": ["terminal.v1", "filesystem.v1"]}
READ = {"family": "filesystem.v1", "op": "read", "machine": M, "payload": {"path": "notes.txt"}}


class _Noop:
    version = "1"

    def dispatch(self, ctx, op, payload):
        return None


def _rows_for(label: str, definition: dict, quick: bool) -> list[Row]:
    ref = reference_engine()
    n = 50 if quick else 400
    big = label != "default"
    rows = []

    def ref_world():
        return ref.World(definition, 7)

    rows.append(measure(GROUP, "World(definition, seed)", label, lambda: (lambda: World(definition, 7)), 5 if big else n // 4,
                        (lambda: (lambda: ref.World(definition, 7))) if ref else None))

    def grant():
        w = World(definition, 7)
        return lambda: w.environment(CONFIG)

    def ref_grant():
        w = ref_world()
        return lambda: w.environment(CONFIG)

    rows.append(measure(GROUP, "environment()", label, grant, n, ref_grant if ref else None))

    def read_step():
        w = World(definition, 7)
        env = w.environment(CONFIG)
        return lambda: env.step([READ])

    def ref_read_step():
        env = ref_world().environment(CONFIG)
        return lambda: env.step([READ])

    rows.append(measure(GROUP, "step: filesystem.v1 read (full actor boundary)", label, read_step, n, ref_read_step if ref else None))

    def boundary():
        w = World(definition, 7)
        w.register_action_family("noop.v1", _Noop())
        env = w.environment({"actor": "a", "machines": [M], "actions": ["noop.v1"], "observations": []})
        action = {"family": "noop.v1", "op": "x", "machine": M, "payload": {}}
        return lambda: env.step([action])

    rows.append(measure(GROUP, "step: boundary only (grant check, no-op family, outcome, empty observation)", label, boundary, n))

    def observe():
        env = World(definition, 7).environment(CONFIG)
        return env.observe

    def ref_observe():
        return ref_world().environment(CONFIG).observe

    rows.append(measure(GROUP, "observe()", label, observe, n, ref_observe if ref else None))

    def snapshot():
        w = World(definition, 7)
        w.environment(CONFIG)
        return w.snapshot

    def ref_snapshot():
        w = ref_world()
        w.environment(CONFIG)
        return w.snapshot

    rows.append(measure(GROUP, "snapshot()", label, snapshot, n * 5, ref_snapshot if ref else None))

    def restore():
        w = World(definition, 7)
        w.environment(CONFIG)
        snap = w.snapshot()
        return lambda: w.restore(snap)

    def ref_restore():
        w = ref_world()
        w.environment(CONFIG)
        snap = w.snapshot()
        return lambda: w.restore(snap)

    rows.append(measure(GROUP, "restore()", label, restore, n * 2, ref_restore if ref else None))

    def fork():
        w = World(definition, 7)
        w.environment(CONFIG)
        snap = w.snapshot()
        return lambda: w.fork(snap)

    def ref_fork():
        w = ref_world()
        w.environment(CONFIG)
        snap = w.snapshot()
        return lambda: w.fork(snap)

    rows.append(measure(GROUP, "fork()", label, fork, n * 2, ref_fork if ref else None))

    def hash_after_change():
        w = World(definition, 7)
        fs = w.machine(M).fs
        counter = iter(range(10**9))
        w.state_hash()
        return lambda: (fs.put_file("/home/ada/changed.txt", str(next(counter)).encode(), 1000, 1000), w.state_hash())

    def ref_hash():
        w = ref_world()
        env = w.environment(CONFIG)
        return lambda: (env.step([{"family": "filesystem.v1", "op": "write", "machine": M, "payload": {"path": "changed.txt", "content": "x"}}]), w.state_hash())

    row = measure(GROUP, "state_hash() after a one-file change", label, hash_after_change, n, ref_hash if ref else None)
    row.note = "timed call includes the one-file write (reference: through a step)"
    rows.append(row)

    def export():
        w = World(definition, 7)
        w.environment(CONFIG)
        return w.export_snapshot

    def ref_export():
        w = ref_world()
        w.environment(CONFIG)
        return w.export_snapshot

    rows.append(measure(GROUP, "export_snapshot()", label, export, 5 if big else n // 4, ref_export if ref else None))

    def import_():
        w = World(definition, 7)
        w.environment(CONFIG)
        text = w.export_snapshot()
        target = World(definition, 7)
        return lambda: target.import_snapshot(text)

    def ref_import():
        w = ref_world()
        w.environment(CONFIG)
        text = w.export_snapshot()
        target = ref_world()
        return lambda: target.import_snapshot(text)

    rows.append(measure(GROUP, "import_snapshot()", label, import_, 5 if big else n // 4, ref_import if ref else None))
    return rows


DESKTOP = {
    "actor": "ada",
    "machines": [M],
    "actions": ["application.v1", "keyboard.v1", "pointer.v1", "terminal.v1", "filesystem.v1"],
    "observations": ["semantic.v1", "terminal.v1"],
}


def fork_memory(definition: dict, label: str, forks: int = 1000) -> Row:
    """Memory that ``forks`` live forks of one snapshot add, measured with tracemalloc.

    The world has a desktop session with the files, editor and terminal windows open.
    """
    world = World(definition, 7)
    env = world.environment(DESKTOP)
    opened = []
    for kind in ("files", "editor", "terminal"):
        out = env.step([{"family": "application.v1", "op": "launch", "machine": M, "payload": {"kind": kind}}])
        if out["outcomes"][0]["success"]:
            opened.append(kind)
    env.step([READ])
    snap = world.snapshot()
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    held = [world.fork(snap) for _ in range(forks)]
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    per_fork_kb = used / forks / 1024
    row = Row(GROUP, f"memory of {forks} live forks", label, forks, used / 2**20, used / 2**20, unit="MB",
              note=f"{per_fork_kb:.1f} KB a fork (tracemalloc); windows open: {', '.join(opened) or 'none'}")
    del held
    return row


def run(quick: bool = False) -> list[Row]:
    rows: list[Row] = []
    for label, make in WORLDS.items():
        definition = make()
        rows += _rows_for(label, definition, quick)
        rows.append(fork_memory(definition, label))
    return rows


if __name__ == "__main__":  # pragma: no cover
    from benchmarks.harness import write

    print(write(GROUP, run()))
