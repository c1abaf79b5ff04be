"""Viewer rows: seconds to build the ``cwgym view`` site of the expert's leaderboard run.

The run is ``cwgym eval --agent baselines.expert:make_agent --suite leaderboard-v0
--privileged`` (97 episodes, 748 steps; made first and not timed). Each row builds the
whole site once, replay and state-hash checks included, with every changed frame
(``--frames changed``, the default) or none, in one process and in two (``--jobs``). The
target: under a minute with every changed frame on 2 cores. ``--quick`` evaluates one
episode per task (39) instead.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from benchmarks.harness import Row

GROUP = "viewer"
AGENT = "baselines.expert:make_agent"
SUITE = "leaderboard-v0"
CASES = (("changed", 2), ("changed", 1), ("none", 2), ("none", 1))


def _build_row(run: Path, frames: str, jobs: int, folder: Path) -> Row:
    from cwgym.viewer import build_site

    out = folder / f"site-{frames}-{jobs}"
    started = time.perf_counter()
    result = build_site(run, out, frames, jobs=jobs)
    seconds = time.perf_counter() - started
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    name = f"build the site of the expert's {SUITE} run ({result.episodes} episodes), frames {frames}, {jobs} process{'es' if jobs > 1 else ''}"
    note = f"{result.frames} frames, {size / 1e6:.1f} MB, {result.episodes / seconds:.1f} episodes/s"
    if result.divergences:
        note += f"; {len(result.divergences)} DIVERGED"
    extra = {"seconds": round(seconds, 2), "episodes": result.episodes, "frames": result.frames, "bytes": size, "divergences": len(result.divergences)}
    return Row(GROUP, name, "leaderboard-v0", 1, seconds, seconds, unit="s", note=note, extra=extra)


def run(quick: bool = False) -> list[Row]:
    from cwgym.cli.eval import evaluate

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        evaluate(AGENT, SUITE, folder / "run", 1 if quick else None, progress=False, privileged=True)
        return [_build_row(folder / "run", frames, jobs, folder) for frames, jobs in CASES]
