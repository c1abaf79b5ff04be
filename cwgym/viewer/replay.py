"""Replaying an episode record into a trace, checking it against what was recorded.

:func:`replay_eval` plays a ``cwgym eval`` record's action log through the env it names
on its seed (as ``cwgym verify`` does), decoding each action into the envelopes the env
sends; each step's reward must be the recorded one, and the end the recorded steps,
success and final state hash (and each step's state hash where a record lists them in
``state_hashes``). :func:`replay_dataset` stages a ``cwgym dataset``/``cwgym play``
record's procedure and seed in a fresh world, grants its sessions and sends its envelopes;
each GUI step's screen must be the scene digest recorded for it, and the end the recorded
state hash and verdict. The first difference is the trace's ``divergence``, naming the
episode and the step; the replay goes on to the end so the page shows what happened.
"""

from __future__ import annotations

from typing import Any

from cwgym.viewer.frames import FrameWriter
from cwgym.viewer.load import ViewerError
from cwgym.viewer.trace import TraceBuilder

__all__ = ["replay_dataset", "replay_eval", "short_hash"]


def short_hash(value: Any) -> str:
    text = str(value)
    return text[:16] + "…" if len(text) > 16 else text


def _eval_header(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": record.get("episode") or f"{record['env_id']}#{record['seed']}",
        "format": "eval",
        "task": record["env_id"],
        "seed": record["seed"],
        "recorded": {
            "steps": record.get("steps", len(record["actions"])),
            "success": record.get("success"),
            "return": record.get("return"),
            "failure": record.get("failure"),
            "final_state_hash": record["final_state_hash"],
        },
    }


def replay_eval(record: dict[str, Any], frames: FrameWriter, envs: dict[str, Any] | None = None) -> dict[str, Any]:
    """The trace of an eval record (see the module docstring); ``envs`` caches envs by id."""
    import gymnasium as gym

    import cwgym.rl  # noqa: F401  (registers the envs)
    from cwgym.leaderboard.actions import checked_action

    envs = {} if envs is None else envs
    header = _eval_header(record)
    name = header["name"]
    env_id = record["env_id"]
    if env_id not in envs:
        try:
            envs[env_id] = gym.make(env_id)
        except gym.error.Error as exc:
            raise ViewerError(f"episode {name}: cannot make env {env_id!r} ({exc})") from None
    env = envs[env_id]
    base = env.unwrapped
    _, info = env.reset(seed=int(record["seed"]))
    episode = base.episode
    width, height = episode.config.width, episode.config.height
    header["instruction"] = info.get("instruction", "")
    header["procedure"] = record.get("procedure")
    builder = TraceBuilder(header, frames, width, height)
    builder.add(episode.world.scene(episode.actor.id, width, height), base.state_hash(), info["verification"])
    rewards, hashes = record.get("rewards") or [], record.get("state_hashes")
    terminated = truncated = False
    for k, action in enumerate(record["actions"], 1):
        if terminated or truncated:
            builder.diverged(f"episode {name}: step {k}: the record has actions after the episode ended at step {k - 1}")
            break
        try:
            stepped = checked_action(env.action_space, action)
            decoded = episode.blueprint.actions.decode(stepped, episode.ctx)
            _, reward, terminated, truncated, info = env.step(stepped)
        except Exception as exc:
            builder.diverged(f"episode {name}: step {k}: the replay failed: {type(exc).__name__}: {exc}")
            break
        state_hash = base.state_hash()
        builder.add(episode.world.scene(episode.actor.id, width, height), state_hash, info["verification"],
                    action=action, envelopes=list(decoded.envelopes), outcome=info["outcome"],
                    outcomes=info["outcomes"], reward=float(reward), refusal=decoded.refusal, done=decoded.done)
        if k > len(rewards) or float(rewards[k - 1]) != float(reward):
            got = rewards[k - 1] if k <= len(rewards) else "nothing"
            builder.diverged(f"episode {name}: step {k}: reward recorded {got}, replay gives {float(reward)}")
        if isinstance(hashes, list) and k <= len(hashes) and hashes[k - 1] != state_hash:
            builder.diverged(f"episode {name}: step {k}: state hash recorded {short_hash(hashes[k - 1])}, replay gives {short_hash(state_hash)}")
    last = builder.positions[-1]
    steps = len(builder.positions) - 1
    recorded = header["recorded"]
    if recorded["steps"] != steps:
        builder.diverged(f"episode {name}: step {steps}: {recorded['steps']} steps recorded, the replay made {steps}")
    if last["hash"] != recorded["final_state_hash"]:
        builder.diverged(f"episode {name}: step {steps}: final state hash recorded {short_hash(recorded['final_state_hash'])}, "
                         f"replay gives {short_hash(last['hash'])}")
    success = bool(last["passed"]) and record.get("failure") is None
    if recorded["success"] is not None and bool(recorded["success"]) != success:
        builder.diverged(f"episode {name}: step {steps}: success recorded {recorded['success']}, replay gives {success}")
    trace = builder.trace()
    trace.update(steps=steps, success=success, **{"return": last["return"]})
    return trace


