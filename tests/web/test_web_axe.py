"""axe-core in Debian's chromium: no serious or critical accessibility
violation on the lobby, the table, a showdown, the match end, History,
Statistics, the rules and the guided deal, in English and Russian.

axe-core comes from the npm registry into .axe/ (scripts/axe-core.sh, run by
`make test`); the test's browser answers it from the page's own origin, so
the page keeps its Content-Security-Policy (no bypass); nothing from a CDN.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from web_helpers import (
    axe_source,
    base_url,
    browser,
    knock_now,
    serious,
    shot,
    start,
)

pytestmark = pytest.mark.browser
__all__ = ["axe_source", "base_url", "browser"]  # the shared fixtures


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
    knock_now(page)
    expect(page.locator("#showdown")).to_be_visible(timeout=20000)
    found["showdown"] = serious(page, axe_source)
    page.goto(base_url + "/")
    expect(page.locator("#deal-button")).to_be_visible()
    start(page, bots=2, length="one", seed=7)
    page.wait_for_selector("#stock:not([disabled])", timeout=20000)
    found["table"] = serious(page, axe_source)
    knock_now(page)
    expect(page.locator("#match-end")).to_be_visible(timeout=20000)
    found["match end"] = serious(page, axe_source)
    shot(page, f"match-end-1280-{lang}")
    for screen, address, ready in [
        ("history", "/#/history", "#my-games"),
        ("statistics", "/#/stats", "#stats-played"),
        ("rules", "/#/rules/knock", "#rules-tutorial"),
        ("guided deal", "/#/learn", "#coach"),  # stays open for the steps below
    ]:
        page.goto(base_url + address)
        expect(page.locator(ready)).to_be_visible()
        found[screen] = serious(page, axe_source)
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
