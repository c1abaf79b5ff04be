"""A Gymnasium ``VectorEnv`` as a stable-baselines3 ``VecEnv``.

    from stable_baselines3.common.vec_env import VecMonitor
    from cwgym.rl.sb3 import Sb3VecEnv

    venv = gymnasium.make_vec("cwgym/easy-new-folder-v1", num_envs=8, vectorization_mode="vector_entry_point")
    envs = VecMonitor(Sb3VecEnv(venv), "monitor/0", info_keywords=("is_success",))

SB3's ``VecEnv`` API is not Gymnasium's. :class:`Sb3VecEnv` translates:

* ``step`` returns ``(obs, rewards, dones, infos)`` with ``dones = terminated | truncated``,
  ``rewards`` as ``float32`` and ``infos`` a list of per-env dicts, split out of Gymnasium's
  batched info dict (every key ``k`` with its mask ``_k``, nested dicts recursively; numpy
  scalars become Python scalars);
* autoreset happens in the step that ends an episode, as SB3 wants: that env's entry of
  ``obs`` is its reset observation, ``infos[i]["terminal_observation"]`` its final one, and
  ``infos[i]["TimeLimit.truncated"]`` is ``truncated and not terminated``. With the wrapped
  env's ``metadata["autoreset_mode"]`` *next step* (cwgym's, and Gymnasium's default when
  the key is missing) the ended envs are reset at once with
  ``reset(options={"reset_mask": dones})`` (the vector env must support partial resets, as
  cwgym's and Gymnasium's own do since 1.1); with *same step* the final observation and info
  come from ``info["final_obs"]`` and ``info["final_info"]``. Reset infos go to
  ``reset_infos``. *Disabled* autoreset is refused;
* ``infos[i]["is_success"]`` is the verifier's verdict (``info["verification"]["passed"]``)
  whenever the step's info has a ``verification`` (every cwgym step), as the ``Success``
  wrapper of ``cwgym train`` puts it for SB3's ``Monitor``;
* ``seed(s)`` then ``reset()`` is ``reset(seed=s)``, so env ``i`` gets ``s + i`` exactly as
  with SB3's ``DummyVecEnv`` over ``gymnasium.make`` envs; ``set_options`` must give every
  env the same options (a vector reset takes one ``options`` dict);
* there are no per-env objects: ``get_attr`` returns the vector env's attribute once per
  env (or, when the vector env lacks it, Gymnasium's per-env ``get_attr``), ``set_attr``
  sets it on the vector env (all envs only), ``env_method`` uses Gymnasium's ``call``
  where the vector env has one (``SyncVectorEnv``, ``AsyncVectorEnv``) and raises
  otherwise, ``env_is_wrapped`` is ``False`` (no env is in a ``gym.Wrapper``);
* ``env_method("action_masks")`` on cwgym's vector envs gives each env's row of
  ``venv.action_masks()``, so sb3-contrib's ``MaskablePPO`` trains on them;
* ``render``/``get_images`` tile the vector env's ``rgb_array`` frames.

stable-baselines3 is the optional ``train`` extra: this module imports it, so nothing that
``import cwgym`` imports may import this module.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

__all__ = ["Sb3VecEnv", "split_info"]

_FINAL_KEYS = ("final_obs", "_final_obs", "final_info", "_final_info")


def split_info(infos: dict[str, Any], i: int) -> dict[str, Any]:
    """Env ``i``'s info out of Gymnasium's batched info dict (keys ``k`` with masks ``_k``)."""
    out: dict[str, Any] = {}
    for key, value in infos.items():
        if key.startswith("_") and key[1:] in infos:
            continue  # the mask of key[1:]
        mask = infos.get(f"_{key}")
        if mask is not None and not mask[i]:
            continue
        if isinstance(value, dict):
            out[key] = split_info(value, i)
        else:
            item = value[i]
            if isinstance(item, np.ndarray):
                item = item.copy()
            elif isinstance(item, np.generic):
                item = item.item()
            out[key] = item
    return out


def _index(space: spaces.Space, obs: Any, i: int) -> Any:
    """Env ``i``'s observation out of a batch (a copy)."""
    if isinstance(space, spaces.Dict):
        return {k: _index(s, obs[k], i) for k, s in space.spaces.items()}
    if isinstance(space, spaces.Tuple):
        return tuple(_index(s, o, i) for s, o in zip(space.spaces, obs))
    item = obs[i]
    return item.copy() if isinstance(item, np.ndarray) else item


def _select(space: spaces.Space, mask: np.ndarray, a: Any, b: Any) -> Any:
    """A batch with ``a``'s rows where ``mask`` is set and ``b``'s elsewhere (new arrays)."""
    if isinstance(space, spaces.Dict):
        return {k: _select(s, mask, a[k], b[k]) for k, s in space.spaces.items()}
    if isinstance(space, spaces.Tuple):
        return tuple(_select(s, mask, x, y) for s, x, y in zip(space.spaces, a, b))
    if isinstance(b, np.ndarray):
        out = b.copy()
        out[mask] = np.asarray(a)[mask]
        return out
    return tuple(x if m else y for m, x, y in zip(mask, a, b))


