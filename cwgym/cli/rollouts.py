"""``cwgym rollouts``: play an agent on one env over many seeds, in this process or on Ray, and keep every episode.

    cwgym rollouts --env cwgym/easy-open-app-v1 --agent baselines.random_agent:make_instance_agent --episodes 100 --out runs/random
    cwgym rollouts --env cwgym/easy-new-folder-v1 --agent baselines.expert:make_agent --privileged --episodes 200 --workers 8 --out runs/expert
    cwgym rollouts --env cwgym/easy-open-app-v1 --agent my_agent.py:make_agent --episodes 1000 --workers 32 --address ray://head:10001 --out runs/mine

Episode ``i`` plays seed ``--seed + i``, an instance seed exactly as ``env.reset(seed=...)``
takes it: the default ``--seed 0`` is in every env's training range (``[0, 1000000)``); a
run that reaches the held-out test range (``[1000000, 1010000)``) is warned about. The agent
(``path/to/agent.py:factory`` or ``module:factory``, loaded by
:func:`cwgym.leaderboard.agent_host.load_agent`) runs in the worker's process, and its
factory is called once per episode, so an episode depends only on the env id, the agent
and the seed, never on which worker played it or what it played before. (State the
agent's *module* keeps is shared by the episodes one worker plays: keep it in the agent.)

The agent sees what it sees under ``cwgym eval``: ``reset(task, observation, info)``, then
``act(observation, reward, info)`` each step and ``end(observation, reward, terminated,
truncated, info)``, every message passed through the evaluator's MessagePack codec; the
task has real Gymnasium spaces and is sealed (instruction, step limit, spaces; no env id,
procedure or seed) unless ``--privileged``, which reference agents such as the scripted
expert need; ``info`` holds the allow-listed keys only (:mod:`cwgym.leaderboard.sealing`).
An exception of the agent or an action outside the space ends that episode as a failure
with its reason, as under eval. There is no step timeout (the agent shares the worker's
process): for an untrusted agent, use ``cwgym eval``.

Written to ``--out`` (which must be new or empty; ``--overwrite`` replaces an earlier
rollouts directory and nothing else): ``episodes/<index>-<seed>.json``, each the record of
``cwgym eval``'s submissions (actions as JSON, per-step rewards, state hashes, final state
hash, success, ...) plus ``reset_info`` and ``infos`` (the allow-listed ``info`` of the
reset and of every step); with ``--frames`` the screen after the reset and after each step,
``frames/<index>-<seed>/<step>.png``; and ``rollouts.json`` (see :mod:`cwgym.rl.rollouts`).
Every file is the same bytes whatever ``--workers`` and ``--address`` were. ``cwgym verify
DIR`` replays the episodes. ``--max-steps K`` truncates episodes at ``K`` steps (at most
the env's own limit, under which ``cwgym verify`` replays them).

``--workers 1`` without ``--address`` plays in this process; more workers, or an address,
play on Ray (``pip install 'cwgym[ray]'``): a local Ray with ``--workers`` CPUs, or the
cluster at ``--address`` (``host:port``, ``ray://host:10001`` or ``auto``), whose every node
needs this cwgym, the agent's module or file at the same path, and the same ``--data``
folder.
"""

from __future__ import annotations

import argparse
import functools
import sys
import traceback
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym

from cwgym._version import engine_version
from cwgym.cli.common import UserError, non_negative, positive, require_env
from cwgym.cli.eval import run_episode, summarize
from cwgym.leaderboard.actions import InvalidAction, checked_action, to_json
from cwgym.leaderboard.agent_host import AgentSpecError, answer, load_agent, split_spec
from cwgym.leaderboard.agent_process import MAX_DETAIL, AgentFault
from cwgym.leaderboard.sealing import agent_info
from cwgym.leaderboard.splits import Split
from cwgym.leaderboard.wire import MAX_REPLY_BYTES, decode_message, decode_reply, encode
from cwgym.rl.rollouts import Played, RolloutError, collect, png

__all__ = ["AgentPlayer", "InProcessAgent", "collect_rollouts"]

