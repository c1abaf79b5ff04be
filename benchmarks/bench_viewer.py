"""Viewer rows: seconds to build the ``cwgym view`` site of the expert's leaderboard run.

The run is ``cwgym eval --agent baselines.expert:make_agent --suite leaderboard-v2
--privileged`` (made first and not timed). Each row builds the
whole site once, replay and state-hash checks included, with every changed frame
(``--frames changed``, the default) or none, in one process and in two (``--jobs``). The
target: under a minute with every changed frame on 2 cores. ``--quick`` evaluates one
episode per task instead.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from benchmarks.harness import Row

GROUP = "viewer"
AGENT = "baselines.expert:make_agent"
SUITE = "leaderboard-v2"
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
    return Row(GROUP, name, SUITE, 1, seconds, seconds, unit="s", note=note, extra=extra)


def _page_row(site: Path, loads: int) -> Row | None:
    """Milliseconds from navigation start to the end of the load event (the page's scripts
    have run: arrow keys step) for the site's largest episode page, opened from disk in the
    distribution's headless Chromium; ``None`` when the browser or Selenium is missing."""
    import shutil

    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None
    if not chromium or not driver_path:
        return None
    page = max((p for p in site.rglob("*.html") if p.name != "index.html"), key=lambda p: p.stat().st_size)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900",
                 "--allow-file-access-from-files", "--disable-background-networking", "--no-first-run"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    times = []
    try:
        for _ in range(loads + 1):  # the first load warms the browser up
            driver.get(page.as_uri())
            times.append(driver.execute_script("const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd;"))
    finally:
        driver.quit()
    times = sorted(times[1:])
    name = f"open the largest episode page ({page.stat().st_size / 1e3:.0f} kB) until its scripts have run"
    return Row(GROUP, name, SUITE, len(times), times[len(times) // 2], times[-1],
               note="headless Chromium from the distribution, page opened from disk; the target is under a second")


def run(quick: bool = False) -> list[Row]:
    from cwgym.cli.eval import evaluate

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        evaluate(AGENT, SUITE, folder / "run", 1 if quick else None, progress=False, privileged=True)
        rows = [_build_row(folder / "run", frames, jobs, folder) for frames, jobs in CASES]
        page = _page_row(folder / "site-changed-2", 3 if quick else 10)
        return rows + ([page] if page is not None else [])
