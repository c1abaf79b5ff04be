"""``cwgym verify``: replay a submission without the agent and recompute every score.

    cwgym verify runs/random
    cwgym verify runs/hidden --secret-file ~/hidden.key

Reads ``DIR/submission.json`` (and ``DIR/results.json`` when present). It first refuses,
in one line and with exit status 2, a submission it cannot judge: unreadable, of another
format, of a suite that cannot be loaded, empty, missing an episode the suite requires
(each task's full episode count), or made on a hidden split when the same secret is not
given. Then for every episode it checks the engine version, that the episode is one the
suite fixes (its index, and on the public split its seed) and is not played twice;
replays its action log in a fresh env on the episode's seed (recomputed from the secret on
a hidden split); and compares the recomputed per-step rewards, return, steps, success and
final state hash with the recorded ones. A log that stops before its episode ended must
record the agent failure that stopped it. The scores in ``results.json`` must be what the
episodes summarize to. The first mismatch of each episode is reported naming the episode;
any mismatch exits 1.

A directory ``cwgym rollouts`` wrote is told by its ``rollouts.json`` and checked the same
way, episode by episode: each file listed and no other, its seed the run's seed plus its
index, its action log replayed on that seed and the rewards, return, steps, success, done
flags, state hashes and final state hash compared (an episode cut by ``--max-steps`` counts
as truncated there), and the index's summary recomputed. A rollouts directory is not a
leaderboard submission: there is no suite, so no rule on which or how many episodes it
holds, and ``--suite`` and the secret options do not apply. The recorded ``infos`` and
frames are not re-derived; only that a frame exists for the reset and every step is.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cwgym._version import engine_version
from cwgym.cli.eval import (
    SUBMISSION_FORMAT,
    SuiteError,
    add_secret_options,
    episode_name,
    load_suite,
    replay_episode,
    secret_of,
    summarize,
)
from cwgym.leaderboard.splits import SecretError, Split
from cwgym.rl.rollouts import INDEX_FILE, RolloutError, episode_file, frames_folder, read_index

__all__ = ["Refused", "check", "check_rollouts", "verify"]

COMPARED = ("world", "procedure", "machine", "config", "max_episode_steps", "rewards", "return", "steps", "success", "terminated", "truncated", "families", "final_state_hash")
#: Compared when the record has them (submissions from before they were recorded do not).
COMPARED_IF_RECORDED = ("state_hashes",)
#: Compared for each episode of a rollouts directory (``truncated`` and the step limit apart).
ROLLOUT_COMPARED = ("world", "procedure", "machine", "config", "rewards", "return", "steps", "success", "terminated", "families", "final_state_hash")


class Refused(Exception):
    """A submission ``cwgym verify`` cannot judge (exit status 2)."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("verify", help="replay a submission or a rollouts directory without the agent and recompute its scores")
    parser.add_argument("dir", help="a directory cwgym eval wrote (submission.json, results.json) or cwgym rollouts wrote (rollouts.json)")
    parser.add_argument("--suite", help="verify against this suite (name or path) instead of the one the submission names")
    add_secret_options(parser, "the submission was played on")
    parser.set_defaults(run=run)


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _split(submission: dict[str, Any], secret: bytes | None) -> Split:
    recorded = submission.get("split")
    if recorded == {"kind": "public"}:
        if secret is not None:
            raise Refused("the submission was played on the public split; it needs no secret")
        return Split()
    if not isinstance(recorded, dict) or recorded.get("kind") != "hidden":
        raise Refused(f"the submission's split {_short(recorded)} is neither public nor hidden")
    if secret is None:
        raise Refused("the submission was played on a hidden split: give its secret with --secret-file or --secret-env")
    split = Split(secret)
    if split.describe() != recorded:
        raise Refused(f"the secret given is not the one the submission was played with (sha256 {recorded.get('secret_sha256')})")
    return split


def _seeds(suite: dict[str, Any], split: Split) -> dict[str, list[int]]:
    return {t["env"]: split.seeds(suite, t) for t in suite["tasks"]}