DEFAULT_TEST_SEEDS = (1_000_000, 1_010_000)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "rollouts", help="play an agent on one env over many seeds (locally or on Ray) and write every episode",
        description="Play an agent (file.py:factory or module:factory) in-process on seeds SEED..SEED+N-1 of one env, "
                    "in this process or on Ray workers, and write each episode as a reproducible JSON file.",
    )
    parser.add_argument("--env", required=True, metavar="ID", help="a registered env id, e.g. cwgym/easy-open-app-v1")
    parser.add_argument("--agent", required=True, help="path/to/agent.py:factory or module:factory, e.g. baselines.random_agent:make_agent")
    parser.add_argument("--episodes", required=True, type=positive, metavar="N", help="how many episodes: seeds SEED..SEED+N-1")
    parser.add_argument("--seed", type=non_negative, default=0, help="the first episode's instance seed, as env.reset(seed=...) takes it")
    parser.add_argument("--workers", type=positive, default=1, metavar="W", help="episodes played at once; above 1, on Ray")
    parser.add_argument("--address", help="the Ray cluster to play on (host:port, ray://host:port or auto); default: this process, or a local Ray for --workers above 1")
    parser.add_argument("--frames", action="store_true", help="also write each step's screen as frames/<index>-<seed>/<step>.png")
    parser.add_argument("--max-steps", type=positive, metavar="K", help="truncate episodes after K steps (default: the env's step limit)")
    parser.add_argument("--privileged", action="store_true", help="also tell the agent the env id, procedure, seed and configuration (reference agents such as the expert)")
    parser.add_argument("--out", required=True, metavar="DIR", help="a new or empty directory for rollouts.json, episodes/ and frames/")
    parser.add_argument("--overwrite", action="store_true", help="replace the rollouts directory already at --out (nothing else is deleted)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


# -- the agent in this process -----------------------------------------------------------------
class InProcessAgent:
    """An agent in this process behind :class:`~cwgym.leaderboard.agent_process.AgentProcess`'s
    ``act``/``end``: each message goes through the wire codec, each reply back through it and
    the action-space check, so the agent sees what it would see under ``cwgym eval``."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.seq = 0

    def exchange(self, message: dict[str, Any]) -> Any:
        self.seq += 1
        received = decode_message(encode({**message, "seq": self.seq}))
        try:
            reply = encode(answer(self.agent, received))
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
            raise AgentFault(f"the agent raised in {message['type']}: {error}", broken=False,
                             detail="".join(traceback.format_exception(exc))[-MAX_DETAIL:]) from None
        if len(reply) > MAX_REPLY_BYTES:
            raise AgentFault(f"oversized reply: {len(reply)} bytes, above the cap of {MAX_REPLY_BYTES} bytes", broken=False)
        return decode_reply(reply)

    def act(self, message: dict[str, Any], space: Any) -> tuple[Any, Any]:
        """The agent's action for ``message``: ``(its JSON form, the action to step)``."""
        reply = self.exchange(message)
        try:
            return reply.action, checked_action(space, reply.action)
        except InvalidAction as exc:
            raise AgentFault(f"invalid action: {exc}", broken=False) from None

    def end(self, message: dict[str, Any]) -> None:
        """Tell the agent the episode ended."""
        self.exchange(message)


class Recorder(gym.Wrapper):
    """Keeps what an episode's agent was given in ``info`` (as JSON data) and, with ``frames``, each screen as PNG."""

    def __init__(self, env: gym.Env, frames: bool) -> None:
        super().__init__(env)
        self.with_frames = frames
        self.reset_info: dict[str, Any] = {}
        self.infos: list[dict[str, Any]] = []
        self.frames: list[bytes] = []

    def _screen(self) -> None:
        if self.with_frames:
            self.frames.append(png(self.env.render()))

    def reset(self, **kwargs: Any) -> tuple[Any, dict]:
        observation, info = self.env.reset(**kwargs)
        self.reset_info = to_json(agent_info(info))
        self._screen()
        return observation, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.infos.append(to_json(agent_info(info)))
        self._screen()
        return observation, reward, terminated, truncated, info


class AgentPlayer:
    """Plays the agent ``spec`` names on ``env_id``: a fresh agent from its factory every
    episode, one env (and its world) kept for the worker's episodes."""

    def __init__(self, env_id: str, spec: str, *, privileged: bool = False, max_steps: int | None = None, frames: bool = False) -> None:
        self.env_id = env_id
        self.spec = spec
        self.privileged = privileged
        self.max_steps = max_steps
        self.frames = frames
        self.env: gym.Env | None = None

    def _env(self) -> gym.Env:
        if self.env is None:
            import cwgym.rl  # noqa: F401  (registers the envs in a fresh worker)

            options = {} if self.max_steps is None else {"max_episode_steps": self.max_steps}
            self.env = gym.make(self.env_id, **options)
            if self.frames:  # set on the env, not through make: the spec's kwargs are the record's config
                self.env.unwrapped.render_mode = "rgb_array"
        return self.env

    def play(self, index: int, seed: int) -> Played:
        recorder = Recorder(self._env(), self.frames)
        try:
            agent = load_agent(self.spec)
        except AgentSpecError as exc:  # checked in the driver, so: a worker that lacks the agent
            raise RolloutError(f"--agent {self.spec}: {exc}") from None
        sys.path[:] = list(dict.fromkeys(sys.path))  # a file agent's folder goes first once, not once an episode
        record, _ = run_episode(InProcessAgent(agent), recorder, self.env_id, index, seed, Split(), self.privileged)
        record["reset_info"] = recorder.reset_info
        record["infos"] = recorder.infos
        return Played(index, seed, record, recorder.frames)

    def close(self) -> None:
        if self.env is not None:
            self.env.close()


# -- the command -------------------------------------------------------------------------------
def _check_agent(spec: str) -> str:
    """The spec workers load (a file made absolute); the agent is loaded here once to check it."""
    try:
        target, factory, is_file = split_spec(spec)
        load_agent(spec)
    except AgentSpecError as exc:
        raise UserError(f"--agent {spec}: {exc}") from None
    except Exception as exc:  # the agent's own module or factory raised: the user's code to fix
        error = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"--agent {spec}: loading it raised {error}") from None
    return f"{Path(target).resolve()}:{factory}" if is_file else spec


