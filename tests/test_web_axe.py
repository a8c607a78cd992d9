"""axe-core in Debian's chromium: no serious or critical accessibility
violation on the lobby, the table, a showdown, the match end, History,
Statistics, the rules and the guided deal, in English and Russian.

axe-core comes from the npm registry into .axe/ (scripts/axe-core.sh, run by
`make test`); the test's browser answers it from the page's own origin, so
the page keeps its Content-Security-Policy (no bypass); nothing from a CDN.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from test_web_e2e import base_url, browser, shot
from test_web_player import start

pytestmark = pytest.mark.browser
__all__ = ["base_url", "browser"]

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / ".axe" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        subprocess.run(["bash", str(ROOT / "scripts" / "axe-core.sh")], check=True)
    return AXE.read_text()


AXE_URL = "/__test__/axe.min.js"


def serve_axe(page: Page, axe_source: str) -> None:
    """axe-core answered from the page's own origin (a route of the test's
    browser, nothing on the server), so the page's Content-Security-Policy
    (script-src 'self') allows it and stays in force while axe runs."""
    page.route(
        f"**{AXE_URL}",
        lambda route: route.fulfill(body=axe_source, content_type="text/javascript"),
    )


def serious(page: Page, axe_source: str) -> list[str]:
    # Any page may be checked (the friends tests open their own): the route is set once per page.
    if not getattr(page, "axe_served", False):
        serve_axe(page, axe_source)
        page.axe_served = True  # type: ignore[attr-defined]
    page.add_script_tag(url=AXE_URL)
    result: dict[str, Any] = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_serious_violations(browser: Browser, base_url: str, axe_source: str, lang: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=lang)
    page = context.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.goto(base_url + "/")
    expect(page.locator("#deal-button")).to_be_visible()
    found = {"lobby": serious(page, axe_source)}
    # A deal's showdown inside a longer match (Next deal), then a one-deal
    # match to its end.
    start(page, bots=2, seed=7)
    page.click("#stock")
    expect(page.locator("#btn-stock")).to_be_disabled()
    page.locator(".hand .card").last.click()
    page.click("#btn-knock")
    page.wait_for_timeout(200)
    if page.locator("dialog[open]").count():
        page.locator("dialog[open] .danger").click()
    expect(page.locator("#showdown")).to_be_visible(timeout=20000)
    found["showdown"] = serious(page, axe_source)
    page.goto(base_url + "/")
    expect(page.locator("#deal-button")).to_be_visible()
    start(page, bots=2, length="one", seed=7)
    page.wait_for_selector("#stock:not([disabled])", timeout=20000)
    found["table"] = serious(page, axe_source)
    page.click("#stock")
    expect(page.locator("#btn-stock")).to_be_disabled()
    page.locator(".hand .card").last.click()
    page.click("#btn-knock")
    page.wait_for_timeout(200)
    if page.locator("dialog[open]").count():
        page.locator("dialog[open] .danger").click()
    expect(page.locator("#match-end")).to_be_visible(timeout=20000)
    found["match end"] = serious(page, axe_source)
    shot(page, f"match-end-1280-{lang}")
    page.goto(base_url + "/#/history")
    expect(page.locator("#my-games")).to_be_visible()
    found["history"] = serious(page, axe_source)
    page.goto(base_url + "/#/stats")
    expect(page.locator("#stats-played")).to_be_visible()
    found["statistics"] = serious(page, axe_source)
    page.goto(base_url + "/#/rules/knock")
    expect(page.locator("#rules-tutorial")).to_be_visible()
    found["rules"] = serious(page, axe_source)
    page.goto(base_url + "/#/learn")
    expect(page.locator("#coach")).to_be_visible()
    found["guided deal"] = serious(page, axe_source)
    for step in ("#tutorial-draw", "#tutorial-card-KS", "#tutorial-discard", "#tutorial-take"):
        page.click(step)
    page.click("#tutorial-card-QS")
    page.click("#tutorial-knock")
    expect(page.locator("#tutorial-showdown")).to_be_visible()
    found["guided deal showdown"] = serious(page, axe_source)
    context.close()
    assert {name: issues for name, issues in found.items() if issues} == {}
    # The page's CSP was in force the whole time, and nothing broke it.
    assert violations == []
