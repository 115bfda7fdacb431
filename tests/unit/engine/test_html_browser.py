"""The HTML report in a real headless browser (Debian's ``chromium`` + ``chromium-driver``, selenium).

Opens ``index.html`` from ``file://`` (no server, no network), checks that the claim table renders with
one row per claim, follows the links to every claim page, and that every figure loads
(``img.naturalWidth > 0``).  Skipped, with the reason, when selenium, chromium or chromedriver is
missing; ``.ci/run`` installs them and sets ``VERIFY_REQUIRE_BROWSER=1``, so that in CI this test runs
(a missing piece then fails it).
"""

import os
import shutil
import sys

import pytest

from verify._cli import EXIT_OK, main

from ._html_catalogue import N_CLAIMS, make_catalogue

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
#: set by .ci/run once chromium is installed: then a missing piece fails the test instead of skipping it
REQUIRED = os.environ.get("VERIFY_REQUIRE_BROWSER") == "1"


def _missing():
    try:
        import selenium.webdriver  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[dev]')"
    if CHROMIUM is None or CHROMEDRIVER is None:
        return "needs Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver)"
    return None


if _missing() is not None:
    if REQUIRED:
        pytest.fail(f"VERIFY_REQUIRE_BROWSER=1 but {_missing()}", pytrace=False)
    pytest.skip(_missing(), allow_module_level=True)

from selenium import webdriver


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("browsercat")
    name = make_catalogue(root, "browsercat_pkg")
    out = tmp_path_factory.mktemp("browsersite")
    try:
        assert main(["--catalogue", name, "run", "--no-progress", "--html", str(out)]) == EXIT_OK
    finally:
        sys.path.remove(str(root))
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--allow-file-access-from-files", "--no-first-run", "--window-size=1280,1000",
                f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        opts.add_argument(arg)
    service = Service(executable_path=CHROMEDRIVER, log_output=os.devnull)
    drv = webdriver.Chrome(service=service, options=opts)
    drv.set_page_load_timeout(60)
    yield drv
    drv.quit()


_IMAGES = """
return Array.from(document.images).map(i => [i.getAttribute('src'), i.complete, i.naturalWidth]);
"""


def test_index_renders_links_work_and_every_figure_loads(site, browser):
    from selenium.webdriver.common.by import By

    browser.get((site / "index.html").as_uri())
    assert browser.title.startswith("verify report")
    rows = browser.find_elements(By.CSS_SELECTOR, "table tbody tr")
    assert len(rows) == N_CLAIMS
    assert all(r.is_displayed() for r in rows)
    hrefs = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "table tbody tr a")]
    assert len(hrefs) == N_CLAIMS

    # follow the first link by clicking it, as a reader would
    browser.find_element(By.LINK_TEXT, "html.fig.attached").click()
    assert browser.current_url.endswith("/claims/html.fig.attached.html")
    h1 = browser.find_element(By.TAG_NAME, "h1").text
    assert "html.fig.attached" in h1
    imgs = browser.execute_script(_IMAGES)
    assert len(imgs) == 3
    assert all(done and width > 0 for _, done, width in imgs), imgs
    browser.find_element(By.LINK_TEXT, "all claims").click()
    assert browser.current_url.endswith("/index.html")

    n_images = 0
    for href in hrefs:
        browser.get(href)
        assert "404" not in browser.title and browser.find_element(By.TAG_NAME, "h1").text
        imgs = browser.execute_script(_IMAGES)
        assert all(done and width > 0 for _, done, width in imgs), (href, imgs)
        n_images += len(imgs)
    assert n_images >= 4
