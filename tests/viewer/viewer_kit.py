"""Helpers of the viewer's tests: records of a run, an independent replay, and the browser.

The browser is the distribution's headless Chromium driven by Selenium through the
distribution's chromedriver, both named by path (Selenium Manager never runs, so nothing
is downloaded); the tests that need it skip, saying why, when either is missing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: URL schemes that do not leave the machine: anything else a page asks for is a network request.
LOCAL_SCHEMES = ("file:", "data:", "about:", "chrome:", "chrome-extension:", "devtools:", "blob:file")


def record(run: Path, env_id: str) -> dict[str, Any]:
    """The record of ``env_id`` in an eval run's submission."""
    submission = json.loads((run / "submission.json").read_text())
    return next(e for e in submission["episodes"] if e["env_id"] == env_id)


def replay_to(rec: dict[str, Any], k: int) -> tuple[np.ndarray, str]:
    """The env's own ``render()`` and state hash after the record's first ``k`` actions,
    replayed here without the viewer."""
    import gymnasium as gym

    import cwgym.rl  # noqa: F401
    from cwgym.leaderboard.actions import checked_action

    env = gym.make(rec["env_id"], render_mode="rgb_array")
    env.reset(seed=rec["seed"])
    for action in rec["actions"][:k]:
        env.step(checked_action(env.action_space, action))
    frame, state = env.render(), env.unwrapped.state_hash()
    env.close()
    return frame, state


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or ``None``."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium)"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not path.exists() and not shutil.which(path.name):
            return f"{path} is missing (apt-get install {package})"
    return None


def chrome(width: int = 1400, height: int = 900) -> Any:
    """A headless Chromium with the DevTools performance log on (for the network check)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM if CHROMIUM.exists() else shutil.which("chromium"))
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--allow-file-access-from-files",
                 "--disable-background-networking", "--disable-component-update", "--no-first-run"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    service = Service(executable_path=str(CHROMEDRIVER if CHROMEDRIVER.exists() else shutil.which("chromedriver")))
    return webdriver.Chrome(service=service, options=options)


def requested_urls(driver: Any) -> list[str]:
    """Every URL the pages asked for since the last call (DevTools ``Network.requestWillBeSent``)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def network_requests(urls: list[str]) -> list[str]:
    """The URLs among ``urls`` that would leave the machine."""
    return [u for u in urls if not u.startswith(LOCAL_SCHEMES)]