def _complete(suite: dict[str, Any], episodes: list[Any]) -> None:
    if not episodes:
        raise Refused("the submission holds no episodes")
    have: dict[str, set] = {}
    for e in episodes:
        if isinstance(e, dict):
            have.setdefault(e.get("env_id"), set()).add(e.get("index"))
    missing = [(t["env"], t["episodes"], len(have.get(t["env"], set()) & set(range(t["episodes"])))) for t in suite["tasks"]]
    missing = [m for m in missing if m[2] < m[1]]
    if missing:
        env_id, wanted, got = missing[0]
        more = f" (and {len(missing) - 1} more tasks)" if len(missing) > 1 else ""
        raise Refused(f"the submission is incomplete: suite {suite['suite']} requires {wanted} episodes of {env_id}, it holds {got}{more}")


def _differing_step(recorded: list[Any], again: list[Any]) -> int:
    """The first step (from 1) whose state hash differs between two lists of them."""
    return next((k for k, (a, b) in enumerate(zip(recorded, again), 1) if a != b), min(len(recorded), len(again)) + 1)


def _episode_problems(record: dict[str, Any], seeds: dict[str, list[int]], split: Split, seen: set[str]) -> list[str]:
    env_id, index = record.get("env_id"), record.get("index")
    name = str(record.get("episode", "?"))
    if env_id not in seeds or not isinstance(index, int) or not 0 <= index < len(seeds[env_id]):
        return [f"episode {name}: episode {index} of {env_id} is not one the suite fixes"]
    seed = seeds[env_id][index]
    if split.hidden and "seed" in record:
        return [f"episode {name}: a hidden-split episode records its seed"]
    if not split.hidden and record.get("seed") != seed:
        return [f"episode {name}: seed {record.get('seed')} is not the seed the suite fixes for episode {index} of {env_id}"]
    if name != episode_name(env_id, index, None if split.hidden else seed):
        return [f"episode {name}: its name does not match env {env_id} episode {index}"]
    if name in seen:
        return [f"episode {name}: played twice"]
    seen.add(name)
    if record.get("engine_version") != engine_version:
        return [f"episode {name}: engine version {record.get('engine_version')} is not this engine's {engine_version}"]
    try:
        replayed = replay_episode(record, seed)
    except Exception as exc:
        return [f"episode {name}: the replay failed: {type(exc).__name__}: {exc}"]
    problems = [
        f"episode {name}: {key} recorded {_short(record.get(key))}, replay gives {_short(replayed[key])}"
        for key in COMPARED
        if record.get(key) != replayed[key]
    ]
    if "state_hashes" in record and record["state_hashes"] != replayed["state_hashes"]:  # see COMPARED_IF_RECORDED
        step = _differing_step(record["state_hashes"], replayed["state_hashes"])
        problems.append(f"episode {name}: the state hash after step {step} differs from the replay's")
    if not problems and record.get("failure") is None and not (replayed["terminated"] or replayed["truncated"]):
        problems.append(f"episode {name}: its log stops before the episode ended, yet it records no agent failure")
    return problems


