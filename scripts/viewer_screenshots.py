"""The two screenshots of docs/viewer.md, taken in headless Chromium from a fresh site.

    PYTHONPATH=. python scripts/viewer_screenshots.py

Runs the expert (``cwgym eval --privileged``) on a small suite of four envs, builds the
site with ``cwgym view``, and saves the overview and an episode page, stepped with the
right arrow and showing the screen its action was chosen from, as docs/images/viewer-overview.png and docs/images/viewer-episode.png. Needs
the chromium and chromium-driver packages and selenium; the driver is named by path, so
Selenium Manager downloads nothing.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
SUITE = {
    "kind": "leaderboard", "suite": "viewer-docs", "seed": 0,
    "tasks": [
        {"env": env, "seeds": [1000000, 1010000], "episodes": n}
        for env, n in (("cwgym/easy-open-app-v1", 2), ("cwgym/easy-new-folder-v1", 2),
                       ("cwgym/easy-rename-file-v1", 2), ("cwgym/terminal-ops-backup-script-v0", 1))
    ],
}
EPISODE = "cwgym/easy-rename-file-v1"
STEPS = 2


def main() -> int:
    sys.path.insert(0, str(ROOT / "tests" / "viewer"))
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from viewer_kit import browser_missing, chrome

    from cwgym.cli.eval import evaluate
    from cwgym.viewer import build_site

    missing = browser_missing()
    if missing:
        print(f"viewer_screenshots: {missing}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "suite.json").write_text(json.dumps(SUITE))
        evaluate("baselines.expert:make_agent", str(folder / "suite.json"), folder / "run", progress=False, privileged=True)
        result = build_site(folder / "run", folder / "site", "changed")
        site = json.loads((folder / "site" / "site.json").read_text())
        page = next(r["page"] for r in site["rows"] if r["task"] == EPISODE)
        driver = chrome(1400, 1180)
        try:
            driver.get(result.index.as_uri())
            driver.save_screenshot(str(IMAGES / "viewer-overview.png"))
            driver.get((folder / "site" / page).as_uri())
            body = driver.find_element(By.TAG_NAME, "body")
            for _ in range(STEPS):
                body.send_keys(Keys.ARROW_RIGHT)
            driver.find_element(By.ID, "before").click()  # the screen the double click was made on
            driver.save_screenshot(str(IMAGES / "viewer-episode.png"))
        finally:
            driver.quit()
    print(f"wrote {IMAGES / 'viewer-overview.png'} and {IMAGES / 'viewer-episode.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
