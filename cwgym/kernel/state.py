"""The kernel subsystem: seed, logical clock, random streams, id counters and scheduler.

These are the determinism mechanisms every other subsystem draws on, so the kernel is
built, thawed and loaded first.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from cwgym.kernel.clock import MAX_TICK, Clock
from cwgym.kernel.ids import IdCounters
from cwgym.kernel.rng import ALGORITHM as RNG_ALGORITHM
from cwgym.kernel.rng import RandomStreams
from cwgym.kernel.scheduler import Scheduler, Task
from cwgym.kernel.subsystem import SUBSYSTEMS, SnapshotError, Subsystem, convert

__all__ = ["KernelDoc", "KernelState"]

# msgspec bounds stop at int64: the upper end of 64-bit unsigned values is checked in load
U64 = Annotated[int, msgspec.Meta(ge=0)]
Tick = U64
Counter = Annotated[int, msgspec.Meta(ge=0, le=(1 << 63) - 1)]


class KernelDoc(msgspec.Struct, forbid_unknown_fields=True):
    """The kernel's section of an exported snapshot."""

    seed: U64
    clock: Tick
    rng: dict[str, U64]
    ids: dict[str, Counter]
    scheduler: list[Task]
    next_task: Counter


class KernelState(Subsystem):
    """Seed, clock, named random streams, id counters and the task queue of one world."""

    name = "kernel"
    order = 0
    sections = ("kernel",)

    __slots__ = ("clock", "ids", "rng", "scheduler", "seed")

    def __init__(self, seed: int, clock: Clock, rng: RandomStreams, ids: IdCounters, scheduler: Scheduler) -> None:
        self.seed = seed
        self.clock = clock
        self.rng = rng
        self.ids = ids
        self.scheduler = scheduler

    @classmethod
    def build(cls, runtime: Any) -> KernelState:
        seed = runtime.seed
        return cls(seed, Clock(0), RandomStreams(seed), IdCounters(), Scheduler())

    @classmethod
    def thaw(cls, runtime: Any, frozen: tuple) -> KernelState:
        seed, clock, rng, ids, (tasks, next_seq) = frozen
        return cls(seed, Clock(clock), RandomStreams(seed, dict(rng)), IdCounters(dict(ids)), Scheduler(tasks, next_seq))

    @classmethod
    def load(cls, runtime: Any, sections: dict[str, Any]) -> KernelState:
        doc = convert(sections["kernel"], KernelDoc, "kernel")
        for field, values in (("seed", [doc.seed]), ("clock", [doc.clock]), ("rng", list(doc.rng.values()))):
            if any(v > MAX_TICK for v in values):
                raise SnapshotError(f"kernel.{field}", "outside the unsigned 64-bit range")
        for index, task in enumerate(doc.scheduler):
            if task.seq >= doc.next_task:
                raise SnapshotError(f"kernel.scheduler[{index}].seq", f"{task.seq} is not below next_task {doc.next_task}")
            if task.due_us < 0 or task.due_us > MAX_TICK:
                raise SnapshotError(f"kernel.scheduler[{index}].due_us", "outside the clock's range")
        return cls(doc.seed, Clock(doc.clock), RandomStreams(doc.seed, doc.rng), IdCounters(doc.ids),
                   Scheduler(tuple(doc.scheduler), doc.next_task))

    def freeze(self) -> tuple:
        return (
            self.seed,
            self.clock.now_us,
            tuple(sorted(self.rng.states.items())),
            tuple(sorted(self.ids.counters.items())),
            self.scheduler.frozen(),
        )

    def digest(self) -> list[Any]:
        return [
            self.seed,
            self.clock.now_us,
            sorted(self.rng.states.items()),
            sorted(self.ids.counters.items()),
            [msgspec.to_builtins(t) for t in self.scheduler.frozen()[0]],
        ]

    def export(self) -> dict[str, Any]:
        tasks, next_task = self.scheduler.frozen()
        return {
            "kernel": KernelDoc(
                self.seed,
                self.clock.now_us,
                dict(sorted(self.rng.states.items())),
                dict(sorted(self.ids.counters.items())),
                list(tasks),
                next_task,
            )
        }

    def inspect(self) -> dict[str, Any]:
        return {
            "clock": self.clock.now_us,
            "scheduler": {"pending": len(self.scheduler)},
            "determinism": {
                "seed": self.seed,
                "rng": RNG_ALGORITHM,
                "streams": dict(sorted(self.rng.states.items())),
            },
        }


SUBSYSTEMS.register(KernelState.name, KernelState)
