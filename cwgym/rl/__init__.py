"""The Gymnasium face of cwgym: every task of the procedure library as an env.

Importing this package registers every entry of ``envs/*.json`` as ``cwgym/<name>-v<N>``
(``import cwgym`` does it), so::

    import gymnasium
    env = gymnasium.make("cwgym:cwgym/easy-new-folder-v1")
    envs = gymnasium.make_vec("cwgym:cwgym/easy-new-folder-v1", num_envs=8, vectorization_mode="vector_entry_point")

* :class:`ComputerEnv` — one procedure in one world (``cwgym.rl.env``);
* :class:`ComputerVectorEnv`, :class:`SharedMemoryVectorEnv` — many worlds in one process,
  or in worker processes with observations in shared memory (``cwgym.rl.vector``,
  ``cwgym.rl.shared_memory``);
* :class:`~cwgym.rl.ray.RayVectorEnv` — the worlds in Ray actors, restarted from checkpoints
  (``cwgym.rl.ray``, ``backend="ray"``; imported only then, so ``import cwgym`` never loads Ray);
* :mod:`cwgym.rl.rollouts` — an agent's episodes on many seeds, locally or on Ray (``cwgym rollouts``);
* :func:`load_suites`, :func:`register_envs`, :func:`reload_envs` — the suite files and
  their registration; :func:`register_procedure` — a procedure given as data, as an env;
* :func:`expert_rollout` — the procedure's expert played through an env's own interface.

See ``docs/rl.md``.
"""

from cwgym.rl.config import TaskConfig
from cwgym.rl.env import ComputerEnv
from cwgym.rl.expert import Transition, expert_demonstration, expert_rollout
from cwgym.rl.registration import register_envs, register_procedure, reload_envs
from cwgym.rl.shared_memory import SharedMemoryVectorEnv
from cwgym.rl.specs import EnvEntry, load_suites
from cwgym.rl.vector import ComputerVectorEnv, make_vector_env

__all__ = [
    "ComputerEnv",
    "ComputerVectorEnv",
    "EnvEntry",
    "SharedMemoryVectorEnv",
    "TaskConfig",
    "Transition",
    "expert_demonstration",
    "expert_rollout",
    "load_suites",
    "make_vector_env",
    "register_envs",
    "register_procedure",
    "reload_envs",
]

register_envs()
