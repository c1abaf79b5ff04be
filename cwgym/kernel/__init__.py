"""The determinism kernel: logical clock, named random streams, ids, scheduler, journal,
and the copy-on-write store that makes snapshots cheap."""

from cwgym.kernel.clock import WORLD_EPOCH_S, Clock, ClockError
from cwgym.kernel.cow import CowMap, FrozenMap
from cwgym.kernel.ids import IdCounters
from cwgym.kernel.journal import Journal, JournalEntry, verify_chain
from cwgym.kernel.rng import RandomStreams
from cwgym.kernel.scheduler import Scheduler, Task

__all__ = [
    "WORLD_EPOCH_S",
    "Clock",
    "ClockError",
    "CowMap",
    "FrozenMap",
    "IdCounters",
    "Journal",
    "JournalEntry",
    "RandomStreams",
    "Scheduler",
    "Task",
    "verify_chain",
]
