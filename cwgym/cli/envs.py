"""``cwgym list``: the registered Gymnasium envs, with their task, interface and step limit.

    cwgym list                              # every env, grouped by suite
    cwgym list --suite easy                 # one suite
    cwgym list cwgym/easy-new-folder-v1     # some envs by id
    cwgym list --json                       # one JSON object per line: id, suite, title, max_episode_steps, kwargs
    cwgym list --data ~/src/cwgym           # the envs of a clone's envs/*.json

The suites are read strictly: a suite file that cannot be read is an error naming it.
"""

from __future__ import annotations

import argparse
import difflib
import json

from cwgym.cli.common import UserError, unknown_env
from cwgym.rl.specs import EnvEntry, load_suites


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("list", help="list the Gymnasium envs (ids, tasks, interfaces, step limits)",
                            description="List the envs the suite files of envs/ define.")
    parser.add_argument("ids", nargs="*", metavar="ID", help="only these env ids (default: every env)")
    parser.add_argument("--suite", help="only this suite (easy, procedures, terminal, ...)")
    parser.add_argument("--json", action="store_true", help="one JSON object per env, with its full configuration")
    parser.set_defaults(run=run)


def _select(entries: list[EnvEntry], suite: str | None, ids: list[str]) -> list[EnvEntry]:
    every = {e.id: e for e in entries}
    if suite is not None:
        suites = sorted({e.suite for e in entries})
        if suite not in suites:
            from cwgym.cli.eval import leaderboard_suites

            if suite in leaderboard_suites():
                raise UserError(f"--suite {suite!r} is a leaderboard suite: it names envs of the others for `cwgym eval --suite {suite}`")
            close = difflib.get_close_matches(suite, suites, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UserError(f"--suite {suite!r}: no such suite{hint} (the suites are {', '.join(suites)})")
        entries = [e for e in entries if e.suite == suite]
    if ids:
        by_id = {e.id: e for e in entries}
        for env_id in ids:
            if env_id in every and env_id not in by_id:
                raise UserError(f"{env_id} is an env of suite {every[env_id].suite}, not of --suite {suite}")
            if env_id not in by_id:
                raise UserError(unknown_env(env_id))
        entries = [by_id[i] for i in dict.fromkeys(ids)]
    return entries


def run(args: argparse.Namespace) -> int:
    entries = _select(load_suites(), args.suite, list(getattr(args, "ids", None) or []))
    if args.json:
        for e in entries:
            print(json.dumps(e.to_plain(), sort_keys=True))
        return 0
    if not entries:
        print("no envs: the data folder's envs/ defines none")
        return 0
    width = max(len(e.id) for e in entries)
    interface = max(len(e.interface) for e in entries)
    suite = None
    for e in entries:
        if e.suite != suite:
            suite = e.suite
            print(f"{'' if suite == entries[0].suite else chr(10)}[{suite}]")
        steps = e.max_episode_steps if e.max_episode_steps is not None else "-"
        print(f"  {e.id:<{width}}  {e.interface:<{interface}}  {steps!s:>4} steps  {e.title}")
    return 0