def collect_rollouts(
    env_id: str,
    agent: str,
    episodes: int,
    out: Path,
    *,
    seed: int = 0,
    workers: int = 1,
    address: str | None = None,
    frames: bool = False,
    max_steps: int | None = None,
    privileged: bool = False,
    overwrite: bool = False,
    progress: bool = True,
) -> dict[str, Any]:
    """Play ``agent`` on ``env_id`` for seeds ``seed..seed+episodes-1`` and write the rollouts directory ``out``; its index.

    Raises:
        UserError: an unknown env id, an agent that cannot be loaded, a ``max_steps`` above
            the env's limit, or what :func:`cwgym.rl.rollouts.collect` refuses.
    """
    import cwgym.rl  # noqa: F401  (registers the envs)

    env_id = require_env(env_id)
    env_id = env_id.split(":", 1)[1] if ":" in env_id.split("/", 1)[0] else env_id
    spec = gym.spec(env_id)
    limit = spec.max_episode_steps
    if max_steps is not None and limit is not None and max_steps > limit:
        raise UserError(f"--max-steps {max_steps} is above {env_id}'s step limit of {limit}; cwgym verify replays under that limit")
    worker_spec = _check_agent(agent)
    test_lo, test_hi = spec.kwargs.get("test_seeds", DEFAULT_TEST_SEEDS)
    if seed < test_hi and seed + episodes > test_lo:
        warnings.warn(f"seeds {seed}..{seed + episodes - 1} reach {env_id}'s held-out test seeds [{test_lo}, {test_hi}): "
                      "do not train on these rollouts if you evaluate on that range", stacklevel=2)
    header = {
        "env_id": env_id,
        "agent": agent,
        "agent_view": "privileged" if privileged else "sealed",
        "max_episode_steps": max_steps if max_steps is not None else limit,
        "frames": frames,
    }
    player = functools.partial(AgentPlayer, env_id, worker_spec, privileged=privileged, max_steps=max_steps, frames=frames)
    expect = {"env_id": env_id, "engine_version": engine_version, "config": dict(spec.kwargs)}
    try:
        return collect(player, out, episodes=episodes, seed=seed, header=header, workers=workers, address=address,
                       expect=expect, summarize=summarize, progress=progress, overwrite=overwrite)
    except RolloutError as exc:
        raise UserError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    index = collect_rollouts(
        args.env, args.agent, args.episodes, Path(args.out), seed=args.seed, workers=args.workers, address=args.address,
        frames=args.frames, max_steps=args.max_steps, privileged=args.privileged, overwrite=args.overwrite,
        progress=not args.no_progress,
    )
    overall = index["summary"]["overall"]
    print(f"{index['episodes']} episodes of {index['agent']} on {index['env_id']} (seeds {index['seeds'][0]}..{index['seeds'][-1]}): "
          f"success {overall['success_rate']:.1%}, mean reward {overall['mean_reward']:.3f}, {overall['failures']} agent failures; "
          f"wrote {args.out} (`cwgym verify {args.out}` replays it)")
    return 0
