"""Web task rows: steps per second of the MiniWoB++-style envs (``envs/web.json``) with the
element table and with 160 x 210 pixels, and their resets.

A random policy picks only choices the screen offers (see ``bench_rl.Policy``); an episode
that ends is reset and the reset counts. MiniWoB++'s figures, measured with Selenium and
Chrome on a 2-CPU machine like ours, sit in the notes: 18.5 steps/s with screenshots, 64
without, resets of 56-84 ms.
"""

from __future__ import annotations

import argparse
import statistics

from benchmarks.bench_rl import _config
from benchmarks.bench_rl import _steps_row as steps_row
from benchmarks.harness import Row, measure, timings
from cwgym.rl.env import ComputerEnv

GROUP = "webtasks"
#: One kind per shape of page: buttons, a form to fill, a page with several views.
KINDS = ("web-click-button", "web-click-checkboxes", "web-enter-text", "web-search-engine")
MINIWOB_STEPS = "MiniWoB++ on a machine like ours: 18.5 steps/s with screenshots, 64 without"
MINIWOB_RESET = "MiniWoB++ resets in 56-84 ms on a machine like ours"


def _resets(kwargs: dict):
    def setup():
        env = ComputerEnv(**kwargs)
        env.reset(seed=0)
        seeds = iter(range(1, 10**9))
        return lambda: env.reset(seed=next(seeds))
    return setup


def run(quick: bool = False) -> list[Row]:
    n = 100 if quick else 2000
    rows: list[Row] = []
    for kind in KINDS:
        for label, env_id in (("element table", f"cwgym/{kind}-v0"), ("160x210 pixels", f"cwgym/{kind}-pixels-v0")):
            kwargs = _config(env_id)
            rows.append(steps_row(f"one env: {label}, random valid actions", kind,
                                  lambda kwargs=kwargs: ComputerEnv(max_episode_steps=16, **kwargs), n, MINIWOB_STEPS))
        row = measure(GROUP, "reset(seed): restore + stage the task + grant + load the page + observe", kind,
                      _resets(_config(f"cwgym/{kind}-v0")), n // 4)
        row.note = MINIWOB_RESET
        rows.append(row)
    return rows


def reset_p50s(n: int = 500) -> dict[str, float]:
    """The reset row's p50 (ms) per kind, measured as :func:`run` does, without the step
    rows and without writing ``benchmarks/results``."""
    return {kind: statistics.median(timings(_resets(_config(f"cwgym/{kind}-v0")), n)) for kind in KINDS}


def main() -> None:
    parser = argparse.ArgumentParser(description="reset(seed) p50 of the web task kinds the webtasks group times")
    parser.add_argument("-n", type=int, default=500, help="timed resets per kind (default 500, as the full run)")
    args = parser.parse_args()
    if args.n < 1:
        parser.error(f"-n must be at least 1, got {args.n}")
    for kind, p50 in reset_p50s(args.n).items():
        print(f"{kind:24s} reset p50 {p50:.3f} ms")


if __name__ == "__main__":
    main()