def _dataset_header(record: dict[str, Any]) -> dict[str, Any]:
    verdict = record.get("verdict") or {}
    return {
        "name": str(record.get("id") or f"{record['procedure']}-s{record['seed']}"),
        "format": "dataset",
        "task": record["procedure"],
        "seed": record["seed"],
        "kind": record.get("kind", "demonstration"),
        "domain": record.get("domain"),
        "mode": record.get("mode"),
        "corruption": record.get("corruption"),
        "instruction": record.get("instruction", ""),
        "recorded": {
            "steps": len(record["steps"]),
            "success": verdict.get("passed"),
            "return": verdict.get("score"),
            "final_state_hash": record["state_hash"],
        },
    }


def _plain(verification: Any) -> dict[str, Any]:
    return {
        "passed": verification.passed,
        "score": round(verification.score, 4),
        "checks": [{"kind": c.kind, "subject": c.subject, "passed": c.passed} for c in verification.checks],
    }


def replay_dataset(record: dict[str, Any], frames: FrameWriter) -> dict[str, Any]:
    """The trace of an ``episodes.jsonl`` record (see the module docstring)."""
    from cwgym.environment.world import World
    from cwgym.procedures.library import load_procedure
    from cwgym.procedures.stage import stage
    from cwgym.procedures.verification import verify_with
    from cwgym.resources import load_world

    header = _dataset_header(record)
    name = header["name"]
    try:
        procedure = load_procedure(record["procedure"])
    except KeyError:
        raise ViewerError(f"episode {name}: unknown procedure {record['procedure']!r} (`cwgym procedure list` lists them)") from None
    world = World(load_world(record.get("world") or procedure.world), seed=int(record.get("world_seed", 0)))
    instance = stage(world, procedure, int(record["seed"]))
    captures = record.get("captures")
    width, height = (record.get("viewport") or [1280, 800])[:2]
    sessions = {}
    for session in record["sessions"]:
        env = world.environment(session["config"])
        if env.id != session.get("id"):
            raise ViewerError(f"episode {name}: session {session.get('id')!r} replays as {env.id!r}: the world or its grant differs")
        sessions[env.id] = env
    steps = record["steps"]
    viewed = steps[0].get("session_id") if steps else next(iter(sessions), None)
    if viewed is None:
        raise ViewerError(f"episode {name}: the record grants no session")
    builder = TraceBuilder(header, frames, int(width), int(height))
    builder.add(world.scene(viewed, width, height), world.state_hash(), _plain(verify_with(world, instance, captures)))
    for k, step in enumerate(steps, 1):
        session = step.get("session_id")
        if session not in sessions:
            builder.diverged(f"episode {name}: step {k}: acts through session {session!r}, which the record does not grant")
            break
        before = world.scene(session, width, height)
        if step.get("scene") is not None and str(before.digest) != str(step["scene"]):
            builder.diverged(f"episode {name}: step {k}: the screen it was chosen from replays as scene {before.digest}, recorded {step['scene']}")
        outcomes = [o for o in sessions[session].step([step["action"]])["outcomes"]]
        builder.add(world.scene(session, width, height), world.state_hash(), _plain(verify_with(world, instance, captures)),
                    action=step["action"], envelopes=[step["action"]], outcome={"status": "ok" if all(o.get("success") for o in outcomes) else "failed", "actions": len(outcomes)},
                    outcomes=outcomes, phase=step.get("phase"), target=step.get("target"), session=session)
    last = builder.positions[-1]
    recorded = header["recorded"]
    if last["hash"] != recorded["final_state_hash"]:
        builder.diverged(f"episode {name}: step {len(builder.positions) - 1}: final state hash recorded "
                         f"{short_hash(recorded['final_state_hash'])}, replay gives {short_hash(last['hash'])}")
    if recorded["success"] is not None and bool(recorded["success"]) != last["passed"]:
        builder.diverged(f"episode {name}: step {len(builder.positions) - 1}: verdict recorded {recorded['success']}, replay gives {last['passed']}")
    trace = builder.trace()
    trace.update(steps=len(builder.positions) - 1, success=last["passed"], **{"return": last["score"]})
    return trace
