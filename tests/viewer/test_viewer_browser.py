"""The generated site in a real headless Chromium, opened from disk: the overview lists
the episodes, an episode page steps with the arrow keys and shows each step's action and
state hash, its frames are the renderer's PNGs, and no page makes a network request."""

from __future__ import annotations

import io
import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import numpy as np
import pytest
from PIL import Image
from viewer_kit import browser_missing, chrome, network_requests, record, replay_to, requested_urls

from cwgym.render import to_png

pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=f"no browser: {browser_missing()}")

FOLDER = "cwgym/easy-new-folder-v1"


@pytest.fixture(scope="module")
def driver():
    from selenium.common.exceptions import WebDriverException

    try:
        browser = chrome()
    except WebDriverException as exc:  # pragma: no cover - a broken browser install
        pytest.skip(f"chromium did not start: {exc.msg}")
    yield browser
    browser.quit()


def _open(driver, page: Path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(page.as_uri())
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    return driver.find_element(By.TAG_NAME, "body")


def _rows(driver) -> list[list[str]]:
    from selenium.webdriver.common.by import By

    return [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in driver.find_elements(By.CSS_SELECTOR, "#episodes tbody tr") if tr.is_displayed()]


def test_the_overview_lists_every_episode(driver, eval_site, eval_run):
    _open(driver, eval_site / "index.html")
    submission = json.loads((eval_run / "submission.json").read_text())
    rows = _rows(driver)
    assert [r[0] for r in rows] == [e["episode"] for e in submission["episodes"]]
    assert [int(r[3]) for r in rows] == [e["steps"] for e in submission["episodes"]]
    assert {r[4] for r in rows} == {"yes"} and {r[6] for r in rows} == {"yes"}
    plot = driver.find_element("id", "plot")
    assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", plot) > 0


def test_the_overview_sorts_and_filters(driver, eval_site):
    from selenium.webdriver.common.by import By

    _open(driver, eval_site / "index.html")
    steps = driver.find_element(By.CSS_SELECTOR, '#episodes th[data-col="3"]')
    steps.click()
    assert [int(r[3]) for r in _rows(driver)] == [1, 4, 5]
    steps.click()
    assert [int(r[3]) for r in _rows(driver)] == [5, 4, 1]
    driver.find_element(By.ID, "filter").send_keys("folder")
    assert [r[1] for r in _rows(driver)] == [FOLDER]
    assert driver.find_element(By.ID, "shown").text == "1 of 3 shown"


@pytest.mark.parametrize("k", [1, 3])
def test_arrow_keys_step_to_k_and_the_panel_shows_its_action_hash_and_frame(driver, eval_site, eval_run, k):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    _open(driver, eval_site / "index.html")
    driver.find_element(By.LINK_TEXT, record(eval_run, FOLDER)["episode"]).click()
    body = driver.find_element(By.TAG_NAME, "body")
    assert body.get_attribute("data-position") == "0"
    for _ in range(k):
        body.send_keys(Keys.ARROW_RIGHT)
    rec = record(eval_run, FOLDER)
    frame, state = replay_to(rec, k)
    assert body.get_attribute("data-position") == str(k)
    assert driver.find_element(By.ID, "step-k").text == str(k)
    assert json.loads(driver.find_element(By.ID, "step-action").text) == rec["actions"][k - 1]
    assert driver.find_element(By.ID, "step-hash").text == state
    assert driver.find_element(By.ID, "step-reward").text == str(rec["rewards"][k - 1]).removesuffix(".0")
    # the image shown is the renderer's PNG of that step, pixel for pixel and byte for byte
    img = driver.find_element(By.ID, "frame")
    assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", img) == frame.shape[1]
    shown = Path(unquote(urlparse(img.get_attribute("src")).path)).read_bytes()
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(shown)).convert("RGB")), frame)
    rgba = np.concatenate([frame, np.full((*frame.shape[:2], 1), 255, np.uint8)], axis=2)
    assert shown == to_png(rgba.tobytes(), frame.shape[1], frame.shape[0])
    # back one step with the left arrow
    body.send_keys(Keys.ARROW_LEFT)
    assert body.get_attribute("data-position") == str(k - 1)


def test_the_pointer_and_the_hit_element_are_drawn_over_the_frame(driver, eval_site, eval_run):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    slug = json.loads((eval_site / "site.json").read_text())["rows"][1]["page"]
    body = _open(driver, eval_site / slug)
    body.send_keys(Keys.ARROW_RIGHT)
    hit = driver.find_element(By.ID, "hit-box")
    assert hit.get_attribute("visibility") == "visible"
    assert [hit.get_attribute(a) for a in ("x", "y", "width", "height")] == ["10", "105", "48", "48"]  # the Files launcher
    assert driver.find_element(By.CSS_SELECTOR, "#pointer circle").get_attribute("cx") == "34"
    assert "Files" in driver.find_element(By.ID, "step-hit").text
    assert "window.opened" in driver.find_element(By.ID, "step-effects").text
    assert driver.find_elements(By.CSS_SELECTOR, "#elements tbody tr")


def test_no_page_makes_a_network_request_and_an_episode_page_is_quick(driver, eval_site):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    requested_urls(driver)  # drop what earlier tests asked for
    _open(driver, eval_site / "index.html")
    pages = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#episodes a")]
    ready = []
    for page in pages:
        body = _open(driver, Path(unquote(urlparse(page).path)))
        for _ in range(6):
            body.send_keys(Keys.ARROW_RIGHT)
        ready.append(driver.execute_script(
            "const t = performance.getEntriesByType('navigation')[0]; return t.domContentLoadedEventEnd - t.startTime;"))
    urls = requested_urls(driver)
    assert any(u.endswith(".png") for u in urls) and any(u.endswith("episode.js") for u in urls)
    assert network_requests(urls) == []
    assert max(ready) < 3000, f"an episode page took {max(ready):.0f} ms to become interactive"


def test_the_network_check_sees_a_request(driver, tmp_path):
    page = tmp_path / "leaky.html"
    page.write_text('<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/leak.png"></body></html>')
    requested_urls(driver)
    _open(driver, page)
    assert network_requests(requested_urls(driver)) == ["http://127.0.0.1:9/leak.png"]