def check(directory: Path, suite: str | None = None, secret: bytes | None = None, progress: bool = False) -> list[str]:
    """Every problem with the submission in ``directory`` (empty when it verifies).

    The episodes are checked against ``suite`` (a leaderboard suite's name under ``envs/``
    or a path), by default the suite the submission names, looked up by name: a
    submission cannot bring its own suite file.

    A directory with a ``rollouts.json`` is a rollouts directory, checked by
    :func:`check_rollouts` (``suite`` and ``secret`` do not apply to it).

    Raises:
        Refused: a submission that cannot be judged (see the module's docstring).
    """
    if (directory / INDEX_FILE).is_file():
        if suite is not None or secret is not None:
            raise Refused(f"{directory} is a rollouts directory ({INDEX_FILE}): --suite and the secret options apply to submissions only")
        return check_rollouts(directory, progress)
    try:
        submission = json.loads((directory / "submission.json").read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise Refused(f"no readable submission.json in {directory} ({exc})") from None
    if not isinstance(submission, dict) or submission.get("format") != SUBMISSION_FORMAT:
        found = submission.get("format") if isinstance(submission, dict) else None
        raise Refused(f"submission format {found!r} is not {SUBMISSION_FORMAT} (run the agent again with this cwgym eval)")
    try:
        fixed = load_suite(suite or submission["suite"])
    except (SuiteError, KeyError) as exc:
        raise Refused(f"the submission's suite {submission.get('suite')!r} cannot be loaded ({exc})") from None
    split = _split(submission, secret)
    episodes = submission.get("episodes")
    if not isinstance(episodes, list):
        raise Refused("the submission's episodes are not a list")
    _complete(fixed, episodes)
    seeds = _seeds(fixed, split)
    problems: list[str] = []
    seen: set[str] = set()
    from tqdm import tqdm

    for record in tqdm(episodes, desc="verify", unit="ep", disable=not progress):
        if not isinstance(record, dict):
            problems.append(f"an episode is {type(record).__name__}, not a record")
            continue
        problems.extend(_episode_problems(record, seeds, split, seen))
    results_path = directory / "results.json"
    if results_path.exists():
        results = json.loads(results_path.read_text())
        summary = summarize([r for r in episodes if isinstance(r, dict)])
        by_id = {r["env_id"]: r for r in summary["tasks"]}
        for row in results.get("tasks", []):
            expected = by_id.get(row.get("env_id"))
            if expected != row:
                problems.append(f"results.json task {row.get('env_id')}: scores {_short(row)} are not what its episodes give {_short(expected)}")
        if results.get("overall") != summary["overall"]:
            problems.append(f"results.json overall: {_short(results.get('overall'))} is not what the episodes give {_short(summary['overall'])}")
        for key in ("agent_view", "split"):
            if results.get(key) != submission.get(key):
                problems.append(f"results.json {key}: {_short(results.get(key))} is not the submission's {_short(submission.get(key))}")
    return problems


# -- rollouts directories ----------------------------------------------------------------------
def _listing_problems(directory: Path, index: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """The index's file entries that name their episode correctly, and the problems of the others and of unlisted files."""
    seed, count, files = index.get("seed"), index.get("episodes"), index.get("files")
    if not (isinstance(seed, int) and isinstance(count, int) and count >= 1 and isinstance(files, list)):
        raise Refused(f"{directory / INDEX_FILE} does not give a seed, an episode count and a file list")
    problems = []
    if index.get("seeds") != [seed + i for i in range(count)]:
        problems.append(f"{INDEX_FILE}: seeds {_short(index.get('seeds'))} are not {seed}..{seed + count - 1}")
    if len(files) != count:
        problems.append(f"{INDEX_FILE}: {len(files)} files listed for {count} episodes")
    good = []
    for i, entry in enumerate(files):
        want = episode_file(i, seed + i)
        if not isinstance(entry, dict) or entry.get("index") != i or entry.get("seed") != seed + i or entry.get("file") != want:
            problems.append(f"{INDEX_FILE}: files[{i}] is {_short(entry)}, not episode {i} on seed {seed + i} in {want}")
        else:
            good.append(entry)
    listed = {e["file"] for e in good} | {e["frames"]["folder"] for e in good if isinstance(e.get("frames"), dict)}
    for folder in ("episodes", "frames"):
        if (directory / folder).is_dir():
            extra = sorted(f"{folder}/{p.name}" for p in (directory / folder).iterdir() if f"{folder}/{p.name}" not in listed)
            problems += [f"{name} is not listed in {INDEX_FILE} (a file of another run?)" for name in extra]
    return good, problems


def _rollout_problems(directory: Path, entry: dict[str, Any], index: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str]]:
    """One listed episode checked and replayed: its record (``None`` if unreadable) and its problems."""
    name = entry["file"]
    try:
        record = json.loads((directory / name).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, [f"{name}: cannot read it ({exc})"]
    if not isinstance(record, dict):
        return None, [f"{name}: not an episode record"]
    wanted = {"env_id": index.get("env_id"), "index": entry["index"], "seed": entry["seed"], "engine_version": engine_version,
              "max_episode_steps": index.get("max_episode_steps")}
    wrong = [f"{name}: {key} is {_short(record.get(key))}, the run's is {_short(value)}" for key, value in wanted.items() if record.get(key) != value]
    if wrong:
        return record, wrong[:1]
    try:
        replayed = replay_episode(record, entry["seed"])
    except Exception as exc:
        return record, [f"{name}: the replay failed: {type(exc).__name__}: {exc}"]
    limit = index.get("max_episode_steps")
    truncated = replayed["truncated"] or (limit is not None and replayed["steps"] >= limit)  # as Gymnasium's TimeLimit, done or not
    replayed = {**replayed, "truncated": truncated}
    problems = [
        f"{name}: {key} recorded {_short(record.get(key))}, replay gives {_short(replayed[key])}"
        for key in (*ROLLOUT_COMPARED, "truncated")
        if record.get(key) != replayed[key]
    ]
    if record.get("state_hashes") != replayed["state_hashes"]:
        step = _differing_step(record.get("state_hashes") or [], replayed["state_hashes"])
        problems.append(f"{name}: the state hash after step {step} differs from the replay's")
    if not problems and record.get("failure") is None and not (replayed["terminated"] or truncated):
        problems.append(f"{name}: its log stops before the episode ended, yet it records no agent failure")
    frames = entry.get("frames")
    if isinstance(frames, dict):
        folder = directory / frames_folder(entry["index"], entry["seed"])
        have = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
        want = sorted(f"{k}.png" for k in range(replayed["steps"] + 1))
        if have != want or frames.get("count") != len(want):
            problems.append(f"{name}: {frames_folder(entry['index'], entry['seed'])} holds {len(have)} frames, not one for the reset and each of its {replayed['steps']} steps")
    return record, problems


def check_rollouts(directory: Path, progress: bool = False) -> list[str]:
    """Every problem with the rollouts directory ``directory`` (empty when it verifies).

    Raises:
        Refused: no readable ``rollouts.json`` of this format, another engine's run, or an
            env id this data folder does not register.
    """
    import gymnasium as gym

    import cwgym.rl  # noqa: F401  (registers the envs)

    try:
        index = read_index(directory)
    except RolloutError as exc:
        raise Refused(str(exc)) from None
    if index.get("engine_version") != engine_version:
        raise Refused(f"the rollouts were played by engine {index.get('engine_version')}, this is engine {engine_version}: verify with that cwgym")
    if index.get("env_id") not in gym.registry:
        raise Refused(f"the rollouts' env {index.get('env_id')!r} is not registered here (`cwgym list` lists the envs; --data for a clone's own)")
    entries, problems = _listing_problems(directory, index)
    records = []
    from tqdm import tqdm

    for entry in tqdm(entries, desc="verify", unit="ep", disable=not progress):
        record, found = _rollout_problems(directory, entry, index)
        problems += found
        if record is not None:
            records.append(record)
    summary = summarize(records)
    if not problems and index.get("summary") != summary:
        recorded = index.get("summary")
        recorded = recorded.get("overall") if isinstance(recorded, dict) else recorded
        problems.append(f"{INDEX_FILE} summary: {_short(recorded)} is not what the episodes give {_short(summary['overall'])}")
    return problems


def verify(directory: Path, suite: str | None = None, secret: bytes | None = None, progress: bool = False) -> list[str]:
    """:func:`check`, with a refusal as the one problem: empty when the submission verifies."""
    try:
        return check(directory, suite, secret, progress)
    except Refused as refusal:
        return [str(refusal)]


def run(args: argparse.Namespace) -> int:
    directory = Path(args.dir)
    try:
        problems = check(directory, args.suite, secret_of(args), progress=True)
    except (Refused, SecretError) as refusal:
        print(f"cwgym verify: {refusal}", file=sys.stderr)
        return 2
    if problems:
        for p in problems:
            print(f"cwgym verify: {p}", file=sys.stderr)
        print(f"cwgym verify: REJECTED {directory} ({len(problems)} problem(s))", file=sys.stderr)
        return 1
    if (directory / INDEX_FILE).is_file():
        index = read_index(directory)
        print(f"cwgym verify: {directory}: {index['episodes']} rollouts of {index['agent']} on {index['env_id']} replayed; "
              "every score and state hash matches")
        return 0
    submission = json.loads((directory / "submission.json").read_text())
    split = "hidden" if submission["split"]["kind"] == "hidden" else "public"
    print(
        f"cwgym verify: {directory}: {len(submission['episodes'])} episodes of a {submission['agent_view']} agent on the "
        f"{split} split replayed; every score and final state hash matches"
    )
    return 0
