"""``cwgym list``: the registered Gymnasium envs, with their task, interface and step limit.

    cwgym list                 # every env, grouped by suite
    cwgym list --suite easy    # one suite
    cwgym list --json          # one JSON object per line: id, suite, title, max_episode_steps, kwargs
"""

from __future__ import annotations

import argparse
import json

from cwgym.rl.specs import load_suites


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("list", help="list the Gymnasium envs (ids, tasks, interfaces, step limits)")
    parser.add_argument("--suite", help="only this suite (easy, procedures, terminal, ...)")
    parser.add_argument("--json", action="store_true", help="one JSON object per env, with its full configuration")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    entries = [e for e in load_suites() if args.suite is None or e.suite == args.suite]
    if not entries:
        known = sorted({e.suite for e in load_suites()})
        print(f"cwgym list: no envs in suite {args.suite!r}; suites: {', '.join(known)}")
        return 1
    if args.json:
        for e in entries:
            print(json.dumps(e.to_plain(), sort_keys=True))
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