def _copy(space: spaces.Space, obs: Any) -> Any:
    if isinstance(space, spaces.Dict):
        return {k: _copy(s, obs[k]) for k, s in space.spaces.items()}
    if isinstance(space, spaces.Tuple):
        return tuple(_copy(s, o) for s, o in zip(space.spaces, obs))
    return obs.copy() if isinstance(obs, np.ndarray) else obs


class Sb3VecEnv(VecEnv):
    """stable-baselines3's ``VecEnv`` over a Gymnasium ``VectorEnv`` (see the module docstring).

    Args:
        venv: the Gymnasium vector env, autoreset *next step* or *same step*; closed with
            this one.
    """

    def __init__(self, venv: VectorEnv) -> None:
        mode = venv.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
        try:
            mode = AutoresetMode(mode)
        except ValueError:
            raise ValueError(f"unknown autoreset mode {mode!r}") from None
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"Sb3VecEnv needs autoreset mode NEXT_STEP or SAME_STEP, not {mode}")
        self.venv = venv
        self.autoreset_mode = mode
        self._actions: Any = None
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    @property
    def spec(self) -> Any:
        """The vector env's ``EnvSpec`` (``VecMonitor`` writes its id in the CSV header)."""
        return getattr(self.venv, "spec", None)

    def reset(self) -> VecEnvObs:
        seeds = self._seeds
        if all(s is None for s in seeds):
            seed: int | list[int | None] | None = None
        elif all(s is not None and s == seeds[0] + i for i, s in enumerate(seeds)):
            seed = int(seeds[0])  # type: ignore[arg-type]
        else:
            seed = list(seeds)
        first = self._options[0]
        if any(o != first for o in self._options):
            raise ValueError("Sb3VecEnv: a vector reset takes one options dict; set_options gave the envs different ones")
        obs, infos = self.venv.reset(seed=seed, options=dict(first) if first else None)
        self.reset_infos = [split_info(infos, i) for i in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        return _copy(self.observation_space, obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        terminated = np.asarray(terminated, dtype=np.bool_)
        truncated = np.asarray(truncated, dtype=np.bool_)
        dones = terminated | truncated
        n = self.num_envs
        terminal: list[Any] = [None] * n
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            top = {k: v for k, v in infos.items() if k not in _FINAL_KEYS}
            step_infos = [split_info(top, i) for i in range(n)]
            for i in np.flatnonzero(dones):
                self.reset_infos[i] = step_infos[i]
                step_infos[i] = split_info(infos["final_info"], i)
                terminal[i] = infos["final_obs"][i]
            obs = _copy(self.observation_space, obs)
        else:
            step_infos = [split_info(infos, i) for i in range(n)]
            if dones.any():
                for i in np.flatnonzero(dones):
                    terminal[i] = _index(self.observation_space, obs, i)
                reset_obs, reset_infos = self.venv.reset(options={"reset_mask": dones.copy()})
                obs = _select(self.observation_space, dones, reset_obs, obs)
                for i in np.flatnonzero(dones):
                    self.reset_infos[i] = split_info(reset_infos, i)
            else:
                obs = _copy(self.observation_space, obs)
        for i, info in enumerate(step_infos):
            verification = info.get("verification")
            if isinstance(verification, dict):
                info["is_success"] = bool(verification.get("passed"))
            info["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            if dones[i]:
                info["terminal_observation"] = terminal[i]
        return obs, np.asarray(rewards, dtype=np.float32), dones, step_infos

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if not hasattr(self.venv, attr_name) and hasattr(self.venv, "get_attr"):  # Sync/AsyncVectorEnv: per env
            values = self.venv.get_attr(attr_name)
            return [values[i] for i in self._get_indices(indices)]
        value = getattr(self.venv, attr_name)  # AttributeError when missing, as has_attr expects
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        if sorted(self._get_indices(indices)) != list(range(self.num_envs)):
            raise NotImplementedError("Sb3VecEnv: the vector env has no per-env objects; set_attr applies to all envs")
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks" and hasattr(self.venv, "action_masks"):  # cwgym's vector envs: batched
            masks = self.venv.action_masks(*method_args, **method_kwargs)
            return [masks[i] for i in self._get_indices(indices)]
        call = getattr(self.venv, "call", None)
        if call is None:
            raise NotImplementedError(f"Sb3VecEnv: {type(self.venv).__name__} has no per-env objects to call {method_name!r} on")
        results = call(method_name, *method_args, **method_kwargs)
        return [results[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> list[np.ndarray | None]:
        if self.render_mode != "rgb_array":
            return [None] * self.num_envs
        return list(self.venv.render())

    def render(self, mode: str | None = None) -> np.ndarray | None:
        if (mode or self.render_mode) in ("rgb_array", "human"):
            return super().render(mode=mode)
        if mode is None or mode == self.render_mode:
            self.venv.render()  # other modes: rendered, not returned (as SB3 does)
        return None
